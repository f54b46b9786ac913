//! Messages a client sends, and the parser that turns a text frame into one
//! or into a specific error.
//!
//! Parsing happens in steps so that each mistake gets its own code: is it
//! JSON (`invalid_json`), is it an object with a string `type`
//! (`bad_message`), is the type known (`unknown_type`), are the fields there
//! (`missing_field`) and well-formed (`invalid_field`, `invalid_action`).
//! The optional `id` is read first, so even most errors can echo it.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use splendor_words::Words;

use crate::action::WireAction;
use crate::error::ErrorCode;

/// A client-chosen request id, echoed by the reply or the error.
/// A string of at most [`MAX_REQUEST_ID_LEN`] bytes or a number.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum RequestId {
    /// A number, echoed as sent.
    Number(serde_json::Number),
    /// A string of at most [`MAX_REQUEST_ID_LEN`] bytes.
    String(String),
}

/// The longest string request id the server echoes.
pub const MAX_REQUEST_ID_LEN: usize = 128;

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
    /// Leave the current room.
    Leave,
    /// Start the game (host only, at least two seated).
    Start(Start),
    /// Seat a built-in bot in a free seat (host only, before the start).
    AddBot(AddBot),
    /// Remove a built-in bot from its seat (host only, before the start).
    RemoveBot(RemoveBot),
    /// Make a move.
    Act(Act),
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
}

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
    /// R12.3: a disconnected player's turn goes to the stand-in after the
    /// grace (needs a clock).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stand_in_when_away: bool,
    /// The game counts for the ratings of everyone seated: the room has a
    /// clock (the server's quick-play clock unless one is given) and the
    /// stand-in plays for the away; no built-in bots.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
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
            stand_in_when_away: false,
            rated: false,
        }
    }
}

/// The role a connection joins a room in.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// `player`: take a seat (the default).
    #[default]
    Player,
    /// `spectator`: watch without a seat, seeing only what everyone may see
    /// (R6.4).
    Spectator,
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
    /// `random`, `greedy` or `strong`; another name gets `unknown_bot_level`.
    pub level: String,
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

/// The fields of `act` before the action itself is parsed, so that a
/// malformed action gets `invalid_action` rather than `invalid_field`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAct {
    action: Value,
    #[serde(default)]
    expect_version: Option<u64>,
}

/// A frame that could not be parsed into a [`ClientFrame`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameError {
    /// The code the `error` message carries.
    pub code: ErrorCode,
    /// What is wrong with the frame, as a message id and its arguments
    /// (worded in the connection's language by the server).
    pub words: Words,
    /// The request id, when it could be read before the error.
    pub id: Option<RequestId>,
}

/// The client message types, as `unknown_type` lists them.
pub const MESSAGE_TYPES: [&str; 16] = [
    "hello",
    "create",
    "join",
    "leave",
    "start",
    "add_bot",
    "remove_bot",
    "act",
    "sync",
    "list_rooms",
    "ping",
    "chat",
    "mute",
    "rematch",
    "queue",
    "unqueue",
];

/// The keys that make an object an action (docs/PROTOCOL.md, actions).
const ACTION_KEYS: [&str; 7] = [
    "take",
    "take_two",
    "reserve",
    "reserve_deck",
    "buy",
    "return",
    "noble",
];

const ACT_EXAMPLE_PASS: &str = r#"{"type":"act","action":"pass"}"#;

/// The request id of a frame, read without parsing the message itself:
/// what a refusal that does not handle the frame (the message rate) echoes.
/// `None` when the frame is not a JSON object or its id is not a valid one.
pub fn peek_request_id(text: &str) -> Option<RequestId> {
    #[derive(Deserialize)]
    struct Peek {
        #[serde(default)]
        id: Option<Value>,
    }
    match serde_json::from_str::<Peek>(text).ok()?.id? {
        Value::Number(n) => Some(RequestId::Number(n)),
        Value::String(s) if s.len() <= MAX_REQUEST_ID_LEN => Some(RequestId::String(s)),
        _ => None,
    }
}

