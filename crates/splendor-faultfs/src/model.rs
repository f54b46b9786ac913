//! The file system's state in memory, apart from FUSE: a tree of
//! directories and files, two versions of every file's bytes (what reads
//! see, and what was synced), and the power switch.
//!
//! What survives a power cut, by design (and as documented in the crate):
//! - a file's bytes as they were at its last `fsync` or `fdatasync` (a
//!   change of size, `ftruncate`, is data too);
//! - every directory operation (create, mkdir, unlink, rmdir, rename) at
//!   once, as if the file system journalled metadata synchronously.
//!
//! After the cut every operation fails with `EIO`, as on a machine whose
//! disk is gone; the durable content is then read out as an [`Image`].

use std::collections::{BTreeMap, HashMap};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use fuser::Errno;

use crate::image::{Entry, Image};

mod content;
mod directories;

use content::Content;
#[cfg(test)]
use content::PAGE;

/// The root directory's inode number (FUSE's).
pub(crate) const ROOT: u64 = 1;

/// What an inode is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Directory,
    File,
}

/// An inode's attributes, as `stat` shows them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Attributes {
    pub(crate) ino: u64,
    pub(crate) kind: Kind,
    pub(crate) size: u64,
    pub(crate) perm: u16,
    pub(crate) nlink: u32,
    pub(crate) uid: u32,
    pub(crate) gid: u32,
    pub(crate) atime: SystemTime,
    pub(crate) mtime: SystemTime,
    pub(crate) ctime: SystemTime,
}

/// The changes `setattr` asks for; `None` keeps the value.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct NewAttributes {
    pub(crate) perm: Option<u16>,
    pub(crate) uid: Option<u32>,
    pub(crate) gid: Option<u32>,
    pub(crate) size: Option<u64>,
    pub(crate) atime: Option<SystemTime>,
    pub(crate) mtime: Option<SystemTime>,
}

/// One inode.
#[derive(Debug)]
struct Node {
    body: Body,
    perm: u16,
    uid: u32,
    gid: u32,
    /// Names that lead to it: 0 once a file is unlinked.
    nlink: u32,
    /// Open handles: an unlinked file lives until the last one is released.
    open: u32,
    atime: SystemTime,
    mtime: SystemTime,
    ctime: SystemTime,
}

#[derive(Debug)]
enum Body {
    Directory {
        parent: u64,
        entries: BTreeMap<OsString, u64>,
    },
    File(Content),
}

/// How many operations of each kind the file system served (before the cut).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Operations that change something (writes, truncations, syncs and
    /// directory operations), the ones a planned cut counts; writes of
    /// memory-mapped pages, whose timing is the kernel's, are not counted.
    pub changes: u64,
    /// `fsync` and `fdatasync` calls on files.
    pub syncs: u64,
    /// Bytes written.
    pub bytes_written: u64,
}

/// The power switch.
enum Power {
    On {
        /// A cut planned after a number of changes.
        plan: Option<PlannedCut>,
    },
    Off,
}

struct PlannedCut {
    /// Changes still allowed; the one after them is refused, and the power
    /// goes out.
    remaining: u64,
    /// Told once, when the power goes out.
    on_cut: Box<dyn FnOnce() + Send>,
}

/// The whole file system.
pub(crate) struct Model {
    nodes: HashMap<u64, Node>,
    next_ino: u64,
    power: Power,
    stats: Stats,
}

impl Model {
    /// The content of `image`, all of it durable, owned by `uid` and `gid`.
    pub(crate) fn from_image(image: &Image, uid: u32, gid: u32) -> Model {
        let mut model = Model {
            nodes: HashMap::new(),
            next_ino: ROOT + 1,
            power: Power::On { plan: None },
            stats: Stats::default(),
        };
        model.nodes.insert(
            ROOT,
            Node::new(
                Body::Directory {
                    parent: ROOT,
                    entries: BTreeMap::new(),
                },
                0o755,
                uid,
                gid,
            ),
        );
        let mut inos: HashMap<PathBuf, u64> = HashMap::new();
        inos.insert(PathBuf::new(), ROOT);
        for (path, entry) in image.entries() {
            let parent = inos[path.parent().unwrap_or(Path::new(""))];
            let name = path.file_name().expect("a plain name");
            let (body, perm) = match entry {
                Entry::Directory => (
                    Body::Directory {
                        parent,
                        entries: BTreeMap::new(),
                    },
                    0o755,
                ),
                Entry::File(bytes) => (Body::File(Content::synced(bytes.clone())), 0o644),
            };
            let ino = model.add(parent, name, Node::new(body, perm, uid, gid));
            inos.insert(path.to_path_buf(), ino);
        }
        model
    }

