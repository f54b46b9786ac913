//! Quick play and ratings (issue 13) against the real server over real
//! sockets, on SQLite and, when `SPLENDOR_TEST_DATABASE_URL` is set, on
//! PostgreSQL: a queue of four forms two rated games of two; ratings move
//! the right way when a game ends; a player who disconnects after five
//! moves of their own (R13.4) is played by the stand-in to the end and rated all the same; a restart keeps ratings
//! and empties the queues; every bad request gets its own error.
//!
//! R12.2's shortest grace is lowered to a few milliseconds
//! (`Config::min_grace`, never on the command line), so that a game whose
//! player is away plays out in moments; nothing waits for time.

use std::time::Duration;

use serde_json::{Value, json};
use splendor_e2e::{Dice, TestClient, TestDatabase, TestServer, choose};
use splendor_protocol::StateInfo;
use splendor_server::Config;

macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(splendor_e2e::TestDatabase::sqlite()).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    if let Some(db) = splendor_e2e::TestDatabase::postgres(stringify!($name)).await {
                        super::$name(db).await;
                    }
                }
            )*
        }
    };
}

on_both_backends!(
    a_queue_of_four_forms_two_rated_games_of_two,
    ratings_move_the_right_way_and_a_disconnect_does_not_dodge,
    a_restart_keeps_ratings_and_empties_the_queues,
);

fn config(db: &TestDatabase) -> Config {
    Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        bot_delay_ms: 0,
        database_url: Some(db.url.parse().expect("a database URL")),
        min_grace: Some(Duration::from_millis(5)),
        quick_play_clock: "1s+0s".parse().expect("a clock"),
        ..Config::default()
    }
}

/// A new session; `bot` says `"bot":true`.
async fn player(server: &TestServer, name: &str, bot: bool) -> (TestClient, Value) {
    let mut client = TestClient::connect(server, name).await;
    let welcome = client
        .request(json!({"type": "hello", "name": name, "bot": bot}))
        .await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    let id = welcome["player_id"].as_str().expect("a player id");
    assert_eq!(id.len(), 10, "{welcome}");
    assert_eq!(welcome["bot"] == true, bot, "{welcome}");
    (client, welcome)
}

async fn queue(client: &mut TestClient, players: u8) -> Value {
    let queued = client
        .request(json!({"type": "queue", "players": players}))
        .await;
    assert_eq!(queued["type"], "queued", "{queued}");
    assert_eq!(queued["players"], players);
    assert_eq!(queued["clock"]["stand_in_when_away"], true, "{queued}");
    queued
}

/// Reads until `matched`, then the room it names; returns the room.
async fn matched(client: &mut TestClient) -> Value {
    let found = client.recv_type("matched").await;
    let code = found["room"].as_str().expect("a room code").to_owned();
    let room = client
        .recv_until(|m| m["type"] == "room" && m["code"] == code.as_str())
        .await;
    assert_eq!(room["rated"], true, "{room}");
    assert_eq!(room["listed"], false, "{room}");
    assert_eq!(room["clock"]["stand_in_when_away"], true, "{room}");
    // Names are not unique: a rated table shows each player's public id.
    for seat in room["seats"].as_array().unwrap() {
        let id = seat["player_id"].as_str().map(str::len);
        let expected = if seat["bot"].is_string() {
            None
        } else {
            Some(10)
        };
        assert_eq!(id, expected, "{room}");
    }
    room
}

