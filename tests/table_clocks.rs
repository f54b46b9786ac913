//! Turn clocks and stand-ins (RULES.md R12) against the real server over
//! real sockets: a player who runs out of time is replaced by the stand-in
//! and takes the seat back; bad clocks get `invalid_clock`; the clocks
//! survive kill -9. The clock's own arithmetic is tested on the room core
//! with time passed in (`room/tests/clocks.rs`); here the bank is one
//! second, and the tests wait for messages, never for time.

use serde_json::{Value, json};
use splendor_e2e::{Dice, ServerProcess, TestClient, TestDatabase, TestServer, choose};
use splendor_protocol::StateInfo;
use splendor_server::Config;

/// The server binary (the root package's copy of `splendor-server`).
const SERVER: &str = env!("CARGO_BIN_EXE_splendor-server-e2e");

fn config() -> Config {
    Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        bot_delay_ms: 0,
        ..Config::default()
    }
}

/// Reads `client`'s states until one satisfies `pred`.
async fn state_where(
    client: &mut TestClient,
    mut pred: impl FnMut(&StateInfo) -> bool,
) -> StateInfo {
    loop {
        let state = client.state().await;
        if pred(&state) {
            return state;
        }
    }
}

/// Plays one legal action for `client` on `state`; returns the reply.
async fn act(client: &mut TestClient, state: &StateInfo, dice: &mut Dice) -> Value {
    let legal = state.legal_actions.clone().expect("legal actions");
    let action = choose(&legal, dice).clone();
    client
        .request(json!({"type": "act", "action": action, "expect_version": state.version}))
        .await
}

#[tokio::test]
async fn r12_2_a_player_out_of_time_is_replaced_by_the_stand_in_and_takes_the_seat_back() {
    let server = TestServer::start_with(config()).await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    let room = ann
        .request(json!({"type": "create", "seats": 2, "clock": {"initial_s": 1, "increment_s": 0}}))
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    ann.request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    let mut dice = Dice(12);

    // Every state shows both clocks; ann's runs.
    let state = ann.state().await;
    let clocks = state
        .clocks
        .clone()
        .expect("a room with a clock shows clocks");
    assert_eq!(clocks.len(), 2);
    assert!(clocks[0].running && !clocks[1].running, "{clocks:?}");
    assert!(clocks[0].remaining_ms <= 1000, "{clocks:?}");
    let reply = act(&mut ann, &state, &mut dice).await;
    assert_eq!(reply["type"], "events", "{reply}");

    // Bob does nothing: his second runs out, the stand-in plays his turn,
    // and his seat is shown as played by the stand-in.
    let after = state_where(&mut bob, |s| s.version == 2).await;
    let clocks = after.clocks.expect("clocks");
    assert!(clocks[1].stand_in, "bob's seat is marked: {clocks:?}");
    assert_eq!(clocks[1].remaining_ms, 0, "{clocks:?}");
    assert_eq!(after.to_act, Some(0));

    // Ann moves; at bob's turn he has the grace (10 s) and acts within it:
    // the seat is his again.
    let state = state_where(&mut ann, |s| s.version == 2).await;
    act(&mut ann, &state, &mut dice).await;
    let state = state_where(&mut bob, |s| s.version == 3).await;
    let clocks = state.clocks.clone().expect("clocks");
    assert!(clocks[1].running && clocks[1].stand_in, "{clocks:?}");
    let reply = act(&mut bob, &state, &mut dice).await;
    assert_eq!(reply["type"], "events", "{reply}");
    let state = state_where(&mut bob, |s| s.version == 4).await;
    let clocks = state.clocks.expect("clocks");
    assert!(!clocks[1].stand_in, "bob has his seat back: {clocks:?}");
    assert!(
        clocks[1].remaining_ms > 0,
        "what was left of the grace: {clocks:?}"
    );

    let stand_ins = server.metric("splendor_stand_in_actions_total").await;
    assert_eq!(stand_ins, 1.0);
    assert_eq!(server.metric("splendor_clock_timeouts_total").await, 1.0);
}

