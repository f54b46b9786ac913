//! The persistence step of a room: where an accepted action is made durable
//! before anyone sees it.
//!
//! The room core asks for a write ([`Write`], an `Effect::Write`); its
//! driver hands it to [`Persistence::write`] as it is and feeds the outcome
//! back. The core applied the action to a copy of its game, and only when
//! the write succeeds does the copy become the room's game and get
//! broadcast. A failure rejects the action (`storage_unavailable` when the
//! database cannot take writes right now, `persistence_failed` otherwise)
//! and changes nothing. [`NoPersistence`] accepts everything at once;
//! [`crate::stored::StorePersistence`] is the database.

use splendor_rules::{Action, Seat};

use crate::session::BoxFuture;
pub use splendor_room::effect::{GameRecord, Write};
pub use splendor_room::write::{GameId, PersistError, PersistErrorKind};

/// What a write came to when it succeeded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stored {
    /// It is durable.
    Done,
    /// The game's whole log as stored, in order: the answer to
    /// [`Write::LoadLog`].
    Log(Vec<(Seat, Action)>),
}

/// Durable storage of games, as a room needs it: one method, the room's
/// own [`Write`] as the interface.
///
/// A failed write stored nothing. Its kind says what the room does next:
/// try later ([`PersistErrorKind::Unavailable`]), reload the log
/// ([`PersistErrorKind::Diverged`]), give up on the request
/// ([`PersistErrorKind::Failed`]), or stop, because another server owns the
/// room now ([`PersistErrorKind::Fenced`]).
pub trait Persistence: Send + Sync + 'static {
    /// Carries out `write`; resolves once it is durable, or has failed.
    fn write(&self, write: Write) -> BoxFuture<'_, Result<Stored, PersistError>>;

    /// Carries out `write` for the holder of the room's lease `epoch` (a
    /// room directory that keeps leases in the database, issue 21): a
    /// store that keeps leases refuses it as [`PersistErrorKind::Fenced`]
    /// unless that is the room's current lease. One without leases ignores
    /// the epoch.
    fn write_fenced(
        &self,
        write: Write,
        epoch: u64,
    ) -> BoxFuture<'_, Result<Stored, PersistError>> {
        let _ = epoch;
        self.write(write)
    }
}

/// Keeps nothing: every write succeeds at once.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoPersistence;

impl Persistence for NoPersistence {
    fn write(&self, write: Write) -> BoxFuture<'_, Result<Stored, PersistError>> {
        Box::pin(async move {
            match write {
                // Nothing was kept, so nothing can have diverged: never asked.
                Write::LoadLog { game } => Err(PersistError::failed(format!(
                    "no log is kept of game {game}"
                ))),
                // A game parked nowhere would be lost.
                Write::Park { game, .. } => Err(PersistError::failed(format!(
                    "game {game} cannot be parked: nothing is kept"
                ))),
                _ => Ok(Stored::Done),
            }
        })
    }
}
