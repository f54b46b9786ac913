//! The FUSE side: every kernel request becomes one call on the [`Model`]
//! under its lock, and its answer or error goes back as the reply.
//!
//! Choices that matter for SQLite:
//! - No `direct_io`: the kernel's page cache stays in front of the files,
//!   so SQLite's `-shm` file can be mapped shared and writable. Its pages
//!   come back as page-cache write-backs (`FUSE_WRITE_CACHE`), which are not
//!   counted as changes (their timing is the kernel's).
//! - No write-back cache (fuser does not ask for it): every `write` reaches
//!   the model at once, so "unsynced" means exactly "not yet fsynced".
//! - No lock requests are implemented and `FUSE_POSIX_LOCKS` is not asked
//!   for, so the kernel keeps POSIX (`fcntl`) locks itself, locally, as
//!   SQLite needs within one machine.
//! - Attributes and entries are never cached by the kernel (a TTL of 0):
//!   the model is the only truth about sizes.

use std::ffi::OsStr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use fuser::{
    AccessFlags, BsdFileFlags, Errno, FileAttr, FileHandle, FileType, Filesystem, FopenFlags,
    Generation, INodeNo, LockOwner, OpenFlags, RenameFlags, ReplyAttr, ReplyCreate, ReplyData,
    ReplyDirectory, ReplyEmpty, ReplyEntry, ReplyOpen, ReplyStatfs, ReplyWrite, Request, TimeOrNow,
    WriteFlags,
};

use crate::model::{Attributes, Kind, Model, NewAttributes};

/// How long the kernel may keep an attribute or a name: not at all.
const TTL: Duration = Duration::ZERO;

/// `O_EXCL` of `open(2)` on Linux (the same on every architecture).
const O_EXCL: i32 = 0o200;

/// The file system fuser serves: a handle on the shared model.
pub(crate) struct FaultFs {
    pub(crate) model: Arc<Mutex<Model>>,
}

impl FaultFs {
    fn model(&self) -> MutexGuard<'_, Model> {
        // A panic while the lock was held leaves a model that is still
        // consistent enough to answer (and to be read out): go on.
        self.model
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

fn file_attr(attributes: &Attributes) -> FileAttr {
    FileAttr {
        ino: INodeNo(attributes.ino),
        size: attributes.size,
        blocks: attributes.size.div_ceil(512),
        atime: attributes.atime,
        mtime: attributes.mtime,
        ctime: attributes.ctime,
        crtime: attributes.ctime,
        kind: file_type(attributes.kind),
        perm: attributes.perm,
        nlink: attributes.nlink,
        uid: attributes.uid,
        gid: attributes.gid,
        rdev: 0,
        blksize: 4096,
        flags: 0,
    }
}

fn file_type(kind: Kind) -> FileType {
    match kind {
        Kind::Directory => FileType::Directory,
        Kind::File => FileType::RegularFile,
    }
}

fn time(time: TimeOrNow) -> SystemTime {
    match time {
        TimeOrNow::SpecificTime(time) => time,
        TimeOrNow::Now => SystemTime::now(),
    }
}

/// The permission bits of a `mode` less the `umask`.
fn permissions(mode: u32, umask: u32) -> u16 {
    (mode & !umask & 0o7777) as u16
}

fn entry(reply: ReplyEntry, result: Result<Attributes, Errno>) {
    match result {
        Ok(attributes) => reply.entry(&TTL, &file_attr(&attributes), Generation(0)),
        Err(errno) => reply.error(errno),
    }
}

fn empty(reply: ReplyEmpty, result: Result<(), Errno>) {
    match result {
        Ok(()) => reply.ok(),
        Err(errno) => reply.error(errno),
    }
}

impl Filesystem for FaultFs {
    fn lookup(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEntry) {
        entry(reply, self.model().lookup(parent.0, name));
    }

    fn getattr(&self, _req: &Request, ino: INodeNo, _fh: Option<FileHandle>, reply: ReplyAttr) {
        match self.model().attributes(ino.0) {
            Ok(attributes) => reply.attr(&TTL, &file_attr(&attributes)),
            Err(errno) => reply.error(errno),
        }
    }

    fn setattr(
        &self,
        _req: &Request,
        ino: INodeNo,
        mode: Option<u32>,
        uid: Option<u32>,
        gid: Option<u32>,
        size: Option<u64>,
        atime: Option<TimeOrNow>,
        mtime: Option<TimeOrNow>,
        _ctime: Option<SystemTime>,
        _fh: Option<FileHandle>,
        _crtime: Option<SystemTime>,
        _chgtime: Option<SystemTime>,
        _bkuptime: Option<SystemTime>,
        _flags: Option<BsdFileFlags>,
        reply: ReplyAttr,
    ) {
        let new = NewAttributes {
            perm: mode.map(|mode| permissions(mode, 0)),
            uid,
            gid,
            size,
            atime: atime.map(time),
            mtime: mtime.map(time),
        };
        match self.model().set_attributes(ino.0, new) {
            Ok(attributes) => reply.attr(&TTL, &file_attr(&attributes)),
            Err(errno) => reply.error(errno),
        }
    }

