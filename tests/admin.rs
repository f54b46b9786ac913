//! The operators' API (issue 22) against the real server on port 0: no
//! token configured, no admin routes; without the right token every admin
//! path answers the same 401 and reveals nothing; wrong tokens from one
//! address are cut off after a few; with the token, the live rooms.

use serde_json::{Value, json};
use splendor_e2e::process::{http_get, http_get_with};
use splendor_e2e::{TestClient, TestServer};
use splendor_server::config::{AdminOptions, AdminToken, Config};

const TOKEN: &str = "operators-only-0123456789";

async fn with_token() -> TestServer {
    TestServer::start_with(Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        admin: AdminOptions {
            admin_token: Some(AdminToken::new(TOKEN).expect("a token")),
            admin_token_file: None,
        },
        ..Config::default()
    })
    .await
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

#[tokio::test]
async fn without_a_token_configured_there_are_no_admin_routes() {
    let server = TestServer::start().await;
    for path in ["/api/admin/rooms", "/api/admin"] {
        let (status, body) =
            http_get_with(server.addr(), path, &[("Authorization", &bearer(TOKEN))]).await;
        assert_eq!(status, 404, "{path}: {body}");
        assert!(!body.contains("rooms\""), "{body}");
    }
}

#[tokio::test]
async fn without_the_right_token_every_admin_path_answers_the_same_401() {
    let server = with_token().await;
    let mut ann = TestClient::connect(&server, "ann").await;
    ann.hello().await;
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    let mut answers = Vec::new();
    for path in [
        "/api/admin/rooms".to_owned(),
        format!("/api/admin/rooms?q={code}"),
        "/api/admin/rooms/ZZZZZ".to_owned(),
        "/api/admin/nothing-here".to_owned(),
        "/api/admin".to_owned(),
    ] {
        for headers in [
            vec![],
            vec![("Authorization", "Bearer")],
            vec![("Authorization", "Basic b3A6b3A=")],
        ] {
            let (status, body) = http_get_with(server.addr(), &path, &headers).await;
            assert_eq!(status, 401, "{path}: {body}");
            assert!(!body.contains(&code), "{body}");
            answers.push(body);
        }
    }
    answers.dedup();
    assert_eq!(answers.len(), 1, "one answer for every path: {answers:?}");
    // A wrong token is refused the same way.
    let (status, body) = http_get_with(
        server.addr(),
        "/api/admin/rooms",
        &[("Authorization", "Bearer guessing-it-0000")],
    )
    .await;
    assert_eq!((status, body), (401, answers[0].clone()));
}

#[tokio::test]
async fn the_operators_see_every_live_room_and_can_search_them() {
    let server = with_token().await;
    let mut ann = TestClient::connect(&server, "ann").await;
    let welcome = ann.request(json!({"type": "hello", "name": "ann"})).await;
    let room = ann
        .request(json!({"type": "create", "seats": 3, "listed": true}))
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    let auth = bearer(TOKEN);
    let headers = [("Authorization", auth.as_str())];
    let (status, body) = http_get_with(server.addr(), "/api/admin/rooms", &headers).await;
    assert_eq!(status, 200, "{body}");
    let list: Value = serde_json::from_str(&body).unwrap();
    let rooms = list["rooms"].as_array().unwrap();
    assert_eq!(rooms.len(), 1, "{list}");
    let seen = &rooms[0];
    assert_eq!(seen["code"], code.as_str());
    assert_eq!(seen["host"], "ann");
    assert_eq!(seen["seats"], 3);
    assert_eq!(seen["players"], 1);
    assert_eq!(seen["status"], "waiting");
    assert_eq!(seen["listed"], true);
    assert_eq!(seen["client"], "127.0.0.1");
    assert_eq!(seen["epoch"], 1);
    assert!(seen["node"].is_u64(), "{seen}");
    assert_eq!(seen["creator"], welcome["session"], "{seen} / {welcome}");
    // Searching: by code (any case), by host, by address; or nothing.
    for (q, found) in [
        (code.to_lowercase(), 1),
        ("AN".to_owned(), 1),
        ("127.0".to_owned(), 1),
        ("nobody".to_owned(), 0),
    ] {
        let (status, body) =
            http_get_with(server.addr(), &format!("/api/admin/rooms?q={q}"), &headers).await;
        assert_eq!(status, 200, "{body}");
        let list: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            list["rooms"].as_array().unwrap().len(),
            found,
            "{q}: {list}"
        );
    }
    // An admin path that does not exist, with the token: 404.
    let (status, _) = http_get_with(server.addr(), "/api/admin/nothing-here", &headers).await;
    assert_eq!(status, 404);
    // The public listing is unchanged by all this.
    let (status, body) = http_get(server.addr(), "/api/rooms").await;
    assert_eq!(status, 200);
    assert!(body.contains(&code), "{body}");
}

#[tokio::test]
async fn an_address_that_guesses_is_cut_off_even_with_the_right_token() {
    let server = with_token().await;
    for i in 0..10 {
        let wrong = bearer(&format!("guess-number-{i:04}-xxxx"));
        let (status, _) = http_get_with(
            server.addr(),
            "/api/admin/rooms",
            &[("Authorization", &wrong)],
        )
        .await;
        assert_eq!(status, 401, "guess {i}");
    }
    let right = bearer(TOKEN);
    let (status, body) = http_get_with(
        server.addr(),
        "/api/admin/rooms",
        &[("Authorization", &right)],
    )
    .await;
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("too_many_attempts"), "{body}");
}
