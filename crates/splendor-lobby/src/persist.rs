//! The persistence step of a room: where an accepted action is made durable
//! before anyone sees it.
//!
//! The room applies an action to a copy of its game, then awaits
//! [`Persistence::action_applied`], and only when that succeeds does the copy
//! become the room's game and get broadcast. A failure rejects the action
//! with `persistence_failed` and changes nothing. [`NoPersistence`] accepts
//! everything at once; the database store implements the same trait.

use std::fmt;

use splendor_rules::{Action, GameResult, Options, Seat};
use uuid::Uuid;

use crate::code::RoomCode;
use crate::session::{BoxFuture, SessionId};

/// A game's id, chosen by the room when the game starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameId(pub Uuid);

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.as_simple().fmt(f)
    }
}

/// Everything needed to replay a game from its actions (R2.5).
#[derive(Clone, Debug)]
pub struct GameStart<'a> {
    pub game: GameId,
    pub room: RoomCode,
    pub seed: u64,
    pub options: Options,
    /// The sessions in seat order (seat 0 first).
    pub players: &'a [SessionId],
    /// Their display names, in the same order.
    pub names: &'a [String],
}

/// Storing failed; the change it was for must not happen.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("persistence failed: {0}")]
pub struct PersistError(pub String);

/// Durable storage of games, as a room needs it.
pub trait Persistence: Send + Sync + 'static {
    /// Records a new game. Resolves once it is durable.
    fn game_started<'a>(&'a self, start: GameStart<'a>) -> BoxFuture<'a, Result<(), PersistError>>;

    /// Records the action that turns version `index` into `index + 1`.
    /// Resolves once it is durable.
    fn action_applied<'a>(
        &'a self,
        game: GameId,
        index: u64,
        seat: Seat,
        action: Action,
    ) -> BoxFuture<'a, Result<(), PersistError>>;

    /// Records the result of a finished game. The actions are already
    /// durable, so a failure here is only logged.
    fn game_finished<'a>(
        &'a self,
        game: GameId,
        result: &'a GameResult,
    ) -> BoxFuture<'a, Result<(), PersistError>>;
}

/// Keeps nothing: every step succeeds at once.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoPersistence;

impl Persistence for NoPersistence {
    fn game_started<'a>(&'a self, _: GameStart<'a>) -> BoxFuture<'a, Result<(), PersistError>> {
        Box::pin(async { Ok(()) })
    }

    fn action_applied<'a>(
        &'a self,
        _: GameId,
        _: u64,
        _: Seat,
        _: Action,
    ) -> BoxFuture<'a, Result<(), PersistError>> {
        Box::pin(async { Ok(()) })
    }

    fn game_finished<'a>(
        &'a self,
        _: GameId,
        _: &'a GameResult,
    ) -> BoxFuture<'a, Result<(), PersistError>> {
        Box::pin(async { Ok(()) })
    }
}