/// Parses one text frame.
pub fn parse_client_frame(text: &str) -> Result<ClientFrame, FrameError> {
    let error = |code, words, id: Option<RequestId>| FrameError { code, words, id };
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let words = Words::new("frame-not-json").text("detail", e.to_string());
        error(ErrorCode::InvalidJson, words, None)
    })?;
    let Value::Object(mut object) = value else {
        let words = if value == Value::String("pass".into()) {
            Words::new("frame-not-object-action")
                .text("example", PING_EXAMPLE)
                .text("act", ACT_EXAMPLE_PASS)
        } else {
            Words::new("frame-not-object").text("example", PING_EXAMPLE)
        };
        return Err(error(ErrorCode::BadMessage, words, None));
    };
    let id = match object.remove("id") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => Some(RequestId::Number(n)),
        Some(Value::String(s)) if s.len() <= MAX_REQUEST_ID_LEN => Some(RequestId::String(s)),
        Some(_) => {
            let words = Words::new("frame-id").count("max", MAX_REQUEST_ID_LEN);
            return Err(error(ErrorCode::InvalidField, words, None));
        }
    };
    let kind = match object.remove("type") {
        Some(Value::String(kind)) => kind,
        None => {
            // A bare action (`{"take":[...]}`) is the commonest slip: say
            // where it goes.
            let words = match object.keys().find(|k| ACTION_KEYS.contains(&k.as_str())) {
                Some(key) => Words::new("frame-type-missing-action")
                    .text("action", format!("{{\"{key}\":...}}"))
                    .text(
                        "act",
                        format!("{{\"type\":\"act\",\"action\":{{\"{key}\":...}}}}"),
                    ),
                None => Words::new("frame-type-missing").text("types", MESSAGE_TYPES.join(", ")),
            };
            return Err(error(ErrorCode::MissingField, words, id));
        }
        Some(_) => {
            let words = Words::new("frame-type-not-string");
            return Err(error(ErrorCode::BadMessage, words, id));
        }
    };
    match parse_body(&kind, object) {
        Ok(message) => Ok(ClientFrame { id, message }),
        Err((code, words)) => Err(error(code, words, id)),
    }
}

/// The smallest message, as the errors show it.
const PING_EXAMPLE: &str = r#"{"type":"ping"}"#;

fn parse_body(kind: &str, fields: Map<String, Value>) -> Result<ClientMessage, (ErrorCode, Words)> {
    let body = Value::Object(fields);
    Ok(match kind {
        "hello" => ClientMessage::Hello(fields_of(kind, body)?),
        "create" => ClientMessage::Create(fields_of(kind, body)?),
        "join" => ClientMessage::Join(fields_of(kind, body)?),
        "leave" => {
            no_fields(kind, &body)?;
            ClientMessage::Leave
        }
        "start" => ClientMessage::Start(fields_of(kind, body)?),
        "add_bot" => ClientMessage::AddBot(fields_of(kind, body)?),
        "remove_bot" => ClientMessage::RemoveBot(fields_of(kind, body)?),
        "act" => {
            let raw: RawAct = fields_of(kind, body)?;
            let action = serde_json::from_value(raw.action).map_err(|e| {
                let words = Words::new("frame-action")
                    .text("detail", e.to_string())
                    .text("examples", ACTION_EXAMPLES);
                (ErrorCode::InvalidAction, words)
            })?;
            ClientMessage::Act(Act {
                action,
                expect_version: raw.expect_version,
            })
        }
        "sync" => {
            no_fields(kind, &body)?;
            ClientMessage::Sync
        }
        "list_rooms" => {
            no_fields(kind, &body)?;
            ClientMessage::ListRooms
        }
        "ping" => {
            no_fields(kind, &body)?;
            ClientMessage::Ping
        }
        "chat" => ClientMessage::Chat(fields_of(kind, body)?),
        "mute" => ClientMessage::Mute(fields_of(kind, body)?),
        "rematch" => {
            no_fields(kind, &body)?;
            ClientMessage::Rematch
        }
        "queue" => ClientMessage::Queue(fields_of(kind, body)?),
        "unqueue" => {
            no_fields(kind, &body)?;
            ClientMessage::Unqueue
        }
        _ => {
            let words = Words::new("frame-type-unknown")
                .text("type", format!("{kind:?}"))
                .text("types", MESSAGE_TYPES.join(", "));
            return Err((ErrorCode::UnknownType, words));
        }
    })
}

