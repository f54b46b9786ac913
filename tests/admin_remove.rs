//! The operators remove a player from a room (issue 22), against the real
//! server on port 0: the player is told why in their language and
//! released, the seat resigns (RULES.md R13: the stand-in plays it to the
//! end, the player ranks last), the session may not come back but may play
//! elsewhere, the audit log has it; bad requests change nothing.

use serde_json::{Value, json};
use splendor_e2e::operators::{TOKEN, with_token};
use splendor_e2e::process::http_post_with;
use splendor_e2e::{TestClient, TestServer};

async fn post(server: &TestServer, path: &str, body: &str, token: &str) -> (u16, Value) {
    let auth = format!("Bearer {token}");
    let (status, text) = http_post_with(
        server.addr(),
        path,
        &[("Authorization", auth.as_str())],
        body,
    )
    .await;
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, value)
}

/// A new session speaking `lang`; its session id.
async fn player(server: &TestServer, name: &str, lang: &str) -> (TestClient, String) {
    let mut client = TestClient::connect(server, name).await;
    let welcome = client
        .request(json!({"type": "hello", "name": name, "lang": lang}))
        .await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    let session = welcome["session"].as_str().unwrap().to_owned();
    (client, session)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_removed_player_is_told_why_the_seat_resigns_and_they_may_not_come_back() {
    let server = with_token().await;
    let (mut ann, _) = player(&server, "ann", "en").await;
    let (mut bob, _) = player(&server, "bob", "en").await;
    let (mut cy, cy_session) = player(&server, "cy", "fr").await;
    let room = ann.request(json!({"type": "create", "seats": 3})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    for c in [&mut bob, &mut cy] {
        let joined = c.request(json!({"type": "join", "code": code})).await;
        assert_eq!(joined["type"], "room", "{joined}");
    }
    let started = ann.request(json!({"type": "start"})).await;
    assert_eq!(started["status"], "playing", "{started}");
    let cy_seat = cy
        .recv_until(|m| m["type"] == "room" && m["status"] == "playing")
        .await["you"]["seat"]
        .as_u64()
        .unwrap();

    let path = format!("/api/admin/rooms/{code}/remove");
    let body = json!({"session": cy_session, "reason": "spam dans le chat"}).to_string();
    let (status, answer) = post(&server, &path, &body, TOKEN).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["removed"]["room"], code.as_str());

    // Cy is told, in French, with the operators' reason.
    let told = cy.recv_type("room_closed").await;
    assert_eq!(told["room"], code.as_str());
    let reason = told["reason"].as_str().unwrap();
    assert!(
        reason.contains("opérateurs") && reason.contains("spam dans le chat"),
        "{told}"
    );
    // Everyone else sees the seat resign (R13); the stand-in plays it on.
    for c in [&mut ann, &mut bob] {
        let events = c
            .recv_until(|m| {
                m["type"] == "events"
                    && m["events"]
                        .as_array()
                        .is_some_and(|e| e.iter().any(|e| e["event"] == "resigned"))
            })
            .await;
        assert_eq!(events["events"][0]["seat"], cy_seat, "{events}");
        let state = c.recv_until(|m| m["type"] == "state").await;
        assert_eq!(state["resigned"], json!([cy_seat]), "{state}");
    }
    // Cy may not come back, as a player or to watch; a table elsewhere is fine.
    let back = cy.request(json!({"type": "join", "code": code})).await;
    assert_eq!(back["code"], "removed", "{back}");
    let watch = cy
        .request(json!({"type": "join", "code": code, "as": "spectator"}))
        .await;
    assert_eq!(watch["code"], "removed", "{watch}");
    let elsewhere = cy.request(json!({"type": "create", "seats": 2})).await;
    assert_eq!(elsewhere["type"], "room", "{elsewhere}");
    // Removing again changes nothing more (the seat stays the game's).
    let (status, again) = post(&server, &path, &body, TOKEN).await;
    assert_eq!(status, 200, "{again}");

    // The audit log has it.
    let auth = format!("Bearer {TOKEN}");
    let (status, audit) = splendor_e2e::process::http_get_with(
        server.addr(),
        "/api/admin/audit",
        &[("Authorization", auth.as_str())],
    )
    .await;
    assert_eq!(status, 200, "{audit}");
    let audit: Value = serde_json::from_str(&audit).unwrap();
    let entry = &audit["entries"][0];
    assert_eq!(entry["action"], "remove", "{audit}");
    assert_eq!(entry["reason"], "spam dans le chat", "{audit}");
    assert!(entry["target"].as_str().unwrap().contains(&code), "{audit}");
}

#[tokio::test]
async fn bad_removals_are_refused_with_a_clear_error_and_change_nothing() {
    let server = with_token().await;
    let (mut ann, ann_session) = player(&server, "ann", "en").await;
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    let path = format!("/api/admin/rooms/{code}/remove");
    let good = json!({"session": ann_session, "reason": "testing"}).to_string();
    let other = "0123456789abcdef0123456789abcdef";
    for (path, body, token, status, error) in [
        (
            path.clone(),
            good.clone(),
            "wrong-token-0000000",
            401,
            "unauthorized",
        ),
        (
            "/api/admin/rooms/ZZZZZ/remove".to_owned(),
            good.clone(),
            TOKEN,
            404,
            "not_found",
        ),
        (
            "/api/admin/rooms/abc/remove".to_owned(),
            good.clone(),
            TOKEN,
            404,
            "not_found",
        ),
        (
            path.clone(),
            json!({"session": other, "reason": "x"}).to_string(),
            TOKEN,
            404,
            "not_found",
        ),
        (
            path.clone(),
            json!({"session": "nope", "reason": "x"}).to_string(),
            TOKEN,
            400,
            "invalid_request",
        ),
        (
            path.clone(),
            json!({"session": ann_session, "reason": "  "}).to_string(),
            TOKEN,
            400,
            "invalid_request",
        ),
        (
            path.clone(),
            json!({"session": ann_session}).to_string(),
            TOKEN,
            400,
            "invalid_request",
        ),
        (
            path.clone(),
            "{not json".to_owned(),
            TOKEN,
            400,
            "invalid_request",
        ),
    ] {
        let (got, answer) = post(&server, &path, &body, token).await;
        assert_eq!(
            (got, answer["error"].as_str()),
            (status, Some(error)),
            "{path} {body}: {answer}"
        );
    }
    // Nothing changed: Ann is still in her room.
    let sync = ann.request(json!({"type": "sync"})).await;
    assert_eq!(sync["type"], "room", "{sync}");
    assert_eq!(sync["you"]["role"], "player", "{sync}");
}
