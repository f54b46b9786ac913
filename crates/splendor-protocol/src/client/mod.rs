//! Messages a client sends; the parser that turns a text frame into one
//! or into a specific error is `parse.rs`.
//!
//! Parsing happens in steps so that each mistake gets its own code: is it
//! JSON (`invalid_json`), is it an object with a string `type`
//! (`bad_message`), is the type known (`unknown_type`), are the fields there
//! (`missing_field`) and well-formed (`invalid_field`, `invalid_action`).
//! The optional `id` is read first, so even most errors can echo it.

use serde::{Deserialize, Serialize};

use crate::action::WireAction;
use crate::ids::{RequestId, Role, TurnBased};

mod parse;

pub use parse::{FrameError, MESSAGE_TYPES, parse_client_frame, peek_request_id};

/// The longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// One client message with its optional request id.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct ClientFrame {
    /// The request id, echoed by the message that answers this one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The message itself: its fields sit beside `type` and `id` in the same
    /// object.
    #[serde(flatten)]
    pub message: ClientMessage,
}

/// Every message a client may send, tagged by `type`.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMessage {
    /// Identify: a new session with `name`, or resume one with `token`.
    Hello(Hello),
    /// Create a room and take its first seat as host.
    Create(Create),
    /// Join a room by code, as a player (default) or a spectator.
    Join(Join),
    /// Leave the current room (`give_up`: the seat too, before the start
    /// of a turn-based room).
    Leave(Leave),
    /// Start the game (host only, at least two seated).
    Start(Start),
    /// Seat a built-in bot in a free seat (host only, before the start).
    AddBot(AddBot),
    /// Remove a built-in bot from its seat (host only, before the start).
    RemoveBot(RemoveBot),
    /// Make a move.
    Act(Act),
    /// Resign the game (R13.1), whoever is to move: the game ends at once
    /// or the stand-in plays the seat to the end (R13.2).
    Resign,
    /// Ask for a practice hint (issue 26): the strong player's move for
    /// the caller's seat, in an unrated game against built-in bots only.
    Hint,
    /// Ask for the room and the current state again.
    Sync,
    /// Ask for the listed rooms that have free seats.
    ListRooms,
    /// Check the connection; answered with `pong`.
    Ping,
    /// Say something to everyone in the room.
    Chat(crate::social::Chat),
    /// The host mutes or unmutes a seat's chat.
    Mute(crate::social::Mute),
    /// After the end: offer, or accept, a rematch with the same players.
    Rematch,
    /// Wait for a rated game with strangers (quick play).
    Queue(crate::quickplay::Queue),
    /// Leave the quick-play queue.
    Unqueue,
    /// Invite a player by `player_id` to the room (issue 25).
    Invite(crate::social::Invite),
    /// Decline a challenge (an invitation), with a reason (issue 24).
    Decline(crate::social::Decline),
    /// Block a player (issue 22).
    Block(crate::social::Block),
    /// Unblock a player (issue 22).
    Unblock(crate::social::Block),
    /// Report a player to the operators (issue 22).
    Report(crate::social::Report),
}

/// `hello`: identify the connection, as a new session (`name`) or by
/// resuming one (`token`). Answered by `welcome`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hello {
    /// The display name for a new session (or a new name on resume).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The token from an earlier `welcome`, to resume that session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// Full states after every action instead of lean ones (protocol 2):
    /// for a person reading the frames, or a client without the card
    /// catalogue.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub verbose: bool,
    /// The language of the `message` of every `error` this connection gets
    /// from now on: `en` (the default), `nl`, `fr` or `de`, any case; a
    /// region suffix (`nl-BE`) is reduced to the language. The gateway
    /// checks it (another language is `invalid_field`); `error.code` is the
    /// same in every language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// A program plays on this session (a bot): ranked apart from people.
    /// Once said, the session stays a bot.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
    /// A promise to send a message (an application `ping` will do) at
    /// least every `liveness_s` seconds (1 to 60) while seated in a room.
    /// Such a connection silent for 2.4 times that (12 s for 5) counts as
    /// away (R12.3) without being closed, and is back with its next
    /// message. For a client whose socket can outlive its player (a browser
    /// page kept in the back/forward cache answers pings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub liveness_s: Option<u32>,
    /// A program (`"bot":true`) that takes challenges (issue 24): listed
    /// by `GET /api/bots/online` while this connection is open. Every
    /// session invited by `player_id` gets `challenge` messages whether or
    /// not it says this.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub challenges: bool,
    /// A program's owner (issue 24): a secret of 8 to 128 characters its
    /// author gives all their bots. Quick play never seats two programs of
    /// one owner at one table, and caps the rated games one owner's
    /// programs play at once. Kept only as a digest; only with `bot`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
}

/// The shortest and longest owner secret `hello` takes.
pub const OWNER_CHARS: std::ops::RangeInclusive<usize> = 8..=128;

/// The longest `liveness_s` a client may promise.
pub const MAX_LIVENESS_S: u32 = 60;