/// R12.3: a room that says so hands a disconnected player's turn to the
/// stand-in after the grace (here the increment, 10 s, would be the grace;
/// the bank is shorter, so the bank decides).
#[tokio::test]
async fn r12_3_a_disconnected_players_turn_is_played_when_the_room_says_so() {
    let server = TestServer::start_with(config()).await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    let room = ann
        .request(json!({
            "type": "create", "seats": 2,
            "clock": {"initial_s": 1, "increment_s": 0}, "stand_in_when_away": true
        }))
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    ann.request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    drop(bob.disconnect().await);
    let mut dice = Dice(4);
    let state = ann.state().await;
    act(&mut ann, &state, &mut dice).await;
    // The stand-in plays for bob, and the game goes on to ann.
    let state = state_where(&mut ann, |s| s.version == 2).await;
    assert_eq!(state.to_act, Some(0));
    assert!(state.clocks.expect("clocks")[1].stand_in);
}

#[tokio::test]
async fn clocks_outside_r12_1_and_stand_ins_without_a_clock_get_invalid_clock() {
    let server = TestServer::start_with(config()).await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    for (clock, code) in [
        (json!({"initial_s": 0, "increment_s": 0}), "invalid_clock"),
        (
            json!({"initial_s": 8 * 86_400, "increment_s": 0}),
            "invalid_clock",
        ),
        (
            json!({"initial_s": 60, "increment_s": 2 * 86_400}),
            "invalid_clock",
        ),
        (json!({"initial_s": -5, "increment_s": 0}), "invalid_clock"),
        (json!({"initial_s": 60, "increment_s": -1}), "invalid_clock"),
        (json!({"initial_s": 1.5, "increment_s": 0}), "invalid_field"),
        (json!({"initial_s": 60}), "missing_field"),
        (
            json!({"initial_s": 60, "increment_s": 0, "x": 1}),
            "invalid_field",
        ),
    ] {
        let error = ann.request(json!({"type": "create", "clock": clock})).await;
        assert_eq!(error["code"], code, "{clock}: {error}");
    }
    let error = ann
        .request(json!({"type": "create", "stand_in_when_away": true}))
        .await;
    assert_eq!(error["code"], "invalid_clock", "{error}");
    assert!(
        error["message"].as_str().unwrap().contains("needs a clock"),
        "{error}"
    );
    // Nothing was created: a sane clock still makes a room, and a room
    // without a clock shows none.
    let room = ann
        .request(json!({"type": "create", "clock": {"initial_s": 604_800, "increment_s": 86_400}}))
        .await;
    assert_eq!(room["type"], "room", "{room}");
}

#[tokio::test]
async fn sqlite_clocks_survive_a_kill() {
    clocks_survive_a_kill(TestDatabase::sqlite()).await;
}

#[tokio::test]
async fn postgres_clocks_survive_a_kill() {
    if let Some(db) = TestDatabase::postgres("postgres_clocks_survive_a_kill").await {
        clocks_survive_a_kill(db).await;
    }
}

/// A restart costs nobody time: each bank is what it held after the last
/// action, and the clock of the seat to act starts again from it.
async fn clocks_survive_a_kill(db: TestDatabase) {
    let kind = db.kind;
    let server = ServerProcess::start(SERVER, &db.url).await;
    let mut ann = TestClient::connect_to(server.addr(), "ann").await;
    ann.hello().await;
    let mut bob = TestClient::connect_to(server.addr(), "bob").await;
    bob.hello().await;
    let room = ann
        .request(
            json!({"type": "create", "seats": 2, "clock": {"initial_s": 600, "increment_s": 30}}),
        )
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    ann.request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    let mut dice = Dice(77);
    let mut clients = [ann, bob];
    let mut states = Vec::new();
    for version in 0..6u64 {
        states.clear();
        for client in &mut clients {
            states.push(state_where(client, |s| s.version == version).await);
        }
        let seat = usize::from(states[0].to_act.expect("running"));
        act(&mut clients[seat], &states[seat], &mut dice).await;
    }
    let before = state_where(&mut clients[0], |s| s.version == 6)
        .await
        .clocks
        .expect("clocks");
    let tokens: Vec<String> = clients.iter().map(|c| c.token.clone().unwrap()).collect();

    server.kill().await;
    let server = ServerProcess::start(SERVER, &db.url).await;
    let mut ann = TestClient::connect_to(server.addr(), "ann").await;
    ann.resume(&tokens[0]).await;
    let state = ann.state().await;
    assert_eq!(state.version, 6, "{kind}");
    let after = state.clocks.expect("clocks after the restart");
    for seat in 0..2 {
        assert!(
            !before[seat].running || after[seat].running,
            "{kind}: seat {seat}: {before:?} {after:?}"
        );
        // The stored bank, give or take the time since the restored clock
        // started (never less than before the crash by more than that).
        assert!(
            after[seat].remaining_ms <= before[seat].remaining_ms.max(600_000 + 3 * 30_000),
            "{kind}: seat {seat}: {before:?} {after:?}"
        );
        assert!(
            after[seat].remaining_ms + 60_000 >= before[seat].remaining_ms,
            "{kind}: a restart cost seat {seat} time: {before:?} {after:?}"
        );
    }
}

