//! The HTTP API under a flood (issue 22, defect 4): `/api/...` requests
//! are counted per client address (past the limit, 429 with Retry-After;
//! the page's files and the probes are not counted), and a finished game's
//! positions are made once and served the same ever after.

use serde_json::{Value, json};
use splendor_e2e::process::http_get_with;
use splendor_e2e::{Dice, TestClient, TestServer};
use splendor_server::Config;

async fn limited(per_minute: u32) -> TestServer {
    TestServer::start_with(Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        max_api_requests_per_ip_per_minute: per_minute,
        client_ip_header: Some("x-forwarded-for".into()),
        ..Config::default()
    })
    .await
}

#[tokio::test]
async fn api_requests_are_counted_per_address_and_the_page_is_not() {
    let server = limited(5).await;
    let from = |ip: &'static str| [("X-Forwarded-For", ip)];
    for i in 0..5 {
        let (status, body) =
            http_get_with(server.addr(), "/api/rooms", &from("198.51.100.7")).await;
        assert_eq!(status, 200, "request {i}: {body}");
    }
    let (status, body) = http_get_with(server.addr(), "/api/games", &from("198.51.100.7")).await;
    assert_eq!(status, 429, "{body}");
    let refused: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(refused["error"], "rate_limited", "{refused}");
    // Another address has its own bucket.
    let (status, _) = http_get_with(server.addr(), "/api/rooms", &from("203.0.113.9")).await;
    assert_eq!(status, 200);
    // The page, its files and the probes are not counted.
    for path in ["/", "/healthz", "/readyz", "/games"] {
        let (status, _) = http_get_with(server.addr(), path, &from("198.51.100.7")).await;
        assert_eq!(status, 200, "{path}");
    }
    assert_eq!(
        server.metric("splendor_api_requests_limited_total").await,
        1.0
    );
}

#[tokio::test]
async fn a_finished_games_positions_are_the_same_every_time() {
    let server = limited(0).await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    ann.request(json!({"type": "start"})).await;
    let (mut da, mut db) = (Dice(1), Dice(2));
    let (result, _) = tokio::join!(
        ann.play_until_result(&mut da),
        bob.play_until_result(&mut db)
    );
    let game = result["game"].as_str().expect("the game").to_owned();
    let path = format!("/api/games/{game}/positions");
    let (status, first) = server.http_get(&path).await;
    assert_eq!(status, 200, "{first}");
    let positions: Value = serde_json::from_str(&first).unwrap();
    assert!(positions["positions"].as_array().unwrap().len() > 10);
    for _ in 0..3 {
        let (status, again) = server.http_get(&path).await;
        assert_eq!((status, again.as_str()), (200, first.as_str()));
    }
}
