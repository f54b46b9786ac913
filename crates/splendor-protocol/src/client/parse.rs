//! Parsing a client's text frame: each mistake gets its own code (see the
//! module above).

use serde::Deserialize;
use serde_json::{Map, Value};
use splendor_words::Words;

use super::*;
use crate::error::ErrorCode;

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
                challenges: false,
                owner: None,
            })
        );
        assert_eq!(
            ok(r#"{"type":"create"}"#).message,
            ClientMessage::Create(Create::default())
        );
        // Issue 24: a decline's reason is `generic` unless given; another
        // word, or another field, is refused.
        assert_eq!(
            ok(r#"{"type":"decline","invitation":"9b1f"}"#).message,
            ClientMessage::Decline(crate::social::Decline {
                invitation: "9b1f".into(),
                reason: crate::social::DeclineReason::Generic,
            })
        );
        assert_eq!(
            ok(r#"{"type":"decline","invitation":"9b1f","reason":"too_fast"}"#).message,
            ClientMessage::Decline(crate::social::Decline {
                invitation: "9b1f".into(),
                reason: crate::social::DeclineReason::TooFast,
            })
        );
        assert_eq!(
            ok(r#"{"type":"block","player_id":"7c01d9e4aa"}"#).message,
            ClientMessage::Block(crate::social::Block {
                player_id: Some("7c01d9e4aa".into()),
                ..Default::default()
            })
        );
        // Issue 22: by seat or chat line too, and exactly one way.
        assert_eq!(
            ok(r#"{"type":"unblock","seat":2}"#).message,
            ClientMessage::Unblock(crate::social::Block {
                seat: Some(2),
                ..Default::default()
            })
        );
        assert_eq!(
            ok(r#"{"type":"report","line":12,"reason":"insults"}"#).message,
            ClientMessage::Report(crate::social::Report {
                line: Some(12),
                reason: "insults".into(),
                ..Default::default()
            })
        );
        for bad in [
            r#"{"type":"block"}"#,
            r#"{"type":"block","seat":1,"line":3}"#,
            r#"{"type":"report","reason":"x"}"#,
            r#"{"type":"report","seat":1}"#,
            r#"{"type":"report","seat":1,"player_id":"7c01d9e4aa","reason":"x"}"#,
            r#"{"type":"report","seat":-1,"reason":"x"}"#,
            r#"{"type":"report","seat":null,"line":3,"reason":"x"}"#,
            r#"{"type":"block","player_id":null,"seat":3}"#,
        ] {
            assert!(parse_client_frame(bad).is_err(), "{bad}");
        }
        assert!(parse_client_frame(r#"{"type":"unblock"}"#).is_err());
        for bad in [
            r#"{"type":"decline","invitation":"9b1f","reason":"boring"}"#,
            r#"{"type":"decline","invitation":"9b1f","why":"later"}"#,
            r#"{"type":"decline"}"#,
        ] {
            assert!(parse_client_frame(bad).is_err(), "{bad}");
        }
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
        assert_eq!(
            ok(r#"{"type":"leave"}"#).message,
            ClientMessage::Leave(Leave::default())
        );
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
        assert_eq!(ok(r#"{"type":"resign"}"#).message, ClientMessage::Resign);
        assert_eq!(ok(r#"{"type":"hint"}"#).message, ClientMessage::Hint);
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
            ClientFrame::new(ClientMessage::Leave(Leave::default())),
            ClientFrame::new(ClientMessage::Hello(Hello {
                name: None,
                token: Some("t".into()),
                verbose: false,
                lang: None,
                bot: false,
                liveness_s: None,
                challenges: false,
                owner: None,
            })),
            ClientFrame::new(ClientMessage::Hello(Hello {
                name: Some("ann".into()),
                token: None,
                verbose: true,
                lang: Some("nl".into()),
                bot: true,
                liveness_s: Some(5),
                challenges: true,
                owner: Some("0123456789".into()),
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

    /// docs/PROTOCOL.md's `unknown_type` example lists today's types.
    #[test]
    fn the_documented_unknown_type_example_lists_every_type() {
        let doc = include_str!("../../../../docs/PROTOCOL.md");
        let listed = format!("known types: {}\"", MESSAGE_TYPES.join(", "));
        assert!(
            doc.contains(&listed),
            "docs/PROTOCOL.md's unknown_type example should end with {listed}"
        );
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