fn default_seats() -> u8 {
    4
}

/// `create`: create a room and take its first seat, as host. Answered by
/// `room`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Create {
    /// 2, 3 or 4 seats (default 4). The game starts with the seats filled then.
    #[serde(default = "default_seats")]
    pub seats: u8,
    /// Listed rooms appear in `GET /api/rooms` and `list_rooms`; the default
    /// is private (join by code only).
    #[serde(default)]
    pub listed: bool,
    /// `player` (default): the creator takes the first seat; `spectator`:
    /// the creator hosts without a seat, to watch a table of bots or a game
    /// of others.
    #[serde(default, rename = "as", skip_serializing_if = "is_player")]
    pub role: Role,
    /// A turn clock (R12.1); without one the game waits for its players as
    /// long as the room lives (the server may set a default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockSpec>,
    /// A turn-based room (R12.5): each turn has a deadline instead of a
    /// bank. Not with `clock` nor `stand_in_when_away`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_based: Option<TurnBased>,
    /// R12.3: a disconnected player's turn goes to the stand-in after the
    /// grace (needs a clock).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stand_in_when_away: bool,
    /// The game counts for the ratings of everyone seated: the room has a
    /// clock (the server's quick-play clock unless one is given) and the
    /// stand-in plays for the away; no built-in bots.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// A tutorial (issue 50): two seats, the creator's and a built-in bot's
    /// (the tutor, seated at once), the prepared deal of `GET
    /// /tutorial.json`; no clock, not rated, not listed. The host starts it
    /// as any room.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tutorial: bool,
}

/// A turn clock as `create` gives it: whole seconds; a bank of 1 second to
/// 7 days and an increment of 0 to 1 day (R12.1), else `invalid_clock`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockSpec {
    /// Each player's bank at the start, in seconds.
    pub initial_s: i64,
    /// Added when each of a player's turns ends, in seconds.
    pub increment_s: i64,
}

fn is_player(role: &Role) -> bool {
    *role == Role::Player
}

impl Default for Create {
    fn default() -> Self {
        Create {
            seats: default_seats(),
            listed: false,
            role: Role::Player,
            clock: None,
            turn_based: None,
            stand_in_when_away: false,
            rated: false,
            tutorial: false,
        }
    }
}

/// `leave`: leave the current room. A player of a game in progress keeps
/// the seat, and so does one of a turn-based room before its start
/// (R12.5), unless `give_up` is true: then the seat is free again (before
/// a start only; a game in progress is given up with `resign`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct Leave {
    /// Give the seat up too (before the start).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub give_up: bool,
}

/// `join`: join a room by its code. Answered by `room`, then, in a running
/// or finished game, `state` (and `result` when it is over).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Join {
    /// The room code, case-insensitive.
    pub code: String,
    /// `as`: `player` (the default) or `spectator`. A session that holds a seat
    /// in the room gets that seat back, whatever this says.
    #[serde(default, rename = "as")]
    pub role: Role,
}

/// How the seats are ordered when the game starts.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum SeatOrder {
    /// Shuffled from the game's seed (R2.4 default).
    #[default]
    Random,
    /// The order in which the players joined.
    Joined,
}

/// `start`: start the game (host only, at least 2 seated players).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Start {
    /// `random` (the default) or `joined`: the turn order (R2.4).
    #[serde(default)]
    pub seat_order: SeatOrder,
}

/// `add_bot`: seat a built-in bot in the first free seat (host only,
/// before the start). Answered by `room`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddBot {
    /// The level: its number (`3` or `"3"`, 1 to the top level) or its
    /// name (`random`, `greedy`, `level-3`, `strong`); another gets
    /// `unknown_bot_level`.
    pub level: LevelArg,
}

/// A bot level as a client names it: a number or a name (issue 51).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum LevelArg {
    /// The level's number.
    Number(i64),
    /// The level's number or name, as text.
    Name(String),
}

impl LevelArg {
    /// The level as text, as [`crate::bot_level::Level`] parses it.
    pub fn text(&self) -> String {
        match self {
            LevelArg::Number(n) => n.to_string(),
            LevelArg::Name(name) => name.clone(),
        }
    }
}

/// `remove_bot`: free the seat a built-in bot holds (host only, before the
/// start). Answered by `room`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RemoveBot {
    /// The bot's seat, as the `room` message numbers it.
    pub seat: u8,
}

/// `act`: make a move for the connection's seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Act {
    /// The move, in the action syntax ([`WireAction`]): any entry of the
    /// `legal_actions` list of `state` may be sent unchanged.
    pub action: WireAction,
    /// Apply only if the state is still at this version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expect_version: Option<u64>,
}

impl ClientFrame {
    /// A frame without a request id.
    pub fn new(message: ClientMessage) -> Self {
        ClientFrame { id: None, message }
    }

    /// The frame as the JSON text a client sends.
    pub fn to_json(&self) -> String {
        // Serialising these plain data types cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}
