//! Turn-based rooms (RULES.md R12.5) against the real server over real
//! sockets: bad times per move are refused and change nothing; a passed
//! deadline resigns the player or hands the turn to the stand-in, as the
//! room says; deadlines are wall-clock times that survive kill -9, and one
//! that passed while the server was down gives one more hour. The
//! deadline's arithmetic is tested on the room core with time passed in
//! (`splendor-room/src/tests/turn_based.rs`). Here a test setting lowers
//! the shortest time per move to a second (`SPLENDOR_MIN_PER_MOVE`), so a
//! "day" passes in seconds; the tests wait for messages, and for the wall
//! clock only where it is what is tested (a deadline passing while the
//! server is down).

use std::time::Duration;

use serde_json::{Value, json};
use splendor_e2e::{ServerProcess, TestClient, TestDatabase, TestServer};
use splendor_protocol::StateInfo;
use splendor_server::Config;

/// The server binary (the root package's copy of `splendor-server`).
const SERVER: &str = env!("CARGO_BIN_EXE_splendor-server-e2e");

fn config() -> Config {
    Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        bot_delay_ms: 0,
        min_per_move: Duration::from_secs(1),
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

/// Ann creates a room of two with `turn_based`, Bob joins, Ann starts it
/// with herself first.
async fn two_players(
    ann: &mut TestClient,
    bob: &mut TestClient,
    turn_based: Value,
) -> (String, Value) {
    let room = ann
        .request(json!({"type": "create", "seats": 2, "turn_based": turn_based}))
        .await;
    assert_eq!(room["type"], "room", "{room}");
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    let started = ann
        .request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    (code, started)
}

#[tokio::test]
async fn times_per_move_outside_r12_5_are_refused_and_change_nothing() {
    // The server's own shortest time per move: an hour (R12.5).
    let server = TestServer::start_with(Config {
        min_per_move: Duration::from_secs(3600),
        ..config()
    })
    .await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let year = 365 * 86_400;
    for (create, code, says) in [
        (
            json!({"turn_based": {"per_move_s": 0}}),
            "invalid_clock",
            "1 hour to 14 days",
        ),
        (
            json!({"turn_based": {"per_move_s": 3599}}),
            "invalid_clock",
            "1 hour to 14 days",
        ),
        (
            json!({"turn_based": {"per_move_s": 14 * 86_400 + 1}}),
            "invalid_clock",
            "1 hour to 14 days",
        ),
        (
            json!({"turn_based": {"per_move_s": 10 * year}}),
            "invalid_clock",
            "1 hour to 14 days",
        ),
        (
            json!({"turn_based": {"per_move_s": -86_400}}),
            "invalid_clock",
            "per_move_s",
        ),
        (
            json!({"turn_based": {"per_move_s": 1.5}}),
            "invalid_field",
            "",
        ),
        (json!({"turn_based": {}}), "missing_field", "per_move_s"),
        (
            json!({"turn_based": {"per_move_s": 86_400, "on_deadline": "never"}}),
            "invalid_field",
            "",
        ),
        (
            json!({"turn_based": {"per_move_s": 86_400, "x": 1}}),
            "invalid_field",
            "",
        ),
        (
            json!({"turn_based": {"per_move_s": 86_400}, "clock": {"initial_s": 60, "increment_s": 0}}),
            "invalid_clock",
            "not both",
        ),
        (
            json!({"turn_based": {"per_move_s": 86_400}, "stand_in_when_away": true}),
            "invalid_clock",
            "R12.5",
        ),
        (
            json!({"turn_based": {"per_move_s": 86_400}, "rated": true}),
            "invalid_clock",
            "rated",
        ),
    ] {
        let mut message = create.clone();
        message["type"] = json!("create");
        let error = ann.request(message).await;
        assert_eq!(error["code"], code, "{create}: {error}");
        assert!(
            error["message"].as_str().unwrap_or("").contains(says),
            "{create}: {error}"
        );
    }
    // Nothing was made: the session sits in no room, and a sane room is made.
    let auth = format!("Bearer {}", ann.token.clone().unwrap());
    let (status, games) = splendor_e2e::process::http_get_with(
        server.addr(),
        "/api/me/games",
        &[("Authorization", &auth)],
    )
    .await;
    assert_eq!(status, 200, "{games}");
    assert_eq!(
        serde_json::from_str::<Value>(&games).unwrap()["games"],
        json!([])
    );
    let room = ann
        .request(json!({"type": "create", "seats": 2, "turn_based": {"per_move_s": 14 * 86_400}}))
        .await;
    assert_eq!(room["type"], "room", "{room}");
    assert_eq!(
        room["turn_based"],
        json!({"per_move_s": 14 * 86_400, "on_deadline": "stand_in"}),
        "{room}"
    );
    assert!(room.get("clock").is_none(), "{room}");
}

/// R12.5 with `resign`: Ann lets her deadline pass; she resigns (R13) and,
/// one person being left in play, the game ends at once (R13.2): Bob wins.
#[tokio::test]
async fn r12_5_a_passed_deadline_resigns_when_the_room_says_so() {
    let server = TestServer::start_with(config()).await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    let (_, _) = two_players(
        &mut ann,
        &mut bob,
        json!({"per_move_s": 1, "on_deadline": "resign"}),
    )
    .await;
    let state = bob.state().await;
    let clocks = state.clocks.expect("a turn-based game shows its deadlines");
    assert!(
        clocks[0].running && clocks[0].remaining_ms <= 1000,
        "{clocks:?}"
    );
    let result = bob.recv_type("result").await;
    assert_eq!(result["winners"], json!([1]), "{result}");
    assert_eq!(result["resigned"], json!([0]), "{result}");
}

/// R12.5 with the stand-in: Ann's deadline passes, the stand-in plays her
/// turn (marked `stand_in`), and the game goes on to Bob.
#[tokio::test]
async fn r12_5_a_passed_deadline_has_the_stand_in_play_the_turn() {
    let server = TestServer::start_with(config()).await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    two_players(&mut ann, &mut bob, json!({"per_move_s": 1})).await;
    let events = bob
        .recv_until(|m| m["type"] == "events" && m["version"] == 1)
        .await;
    assert_eq!(events["by"], "stand_in", "{events}");
    let state = state_where(&mut bob, |s| s.version == 1).await;
    assert_eq!(state.to_act, Some(1));
    let clocks = state.clocks.expect("clocks");
    assert!(clocks[0].stand_in && clocks[1].running, "{clocks:?}");
}

#[tokio::test]
async fn sqlite_a_deadline_survives_a_kill_and_one_passed_meanwhile_gets_an_hour() {
    deadlines_survive_a_kill(TestDatabase::sqlite()).await;
}

#[tokio::test]
async fn postgres_a_deadline_survives_a_kill_and_one_passed_meanwhile_gets_an_hour() {
    if let Some(db) = TestDatabase::postgres("postgres_turn_based_deadlines").await {
        deadlines_survive_a_kill(db).await;
    }
}

/// Two games on one server: one with a day per move, one with 8 seconds.
/// The server is killed (SIGKILL); the short deadline passes while it is
/// down. After the restart the day's deadline is the same wall-clock time
/// as before (what is left went down by the time the server was away, not
/// back to a full day), and the passed one gives its player one more hour
/// (R12.5): no stand-in played while the server was down or at its start.
async fn deadlines_survive_a_kill(db: TestDatabase) {
    let kind = db.kind;
    let env = [("SPLENDOR_MIN_PER_MOVE", "1s")];
    let server = ServerProcess::start_with_env(SERVER, &db.url, &env).await;
    let mut clients = Vec::new();
    for name in ["ann", "bob", "cy", "dan"] {
        let mut client = TestClient::connect_to(server.addr(), name).await;
        client.hello().await;
        clients.push(client);
    }
    let [mut ann, mut bob, mut cy, mut dan] = <[TestClient; 4]>::try_from(clients).ok().unwrap();
    let (day_room, _) = two_players(&mut ann, &mut bob, json!({"per_move_s": 86_400})).await;
    let (short_room, _) = two_players(&mut cy, &mut dan, json!({"per_move_s": 8})).await;
    let day_before = ann.state().await.clocks.expect("clocks")[0].remaining_ms;
    let short = cy.state().await;
    let short_left = short.clocks.expect("clocks")[0].remaining_ms;
    assert!(short_left <= 8000, "{kind}: {short_left}");
    let tokens: Vec<String> = [&ann, &cy]
        .iter()
        .map(|c| c.token.clone().unwrap())
        .collect();
    let killed_at = std::time::Instant::now();
    server.kill().await;
    // The wall clock passes the short deadline while no server runs: what
    // this test is about, not a wait for the server.
    tokio::time::sleep(Duration::from_millis(short_left + 500)).await;

    let server = ServerProcess::start_with_env(SERVER, &db.url, &env).await;
    let mut ann = TestClient::connect_to(server.addr(), "ann").await;
    ann.resume(&tokens[0]).await;
    let state = ann.state().await;
    assert_eq!(state.version, 0, "{kind}: {day_room}");
    let day_after = state.clocks.expect("clocks")[0].remaining_ms;
    let away = killed_at.elapsed().as_millis() as u64;
    assert!(
        day_after + away >= day_before - 2000 && day_after <= day_before - away + 2000,
        "{kind}: a day's deadline moved: {day_before} ms before, {day_after} ms after {away} ms away"
    );
    let mut cy = TestClient::connect_to(server.addr(), "cy").await;
    cy.resume(&tokens[1]).await;
    let state = cy.state().await;
    assert_eq!(
        state.version, 0,
        "{kind}: nothing was played in {short_room}"
    );
    let clocks = state.clocks.expect("clocks");
    assert!(
        clocks[0].running && !clocks[0].stand_in,
        "{kind}: {clocks:?}"
    );
    assert!(
        (3_590_000..=3_600_000).contains(&clocks[0].remaining_ms),
        "{kind}: R12.5 gives one more hour, not {clocks:?}"
    );
}
