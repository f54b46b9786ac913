//! The bot's protocol logic, message by message, without a server: what it
//! sends for each thing the server says, and that nothing the server says
//! makes it panic.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use splendor_bot::{Bot, BotError, Config, Outcome, Progress, RoomChoice};

/// A bot plus everything it reported.
struct Check {
    bot: Bot,
    progress: Arc<Mutex<Vec<Progress>>>,
}

fn check(config: Config) -> Check {
    let progress = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&progress);
    let config = Config {
        on_progress: Box::new(move |p| log.lock().unwrap().push(p.clone())),
        ..config
    };
    Check {
        bot: Bot::new(config),
        progress,
    }
}

impl Check {
    /// Feeds one server frame; returns the frames the bot sends in answer.
    fn feed(&mut self, frame: Value) -> Vec<Value> {
        let outcome = self.bot.handle_text(&frame.to_string());
        assert!(matches!(outcome, Ok(None)), "{frame}: {outcome:?}");
        self.sent()
    }

    fn feed_err(&mut self, frame: Value) -> BotError {
        match self.bot.handle_text(&frame.to_string()) {
            Err(e) => e,
            other => panic!("{frame}: expected an error, got {other:?}"),
        }
    }

    fn sent(&mut self) -> Vec<Value> {
        let frames = self.bot.take_outbox();
        frames
            .iter()
            .map(|f| serde_json::from_str(&f.to_json()).unwrap())
            .collect()
    }
}

fn welcome(resumed: bool) -> Value {
    json!({"type": "welcome", "id": "hello", "session": "s1", "token": "t1", "name": "ann", "resumed": resumed})
}

fn room(status: &str, seats: Value, you: u8) -> Value {
    json!({"type": "room", "code": "ABCDE", "listed": false, "status": status, "seats": seats,
           "spectators": [], "you": {"role": "player", "seat": you}})
}

fn seat(n: u8, host: bool) -> Value {
    json!({"seat": n, "name": format!("p{n}"), "connected": true, "host": host})
}

/// A state for seat 0 at `version`, with one legal action when `to_act` is 0.
fn state(version: u64, to_act: u8) -> Value {
    let player = |n: u8| {
        json!({"seat": n, "name": format!("p{n}"), "points": 0, "tokens": {},
        "bonuses": {}, "cards": [], "nobles": [], "reserved": []})
    };
    let mut s = json!({"type": "state", "room": "ABCDE", "game": "g1", "commitment": "c1",
        "version": version, "you": 0,
        "phase": "main", "to_act": to_act, "first_seat": 0, "turn": version,
        "supply": {"white": 4, "blue": 4, "green": 4, "red": 4, "black": 4, "gold": 5},
        "levels": [], "nobles": [], "players": [player(0), player(1)], "end_triggered": false});
    if to_act == 0 {
        s["legal_actions"] = json!([{"take": ["white", "blue", "green"]}]);
    }
    s
}

fn error(id: &str, code: &str) -> Value {
    json!({"type": "error", "id": id, "code": code, "message": "no"})
}

#[test]
fn a_new_bot_says_hello_then_creates_its_room_and_starts_when_full() {
    let mut c = check(Config::new("ws://x/ws", "ann"));
    assert_eq!(
        c.sent(),
        [json!({"type": "hello", "id": "hello", "name": "ann", "bot": true})]
    );
    assert_eq!(
        c.feed(welcome(false)),
        [json!({"type": "create", "id": "create", "seats": 2, "listed": false})]
    );
    // Alone in the room: no start yet.
    assert_eq!(
        c.feed(room("waiting", json!([seat(0, true), null]), 0)),
        Vec::<Value>::new()
    );
    let full = room("waiting", json!([seat(0, true), seat(1, false)]), 0);
    assert_eq!(
        c.feed(full.clone()),
        [json!({"type": "start", "id": "start", "seat_order": "random"})]
    );
    // Sent once, even if the room is shown again; retried after a refusal.
    assert_eq!(c.feed(full.clone()), Vec::<Value>::new());
    assert_eq!(
        c.feed(error("start", "not_enough_players")),
        Vec::<Value>::new()
    );
    assert_eq!(c.feed(full).len(), 1);
    let progress = c.progress.lock().unwrap();
    assert!(
        progress.contains(&Progress::InRoom("ABCDE".into())),
        "{progress:?}"
    );
}