    fn mkdir(
        &self,
        req: &Request,
        parent: INodeNo,
        name: &OsStr,
        mode: u32,
        umask: u32,
        reply: ReplyEntry,
    ) {
        let perm = permissions(mode, umask);
        let owner = (req.uid(), req.gid());
        entry(
            reply,
            self.model().make_directory(parent.0, name, perm, owner),
        );
    }

    fn unlink(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEmpty) {
        empty(reply, self.model().unlink(parent.0, name));
    }

    fn rmdir(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEmpty) {
        empty(reply, self.model().remove_directory(parent.0, name));
    }

    fn rename(
        &self,
        _req: &Request,
        parent: INodeNo,
        name: &OsStr,
        newparent: INodeNo,
        newname: &OsStr,
        flags: RenameFlags,
        reply: ReplyEmpty,
    ) {
        if !(flags - RenameFlags::RENAME_NOREPLACE).is_empty() {
            // RENAME_EXCHANGE and RENAME_WHITEOUT: not needed, not offered.
            return reply.error(Errno::EINVAL);
        }
        let no_replace = flags.contains(RenameFlags::RENAME_NOREPLACE);
        empty(
            reply,
            self.model()
                .rename(parent.0, name, newparent.0, newname, no_replace),
        );
    }

    fn open(&self, _req: &Request, ino: INodeNo, _flags: OpenFlags, reply: ReplyOpen) {
        match self.model().open(ino.0) {
            Ok(()) => reply.opened(FileHandle(ino.0), FopenFlags::empty()),
            Err(errno) => reply.error(errno),
        }
    }

    fn read(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        size: u32,
        _flags: OpenFlags,
        _lock_owner: Option<LockOwner>,
        reply: ReplyData,
    ) {
        match self.model().read(ino.0, offset, size) {
            Ok(bytes) => reply.data(&bytes),
            Err(errno) => reply.error(errno),
        }
    }

    fn write(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        data: &[u8],
        write_flags: WriteFlags,
        _flags: OpenFlags,
        _lock_owner: Option<LockOwner>,
        reply: ReplyWrite,
    ) {
        let counted = !write_flags.contains(WriteFlags::FUSE_WRITE_CACHE);
        match self.model().write(ino.0, offset, data, counted) {
            Ok(written) => reply.written(written),
            Err(errno) => reply.error(errno),
        }
    }

    fn flush(
        &self,
        _req: &Request,
        _ino: INodeNo,
        _fh: FileHandle,
        _lock_owner: LockOwner,
        reply: ReplyEmpty,
    ) {
        // `close` is not a sync: nothing becomes durable.
        reply.ok();
    }

    fn release(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        _flags: OpenFlags,
        _lock_owner: Option<LockOwner>,
        _flush: bool,
        reply: ReplyEmpty,
    ) {
        self.model().release(ino.0);
        reply.ok();
    }

    fn fsync(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        _datasync: bool,
        reply: ReplyEmpty,
    ) {
        empty(reply, self.model().sync(ino.0));
    }

    fn readdir(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        mut reply: ReplyDirectory,
    ) {
        let list = match self.model().list(ino.0) {
            Ok(list) => list,
            Err(errno) => return reply.error(errno),
        };
        for (index, (child, kind, name)) in list.into_iter().enumerate().skip(offset as usize) {
            // The offset given is where the next call starts.
            if reply.add(INodeNo(child), index as u64 + 1, file_type(kind), name) {
                break;
            }
        }
        reply.ok();
    }

    fn fsyncdir(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        _datasync: bool,
        reply: ReplyEmpty,
    ) {
        empty(reply, self.model().sync_directory(ino.0));
    }

    fn statfs(&self, _req: &Request, _ino: INodeNo, reply: ReplyStatfs) {
        // Plenty of room (4 GiB in 4 KiB blocks), files without count.
        let blocks = 1 << 20;
        reply.statfs(blocks, blocks, blocks, 1 << 20, 1 << 20, 4096, 255, 4096);
    }

    fn access(&self, _req: &Request, ino: INodeNo, _mask: AccessFlags, reply: ReplyEmpty) {
        // Only the mounting user may enter (fuser's default), who may do anything.
        empty(reply, self.model().attributes(ino.0).map(|_| ()));
    }

    fn create(
        &self,
        req: &Request,
        parent: INodeNo,
        name: &OsStr,
        mode: u32,
        umask: u32,
        flags: i32,
        reply: ReplyCreate,
    ) {
        let perm = permissions(mode, umask);
        let owner = (req.uid(), req.gid());
        let exclusive = flags & O_EXCL != 0;
        match self
            .model()
            .create_file(parent.0, name, perm, owner, exclusive)
        {
            Ok(attributes) => reply.created(
                &TTL,
                &file_attr(&attributes),
                Generation(0),
                FileHandle(attributes.ino),
                FopenFlags::empty(),
            ),
            Err(errno) => reply.error(errno),
        }
    }
}
