//! The takeover soak of issue 21: how long a game stops when the node that
//! owns it is killed with SIGKILL, over many kills at random points (the
//! kill loop of `tests/support/takeover.rs`, which also checks that no
//! acknowledged move is lost and every game verifies).
//!
//! ```sh
//! cargo build --release -p splendor-server
//! SPLENDOR_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
//!   cargo run --release --example takeover -- --kills 20 --ttl 2s
//! ```
//!
//! `--fault hold-database` holds the owner's PostgreSQL link silent
//! instead of killing it (issue 44), and reports when its players got
//! their 1012.
//!
//! Needs PostgreSQL (a fresh database is made on that server and dropped),
//! `nats-server` and `haproxy`. `--server` names the server binary
//! (default `target/release/splendor-server`).

use std::time::Duration;

use splendor_e2e::process::TestDatabase;
use splendor_e2e::takeover::{Fault, fault_loop};

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kills: usize = arg(&args, "--kills").map_or(20, |n| n.parse().expect("--kills N"));
    let ttl = arg(&args, "--ttl").unwrap_or_else(|| "2s".into());
    let seed: u64 = arg(&args, "--seed").map_or(1, |n| n.parse().expect("--seed N"));
    let server = arg(&args, "--server").unwrap_or_else(|| "target/release/splendor-server".into());
    let Some(db) = TestDatabase::postgres("the takeover soak").await else {
        eprintln!("set SPLENDOR_TEST_DATABASE_URL to a PostgreSQL server");
        std::process::exit(2);
    };
    let fault = match arg(&args, "--fault").as_deref() {
        None | Some("kill") => Fault::Kill,
        Some("hold-database") => Fault::HoldDatabase,
        Some(other) => panic!("--fault kill|hold-database, not {other}"),
    };
    let report = fault_loop(&server, &db.url, (kills, fault), &ttl, seed).await;
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let mut times: Vec<f64> = report.takeovers.iter().copied().map(ms).collect();
    println!("takeovers (ms, in order): {times:.0?}");
    times.sort_by(f64::total_cmp);
    let (median, worst) = report.median_and_worst();
    if !report.closed_1012.is_empty() {
        let mut closed: Vec<f64> = report.closed_1012.iter().copied().map(ms).collect();
        closed.sort_by(f64::total_cmp);
        println!(
            "first 1012 to the owner's players after the hold (ms): median {:.0}, worst {:.0}",
            closed[closed.len() / 2],
            closed[closed.len() - 1]
        );
    }
    println!(
        "{fault:?} x {kills}, lease {ttl}: median {:.0} ms, worst {:.0} ms, best {:.0} ms; \
         {} kills with moves in flight; {} moves verified in {kills} replays; {} reconnects",
        ms(median),
        ms(worst),
        times.first().copied().unwrap_or_default(),
        report.in_flight,
        report.moves,
        report.reconnects
    );
}
