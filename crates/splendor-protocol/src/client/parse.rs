//! Parsing a client's text frame: each mistake gets its own code (see the
//! module above).

use serde::Deserialize;
use serde_json::{Map, Value};
use splendor_words::Words;

use super::*;
use crate::error::ErrorCode;
use crate::ids::MAX_REQUEST_ID_LEN;

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
pub const MESSAGE_TYPES: [&str; 23] = [
    "hello",
    "create",
    "join",
    "leave",
    "start",
    "add_bot",
    "remove_bot",
    "act",
    "resign",
    "hint",
    "sync",
    "list_rooms",
    "ping",
    "chat",
    "mute",
    "rematch",
    "queue",
    "unqueue",
    "invite",
    "decline",
    "block",
    "unblock",
    "report",
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
        Value::String(s) if s.chars().count() <= MAX_REQUEST_ID_LEN => Some(RequestId::String(s)),
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
        Some(Value::String(s)) if s.chars().count() <= MAX_REQUEST_ID_LEN => {
            Some(RequestId::String(s))
        }
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
        "leave" => ClientMessage::Leave(fields_of(kind, body)?),
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
        "resign" => {
            no_fields(kind, &body)?;
            ClientMessage::Resign
        }
        "hint" => {
            no_fields(kind, &body)?;
            ClientMessage::Hint
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
        "invite" => ClientMessage::Invite(fields_of(kind, body)?),
        "decline" => ClientMessage::Decline(fields_of(kind, body)?),
        "block" => {
            named_not_null(kind, &body)?;
            ClientMessage::Block(one_named(kind, fields_of(kind, body)?)?)
        }
        "unblock" => {
            named_not_null(kind, &body)?;
            ClientMessage::Unblock(one_named(kind, fields_of(kind, body)?)?)
        }
        "report" => {
            named_not_null(kind, &body)?;
            let report: crate::social::Report = fields_of(kind, body)?;
            if report.named().is_none() {
                return Err(name_one(kind));
            }
            ClientMessage::Report(report)
        }
        _ => {
            let words = Words::new("frame-type-unknown")
                .text("type", format!("{kind:?}"))
                .text("types", MESSAGE_TYPES.join(", "));
            return Err((ErrorCode::UnknownType, words));
        }
    })
}

/// `block` and `unblock` name exactly one player, one way.
fn one_named(
    kind: &str,
    block: crate::social::Block,
) -> Result<crate::social::Block, (ErrorCode, Words)> {
    match block.named() {
        Some(_) => Ok(block),
        None => Err(name_one(kind)),
    }
}

/// A player is named, not nulled: `"seat":null` is refused like a
/// second name (so the schema and the server judge alike).
fn named_not_null(kind: &str, body: &Value) -> Result<(), (ErrorCode, Words)> {
    let nulled = ["player_id", "seat", "line"]
        .iter()
        .any(|field| body.get(field).is_some_and(Value::is_null));
    if nulled { Err(name_one(kind)) } else { Ok(()) }
}

fn name_one(kind: &str) -> (ErrorCode, Words) {
    (
        ErrorCode::InvalidField,
        Words::new("frame-name-one")
            .text("type", kind)
            .text("fields", "`player_id`, `seat`, `line`"),
    )
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

#[cfg(test)]
mod tests;
