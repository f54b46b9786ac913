//! What renewing leases costs PostgreSQL (issue 44): N rooms over two
//! nodes, renewed as a node's lobby renews them (every third of the
//! lease) for a while, with leases per room (one statement per 250 rooms,
//! one row per room: how nodes renewed before) and with leases per node
//! (one row per node, whatever the rooms). Counts the statements sent and
//! the rows PostgreSQL says it updated (`pg_stat_user_tables`), per second.
//!
//! ```sh
//! SPLENDOR_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
//!   cargo run --release --example lease_renewals -- --rooms 10000 --seconds 10
//! ```

use std::time::{Duration, Instant};

use splendor_e2e::process::TestDatabase;
use splendor_store::{RoomLease, Store};

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

const TTL: Duration = Duration::from_secs(2);

/// Rows updated in `table` so far, as PostgreSQL counts them (its
/// statistics reach the view as each backend reports them: the bench
/// waits a moment before reading).
async fn updated(url: &str, table: &str) -> i64 {
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect(url)
        .await
        .expect("the database");
    sqlx::query_scalar("SELECT COALESCE(n_tup_upd, 0) FROM pg_stat_user_tables WHERE relname = $1")
        .bind(table)
        .fetch_one(&pool)
        .await
        .expect("the table's counters")
}

async fn run(
    store: &Store,
    url: &str,
    rooms: usize,
    seconds: u64,
    by_node: bool,
) -> (f64, f64, usize) {
    let mut held: Vec<Vec<RoomLease>> = vec![Vec::new(), Vec::new()];
    let prefix = if by_node { "N" } else { "R" };
    for node in 1..=2u16 {
        let instance = format!("bench-{node}");
        store
            .claim_node(node, &instance, TTL)
            .await
            .expect("the node id")
            .expect("free");
        for i in 0..rooms / 2 {
            let code = format!("{prefix}{node}{i:07}");
            let lease = if by_node {
                store.claim_room_by_node(&code, node, &instance).await
            } else {
                store.claim_room(&code, node, TTL).await
            }
            .expect("a claim")
            .expect("a free code");
            held[usize::from(node) - 1].push(lease);
        }
    }
    // The claims took a while: both nodes' claims afresh before the loop.
    for node in 1..=2u16 {
        store
            .claim_node(node, &format!("bench-{node}"), TTL)
            .await
            .expect("the node id")
            .expect("still this instance's");
    }
    // Let the claims' own updates settle in the counters.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let before = updated(url, "room_leases").await + updated(url, "nodes").await;
    let started = Instant::now();
    let mut statements = 0usize;
    let mut lost = 0usize;
    let mut tick = tokio::time::interval(TTL / 3);
    while started.elapsed() < Duration::from_secs(seconds) {
        tick.tick().await;
        for node in 1..=2u16 {
            let instance = format!("bench-{node}");
            let leases = &held[usize::from(node) - 1];
            if by_node {
                statements += 1;
                if !store
                    .renew_node(node, &instance, TTL)
                    .await
                    .expect("renewed")
                {
                    lost += leases.len();
                }
            } else {
                statements += leases.len().div_ceil(250);
                lost += store
                    .renew_rooms(node, leases, TTL)
                    .await
                    .expect("renewed")
                    .len();
            }
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let after = updated(url, "room_leases").await + updated(url, "nodes").await;
    (
        statements as f64 / elapsed,
        (after - before) as f64 / elapsed,
        lost,
    )
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rooms: usize = arg(&args, "--rooms").map_or(10_000, |n| n.parse().expect("--rooms N"));
    let seconds: u64 = arg(&args, "--seconds").map_or(10, |n| n.parse().expect("--seconds N"));
    for by_node in [false, true] {
        let Some(db) = TestDatabase::postgres("the lease renewals").await else {
            eprintln!("set SPLENDOR_TEST_DATABASE_URL to a PostgreSQL server");
            std::process::exit(2);
        };
        let store = Store::open(&db.url).await.expect("the database");
        let (statements, rows, lost) = run(&store, &db.url, rooms, seconds, by_node).await;
        println!(
            "{}: {rooms} rooms over 2 nodes, lease {TTL:?}: {statements:.1} renewal statements/s, {rows:.0} rows updated/s, {lost} leases lost",
            if by_node {
                "leases per node"
            } else {
                "leases per room"
            }
        );
    }
}
