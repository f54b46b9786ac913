//! The catalogues agree with the English list, and the English list covers
//! the messages the server really produces.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use splendor_lobby::{LobbyError, RoomCode, TurnClock};
use splendor_protocol::parse_client_frame;
use splendor_rules::{
    Action, CardId, Color, ColorSet, Game, Gems, Level, NobleId, Options, Phase, ReservedCard,
    Snapshot, Tokens,
};

use super::*;
use crate::limits::{NameChars, NamePolicy};

const LANGS: [&Catalogue; 3] = [&nl::CATALOGUE, &fr::CATALOGUE, &de::CATALOGUE];

fn slot_names(template: &str) -> BTreeSet<String> {
    pieces(template)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .filter_map(|p| match p {
            Piece::Slot(name, _) => Some(name),
            Piece::Literal(_) => None,
        })
        .collect()
}

// ---- the catalogues ------------------------------------------------------

#[test]
fn every_english_template_is_unique_and_compiles() {
    let mut seen = BTreeSet::new();
    for template in en::TEMPLATES {
        assert!(
            seen.insert(*template),
            "twice in the English list: {template:?}"
        );
        Template::compile(template).unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(TEMPLATES.len(), en::TEMPLATES.len());
}

#[test]
fn every_language_has_exactly_the_english_templates_in_their_order() {
    for catalogue in LANGS {
        let keys: Vec<&str> = catalogue.entries.iter().map(|(e, _)| *e).collect();
        for (i, (english, key)) in en::TEMPLATES.iter().zip(&keys).enumerate() {
            assert_eq!(english, key, "{}: entry {i}", catalogue.lang);
        }
        assert_eq!(
            keys.len(),
            en::TEMPLATES.len(),
            "{}: a template too many or missing",
            catalogue.lang
        );
        assert!(
            TRANSLATIONS.of(catalogue.lang).iter().all(Option::is_some),
            "{}",
            catalogue.lang
        );
    }
}

#[test]
fn each_translation_has_the_placeholders_of_its_template() {
    for catalogue in LANGS {
        for (english, translation) in catalogue.entries {
            assert_eq!(
                slot_names(english),
                slot_names(translation),
                "{}: {english:?} -> {translation:?}",
                catalogue.lang
            );
            // Only a frame of placeholders may read the same.
            if *english != "{type}: {detail}" {
                assert_ne!(english, translation, "{}: not translated", catalogue.lang);
            }
        }
    }
}

#[test]
fn each_language_names_six_colours_and_its_list_words() {
    for catalogue in LANGS {
        let distinct: BTreeSet<&str> = catalogue.colors.iter().copied().collect();
        assert_eq!(distinct.len(), 6, "{}", catalogue.lang);
        assert!(!catalogue.and.is_empty() && !catalogue.nothing.is_empty());
    }
}

/// A message a template describes, with made-up values.
fn example(template: &str) -> String {
    pieces(template)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .map(|p| match p {
            Piece::Literal(text) => text,
            Piece::Slot(name, kind) => match kind {
                Kind::Number => "7".into(),
                Kind::Color => "blue".into(),
                Kind::Tokens => "2 red and 1 gold".into(),
                Kind::Type => "join".into(),
                Kind::Text => format!("<{name}>"),
                Kind::Detail => "something unforeseen".into(),
            },
        })
        .collect()
}

#[test]
fn no_template_is_hidden_behind_an_earlier_one() {
    for (i, template) in en::TEMPLATES.iter().enumerate() {
        let message = example(template);
        let (found, _) = find_template(&message).expect("its own template matches");
        assert_eq!(
            found,
            i,
            "{message:?} is taken by the earlier {:?}",
            en::TEMPLATES[found]
        );
    }
}

// ---- languages and translation -------------------------------------------

#[test]
fn languages_are_named_by_their_code_in_any_case_with_or_without_a_region() {
    for (text, lang) in [
        ("en", Lang::En),
        ("NL", Lang::Nl),
        ("nl-BE", Lang::Nl),
        ("fr_CA", Lang::Fr),
        ("de-de", Lang::De),
        ("De", Lang::De),
    ] {
        assert_eq!(Lang::parse(text), Ok(lang), "{text}");
    }
    for bad in ["", "es", "dutch", "-nl", "nld"] {
        let why = Lang::parse(bad).expect_err(bad);
        assert!(why.contains("en, nl, fr, de"), "{why}");
    }
    assert_eq!(Lang::default(), Lang::En);
    assert_eq!(Lang::Fr.to_string(), "fr");
}

#[test]
fn english_stays_as_it_is_and_unknown_messages_stay_english() {
    let message = "take two: only 3 blue tokens left, 4 needed";
    assert!(matches!(localize(message, Lang::En), Cow::Borrowed(m) if m == message));
    for lang in [Lang::Nl, Lang::Fr, Lang::De] {
        let odd = "a message nobody wrote a template for";
        assert!(matches!(localize(odd, lang), Cow::Borrowed(m) if m == odd));
    }
}

#[test]
fn values_are_kept_and_colours_and_token_lists_are_said_in_the_language() {
    let check = |message: &str, lang: Lang, expected: &str| {
        assert_eq!(localize(message, lang), expected, "{message} ({lang})");
    };
    let take_two = "take two: only 3 blue tokens left, 4 needed";
    check(
        take_two,
        Lang::Nl,
        "twee nemen: nog maar 3 fiches van kleur blauw over, er zijn er 4 nodig",
    );
    check(
        take_two,
        Lang::Fr,
        "prendre 2 jetons de la même couleur : il ne reste que 3 jetons bleu, il en faut au moins 4",
    );
    check(
        take_two,
        Lang::De,
        "zwei nehmen: nur noch 3 Chips der Farbe Blau vorhanden, mindestens 4 sind nötig",
    );
    check(
        "take two: only 1 gold token left, 4 needed",
        Lang::Nl,
        "twee nemen: nog maar 1 fiche van kleur goud over, er zijn er 4 nodig",
    );
    let afford = "buy card 17: it costs 3 red and 2 black after your bonuses; \
                  you hold 1 red, 0 black and 1 gold: 3 tokens short";
    check(
        afford,
        Lang::De,
        "Karte 17 kaufen: nach deinen Boni kostet sie 3 Rot und 2 Schwarz; \
         du hast 1 Rot, 0 Schwarz und 1 Gold: es fehlen 3 Chips",
    );
    check(
        afford,
        Lang::Fr,
        "acheter la carte 17 : après vos bonus, elle coûte 3 rouge et 2 noir ; \
         vous avez 1 rouge, 0 noir et 1 or : il vous manque 3 jetons",
    );
    check(
        "it is seat 1's turn, not seat 0's",
        Lang::Nl,
        "plaats 1 is aan de beurt, niet plaats 0",
    );
    // Names and quoted input are kept as sent.
    check(
        "this connection is already \"Ann {n}\"",
        Lang::Fr,
        "cette connexion est déjà \"Ann {n}\"",
    );
    // serde's explanations are translated piece by piece; what no template
    // knows (`u8`) stays.
    check(
        "create: invalid type: string \"four\", expected u8",
        Lang::Nl,
        "create: ongeldig type: tekst \"four\", verwacht: u8",
    );
    check(
        "join: unknown field `cod`, expected `code` or `as`",
        Lang::De,
        "join: unbekanntes Feld `cod`, erwartet: `code` oder `as`",
    );
    check(
        "the frame is not valid JSON: EOF while parsing an object at line 1 column 1",
        Lang::Fr,
        "la trame n'est pas du JSON valide : fin du texte en lisant un objet à la ligne 1, colonne 1",
    );
    // A detail nobody foresaw stays English inside the translated frame.
    check(
        "the frame is not valid JSON: something new at line 1 column 2",
        Lang::Nl,
        "het frame is geen geldige JSON: something new op regel 1, kolom 2",
    );
}

// ---- coverage: the real messages -----------------------------------------

/// The real English messages, each with where it came from.
#[derive(Default)]
struct Corpus {
    messages: BTreeMap<String, String>,
}

impl Corpus {
    fn add(&mut self, source: &str, message: impl Into<String>) {
        self.messages
            .entry(message.into())
            .or_insert_with(|| source.to_owned());
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
                corpus.add(&format!("rules: {}", e.code), e.message);
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

fn rule_messages(corpus: &mut Corpus) {
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
}

fn lobby_messages(corpus: &mut Corpus) {
    let errors = [
        LobbyError::RoomNotFound("KHPQZ".into()),
        LobbyError::MalformedCode(RoomCode::why_not("AB")),
        LobbyError::MalformedCode(RoomCode::why_not("ABCDO")),
        LobbyError::MalformedCode(RoomCode::why_not("ab1l!")),
        LobbyError::MalformedCode(RoomCode::why_not("  ")),
        LobbyError::RoomFull,
        LobbyError::TooManySpectators,
        LobbyError::AlreadyInRoom("KHPQZ".into()),
        LobbyError::NotInRoom,
        LobbyError::RoomClosed,
        LobbyError::NotHost,
        LobbyError::UnknownBotLevel(
            "clever"
                .parse::<splendor_ai::Level>()
                .expect_err("no such level")
                .to_string(),
        ),
        LobbyError::StandInTurn,
        LobbyError::InvalidClock(
            TurnClock::new(Duration::ZERO, Duration::ZERO)
                .expect_err("no bank")
                .to_string(),
        ),
        LobbyError::InvalidClock(
            TurnClock::new(Duration::from_secs(8 * 86_400), Duration::ZERO)
                .expect_err("too long a bank")
                .to_string(),
        ),
        LobbyError::InvalidClock(
            TurnClock::new(Duration::from_secs(60), Duration::from_secs(86_401))
                .expect_err("too long an increment")
                .to_string(),
        ),
        LobbyError::NotABot(2),
        LobbyError::NotEnoughPlayers,
        LobbyError::GameAlreadyStarted,
        LobbyError::GameNotStarted,
        LobbyError::GameOver,
        LobbyError::SpectatorCannotAct,
        LobbyError::StaleVersion {
            current: 12,
            expected: 11,
        },
        LobbyError::InvalidSeats(5),
        LobbyError::TooManyRooms,
        LobbyError::TooManyRoomsForSession(3),
        LobbyError::TooManyWaitingRoomsFromOrigin(8),
        LobbyError::Persistence,
        LobbyError::StorageUnavailable,
        LobbyError::internal("a cause that is never shown"),
        LobbyError::ChatMuted,
        LobbyError::ChatTooFast,
        LobbyError::NoPersonInSeat(1),
        LobbyError::RatedRoom,
        LobbyError::SeatHeld("KHPQZ".into()),
    ];
    for error in errors {
        corpus.add(&format!("lobby: {}", error.code()), error.to_string());
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
    ];
    for frame in frames {
        match parse_client_frame(frame) {
            Ok(parsed) => panic!("{frame} parsed: {parsed:?}"),
            Err(e) => corpus.add(&format!("protocol: {frame}"), e.message),
        }
    }
    let twice = splendor_protocol::WireAction::Take(vec![Color::Red, Color::Red]);
    let e = Action::try_from(&twice).expect_err("a colour twice");
    corpus.add("protocol: take twice", e.to_string());
}

fn name_messages(corpus: &mut Corpus) {
    let policies = [
        NamePolicy::default(),
        NamePolicy {
            max_chars: 24,
            chars: NameChars::Words,
        },
        NamePolicy {
            max_chars: 24,
            chars: NameChars::Ascii,
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
        ] {
            if let Err(why) = policy.check(name) {
                corpus.add("gateway: name", why);
            }
        }
    }
}

/// Templates whose messages are made where this test cannot call them (a
/// private function of the lobby's rooms or of the gateway):
/// tests/error_languages.rs gets them from a real server instead, or they
/// need a failure (a full server, a database away) no test here makes.
const MADE_ELSEWHERE: &[&str] = &[
    // room/play.rs: not_your_turn with the name of the player to act
    // (tests/error_languages.rs).
    "it is {text}'s turn, not yours",
    // room/social.rs: chat and rematch (tests/error_languages.rs, but for
    // "being made", the moment between the last acceptance and the new
    // room, and "agreed", which a player meets only by offering again
    // before the server has moved it: no test catches those moments).
    "a chat message needs some text",
    "a chat message has at most {n} characters, this one has {n2}",
    "chat is plain text on one line: no line breaks or other control characters",
    "a rematch can be offered once the game is over",
    "only the players can offer a rematch; spectators can follow it",
    "the rematch is agreed: join room {text}",
    "the rematch room is being made",
    // ws/client.rs: the gateway's own messages (tests/error_languages.rs,
    // but for the database being away and an internal error).
    "a clock's {text} is a whole number of seconds, not {text2} (R12.1)",
    r#"stand_in_when_away needs a clock (R12.3): give one, like "clock":{"initial_s":300,"increment_s":10}"#,
    "binary frames are not supported; send JSON text frames",
    "too many messages: at most {n} per second (bursts of {n2}); this one was not handled, and sending on before slowing down closes the connection",
    "frames are limited to {n} bytes, this one has {n2}",
    "this connection is already {text}",
    r#"unknown session token; send {"type":"hello","name":...} for a new session"#,
    r#"hello: needs a "name" (new session) or a "token" (resume)"#,
    "the server cannot reach its database right now; try again shortly",
    "internal error",
    r#"send {"type":"hello","name":...} first"#,
    // ws/queue.rs: quick play (tests/quick_play.rs; but for a server
    // without a database).
    "quick play has games of 2, 3 or 4 players, not {n}",
    "queue: bot_after_s is 1 to {n} seconds, not {n2}",
    // ws/client.rs: hello's liveness_s (tests/table_clocks.rs).
    "hello: liveness_s is 1 to {n} seconds, not {n2}",
    r#"you are already queued for {n}-player games; send {"type":"unqueue"} first"#,
    r#"you are not in a quick-play queue; send {"type":"queue","players":2} to join one"#,
    "quick play and ratings need the server's database, and this server runs without one",
];

/// Parts of messages: matched inside others, never alone.
fn is_detail(index: usize) -> bool {
    let first_detail = en::TEMPLATES
        .iter()
        .position(|t| *t == "visible characters")
        .expect("the details start");
    index >= first_detail
}

#[test]
fn every_message_the_server_makes_matches_a_template() {
    let mut corpus = Corpus::default();
    rule_messages(&mut corpus);
    lobby_messages(&mut corpus);
    protocol_messages(&mut corpus);
    name_messages(&mut corpus);

    let mut unmatched = Vec::new();
    let mut used = BTreeSet::new();
    for (message, source) in &corpus.messages {
        match find_template(message) {
            Some((index, _)) => {
                used.insert(index);
                // Details inside: mark the templates they use as used too.
                mark_details(message, &mut used, 0);
            }
            None => unmatched.push(format!("{source}: {message:?}")),
        }
    }
    assert!(
        unmatched.is_empty(),
        "messages without a template:\n{}",
        unmatched.join("\n")
    );
    // Each template of a whole message is met, or is made elsewhere.
    let missing: Vec<&str> = en::TEMPLATES
        .iter()
        .enumerate()
        .filter(|(i, t)| !used.contains(i) && !is_detail(*i) && !MADE_ELSEWHERE.contains(t))
        .map(|(_, t)| *t)
        .collect();
    assert!(
        missing.is_empty(),
        "templates no real message matched (a wording changed, or the corpus misses it):\n{}",
        missing.join("\n")
    );
    // I18N_DUMP=1 (with --nocapture) shows every message in every language,
    // to read the translations in context.
    if std::env::var_os("I18N_DUMP").is_some() {
        for message in corpus.messages.keys() {
            eprintln!("EN {message}");
            for catalogue in LANGS {
                eprintln!("{} {}", catalogue.lang, localize(message, catalogue.lang));
            }
        }
    }
    // And every message translates in every language.
    for catalogue in LANGS {
        for message in corpus.messages.keys() {
            assert!(
                matches!(localize(message, catalogue.lang), Cow::Owned(_)),
                "{}: {message}",
                catalogue.lang
            );
        }
    }
}

fn mark_details(message: &str, used: &mut BTreeSet<usize>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    if let Some((index, captures)) = find_template(message) {
        used.insert(index);
        for (group, (_, kind)) in TEMPLATES[index].slots.iter().enumerate() {
            if *kind == Kind::Detail
                && let Some(value) = captures.get(group + 1)
            {
                mark_details(value.as_str(), used, depth + 1);
            }
        }
    }
}

#[test]
fn the_rules_corpus_meets_every_rule_error() {
    let mut corpus = Corpus::default();
    rule_messages(&mut corpus);
    let codes: BTreeSet<&str> = corpus
        .messages
        .values()
        .filter_map(|s| s.strip_prefix("rules: "))
        .collect();
    for code in [
        "unknown_seat",
        "game_over",
        "not_your_turn",
        "wrong_phase",
        "invalid_colors",
        "supply_empty",
        "take_three_required",
        "take_two_supply",
        "unknown_card",
        "unknown_level",
        "card_not_available",
        "deck_empty",
        "reserve_limit",
        "cannot_afford",
        "gold_over_cost",
        "not_enough_gold",
        "wrong_return_count",
        "tokens_not_held",
        "unknown_noble",
        "noble_not_available",
        "pass_not_allowed",
    ] {
        assert!(codes.contains(code), "no {code} in {codes:?}");
    }
}
