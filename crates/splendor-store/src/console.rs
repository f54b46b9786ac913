//! What the operators' console reads (issue 22): sessions found by name,
//! id, player id or address, and the quick-play queue as it stands. The
//! store is the truth on every node, so both hold across a cluster.

use crate::backend::dispatch;
use crate::{QueueEntry, SessionId, Store, StoreError, UnixMillis};

/// A session as the operators see it.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionRow {
    /// The session.
    pub session: SessionId,
    /// Its name now.
    pub name: String,
    /// Its public id.
    pub player_id: Option<String>,
    /// A program.
    pub bot: bool,
    /// The address it was made from (an IPv6 one by its /64).
    pub client: Option<String>,
    /// When it was made, Unix ms.
    pub created_at: UnixMillis,
    /// When it was last seen, Unix ms.
    pub last_seen: Option<UnixMillis>,
    /// Rated games finished.
    pub rated_games: u64,
    /// Its rating, once rated.
    pub rating: Option<f64>,
}

/// An unfinished game, as the live rooms' view shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveGame {
    /// Its room's code.
    pub room: String,
    /// When it started, Unix ms.
    pub started_at: UnixMillis,
    /// Its last move, Unix ms.
    pub last_move_at: Option<UnixMillis>,
    /// Its turn clock as stored (R12), if any.
    pub clock_json: Option<String>,
    /// Who sits where.
    pub seats: Vec<LiveSeat>,
}

/// A seat of a [`LiveGame`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveSeat {
    /// The seat, in turn order.
    pub seat: u8,
    /// The name played under.
    pub name: String,
    /// A built-in bot's level.
    pub bot: Option<String>,
}

impl Store {
    /// The unfinished games (at most 2000, newest first) with their seats,
    /// start and last move.
    pub async fn live_games(&self) -> Result<Vec<LiveGame>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::live_games(pool).await)
    }

    /// The sessions whose name, session id, player id or address contains
    /// `needle` (any case), most recently seen first; every session when
    /// `needle` is empty.
    pub async fn find_sessions(
        &self,
        needle: &str,
        limit: u32,
    ) -> Result<Vec<SessionRow>, StoreError> {
        let needle = needle.trim().to_lowercase();
        dispatch!(&self.inner.pool, pool, q => q::find_sessions(pool, &needle, i64::from(limit)).await)
    }

    /// One session, as the console shows it.
    pub async fn session_row(&self, session: SessionId) -> Result<Option<SessionRow>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::session_row(pool, session.0).await)
    }

    /// Everyone waiting in quick play, oldest first.
    pub async fn queue_entries(&self) -> Result<Vec<QueueEntry>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::queue_entries(pool).await)
    }
}
