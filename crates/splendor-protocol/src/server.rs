//! Messages the server sends, tagged by `type`.
//!
//! Every message that answers a request carries that request's `id`; messages
//! pushed because something happened in the room carry none.

use serde::{Deserialize, Serialize};
use splendor_rules::Seat;

use crate::action::WireAction;
use crate::error::ErrorCode;
use crate::ids::{RequestId, Role, RoomClock, TurnBased};
use crate::state::{EventsInfo, HistoryInfo, ResultInfo, StateInfo};

/// Every message the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// `welcome`: the answer to `hello`.
    Welcome(Welcome),
    /// `room`: the room as the receiver sees it.
    Room(RoomInfo),
    /// `state`: the game as the receiver may see it (R6.4).
    State(StateInfo),
    /// `events`: what the last action did; a `state` follows.
    Events(EventsInfo),
    /// `history`: every earlier action's events, on join, resume and sync.
    History(HistoryInfo),
    /// `result`: the final ranking and the revealed seed, once the game is over.
    Result(ResultInfo),
    /// `error`: a request failed; nothing changed.
    Error(ErrorInfo),
    /// `left`: the answer to `leave`.
    Left(Left),
    /// `room_closed`: the room closed by itself.
    RoomClosed(RoomClosed),
    /// `rooms`: the answer to `list_rooms`.
    Rooms(RoomList),
    /// `pong`: the answer to `ping`.
    Pong(Pong),
    /// `chat`: what someone in the room said.
    Chat(crate::social::ChatInfo),
    /// `queued`: the session waits for a quick-play game.
    Queued(crate::quickplay::Queued),
    /// `unqueued`: the answer to `unqueue`.
    Unqueued(crate::quickplay::Unqueued),
    /// `matched`: the queue made a game; `room` and `state` follow.
    Matched(crate::quickplay::Matched),
    /// `hint`: the answer to `hint` (issue 26), to the asking player only.
    Hint(HintInfo),
    /// `invited`: the answer to `invite` (issue 25).
    Invited(crate::social::Invited),
    /// `chat_history`: the room's last chat lines, on join and return.
    ChatHistory(crate::social::ChatHistory),
    /// `challenge`: an invitation by `player_id`, pushed live (issue 24).
    Challenge(crate::social::Challenge),
    /// `declined`: the answer to `decline`.
    Declined(crate::social::Declined),
    /// `challenge_declined`: the challenged player declined (issue 24).
    ChallengeDeclined(crate::social::ChallengeDeclined),
    /// `blocked`: the answer to `block` (issue 22).
    Blocked(crate::social::Blocked),
    /// `unblocked`: the answer to `unblock` (issue 22).
    Unblocked(crate::social::Unblocked),
    /// `reported`: the answer to `report` (issue 22).
    Reported(crate::social::Reported),
}

/// The answer to `hello`: who this connection is from now on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Welcome {
    /// The id of the `hello` request, if it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The session's public id.
    pub session: String,
    /// The secret that resumes this session: `{"type":"hello","token":...}`.
    pub token: String,
    /// The display name of the session.
    pub name: String,
    /// True when an existing session was resumed.
    pub resumed: bool,
    /// The protocol version this server speaks ([`PROTOCOL_VERSION`]).
    #[serde(default = "protocol_one")]
    pub protocol: u32,
    /// True when this connection asked for full states after every action
    /// (`"verbose": true` in `hello`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub verbose: bool,
    /// The language of this connection's `error` messages (`en`, `nl`,
    /// `fr` or `de`): the one `hello` asked for, or `en`. A server from
    /// before languages sent none: English.
    #[serde(default = "english")]
    pub lang: String,
    /// The session's public player id: ten hex digits, stable, shown
    /// beside the name on the leaderboard (names are not unique).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub player_id: String,
    /// True for a bot session (`"bot": true` in a `hello`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
    /// The address people reach this server at, when the host set one
    /// (`--public-url`): for links to a room (`PUBLIC_URL/#CODE`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub public_url: Option<String>,
    /// The node this connection is on, when the server runs as several
    /// nodes (`SPLENDOR_NODE_ID`); absent on a single server. A client
    /// whose `room` names another node may reconnect to that one (see
    /// [`RoomInfo::node`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<u16>,
}

