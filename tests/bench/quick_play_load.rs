//! How fast the quick-play queues form games: many sessions queue for
//! 2-player games at once on real sockets, and each waits for its
//! `matched`. Every game formed is a `DELETE ... RETURNING` on the queue,
//! a room, and a stored game start (an fsync on an SQLite file). Not a
//! test: a measurement (docs/BENCHMARKS.md).
//!
//! ```text
//! cargo run --release -p splendor-e2e --example quick_play_load -- --players 400 --rounds 3
//! ```
//!
//! The clients run in the same process as the server, on the same cores,
//! so the figures are lower bounds.

use std::time::{Duration, Instant};

use serde_json::json;
use splendor_e2e::{TestClient, TestServer};
use splendor_server::Config;

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name} takes a number"))
        })
        .unwrap_or(default)
}

fn text_arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

#[tokio::main]
async fn main() {
    let players = arg("--players", 400) as usize;
    let rounds = arg("--rounds", 3);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = text_arg("--url")
        .unwrap_or_else(|| format!("sqlite://{}/splendor.db", dir.path().display()));
    let config = Config {
        database_url: Some(url.parse().expect("a database URL")),
        // Every client comes from 127.0.0.1.
        max_connections_per_ip: 100_000,
        max_tcp_per_peer: 100_000,
        max_connections: 100_000,
        max_connects_per_ip_per_minute: 1_000_000,
        max_messages_per_second: 100_000,
        message_burst: 100_000,
        log: "warn".into(),
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    println!(
        "quick play: {players} sessions queue for 2-player games at once, {rounds} rounds, {url}"
    );
    for round in 1..=rounds {
        let mut clients = Vec::with_capacity(players);
        for i in 0..players {
            let name = format!("q{round}-{i}");
            let mut client = TestClient::connect(&server, &name).await;
            let welcome = client
                .request(json!({"type": "hello", "name": name, "bot": true}))
                .await;
            assert_eq!(welcome["type"], "welcome");
            clients.push(client);
        }
        let start = Instant::now();
        let mut tasks = tokio::task::JoinSet::new();
        for mut client in clients {
            tasks.spawn(async move {
                let asked = Instant::now();
                client.send(json!({"type": "queue", "players": 2})).await;
                client.recv_type("matched").await;
                let latency = asked.elapsed();
                // Seated: the room and the first state follow.
                client.recv_type("state").await;
                (latency, client)
            });
        }
        let mut latencies = Vec::with_capacity(players);
        let mut keep = Vec::with_capacity(players);
        while let Some(done) = tasks.join_next().await {
            let (latency, client) = done.expect("a client task");
            latencies.push(latency);
            keep.push(client);
        }
        let elapsed = start.elapsed();
        latencies.sort();
        let games = players / 2;
        println!(
            "round {round}: {games} games formed in {:.2} s = {:.0} games/s; queue -> matched p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            elapsed.as_secs_f64(),
            games as f64 / elapsed.as_secs_f64(),
            percentile(&latencies, 0.5).as_secs_f64() * 1e3,
            percentile(&latencies, 0.99).as_secs_f64() * 1e3,
            latencies.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
        );
        drop(keep);
    }
}
