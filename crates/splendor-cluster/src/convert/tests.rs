//! Every request and every refusal crosses nodes and comes back the same.

use crate::node::{CallAnswer, Envelope, ToOwner, decode};
use splendor_lobby::{Answer, Caller, Joined, Request, RoomCode, RoomError};
use splendor_protocol::{Role, SeatOrder, Words};
use splendor_rules::{Action, Color, ColorSet, Game, Options};

use super::*;

fn through_the_wire<T: serde::Serialize + for<'de> serde::Deserialize<'de>>(value: T) -> T {
    let bytes = serde_json::to_vec(&value).unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

#[test]
fn every_request_round_trips() {
    let requests = [
        Request::Join {
            name: "Zoë".into(),
            program: false,
            role: Role::Spectator,
            verbose: true,
            claim: None,
        },
        Request::Join {
            name: "bot1".into(),
            program: true,
            role: Role::Player,
            verbose: false,
            claim: Some(7),
        },
        Request::Blocks {
            blocked: vec![SessionId(uuid::Uuid::from_u128(7))],
        },
        Request::Leave,
        Request::GiveUp,
        Request::Detach,
        Request::Start {
            order: SeatOrder::Joined,
        },
        Request::Act {
            action: Action::TakeDifferent(ColorSet::from_iter([Color::Red, Color::Blue])),
            expect_version: Some(7),
        },
        Request::Act {
            action: Action::Pass,
            expect_version: None,
        },
        Request::Sync,
        Request::AddBot {
            level: "greedy".into(),
        },
        Request::RemoveBot { seat: 2 },
        Request::LeaveFinished,
        Request::Chat {
            text: "gg \u{202e}".into(),
        },
        Request::Mute {
            seat: 1,
            muted: true,
        },
        Request::Rematch,
        Request::RematchReady {
            room: RoomCode::parse("KHPQZ"),
        },
        Request::RematchReady { room: None },
        Request::StartMatch,
        Request::Invite {
            to: splendor_lobby::SessionId(uuid::Uuid::from_u128(7)),
        },
        Request::Whois {
            whom: splendor_room::whois::Whom::Seat(2),
        },
        Request::Close {
            reason: "abuse".into(),
        },
        Request::Whois {
            whom: splendor_room::whois::Whom::Line(41),
        },
    ];
    for request in requests {
        let wire = through_the_wire(request_to_wire(&request));
        assert_eq!(request_from_wire(wire).unwrap(), request);
    }
}

#[test]
fn a_caller_round_trips_in_an_envelope() {
    let caller = Caller {
        session: splendor_lobby::SessionId(uuid::Uuid::from_u128(0xabc)),
        conn: splendor_room::conn::ConnId::new(splendor_room::conn::NodeId(3), 9),
        request: Some(splendor_protocol::RequestId::String("m1".into())),
    };
    let call = ToOwner::Call {
        room: "KHPQZ".into(),
        epoch: 2,
        caller: caller_to_wire(&caller),
        request: request_to_wire(&Request::Sync),
    };
    let back: ToOwner = decode(&Envelope::encode(call)).unwrap();
    let ToOwner::Call { caller: wire, .. } = back;
    assert_eq!(caller_from_wire(wire).unwrap(), caller);
}

/// A real refusal of the rules, with its words.
fn rule_error() -> splendor_rules::RuleError {
    let mut game = Game::new(2, Options::default(), 1).unwrap();
    let other = 1 - game.to_act().unwrap();
    game.apply(other, Action::Pass).unwrap_err()
}

#[test]
fn every_refusal_round_trips() {
    let errors = [
        RoomError::RoomNotFound("KHPQZ".into()),
        RoomError::MalformedCode(RoomCode::why_not("ab1")),
        RoomError::RoomFull,
        RoomError::TooManySpectators,
        RoomError::AlreadyInRoom("KHPQZ".into()),
        RoomError::NotInRoom,
        RoomError::RoomClosed,
        RoomError::RoomUnavailable,
        RoomError::NotHost,
        RoomError::UnknownBotLevel("wizard".into()),
        RoomError::StandInTurn,
        RoomError::Resigned,
        RoomError::Removed,
        RoomError::InvalidClock(Words::new("clock-bank").text("value", "0ns")),
        RoomError::NotABot(3),
        RoomError::NotEnoughPlayers,
        RoomError::GameAlreadyStarted,
        RoomError::GameNotStarted,
        RoomError::GameOver,
        RoomError::SpectatorCannotAct,
        RoomError::StaleVersion {
            current: 12,
            expected: 11,
        },
        RoomError::InvalidSeats(5),
        RoomError::TooManyRooms,
        RoomError::TooManyRoomsForSession(3),
        RoomError::TooManyWaitingRoomsFromOrigin(8),
        RoomError::TooManyRoomsFromAddress(60),
        RoomError::TooManyBotTables(4),
        RoomError::Persistence,
        RoomError::StorageUnavailable,
        RoomError::HintNotAllowed(splendor_protocol::Words::new("room-hint-practice-only")),
        RoomError::InvalidChat(
            Words::new("chat-too-long")
                .num("max", 200)
                .num("count", 201),
        ),
        RoomError::ChatMuted { spectators: false },
        RoomError::ChatMuted { spectators: true },
        RoomError::ChatTooFast { spectators: false },
        RoomError::ChatTooFast { spectators: true },
        RoomError::RematchUnavailable(Words::new("rematch-player-left").text("name", "bob")),
        RoomError::NoPersonInSeat(1),
        RoomError::RatedRoom,
        RoomError::AlreadySeated,
        RoomError::SeatHeld("KHPQZ".into()),
        RoomError::Rule(rule_error()),
        RoomError::Rule(splendor_rules::RuleError {
            words: Words::new("rule-cannot-afford")
                .num("card", 17)
                .tokens("cost", vec![(3, "red"), (2, "black")])
                .tokens("held", vec![(1, "gold")])
                .num("short", 4),
            ..rule_error()
        }),
    ];
    for error in errors {
        let answer = through_the_wire(answer_to_wire(Err(error.clone())));
        assert_eq!(answer_from_wire(answer).err(), Some(error));
    }
    // An internal error's cause stays on the room's node.
    let answer = answer_to_wire(Err(RoomError::internal("a secret cause")));
    assert!(!serde_json::to_string(&answer).unwrap().contains("secret"));
    assert!(matches!(
        answer_from_wire(answer),
        Err(RoomError::Internal(_))
    ));
}

#[test]
fn answers_round_trip_and_a_rematch_plan_says_it_cannot_cross() {
    let joined = Answer::Joined(Joined {
        role: Role::Player,
        seat: Some(1),
        claim: 3,
    });
    let back = answer_from_wire(through_the_wire(answer_to_wire(Ok(joined))));
    assert!(matches!(
        back,
        Ok(Answer::Joined(Joined {
            role: Role::Player,
            seat: Some(1),
            claim: 3
        }))
    ));
    assert!(matches!(
        answer_from_wire(answer_to_wire(Ok(Answer::Done))),
        Ok(Answer::Done)
    ));
    // Issue 24: what a room offers an invitee crosses whole.
    let terms = splendor_protocol::social::RoomTerms {
        seats: 3,
        players: 1,
        rated: true,
        clock: Some(splendor_protocol::RoomClock {
            initial_s: 300,
            increment_s: 10,
            stand_in_when_away: true,
        }),
        turn_based: None,
    };
    match answer_from_wire(through_the_wire(answer_to_wire(Ok(Answer::Invitable(
        terms.clone(),
    ))))) {
        Ok(Answer::Invitable(back)) => assert_eq!(back, terms),
        other => panic!("{other:?}"),
    }
    // Issue 22: whom a report names crosses nodes whole.
    let line = splendor_protocol::ChatInfo {
        id: None,
        room: "KHPQZ".into(),
        from: "eve".into(),
        seat: None,
        text: "hi".into(),
        line: 3,
    };
    let person = splendor_room::whois::Person {
        session: splendor_lobby::SessionId(uuid::Uuid::from_u128(0xe5e)),
        name: "eve".into(),
        program: true,
        seat: Some(1),
        line: Some(line.clone()),
        chat: vec![(
            splendor_lobby::SessionId(uuid::Uuid::from_u128(0xe5e)),
            line,
        )],
        game: Some(splendor_room::write::GameId(uuid::Uuid::from_u128(9))),
    };
    match answer_from_wire(through_the_wire(answer_to_wire(Ok(Answer::Person(
        Box::new(person.clone()),
    ))))) {
        Ok(Answer::Person(back)) => assert_eq!(*back, person),
        other => panic!("{other:?}"),
    }
    let back = answer_from_wire(through_the_wire(answer_to_wire(Err(
        RoomError::NoSuchLine(7),
    ))));
    assert!(matches!(back, Err(RoomError::NoSuchLine(7))), "{back:?}");
    let unknown = CallAnswer::Refused {
        error: crate::node::WireError {
            kind: "from_the_future".into(),
            text: None,
            numbers: vec![],
            words: None,
            rule: None,
        },
    };
    assert!(matches!(
        answer_from_wire(unknown),
        Err(RoomError::Internal(_))
    ));
}

#[test]
fn a_rematch_keeps_its_clock_across_nodes_fischer_or_turn_based() {
    use splendor_lobby::room::clock::ClockOptions;
    use splendor_lobby::{OnDeadline, TurnClock};
    use std::time::Duration;
    for clock in [
        ClockOptions {
            clock: "5m+10s".parse().unwrap(),
            stand_in_when_away: true,
        },
        // R12.5: a turn-based room's rematch is turn-based too.
        ClockOptions {
            clock: TurnClock::per_move(Duration::from_secs(86_400), OnDeadline::Resign).unwrap(),
            stand_in_when_away: false,
        },
    ] {
        let plan = splendor_lobby::room::RematchPlan {
            others: Vec::new(),
            clock: Some(clock),
            listed: true,
            rated: false,
        };
        let back = answer_from_wire(through_the_wire(answer_to_wire(Ok(Answer::Rematch(plan)))));
        match back {
            Ok(Answer::Rematch(plan)) => assert_eq!(plan.clock, Some(clock)),
            other => panic!("{other:?}"),
        }
    }
}
