//! The wire contract of the Splendor server: JSON text frames on `GET /ws`.
//!
//! docs/PROTOCOL.md is the human reference with an example of every message;
//! this crate is the same contract as types.
//!
//! - [`client`]: what a client sends ([`ClientMessage`]) and
//!   [`parse_client_frame`], which turns a frame into a message or into a
//!   specific error.
//! - [`server`]: what the server sends ([`ServerMessage`]).
//! - [`action`]: the compact action syntax ([`WireAction`]), shared by `act`
//!   and the legal-action list, and its conversion to and from rules actions.
//! - [`view`]: the per-viewer state, events and result in wire form, built
//!   from what the rules crate produced for that viewer.
//! - [`tokens`]: token and gem counts as `{"colour": count}` objects.
//! - [`error`]: the stable error codes and the WebSocket close codes.
//!
//! Invariants: this crate does no IO and knows no tokio; it never decides
//! what a viewer may see (the rules crate does), it only translates.
#![forbid(unsafe_code)]

pub mod action;
pub mod bot_level;
pub mod client;
pub mod error;
pub mod frames;
pub mod ids;
pub mod lean;
pub mod quickplay;
pub mod schema;
pub mod server;
pub mod social;
pub mod state;
pub mod tokens;
pub mod view;

pub use action::{ActionSyntaxError, BuyTarget, WireAction};
pub use client::{
    Act, ClientFrame, ClientMessage, ClockSpec, Create, FrameError, Hello, Join, Leave,
    MAX_LIVENESS_S, OWNER_CHARS, SeatOrder, Start, parse_client_frame, peek_request_id,
};
pub use error::ErrorCode;
pub use frames::{EventsFrames, LeanStateFrames};
pub use ids::{MAX_REQUEST_ID_LEN, OnDeadline, RequestId, Role, RoomClock, TurnBased};
pub use lean::{Catalogue, LeanStateInfo, catalogue};
pub use quickplay::{Matched, Pool, Queue, Queued, Unqueued};
pub use schema::protocol_schema;
pub use server::{
    ErrorInfo, HintInfo, Left, PROTOCOL_VERSION, Pong, RoomClosed, RoomInfo, RoomList, RoomStatus,
    RoomSummary, SeatInfo, ServerMessage, Welcome, You,
};
pub use social::{Chat, ChatInfo, MAX_CHAT_CHARS, Mute, RematchInfo};
pub use splendor_words::{Arg, Words};
pub use state::{
    CardInfo, ClockInfo, EventsInfo, GameEnd, HistoryInfo, LevelRow, NobleInfo, PhaseName,
    PlayerInfo, RankInfo, ReservedInfo, ResultInfo, Reveal, StateInfo, WireEvent,
};
pub use tokens::{GemCounts, TokenCounts};

/// The rules crate's plain identifiers that the wire types name, so that a
/// client (a bot, say) can use this crate without depending on the rules.
pub use splendor_rules::{CardId, Color, Level, NobleId, Seat};
