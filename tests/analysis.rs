//! The analysis of a finished game through the real server (issue 26):
//! `GET /api/games/{id}/analysis` starts it and answers 202 with its
//! progress, then 200 with the analysis, made once and kept through a
//! restart; a running game is never analysed; bad requests get specific
//! errors; the queue and each client's share are bounded.

use std::time::Duration;

use serde_json::Value;
use splendor_e2e::process::http_get_with;
use splendor_e2e::{Dice, SAFETY_TIMEOUT, TestServer, open_table};
use splendor_server::Config;

fn config(db: &tempfile::TempDir, iterations: u32) -> Config {
    let mut config = Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        max_api_requests_per_ip_per_minute: 0,
        database_url: Some(
            format!("sqlite://{}/store.db", db.path().display())
                .parse()
                .unwrap(),
        ),
        ..Config::default()
    };
    config.analysis.analysis_iterations = iterations;
    config
}

/// A finished two-player game on `server`: its id and its action count.
async fn finished_game(server: &TestServer, seed: u64) -> (String, u64) {
    let mut table = open_table(server, &["ann", "bob"]).await;
    let (states, _) = table.states_at(0).await;
    let game = states[0].game.clone();
    let last = table.play_to_the_end(0, &mut Dice(seed)).await;
    (game, last)
}

fn json(body: &str) -> Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// Asks until the analysis is made; every answer on the way is a 202
/// saying where it stands.
async fn analysis(server: &TestServer, game: &str, total: u64) -> Value {
    let path = format!("/api/games/{game}/analysis");
    let deadline = tokio::time::Instant::now() + 3 * SAFETY_TIMEOUT;
    loop {
        let (status, body) = server.http_get(&path).await;
        let answer = json(&body);
        if status == 200 {
            // The typed document, strictly: no field unknown, none missing.
            let typed: splendor_analysis::Analysis = serde_json::from_str(&body).unwrap();
            assert_eq!(typed.moves.len() as u64, total);
            return answer;
        }
        let _: splendor_analysis::Progress = serde_json::from_str(&body).unwrap();
        assert_eq!(status, 202, "{body}");
        assert!(
            answer["status"] == "queued" || answer["status"] == "running",
            "{body}"
        );
        assert_eq!(answer["total"], total, "{body}");
        assert!(answer["done"].as_u64().unwrap() <= total, "{body}");
        assert!(tokio::time::Instant::now() < deadline, "never finished");
        // The analysis runs on the server's own threads: look again soon.
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_analysed_once_in_the_background_and_kept_through_a_restart() {
    let db = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(config(&db, 40)).await;

    // A game in play is not analysed, nor its id guessed.
    let mut table = open_table(&server, &["ann", "bob"]).await;
    let (states, _) = table.states_at(0).await;
    let game = states[0].game.clone();
    let (version, _, _) = table.play(0, 6, &mut Dice(3)).await;
    let (status, body) = server
        .http_get(&format!("/api/games/{game}/analysis"))
        .await;
    assert_eq!(
        (status, json(&body)["error"].as_str()),
        (404, Some("game_not_finished")),
        "{body}"
    );
    let last = table.play_to_the_end(version, &mut Dice(3)).await;

    let made = analysis(&server, &game, last).await;
    assert_eq!(made["format"], "splendor-analysis/1");
    assert_eq!(made["game"], game);
    assert_eq!(made["settings"]["iterations"], 40);
    let moves = made["moves"].as_array().unwrap();
    assert_eq!(moves.len() as u64, last);
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m["seq"], i as u64, "{m}");
        let chances: f64 = m["chances"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_f64().unwrap())
            .sum();
        assert!((chances - 1.0).abs() < 0.01, "{m}");
        assert!(
            ["best", "good", "inaccuracy", "mistake", "blunder", "forced"]
                .contains(&m["mark"].as_str().unwrap()),
            "{m}"
        );
    }
    assert_eq!(made["figures"].as_array().unwrap().len(), 2);
    // Served from the store from now on, the same every time.
    let (status, again) = server
        .http_get(&format!("/api/games/{game}/analysis"))
        .await;
    assert_eq!(status, 200);
    assert_eq!(json(&again), made);

    // Bad requests: specific errors.
    for (path, code, error) in [
        ("/api/games/not-an-id/analysis", 400, "invalid_game_id"),
        (
            "/api/games/0123456789abcdef0123456789abcdef/analysis",
            404,
            "game_not_found",
        ),
    ] {
        let (status, body) = server.http_get(path).await;
        assert_eq!(
            (status, json(&body)["error"].as_str()),
            (code, Some(error)),
            "{body}"
        );
    }
    let (status, body) = http_get_with(
        server.addr(),
        &format!("/api/games/{game}/analysis"),
        &[("Authorization", "Bearer not-a-token")],
    )
    .await;
    assert_eq!(
        (status, json(&body)["error"].as_str()),
        (401, Some("unauthorized")),
        "{body}"
    );

    // A restart keeps it: answered at once, not made again.
    server.shutdown().await.unwrap();
    let server = TestServer::start_with(config(&db, 40)).await;
    let (status, kept) = server
        .http_get(&format!("/api/games/{game}/analysis"))
        .await;
    assert_eq!(status, 200, "{kept}");
    assert_eq!(json(&kept), made);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_queue_and_each_clients_share_are_bounded() {
    let db = tempfile::tempdir().unwrap();
    // A long analysis keeps the worker busy while the test asks for more.
    let mut config = config(&db, 200_000);
    config.analysis.analysis_queue = 1;
    config.analysis.analyses_per_client = 1;
    config.client_ip_header = Some("X-Forwarded-For".into());
    let server = TestServer::start_with(config).await;
    let mut games = Vec::new();
    for seed in 1..=3 {
        games.push(finished_game(&server, seed).await);
    }
    let ask = |game: &str, from: &'static str| {
        let path = format!("/api/games/{game}/analysis");
        let addr = server.addr();
        async move { http_get_with(addr, &path, &[("X-Forwarded-For", from)]).await }
    };
    // The first runs at once, the second waits behind it.
    let (status, body) = ask(&games[0].0, "198.51.100.1").await;
    assert_eq!(status, 202, "{body}");
    let (status, body) = ask(&games[1].0, "198.51.100.2").await;
    assert_eq!(
        (status, json(&body)["status"].as_str()),
        (202, Some("queued")),
        "{body}"
    );
    assert_eq!(json(&body)["ahead"], 1, "{body}");
    // Asking again is no new request: the same place in the queue.
    let (status, again) = ask(&games[1].0, "198.51.100.9").await;
    assert_eq!((status, json(&again)), (202, json(&body)));
    // The queue is full.
    let (status, body) = ask(&games[2].0, "198.51.100.3").await;
    assert_eq!(
        (status, json(&body)["error"].as_str()),
        (503, Some("analysis_queue_full")),
        "{body}"
    );
    // A client with one under way gets no second.
    let (status, body) = ask(&games[2].0, "198.51.100.1").await;
    assert_eq!(
        (status, json(&body)["error"].as_str()),
        (429, Some("too_many_analyses")),
        "{body}"
    );
}