async fn a_queue_of_four_forms_two_rated_games_of_two(db: TestDatabase) {
    let server = TestServer::start_with(config(&db)).await;
    let mut clients: Vec<TestClient> = Vec::new();
    let mut rooms = Vec::new();
    for (i, name) in ["ann", "bob", "cy", "dee"].iter().enumerate() {
        // Two people, then two programs: each pair plays in its own pool
        // (issue 24; tests/quick_play_pools.rs).
        let (mut client, _) = player(&server, name, i >= 2).await;
        let queued = queue(&mut client, 2).await;
        clients.push(client);
        // The first waits alone; the second completes a game at once
        // (formed just after its `queued`: both hear `matched` before the
        // next one queues, so that one waits alone again).
        if i % 2 == 0 {
            assert_eq!(queued["waiting"], 1, "{queued}");
            continue;
        }
        for client in &mut clients[i - 1..=i] {
            let room = matched(client).await;
            assert_eq!(room["status"], "playing", "{room}");
            let seats = room["seats"].as_array().unwrap();
            assert_eq!(seats.len(), 2);
            assert_eq!(room["you"]["role"], "player");
            // The game is on: a state follows, with this seat's view.
            let state = client.recv_type("state").await;
            assert_eq!(state["version"], 0, "{state}");
            rooms.push(room["code"].as_str().unwrap().to_owned());
        }
    }
    assert_eq!(rooms[0], rooms[1], "the first two play together");
    assert_eq!(rooms[2], rooms[3], "the last two play together");
    assert_ne!(rooms[0], rooms[2]);
    assert_eq!(server.metric("splendor_quick_play_games_total").await, 2.0);
    assert_eq!(server.metric("splendor_quick_play_queued_total").await, 4.0);
    // Nobody waits any more.
    let unqueued = clients[0].request(json!({"type": "unqueue"})).await;
    assert_eq!(unqueued["code"], "not_queued", "{unqueued}");
    // Seated in a running game: no queueing.
    let refused = clients[0]
        .request(json!({"type": "queue", "players": 2}))
        .await;
    assert_eq!(refused["code"], "already_in_room", "{refused}");
}

/// Plays `client`'s seat to the end (legal actions only, each version at
/// most once); returns the `result`. The stand-in may have played a turn
/// of this seat meanwhile (a 1-second bank): those refusals are expected.
async fn play_out(client: &mut TestClient, seed: u64) -> Value {
    let mut dice = Dice(seed);
    let mut acted = None;
    loop {
        let message = client.recv().await;
        match message["type"].as_str() {
            Some("result") => return message,
            Some("error") => {
                let code = message["code"].as_str().unwrap_or_default();
                assert!(
                    code == "stale_version" || code == "stand_in_turn",
                    "{message}"
                );
            }
            Some("state") => {
                let state: StateInfo = client.full(serde_json::from_value(message).unwrap());
                if state.to_act.is_some()
                    && state.to_act == state.you
                    && acted != Some(state.version)
                {
                    acted = Some(state.version);
                    let legal = state.legal_actions.clone().expect("legal actions");
                    let action = choose(&legal, &mut dice).clone();
                    client
                        .send_with_id(json!({
                            "type": "act", "action": action, "expect_version": state.version
                        }))
                        .await;
                }
            }
            _ => {}
        }
    }
}