/// Issue 23, defect 1: a rematch of a clocked room with the stand-in for
/// the away starts with everyone seated and every bank full (R12.1, R12.3).
/// The players who accepted before the last are moved into the new room by
/// the server (`left`, then `room` and `state`, no `join` needed), and a
/// `join` of the room a connection is already in answers `room`. Before,
/// the seats that had to follow with `join` counted as away at the start,
/// and a first seat among them began with the grace (about 10 s) instead
/// of its bank. Rounds go on until the first seat was one of those.
#[tokio::test]
async fn r12_3_a_rematch_starts_with_everyone_seated_and_every_bank_full() {
    const BANK_MS: u64 = 120_000;
    let server = TestServer::start_with(config()).await;
    let mut first_was_moved = false;
    for round in 0..20u64 {
        let mut ann = TestClient::join_server(&server, "ann").await;
        let mut bob = TestClient::join_server(&server, "bob").await;
        let room = ann
            .request(json!({
                "type": "create", "seats": 2,
                "clock": {"initial_s": BANK_MS / 1000, "increment_s": 0},
                "stand_in_when_away": true
            }))
            .await;
        let code = room["code"].as_str().unwrap().to_owned();
        bob.request(json!({"type": "join", "code": code})).await;
        ann.request(json!({"type": "start"})).await;
        let (mut da, mut db) = (Dice(2 * round), Dice(2 * round + 1));
        let (a, b) = tokio::join!(
            ann.play_until_result(&mut da),
            bob.play_until_result(&mut db)
        );
        assert_eq!(a["game"], b["game"]);
        // Ann offers, bob accepts last and makes the new room.
        let offer = ann.request(json!({"type": "rematch"})).await;
        assert_eq!(offer["type"], "room", "{offer}");
        bob.send_with_id(json!({"type": "rematch"})).await;
        // Ann sends nothing: the server moves her.
        let left = ann.recv_type("left").await;
        assert_eq!(left["room"], code.as_str(), "{left}");
        // (Moved before bob started the game or just after: either way
        // the game is on once she is there.)
        let moved = ann
            .recv_until(|m| m["type"] == "room" && m["status"] == "playing")
            .await;
        assert_eq!(moved["you"]["role"], "player", "{moved}");
        let new_code = moved["code"].as_str().unwrap().to_owned();
        assert_ne!(new_code, code);
        let state = ann.state().await;
        assert_eq!(state.version, 0);
        let to_act = usize::from(state.to_act.expect("a seat to act"));
        let clocks = state.clocks.clone().expect("clocks");
        // Both seats start with the whole bank; the clock of the first runs.
        assert!(
            clocks.iter().all(|c| c.remaining_ms > BANK_MS - 5_000),
            "round {round}: {clocks:?}"
        );
        assert!(clocks[to_act].running, "{clocks:?}");
        // Bob is in the same game.
        bob.recv_until(|m| {
            m["type"] == "room" && m["code"] == new_code.as_str() && m["status"] == "playing"
        })
        .await;
        // A join of the room ann is already in answers `room`, not an error.
        let again = ann.request(json!({"type": "join", "code": new_code})).await;
        assert_eq!(again["type"], "room", "{again}");
        assert_eq!(again["you"]["role"], "player", "{again}");
        if state.to_act == state.you {
            first_was_moved = true;
            break;
        }
    }
    assert!(
        first_was_moved,
        "the first seat was never the moved player's"
    );
}

