//! Real words the server makes (the rules' refusals in many positions,
//! every lobby error, the protocol parser's answers to bad frames, names),
//! for the tests to word in every language.

use std::collections::BTreeMap;
use std::time::Duration;

use splendor_lobby::{RoomCode, RoomError, TurnClock};
use splendor_protocol::{Words, parse_client_frame};
use splendor_rules::{
    Action, CardId, Color, ColorSet, Game, Gems, Level, NobleId, Options, Phase, ReservedCard,
    Snapshot, Tokens,
};

use crate::limits::{NameChars, NamePolicy};

/// The real words, each with where it came from (the first source), by
/// their id and arguments.
#[derive(Default)]
pub(super) struct Corpus {
    pub(super) words: BTreeMap<String, (Words, String)>,
}

impl Corpus {
    fn add(&mut self, source: &str, words: Words) {
        self.words
            .entry(words.to_string())
            .or_insert_with(|| (words, source.to_owned()));
    }

    /// Everything this file knows how to make.
    pub(super) fn everything() -> Corpus {
        let mut corpus = Corpus::default();
        rule_messages(&mut corpus);
        lobby_messages(&mut corpus);
        protocol_messages(&mut corpus);
        name_messages(&mut corpus);
        push_messages(&mut corpus);
        invite_messages(&mut corpus);
        corpus
    }
}

/// A small deterministic generator (xorshift), for the random games.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Every action worth trying in a position: all shapes, legal or not.
fn all_actions() -> Vec<Action> {
    let mut actions = Vec::new();
    for mask in (0..64u8).chain([0x80]) {
        actions.push(Action::TakeDifferent(ColorSet(mask)));
    }
    actions.extend(Color::ALL.map(Action::TakeTwo));
    for id in 0..95u8 {
        actions.push(Action::ReserveFaceUp(CardId(id)));
        actions.push(Action::Buy {
            card: CardId(id),
            gold: None,
        });
    }
    for id in 0..90u8 {
        for gold in [
            [1, 0, 0, 0, 0],
            [0, 0, 0, 3, 0],
            [0, 1, 1, 0, 0],
            [5, 5, 5, 5, 5],
        ] {
            actions.push(Action::Buy {
                card: CardId(id),
                gold: Some(gold),
            });
        }
    }
    actions.extend((0..5).map(|l| Action::ReserveFromDeck(Level(l))));
    for i in 0..5 {
        for n in [1, 3, 9] {
            let mut gems = [0; 5];
            gems[i] = n;
            actions.push(Action::ReturnTokens(Tokens { gems, gold: 0 }));
        }
    }
    for gold in [1, 4] {
        actions.push(Action::ReturnTokens(Tokens { gems: [0; 5], gold }));
    }
    actions.push(Action::ReturnTokens(Tokens {
        gems: [1, 1, 0, 0, 0],
        gold: 0,
    }));
    actions.extend((0..12).map(|n| Action::ChooseNoble(NobleId(n))));
    actions.push(Action::Pass);
    actions
}

/// Tries every action for every seat (and a seat that does not exist) in
/// `game`, keeping the refusals' messages.
fn try_everything(game: &Game, actions: &[Action], corpus: &mut Corpus) {
    for seat in 0..=game.players() {
        let seat = if seat == game.players() { 9 } else { seat };
        for action in actions {
            let mut copy = *game;
            if let Err(e) = copy.apply(seat, *action) {
                corpus.add(&format!("rules: {}", e.code), e.words);
            }
        }
    }
}

/// A layout with every deck in id order (as the rules tests build them).
fn ordered_snapshot(players: u8) -> Snapshot {
    let mut decks: [Vec<CardId>; 3] = Default::default();
    let mut face_up: [Vec<CardId>; 3] = Default::default();
    for level in 1..=3u8 {
        let ids: Vec<CardId> = splendor_rules::all_cards()
            .iter()
            .filter(|c| c.level.0 == level)
            .map(|c| c.id)
            .collect();
        face_up[level as usize - 1] = ids[..4].to_vec();
        decks[level as usize - 1] = ids[4..].to_vec();
    }
    let layout = splendor_rules::Layout {
        players,
        decks,
        face_up,
        nobles: (0..=players).map(NobleId).collect(),
        first_seat: 0,
    };
    Game::from_layout(&layout).expect("a layout").snapshot()
}

/// Takes `card` out of the decks (it is not face up in these positions).
fn take_out(snapshot: &mut Snapshot, card: u8) {
    for level in 0..3 {
        let drawn = snapshot.drawn[level] as usize;
        if let Some(pos) = snapshot.layout.decks[level][drawn..]
            .iter()
            .position(|&c| c == CardId(card))
        {
            snapshot.layout.decks[level].remove(drawn + pos);
        }
    }
}

