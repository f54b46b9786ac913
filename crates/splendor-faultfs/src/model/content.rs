//! A file's two versions: what reads see, and what was synced (all that
//! survives a power cut), with the pages changed between them.

use std::collections::BTreeSet;

use fuser::Errno;

/// The unit in which changes since the last sync are tracked, in bytes.
pub(super) const PAGE: u64 = 4096;

/// The largest file: a write past it fails (`EFBIG`) instead of taking the
/// machine's memory.
const MAX_FILE_BYTES: u64 = 1 << 30;

/// A file's bytes: what reads see, and what survives a power cut.
#[derive(Clone, Debug, Default)]
pub(crate) struct Content {
    /// What reads see: every write so far.
    pub(super) current: Vec<u8>,
    /// The bytes as of the last sync: all that survives a power cut.
    pub(super) synced: Vec<u8>,
    /// The pages ([`PAGE`] bytes) of `current` changed since the last sync;
    /// a sync copies only these (and takes `current`'s length).
    dirty: BTreeSet<u64>,
}

impl Content {
    /// Content that is all synced.
    pub(super) fn synced(bytes: Vec<u8>) -> Content {
        Content {
            current: bytes.clone(),
            synced: bytes,
            dirty: BTreeSet::new(),
        }
    }

    pub(super) fn len(&self) -> u64 {
        self.current.len() as u64
    }

    /// Marks the bytes `start..end` as changed.
    pub(super) fn mark(&mut self, start: u64, end: u64) {
        if start < end {
            self.dirty.extend(start / PAGE..=(end - 1) / PAGE);
        }
    }

    pub(crate) fn read(&self, offset: u64, size: u32) -> &[u8] {
        let start = offset.min(self.len()) as usize;
        let end = offset.saturating_add(u64::from(size)).min(self.len()) as usize;
        &self.current[start..end]
    }

    /// Writes `bytes` at `offset`; a gap past the end reads as zeros.
    pub(crate) fn write(&mut self, offset: u64, bytes: &[u8]) -> Result<(), Errno> {
        let end = offset
            .checked_add(bytes.len() as u64)
            .filter(|&end| end <= MAX_FILE_BYTES)
            .ok_or(Errno::EFBIG)?;
        let old_len = self.len();
        if end > old_len {
            self.current.resize(end as usize, 0);
        }
        self.current[offset as usize..end as usize].copy_from_slice(bytes);
        self.mark(offset.min(old_len), end);
        Ok(())
    }

    /// Sets the length; what grows reads as zeros.
    pub(crate) fn truncate(&mut self, size: u64) -> Result<(), Errno> {
        if size > MAX_FILE_BYTES {
            return Err(Errno::EFBIG);
        }
        let old_len = self.len();
        self.current.resize(size as usize, 0);
        // A shrink needs no mark: a sync takes the length as it is.
        self.mark(old_len, size);
        Ok(())
    }

    /// Makes the current bytes the durable ones (`fsync`).
    pub(crate) fn sync(&mut self) {
        let len = self.current.len();
        self.synced.resize(len, 0);
        for page in std::mem::take(&mut self.dirty) {
            let start = (page * PAGE) as usize;
            if start >= len {
                break;
            }
            let end = (start + PAGE as usize).min(len);
            self.synced[start..end].copy_from_slice(&self.current[start..end]);
        }
    }

    /// Forgets every write since the last sync (the power cut).
    pub(super) fn lose_unsynced(&mut self) {
        self.current.clone_from(&self.synced);
        self.dirty.clear();
    }
}