    fn add(&mut self, parent: u64, name: &OsStr, node: Node) -> u64 {
        let ino = self.next_ino;
        self.next_ino += 1;
        self.nodes.insert(ino, node);
        if let Some(Body::Directory { entries, .. }) =
            self.nodes.get_mut(&parent).map(|n| &mut n.body)
        {
            entries.insert(name.to_owned(), ino);
        }
        ino
    }

    // ---- the power switch ----------------------------------------------

    pub(crate) fn is_powered(&self) -> bool {
        matches!(self.power, Power::On { .. })
    }

    /// Cuts the power now: every write since its file's last sync is lost,
    /// and every later operation fails.
    pub(crate) fn cut(&mut self) {
        let Power::On { plan } = std::mem::replace(&mut self.power, Power::Off) else {
            return;
        };
        for node in self.nodes.values_mut() {
            if let Body::File(content) = &mut node.body {
                content.lose_unsynced();
            }
        }
        if let Some(plan) = plan {
            (plan.on_cut)();
        }
    }

    /// Plans a cut: `changes` more changes happen, the next one is refused
    /// as the power goes out, and `on_cut` is called.
    pub(crate) fn plan_cut(&mut self, changes: u64, on_cut: Box<dyn FnOnce() + Send>) {
        if let Power::On { plan } = &mut self.power {
            *plan = Some(PlannedCut {
                remaining: changes,
                on_cut,
            });
        }
    }

    pub(crate) fn stats(&self) -> Stats {
        self.stats
    }

    /// Any operation: fails once the power is out.
    fn alive(&self) -> Result<(), Errno> {
        if self.is_powered() {
            Ok(())
        } else {
            Err(Errno::EIO)
        }
    }

    /// An operation that changes something: counted, and where a planned
    /// cut strikes.
    fn change(&mut self) -> Result<(), Errno> {
        self.alive()?;
        let strikes = match &mut self.power {
            Power::On { plan: Some(plan) } if plan.remaining == 0 => true,
            Power::On { plan: Some(plan) } => {
                plan.remaining -= 1;
                false
            }
            _ => false,
        };
        if strikes {
            self.cut();
            return Err(Errno::EIO);
        }
        self.stats.changes += 1;
        Ok(())
    }

    // ---- images ----------------------------------------------------------

    /// What survives a power cut now: every file as of its last sync.
    pub(crate) fn durable_image(&self) -> Image {
        self.image(|content| &content.synced)
    }

    /// What reads see now (what a clean unmount keeps).
    pub(crate) fn current_image(&self) -> Image {
        self.image(|content| &content.current)
    }

    fn image(&self, bytes: impl Fn(&Content) -> &Vec<u8>) -> Image {
        let mut image = Image::new();
        let mut stack = vec![(ROOT, PathBuf::new())];
        while let Some((ino, path)) = stack.pop() {
            let Body::Directory { entries, .. } = &self.nodes[&ino].body else {
                continue;
            };
            for (name, &child) in entries {
                let child_path = path.join(name);
                match &self.nodes[&child].body {
                    Body::Directory { .. } => {
                        image.insert_directory(&child_path);
                        stack.push((child, child_path));
                    }
                    Body::File(content) => image.insert_file(&child_path, bytes(content).clone()),
                }
            }
        }
        image
    }

    // ---- lookups ---------------------------------------------------------

    fn node(&self, ino: u64) -> Result<&Node, Errno> {
        self.nodes.get(&ino).ok_or(Errno::ENOENT)
    }

    fn node_mut(&mut self, ino: u64) -> Result<&mut Node, Errno> {
        self.nodes.get_mut(&ino).ok_or(Errno::ENOENT)
    }

    fn entries(&self, ino: u64) -> Result<&BTreeMap<OsString, u64>, Errno> {
        match &self.node(ino)?.body {
            Body::Directory { entries, .. } => Ok(entries),
            Body::File(_) => Err(Errno::ENOTDIR),
        }
    }

    fn entries_mut(&mut self, ino: u64) -> Result<&mut BTreeMap<OsString, u64>, Errno> {
        match &mut self.node_mut(ino)?.body {
            Body::Directory { entries, .. } => Ok(entries),
            Body::File(_) => Err(Errno::ENOTDIR),
        }
    }

    fn content_mut(&mut self, ino: u64) -> Result<&mut Content, Errno> {
        match &mut self.node_mut(ino)?.body {
            Body::File(content) => Ok(content),
            Body::Directory { .. } => Err(Errno::EISDIR),
        }
    }