/// Two nobles qualify at once (R9.3): nobles 0 and 8 after buying card 35,
/// as in the rules' own test of it.
fn choosing_a_noble() -> Game {
    let mut snapshot = ordered_snapshot(2);
    snapshot.layout.nobles = [0, 8, 3].map(NobleId).to_vec();
    snapshot.nobles = snapshot.layout.nobles.clone();
    for card in [24, 25, 26, 27, 32, 33, 34, 0, 1, 2, 3] {
        take_out(&mut snapshot, card);
        snapshot.seats[0].purchased.push(CardId(card));
    }
    // Cards 0..=3 were face up: the next ones of level 1 take their places.
    let level1: Vec<CardId> = snapshot.layout.decks[0].clone();
    snapshot.layout.face_up[0] = level1[..4].to_vec();
    snapshot.layout.decks[0] = level1[4..].to_vec();
    snapshot.face_up[0] = [0, 1, 2, 3].map(|i| Some(level1[i]));
    take_out(&mut snapshot, 35);
    snapshot.seats[0].reserved.push(ReservedCard {
        card: CardId(35),
        from_deck: false,
    });
    let gems: Gems = [1, 1, 1, 1, 0];
    for (i, n) in gems.iter().enumerate() {
        snapshot.supply.gems[i] -= n;
        snapshot.seats[0].tokens.gems[i] += n;
    }
    let mut game = Game::from_snapshot(&snapshot).expect("a valid position");
    game.apply(
        0,
        Action::Buy {
            card: CardId(35),
            gold: None,
        },
    )
    .expect("card 35 is affordable");
    assert_eq!(game.phase(), Phase::ChooseNoble { seat: 0 });
    game
}

/// Every deck empty, face-up cards left.
fn empty_decks() -> Game {
    let mut snapshot = ordered_snapshot(2);
    for level in 0..3 {
        let drawn = snapshot.drawn[level] as usize;
        snapshot.layout.decks[level].truncate(drawn);
    }
    Game::from_snapshot(&snapshot).expect("a valid position")
}

pub(super) fn rule_messages(corpus: &mut Corpus) {
    let actions = all_actions();
    let mut legal = Vec::new();
    for seed in 0..12u64 {
        let mut game = Game::new(2 + (seed % 3) as u8, Options::default(), seed).expect("a game");
        let mut dice = Dice(seed * 7919 + 1);
        let mut moves = 0;
        while let Some(seat) = game.to_act() {
            if moves % 3 == 0 {
                try_everything(&game, &actions, corpus);
            }
            game.legal_actions(&mut legal);
            // Buying when possible ends games sooner.
            let buys: Vec<Action> = legal
                .iter()
                .copied()
                .filter(|a| matches!(a, Action::Buy { .. }))
                .collect();
            let action = if !buys.is_empty() && dice.below(3) > 0 {
                buys[dice.below(buys.len())]
            } else {
                legal[dice.below(legal.len())]
            };
            game.apply(seat, action).expect("a legal action");
            moves += 1;
            if moves > 600 {
                break;
            }
        }
        try_everything(&game, &actions, corpus);
    }
    try_everything(&choosing_a_noble(), &actions, corpus);
    try_everything(&empty_decks(), &actions, corpus);
    // R13.1: a seat that resigned resigns again (three players: the game
    // goes on after one resignation).
    let mut game = Game::new(3, Options::default(), 5).expect("a game");
    game.apply(1, Action::Resign).expect("a resignation");
    try_everything(&game, &[Action::Resign], corpus);
}

