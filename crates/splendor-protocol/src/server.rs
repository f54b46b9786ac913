//! Messages the server sends, tagged by `type`.
//!
//! Every message that answers a request carries that request's `id`; messages
//! pushed because something happened in the room carry none.

use serde::{Deserialize, Serialize};
use splendor_rules::Seat;

use crate::action::WireAction;
use crate::client::{RequestId, Role};
use crate::error::ErrorCode;
use crate::tokens::TokenCounts;
use crate::view::{LevelRow, NobleInfo, PlayerInfo, WireEvent};

/// Every message the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    Welcome(Welcome),
    Room(RoomInfo),
    State(StateInfo),
    Events(EventsInfo),
    Result(ResultInfo),
    Error(ErrorInfo),
    Left(Left),
    RoomClosed(RoomClosed),
    Rooms(RoomList),
    Pong(Pong),
}

/// The answer to `hello`: who this connection is from now on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Welcome {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The session's public id.
    pub session: String,
    /// The secret that resumes this session: `{"type":"hello","token":...}`.
    pub token: String,
    pub name: String,
    /// True when an existing session was resumed.
    pub resumed: bool,
}

/// Where a room is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoomStatus {
    /// Players are gathering; the host has not started.
    Waiting,
    Playing,
    /// The game is over and stays viewable for a while.
    Finished,
}

/// A seat and who holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    pub seat: Seat,
    pub name: String,
    /// False while the player has no open connection.
    pub connected: bool,
    pub host: bool,
}

/// The room as everyone in it sees it. Sent on every change of membership,
/// connection or status. Before the start, seats are numbered in join order;
/// at the start they are renumbered into turn order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomInfo {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    pub code: String,
    pub listed: bool,
    pub status: RoomStatus,
    /// One entry per seat; `null` is a free seat.
    pub seats: Vec<Option<SeatInfo>>,
    /// Names of the connected spectators.
    pub spectators: Vec<String>,
    /// How the receiving connection is in this room.
    pub you: You,
}

/// The receiving connection's place in the room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct You {
    pub role: Role,
    /// The seat, for a player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
}

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PhaseName {
    /// A main action (R3), or a pass when none is possible (R11.1).
    Main,
    /// Tokens must be returned down to 10 (R8).
    ReturnTokens,
    /// A noble must be chosen among several (R9.3).
    ChooseNoble,
    GameOver,
}

/// The game as the receiving connection may see it (R6.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateInfo {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    pub room: String,
    /// The game's id: its replay is `GET /api/games/{game}/replay` once it is over.
    pub game: String,
    /// The commitment to the game's secret seed, `SHA-256(salt || seed)` in
    /// hexadecimal (docs/REPLAYS.md); fixed for the whole game. Keep it: the
    /// `result` reveals the seed and salt, and the replay must match it.
    pub commitment: String,
    /// The number of actions applied so far; `act` may name it as `expect_version`.
    pub version: u64,
    /// The receiver's seat; absent for spectators.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub you: Option<Seat>,
    pub phase: PhaseName,
    /// The seat that must act; absent when the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_act: Option<Seat>,
    /// In `return_tokens`: how many tokens must go back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_count: Option<u8>,
    /// In `choose_noble`: the nobles to choose from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub noble_choices: Vec<NobleInfo>,
    /// The seat that played first (R2.4); the last round ends before it (R10.2).
    pub first_seat: Seat,
    /// Turns completed so far.
    pub turn: u32,
    pub supply: TokenCounts,
    /// Levels 1, 2, 3: deck size and face-up cards.
    pub levels: Vec<LevelRow>,
    pub nobles: Vec<NobleInfo>,
    pub players: Vec<PlayerInfo>,
    /// Set once a player reached 15 points (R10.1).
    pub end_triggered: bool,
    /// For the player who must act, and only for them: every legal action,
    /// in exactly the form `act` takes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal_actions: Option<Vec<WireAction>>,
}

