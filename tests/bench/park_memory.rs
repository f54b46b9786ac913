//! What a turn-based game waiting for a player costs the server (issue 25):
//! the real server binary as its own process on a fresh SQLite file; pairs
//! of real WebSocket clients start `--games` turn-based games (a day a
//! move), make the first move and leave them all, then disconnect. With
//! parking (`--park-after`, the default 1s here) the games wait in the
//! database; with `--park-after 0` each keeps its room in memory, for
//! comparison. The server's RSS is read from /proc before and after
//! (after `--warmup` games by other players, so that what any server that
//! ran a while holds is not put on the games measured). Not a test: a
//! measurement (docs/BENCHMARKS.md).
//!
//! ```text
//! cargo build --release --bin splendor-server && cargo build --release -p splendor-e2e --example park_memory
//! ./target/release/examples/park_memory --games 10000 --warmup 10000 --server target/release/splendor-server
//! ./target/release/examples/park_memory --games 10000 --warmup 10000 --server target/release/splendor-server --park-after 0
//! ```

use std::time::{Duration, Instant};

use serde_json::json;
use splendor_e2e::{ServerProcess, TestClient};

fn text_arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn arg(name: &str, default: u64) -> u64 {
    text_arg(name).map_or(default, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name} takes a number"))
    })
}

/// The resident set of process `pid`, in KiB.
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

/// The rooms the server runs, from its metrics.
async fn rooms(server: &ServerProcess) -> f64 {
    let (_, text) = splendor_e2e::process::http_get(server.addr(), "/metrics").await;
    text.lines()
        .filter(|l| l.starts_with("splendor_rooms{"))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

/// One pair of players starts `games` turn-based games, moves once in
/// each and leaves them.
async fn pair(server: std::net::SocketAddr, index: usize, games: usize) {
    let mut ann = TestClient::connect_to(server, &format!("ann{index}")).await;
    ann.hello().await;
    let mut bob = TestClient::connect_to(server, &format!("bob{index}")).await;
    bob.hello().await;
    for _ in 0..games {
        let room = ann
            .request(json!({"type": "create", "seats": 2, "turn_based": {"per_move_s": 86_400}}))
            .await;
        let code = room["code"].as_str().expect("a room").to_owned();
        bob.request(json!({"type": "join", "code": code})).await;
        ann.request(json!({"type": "start", "seat_order": "joined"}))
            .await;
        let state = ann.state().await;
        let action = state.legal_actions.expect("Ann moves")[0].clone();
        ann.request(json!({"type": "act", "action": action, "expect_version": 0}))
            .await;
        ann.request(json!({"type": "leave"})).await;
        bob.request(json!({"type": "leave"})).await;
    }
    ann.disconnect().await;
    bob.disconnect().await;
}

#[tokio::main]
async fn main() {
    let games = arg("--games", 10_000) as usize;
    let pairs = arg("--pairs", 50) as usize;
    let park_after = text_arg("--park-after").unwrap_or_else(|| "1s".into());
    let binary = text_arg("--server").unwrap_or_else(|| "target/release/splendor-server".into());
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}/splendor.db", dir.path().display());
    let per_session = (games / pairs + 1).to_string();
    let env = [
        ("SPLENDOR_LOG", "warn"),
        ("SPLENDOR_PARK_AFTER", park_after.as_str()),
        (
            "SPLENDOR_MAX_TURN_BASED_ROOMS_PER_SESSION",
            per_session.as_str(),
        ),
        ("SPLENDOR_MAX_ROOMS", "1000000"),
        ("SPLENDOR_MAX_WAITING_ROOMS_PER_IP", "1000000"),
        ("SPLENDOR_MAX_ROOMS_PER_IP", "0"),
        ("SPLENDOR_MAX_SESSIONS_PER_IP_PER_HOUR", "0"),
        ("SPLENDOR_MAX_CONNECTIONS_PER_IP", "100000"),
        ("SPLENDOR_MAX_TCP_PER_PEER", "100000"),
        ("SPLENDOR_MAX_CONNECTS_PER_IP_PER_MINUTE", "1000000"),
    ];
    let server = ServerProcess::start_with_env(&binary, &url, &env).await;
    let pid = server.pid().expect("the server runs");
    tokio::time::sleep(Duration::from_secs(1)).await;
    let fresh = rss_kib(pid);
    // A warm-up round first (`--warmup` games, by other players): what a
    // server that has run a while holds anyway (the database's page
    // caches, the allocator's arenas) is not put on the games measured.
    let warmup = arg("--warmup", 0) as usize;
    if warmup > 0 {
        make(&server, pairs, warmup, &park_after, 1_000).await;
    }
    let before = rss_kib(pid);
    let made = make(&server, pairs, games, &park_after, 0).await;
    let after = rss_kib(pid);
    let running = rooms(&server).await;
    let per_game = (after.saturating_sub(before) as f64 * 1024.0) / games as f64;
    println!(
        "games {games} after {warmup} of warm-up (park after {park_after}), made in {:.1} s; \
         rooms running {running}; server RSS {fresh} KiB fresh, {before} KiB before, \
         {after} KiB after: {per_game:.0} bytes per waiting game",
        made.as_secs_f64()
    );
    server.kill().await;
}

/// `games` games by `pairs` pairs of players (numbered from `first`), all
/// left; waits until they are parked (with parking) and the allocator
/// settles. How long making them took.
async fn make(
    server: &ServerProcess,
    pairs: usize,
    games: usize,
    park_after: &str,
    first: usize,
) -> Duration {
    let started = Instant::now();
    let addr = server.addr();
    let mut tasks = Vec::new();
    for index in 0..pairs {
        let share = games / pairs + usize::from(index < games % pairs);
        tasks.push(tokio::spawn(pair(addr, first + index, share)));
    }
    for task in tasks {
        task.await.expect("a pair of players");
    }
    let made = started.elapsed();
    // Parked: no room runs any more (or, without parking, every room).
    if park_after != "0" {
        while rooms(server).await > 0.0 {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    // What the allocator keeps settles.
    tokio::time::sleep(Duration::from_secs(3)).await;
    made
}
