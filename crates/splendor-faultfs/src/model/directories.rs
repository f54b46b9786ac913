//! The directory operations of the model: create, mkdir, unlink, rmdir,
//! rename, each durable at once (as if metadata were journalled
//! synchronously).

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::time::SystemTime;

use fuser::Errno;

use super::{Attributes, Body, Content, Model, Node};

impl Model {
    /// Creates a file, or with `exclusive` false opens the one already there
    /// (`O_CREAT` without `O_EXCL`); it is open either way.
    pub(crate) fn create_file(
        &mut self,
        parent: u64,
        name: &OsStr,
        perm: u16,
        owner: (u32, u32),
        exclusive: bool,
    ) -> Result<Attributes, Errno> {
        self.change()?;
        if let Some(&ino) = self.entries(parent)?.get(name) {
            if exclusive {
                return Err(Errno::EEXIST);
            }
            self.content_mut(ino)?;
            self.open(ino)?;
            return self.attributes(ino);
        }
        let mut node = Node::new(Body::File(Content::default()), perm, owner.0, owner.1);
        node.open = 1;
        let ino = self.add(parent, name, node);
        self.touch(parent)?;
        self.attributes(ino)
    }

    pub(crate) fn make_directory(
        &mut self,
        parent: u64,
        name: &OsStr,
        perm: u16,
        owner: (u32, u32),
    ) -> Result<Attributes, Errno> {
        self.change()?;
        if self.entries(parent)?.contains_key(name) {
            return Err(Errno::EEXIST);
        }
        let body = Body::Directory {
            parent,
            entries: BTreeMap::new(),
        };
        let ino = self.add(parent, name, Node::new(body, perm, owner.0, owner.1));
        self.touch(parent)?;
        self.attributes(ino)
    }

    pub(crate) fn unlink(&mut self, parent: u64, name: &OsStr) -> Result<(), Errno> {
        self.change()?;
        let ino = *self.entries(parent)?.get(name).ok_or(Errno::ENOENT)?;
        if matches!(self.node(ino)?.body, Body::Directory { .. }) {
            return Err(Errno::EISDIR);
        }
        self.entries_mut(parent)?.remove(name);
        self.drop_link(ino);
        self.touch(parent)
    }

    pub(crate) fn remove_directory(&mut self, parent: u64, name: &OsStr) -> Result<(), Errno> {
        self.change()?;
        let ino = *self.entries(parent)?.get(name).ok_or(Errno::ENOENT)?;
        if !self.entries(ino)?.is_empty() {
            return Err(Errno::ENOTEMPTY);
        }
        self.entries_mut(parent)?.remove(name);
        self.nodes.remove(&ino);
        self.touch(parent)
    }

    /// Moves `name` to `new_name`, replacing a file there (or an empty
    /// directory by a directory) unless `no_replace`.
    pub(crate) fn rename(
        &mut self,
        parent: u64,
        name: &OsStr,
        new_parent: u64,
        new_name: &OsStr,
        no_replace: bool,
    ) -> Result<(), Errno> {
        self.change()?;
        let ino = *self.entries(parent)?.get(name).ok_or(Errno::ENOENT)?;
        let moving_directory = matches!(self.node(ino)?.body, Body::Directory { .. });
        if moving_directory && self.is_within(new_parent, ino) {
            return Err(Errno::EINVAL);
        }
        if let Some(&replaced) = self.entries(new_parent)?.get(new_name) {
            if replaced == ino {
                return Ok(());
            }
            if no_replace {
                return Err(Errno::EEXIST);
            }
            match (&self.node(replaced)?.body, moving_directory) {
                (Body::Directory { entries, .. }, true) if entries.is_empty() => {
                    self.nodes.remove(&replaced);
                }
                (Body::Directory { .. }, true) => return Err(Errno::ENOTEMPTY),
                (Body::Directory { .. }, false) => return Err(Errno::EISDIR),
                (Body::File(_), true) => return Err(Errno::ENOTDIR),
                (Body::File(_), false) => self.drop_link(replaced),
            }
        }
        self.entries_mut(parent)?.remove(name);
        self.entries_mut(new_parent)?
            .insert(new_name.to_owned(), ino);
        if let Body::Directory { parent, .. } = &mut self.node_mut(ino)?.body {
            *parent = new_parent;
        }
        self.touch(parent)?;
        self.touch(new_parent)
    }

    /// Whether directory `ino` is `ancestor` or below it.
    pub(super) fn is_within(&self, mut ino: u64, ancestor: u64) -> bool {
        loop {
            if ino == ancestor {
                return true;
            }
            match self.nodes.get(&ino).map(|n| &n.body) {
                Some(Body::Directory { parent, .. }) if *parent != ino => ino = *parent,
                _ => return false,
            }
        }
    }

    /// A file lost a name: freed unless it is open.
    pub(super) fn drop_link(&mut self, ino: u64) {
        if let Some(node) = self.nodes.get_mut(&ino) {
            node.nlink = node.nlink.saturating_sub(1);
            if node.nlink == 0 && node.open == 0 {
                self.nodes.remove(&ino);
            }
        }
    }

    pub(super) fn touch(&mut self, ino: u64) -> Result<(), Errno> {
        let now = SystemTime::now();
        let node = self.node_mut(ino)?;
        node.mtime = now;
        node.ctime = now;
        Ok(())
    }
}