#[test]
fn a_guest_joins_by_code_and_never_starts() {
    let mut config = Config::new("ws://x/ws", "bob");
    config.room = RoomChoice::Join {
        code: "abcde".into(),
    };
    config.start_when = Some(2);
    let mut c = check(config);
    c.sent();
    assert_eq!(
        c.feed(welcome(false)),
        [json!({"type": "join", "id": "join", "code": "abcde", "as": "player"})]
    );
    // Seated but not the host.
    assert_eq!(
        c.feed(room("waiting", json!([seat(0, true), seat(1, false)]), 1)),
        Vec::<Value>::new()
    );
}

#[test]
fn a_resumed_session_syncs_and_enters_only_when_in_no_room() {
    let mut config = Config::new("ws://x/ws", "ann");
    config.token = Some("t1".into());
    let mut c = check(config);
    assert_eq!(
        c.sent(),
        [json!({"type": "hello", "id": "hello", "token": "t1", "bot": true})]
    );
    assert_eq!(
        c.feed(welcome(true)),
        [json!({"type": "sync", "id": "resume"})]
    );
    assert_eq!(c.feed(error("resume", "not_in_room"))[0]["type"], "create");
}

#[test]
fn it_acts_once_per_version_with_expect_version_and_waits_after_stale_version() {
    let mut c = check(Config::new("ws://x/ws", "ann"));
    c.sent();
    assert_eq!(c.feed(state(3, 1)), Vec::<Value>::new(), "not our turn");
    let act = json!({"type": "act", "id": "act-4", "action": {"take": ["white", "blue", "green"]},
                     "expect_version": 4});
    assert_eq!(c.feed(state(4, 0)), [act]);
    assert_eq!(
        c.feed(state(4, 0)),
        Vec::<Value>::new(),
        "the same state again"
    );
    assert_eq!(c.feed(error("act-4", "stale_version")), Vec::<Value>::new());
    assert_eq!(c.feed(state(6, 0))[0]["expect_version"], 6);
}

#[test]
fn a_refused_action_is_retried_from_a_fresh_state_then_given_up() {
    let mut c = check(Config::new("ws://x/ws", "ann"));
    c.sent();
    for attempt in 1..5 {
        assert_eq!(c.feed(state(2, 0)).len(), 1, "attempt {attempt}");
        assert_eq!(
            c.feed(error("act-2", "persistence_failed")),
            [json!({"type": "sync", "id": "resync"})]
        );
    }
    c.feed(state(2, 0));
    assert!(
        matches!(c.feed_err(error("act-2", "persistence_failed")), BotError::Stuck(e) if e.code == "persistence_failed")
    );
}

#[test]
fn the_result_ends_the_game_with_the_counts_seen() {
    let mut c = check(Config::new("ws://x/ws", "ann"));
    c.sent();
    c.feed(welcome(false));
    c.feed(state(0, 0));
    c.feed(json!({"type": "events", "id": "act-0", "room": "ABCDE", "version": 1, "events": []}));
    c.feed(json!({"type": "events", "room": "ABCDE", "version": 2, "events": []}));
    c.feed(state(2, 1));
    let result = json!({"type": "result", "room": "ABCDE", "winners": [1], "deadlock": false,
        "game": "g1", "reveal": {"commitment": "c1", "seed": "00", "salt": "00"},
        "ranking": [{"seat": 1, "name": "p1", "points": 15, "cards": 9, "rank": 1},
                    {"seat": 0, "name": "p0", "points": 3, "cards": 4, "rank": 2}]});
    let outcome: Outcome = c
        .bot
        .handle_text(&result.to_string())
        .unwrap()
        .expect("done");
    assert_eq!(
        (outcome.seat, outcome.version, outcome.actions),
        (Some(0), 2, 1)
    );
    assert_eq!(
        (outcome.token.as_str(), outcome.result.winners.as_slice()),
        ("t1", &[1u8][..])
    );
}

