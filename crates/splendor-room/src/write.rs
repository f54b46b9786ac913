//! What a durable write is called and how it can fail: the vocabulary the
//! room shares with whoever stores its games.

use std::fmt;

use uuid::Uuid;

/// A game's id, chosen by the room when the game starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameId(pub Uuid);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.as_simple().fmt(f)
    }
}

/// How storing failed, which decides what the room and the client do next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PersistErrorKind {
    /// The database cannot take the write now (unreachable, locked, full);
    /// nothing was stored and the same write may succeed later.
    Unavailable,
    /// The stored log is not the room's: an earlier write that was reported
    /// as failed did commit. The store is the source of truth, so the room
    /// reloads the game from it (a [`Write::LoadLog`](crate::effect::Write::LoadLog)).
    Diverged,
    /// Another server holds the room now (its lease is newer than this
    /// one's): nothing was stored, and this room must stop at once, telling
    /// its people to reconnect. No store on one server answers it.
    Fenced,
    /// Anything else; nothing was stored.
    Failed,
}

/// Storing failed; the change it was for must not happen.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("persistence failed: {message}")]
pub struct PersistError {
    /// What the room does about it.
    pub kind: PersistErrorKind,
    /// What happened, for the log.
    pub message: String,
}

impl PersistError {
    /// The database cannot take the write now.
    pub fn unavailable(message: impl Into<String>) -> PersistError {
        PersistError {
            kind: PersistErrorKind::Unavailable,
            message: message.into(),
        }
    }

    /// The stored log is not the room's.
    pub fn diverged(message: impl Into<String>) -> PersistError {
        PersistError {
            kind: PersistErrorKind::Diverged,
            message: message.into(),
        }
    }

    /// Another server holds the room now.
    pub fn fenced(message: impl Into<String>) -> PersistError {
        PersistError {
            kind: PersistErrorKind::Fenced,
            message: message.into(),
        }
    }

    /// Anything else.
    pub fn failed(message: impl Into<String>) -> PersistError {
        PersistError {
            kind: PersistErrorKind::Failed,
            message: message.into(),
        }
    }
}
