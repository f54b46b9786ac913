//! Durable actions per second through the whole server: WebSocket clients,
//! gateway, room tasks, rules, the store's group commit on an SQLite file
//! (WAL, fsync on every commit), and every state broadcast back to every
//! client. Not a test: a measurement (docs/BENCHMARKS.md).
//!
//! ```text
//! cargo run --release -p splendor-e2e --example e2e_load -- --rooms 64 --seconds 10
//! ```
//!
//! Each room is a task with two players and a spectator on real sockets;
//! the player to act sends one legal action, waits for its acknowledgement
//! (which the server sends only after the commit), and every client reads
//! its state before the next action, like a real table. When a game ends
//! the task opens a new room. The clients run in the same process as the
//! server, on the same two cores, so the figure is a lower bound.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use splendor_e2e::{Dice, TestServer, open_table};
use splendor_server::{AppState, Config};

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

#[tokio::main]
async fn main() {
    let rooms = arg("--rooms", 64);
    let seconds = arg("--seconds", 10);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = text_arg("--url")
        .unwrap_or_else(|| format!("sqlite://{}/splendor.db", dir.path().display()));
    let config = Config {
        database_url: Some(url.parse().expect("a database URL")),
        // Every client of the benchmark comes from 127.0.0.1 and plays fast.
        max_connections_per_ip: 100_000,
        max_connects_per_ip_per_minute: 1_000_000,
        max_messages_per_second: 100_000,
        message_burst: 100_000,
        max_rooms_per_session: 100_000,
        max_waiting_rooms_per_ip: 100_000,
        max_rooms_per_ip: 0,
        max_sessions_per_ip_per_hour: 0,
        log: "warn".into(),
        ..Config::default()
    };
    let state = AppState::open(config).await.expect("open the database");
    let store = state.store().cloned().expect("a database");
    let server = Arc::new(TestServer::start_with_state(state).await);
    let actions = Arc::new(AtomicU64::new(0));
    let games = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let deadline = started + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for room in 0..rooms {
        let (server, actions, games) = (server.clone(), actions.clone(), games.clone());
        tasks.push(tokio::spawn(async move {
            let mut dice = Dice(room + 1);
            while Instant::now() < deadline {
                let mut table = open_table(&server, &["ann", "bob"]).await;
                let mut version = 0;
                loop {
                    let (next, states, _) = table.play(version, 1, &mut dice).await;
                    actions.fetch_add(next - version, Ordering::Relaxed);
                    version = next;
                    if states[0].to_act.is_none() {
                        games.fetch_add(1, Ordering::Relaxed);
                        break;
                    }
                    if Instant::now() >= deadline {
                        break;
                    }
                }
            }
        }));
    }
    for task in tasks {
        task.await.expect("a room task");
    }
    let elapsed = started.elapsed().as_secs_f64();
    let actions = actions.load(Ordering::Relaxed);
    let stats = store.writer_stats();
    println!(
        "{rooms} rooms, {elapsed:.1} s: {actions} durable actions, {:.0} actions/s, {} games finished; \
         {} commits, mean batch {:.1}, largest {}",
        actions as f64 / elapsed,
        games.load(Ordering::Relaxed),
        stats.batches,
        stats.writes as f64 / stats.batches.max(1) as f64,
        stats.largest_batch,
    );
}