/// What the last action did, as the receiving connection may see it.
/// Followed by a `state` with the same version.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventsInfo {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    pub room: String,
    /// The version the events lead to.
    pub version: u64,
    pub events: Vec<WireEvent>,
}

/// One line of the final ranking (R10.3, R10.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RankInfo {
    pub seat: Seat,
    pub name: String,
    pub points: u8,
    /// Purchased development cards (the R10.4 tie-break).
    pub cards: u8,
    /// 1-based; tied players share a rank.
    pub rank: u8,
}

/// The final result, sent once when the game ends and on `sync` afterwards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultInfo {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    pub room: String,
    pub ranking: Vec<RankInfo>,
    pub winners: Vec<Seat>,
    /// True when the game ended because nobody could act (R11.2).
    pub deadlock: bool,
    /// The game's id, for `GET /api/games/{game}/replay`.
    pub game: String,
    /// The seed and salt behind the commitment, now that the game is over.
    pub reveal: Reveal,
}

/// What a finished game reveals so that its players can check the deal
/// (docs/REPLAYS.md): `commitment == SHA-256(salt || seed)`, with the salt's
/// 32 bytes and the seed's 8 big-endian bytes, all as lowercase hexadecimal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reveal {
    /// The commitment every player received when the game started.
    pub commitment: String,
    /// The seed every shuffle came from (R2.5): 16 hexadecimal digits.
    pub seed: String,
    /// The commitment's salt: 64 hexadecimal digits.
    pub salt: String,
}

/// A request failed; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorInfo {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// A stable machine code (see docs/PROTOCOL.md).
    pub code: String,
    /// A human explanation.
    pub message: String,
    /// For a rejected game action: the rule it breaks, e.g. "R5.1".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// The answer to `leave`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Left {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    pub room: String,
}

/// The room closed (it expired); the connection is in no room now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomClosed {
    pub room: String,
    pub reason: String,
}

/// A room that can be joined, as `list_rooms` and `GET /api/rooms` show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomSummary {
    pub code: String,
    pub host: String,
    pub seats: u8,
    pub players: u8,
    pub status: RoomStatus,
}

/// The answer to `list_rooms`; also the body of `GET /api/rooms`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomList {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    pub rooms: Vec<RoomSummary>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pong {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
}

impl ErrorInfo {
    /// An error with one of the server's own codes.
    pub fn new(code: ErrorCode, message: impl Into<String>, id: Option<RequestId>) -> Self {
        ErrorInfo {
            id,
            code: code.as_str().to_owned(),
            message: message.into(),
            rule: None,
        }
    }
}

impl ServerMessage {
    /// The message as the JSON text sent on the wire.
    pub fn to_json(&self) -> String {
        // Serialising these plain data types cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The request id this message answers, if any.
    pub fn request_id(&self) -> Option<&RequestId> {
        match self {
            ServerMessage::Welcome(m) => m.id.as_ref(),
            ServerMessage::Room(m) => m.id.as_ref(),
            ServerMessage::State(m) => m.id.as_ref(),
            ServerMessage::Events(m) => m.id.as_ref(),
            ServerMessage::Result(m) => m.id.as_ref(),
            ServerMessage::Error(m) => m.id.as_ref(),
            ServerMessage::Left(m) => m.id.as_ref(),
            ServerMessage::RoomClosed(_) => None,
            ServerMessage::Rooms(m) => m.id.as_ref(),
            ServerMessage::Pong(m) => m.id.as_ref(),
        }
    }

    /// A short name of the message type, for logs.
    pub fn kind(&self) -> &'static str {
        match self {
            ServerMessage::Welcome(_) => "welcome",
            ServerMessage::Room(_) => "room",
            ServerMessage::State(_) => "state",
            ServerMessage::Events(_) => "events",
            ServerMessage::Result(_) => "result",
            ServerMessage::Error(_) => "error",
            ServerMessage::Left(_) => "left",
            ServerMessage::RoomClosed(_) => "room_closed",
            ServerMessage::Rooms(_) => "rooms",
            ServerMessage::Pong(_) => "pong",
        }
    }
}