/// Actions as the `invalid_action` error shows them.
const ACTION_EXAMPLES: &str = r#"{"take":["white","blue","red"]}, {"buy":17}, "pass""#;

/// Deserialises the fields of a `kind` message, classifying serde's error.
/// Its explanation is the JSON parser's own, in English: technical detail
/// quoted inside a worded message.
fn fields_of<T: serde::de::DeserializeOwned>(
    kind: &str,
    body: Value,
) -> Result<T, (ErrorCode, Words)> {
    serde_json::from_value(body).map_err(|e| {
        let text = e.to_string();
        // serde reports a missing field through `de::Error::missing_field`,
        // whose message is always "missing field `name`" (a unit test pins
        // it): said in the client's language, naming the field.
        let missing = text
            .strip_prefix("missing field `")
            .and_then(|rest| rest.strip_suffix('`'));
        if let Some(field) = missing {
            let words = Words::new("frame-missing-field")
                .text("type", kind)
                .text("field", field);
            return (ErrorCode::MissingField, words);
        }
        // And an unknown field through `de::Error::unknown_field`: "unknown
        // field `name`, expected `a` or `b`" (or "one of `a`, `b`, ...", or
        // "there are no fields"), also pinned by a unit test.
        if let Some((field, expected)) = unknown_field(&text) {
            let words = if expected.is_empty() {
                Words::new("frame-no-fields")
                    .text("type", kind)
                    .text("field", field)
            } else {
                Words::new("frame-unknown-field")
                    .text("type", kind)
                    .text("field", field)
                    .text("expected", expected.join(", "))
            };
            return (ErrorCode::InvalidField, words);
        }
        let words = Words::new("frame-fields")
            .text("type", kind)
            .text("detail", text);
        (ErrorCode::InvalidField, words)
    })
}

/// The field and the fields expected instead, quoted, from serde's message
/// of an unknown field.
fn unknown_field(text: &str) -> Option<(&str, Vec<String>)> {
    let rest = text.strip_prefix("unknown field `")?;
    let (field, rest) = rest.split_once('`')?;
    let expected = rest
        .split('`')
        .skip(1)
        .step_by(2)
        .map(|name| format!("`{name}`"))
        .collect();
    Some((field, expected))
}