fn lobby_messages(corpus: &mut Corpus) {
    let errors = [
        RoomError::RoomNotFound("KHPQZ".into()),
        RoomError::MalformedCode(RoomCode::why_not("AB")),
        RoomError::MalformedCode(RoomCode::why_not("ABCDO")),
        RoomError::MalformedCode(RoomCode::why_not("ab1l!")),
        RoomError::MalformedCode(RoomCode::why_not("  ")),
        RoomError::RoomFull,
        RoomError::TooManySpectators,
        RoomError::AlreadyInRoom("KHPQZ".into()),
        RoomError::NotInRoom,
        RoomError::RoomClosed,
        RoomError::RoomUnavailable,
        RoomError::NotHost,
        RoomError::UnknownBotLevel(
            "clever"
                .parse::<splendor_ai::Level>()
                .expect_err("no such level")
                .0,
        ),
        RoomError::StandInTurn,
        RoomError::Resigned,
        RoomError::HintNotAllowed(Words::new("room-hint-practice-only")),
        RoomError::HintNotAllowed(Words::new("room-hint-not-your-turn")),
        RoomError::Removed,
        RoomError::InvalidClock(
            TurnClock::new(Duration::ZERO, Duration::ZERO)
                .expect_err("no bank")
                .words(),
        ),
        RoomError::InvalidClock(
            TurnClock::new(Duration::from_secs(8 * 86_400), Duration::ZERO)
                .expect_err("too long a bank")
                .words(),
        ),
        RoomError::InvalidClock(
            TurnClock::new(Duration::from_secs(60), Duration::from_secs(86_401))
                .expect_err("too long an increment")
                .words(),
        ),
        RoomError::InvalidClock(
            TurnClock::per_move(Duration::from_secs(60), splendor_lobby::OnDeadline::StandIn)
                .expect_err("too short a time per move")
                .words(),
        ),
        RoomError::InvalidClock(Words::new("clock-and-turn-based")),
        RoomError::InvalidClock(Words::new("clock-turn-based-away")),
        RoomError::InvalidClock(Words::new("clock-turn-based-rated")),
        RoomError::NotABot(2),
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
        RoomError::internal("a cause that is never shown"),
        RoomError::ChatMuted { spectators: false },
        RoomError::ChatMuted { spectators: true },
        RoomError::ChatTooFast { spectators: false },
        RoomError::ChatTooFast { spectators: true },
        RoomError::NoPersonInSeat(1),
        RoomError::RatedRoom,
        RoomError::SeatHeld("KHPQZ".into()),
        RoomError::AlreadySeated,
        RoomError::NoSuchLine(12),
    ];
    for error in errors {
        corpus.add(&format!("lobby: {}", error.code()), error.words());
    }
}

fn protocol_messages(corpus: &mut Corpus) {
    let frames = [
        "{",
        "",
        "hello",
        "[1,2",
        r#"{"type" 1}"#,
        r#"{"type":"ping",}"#,
        "{1:2}",
        "{} x",
        r#"{"type":"ping""#,
        r#""abc"#,
        "-",
        "[1,2]",
        r#""pass""#,
        r#"{"type":5}"#,
        r#"{"type":"ping","id":[1]}"#,
        r#"{"name":"ann"}"#,
        r#"{"take":["white"]}"#,
        r#"{"type":"dance"}"#,
        r#"{"type":"join"}"#,
        r#"{"type":"join","code":5}"#,
        r#"{"type":"join","cod":"ABCDE"}"#,
        r#"{"type":"join","code":"ABCDE","as":"ghost"}"#,
        r#"{"type":"join","code":"ABCDE","as":3}"#,
        r#"{"type":"create","seats":"four"}"#,
        r#"{"type":"create","seats":300}"#,
        r#"{"type":"create","seats":2.5}"#,
        r#"{"type":"create","listed":"yes"}"#,
        r#"{"type":"create","clock":{"initial_s":300}}"#,
        r#"{"type":"create","clock":5}"#,
        r#"{"type":"hello","verbose":1}"#,
        r#"{"type":"hello","lang":5}"#,
        r#"{"type":"hello","nom":"ann"}"#,
        r#"{"type":"ping","x":1}"#,
        r#"{"type":"rematch","x":1}"#,
        r#"{"type":"chat"}"#,
        r#"{"type":"chat","text":["hi"]}"#,
        r#"{"type":"mute","seat":1}"#,
        r#"{"type":"act"}"#,
        r#"{"type":"act","action":{"fly":1}}"#,
        r#"{"type":"act","action":"fold"}"#,
        r#"{"type":"act","action":{"take":["purple"]}}"#,
        r#"{"type":"act","action":{"take":"white"}}"#,
        r#"{"type":"act","action":{"buy":-1}}"#,
        r#"{"type":"act","action":{"buy":"x"}}"#,
        r#"{"type":"act","action":{"buy":{"card":1}}}"#,
        r#"{"type":"act","action":{"buy":{"card":1,"gold":{"gold":1}}}}"#,
        r#"{"type":"act","action":"pass","expect_version":-1}"#,
        r#"{"type":"act","action":"pass","extra":1}"#,
        r#"{"type":"start","seat_order":"alphabetical"}"#,
        r#"{"type":"add_bot"}"#,
        r#"{"type":"remove_bot","seat":true}"#,
        r#"{"type":"block"}"#,
        r#"{"type":"report","seat":1,"line":2,"reason":"x"}"#,
    ];
    for frame in frames {
        match parse_client_frame(frame) {
            Ok(parsed) => panic!("{frame} parsed: {parsed:?}"),
            Err(e) => corpus.add(&format!("protocol: {frame}"), e.words),
        }
    }
    let twice = splendor_protocol::WireAction::Take(vec![Color::Red, Color::Red]);
    let e = Action::try_from(&twice).expect_err("a colour twice");
    corpus.add("protocol: take twice", e.0);
    for (what, wire) in [
        (
            "take four",
            splendor_protocol::WireAction::Take(vec![
                Color::Red,
                Color::White,
                Color::Blue,
                Color::Green,
            ]),
        ),
        (
            "card 200",
            splendor_protocol::WireAction::Reserve(splendor_rules::CardId(200)),
        ),
        (
            "noble 12",
            splendor_protocol::WireAction::Noble(splendor_rules::NobleId(12)),
        ),
        (
            "level 7",
            splendor_protocol::WireAction::ReserveDeck(splendor_rules::Level(7)),
        ),
    ] {
        let e = Action::try_from(&wire).expect_err(what);
        corpus.add(&format!("protocol: {what}"), e.0);
    }
}

