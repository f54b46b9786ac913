//! Rooms for Splendor: one tokio task per room owning its game, the room
//! manager, sessions and presence. No sockets and no JSON here: the gateway
//! (splendor-server) turns frames into calls on these types.
//!
//! - [`lobby`]: [`Lobby`], the room manager: create, find by code, list.
//! - [`room`]: the room task and its cloneable [`RoomHandle`] (actor with a
//!   bounded command channel and oneshot replies). The order of an action:
//!   validate, apply to a copy, persist, commit, broadcast.
//! - [`conn`]: [`Connection`], what a room sends to: a bounded queue of
//!   server messages, filled with `try_send` only, and a close signal.
//! - [`session`]: sessions and their tokens ([`SessionStore`], in memory
//!   here, in the database later).
//! - [`presence`]: which connection speaks for a session, and its room.
//! - [`persist`]: the [`Persistence`] step of a room ([`NoPersistence`] for now).
//! - [`code`]: room codes; [`config`]: limits and timers; [`error`]: errors
//!   with their wire codes.
#![forbid(unsafe_code)]

pub mod code;
pub mod config;
pub mod conn;
pub mod error;
pub mod lobby;
pub mod persist;
pub mod presence;
pub mod random;
pub mod room;
pub mod session;

pub use code::RoomCode;
pub use config::LobbyConfig;
pub use conn::{CloseReason, CloseSignal, ConnId, Connection, ConnectionRx, SendError};
pub use error::LobbyError;
pub use lobby::{CreateRoom, Lobby};
pub use persist::{GameId, GameStart, NoPersistence, PersistError, Persistence};
pub use presence::{Presence, RoomSeat};
pub use room::{Joined, RoomHandle, Snapshot};
pub use session::{MemorySessions, Session, SessionError, SessionId, SessionStore, SessionToken};