fn english() -> String {
    "en".to_owned()
}

/// The protocol version: 2 sends lean states after actions (cards and
/// nobles by id, no game id or commitment) unless `hello` asks for
/// `verbose`. Version 1 sent full states always and said no version.
pub const PROTOCOL_VERSION: u32 = 2;

fn protocol_one() -> u32 {
    1
}

/// Where a room is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RoomStatus {
    /// Players are gathering; the host has not started.
    Waiting,
    /// The game is running.
    Playing,
    /// The game is over and stays viewable for a while.
    Finished,
}

/// A seat and who holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SeatInfo {
    /// The seat number: join order before the start, turn order from then on.
    pub seat: Seat,
    /// The display name of the player in the seat.
    pub name: String,
    /// False while the player has no open connection.
    pub connected: bool,
    /// True for the host, who starts the game.
    pub host: bool,
    /// The level of a built-in bot (`random`, `greedy`, `strong`); absent
    /// for a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// True when a program plays for this seat's player (a session that
    /// said `"bot":true` in `hello`): marked for everyone, as a bot account
    /// is on Lichess. Absent for a person and for a built-in bot (`bot`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub program_bot: bool,
    /// True when the host muted this seat's chat.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub muted: bool,
    /// In a rated room, the player's public id (as on the leaderboard):
    /// names are not unique. Absent for a built-in bot and in unrated rooms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_id: Option<String>,
}

/// The room as everyone in it sees it. Sent on every change of membership,
/// connection or status. Before the start, seats are numbered in join order;
/// at the start they are renumbered into turn order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RoomInfo {
    /// The id of the request this answers; absent when the message was pushed
    /// because something happened in the room.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The room code: five letters, without I, L and O.
    pub code: String,
    /// True when the room is shown by `list_rooms` and `GET /api/rooms`; an
    /// unlisted room is joined by its code only.
    pub listed: bool,
    /// True for a rated room (quick play, or `create` with `rated`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// True for a tutorial room (`create` with `tutorial`, issue 50): its
    /// game is the prepared deal of `GET /tutorial.json`, whose scripted
    /// moves the room plays for both seats until the first lesson.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tutorial: bool,
    /// `waiting`, `playing` or `finished`.
    pub status: RoomStatus,
    /// One entry per seat; `null` is a free seat.
    pub seats: Vec<Option<SeatInfo>>,
    /// Names of the connected spectators.
    pub spectators: Vec<String>,
    /// The host muted the spectators' chat (`mute` with `"spectators":true`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub spectators_muted: bool,
    /// How the receiving connection is in this room.
    pub you: You,
    /// The room's turn clock (R12); absent without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<RoomClock>,
    /// A turn-based room's time per move (R12.5); absent in a live room.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_based: Option<TurnBased>,
    /// After the end, once someone offered a rematch: who accepted, and
    /// the new room once everyone did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<crate::social::RematchInfo>,
    /// The node that runs this room, when the server runs as several nodes;
    /// absent on a single server. Where it differs from the `welcome`'s
    /// node, every message of this connection crosses between nodes: the
    /// client may reconnect through the load balancer with `?node=N` in
    /// the WebSocket URL and resume (docs/PROTOCOL.md, "Several nodes").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node: Option<u16>,
}

/// The receiving connection's place in the room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct You {
    /// `player` or `spectator`.
    pub role: Role,
    /// The seat, for a player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
}

/// A request failed; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ErrorInfo {
    /// The id of the failed request, when it could be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// A stable machine code (see docs/PROTOCOL.md).
    pub code: String,
    /// A human explanation.
    pub message: String,
    /// For a rejected game action: the rule it breaks, e.g. "R5.1".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// For `rate_limited`: how many milliseconds to wait before the server
    /// lets a message through again; the refused message was not handled
    /// and may be sent again after that.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
    /// For `banned`: when the ban ends, in Unix milliseconds; absent for a
    /// ban for good.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<i64>,
}

/// The answer to `leave`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Left {
    /// The id of the `leave` request, if it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The code of the room left.
    pub room: String,
}

