//! The operators close a room (issue 22), against the real server on port
//! 0: everyone in it is told why in their language; a game in play ends
//! first, listed as ended by the operators with the standings it stopped
//! at and no winner, unrated, and its replay verifies; a waiting room just
//! closes. Audited; bad requests change nothing.

use serde_json::{Value, json};
use splendor_e2e::operators::{TOKEN, with_token};
use splendor_e2e::process::{http_get_with, http_post_with};
use splendor_e2e::{TestClient, TestServer};

async fn post(server: &TestServer, path: &str, body: &str) -> (u16, Value) {
    let auth = format!("Bearer {TOKEN}");
    let (status, text) =
        http_post_with(server.addr(), path, &[("Authorization", &auth)], body).await;
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

async fn get(server: &TestServer, path: &str) -> Value {
    let auth = format!("Bearer {TOKEN}");
    let (status, text) = http_get_with(server.addr(), path, &[("Authorization", &auth)]).await;
    assert_eq!(status, 200, "{path}: {text}");
    serde_json::from_str(&text).unwrap()
}

async fn player(server: &TestServer, name: &str, lang: &str) -> TestClient {
    let mut client = TestClient::connect(server, name).await;
    let welcome = client
        .request(json!({"type": "hello", "name": name, "lang": lang}))
        .await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    client
}

#[tokio::test]
async fn a_game_in_play_ends_by_the_operators_unrated_and_its_replay_verifies() {
    let server = with_token().await;
    let mut ann = player(&server, "ann", "en").await;
    let mut bob = player(&server, "bob", "nl").await;
    let room = ann
        .request(json!({"type": "create", "seats": 2, "rated": true}))
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    let started = ann
        .request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    assert_eq!(started["status"], "playing", "{started}");
    // A few moves: each takes three tokens while it can.
    let take = json!({"type": "act", "action": {"take": ["white", "blue", "green"]}});
    let took = ann.request(take.clone()).await;
    assert_eq!(took["type"], "events", "{took}");
    let take = json!({"type": "act", "action": {"take": ["red", "black", "green"]}});
    let took = bob.request(take).await;
    assert_eq!(took["type"], "events", "{took}");

    // Bad requests first: nothing changes.
    let path = format!("/api/admin/rooms/{code}/close");
    for (body, status_wanted) in [("{", 400), (r#"{"reason":" "}"#, 400), ("{}", 400)] {
        let (status, answer) = post(&server, &path, body).await;
        assert_eq!(status, status_wanted, "{body}: {answer}");
    }
    let (status, answer) = post(&server, "/api/admin/rooms/ZZZZZ/close", r#"{"reason":"x"}"#).await;
    assert_eq!(status, 404, "{answer}");

    let (status, answer) = post(&server, &path, r#"{"reason":"abuse at the table"}"#).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["closed"], code.as_str());
    // Both are told, each in their language, with the reason.
    let told = ann.recv_type("room_closed").await;
    assert!(
        told["reason"]
            .as_str()
            .unwrap()
            .contains("operators closed this room: abuse at the table"),
        "{told}"
    );
    let told = bob.recv_type("room_closed").await;
    assert!(
        told["reason"].as_str().unwrap().contains("beheerders"),
        "{told}"
    );
    // The room is gone; its game is listed as ended by the operators.
    let rooms = get(&server, "/api/admin/rooms").await;
    assert_eq!(rooms["rooms"], json!([]), "{rooms}");
    let (status, list) = server.http_get("/api/games").await;
    assert_eq!(status, 200, "{list}");
    let list: Value = serde_json::from_str(&list).unwrap();
    let game = &list["games"][0];
    assert_eq!(game["ended_by_operators"], "abuse at the table", "{list}");
    assert_eq!(game["winners"], json!([]), "{game}");
    let points: Vec<u64> = game["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["points"].as_u64().unwrap())
        .collect();
    assert_eq!(points, [0, 0], "{game}");
    // Its replay verifies, and says how it ended.
    let id = game["id"].as_str().unwrap();
    let (status, text) = server.http_get(&format!("/api/games/{id}/replay")).await;
    assert_eq!(status, 200, "{text}");
    let replay = splendor_replay::Replay::from_json(&text).expect("a replay");
    assert_eq!(
        replay.ended_by_operators.as_deref(),
        Some("abuse at the table")
    );
    assert_eq!(replay.actions.len(), 2);
    let report = splendor_replay::verify(&replay).expect("the replay verifies");
    assert!(
        report
            .to_string()
            .contains("ended by the server's operators"),
        "{report}"
    );
    // Unrated: nobody was rated.
    let (status, board) = server.http_get("/api/leaderboard").await;
    assert_eq!(status, 200, "{board}");
    let board: Value = serde_json::from_str(&board).unwrap();
    assert_eq!(board["players"], json!([]), "{board}");
    // Audited.
    let audit = get(&server, "/api/admin/audit").await;
    let entry = &audit["entries"][0];
    assert_eq!(entry["action"], "close", "{audit}");
    assert_eq!(entry["target"], format!("room:{code}"), "{audit}");
    // Both may play on elsewhere.
    let again = ann.request(json!({"type": "create", "seats": 2})).await;
    assert_eq!(again["type"], "room", "{again}");
}

#[tokio::test]
async fn a_waiting_room_closes_and_everyone_in_it_is_told() {
    let server = with_token().await;
    let mut ann = player(&server, "ann", "fr").await;
    let mut cy = player(&server, "cy", "de").await;
    let room = ann.request(json!({"type": "create", "seats": 3})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    cy.request(json!({"type": "join", "code": code, "as": "spectator"}))
        .await;
    let (status, answer) = post(
        &server,
        &format!("/api/admin/rooms/{code}/close"),
        r#"{"reason":"nom de salle injurieux"}"#,
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    let told = ann.recv_type("room_closed").await;
    assert!(
        told["reason"]
            .as_str()
            .unwrap()
            .contains("ont fermé cette salle"),
        "{told}"
    );
    let told = cy.recv_type("room_closed").await;
    assert!(
        told["reason"].as_str().unwrap().contains("geschlossen"),
        "{told}"
    );
    let back = ann.request(json!({"type": "join", "code": code})).await;
    assert_eq!(back["code"], "room_not_found", "{back}");
    let (status, list) = server.http_get("/api/games").await;
    assert_eq!(
        (status, list.contains(&code)),
        (200, false),
        "no game was played"
    );
}
