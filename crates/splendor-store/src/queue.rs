//! The quick-play queues (issue 13), kept in the database so that every
//! server process on it sees the same queues (the door to several nodes).
//!
//! An entry is a session waiting for a rated game of 2, 3 or 4 players. A
//! session is in at most one queue. An entry whose session has no
//! connection is marked away and is not matched; after a while it is
//! dropped. Forming a game takes the oldest entries present in one
//! statement, so two servers never take the same entry. A server empties
//! the queues when it starts ([`Store::clear_queues`]).

use crate::backend::dispatch;
use crate::{SessionId, Store, StoreError, UnixMillis};

/// Which quick-play pool an entry waits in (issue 24): games are formed
/// within one pool, so people and programs are kept apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QueuePool {
    /// People (sessions that did not say they are programs).
    People,
    /// Programs (`"bot":true` in hello), and people who chose to play them.
    Programs,
    /// Sessions the operators marked (issue 22): kept out of rated quick
    /// play without being told; matched only with each other, unrated.
    Marked,
}

impl QueuePool {
    /// How the store and the protocol name it.
    pub fn as_str(self) -> &'static str {
        match self {
            QueuePool::People => "people",
            QueuePool::Programs => "programs",
            QueuePool::Marked => "marked",
        }
    }

    /// The pool named `text`, if any.
    pub fn parse(text: &str) -> Option<QueuePool> {
        match text {
            "people" => Some(QueuePool::People),
            "programs" => Some(QueuePool::Programs),
            "marked" => Some(QueuePool::Marked),
            _ => None,
        }
    }
}

/// A session in a queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueEntry {
    /// The session.
    pub session: SessionId,
    /// Its display name when it queued.
    pub name: String,
    /// The game size it waits for.
    pub players: u8,
    /// When it queued.
    pub queued_at: UnixMillis,
    /// Since when its connection is gone, if it is.
    pub away_since: Option<UnixMillis>,
    /// From when built-in bots may fill the seats nobody took, if the
    /// session asked for that.
    pub bots_at: Option<UnixMillis>,
    /// The pool it waits in.
    pub pool: QueuePool,
    /// Its session is a program.
    pub program: bool,
    /// Its session's owner (a digest of the secret its author gave in
    /// `hello`, issue 24): no game seats two entries of one owner.
    pub owner: Option<String>,
}

impl Store {
    /// Puts a session (a program or not) in the queue of `pool` for games
    /// of `players`. A session already queued gets
    /// [`StoreError::AlreadyQueued`] with its queue.
    pub async fn enqueue(
        &self,
        session: SessionId,
        name: &str,
        (players, pool, program): (u8, QueuePool, bool),
        (at, bots_at): (UnixMillis, Option<UnixMillis>),
    ) -> Result<(), StoreError> {
        crate::model::check_name("session name", name)?;
        if !(2..=4).contains(&players) {
            return Err(StoreError::invalid(
                "players",
                format!("a game has 2, 3 or 4 players, not {players}"),
            ));
        }
        let queue = pool;
        dispatch!(&self.inner.pool, pool, q => q::enqueue(pool, session, name, (players, queue, program), (at, bots_at)).await)
    }

    /// Takes a session out of its queue; returns the queue's game size, or
    /// `None` if it was in none.
    pub async fn dequeue(&self, session: SessionId) -> Result<Option<u8>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::dequeue(pool, session).await)
    }

    /// The session's queue entry, if it is queued.
    pub async fn queue_entry(&self, session: SessionId) -> Result<Option<QueueEntry>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::queue_entry(pool, session).await)
    }

    /// Marks a queued session away since `since` (its connection ended), or
    /// present again (`None`). Nothing happens to a session not queued.
    pub async fn set_queue_away(
        &self,
        session: SessionId,
        since: Option<UnixMillis>,
    ) -> Result<(), StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::set_queue_away(pool, session, since).await)
    }

    /// How many present sessions wait for games of `players` in `queue`.
    pub async fn queue_length(&self, players: u8, queue: QueuePool) -> Result<u64, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::queue_length(pool, players, queue).await)
    }

    /// Drops the entries away since before `away_before`, then takes the
    /// `players` oldest present entries of that queue and pool (only entries
    /// of one pool make a game together) out of it, if there
    /// are that many: the sessions of one new game, oldest first. `None`
    /// when too few wait.
    pub async fn take_match(
        &self,
        (players, queue): (u8, QueuePool),
        away_before: UnixMillis,
    ) -> Result<Option<Vec<QueueEntry>>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::take_match(pool, (players, queue), away_before).await)
    }

    /// The session's game with bots: takes its entry and up to `players -
    /// 1` other present entries of its queue and pool (oldest first) out of it, the
    /// session's first; built-in bots take the seats left. `None` when the
    /// session is no longer queued and present (it was matched meanwhile).
    pub async fn take_with_bots(
        &self,
        session: SessionId,
        players: u8,
    ) -> Result<Option<Vec<QueueEntry>>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::take_with_bots(pool, session, players).await)
    }

    /// Empties every queue; returns how many entries there were. A server
    /// does this as it starts: nobody is connected to it yet.
    pub async fn clear_queues(&self) -> Result<u64, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::clear_queues(pool).await)
    }
}
