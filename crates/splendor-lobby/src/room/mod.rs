//! A room: one tokio task per room, the only owner of its game. The game
//! and every decision about it live in the pure core (the splendor-room
//! crate, quinn-proto's sans-IO shape); this module is what drives it.
//!
//! - [`handle`]: the in-process API: [`RoomHandle`] and its commands.
//! - `driver`: the task around the core: connections, replies, storage,
//!   the clock, the bots' thinking.
//!
//! The core's vocabulary is re-exported here ([`clock`], [`effect`],
//! [`input`], [`seats`], [`social`]) for the crates above.

mod driver;
pub mod handle;
mod occupancy;

pub use splendor_room::{
    Answer, Caller, Closed, DriverEvent, Effect, Joined, RematchPlan, Request, RestoredGame,
    RoomProbe, clock, effect, input, notices, seats, social, whois,
};
pub use splendor_room::{Person, Whom};
pub(crate) use splendor_room::{RoomCore, RoomSetup};

pub(crate) use self::driver::{Driver, DriverSetup};
pub(crate) use self::handle::Command;
pub use self::handle::{JoinAs, RemoteRooms, RoomHandle};
pub(crate) use self::occupancy::Occupancy;
