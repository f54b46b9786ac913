//! Quick play keeps people and programs apart (issue 24) against the real
//! server: a person is never matched with a program (a person queued today
//! was matched with a `"bot":true` session and lost 162 points on the
//! people's board); each pool forms its own games, rated on its own board;
//! a person who asks for the programs' pool plays them unrated; a program
//! may not wait among people.

use std::time::Duration;

use serde_json::{Value, json};
use splendor_e2e::{TestClient, TestServer};
use splendor_server::Config;

fn config() -> Config {
    Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        bot_delay_ms: 0,
        min_grace: Some(Duration::from_millis(5)),
        quick_play_clock: "1s+0s".parse().expect("a clock"),
        ..Config::default()
    }
}

async fn player(server: &TestServer, name: &str, bot: bool) -> TestClient {
    let mut client = TestClient::connect(server, name).await;
    let welcome = client
        .request(json!({"type": "hello", "name": name, "bot": bot}))
        .await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    client
}

async fn queue(client: &mut TestClient, message: Value) -> Value {
    let queued = client.request(message).await;
    assert_eq!(queued["type"], "queued", "{queued}");
    queued
}

/// Reads until `matched` and the room it names.
async fn matched(client: &mut TestClient) -> Value {
    let found = client.recv_type("matched").await;
    let code = found["room"].as_str().unwrap().to_owned();
    client
        .recv_until(|m| m["type"] == "room" && m["code"] == code.as_str())
        .await
}

#[tokio::test]
async fn people_and_programs_wait_apart_and_each_pool_forms_its_own_games() {
    let server = TestServer::start_with(config()).await;
    let two = json!({"type": "queue", "players": 2});
    // A person and a program, queued one after the other, each wait alone.
    let mut ann = player(&server, "ann", false).await;
    let queued = queue(&mut ann, two.clone()).await;
    assert_eq!(
        (&queued["pool"], &queued["waiting"]),
        (&json!("people"), &json!(1))
    );
    let mut prog = player(&server, "prog", true).await;
    let queued = queue(&mut prog, two.clone()).await;
    assert_eq!(
        (&queued["pool"], &queued["waiting"]),
        (&json!("programs"), &json!(1))
    );
    // A second person completes the people's game; a second program the
    // programs' one. Each is rated (on its own board).
    let mut bob = player(&server, "bob", false).await;
    queue(&mut bob, two.clone()).await;
    let (a, b) = tokio::join!(matched(&mut ann), matched(&mut bob));
    assert_eq!(a["code"], b["code"]);
    assert_eq!(a["rated"], true, "{a}");
    let names: Vec<&str> = a["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"ann") && names.contains(&"bob"), "{a}");
    let mut other = player(&server, "other", true).await;
    queue(&mut other, two.clone()).await;
    let (p, o) = tokio::join!(matched(&mut prog), matched(&mut other));
    assert_eq!(p["code"], o["code"]);
    assert_ne!(p["code"], a["code"]);
    assert_eq!(p["rated"], true, "{p}");
}

#[tokio::test]
async fn a_person_may_play_programs_unrated_and_a_program_may_not_wait_among_people() {
    let server = TestServer::start_with(config()).await;
    let mut prog = player(&server, "prog", true).await;
    // A program among people: refused, not queued.
    let refused = prog
        .request(json!({"type": "queue", "players": 2, "pool": "people"}))
        .await;
    assert_eq!(refused["code"], "invalid_field", "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("among programs"),
        "{refused}"
    );
    let bad = prog
        .request(json!({"type": "queue", "players": 2, "pool": "robots"}))
        .await;
    assert_eq!(bad["code"], "invalid_field", "{bad}");
    let not_queued = prog.request(json!({"type": "unqueue"})).await;
    assert_eq!(not_queued["code"], "not_queued", "{not_queued}");
    // Queued as a program, then a person who chose the programs' pool.
    let queued = queue(&mut prog, json!({"type": "queue", "players": 2})).await;
    assert_eq!(queued["pool"], "programs");
    let mut ann = player(&server, "ann", false).await;
    let queued = queue(
        &mut ann,
        json!({"type": "queue", "players": 2, "pool": "programs"}),
    )
    .await;
    assert_eq!(queued["pool"], "programs");
    let (a, p) = tokio::join!(matched(&mut ann), matched(&mut prog));
    assert_eq!(a["code"], p["code"]);
    // Against programs by choice: not rated (a room says `rated` only
    // when it is), so no one's ratings move.
    assert_eq!(a.get("rated"), None, "{a}");
    assert_eq!(p.get("rated"), None, "{p}");
}

/// Issue 22: a session the operators marked is kept out of rated quick
/// play without being told: it waits apart (its `queued` says the people's
/// pool, as for anyone), is matched only with other marked sessions, and
/// their game is not rated.
#[tokio::test]
async fn a_marked_session_waits_apart_unrated_and_is_not_told() {
    use splendor_server::config::{AdminOptions, AdminToken};
    const TOKEN: &str = "operators-only-0123456789";
    let server = TestServer::start_with(Config {
        admin: AdminOptions {
            admin_token: Some(AdminToken::new(TOKEN).expect("a token")),
            admin_token_file: None,
        },
        ..config()
    })
    .await;
    let mark = |session: String| {
        let server = &server;
        async move {
            let auth = format!("Bearer {TOKEN}");
            let body = json!({"session": session, "reason": "farmed throwaway sessions"});
            let (status, answer) = splendor_e2e::process::http_post_with(
                server.addr(),
                "/api/admin/marks",
                &[("Authorization", auth.as_str())],
                &body.to_string(),
            )
            .await;
            assert_eq!(status, 201, "{answer}");
        }
    };
    let mut sessions = Vec::new();
    let mut clients = Vec::new();
    for name in ["farmer", "ann", "alt"] {
        let mut client = TestClient::connect(&server, name).await;
        let welcome = client.request(json!({"type": "hello", "name": name})).await;
        sessions.push(welcome["session"].as_str().unwrap().to_owned());
        clients.push(client);
    }
    mark(sessions[0].clone()).await;
    mark(sessions[2].clone()).await;
    let two = json!({"type": "queue", "players": 2});
    // The farmer and a person: each waits alone, the farmer told nothing.
    let queued = queue(&mut clients[0], two.clone()).await;
    assert_eq!(
        (&queued["pool"], &queued["waiting"]),
        (&json!("people"), &json!(1))
    );
    let queued = queue(&mut clients[1], two.clone()).await;
    assert_eq!(
        (&queued["pool"], &queued["waiting"]),
        (&json!("people"), &json!(1))
    );
    // Another marked session: matched with the farmer, unrated.
    queue(&mut clients[2], two.clone()).await;
    let (farmer, rest) = clients.split_at_mut(1);
    let (f, a) = tokio::join!(matched(&mut farmer[0]), matched(&mut rest[1]));
    assert_eq!(f["code"], a["code"]);
    assert_eq!(f.get("rated"), None, "{f}");
    // The person still waits for people.
    let unqueued = clients[1].request(json!({"type": "unqueue"})).await;
    assert_eq!(unqueued["type"], "unqueued", "{unqueued}");
}