fn no_fields(kind: &str, body: &Value) -> Result<(), (ErrorCode, Words)> {
    match body.as_object().and_then(|o| o.keys().next()) {
        Some(field) => Err((
            ErrorCode::InvalidField,
            Words::new("frame-no-fields")
                .text("type", kind)
                .text("field", field.as_str()),
        )),
        None => Ok(()),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::BuyTarget;
    use splendor_rules::CardId;

    fn ok(text: &str) -> ClientFrame {
        parse_client_frame(text).unwrap_or_else(|e| panic!("{text}: {e:?}"))
    }

    fn err(text: &str) -> FrameError {
        parse_client_frame(text).expect_err(text)
    }

    #[test]
    fn each_message_type_parses_with_defaults() {
        assert_eq!(
            ok(r#"{"type":"hello","name":"ann"}"#).message,
            ClientMessage::Hello(Hello {
                verbose: false,
                name: Some("ann".into()),
                token: None,
                lang: None,
                bot: false,
                liveness_s: None,
            })
        );
        assert_eq!(
            ok(r#"{"type":"create"}"#).message,
            ClientMessage::Create(Create::default())
        );
        assert_eq!(
            ok(r#"{"type":"create","seats":2,"as":"spectator"}"#).message,
            ClientMessage::Create(Create {
                seats: 2,
                role: Role::Spectator,
                ..Create::default()
            })
        );
        assert_eq!(
            ok(r#"{"type":"create","clock":{"initial_s":300,"increment_s":10},"stand_in_when_away":true}"#)
                .message,
            ClientMessage::Create(Create {
                clock: Some(ClockSpec {
                    initial_s: 300,
                    increment_s: 10
                }),
                stand_in_when_away: true,
                ..Create::default()
            })
        );
        assert_eq!(
            ok(r#"{"type":"add_bot","level":"strong"}"#).message,
            ClientMessage::AddBot(AddBot {
                level: "strong".into()
            })
        );
        assert_eq!(
            ok(r#"{"type":"remove_bot","seat":2}"#).message,
            ClientMessage::RemoveBot(RemoveBot { seat: 2 })
        );
        assert_eq!(
            ok(r#"{"type":"join","code":"abcde","as":"spectator"}"#).message,
            ClientMessage::Join(Join {
                code: "abcde".into(),
                role: Role::Spectator
            })
        );
        assert_eq!(ok(r#"{"type":"leave"}"#).message, ClientMessage::Leave);
        assert_eq!(
            ok(r#"{"type":"start","seat_order":"joined"}"#).message,
            ClientMessage::Start(Start {
                seat_order: SeatOrder::Joined
            })
        );
        assert_eq!(
            ok(r#"{"type":"act","action":{"buy":17},"expect_version":4,"id":"r1"}"#),
            ClientFrame {
                id: Some(RequestId::String("r1".into())),
                message: ClientMessage::Act(Act {
                    action: WireAction::Buy(BuyTarget::Card(CardId(17))),
                    expect_version: Some(4)
                })
            }
        );
        assert_eq!(ok(r#"{"type":"sync"}"#).message, ClientMessage::Sync);
        assert_eq!(
            ok(r#"{"type":"list_rooms"}"#).message,
            ClientMessage::ListRooms
        );
        assert_eq!(
            ok(r#"{"type":"ping","id":7}"#).id,
            Some(RequestId::Number(7.into()))
        );
    }

    #[test]
    fn serialised_frames_parse_back_to_themselves() {
        let frames = [
            ClientFrame {
                id: Some(RequestId::Number(1.into())),
                message: ClientMessage::Act(Act {
                    action: WireAction::Pass,
                    expect_version: Some(3),
                }),
            },
            ClientFrame::new(ClientMessage::Join(Join {
                code: "ABCDE".into(),
                role: Role::Player,
            })),
            ClientFrame::new(ClientMessage::Leave),
            ClientFrame::new(ClientMessage::Hello(Hello {
                name: None,
                token: Some("t".into()),
                verbose: false,
                lang: None,
                bot: false,
                liveness_s: None,
            })),
            ClientFrame::new(ClientMessage::Hello(Hello {
                name: Some("ann".into()),
                token: None,
                verbose: true,
                lang: Some("nl".into()),
                bot: false,
                liveness_s: Some(5),
            })),
        ];
        for frame in frames {
            assert_eq!(ok(&frame.to_json()), frame);
        }
    }

    #[test]
    fn each_kind_of_bad_frame_gets_its_own_code() {
        for (text, code) in [
            ("{", ErrorCode::InvalidJson),
            ("hello", ErrorCode::InvalidJson),
            ("[1,2]", ErrorCode::BadMessage),
            ("\"ping\"", ErrorCode::BadMessage),
            (r#"{"type":5}"#, ErrorCode::BadMessage),
            (r#"{"name":"ann"}"#, ErrorCode::MissingField),
            (r#"{"type":"dance"}"#, ErrorCode::UnknownType),
            (r#"{"type":"join"}"#, ErrorCode::MissingField),
            (r#"{"type":"act"}"#, ErrorCode::MissingField),
            (r#"{"type":"join","code":5}"#, ErrorCode::InvalidField),
            (r#"{"type":"join","cod":"ABCDE"}"#, ErrorCode::InvalidField),
            (
                r#"{"type":"create","seats":"four"}"#,
                ErrorCode::InvalidField,
            ),
            (r#"{"type":"ping","x":1}"#, ErrorCode::InvalidField),
            (
                r#"{"type":"act","action":{"fly":1}}"#,
                ErrorCode::InvalidAction,
            ),
            (
                r#"{"type":"act","action":"pass","expect_version":-1}"#,
                ErrorCode::InvalidField,
            ),
            (r#"{"type":"ping","id":[1]}"#, ErrorCode::InvalidField),
        ] {
            assert_eq!(err(text).code, code, "{text}: {:?}", err(text));
        }
    }

    /// Every text argument of an error's words, as sent (verbatim).
    fn said(e: &FrameError) -> String {
        e.words
            .args()
            .iter()
            .filter_map(|(_, arg)| match arg {
                splendor_words::Arg::Text(text) => Some(text.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join(" | ")
    }

    #[test]
    fn a_missing_field_error_names_the_field() {
        // Pins the serde message format the missing_field classification relies on.
        let e = err(r#"{"type":"join"}"#);
        assert_eq!(e.code, ErrorCode::MissingField);
        assert_eq!(
            e.words,
            Words::new("frame-missing-field")
                .text("type", "join")
                .text("field", "code")
        );
    }

    #[test]
    fn an_unknown_field_error_names_the_field_and_the_expected_ones() {
        // Pins the serde message format the unknown_field reading relies on.
        let e = err(r#"{"type":"join","cod":"ABCDE"}"#);
        assert_eq!(e.code, ErrorCode::InvalidField);
        assert_eq!(
            e.words,
            Words::new("frame-unknown-field")
                .text("type", "join")
                .text("field", "cod")
                .text("expected", "`code`, `as`")
        );
    }

    #[test]
    fn a_bare_action_is_told_to_go_inside_act() {
        let e = err(r#"{"take":["white","blue","red"]}"#);
        assert_eq!(e.code, ErrorCode::MissingField);
        assert!(
            said(&e).contains(r#"{"type":"act","action":{"take":...}}"#),
            "{}",
            said(&e)
        );
        let e = err(r#""pass""#);
        assert_eq!(e.code, ErrorCode::BadMessage);
        assert!(
            said(&e).contains(r#"{"type":"act","action":"pass"}"#),
            "{}",
            said(&e)
        );
        // Anything else without a type lists the types, all of them.
        let e = err(r#"{"name":"ann"}"#);
        for kind in MESSAGE_TYPES {
            assert!(said(&e).contains(kind), "{kind}: {}", said(&e));
        }
        assert!(said(&e).contains("remove_bot"), "{}", said(&e));
    }

    #[test]
    fn errors_echo_the_request_id_when_it_was_readable() {
        assert_eq!(
            err(r#"{"type":"dance","id":"x"}"#).id,
            Some(RequestId::String("x".into()))
        );
        assert_eq!(
            err(r#"{"type":"act","id":9,"action":"fold"}"#).id,
            Some(RequestId::Number(9.into()))
        );
        assert_eq!(err("{").id, None);
        let long = "x".repeat(MAX_REQUEST_ID_LEN + 1);
        let e = err(&format!(r#"{{"type":"ping","id":"{long}"}}"#));
        assert_eq!((e.code, e.id), (ErrorCode::InvalidField, None));
    }
}
