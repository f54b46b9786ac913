//! A Splendor room as a pure state machine, in quinn-proto's sans-IO
//! shape: requests and driver events go in with the time ([`RoomCore`]'s
//! `handle_request`, `handle_event`, `handle_timeout`), effects come out
//! (`poll_effect`, `poll_timeout`). The room is the only owner of its game.
//!
//! This crate does no IO of any kind: it reads no clock, draws no OS
//! randomness (its RNG is seeded by whoever drives it), awaits nothing and
//! holds no channel, socket or database. That is held by its dependencies,
//! not by a convention: no tokio, no sqlx, no store (CI checks `cargo tree`).
//! splendor-lobby drives it with one tokio task per room.
//!
//! - [`input`]: what goes in: the request envelope ([`Caller`],
//!   [`Request`]) and what the driver reports ([`DriverEvent`]).
//! - [`effect`]: what comes out: replies, sends addressed by connection id,
//!   closes, durable writes, the listing, the room's end ([`Effect`]).
//! - `core`: the state machine; its requests live in `membership` (join,
//!   leave, detach, sync) and `play` (start, act, reload); chat, mute and
//!   the rematch in [`social`]; built-in bots in `bots`; who is in the room
//!   in [`seats`]; what each viewer is sent in `outbox`; its timers in
//!   `timers`; the turn clock (R12) in [`clock`].
//! - The vocabulary it shares with the lobby: [`code`] (room codes),
//!   [`conn`] (connection ids and what is sent to them), [`session`]
//!   (session ids), [`write`] (game ids, storage failures), [`config`]
//!   (the room's settings), [`error`] (errors with their wire codes).
//!
//! The order of an action: check who sends it and the expected version,
//! apply it to a *copy* of the game, ask for it to be stored (an
//! [`Effect::Write`]), and only when the driver reports it durable replace
//! the game and send every connection its own events and view. A failure
//! at any step changes nothing.
#![forbid(unsafe_code)]

mod bots;
pub mod clock;
mod closing;
pub mod code;
pub mod config;
pub mod conn;
mod core;
pub mod deserted;
pub mod effect;
pub mod error;
mod hint;
pub mod input;
mod membership;
pub mod notices;
mod outbox;
mod parking;
mod play;
mod running;
pub mod seats;
pub mod session;
mod setup;
pub mod social;
pub mod text;
mod timers;
pub mod tutorial;
mod upkeep;
pub mod whois;
pub mod write;

#[cfg(test)]
mod tests;

use splendor_replay::Salt;
use splendor_rules::{Game, Options};

pub use self::closing::CLOSED_BY_OPERATORS;
pub use self::code::RoomCode;
pub use self::config::{
    MAX_PER_MOVE, MIN_PER_MOVE, OnDeadline, RoomConfig, TurnClock, TurnClockError,
};
pub use self::conn::{CloseReason, ConnId, NodeId, Outgoing, SharedFrame, Worded};
pub use self::core::RoomCore;
pub use self::effect::RematchPlan;
pub use self::effect::{Answer, Closed, Effect, Joined, RoomProbe};
pub use self::error::{InternalCause, RoomError};
pub use self::input::{Caller, DriverEvent, Request};
pub use self::session::{Session, SessionId};
pub use self::setup::RoomSetup;
pub use self::whois::{Person, Whom};
pub use self::write::{GameId, PersistError, PersistErrorKind};

/// A game to put back into a room after a restart, already rebuilt from its
/// stored log (see [`crate::stored::restore`]).
#[derive(Clone, Debug)]
pub struct RestoredGame {
    /// The game's id.
    pub id: GameId,
    /// The room it was played in.
    pub code: RoomCode,
    /// Its seed (secret until it is over).
    pub seed: u64,
    /// The salt of its commitment (secret until it is over).
    pub salt: Salt,
    /// The rules options it was set up with.
    pub options: Options,
    /// The players in seat order; their seats wait for them to reconnect.
    pub players: Vec<Session>,
    /// The level of each seat a built-in bot holds, in the same order.
    pub bots: Vec<Option<splendor_protocol::bot_level::Level>>,
    /// The room's turn clock, if any (R12).
    pub clock: Option<clock::ClockOptions>,
    /// Every seat's clock as stored with the last action (`None`: full
    /// banks, no action yet).
    pub clocks: Option<Vec<clock::SeatClock>>,
    /// The versions of the actions the stand-in made (R12.4).
    pub stand_in_actions: Vec<u64>,
    /// For a finished game, how long ago it ended: the room stays viewable
    /// for the rest of its viewing time.
    pub finished_ago: Option<std::time::Duration>,
    /// Whether the room was listed for strangers to join.
    pub listed: bool,
    /// Whether the game counts for its players' ratings (issue 13).
    pub rated: bool,
    /// Every action's events and who made it, from replaying the log.
    pub history: Vec<(effect::Mover, splendor_rules::Events)>,
    /// The game after its whole log.
    pub game: Game,
    /// The number of actions in the log (the state version).
    pub version: u64,
    /// The chat kept when the game was parked, oldest first, with each
    /// line's author (issue 23); empty for a game restored after a restart.
    pub chat: Vec<(session::SessionId, splendor_protocol::ChatInfo)>,
}
