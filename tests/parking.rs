//! Turn-based games parked in the database (issue 25, R12.5) against the
//! real server: once both players of a turn-based game went, the game
//! waits in the store with no room (the rooms gauge drops to 0); "My
//! games" still lists it with its deadline; a join of its code brings it
//! back where it was and play goes on; and a parked game whose deadline
//! passes is loaded by the sweeper and its deadline applied once (the
//! player resigns), exactly once even when the server is killed (SIGKILL)
//! in the middle of a sweep, on SQLite and PostgreSQL. A test setting
//! lowers the shortest time per move to a second and parks after a tenth of
//! a second, so the tests wait for messages and for the server's own
//! counts, not for the clock.

use std::time::Duration;

use serde_json::{Value, json};
use splendor_e2e::process::http_get_with;
use splendor_e2e::{SAFETY_TIMEOUT, ServerProcess, TestClient, TestDatabase, TestServer};
use splendor_server::Config;

fn config(per_move_min: u64) -> Config {
    Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        max_api_requests_per_ip_per_minute: 0,
        bot_delay_ms: 0,
        min_per_move: Duration::from_secs(per_move_min),
        park_after: Duration::from_millis(100),
        park_sweep_every: Duration::from_millis(50),
        ..Config::default()
    }
}

/// The rooms the server runs, of every status.
async fn rooms(server: &TestServer) -> f64 {
    let (_, text) = server.http_get("/metrics").await;
    text.lines()
        .filter(|l| l.starts_with("splendor_rooms{"))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

/// Waits until the server runs `count` rooms.
async fn rooms_running(server: &TestServer, count: f64) {
    tokio::time::timeout(SAFETY_TIMEOUT, async {
        while rooms(server).await != count {
            tokio::task::yield_now().await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("{count} rooms running"));
}

async fn my_games(server: &TestServer, token: &str) -> Value {
    let auth = format!("Bearer {token}");
    let (status, body) =
        http_get_with(server.addr(), "/api/me/games", &[("Authorization", &auth)]).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// Ann and Bob start a turn-based game, Ann moves, both leave keeping
/// their seats; the room's code.
async fn played_and_left(ann: &mut TestClient, bob: &mut TestClient, turn_based: Value) -> String {
    let room = ann
        .request(json!({"type": "create", "seats": 2, "turn_based": turn_based}))
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    ann.request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    let state = ann.state().await;
    let action = state.legal_actions.unwrap()[0].clone();
    ann.request(json!({"type": "act", "action": action, "expect_version": 0}))
        .await;
    ann.request(json!({"type": "leave"})).await;
    bob.request(json!({"type": "leave"})).await;
    code
}

#[tokio::test]
async fn a_game_nobody_is_at_waits_in_the_store_and_a_join_brings_it_back() {
    let server = TestServer::start_with(config(1)).await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    let code = played_and_left(&mut ann, &mut bob, json!({"per_move_s": 86_400})).await;
    // Parked: no room runs it any more.
    rooms_running(&server, 0.0).await;
    // Bob's games still list it: his turn, with its deadline.
    let listed = my_games(&server, bob.token.as_ref().unwrap()).await;
    let game = &listed["games"][0];
    assert_eq!(game["room"], code.as_str(), "{listed}");
    assert_eq!(game["your_turn"], true, "{listed}");
    let left = game["deadline"].as_i64().unwrap() - listed["now"].as_i64().unwrap();
    assert!((86_000_000..=86_400_000).contains(&left), "{left}");

    // Bob opens it: the game where it was, his turn, and play goes on.
    let joined = bob.request(json!({"type": "join", "code": code})).await;
    assert_eq!(joined["type"], "room", "{joined}");
    let state = bob.state().await;
    assert_eq!(state.version, 1);
    assert_eq!(state.to_act, Some(1));
    let action = state.legal_actions.unwrap()[0].clone();
    let done = bob
        .request(json!({"type": "act", "action": action, "expect_version": 1}))
        .await;
    assert_ne!(done["type"], "error", "{done}");
    // Ann comes back too and sees Bob's move.
    ann.request(json!({"type": "join", "code": code})).await;
    assert_eq!(ann.state().await.version, 2);
}

#[tokio::test]
async fn a_parked_deadline_is_applied_by_the_sweeper_once() {
    // Three seconds a move, resigning: Bob's turn passes while the game
    // is parked.
    let server = TestServer::start_with(config(1)).await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    let code = played_and_left(
        &mut ann,
        &mut bob,
        json!({"per_move_s": 3, "on_deadline": "resign"}),
    )
    .await;
    rooms_running(&server, 0.0).await;
    // The sweeper loads it once the deadline passed; Bob resigns (R12.5),
    // one person is left in play and the game ends (R13.2).
    let finished = tokio::time::timeout(SAFETY_TIMEOUT, async {
        loop {
            let (status, body) = server.http_get("/api/games?limit=5").await;
            assert_eq!(status, 200);
            let list: Value = serde_json::from_str(&body).unwrap();
            if let Some(game) = list["games"]
                .as_array()
                .and_then(|g| g.iter().find(|g| g["room"] == code.as_str()))
            {
                return game.clone();
            }
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("the parked game ends when its deadline passes");
    let id = finished["id"].as_str().unwrap();
    let (status, body) = server.http_get(&format!("/api/games/{id}/replay")).await;
    assert_eq!(status, 200, "{body}");
    let replay: Value = serde_json::from_str(&body).unwrap();
    let actions = replay["actions"].as_array().unwrap();
    // Ann's move and Bob's resignation: nothing fired twice.
    assert_eq!(actions.len(), 2, "{replay}");
    assert_eq!(actions[1]["seat"], 1, "{replay}");
    assert!(
        actions[1]["action"].to_string().contains("resign"),
        "{replay}"
    );
    assert_eq!(finished["winners"], json!([0]), "{finished}");
}

#[tokio::test]
async fn parked_games_count_against_the_sessions_turn_based_rooms() {
    let server = TestServer::start_with(Config {
        max_turn_based_rooms_per_session: 2,
        ..config(1)
    })
    .await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    for _ in 0..2 {
        played_and_left(&mut ann, &mut bob, json!({"per_move_s": 86_400})).await;
    }
    rooms_running(&server, 0.0).await;
    // Both wait in the store; a third is past the cap all the same.
    let refused = ann
        .request(json!({"type": "create", "seats": 2, "turn_based": {"per_move_s": 86_400}}))
        .await;
    assert_eq!(refused["code"], "too_many_session_rooms", "{refused}");
    // Live rooms count apart.
    let live = ann.request(json!({"type": "create", "seats": 2})).await;
    assert_eq!(live["type"], "room", "{live}");
}

#[tokio::test]
async fn a_parked_game_loaded_by_the_sweeper_does_not_take_its_players_from_their_tables() {
    let server = TestServer::start_with(config(1)).await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    // A turn-based game of three seconds a move, with the stand-in, parks.
    let parked = played_and_left(&mut ann, &mut bob, json!({"per_move_s": 3})).await;
    rooms_running(&server, 0.0).await;
    // Bob sits down at a live table with Cy meanwhile.
    let mut cy = TestClient::join_server(&server, "cy").await;
    let live = cy.request(json!({"type": "create", "seats": 2})).await;
    let live = live["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": live})).await;
    // Bob's deadline passes: the sweeper loads the game, the stand-in
    // plays his turn (R12.5), and it parks again on Ann's turn.
    let store_says = tokio::time::timeout(SAFETY_TIMEOUT, async {
        loop {
            let listed = my_games(&server, bob.token.as_ref().unwrap()).await;
            let game = listed["games"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["room"] == parked.as_str())
                .cloned();
            if let Some(game) = game
                && game["your_turn"] == false
            {
                return game;
            }
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("the stand-in plays Bob's turn of the parked game");
    assert_eq!(store_says["status"], "playing", "{store_says}");
    // Bob's connection drops and comes back: he is at Cy's table, where
    // he was, not in the game the sweeper loaded.
    let token = bob.token.clone().unwrap();
    drop(bob);
    let mut bob = TestClient::connect(&server, "bob").await;
    bob.resume(&token).await;
    let room = bob.recv_type("room").await;
    assert_eq!(room["code"], live.as_str(), "{room}");
}

/// The server binary (the root package's copy of `splendor-server`).
const SERVER: &str = env!("CARGO_BIN_EXE_splendor-server-e2e");

#[tokio::test]
async fn sqlite_a_sweep_killed_midway_applies_each_deadline_once() {
    sweep_killed_midway(TestDatabase::sqlite()).await;
}

#[tokio::test]
async fn postgres_a_sweep_killed_midway_applies_each_deadline_once() {
    if let Some(db) = TestDatabase::postgres("postgres_parked_sweep_killed").await {
        sweep_killed_midway(db).await;
    }
}

/// Twelve parked games whose deadlines (4 s, resigning) pass within a
/// moment of each other; the server is killed as soon as the sweeper has
/// loaded the first, and started again. Every game then ends with exactly
/// Ann's move and Bob's resignation, or, where the restart came between
/// the deadline's passing and its being applied, waits one more hour
/// (R12.5) with Ann's move alone: nothing fired twice, nothing was lost.
async fn sweep_killed_midway(db: TestDatabase) {
    const GAMES: usize = 12;
    let kind = db.kind;
    let env = [
        ("SPLENDOR_MIN_PER_MOVE", "1s"),
        ("SPLENDOR_PARK_AFTER", "100ms"),
        ("SPLENDOR_PARK_SWEEP_EVERY", "50ms"),
        ("SPLENDOR_MAX_TURN_BASED_ROOMS_PER_SESSION", "100"),
    ];
    let server = ServerProcess::start_with_env(SERVER, &db.url, &env).await;
    let mut ann = TestClient::connect_to(server.addr(), "ann").await;
    ann.hello().await;
    let mut bob = TestClient::connect_to(server.addr(), "bob").await;
    bob.hello().await;
    let mut codes = Vec::new();
    for _ in 0..GAMES {
        let room = ann
            .request(json!({"type": "create", "seats": 2, "turn_based": {"per_move_s": 4, "on_deadline": "resign"}}))
            .await;
        assert_eq!(room["type"], "room", "{kind}: {room}");
        let code = room["code"].as_str().unwrap().to_owned();
        bob.request(json!({"type": "join", "code": code})).await;
        ann.request(json!({"type": "start", "seat_order": "joined"}))
            .await;
        ann.request(json!({"type": "leave"})).await;
        bob.request(json!({"type": "leave"})).await;
        codes.push(code);
    }
    // Ann moves in each, one after the other: twelve deadlines close
    // together.
    for code in &codes {
        ann.request(json!({"type": "join", "code": code})).await;
        let state = ann.state().await;
        let action = state.legal_actions.unwrap()[0].clone();
        ann.request(json!({"type": "act", "action": action, "expect_version": 0}))
            .await;
        ann.request(json!({"type": "leave"})).await;
    }
    let store = splendor_store::Store::open(&db.url).await.unwrap();
    let games = tokio::time::timeout(SAFETY_TIMEOUT, async {
        loop {
            let mut games = Vec::new();
            for code in &codes {
                if let Ok(Some(parked)) = store.parked_room(code).await {
                    games.push(parked.game);
                }
            }
            if games.len() == GAMES {
                return games;
            }
            tokio::task::yield_now().await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("{kind}: every game parked"));
    // The first parked game loaded by the sweeper: kill it there.
    tokio::time::timeout(SAFETY_TIMEOUT, async {
        while store.parked_count().await.unwrap() == GAMES as i64 {
            tokio::task::yield_now().await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("{kind}: the sweeper loads a game"));
    server.kill().await;

    let server = ServerProcess::start_with_env(SERVER, &db.url, &env).await;
    let settled = tokio::time::timeout(SAFETY_TIMEOUT, async {
        loop {
            let mut settled = Vec::new();
            for &id in &games {
                let game = store.game(id).await.unwrap().unwrap();
                let parked = store.parked_room(&game.room_code).await.unwrap();
                let waits_an_hour = parked.as_ref().is_some_and(|p| {
                    p.deadline_at > splendor_store::unix_millis_now() + 50 * 60 * 1000
                });
                if game.finished.is_some() || waits_an_hour {
                    settled.push(game);
                }
            }
            if settled.len() == GAMES {
                return settled;
            }
            tokio::task::yield_now().await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("{kind}: every game ends or waits its hour"));
    let mut ended = 0;
    for game in &settled {
        let seats: Vec<u8> = game.actions.iter().map(|a| a.seat).collect();
        if game.finished.is_some() {
            ended += 1;
            assert_eq!(
                seats,
                [0, 1],
                "{kind}: {}: {:?}",
                game.room_code,
                game.actions
            );
            assert!(
                game.actions[1].action_json.contains("resign"),
                "{kind}: {:?}",
                game.actions
            );
        } else {
            assert_eq!(seats, [0], "{kind}: {}: {:?}", game.room_code, game.actions);
        }
    }
    // How many ended depends on where the kill fell; either way each
    // deadline was applied at most once, and none was lost.
    eprintln!("{kind}: {ended} of {GAMES} games ended, the others wait their hour");
    drop(server);
}

/// Issue 23: a parked game's chat comes back with it. Ann and Bob talk,
/// both go, the game is parked; Bob comes back a day later (in the
/// store's time) and finds the conversation, and Ann hers; a forgotten
/// player's lines are taken out of it.
#[tokio::test]
async fn a_parked_games_chat_comes_back_with_it_without_a_forgotten_players_lines() {
    let server = TestServer::start_with(Config {
        admin: splendor_server::config::AdminOptions {
            admin_token: Some(
                splendor_server::config::AdminToken::new("operators-token-0123456789")
                    .expect("a token"),
            ),
            admin_token_file: None,
        },
        ..config(1)
    })
    .await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    let mut cy = TestClient::connect(&server, "cy").await;
    let cy_session = cy.hello().await.session;
    let room = ann
        .request(json!({"type": "create", "seats": 2, "turn_based": {"per_move_s": 86_400}}))
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    cy.request(json!({"type": "join", "code": code, "as": "spectator"}))
        .await;
    ann.request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    let state = ann.state().await;
    for (who, text) in [(&mut ann, "see you tomorrow"), (&mut cy, "good luck both")] {
        who.request(json!({"type": "chat", "text": text})).await;
    }
    bob.request(json!({"type": "chat", "text": "good night"}))
        .await;
    let action = state.legal_actions.unwrap()[0].clone();
    ann.request(json!({"type": "act", "action": action, "expect_version": 0}))
        .await;
    for who in [&mut ann, &mut bob, &mut cy] {
        who.request(json!({"type": "leave"})).await;
    }
    rooms_running(&server, 0.0).await;

    // Cy asks to be forgotten while the game is parked.
    let (status, body) = splendor_e2e::process::http_post_with(
        server.addr(),
        &format!("/api/admin/players/{cy_session}/forget"),
        &[("Authorization", "Bearer operators-token-0123456789")],
        r#"{"reason":"asked"}"#,
    )
    .await;
    assert_eq!(status, 200, "{body}");

    bob.request(json!({"type": "join", "code": code})).await;
    let history = bob.recv_type("chat_history").await;
    let texts: Vec<&str> = history["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["see you tomorrow", "good night"], "{history}");
    assert_eq!(history["room"], code.as_str());
    assert_eq!(history["lines"][0]["from"], "ann");
    // The room goes on numbering its lines; a new line is told as ever.
    bob.request(json!({"type": "chat", "text": "back again"}))
        .await;
    ann.request(json!({"type": "join", "code": code})).await;
    let history = ann.recv_type("chat_history").await;
    assert_eq!(history["lines"].as_array().unwrap().len(), 3, "{history}");
}

/// Issue 45: an address's parked games count in its budget of unfinished
/// rooms. Fresh sessions of one address each start a turn-based game
/// against a bot and leave; the games park (their rooms close), and
/// before, the address could start as many again, and again: the store
/// filled with parked games. Now, with a budget of 3, the three parked
/// games hold it: a fourth is refused `too_many_rooms_from_address`, and
/// another address still plays.
#[tokio::test]
async fn an_addresss_parked_games_count_in_its_budget_of_rooms() {
    let server = TestServer::start_with(Config {
        client_ip_header: Some("x-forwarded-for".into()),
        max_rooms_per_ip: 3,
        ..config(1)
    })
    .await;
    let start_and_leave = |from: &'static str, n: usize| {
        let server = &server;
        async move {
            let mut client = TestClient::connect_with_headers(
                server,
                &format!("t{n}"),
                &[("X-Forwarded-For", from)],
            )
            .await
            .expect("connected");
            client.hello().await;
            let room = client
                .request(
                    json!({"type": "create", "seats": 2, "turn_based": {"per_move_s": 86_400}}),
                )
                .await;
            if room["type"] == "error" {
                return room;
            }
            client
                .request(json!({"type": "add_bot", "level": "greedy"}))
                .await;
            let started = client.request(json!({"type": "start"})).await;
            assert_eq!(started["status"], "playing", "{started}");
            client.request(json!({"type": "leave"})).await;
            room
        }
    };
    for n in 0..3 {
        let room = start_and_leave("203.0.113.50", n).await;
        assert_eq!(room["type"], "room", "{room}");
    }
    // All three parked: no room runs them.
    rooms_running(&server, 0.0).await;
    let refused = start_and_leave("203.0.113.50", 3).await;
    assert_eq!(refused["code"], "too_many_rooms_from_address", "{refused}");
    let other = start_and_leave("198.51.100.50", 4).await;
    assert_eq!(other["type"], "room", "{other}");
}
