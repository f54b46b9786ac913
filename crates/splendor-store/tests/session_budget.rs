//! Sessions per address (issue 45): an address makes at most so many
//! sessions in an hour, counted with the insert (concurrent makers from
//! one address count each other), and the hour slides. On SQLite always
//! and on PostgreSQL when `SPLENDOR_TEST_DATABASE_URL` is set.

#[allow(dead_code)] // the shared helpers this file does not use
mod common;

use common::{TestDb, on_both_backends};
use splendor_store::{SESSION_WINDOW_MS, SessionOrigin, StoreError};

on_both_backends!(
    an_address_makes_so_many_sessions_an_hour_and_the_hour_slides,
    sessions_made_at_once_from_one_address_count_each_other,
);

fn from(client: &str, per_hour: u32) -> SessionOrigin {
    SessionOrigin {
        client: client.into(),
        per_hour,
    }
}

async fn an_address_makes_so_many_sessions_an_hour_and_the_hour_slides(db: TestDb) {
    let store = db.open().await;
    let origin = from("203.0.113.9", 3);
    let t0 = 1_000_000;
    for i in 0..3 {
        store
            .create_session_from("p", t0 + i * 1000, Some(&origin))
            .await
            .expect("within the budget");
    }
    let refused = store
        .create_session_from("p", t0 + 10_000, Some(&origin))
        .await
        .expect_err("past the budget");
    // The oldest leaves the hour at t0 + 1 h: 1 h - 10 s from now.
    assert!(
        matches!(
            refused,
            StoreError::TooManySessions { cap: 3, retry_after_ms }
                if retry_after_ms == (SESSION_WINDOW_MS - 10_000) as u64
        ),
        "{refused:?}"
    );
    // Another address, and a session made without an origin, are not held.
    store
        .create_session_from("q", t0 + 10_000, Some(&from("198.51.100.1", 3)))
        .await
        .expect("another address");
    store
        .create_session("r", t0 + 10_000)
        .await
        .expect("no origin");
    // Once the oldest is an hour old, one more may be made.
    store
        .create_session_from("p", t0 + SESSION_WINDOW_MS, Some(&origin))
        .await
        .expect("the hour slid");
    assert!(
        store
            .create_session_from("p", t0 + SESSION_WINDOW_MS, Some(&origin))
            .await
            .is_err()
    );
}

async fn sessions_made_at_once_from_one_address_count_each_other(db: TestDb) {
    let store = db.open().await;
    let origin = from("203.0.113.10", 5);
    let made = futures_util::future::join_all(
        (0..20).map(|_| store.create_session_from("p", 5_000_000, Some(&origin))),
    )
    .await;
    let ok = made.iter().filter(|r| r.is_ok()).count();
    assert_eq!(ok, 5, "{made:?}");
    assert!(
        made.iter()
            .all(|r| r.is_ok() || matches!(r, Err(StoreError::TooManySessions { .. }))),
        "{made:?}"
    );
}
