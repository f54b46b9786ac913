//! R13, resigning, against the real server over real sockets: the
//! `resign` message, what every player and spectator is shown, the
//! stand-in playing a resigned seat to the end, a rated resignation as a
//! loss (R13.3), and a session that resigned free to queue again.

use serde_json::{Value, json};
use splendor_e2e::{Dice, TestClient, TestDatabase, TestServer, open_table};
use splendor_server::Config;

fn config(db: &TestDatabase) -> Config {
    Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        bot_delay_ms: 0,
        database_url: Some(db.url.parse().expect("a database URL")),
        ..Config::default()
    }
}

/// Reads until the `events` of a resignation; returns them.
async fn resigned_events(client: &mut TestClient) -> Value {
    client
        .recv_until(|m| {
            m["type"] == "events"
                && m["events"]
                    .as_array()
                    .is_some_and(|e| e.iter().any(|e| e["event"] == "resigned"))
        })
        .await
}

/// R13.1, R13.2: three people, one resigns out of turn; everyone is told,
/// the game goes on with the stand-in in the seat (the person's moves
/// refused), the resigned rank last, and the session is free to queue.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r13_2_the_stand_in_plays_a_resigned_seat_to_the_end_and_the_player_is_free() {
    let db = TestDatabase::sqlite();
    let server = TestServer::start_with(config(&db)).await;
    let mut table = open_table(&server, &["ann", "bob", "cy"]).await;
    let (states, _) = table.states_at(0).await;
    let to_act = states[0].to_act.expect("someone acts first") as usize;
    // A seat that is not to move resigns (R13.1: whoever is to move).
    let quitter = (to_act + 1) % 3;
    let reply = table.players[quitter]
        .request(json!({"type": "resign"}))
        .await;
    // The answer is the resignation's events, with the request's id.
    assert_eq!(reply["type"], "events", "{reply}");
    assert!(reply["id"].is_string(), "{reply}");
    assert_eq!(reply["version"], 1, "{reply}");
    assert_eq!(
        reply["events"],
        json!([{"event": "resigned", "seat": quitter}]),
        "{reply}"
    );
    for i in 0..3 {
        if i != quitter {
            resigned_events(&mut table.players[i]).await;
        }
    }
    resigned_events(&mut table.spectator).await;
    let (states, public) = table.states_at(1).await;
    assert_eq!(public.resigned, [quitter as u8]);
    assert_eq!(states[quitter].resigned, [quitter as u8]);
    // The turn did not move.
    assert_eq!(states[0].to_act, Some(to_act as u8));

    // Twice is a rule error; a move of the person is refused.
    let again = table.players[quitter]
        .request(json!({"type": "resign"}))
        .await;
    assert_eq!(again["code"], "already_resigned", "{again}");
    assert_eq!(again["rule"], "R13.1", "{again}");
    let moved = table.players[quitter]
        .request(json!({"type": "act", "action": "pass"}))
        .await;
    assert_eq!(moved["code"], "resigned", "{moved}");

    // The player to move at version 1 moves (its state was read above).
    let legal = states[to_act].legal_actions.clone().expect("legal actions");
    let first = splendor_e2e::choose(&legal, &mut Dice(6)).clone();
    let moved = table.players[to_act]
        .request(json!({"type": "act", "action": first, "expect_version": 1}))
        .await;
    assert_eq!(moved["type"], "events", "{moved}");

    // It leaves and queues at once: resigning held no seat (R13.2).
    let mut quitter_client = table.players.remove(quitter);
    assert_eq!(
        quitter_client.request(json!({"type": "leave"})).await["type"],
        "left"
    );
    let queued = quitter_client
        .request(json!({"type": "queue", "players": 4}))
        .await;
    assert_eq!(queued["type"], "queued", "{queued}");

    // The two left play to the end; the stand-in moves the resigned seat.
    let mut a = table.players.remove(0);
    let mut b = table.players.remove(0);
    let (mut dice_a, mut dice_b) = (Dice(7), Dice(8));
    let (ra, rb) = tokio::join!(
        a.play_until_result(&mut dice_a),
        b.play_until_result(&mut dice_b)
    );
    assert_eq!(ra["ranking"], rb["ranking"]);
    assert_eq!(ra["resigned"], json!([quitter]), "{ra}");
    let ranking = ra["ranking"].as_array().expect("a ranking");
    let last = ranking.last().expect("three seats");
    assert_eq!(last["seat"], quitter, "{ra}");
    assert_eq!(last["rank"], 3, "{ra}");
    assert!(
        !ra["winners"].as_array().unwrap().contains(&json!(quitter)),
        "{ra}"
    );
    // The stand-in made the resigned seat's moves (R12.4).
    assert!(
        !ra["stand_in_actions"]
            .as_array()
            .expect("stand-in moves")
            .is_empty(),
        "{ra}"
    );
    // The replay has the resignation and verifies.
    let game = ra["game"].as_str().unwrap();
    let (status, body) = server.http_get(&format!("/api/games/{game}/replay")).await;
    assert_eq!(status, 200, "{body}");
    let replay: splendor_replay::Replay = serde_json::from_str(&body).expect("a replay");
    assert!(
        replay
            .actions
            .iter()
            .any(|s| s.action == splendor_protocol::WireAction::Resign),
        "{body}"
    );
    splendor_replay::verify(&replay).expect("the replay verifies");
}