fn name_messages(corpus: &mut Corpus) {
    let policies = [
        NamePolicy::default(),
        NamePolicy {
            max_chars: 24,
            chars: NameChars::Words,
            max_width: 20,
        },
        NamePolicy {
            max_chars: 24,
            chars: NameChars::Ascii,
            max_width: 20,
        },
    ];
    for policy in policies {
        for name in [
            "",
            "   ",
            &"x".repeat(30),
            "ann\u{200B}bob",
            "ann*",
            "anné",
            "a  b",
            "Z\u{0335}\u{0321}\u{0322}\u{0327}\u{0328}oe",
            "\u{202E}ann",
            "\u{FDFD}",
            "李李李李李李李李李李李",
        ] {
            if let Err(why) = policy.check(name) {
                corpus.add("gateway: name", why);
            }
        }
    }
}

/// What a Web Push notification says (issue 25).
fn push_messages(corpus: &mut Corpus) {
    use splendor_lobby::room::effect::NoticeEvent;
    for event in [
        NoticeEvent::YourTurn {
            left: Duration::from_secs(86_400),
        },
        NoticeEvent::GameOver,
        NoticeEvent::Chat { from: "ann".into() },
        NoticeEvent::Invitation { from: "ann".into() },
    ] {
        corpus.add("push", crate::notify::push::words(&event, "KXQZ"));
    }
}

/// What `invite` answers (issue 25), as `ws::invite` words it.
fn invite_messages(corpus: &mut Corpus) {
    // And `create` with `tutorial` and other options (issue 50).
    corpus.add("create", Words::new("create-tutorial-alone"));
    corpus.add(
        "invite",
        Words::new("invite-bad-player-id").text("id", "\"bob\""),
    );
    for id in ["invite-player-not-found", "invite-player-ambiguous"] {
        corpus.add("invite", Words::new(id).text("id", "0123456789"));
    }
    corpus.add("invite", Words::new("invite-yourself"));
    corpus.add("block", Words::new("block-yourself"));
    corpus.add("block", Words::new("block-too-many").num("max", 500));
    // Issue 22: what `report` answers, as `ws::report` words it.
    for id in ["report-empty", "report-text", "report-yourself"] {
        corpus.add("report", Words::new(id));
    }
    corpus.add(
        "report",
        Words::new("report-too-long")
            .count("max", 500)
            .count("count", 612),
    );
    for hours in [1, 23] {
        corpus.add(
            "report",
            Words::new("report-too-many")
                .count("max", 10)
                .count("hours", hours),
        );
    }
    corpus.add(
        "decline",
        Words::new("invite-not-found").text("id", "\"0f3c\""),
    );
    corpus.add(
        "hello",
        Words::new("conn-bot-name-taken").text("name", "\"gem-bot\""),
    );
    corpus.add("hello", Words::new("conn-hello-challenges-needs-bot"));
    corpus.add(
        "hello",
        Words::new("conn-hello-owner")
            .count("min", 8)
            .count("max", 128),
    );
    for id in ["queue-too-many-games-owner", "queue-too-many-games-address"] {
        corpus.add("queue", Words::new(id).num("max", 2));
    }
    corpus.add("queue", Words::new("queue-programs-among-people"));
    for minutes in [1u64, 42] {
        corpus.add(
            "invite",
            Words::new("invite-too-many")
                .count("max", 20u64)
                .count("minutes", minutes),
        );
        // Issue 45: an address's new sessions (ws/client.rs).
        corpus.add(
            "hello",
            Words::new("conn-too-many-sessions")
                .count("max", 100u64)
                .count("minutes", minutes),
        );
    }
}
