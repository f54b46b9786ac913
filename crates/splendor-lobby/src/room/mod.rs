//! A room: one tokio task per room, the only owner of its game, cut into a
//! pure core and a thin driver (quinn-proto's sans-IO shape).
//!
//! - [`handle`]: the in-process API: [`RoomHandle`] and its commands.
//! - [`input`]: what goes into the core: the request envelope ([`Caller`],
//!   [`Request`]) and what the driver reports ([`DriverEvent`]).
//! - [`effect`]: what comes out: replies, sends addressed by connection id,
//!   closes, durable writes, the listing, the room's end ([`Effect`]).
//! - `core`: the state machine (`RoomCore`): `handle_*` in, `poll_*` out;
//!   reads no clock, draws no OS randomness, holds no channel. Its
//!   requests live in `membership` (join, leave, detach, sync) and `play`
//!   (start, act, reload); chat, mute and the rematch in `social`;
//!   built-in bots in `bots` (seated by the host,
//!   moved through [`Effect::Think`]); who is in the room in `seats`; what each viewer
//!   is sent in `outbox`; its timers in `timers`.
//! - `driver`: the task around the core: connections, replies, storage,
//!   the clock.
//!
//! The order of an action: check who sends it and the expected version,
//! apply it to a *copy* of the game, ask for it to be stored (an
//! [`Effect::Write`]), and only when the driver reports it durable replace
//! the game and send every connection its own events and view. A failure
//! at any step changes nothing.

mod bots;
pub mod clock;
mod core;
mod driver;
pub mod effect;
pub mod handle;
pub mod input;
mod membership;
mod outbox;
mod play;
pub(crate) mod seats;
pub(crate) mod social;
mod timers;

#[cfg(test)]
mod tests;

use splendor_replay::Salt;
use splendor_rules::{Game, Options};

pub(crate) use self::core::{RoomCore, RoomSetup};
pub(crate) use self::driver::Driver;
pub use self::effect::{Answer, Closed, Effect};
pub(crate) use self::handle::Command;
pub use self::handle::{Joined, RoomHandle, RoomProbe};
pub use self::input::{Caller, DriverEvent, Request};
pub use self::social::RematchPlan;
pub(crate) use self::social::{CHAT_BURST, CHAT_WINDOW};
use crate::code::RoomCode;
use crate::persist::GameId;
use crate::session::Session;

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
    pub bots: Vec<Option<splendor_ai::Level>>,
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
}
