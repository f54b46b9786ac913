//! The quick-play queue under concurrency (found in review, issue 13): queue
//! statements from the pool beside the store's writer must not make the
//! writer's batches fail on SQLite (BEGIN IMMEDIATE), and concurrent takes
//! never take an entry twice nor strand one. SQLite always, PostgreSQL with
//! SPLENDOR_TEST_DATABASE_URL.
#[allow(dead_code)]
mod common;

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use common::TestDb;
use splendor_store::{NewGame, QueuePool, SeatRecord, SessionId};
use uuid::Uuid;

fn game(id: Uuid, players: &[SessionId]) -> NewGame {
    NewGame {
        id,
        room_code: "QPLAY".into(),
        players: players.len() as u8,
        options_json: "{}".into(),
        seed: 7,
        salt: [1; 32],
        commitment: "ab".repeat(32),
        seats: players
            .iter()
            .enumerate()
            .map(|(i, &session_id)| SeatRecord {
                seat: i as u8,
                session_id,
                name: format!("p{i}"),
                bot: None,
                program: false,
            })
            .collect(),
        created_at: 100,
        clock_json: None,
        listed: false,
        rated: true,
    }
}

/// Queue statements outside the writer vs. the writer's Finish (which
/// reads first): does the writer get SQLITE_BUSY?
async fn queue_traffic_vs_writer(db: TestDb) {
    let store = db.open().await;
    let mut ids = Vec::new();
    for i in 0..2 {
        ids.push(store.create_session(&format!("s{i}"), 0).await.unwrap().0);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let mut traffic = Vec::new();
    for t in 0..2 {
        let (store, stop) = (store.clone(), stop.clone());
        traffic.push(tokio::spawn(async move {
            let mut n = 0u64;
            while !stop.load(Ordering::Relaxed) {
                let s = SessionId(Uuid::from_u128(((t as u128) << 64) | n as u128));
                let _ = store
                    .enqueue(s, "q", (2, QueuePool::People, false), (n as i64, None))
                    .await;
                let _ = store.take_match((2, QueuePool::People), 0).await;
                let _ = store.dequeue(s).await;
                n += 1;
            }
            n
        }));
    }
    let mut errors = Vec::new();
    for g in 0..300u128 {
        let id = Uuid::from_u128(1000 + g);
        if let Err(e) = store.create_game(game(id, &ids)).await {
            errors.push(format!("create: {e}"));
            continue;
        }
        // Five moves of each seat's own: rated (R13.4).
        for seq in 0..10u32 {
            let record = splendor_store::ActionRecord {
                game_id: id,
                seq,
                seat: (seq % 2) as u8,
                action_json: r#"{"type":"take","gems":["red"]}"#.into(),
                at: 1_000 + i64::from(seq),
                meta_json: None,
            };
            if let Err(e) = store.append_action(record).await {
                errors.push(format!("append: {e}"));
            }
        }
        if let Err(e) = store.finish_game(id, "{}", 5_000, &[1, 2]).await {
            errors.push(format!("finish: {e}"));
        }
    }
    stop.store(true, Ordering::Relaxed);
    for t in traffic {
        eprintln!("queue ops: {}", t.await.unwrap());
    }
    let r = store.rating_of(ids[0]).await.unwrap().unwrap();
    eprintln!(
        "{:?}: {} writer errors; games rated {}; first: {:?}",
        db.kind,
        errors.len(),
        r.games,
        errors.first()
    );
    assert!(errors.is_empty(), "{errors:?}");
}

/// Many concurrent take_match calls: nobody taken twice, nobody stranded.
async fn concurrent_takes(db: TestDb) {
    let store = db.open().await;
    let n = 400u128;
    for i in 0..n {
        store
            .enqueue(
                SessionId(Uuid::from_u128(i + 1)),
                "q",
                (2, QueuePool::People, false),
                ((i / 3) as i64, None),
            )
            .await
            .unwrap();
    }
    let errors = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let (store, errors) = (store.clone(), errors.clone());
        tasks.push(tokio::spawn(async move {
            let mut got = Vec::new();
            loop {
                match store.take_match((2, QueuePool::People), 0).await {
                    Ok(Some(e)) => got.push(e),
                    Ok(None) => return got,
                    Err(e) => {
                        errors.fetch_add(1, Ordering::Relaxed);
                        eprintln!("take error: {e}");
                        return got;
                    }
                }
            }
        }));
    }
    let mut seen = HashSet::new();
    let mut games = 0;
    for t in tasks {
        for g in t.await.unwrap() {
            assert_eq!(g.len(), 2);
            games += 1;
            for e in g {
                assert!(seen.insert(e.session), "taken twice: {:?}", e.session);
            }
        }
    }
    let left = store.queue_length(2, QueuePool::People).await.unwrap();
    eprintln!(
        "{:?}: {games} games, {} taken, {left} left, {} errors",
        db.kind,
        seen.len(),
        errors.load(Ordering::Relaxed)
    );
    assert_eq!(seen.len() as u64 + left, n as u64);
    assert!(left < 2, "{left} stranded in the queue");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn queue_statements_never_fail_the_writer_on_sqlite() {
    queue_traffic_vs_writer(TestDb::sqlite()).await;
}
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn queue_statements_never_fail_the_writer_on_postgres() {
    if let Some(db) = TestDb::postgres("queue_statements_never_fail_the_writer_on_postgres").await {
        queue_traffic_vs_writer(db).await;
    }
}
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_takes_take_each_entry_once_on_sqlite() {
    concurrent_takes(TestDb::sqlite()).await;
}
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_takes_take_each_entry_once_on_postgres() {
    if let Some(db) = TestDb::postgres("concurrent_takes_take_each_entry_once_on_postgres").await {
        concurrent_takes(db).await;
    }
}