/// The room closed (it expired); the connection is in no room now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RoomClosed {
    /// The code of the room that closed.
    pub room: String,
    /// Why it closed, for people.
    pub reason: String,
}

/// A room that can be joined, as `list_rooms` and `GET /api/rooms` show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RoomSummary {
    /// The room code, to `join` with.
    pub code: String,
    /// The display name of the host.
    pub host: String,
    /// The number of seats: 2, 3 or 4.
    pub seats: u8,
    /// The number of seated players.
    pub players: u8,
    /// How many of them are programs (sessions that said `"bot":true`,
    /// issue 24); absent when none.
    #[serde(default, skip_serializing_if = "crate::tokens::is_zero")]
    pub programs: u8,
    /// `waiting`, `playing` or `finished`.
    pub status: RoomStatus,
}

/// The answer to `list_rooms`; also the body of `GET /api/rooms`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RoomList {
    /// The id of the `list_rooms` request, if it had one; absent in
    /// `GET /api/rooms`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The listed rooms waiting for players with a free seat.
    pub rooms: Vec<RoomSummary>,
}

/// A practice hint (issue 26): the move the strong player would make in
/// the asking player's place, thought out from that seat's view only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HintInfo {
    /// The id of the `hint` request, if it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The state version the hint is for; a move there made after it is
    /// recorded as made with a hint (`by: "hint"`).
    pub version: u64,
    /// The suggested action, one of that state's `legal_actions`.
    pub action: WireAction,
}

/// The answer to `ping`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Pong {
    /// The id of the `ping` request, if it had one.
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
            retry_after_ms: None,
            until: None,
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
            ServerMessage::History(_) => None,
            ServerMessage::Result(m) => m.id.as_ref(),
            ServerMessage::Error(m) => m.id.as_ref(),
            ServerMessage::Left(m) => m.id.as_ref(),
            ServerMessage::RoomClosed(_) => None,
            ServerMessage::Rooms(m) => m.id.as_ref(),
            ServerMessage::Pong(m) => m.id.as_ref(),
            ServerMessage::Chat(m) => m.id.as_ref(),
            ServerMessage::Queued(m) => m.id.as_ref(),
            ServerMessage::Unqueued(m) => m.id.as_ref(),
            ServerMessage::Matched(_) => None,
            ServerMessage::Hint(m) => m.id.as_ref(),
            ServerMessage::Invited(m) => m.id.as_ref(),
            ServerMessage::ChatHistory(_) => None,
            ServerMessage::Challenge(_) => None,
            ServerMessage::Declined(m) => m.id.as_ref(),
            ServerMessage::ChallengeDeclined(_) => None,
            ServerMessage::Blocked(m) => m.id.as_ref(),
            ServerMessage::Unblocked(m) => m.id.as_ref(),
            ServerMessage::Reported(m) => m.id.as_ref(),
        }
    }

    /// A short name of the message type, for logs.
    pub fn kind(&self) -> &'static str {
        match self {
            ServerMessage::Welcome(_) => "welcome",
            ServerMessage::Room(_) => "room",
            ServerMessage::State(_) => "state",
            ServerMessage::Events(_) => "events",
            ServerMessage::History(_) => "history",
            ServerMessage::Result(_) => "result",
            ServerMessage::Error(_) => "error",
            ServerMessage::Left(_) => "left",
            ServerMessage::RoomClosed(_) => "room_closed",
            ServerMessage::Rooms(_) => "rooms",
            ServerMessage::Pong(_) => "pong",
            ServerMessage::Chat(_) => "chat",
            ServerMessage::Queued(_) => "queued",
            ServerMessage::Unqueued(_) => "unqueued",
            ServerMessage::Matched(_) => "matched",
            ServerMessage::Hint(_) => "hint",
            ServerMessage::Invited(_) => "invited",
            ServerMessage::ChatHistory(_) => "chat_history",
            ServerMessage::Challenge(_) => "challenge",
            ServerMessage::Declined(_) => "declined",
            ServerMessage::ChallengeDeclined(_) => "challenge_declined",
            ServerMessage::Blocked(_) => "blocked",
            ServerMessage::Unblocked(_) => "unblocked",
            ServerMessage::Reported(_) => "reported",
        }
    }
}
