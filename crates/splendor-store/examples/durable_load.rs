//! Durable actions per second from many concurrent rooms.
//!
//! Each room is a task that appends its actions one after the other and
//! waits for each acknowledgement (that is, for the commit) before sending
//! the next, as a real room does. The store is measured with group commit
//! (`max_batch` 256) and without it (`max_batch` 1), each time on a fresh
//! database.
//!
//! ```text
//! cargo run --release -p splendor-store --example durable_load -- [OPTIONS]
//!   --url URL          database (default: a fresh SQLite file in a temporary directory)
//!   --rooms N          concurrent rooms (default 256)
//!   --actions N        actions per room (default 40)
//!   --max-batch N|both the writer's max_batch (default both: 256, then 1)
//! ```
//!
//! With a `postgres://` URL the games go into that database (fresh ids each
//! run); create an empty database for it first.

use std::time::{Duration, Instant};

use splendor_store::{ActionRecord, NewGame, SeatRecord, SessionId, Store, StoreConfig};
use uuid::Uuid;

struct Options {
    url: Option<String>,
    rooms: u32,
    actions: u32,
    batches: Vec<usize>,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        url: None,
        rooms: 256,
        actions: 40,
        batches: vec![256, 1],
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--url" => options.url = Some(value()?),
            "--rooms" => options.rooms = value()?.parse().map_err(|e| format!("--rooms: {e}"))?,
            "--actions" => {
                options.actions = value()?.parse().map_err(|e| format!("--actions: {e}"))?;
            }
            "--max-batch" => {
                let value = value()?;
                options.batches = if value == "both" {
                    vec![256, 1]
                } else {
                    vec![value.parse().map_err(|e| format!("--max-batch: {e}"))?]
                };
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    if options.rooms == 0 || options.actions == 0 {
        return Err("--rooms and --actions must be at least 1".to_owned());
    }
    Ok(options)
}

#[tokio::main]
async fn main() {
    let options = match parse_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("durable_load: {message}");
            std::process::exit(2);
        }
    };
    for &max_batch in &options.batches {
        // Each run gets a fresh SQLite file unless a URL was given.
        let dir = tempfile::tempdir().expect("a temporary directory");
        let url = options
            .url
            .clone()
            .unwrap_or_else(|| format!("sqlite://{}/bench.db", dir.path().display()));
        if let Err(message) = run(&url, max_batch, options.rooms, options.actions).await {
            eprintln!("durable_load: {message}");
            std::process::exit(1);
        }
    }
}

async fn run(url: &str, max_batch: usize, rooms: u32, actions: u32) -> Result<(), String> {
    let config = StoreConfig {
        max_batch,
        ..StoreConfig::default()
    };
    let store = Store::open_with(url, config)
        .await
        .map_err(|e| e.to_string())?;
    let mut games = Vec::new();
    for _ in 0..rooms {
        let id = Uuid::new_v4();
        store
            .create_game(new_game(id))
            .await
            .map_err(|e| e.to_string())?;
        games.push(id);
    }

    let before = store.writer_stats();
    let started = Instant::now();
    let mut tasks = Vec::new();
    for id in games {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::with_capacity(actions as usize);
            for seq in 0..actions {
                let action = ActionRecord {
                    game_id: id,
                    seq,
                    seat: (seq % 2) as u8,
                    action_json: format!(
                        r#"{{"type":"take_three","colors":["red","green","blue"],"n":{seq}}}"#
                    ),
                    at: 1_700_000_000_000 + i64::from(seq),
                    meta_json: None,
                };
                let sent = Instant::now();
                store
                    .append_action(action)
                    .await
                    .map_err(|e| e.to_string())?;
                latencies.push(sent.elapsed());
            }
            Ok::<_, String>(latencies)
        }));
    }
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await.map_err(|e| e.to_string())??);
    }
    let elapsed = started.elapsed();
    let stats = store.writer_stats();
    store.close().await;

    let total = u64::from(rooms) * u64::from(actions);
    let transactions = stats.batches - before.batches;
    latencies.sort();
    let percentile = |p: f64| -> Duration {
        let index = ((latencies.len() - 1) as f64 * p).round() as usize;
        latencies[index]
    };
    println!(
        "backend={:?} max_batch={max_batch} rooms={rooms} actions={total} elapsed={:.2}s \
         durable_actions_per_s={:.0} transactions={transactions} avg_batch={:.1} \
         ack_p50={:.1}ms ack_p99={:.1}ms",
        store.backend(),
        elapsed.as_secs_f64(),
        total as f64 / elapsed.as_secs_f64(),
        total as f64 / transactions.max(1) as f64,
        percentile(0.50).as_secs_f64() * 1e3,
        percentile(0.99).as_secs_f64() * 1e3,
    );
    Ok(())
}

fn new_game(id: Uuid) -> NewGame {
    NewGame {
        id,
        room_code: "BENCH".to_owned(),
        players: 2,
        options_json: "{}".to_owned(),
        seed: 42,
        salt: [0; 32],
        commitment: "0".repeat(64),
        seats: (0..2)
            .map(|seat| SeatRecord {
                seat,
                session_id: SessionId(Uuid::new_v4()),
                name: format!("Bot {seat}"),
                bot: None,
                program: false,
            })
            .collect(),
        created_at: 1_700_000_000_000,
        clock_json: None,
        listed: false,
        rated: false,
    }
}
