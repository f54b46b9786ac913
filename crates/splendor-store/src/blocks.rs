//! Blocks (issue 22): a player blocks another so that quick play never
//! seats the two together again and the blocked one's chat never reaches
//! the blocker. Kept in the store, so they hold on every node.

use crate::backend::dispatch;
use crate::{SessionId, Store, StoreError, UnixMillis};

/// A session someone blocked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockedSession {
    /// The session blocked.
    pub session: SessionId,
    /// Its name now.
    pub name: String,
    /// When it was blocked, Unix ms.
    pub at: UnixMillis,
}

/// What [`Store::block`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blocking {
    /// Blocked now.
    Made,
    /// It was blocked already.
    Already,
    /// The blocker blocks as many sessions as it may: nothing changed.
    TooMany,
}

impl Store {
    /// `blocker` blocks `blocked`, unless it blocks `max` sessions already.
    pub async fn block(
        &self,
        blocker: SessionId,
        blocked: SessionId,
        now: UnixMillis,
        max: u32,
    ) -> Result<Blocking, StoreError> {
        if blocker == blocked {
            return Err(StoreError::invalid(
                "blocked",
                "a session cannot block itself",
            ));
        }
        let done = dispatch!(&self.inner.pool, pool, q => q::block(pool, (blocker.0, blocked.0), now, i64::from(max)).await)?;
        Ok(match done {
            Some(true) => Blocking::Made,
            Some(false) => Blocking::Already,
            None => Blocking::TooMany,
        })
    }

    /// `blocker` no longer blocks `blocked`; whether it did.
    pub async fn unblock(
        &self,
        blocker: SessionId,
        blocked: SessionId,
    ) -> Result<bool, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::unblock(pool, blocker.0, blocked.0).await)
    }

    /// The sessions `blocker` blocked, newest first.
    pub async fn blocks_of(&self, blocker: SessionId) -> Result<Vec<BlockedSession>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::blocks_of(pool, blocker.0).await)
    }
}
