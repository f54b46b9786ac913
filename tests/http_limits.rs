//! The HTTP API under a flood (issue 22, defect 4): `/api/...` requests
//! are counted per client address (past the limit, 429 with Retry-After;
//! the page's files and the probes are not counted), and a finished game's
//! positions are made once and served the same ever after, within a budget
//! of the node's that no address or range may take more than a quarter of
//! (issue 45, defect 4: 16 addresses drew 786 answers a second).

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

/// Issue 45, defect 4: sixteen addresses of one /24 and sixteen of sixteen
/// ranges draw a finished game's positions as fast as they can: the /24
/// gets a quarter of the node's budget, all of them together the node's
/// (here 8 a second, a burst of two seconds' worth: 16), each refusal a 429
/// `rate_limited` with `Retry-After`; a newcomer from another range is
/// served once the budget refills.
#[tokio::test]
async fn a_finished_games_positions_are_served_within_the_nodes_budget() {
    let server = TestServer::start_with(Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        max_api_requests_per_ip_per_minute: 0,
        max_positions_per_second: 8,
        client_ip_header: Some("x-forwarded-for".into()),
        ..Config::default()
    })
    .await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    ann.request(json!({"type": "start"})).await;
    let (mut da, mut db) = (Dice(3), Dice(4));
    let (result, _) = tokio::join!(
        ann.play_until_result(&mut da),
        bob.play_until_result(&mut db)
    );
    let path = format!("/api/games/{}/positions", result["game"].as_str().unwrap());
    let started = std::time::Instant::now();
    let mut served = [0u32; 2];
    for round in 0..10 {
        for n in 1..=16 {
            for (i, from) in [format!("198.51.100.{n}"), format!("203.0.{n}.{round}")]
                .iter()
                .enumerate()
            {
                let (status, body) =
                    http_get_with(server.addr(), &path, &[("X-Forwarded-For", from)]).await;
                match status {
                    200 => served[i] += 1,
                    429 => {
                        let refused: Value = serde_json::from_str(&body).unwrap();
                        assert_eq!(refused["error"], "rate_limited", "{refused}");
                        assert_eq!(refused["retry_after_ms"], 1000, "{refused}");
                    }
                    other => panic!("{other}: {body}"),
                }
            }
        }
    }
    // Tokens never exceed the burst plus what time refilled.
    let refilled = started.elapsed().as_secs_f64();
    let node = 16.0 + 8.0 * refilled;
    let range = 4.0 + 2.0 * refilled;
    assert!(
        f64::from(served[0]) <= range,
        "one /24: {served:?} in {refilled:.1} s"
    );
    assert!(
        f64::from(served[0] + served[1]) <= node,
        "{served:?} in {refilled:.1} s"
    );
    assert!(
        served[1] > served[0],
        "spread addresses fare better: {served:?}"
    );
    // Every refusal is counted.
    let refused = 320.0 - f64::from(served[0] + served[1]);
    assert_eq!(
        server.metric("splendor_api_requests_limited_total").await,
        refused
    );
}
