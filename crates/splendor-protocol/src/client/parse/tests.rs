//! Every mistake in a client's frame, and its code.

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
            level: LevelArg::Name("strong".into())
        })
    );
    // Issue 51: a level by its number, as a number or as text.
    for (frame, text) in [
        (r#"{"type":"add_bot","level":6}"#, "6"),
        (r#"{"type":"add_bot","level":"3"}"#, "3"),
        (r#"{"type":"add_bot","level":-1}"#, "-1"),
    ] {
        let ClientMessage::AddBot(add) = ok(frame).message else {
            panic!("{frame}: not add_bot");
        };
        assert_eq!(add.level.text(), text, "{frame}");
    }
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
    let doc = include_str!("../../../../../docs/PROTOCOL.md");
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
