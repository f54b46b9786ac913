//! The one error type of the store.

use std::path::PathBuf;
use std::sync::Arc;

use thiserror::Error;
use uuid::Uuid;

use crate::SessionId;

/// What a database driver said, shared by every caller of a failed batch:
/// sqlx's error (PostgreSQL, SQLite's reads) or rusqlite's (SQLite's writer).
pub type DbCause = Arc<dyn std::error::Error + Send + Sync + 'static>;

/// Everything that can go wrong in the store.
///
/// The variants fall in three groups, told apart by [`StoreError::is_transient`]
/// and [`StoreError::is_bad_input`]:
/// - the database cannot take the write right now (`Unavailable`, `Full`):
///   nothing was stored, and the same write may succeed later;
/// - the request itself is wrong (`UnknownGame`, `DuplicateAction`,
///   `Invalid`, ...): nothing was stored, and retrying it will not help;
/// - the store was closed (`Closed`), or something unexpected happened
///   (`Database`, `Corrupt`, ...).
///
/// The error is `Clone` because one failed commit answers every caller whose
/// write was in that batch; the driver's error is shared in an `Arc` ([`DbCause`]).
/// Messages include the database's own message so that logs are useful; they
/// never include a database URL (which may hold a password) or a token.
#[derive(Debug, Clone, Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The URL is neither `sqlite:...` nor `postgres://...`.
    #[error(
        "unsupported database URL (scheme {scheme:?}): expected sqlite://PATH, \
         sqlite::memory: or postgres://USER@HOST/DATABASE"
    )]
    UnsupportedUrl {
        /// The part before the first `:`, so that the message cannot leak a password.
        scheme: String,
    },

    /// The URL has the right scheme but sqlx cannot parse it.
    #[error("invalid database URL: {0}")]
    InvalidUrl(Arc<sqlx::Error>),

    /// The directory that should hold the SQLite file could not be created.
    #[error("could not create the data directory {path}: {source}")]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// Why it could not be created.
        source: Arc<std::io::Error>,
    },

    /// The database refused a setting the durability contract depends on.
    #[error("the database does not provide the required durability: {0}")]
    Durability(String),

    /// The migrations in `migrations/` could not be applied.
    #[error("could not apply the database migrations: {0}")]
    Migrate(Arc<sqlx::migrate::MigrateError>),

    /// The database cannot be reached or cannot take writes right now
    /// (connection refused or lost, pool timeout, locked, read-only, I/O error).
    #[error("the database is unreachable: {0}")]
    Unavailable(DbCause),

    /// The database has no space left for the write.
    #[error("the database is full, no space left to store the write: {0}")]
    Full(DbCause),

    /// The store was closed with [`Store::close`](crate::Store::close).
    #[error("the store is closed")]
    Closed,

    /// Any other database error, for example a constraint the store did not expect.
    #[error("database error: {0}")]
    Database(DbCause),

    /// No session has this id.
    #[error("no session has id {0}")]
    UnknownSession(SessionId),

    /// The address made as many sessions in the last hour as its budget
    /// allows (issue 45); nothing was written.
    #[error("{cap} sessions were made from this address in the last hour")]
    TooManySessions {
        /// The budget: sessions an address may make in an hour.
        cap: u32,
        /// When the oldest of them leaves the hour.
        retry_after_ms: u64,
    },

    /// No game has this id.
    #[error("no game has id {0}")]
    UnknownGame(Uuid),

    /// The write named a lease on its room that is no longer the room's:
    /// another node took the room over (issue 21). Nothing was written.
    #[error(
        "room {room}: the lease of epoch {epoch} is no longer the room's; the write was fenced"
    )]
    Fenced {
        /// The room's code.
        room: String,
        /// The epoch the write named.
        epoch: u64,
    },

    /// A game with this id is already stored.
    #[error("a game with id {0} is already stored")]
    GameExists(Uuid),

    /// The game is finished: no action can be appended and its result is final.
    #[error("game {0} is finished; its log and result can no longer change")]
    GameFinished(Uuid),

    /// The session is already in the quick-play queue for games of this size.
    #[error("the session is already queued for {0}-player games")]
    AlreadyQueued(u8),

    /// The log already holds a different action at this seq. After an
    /// ambiguous failure (the caller was told the commit failed but it had in
    /// fact happened) this means the log is ahead of the caller: reload the
    /// game from the store, which is the source of truth.
    #[error(
        "action {seq} of game {game_id} is already stored with different content; \
         a stored action is never overwritten"
    )]
    DuplicateAction {
        /// The game.
        game_id: Uuid,
        /// The seq that is taken.
        seq: u32,
    },

    /// The seq is not the next one in the game's log (the log has no gaps).
    #[error(
        "action {seq} of game {game_id} is out of order: the next action must have seq {expected}"
    )]
    OutOfOrder {
        /// The game.
        game_id: Uuid,
        /// The seq that was given.
        seq: u32,
        /// The number of actions already stored, which is the only seq accepted.
        expected: u64,
    },

    /// The seat is not one of the game's seats.
    #[error("seat {seat} does not exist in game {game_id}, which has {players} players")]
    InvalidSeat {
        /// The game.
        game_id: Uuid,
        /// The seat that was given.
        seat: u8,
        /// How many seats the game has.
        players: u8,
    },

    /// An argument is malformed; the message says which and why.
    #[error("invalid {what}: {reason}")]
    Invalid {
        /// Which argument.
        what: &'static str,
        /// What is wrong with it.
        reason: String,
    },

    /// A stored row does not decode into the store's types.
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
}

impl StoreError {
    /// True when the database could not take the request now but may later:
    /// nothing was stored and the same request may be retried.
    pub fn is_transient(&self) -> bool {
        matches!(self, StoreError::Unavailable(_) | StoreError::Full(_))
    }

    /// True when the request itself was wrong and retrying it cannot help.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            StoreError::UnknownSession(_)
                | StoreError::UnknownGame(_)
                | StoreError::GameExists(_)
                | StoreError::GameFinished(_)
                | StoreError::Fenced { .. }
                | StoreError::AlreadyQueued(_)
                | StoreError::DuplicateAction { .. }
                | StoreError::OutOfOrder { .. }
                | StoreError::InvalidSeat { .. }
                | StoreError::Invalid { .. }
        )
    }

    pub(crate) fn invalid(what: &'static str, reason: impl Into<String>) -> StoreError {
        StoreError::Invalid {
            what,
            reason: reason.into(),
        }
    }
}