/// Every one of `players` queues for a game of two; all of them are matched
/// and see its first state.
async fn queue_and_match(players: &mut [(TestClient, String)]) {
    for (client, _) in players.iter_mut() {
        let queued = client.request(json!({"type": "queue", "players": 2})).await;
        assert_eq!(queued["type"], "queued", "{queued}");
    }
    for (client, _) in players.iter_mut() {
        client.recv_type("matched").await;
        client
            .recv_until(|m| m["type"] == "state" && m["version"] == 0)
            .await;
    }
}

/// R13.2, R13.3, R13.4: in a rated game of two, a resignation ends the
/// game at once and is a loss, whatever the position: the one who resigned
/// loses rating, the other gains; but a game resigned before the resigner
/// made 5 moves of their own is unrated (R13.4): no rating moves, no game
/// counts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r13_3_a_rated_resignation_ends_the_game_and_is_a_loss() {
    let db = TestDatabase::sqlite();
    let server = TestServer::start_with(config(&db)).await;
    let mut players = Vec::new();
    for name in ["ann", "bob"] {
        let mut client = TestClient::connect(&server, name).await;
        let welcome = client.request(json!({"type": "hello", "name": name})).await;
        let id = welcome["player_id"].as_str().unwrap().to_owned();
        players.push((client, id));
    }
    // R13.4: resigned at move 0, the game ends, Bob first, and is unrated.
    queue_and_match(&mut players).await;
    {
        let (ann, ann_id) = &mut players[0];
        let reply = ann.request(json!({"type": "resign"})).await;
        assert_eq!(reply["type"], "events", "{reply}");
        let result = ann.recv_type("result").await;
        assert_eq!(result["ranking"][0]["name"], "bob", "{result}");
        let (status, body) = server.http_get(&format!("/api/players/{ann_id}")).await;
        assert_eq!(status, 404, "R13.4: no rated game counts: {body}");
        ann.request(json!({"type": "leave"})).await;
    }
    {
        let (bob, bob_id) = &mut players[1];
        bob.recv_type("result").await;
        let (status, body) = server.http_get(&format!("/api/players/{bob_id}")).await;
        assert_eq!(status, 404, "R13.4: no rated game counts: {body}");
        bob.request(json!({"type": "leave"})).await;
    }
    // Six moves each, then Ann resigns: rated, a loss (R13.3).
    queue_and_match(&mut players).await;
    {
        let (first, second) = players.split_at_mut(1);
        let ((ann, _), (bob, _)) = (&mut first[0], &mut second[0]);
        // The first state was read by queue_and_match: each asks again.
        ann.send_with_id(json!({"type": "sync"})).await;
        bob.send_with_id(json!({"type": "sync"})).await;
        let (mut ann_dice, mut bob_dice) = (Dice(3), Dice(4));
        tokio::join!(
            ann.play_turns(&mut ann_dice, 6),
            bob.play_turns(&mut bob_dice, 6)
        );
    }
    let (ann, ann_id) = &mut players[0];
    let reply = ann.request(json!({"type": "resign"})).await;
    assert_eq!(reply["type"], "events", "{reply}");
    let kinds: Vec<&str> = reply["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["resigned", "game_over"], "{reply}");
    let result = ann.recv_type("result").await;
    let ann_id = ann_id.clone();
    let (bob, bob_id) = &mut players[1];
    let bobs = bob.recv_type("result").await;
    assert_eq!(result["ranking"], bobs["ranking"]);
    assert_eq!(result["ranking"][0]["name"], "bob", "{result}");
    assert_eq!(result["ranking"][1]["rank"], 2, "{result}");
    let rating = |id: String| {
        let server = &server;
        async move {
            let (status, body) = server.http_get(&format!("/api/players/{id}")).await;
            assert_eq!(status, 200, "{body}");
            serde_json::from_str::<Value>(&body).unwrap()["rating"]
                .as_f64()
                .unwrap()
        }
    };
    let (ann_rating, bob_rating) = (rating(ann_id).await, rating(bob_id.clone()).await);
    assert!(
        ann_rating < 1500.0 && bob_rating > 1500.0,
        "{ann_rating} {bob_rating}"
    );
}
