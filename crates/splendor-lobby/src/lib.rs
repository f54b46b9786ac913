//! Rooms for Splendor: one tokio task per room owning its game, the room
//! manager, sessions and presence. No sockets and no wire parsing here: the
//! gateway (splendor-server) turns frames into calls on these types (JSON
//! appears only as the text actions and results are stored as).
//!
//! - [`lobby`]: [`Lobby`], the room manager: create, find by code, list.
//! - [`room`]: a room as a pure core (requests and driver events in,
//!   effects out, time passed in) and the thin task that drives it, behind
//!   a cloneable [`RoomHandle`] (a bounded command channel, one request
//!   envelope, oneshot replies). The order of an action: validate, apply to
//!   a copy, persist, commit, broadcast.
//! - [`conn`]: [`Connection`], what a room sends to: a bounded queue of
//!   server messages, filled with `try_send` only, and a close signal.
//! - [`session`]: sessions and their tokens ([`SessionStore`], in memory
//!   or in the database).
//! - [`presence`]: which connection speaks for a session, and its room.
//! - [`persist`]: the [`Persistence`] step of a room ([`NoPersistence`] keeps
//!   nothing).
//! - [`stored`]: the database (splendor-store) behind persistence and
//!   sessions; [`restore`] (in `lobby/`) reopens every unfinished game at
//!   start-up by replaying its log, and parked games come back through it.
//! - [`waiters`]: the connections waiting for a game a step spanning
//!   rooms makes (quick play's forming, the rematch; `lobby::matching`).
//! - [`code`]: room codes; [`config`]: limits and timers; [`error`]: errors
//!   with their wire codes.
#![forbid(unsafe_code)]

mod bot_tables;
mod client;
pub mod config;
pub mod conn;
pub mod directory;
mod fair;
mod held;
pub mod lobby;
pub mod notify;
pub mod persist;
pub mod presence;
pub mod random;
pub mod room;
pub mod session;
mod share;
pub mod stored;
pub mod thinking;
mod timings;
pub mod waiters;

pub use client::ClientKey;
pub use config::{LobbyConfig, TurnClock, TurnClockError};
pub use conn::{
    CloseReason, CloseSignal, ConnId, Connection, ConnectionRx, NodeId, Outgoing, SendError,
    SharedFrame,
};
pub use directory::{
    DirectoryError, Lease, LocalDirectory, OpenElsewhere, OpenRoom, RoomDirectory, StoreDirectory,
};
pub use error::{InternalCause, RoomError};
pub use lobby::{
    BotTableStart, CreateRoom, Lobby, LobbyStats, Location, RestoreError, RestoreSummary,
    RoomCounts, restore, take_over_orphans,
};
pub use persist::{
    GameId, GameRecord, NoPersistence, PersistError, PersistErrorKind, Persistence, Stored, Write,
};
pub use presence::{DeviceKey, Presence, RoomSeat, device_key};
pub use room::{
    Answer, Caller, JoinAs, Joined, RemoteRooms, Request, RestoredGame, RoomHandle, RoomProbe,
};
pub use session::{
    MemorySessions, SESSION_WINDOW, Session, SessionError, SessionId, SessionOrigin, SessionStore,
    SessionToken,
};
pub use splendor_room::{MAX_PER_MOVE, MIN_PER_MOVE, OnDeadline};
pub use splendor_room::{RoomCode, code, error, text, tutorial};
pub use thinking::ThinkPool;
pub use timings::{TimeHistogram, Timings};
pub use waiters::{Match, RemoteWaiters, Waiters};