    pub(crate) fn attributes(&self, ino: u64) -> Result<Attributes, Errno> {
        self.alive()?;
        let node = self.node(ino)?;
        let (kind, size) = match &node.body {
            Body::Directory { entries, .. } => (Kind::Directory, entries.len() as u64),
            Body::File(content) => (Kind::File, content.len()),
        };
        Ok(Attributes {
            ino,
            kind,
            size,
            perm: node.perm,
            nlink: node.nlink,
            uid: node.uid,
            gid: node.gid,
            atime: node.atime,
            mtime: node.mtime,
            ctime: node.ctime,
        })
    }

    pub(crate) fn lookup(&self, parent: u64, name: &OsStr) -> Result<Attributes, Errno> {
        self.alive()?;
        let ino = *self.entries(parent)?.get(name).ok_or(Errno::ENOENT)?;
        self.attributes(ino)
    }

    /// A directory's entries with `.` and `..` first.
    pub(crate) fn list(&self, ino: u64) -> Result<Vec<(u64, Kind, OsString)>, Errno> {
        self.alive()?;
        let Body::Directory { parent, entries } = &self.node(ino)?.body else {
            return Err(Errno::ENOTDIR);
        };
        let mut list = vec![
            (ino, Kind::Directory, OsString::from(".")),
            (*parent, Kind::Directory, OsString::from("..")),
        ];
        for (name, &child) in entries {
            let kind = match self.nodes[&child].body {
                Body::Directory { .. } => Kind::Directory,
                Body::File(_) => Kind::File,
            };
            list.push((child, kind, name.clone()));
        }
        Ok(list)
    }

    // ---- files -----------------------------------------------------------

    pub(crate) fn read(&self, ino: u64, offset: u64, size: u32) -> Result<Vec<u8>, Errno> {
        self.alive()?;
        match &self.node(ino)?.body {
            Body::File(content) => Ok(content.read(offset, size).to_vec()),
            Body::Directory { .. } => Err(Errno::EISDIR),
        }
    }

    /// A write; `counted` is false for the kernel's write-back of
    /// memory-mapped pages (see [`Stats::changes`]).
    pub(crate) fn write(
        &mut self,
        ino: u64,
        offset: u64,
        bytes: &[u8],
        counted: bool,
    ) -> Result<u32, Errno> {
        if counted {
            self.change()?;
        } else {
            self.alive()?;
        }
        let size = u32::try_from(bytes.len()).map_err(|_| Errno::EINVAL)?;
        self.content_mut(ino)?.write(offset, bytes)?;
        self.stats.bytes_written += u64::from(size);
        let now = SystemTime::now();
        let node = self.node_mut(ino)?;
        node.mtime = now;
        node.ctime = now;
        Ok(size)
    }

    pub(crate) fn set_attributes(
        &mut self,
        ino: u64,
        new: NewAttributes,
    ) -> Result<Attributes, Errno> {
        self.change()?;
        if let Some(size) = new.size {
            self.content_mut(ino)?.truncate(size)?;
        }
        let now = SystemTime::now();
        let node = self.node_mut(ino)?;
        node.perm = new.perm.unwrap_or(node.perm);
        node.uid = new.uid.unwrap_or(node.uid);
        node.gid = new.gid.unwrap_or(node.gid);
        node.atime = new.atime.unwrap_or(node.atime);
        node.mtime = new.mtime.or(new.size.map(|_| now)).unwrap_or(node.mtime);
        node.ctime = now;
        self.attributes(ino)
    }

    /// `fsync` and `fdatasync` alike: the file's bytes become durable.
    pub(crate) fn sync(&mut self, ino: u64) -> Result<(), Errno> {
        self.change()?;
        self.content_mut(ino)?.sync();
        self.stats.syncs += 1;
        Ok(())
    }

    /// `fsync` of a directory: directory operations are durable at once.
    pub(crate) fn sync_directory(&mut self, ino: u64) -> Result<(), Errno> {
        self.change()?;
        self.entries(ino).map(|_| ())
    }

    pub(crate) fn open(&mut self, ino: u64) -> Result<(), Errno> {
        self.alive()?;
        self.node_mut(ino)?.open += 1;
        Ok(())
    }

    /// The last release of an unlinked file frees it. Works without power:
    /// a dying process closes its files.
    pub(crate) fn release(&mut self, ino: u64) {
        if let Some(node) = self.nodes.get_mut(&ino) {
            node.open = node.open.saturating_sub(1);
            if node.open == 0 && node.nlink == 0 {
                self.nodes.remove(&ino);
            }
        }
    }
}

impl Node {
    fn new(body: Body, perm: u16, uid: u32, gid: u32) -> Node {
        let now = SystemTime::now();
        let nlink = match body {
            Body::Directory { .. } => 2,
            Body::File(_) => 1,
        };
        Node {
            body,
            perm,
            uid,
            gid,
            nlink,
            open: 0,
            atime: now,
            mtime: now,
            ctime: now,
        }
    }
}

#[cfg(test)]
mod tests;