/// R12.3 as amended on 2026-11-29: being away is not a time-out. Bob is
/// away when his turn starts; after the grace (5 ms here) the stand-in
/// plays it, and Bob keeps his bank (ten minutes less the grace), his
/// seat not marked; back with his token, he plays on his bank.
#[tokio::test]
async fn r12_3_an_away_player_keeps_the_bank_after_the_stand_ins_turn() {
    let server = TestServer::start_with(Config {
        min_grace: Some(std::time::Duration::from_millis(5)),
        ..config()
    })
    .await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    let token = bob.token.clone().expect("a token");
    let room = ann
        .request(json!({
            "type": "create", "seats": 2,
            "clock": {"initial_s": 600, "increment_s": 0}, "stand_in_when_away": true
        }))
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    ann.request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    drop(bob.disconnect().await);
    let mut dice = Dice(5);
    let state = ann.state().await;
    act(&mut ann, &state, &mut dice).await;
    let by = ann
        .recv_until(|m| m["type"] == "events" && m["by"].is_string())
        .await;
    assert_eq!(by["by"], "stand_in", "{by}");
    let state = state_where(&mut ann, |s| s.version == 2).await;
    let clocks = state.clocks.expect("clocks");
    assert!(
        !clocks[1].stand_in,
        "an away seat is not marked: {clocks:?}"
    );
    assert!(
        clocks[1].remaining_ms > 590_000,
        "the bank is kept, less the grace: {clocks:?}"
    );
    // Back with his token: his seat, on his bank.
    let mut back = TestClient::connect(&server, "bob").await;
    back.resume(&token).await;
    let state = state_where(&mut back, |s| s.version == 2).await;
    let clocks = state.clocks.expect("clocks");
    assert!(
        !clocks[1].stand_in && clocks[1].remaining_ms > 590_000,
        "{clocks:?}"
    );
    assert_eq!(server.metric("splendor_stand_in_actions_total").await, 1.0);
}

/// Issue 23, defect 2: a browser keeps a page it left in its back/forward
/// cache with the socket open and answers pings for it, so the server saw
/// no disconnect and the stand-in for the away never started. A client
/// that promises liveness (`"liveness_s":N` in `hello`) and then is silent
/// for 2.4 times N counts as away (R12.3) without being closed; its next
/// message takes the seat back. The test waits for the room to say so,
/// never for time.
#[tokio::test]
async fn r12_3_a_silent_client_that_promised_liveness_counts_as_away() {
    let server = TestServer::start_with(Config {
        min_grace: Some(std::time::Duration::from_millis(5)),
        ..config()
    })
    .await;
    let mut ann = TestClient::connect(&server, "ann").await;
    for bad in [0, 61] {
        let refused = ann
            .request(json!({"type": "hello", "name": "ann", "liveness_s": bad}))
            .await;
        assert_eq!(refused["code"], "invalid_field", "{refused}");
    }
    let welcome = ann
        .request(json!({"type": "hello", "name": "ann", "liveness_s": 1}))
        .await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    let mut bob = TestClient::join_server(&server, "bob").await;
    let room = ann
        .request(json!({
            "type": "create", "seats": 2,
            "clock": {"initial_s": 600, "increment_s": 0},
            "stand_in_when_away": true
        }))
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    ann.request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    // Ann (seat 0) moves, then says nothing more: her page is "frozen".
    let mut dice = Dice(23);
    let state = state_where(&mut ann, |s| s.to_act == Some(0)).await;
    let reply = act(&mut ann, &state, &mut dice).await;
    assert_ne!(reply["type"], "error", "{reply}");
    let state = state_where(&mut bob, |s| s.to_act == Some(1)).await;
    // 2.4 s later the room tells bob she is away; her socket stays open.
    let away = bob
        .recv_until(|m| m["type"] == "room" && m["seats"][0]["connected"] == false)
        .await;
    assert_eq!(away["status"], "playing", "{away}");
    // Bob's move starts her turn while she is away: after the grace the
    // stand-in plays it (R12.3, R12.2).
    act(&mut bob, &state, &mut dice).await;
    let by = bob
        .recv_until(|m| m["type"] == "events" && m["by"].is_string())
        .await;
    assert_eq!(by["by"], "stand_in", "{by}");
    // Her next message (a ping) puts her back in her seat at once.
    ann.send(json!({"type": "ping", "id": "back"})).await;
    let (mut back, mut pong) = (None, false);
    while back.is_none() || !pong {
        let m = ann.recv().await;
        if m["type"] == "room" && m["seats"][0]["connected"] == true {
            back = Some(m);
        } else if m["type"] == "pong" && m["id"] == "back" {
            pong = true;
        }
    }
    assert_eq!(back.unwrap()["you"]["seat"], 0);
    bob.recv_until(|m| m["type"] == "room" && m["seats"][0]["connected"] == true)
        .await;
    // The same socket all along: it answers requests.
    assert_eq!(ann.request(json!({"type": "ping"})).await["type"], "pong");
}