async fn rating(server: &TestServer, player_id: &str) -> Value {
    let (status, body) = server.http_get(&format!("/api/players/{player_id}")).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

async fn ratings_move_the_right_way_and_a_disconnect_does_not_dodge(db: TestDatabase) {
    let server = TestServer::start_with(config(&db)).await;
    // Two people (people and programs wait in pools of their own, issue
    // 24): rated on the people's board, none on the bots'.
    let (mut ann, ann_hello) = player(&server, "ann", false).await;
    let (mut bob, bob_hello) = player(&server, "bob", false).await;
    queue(&mut ann, 2).await;
    queue(&mut bob, 2).await;
    let room = matched(&mut ann).await;
    matched(&mut bob).await;
    let seat_names: Vec<String> = room["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_owned())
        .collect();
    // Bob plays five turns of his own (R13.4) and leaves: the stand-in
    // plays every one of his turns after that.
    let mut dice = Dice(8);
    let (result, ()) = tokio::join!(play_out(&mut ann, 7), bob.play_turns(&mut dice, 5));
    bob.disconnect().await;
    let (ann_place, bob_place) = (
        rank_by_seat(&result, &seat_names, "ann"),
        rank_by_seat(&result, &seat_names, "bob"),
    );
    let ann_rating = rating(&server, ann_hello["player_id"].as_str().unwrap()).await;
    let bob_rating = rating(&server, bob_hello["player_id"].as_str().unwrap()).await;
    for (who, r) in [("ann", &ann_rating), ("bob", &bob_rating)] {
        assert_eq!(r["games"], 1, "{who} played one rated game: {r}");
        assert_eq!(r["provisional"], true, "{r}");
        assert_eq!(r["recent"].as_array().unwrap().len(), 1, "{r}");
    }
    // Each game names the others at the table, with their ids (issue 24).
    assert_eq!(
        ann_rating["recent"][0]["opponents"],
        json!([{"name": "bob", "player_id": bob_hello["player_id"]}])
    );
    assert_eq!(
        bob_rating["recent"][0]["opponents"],
        json!([{"name": "ann", "player_id": ann_hello["player_id"]}])
    );
    assert_eq!(bob_rating["bot"], false);
    assert_eq!(ann_rating["bot"], false);
    let (a, b) = (
        ann_rating["rating"].as_f64().unwrap(),
        bob_rating["rating"].as_f64().unwrap(),
    );
    match ann_place.cmp(&bob_place) {
        std::cmp::Ordering::Less => assert!(a > 1500.0 && b < 1500.0, "{a} {b}"),
        std::cmp::Ordering::Greater => assert!(a < 1500.0 && b > 1500.0, "{a} {b}"),
        std::cmp::Ordering::Equal => assert!((a - 1500.0).abs() < 0.1 && (b - 1500.0).abs() < 0.1),
    }
    // The leaderboards keep people and bots apart.
    let (status, body) = server.http_get("/api/leaderboard").await;
    assert_eq!(status, 200, "{body}");
    let humans: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(humans["kind"], "humans");
    assert_eq!(humans["total"], 2, "{humans}");
    assert_eq!(humans["players"][0]["rank"], 1);
    let (_, body) = server.http_get("/api/leaderboard?kind=bots").await;
    let bots: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(bots["total"], 0, "{bots}");
    // Found by name too.
    let (status, body) = server.http_get("/api/players/bob").await;
    assert_eq!(status, 200, "{body}");
    // Bad requests.
    for (path, status, code) in [
        ("/api/leaderboard?kind=robots", 400, "invalid_query"),
        ("/api/leaderboard?page=0", 400, "invalid_query"),
        ("/api/leaderboard?per_page=101", 400, "invalid_query"),
        ("/api/leaderboard?page=x", 400, "invalid_query"),
        ("/api/players/0000000000", 404, "player_not_found"),
        ("/api/players/nobody", 404, "player_not_found"),
    ] {
        let (got, body) = server.http_get(path).await;
        assert_eq!(got, status, "{path}: {body}");
        let error: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(error["error"], code, "{path}: {body}");
    }
    server.shutdown().await.unwrap();
}

/// The rank of the player called `name` in a result (seats as the room
/// listed them at the start).
fn rank_by_seat(result: &Value, seats: &[String], name: &str) -> u64 {
    let seat = seats.iter().position(|n| n == name).expect("seated") as u64;
    result["ranking"]
        .as_array()
        .expect("a ranking")
        .iter()
        .find(|r| r["seat"].as_u64() == Some(seat))
        .and_then(|r| r["rank"].as_u64())
        .expect("a rank")
}

async fn a_restart_keeps_ratings_and_empties_the_queues(db: TestDatabase) {
    let server = TestServer::start_with(config(&db)).await;
    let (mut ann, ann_hello) = player(&server, "ann", false).await;
    let (mut bob, _) = player(&server, "bob", false).await;
    queue(&mut ann, 2).await;
    queue(&mut bob, 2).await;
    matched(&mut ann).await;
    matched(&mut bob).await;
    let mut dice = Dice(12);
    let (_, ()) = tokio::join!(play_out(&mut ann, 11), bob.play_turns(&mut dice, 5));
    bob.disconnect().await;
    let before = rating(&server, ann_hello["player_id"].as_str().unwrap()).await;
    // Cy waits in a queue when the server stops.
    let (mut cy, cy_hello) = player(&server, "cy", false).await;
    queue(&mut cy, 3).await;
    ann.disconnect().await;
    cy.disconnect().await;
    server.shutdown().await.unwrap();

    let server = TestServer::start_with(config(&db)).await;
    let after = rating(&server, ann_hello["player_id"].as_str().unwrap()).await;
    assert_eq!(after["rating"], before["rating"]);
    assert_eq!(after["games"], 1);
    // Cy's session lives on, its queue does not: no `queued` after welcome.
    let mut cy = TestClient::connect(&server, "cy").await;
    let welcome = cy.resume(cy_hello["token"].as_str().unwrap()).await;
    assert!(welcome.resumed);
    let unqueued = cy.request(json!({"type": "unqueue"})).await;
    assert_eq!(unqueued["code"], "not_queued", "{unqueued}");
    let frames = cy.disconnect().await;
    assert!(
        !frames.iter().any(|f| f.contains("\"queued\"")),
        "no queue survives a restart: {frames:?}"
    );
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn a_queued_session_keeps_its_place_across_a_reconnect() {
    let db = TestDatabase::sqlite();
    let server = TestServer::start_with(config(&db)).await;
    let (mut ann, hello) = player(&server, "ann", false).await;
    queue(&mut ann, 2).await;
    ann.disconnect().await;
    // Back with the token: still queued, told so without being asked.
    let mut ann = TestClient::connect(&server, "ann").await;
    ann.resume(hello["token"].as_str().unwrap()).await;
    let queued = ann.recv_type("queued").await;
    assert_eq!(queued["players"], 2);
    assert!(queued.get("id").is_none(), "{queued}");
    let (mut bob, _) = player(&server, "bob", false).await;
    queue(&mut bob, 2).await;
    let a = matched(&mut ann).await;
    let b = matched(&mut bob).await;
    assert_eq!(a["code"], b["code"]);
}

/// A reload while queued: the old connection closes while the new one
/// resumes the session at the same moment. Whatever order the two take,
/// the session waits present and is matched (the old connection once
/// marked the wait away after the new one had marked it present, and the
/// session was never matched: seen in the browser suite).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_queued_session_reloaded_at_once_is_still_matched() {
    let db = TestDatabase::sqlite();
    let server = TestServer::start_with(Config {
        max_connects_per_ip_per_minute: 100_000,
        ..config(&db)
    })
    .await;
    for round in 0..15 {
        let (mut ann, hello) = player(&server, &format!("ann{round}"), false).await;
        queue(&mut ann, 2).await;
        let token = hello["token"].as_str().unwrap().to_owned();
        let mut again = TestClient::connect(&server, "ann again").await;
        // Both at once: the old tab goes, the new one resumes.
        let both = async {
            tokio::join!(ann.disconnect(), async {
                again
                    .request(json!({"type": "hello", "token": token}))
                    .await
            })
        };
        let (_, resumed) = tokio::time::timeout(splendor_e2e::SAFETY_TIMEOUT, both)
            .await
            .expect("the reload is over within the safety timeout");
        assert_eq!(resumed["type"], "welcome", "round {round}: {resumed}");
        let queued = again.recv_type("queued").await;
        assert_eq!(queued["players"], 2, "round {round}");
        let (mut bob, _) = player(&server, &format!("bob{round}"), false).await;
        queue(&mut bob, 2).await;
        let a = matched(&mut again).await;
        let b = matched(&mut bob).await;
        assert_eq!(a["code"], b["code"], "round {round}");
    }
}

#[tokio::test]
async fn quick_play_refuses_what_it_cannot_do_and_changes_nothing() {
    let db = TestDatabase::sqlite();
    let server = TestServer::start_with(config(&db)).await;
    let mut anon = TestClient::connect(&server, "anon").await;
    let refused = anon.request(json!({"type": "queue", "players": 2})).await;
    assert_eq!(refused["code"], "not_identified", "{refused}");

    let (mut ann, _) = player(&server, "ann", false).await;
    for (message, code) in [
        (json!({"type": "queue", "players": 5}), "invalid_players"),
        (json!({"type": "queue", "players": 1}), "invalid_players"),
        (json!({"type": "queue", "players": "two"}), "invalid_field"),
        (json!({"type": "queue"}), "missing_field"),
        (
            json!({"type": "queue", "players": 2, "x": 1}),
            "invalid_field",
        ),
        (json!({"type": "unqueue"}), "not_queued"),
        (json!({"type": "unqueue", "players": 2}), "invalid_field"),
    ] {
        let reply = ann.request(message.clone()).await;
        assert_eq!(reply["code"], code, "{message}: {reply}");
    }
    queue(&mut ann, 3).await;
    let twice = ann.request(json!({"type": "queue", "players": 2})).await;
    assert_eq!(twice["code"], "already_queued", "{twice}");
    assert!(
        twice["message"].as_str().unwrap().contains("3-player"),
        "{twice}"
    );
    let left = ann.request(json!({"type": "unqueue"})).await;
    assert_eq!(left["type"], "unqueued", "{left}");
    assert_eq!(left["players"], 3);

    // Waiting in a room of one's own: `already_in_room`.
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    assert_eq!(room["type"], "room");
    let refused = ann.request(json!({"type": "queue", "players": 2})).await;
    assert_eq!(refused["code"], "already_in_room", "{refused}");
    ann.request(json!({"type": "leave"})).await;

    // Joining a table takes a queued session out of its queue.
    queue(&mut ann, 2).await;
    let (mut bob, _) = player(&server, "bob", false).await;
    let table = bob.request(json!({"type": "create", "seats": 2})).await;
    let code = table["code"].as_str().unwrap();
    ann.send(json!({"type": "join", "code": code})).await;
    let unqueued = ann.recv_type("unqueued").await;
    assert_eq!(unqueued["players"], 2);
    ann.recv_until(|m| m["type"] == "room" && m["code"] == code)
        .await;

    // A rated room: a clock and the stand-in for the away, no built-in bots.
    let (mut cy, _) = player(&server, "cy", false).await;
    let rated = cy
        .request(json!({"type": "create", "seats": 2, "rated": true}))
        .await;
    assert_eq!(rated["rated"], true, "{rated}");
    assert_eq!(rated["clock"]["initial_s"], 1, "{rated}");
    assert_eq!(rated["clock"]["stand_in_when_away"], true, "{rated}");
    let bot = cy
        .request(json!({"type": "add_bot", "level": "greedy"}))
        .await;
    assert_eq!(bot["code"], "rated_room", "{bot}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_the_wait_bots_fill_the_seats_and_only_people_are_rated() {
    let db = TestDatabase::sqlite();
    let server = TestServer::start_with(config(&db)).await;
    for bad in [0, 601] {
        let (mut c, _) = player(&server, "x", false).await;
        let reply = c
            .request(json!({"type": "queue", "players": 2, "bot_after_s": bad}))
            .await;
        assert_eq!(reply["code"], "invalid_field", "{bad}: {reply}");
        assert!(
            reply["message"].as_str().unwrap().contains("1 to 600"),
            "{reply}"
        );
    }
    // Alone: after a second, a greedy bot takes the other seat.
    let (mut ann, ann_hello) = player(&server, "ann", false).await;
    let queued = ann
        .request(json!({"type": "queue", "players": 2, "bot_after_s": 1}))
        .await;
    assert_eq!(queued["bot_after_s"], 1, "{queued}");
    let room = matched(&mut ann).await;
    let seats = room["seats"].as_array().unwrap();
    assert_eq!(
        seats.iter().filter(|s| s["bot"] == "greedy").count(),
        1,
        "{room}"
    );
    play_out(&mut ann, 3).await;
    let (status, _) = server
        .http_get(&format!(
            "/api/players/{}",
            ann_hello["player_id"].as_str().unwrap()
        ))
        .await;
    assert_eq!(status, 404, "a person alone with bots is not rated");

    // Two people for a game of three, one of them unwilling to wait: the
    // game starts with both and a bot, and both are rated.
    let (mut bob, bob_hello) = player(&server, "bob", false).await;
    let (mut cy, cy_hello) = player(&server, "cy", false).await;
    queue(&mut bob, 3).await;
    cy.request(json!({"type": "queue", "players": 3, "bot_after_s": 1}))
        .await;
    let (b, c) = tokio::join!(matched(&mut bob), matched(&mut cy));
    assert_eq!(b["code"], c["code"]);
    let seats = b["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 3);
    assert_eq!(
        seats.iter().filter(|s| s["bot"] == "greedy").count(),
        1,
        "{b}"
    );
    let (rb, rc) = tokio::join!(play_out(&mut bob, 5), play_out(&mut cy, 6));
    assert_eq!(rb["ranking"], rc["ranking"]);
    for hello in [&bob_hello, &cy_hello] {
        let r = rating(&server, hello["player_id"].as_str().unwrap()).await;
        assert_eq!(r["games"], 1, "{r}");
        assert_eq!(r["recent"][0]["players"], 3, "{r}");
        // The other person by id, the built-in bot by its level.
        let opponents = r["recent"][0]["opponents"].as_array().unwrap();
        assert_eq!(opponents.len(), 2, "{r}");
        assert_eq!(
            opponents
                .iter()
                .filter(|o| o["bot"] == "greedy" && o.get("player_id").is_none())
                .count(),
            1,
            "{r}"
        );
        assert!(
            opponents
                .iter()
                .any(|o| o["player_id"] == bob_hello["player_id"]
                    || o["player_id"] == cy_hello["player_id"]),
            "{r}"
        );
    }
}

#[tokio::test]
async fn a_second_connection_of_a_queued_session_takes_over_its_place() {
    let db = TestDatabase::sqlite();
    let server = TestServer::start_with(config(&db)).await;
    let (mut first, hello) = player(&server, "ann", false).await;
    queue(&mut first, 2).await;
    // A second tab: the first connection is replaced (closed), the queue
    // entry stays present on the second one.
    let mut second = TestClient::connect(&server, "ann").await;
    second.resume(hello["token"].as_str().unwrap()).await;
    second.recv_type("queued").await;
    assert_eq!(first.expect_close().await.0, 4001);
    let (mut bob, _) = player(&server, "bob", false).await;
    queue(&mut bob, 2).await;
    let a = matched(&mut second).await;
    let b = matched(&mut bob).await;
    assert_eq!(a["code"], b["code"]);
}

#[tokio::test]
async fn a_session_waiting_in_the_queue_is_not_closed_as_idle() {
    let db = TestDatabase::sqlite();
    let server = TestServer::start_with(Config {
        idle_timeout: Duration::from_millis(300),
        ..config(&db)
    })
    .await;
    let (mut ann, _) = player(&server, "ann", false).await;
    queue(&mut ann, 2).await;
    // Another session, identified after Ann and queued for nothing, is
    // closed as idle: the idle time has passed for Ann too.
    let (mut idle, _) = player(&server, "idle", false).await;
    let (code, reason) = idle.expect_close().await;
    assert!(reason.starts_with("idle"), "{code} {reason}");
    let (mut bob, _) = player(&server, "bob", false).await;
    queue(&mut bob, 2).await;
    let a = matched(&mut ann).await;
    let b = matched(&mut bob).await;
    assert_eq!(a["code"], b["code"]);
}

/// Issue 22, defect 1: `leave` keeps a player's seat in a running game, so
/// a session that left may not queue again (nor sit at another rated
/// table) until that game is over: otherwise one connection could spawn
/// rated games for the stand-in to play under its name. Unrated rooms and
/// its own seat stay open to it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_leaves_a_running_game_cannot_queue_until_it_is_over() {
    let db = TestDatabase::sqlite();
    let server = TestServer::start_with(Config {
        // Long enough for ann's requests below to find the game running
        // (a game of stand-ins takes seconds per turn), short enough for
        // her first turn, if she left during it, to run out at once.
        quick_play_clock: "2s+0s".parse().expect("a clock"),
        ..config(&db)
    })
    .await;
    let (mut ann, _) = player(&server, "ann", false).await;
    let (mut bob, _) = player(&server, "bob", false).await;
    queue(&mut ann, 2).await;
    queue(&mut bob, 2).await;
    let code = matched(&mut ann).await["code"].as_str().unwrap().to_owned();
    matched(&mut bob).await;
    let left = ann.request(json!({"type": "leave"})).await;
    assert_eq!(left["type"], "left", "{left}");

    let refused = ann.request(json!({"type": "queue", "players": 2})).await;
    assert_eq!(refused["code"], "seat_held", "{refused}");
    assert!(
        refused["message"].as_str().unwrap().contains(&code),
        "the message names the game: {refused}"
    );
    let rated = ann
        .request(json!({"type": "create", "seats": 2, "rated": true}))
        .await;
    assert_eq!(rated["code"], "seat_held", "{rated}");
    let (mut cy, _) = player(&server, "cy", false).await;
    let cys = cy
        .request(json!({"type": "create", "seats": 2, "rated": true}))
        .await;
    let cys = cys["code"].as_str().unwrap().to_owned();
    let join = ann.request(json!({"type": "join", "code": cys})).await;
    assert_eq!(join["code"], "seat_held", "{join}");
    // Nothing changed: nobody else queued.
    assert_eq!(server.metric("splendor_quick_play_queued_total").await, 2.0);
    // Watching it is fine, and so is an unrated table.
    let watch = ann
        .request(json!({"type": "join", "code": cys, "as": "spectator"}))
        .await;
    assert_eq!(watch["type"], "room", "{watch}");
    assert_eq!(ann.request(json!({"type": "leave"})).await["type"], "left");
    let casual = ann.request(json!({"type": "create", "seats": 2})).await;
    assert_eq!(casual["type"], "room", "{casual}");
    assert_eq!(ann.request(json!({"type": "leave"})).await["type"], "left");
    // Its own seat is always there to take back.
    let back = ann.request(json!({"type": "join", "code": code})).await;
    assert_eq!(back["type"], "room", "{back}");
    assert_eq!(back["you"]["role"], "player", "{back}");
    assert_eq!(ann.request(json!({"type": "leave"})).await["type"], "left");

    // Bob plays on against the stand-in to the end; then ann is free.
    play_out(&mut bob, 22).await;
    queue(&mut ann, 2).await;
}