#[test]
fn refusals_before_the_game_and_a_closed_room_stop_the_bot() {
    let mut c = check(Config::new("ws://x/ws", "ann"));
    assert!(
        matches!(c.feed_err(error("hello", "invalid_name")), BotError::Refused(e) if e.code == "invalid_name")
    );
    let mut c = check(Config::new("ws://x/ws", "ann"));
    assert!(matches!(
        c.feed_err(error("create", "too_many_rooms")),
        BotError::Refused(_)
    ));
    let closed = json!({"type": "room_closed", "room": "ABCDE", "reason": "idle"});
    assert!(matches!(c.feed_err(closed), BotError::RoomClosed(r) if r == "idle"));
    // A pass is always legal (R11.1), so an empty list is a server fault, not a hang.
    let mut empty = state(0, 0);
    empty["legal_actions"] = json!([]);
    assert!(matches!(c.feed_err(empty), BotError::Protocol(_)));
}

#[test]
fn nothing_the_server_sends_makes_it_panic() {
    let mut c = check(Config::new("ws://x/ws", "ann"));
    c.sent();
    let mut odd: Vec<String> = [
        "",
        "null",
        "[]",
        "{}",
        "{\"type\":\"dance\"}",
        "{\"type\":5}",
        "\u{0}",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // A state whose seat is not at the table, and a legal list naming cards nowhere.
    let mut s = state(1, 0);
    s["you"] = json!(200);
    s["legal_actions"] = json!([{"buy": 89}, {"reserve": 88}, {"return": {"gold": 3}}, "pass"]);
    odd.push(s.to_string());
    // Every prefix of a real state, and the state with each number made huge or negative.
    let text = state(2, 0).to_string();
    odd.extend(
        (0..text.len())
            .filter(|&i| text.is_char_boundary(i))
            .map(|i| text[..i].to_owned()),
    );
    odd.push(
        text.replace(":0", ":-1")
            .replace(":4", ":99999999999999999999"),
    );
    for frame in odd {
        // Errors are fine (an empty legal list is one); panics are not.
        let _ = c.bot.handle_text(&frame);
    }
    let ignored = c
        .progress
        .lock()
        .unwrap()
        .iter()
        .filter(|p| matches!(p, Progress::Ignored(_)))
        .count();
    assert!(
        ignored > 100,
        "unparsable frames are reported as ignored ({ignored})"
    );
}

#[test]
fn in_quick_play_it_queues_ignores_other_rooms_until_matched_then_plays() {
    let mut config = Config::new("ws://x/ws", "ann");
    config.room = RoomChoice::Queue { players: 2 };
    config.start_when = None;
    config.token = Some("t1".into());
    let mut c = check(config);
    c.sent();
    // Resumed: it queues at once (not a sync of the last game's room).
    assert_eq!(
        c.feed(welcome(true)),
        [json!({"type": "queue", "id": "queue", "players": 2})]
    );
    // The last game's room and result, which a resume sends: not ours.
    assert_eq!(
        c.feed(room("finished", json!([seat(0, false), seat(1, false)]), 0)),
        Vec::<Value>::new()
    );
    let old = json!({"type": "result", "room": "ABCDE", "game": "old", "ranking": [], "winners": [],
                     "deadlock": false, "seed": "1", "salt": "00", "commitment": "c"});
    assert_eq!(
        c.feed(old),
        Vec::<Value>::new(),
        "no outcome from an old game"
    );
    assert_eq!(
        c.feed(state(9, 0)),
        Vec::<Value>::new(),
        "no move in an old game"
    );
    // Queued from an earlier connection: it waits.
    assert_eq!(
        c.feed(error("queue", "already_queued")),
        Vec::<Value>::new()
    );
    c.feed(json!({"type": "matched", "room": "ABCDE", "players": 2}));
    assert_eq!(
        c.feed(room("playing", json!([seat(0, false), seat(1, true)]), 0)),
        Vec::<Value>::new()
    );
    assert_eq!(c.feed(state(0, 0))[0]["type"], "act");
    let progress = c.progress.lock().unwrap();
    assert!(
        progress.contains(&Progress::Matched("ABCDE".into())),
        "{progress:?}"
    );
}

#[test]
fn a_queued_bot_already_seated_in_its_game_syncs() {
    let mut config = Config::new("ws://x/ws", "ann");
    config.room = RoomChoice::Queue { players: 3 };
    let mut c = check(config);
    c.sent();
    c.feed(welcome(false));
    // Matched while its connection was down: the queue says so.
    assert_eq!(
        c.feed(error("queue", "already_in_room")),
        [json!({"type": "sync", "id": "resume"})]
    );
    assert_eq!(c.feed(state(2, 0))[0]["expect_version"], 2);
    // Any other refusal of the queue is the bot's end.
    let mut config = Config::new("ws://x/ws", "ann");
    config.room = RoomChoice::Queue { players: 2 };
    let mut c = check(config);
    c.sent();
    c.feed(welcome(false));
    assert!(matches!(
        c.feed_err(error("queue", "storage_unavailable")),
        BotError::Refused(_)
    ));
}

#[test]
fn the_command_line_chooses_quick_play_and_games_in_a_row() {
    use splendor_bot::cli::Args;
    let args = Args::parse_words(["--queue", "3", "--games", "5"]).unwrap();
    assert_eq!(args.games(), Some(5));
    assert_eq!(args.into_config().room, RoomChoice::Queue { players: 3 });
    let args = Args::parse_words(["--queue", "3", "--join", "ABCDE"]).unwrap();
    assert_eq!(
        args.into_config().room,
        RoomChoice::Join {
            code: "ABCDE".into()
        }
    );
    assert!(Args::parse_words(["--queue", "5"]).is_err());
    assert!(Args::parse_words(["--games", "0"]).is_err());
}

/// Issue 24: a move refused for the message rate is not the bot's fault.
/// The bot waits what the server says, then sends the same move again
/// while it still answers the latest state, else asks for the state again;
/// it never gives up over it, and never freezes.
#[test]
fn a_move_refused_for_the_rate_is_sent_again_after_the_wait() {
    let mut c = check(Config::new("ws://x/ws", "ann"));
    c.sent();
    let moves = c.feed(state(2, 0));
    assert_eq!(moves.len(), 1);
    for attempt in 1..10 {
        let limited = json!({"type": "error", "id": "act-2", "code": "rate_limited",
            "message": "too many messages", "retry_after_ms": 120});
        assert_eq!(c.feed(limited), moves, "attempt {attempt}: the same move");
        assert_eq!(
            c.bot.take_wait(),
            Some(std::time::Duration::from_millis(120))
        );
        assert_eq!(c.bot.take_wait(), None, "the wait is taken once");
    }
    // The game moved on meanwhile (another state): the state again instead.
    c.feed(state(3, 1));
    let limited = json!({"type": "error", "id": "act-2", "code": "rate_limited", "message": "no"});
    assert_eq!(c.feed(limited), [json!({"type": "sync", "id": "resync"})]);
    // Without retry_after_ms: a second.
    assert_eq!(c.bot.take_wait(), Some(std::time::Duration::from_secs(1)));
    // The sync refused too: waited and sent again.
    let limited = json!({"type": "error", "id": "resync", "code": "rate_limited",
        "message": "no", "retry_after_ms": 5});
    assert_eq!(c.feed(limited), [json!({"type": "sync", "id": "resync"})]);
    assert_eq!(c.bot.take_wait(), Some(std::time::Duration::from_millis(5)));
}

/// Issue 51: the example bot has the kits' owner, challenges and ladder.
/// Waiting for challenges: `hello` says so (with the owner), nothing is
/// created, the first challenge's room is joined, the host starts.
#[test]
fn a_bot_waiting_for_challenges_joins_the_first_one() {
    let mut c = check(Config {
        room: RoomChoice::Challenges,
        start_when: None,
        owner: Some("a secret of mine".into()),
        ..Config::new("ws://x/ws", "waiter")
    });
    assert_eq!(
        c.sent(),
        [
            json!({"type": "hello", "id": "hello", "name": "waiter", "bot": true,
                "challenges": true, "owner": "a secret of mine"})
        ]
    );
    assert!(
        c.feed(welcome(false)).is_empty(),
        "nothing to create or join"
    );
    let challenge = |room: &str| {
        json!({"type": "challenge", "invitation": "i1", "room": room,
               "from": {"name": "ann", "player_id": "3fa9c01d2e"},
               "terms": {"seats": 2, "players": 1, "rated": false}})
    };
    assert_eq!(
        c.feed(challenge("AXTWF")),
        [json!({"type": "join", "id": "join", "code": "AXTWF", "as": "player"})]
    );
    // A second challenge while joining the first waits.
    assert!(c.feed(challenge("QQQQQ")).is_empty());
    // A room that would not take it: the next challenge is played.
    assert!(c.feed(error("join", "room_full")).is_empty());
    assert_eq!(
        c.feed(challenge("BBBBB")),
        [json!({"type": "join", "id": "join", "code": "BBBBB", "as": "player"})]
    );
    assert!(
        c.feed(room("waiting", json!([seat(0, true), seat(1, false)]), 1))
            .is_empty(),
        "the challenger starts"
    );
    assert!(
        c.progress
            .lock()
            .unwrap()
            .iter()
            .any(|p| p.to_string() == "challenged by ann: joining room AXTWF")
    );
}

/// Issue 51: a bot that creates its room challenges the players it names;
/// a declined challenge ends it with who declined and why.
#[test]
fn a_bot_challenges_by_player_id_and_a_decline_ends_it() {
    let mut c = check(Config {
        invite: vec!["3fa9c01d2e".into()],
        ..Config::new("ws://x/ws", "ann")
    });
    c.sent();
    c.feed(welcome(false));
    assert_eq!(
        c.feed(room("waiting", json!([seat(0, true), null]), 0)),
        [json!({"type": "invite", "id": "invite", "player_id": "3fa9c01d2e"})]
    );
    // The next `room` (someone came, left) invites nobody again.
    assert!(
        c.feed(room("waiting", json!([seat(0, true), null]), 0))
            .is_empty()
    );
    let e = c.feed_err(
        json!({"type": "challenge_declined", "invitation": "i1", "room": "ABCDE",
        "by": {"name": "waiter", "player_id": "3fa9c01d2e"}, "reason": "too_fast"}),
    );
    assert_eq!(
        e.to_string(),
        "waiter (#3fa9c01d2e) declined the challenge: too_fast"
    );
}

/// Issue 51: on the ladder, the cap (`too_many_games`) is a wait, not an
/// end: the bot queues again after what the server says.
#[test]
fn a_ladder_bot_queues_again_after_the_caps_wait() {
    let mut c = check(Config {
        room: RoomChoice::Queue { players: 2 },
        start_when: None,
        ..Config::new("ws://x/ws", "climber")
    });
    c.sent();
    assert_eq!(
        c.feed(welcome(false)),
        [json!({"type": "queue", "id": "queue", "players": 2})]
    );
    let mut capped = error("queue", "too_many_games");
    capped["retry_after_ms"] = json!(4000);
    assert_eq!(
        c.feed(capped),
        [json!({"type": "queue", "id": "queue", "players": 2})]
    );
    assert_eq!(
        c.bot.take_wait(),
        Some(std::time::Duration::from_millis(4000))
    );
}

#[test]
fn the_command_line_has_the_ladder_challenges_and_the_owner() {
    use splendor_bot::cli::Args;
    let args = Args::parse_words(["--ladder", "2", "--owner", "a secret of mine"]).unwrap();
    assert_eq!(args.games(), None, "the ladder plays for ever");
    let config = args.into_config();
    assert_eq!(config.room, RoomChoice::Queue { players: 2 });
    assert_eq!(config.owner.as_deref(), Some("a secret of mine"));
    let args = Args::parse_words(["--ladder", "3", "--games", "4"]).unwrap();
    assert_eq!(args.games(), Some(4));
    assert!(Args::parse_words(["--ladder", "2", "--queue", "2"]).is_err());
    assert!(Args::parse_words(["--ladder", "5"]).is_err());
    let args = Args::parse_words(["--challenges"]).unwrap();
    assert_eq!(args.games(), Some(1));
    assert_eq!(args.into_config().room, RoomChoice::Challenges);
    let config = Args::parse_words(["--challenge", "3fa9c01d2e", "--challenge", "0123456789"])
        .unwrap()
        .into_config();
    assert_eq!(config.invite, ["3fa9c01d2e", "0123456789"]);
    assert!(matches!(config.room, RoomChoice::Create { .. }));
}
