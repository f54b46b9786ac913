//! Telling players who are away (issue 25) against the real server: the
//! settings API (`/api/me/notifications`) with its refusals, and webhook
//! deliveries to a receiver inside the test, each checked against the
//! secret the settings gave: a turn-based game's turn, chat and end reach
//! the player who is away, as they asked, signed; nothing reaches a player
//! who asked for nothing. A public server posts only to public HTTPS
//! addresses (unit tests in `notify/webhook.rs`); this server is allowed
//! the test's loopback receiver.

use std::time::Duration;

use hmac::{Hmac, Mac};
use serde_json::{Value, json};
use sha2::Sha256;
use splendor_e2e::hook::receiver;
use splendor_e2e::process::http_request;
use splendor_e2e::{TestClient, TestServer};
use splendor_server::Config;

async fn call(server: &TestServer, method: &str, token: &str, body: &str) -> (u16, Value) {
    let auth = format!("Bearer {token}");
    let (status, text) = http_request(
        server.addr(),
        method,
        "/api/me/notifications",
        &[
            ("Authorization", &auth),
            ("Content-Type", "application/json"),
        ],
        body,
    )
    .await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test]
async fn settings_are_checked_kept_and_need_the_sessions_token() {
    // A public server's rules: HTTPS to public addresses only.
    let server = TestServer::start().await;
    let ann = TestClient::join_server(&server, "ann").await;
    let token = ann.token.clone().unwrap();
    for (method, auth) in [("GET", "nope"), ("PUT", "nope"), ("DELETE", "")] {
        let (status, body) = call(&server, method, auth, "{}").await;
        assert_eq!(status, 401, "{method}: {body}");
    }
    for (body, says) in [
        (r#"{"events":["your_turn","weather"]}"#, "not an event"),
        (
            r#"{"events":[],"webhook":"http://hooks.example.org/x"}"#,
            "https://",
        ),
        (
            r#"{"events":[],"webhook":"https://127.0.0.1/x"}"#,
            "public address",
        ),
        (
            r#"{"events":[],"webhook":"https://169.254.169.254/latest"}"#,
            "public address",
        ),
        (
            r#"{"events":[],"webhook":"https://localhost/x"}"#,
            "public address",
        ),
        (
            r#"{"events":[],"webhook":"https://u:p@hooks.example.org/x"}"#,
            "password",
        ),
        (r#"{"events":[],"sms":"+31"}"#, "unknown field"),
        ("not json", "expected"),
    ] {
        let (status, answer) = call(&server, "PUT", &token, body).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["error"], "invalid_settings", "{body}: {answer}");
        assert!(
            answer["message"].as_str().unwrap().contains(says),
            "{body}: {answer}"
        );
    }
    let long = format!(
        r#"{{"webhook":"https://hooks.example.org/{}"}}"#,
        "a".repeat(600)
    );
    assert_eq!(call(&server, "PUT", &token, &long).await.0, 400);
    // Nothing was kept by the refusals.
    let (status, now) = call(&server, "GET", &token, "").await;
    assert_eq!(status, 200);
    assert_eq!(now, json!({"events": [], "webhook": null}));

    let (status, set) = call(
        &server,
        "PUT",
        &token,
        r#"{"events":["your_turn","chat","your_turn"],"webhook":"https://hooks.example.org/splendor"}"#,
    )
    .await;
    assert_eq!(status, 200, "{set}");
    assert_eq!(set["events"], json!(["your_turn", "chat"]));
    let secret = set["secret"].as_str().unwrap();
    assert_eq!(secret.len(), 64, "{set}");
    // The secret is shown once.
    let (_, now) = call(&server, "GET", &token, "").await;
    assert_eq!(
        now,
        json!({"events": ["your_turn", "chat"], "webhook": "https://hooks.example.org/splendor"})
    );
    assert_eq!(call(&server, "DELETE", &token, "").await.0, 204);
    let (_, now) = call(&server, "GET", &token, "").await;
    assert_eq!(now, json!({"events": [], "webhook": null}));
}

#[tokio::test]
async fn a_player_away_is_told_of_their_turn_the_chat_and_the_end_signed() {
    let server = TestServer::start_with(Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        webhook_allow_private: true,
        ..Config::default()
    })
    .await;
    let (url, mut deliveries) = receiver().await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    let (status, set) = call(
        &server,
        "PUT",
        &bob.token.clone().unwrap(),
        &json!({"events": ["your_turn", "chat", "game_over"], "webhook": url}).to_string(),
    )
    .await;
    assert_eq!(status, 200, "{set}");
    let secret = set["secret"].as_str().unwrap().to_owned();

    let room = ann
        .request(json!({"type": "create", "seats": 2, "turn_based": {"per_move_s": 86_400}}))
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    ann.request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    // Bob goes, keeping his seat; Ann moves, writes, and resigns.
    bob.request(json!({"type": "leave"})).await;
    let state = ann.state().await;
    let action = state.legal_actions.unwrap()[0].clone();
    ann.request(json!({"type": "act", "action": action, "expect_version": 0}))
        .await;
    ann.request(json!({"type": "chat", "text": "your move, Bob"}))
        .await;
    ann.request(json!({"type": "resign"})).await;

    let mut seen = Vec::new();
    for _ in 0..3 {
        let delivery = tokio::time::timeout(Duration::from_secs(10), deliveries.recv())
            .await
            .expect("a delivery in time")
            .expect("the receiver runs");
        let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap();
        mac.update(&delivery.body);
        let expected: String = mac
            .finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            delivery.signature,
            format!("sha256={expected}"),
            "{delivery:?}"
        );
        let body: Value = serde_json::from_slice(&delivery.body).unwrap();
        assert_eq!(body["room"], code.as_str(), "{body}");
        assert_eq!(body["event"], delivery.event.as_str(), "{body}");
        // Not the chat's text: who wrote, not what.
        let text = body.to_string();
        assert!(!text.contains("your move"), "{text}");
        seen.push(body);
    }
    seen.sort_by_key(|b| b["event"].as_str().unwrap().to_owned());
    let events: Vec<&str> = seen.iter().map(|b| b["event"].as_str().unwrap()).collect();
    assert_eq!(events, ["chat", "game_over", "your_turn"]);
    assert_eq!(seen[0]["from"], "ann");
    let left = seen[2]["left_s"].as_u64().unwrap();
    assert!((86_000..=86_400).contains(&left), "{left}");
    // Bob was told once of each: three deliveries in all, counted as sent
    // (the receiver hands a delivery over before it answers: the server
    // counts it once the answer is in).
    let counted = "splendor_notices_total{reason=\"sent\"} 3";
    tokio::time::timeout(Duration::from_secs(10), async {
        while !server.http_get("/metrics").await.1.contains(counted) {
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("three notices counted as sent");
}
