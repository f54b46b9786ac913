//! The persistence step of a room: where an accepted action is made durable
//! before anyone sees it.
//!
//! The room applies an action to a copy of its game, then awaits
//! [`Persistence::action_applied`], and only when that succeeds does the copy
//! become the room's game and get broadcast. A failure rejects the action
//! (`storage_unavailable` when the database cannot take writes right now,
//! `persistence_failed` otherwise) and changes nothing. [`NoPersistence`]
//! accepts everything at once; [`crate::stored::StorePersistence`] is the
//! database.

use splendor_replay::{Commitment, Salt};
use splendor_rules::{Action, GameResult, Options, Seat};

use crate::code::RoomCode;
use crate::room::clock::{ClockOptions, SeatClock};
use crate::room::effect::Mover;
use crate::session::{BoxFuture, SessionId};
pub use splendor_room::write::{GameId, PersistError, PersistErrorKind};

/// Everything needed to replay a game from its actions (R2.5), and to prove
/// its deal fair afterwards.
#[derive(Clone, Debug)]
pub struct GameStart<'a> {
    /// The game's id.
    pub game: GameId,
    /// The room it is played in.
    pub room: RoomCode,
    /// Secret until the game is over.
    pub seed: u64,
    /// Secret until the game is over.
    pub salt: Salt,
    /// `SHA-256(salt || seed)`, which every player receives at once.
    pub commitment: Commitment,
    /// The rules options (R2.4: who plays first).
    pub options: Options,
    /// The sessions in seat order (seat 0 first).
    pub players: &'a [SessionId],
    /// Their display names, in the same order.
    pub names: &'a [String],
    /// The level of each seat a built-in bot holds (its "session" is the
    /// bot's own id), in the same order.
    pub bots: &'a [Option<splendor_ai::Level>],
    /// The room's turn clock, if any (R12).
    pub clock: Option<ClockOptions>,
    /// Whether the room is listed for strangers to join.
    pub listed: bool,
    /// Whether the game counts for its players' ratings (issue 13).
    pub rated: bool,
}

/// What is stored beside an action's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionMeta {
    /// The seat's player, its bot, or the stand-in (R12.4).
    pub by: Mover,
    /// Every seat's clock after the action, in a room with a clock (R12).
    pub clocks: Option<Vec<SeatClock>>,
}

impl Default for ActionMeta {
    fn default() -> ActionMeta {
        ActionMeta {
            by: Mover::Person,
            clocks: None,
        }
    }
}

/// Durable storage of games, as a room needs it.
pub trait Persistence: Send + Sync + 'static {
    /// Records a new game. Resolves once it is durable.
    fn game_started<'a>(&'a self, start: GameStart<'a>) -> BoxFuture<'a, Result<(), PersistError>>;

    /// Records the action that turns version `index` into `index + 1`,
    /// with who made it and the clocks after it (`meta`). Resolves once it
    /// is durable.
    fn action_applied<'a>(
        &'a self,
        game: GameId,
        index: u64,
        seat: Seat,
        action: Action,
        meta: ActionMeta,
    ) -> BoxFuture<'a, Result<(), PersistError>>;

    /// Records the result of a finished game. The actions are already
    /// durable, so a failure here is only logged (a restart finishes it).
    fn game_finished<'a>(
        &'a self,
        game: GameId,
        result: &'a GameResult,
    ) -> BoxFuture<'a, Result<(), PersistError>>;

    /// The game's whole log as stored, in order: what a room whose game
    /// [diverged](PersistErrorKind::Diverged) from the store reloads.
    /// (Required, not defaulted, so that a wrapper cannot forget to forward it.)
    fn stored_log<'a>(
        &'a self,
        game: GameId,
    ) -> BoxFuture<'a, Result<Vec<(Seat, Action)>, PersistError>>;
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
        _: ActionMeta,
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

    fn stored_log<'a>(
        &'a self,
        game: GameId,
    ) -> BoxFuture<'a, Result<Vec<(Seat, Action)>, PersistError>> {
        // Nothing was kept, so nothing can have diverged: never called.
        Box::pin(async move {
            Err(PersistError::failed(format!(
                "no log is kept of game {game}"
            )))
        })
    }
}
