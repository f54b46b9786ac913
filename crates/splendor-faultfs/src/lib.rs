//! `splendor-faultfs`: a small fault-injecting FUSE file system, for the
//! power-loss test (issue 12: "an acknowledged move survives losing the
//! operating system's page cache", not just `kill -9`).
//!
//! A [`Mount`] serves an in-memory tree of directories and files. Every
//! file holds two versions of its bytes: what reads see (every write so
//! far), and what was made durable by its last `fsync` or `fdatasync`.
//! [`Mount::cut_power`] is the power cut: every write not yet synced is lost
//! and every later operation fails with `EIO`, as on a machine whose disk
//! just went away. [`Mount::cut_power_after`] plans the cut at a given
//! change to come, so that it can strike inside a commit, between a write
//! and its sync. [`Mount::durable_image`] then gives what survived as an
//! [`Image`], and a new mount of that image is the machine after its
//! reboot: the page cache is gone with the old mount.
//!
//! The model of a disk (and its limits):
//! - a file's data (and its size) is durable only once synced, and then
//!   all of it: no torn or reordered writes (what LazyFS calls clearing the
//!   page cache, its default fault);
//! - directory operations (create, mkdir, unlink, rmdir, rename) are
//!   durable at once, as on a file system that journals its metadata
//!   synchronously: losing a new file's name before the directory's `fsync`
//!   is not simulated;
//! - only directories and regular files; locks are the kernel's (local).
//!
//! `src/fs.rs` says how the FUSE requests are answered (and why SQLite's
//! shared memory map works), `src/model.rs` holds the state, `src/image.rs`
//! the images. The binary (`src/main.rs`) mounts an image from a directory
//! for manual experiments.
//!
//! Needs Linux's `/dev/fuse`. fuser runs without libfuse: as root it mounts
//! with `mount(2)`, otherwise through the `fusermount3` helper (Debian's
//! `fuse3` package).
#![forbid(unsafe_code)]

mod fs;
mod image;
mod model;

pub use image::{Entry, Image};
pub use model::Stats;

use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use fuser::{BackgroundSession, MountOption};

use crate::fs::FaultFs;
use crate::model::Model;

/// What to tell someone whose machine cannot mount the file system.
pub const FUSE_HELP: &str = "FUSE is needed: Linux's /dev/fuse (in a container: \
     --device /dev/fuse --cap-add SYS_ADMIN) and, unless running as root, the \
     fusermount3 helper (Debian: apt-get install fuse3)";

/// The file system, mounted; unmounted when dropped (or by [`Mount::unmount`]).
pub struct Mount {
    /// Shared with the FUSE thread, which serves the kernel's requests.
    model: Arc<Mutex<Model>>,
    /// The FUSE thread; `None` once unmounted.
    session: Option<BackgroundSession>,
    path: PathBuf,
}

impl Mount {
    /// Mounts a file system holding `image`, all of it durable, on
    /// `mountpoint` (an existing directory, owned by whoever will use the
    /// file system: its files belong to the same user and group). Returns
    /// once the kernel has the mount.
    pub fn new(mountpoint: impl AsRef<Path>, image: &Image) -> io::Result<Mount> {
        let path = mountpoint.as_ref().to_path_buf();
        let owner = std::fs::metadata(&path)?;
        let model = Arc::new(Mutex::new(Model::from_image(
            image,
            owner.uid(),
            owner.gid(),
        )));
        let mut config = fuser::Config::default();
        config.mount_options = vec![
            MountOption::FSName("splendor-faultfs".to_owned()),
            MountOption::Subtype("splendor-faultfs".to_owned()),
            MountOption::NoDev,
            MountOption::NoSuid,
        ];
        let filesystem = FaultFs {
            model: model.clone(),
        };
        let session = fuser::spawn_mount(filesystem, &path, &config).map_err(|err| {
            io::Error::new(
                err.kind(),
                format!("cannot mount at {}: {err}. {FUSE_HELP}", path.display()),
            )
        })?;
        Ok(Mount {
            model,
            session: Some(session),
            path,
        })
    }

    /// Where it is mounted.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn model(&self) -> MutexGuard<'_, Model> {
        self.model
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Cuts the power now: every write since its file's last sync is lost,
    /// and every later operation fails with `EIO`.
    pub fn cut_power(&self) {
        self.model().cut();
    }

    /// Plans the power cut: the next `changes` operations that change
    /// something ([`Stats::changes`]) happen, the one after them fails as
    /// the power goes out ([`Mount::cut_power`]). `on_cut` is called when
    /// the power goes out (then, or earlier through [`Mount::cut_power`]),
    /// under the file system's lock: it must not block nor touch the mount.
    /// Replaces an earlier plan.
    pub fn cut_power_after(&self, changes: u64, on_cut: impl FnOnce() + Send + 'static) {
        self.model().plan_cut(changes, Box::new(on_cut));
    }

    /// False once the power is cut.
    pub fn is_powered(&self) -> bool {
        self.model().is_powered()
    }

    /// What the file system served so far.
    pub fn stats(&self) -> Stats {
        self.model().stats()
    }

    /// What a power cut would leave now (after a cut: what it left).
    pub fn durable_image(&self) -> Image {
        self.model().durable_image()
    }

    /// What reads see now: what a clean shutdown, which syncs everything,
    /// would leave.
    pub fn current_image(&self) -> Image {
        self.model().current_image()
    }

    /// Unmounts and waits for the FUSE thread to end. Fails (`EBUSY`) while
    /// a process still has a file open in it.
    pub fn unmount(mut self) -> io::Result<()> {
        match self.session.take() {
            Some(session) => match session.umount_and_join() {
                // The kernel may end the FUSE connection at the unmount as
                // aborted rather than gone (ECONNABORTED where fuser expects
                // ENODEV; seen once in CI right after the server was
                // killed): the mount is gone all the same, and what a
                // power cut leaves was read before (`durable_image`).
                Err(err) if err.kind() == io::ErrorKind::ConnectionAborted => Ok(()),
                other => other,
            },
            None => Ok(()),
        }
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        if let Some(session) = self.session.take()
            && session.umount_and_join().is_err()
        {
            // Still in use (a test failed while its server held files open):
            // detach it lazily rather than leave a dead mount behind.
            let _ = std::process::Command::new("umount")
                .arg("-l")
                .arg(&self.path)
                .status();
        }
    }
}
