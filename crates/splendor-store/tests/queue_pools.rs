//! Quick play's pools (issue 24): people and programs wait apart and are
//! matched within their pool only; on SQLite always and on PostgreSQL
//! when `SPLENDOR_TEST_DATABASE_URL` is set.

#[allow(dead_code)] // the shared helpers this file does not use
mod common;

use common::{TestDb, on_both_backends};
use splendor_store::{QueuePool, StoreError};

on_both_backends!(
    people_and_programs_are_matched_within_their_pool_only,
    a_game_with_bots_takes_the_sessions_pool_only,
);

async fn people_and_programs_are_matched_within_their_pool_only(db: TestDb) {
    let store = db.open().await;
    let mut ids = Vec::new();
    for i in 0..5 {
        ids.push(store.create_session(&format!("s{i}"), 1).await.unwrap().0);
    }
    // Oldest first: a person, a program, a person who chose programs, a
    // program, a person.
    let queued = [
        (QueuePool::People, false),
        (QueuePool::Programs, true),
        (QueuePool::Programs, false),
        (QueuePool::Programs, true),
        (QueuePool::People, false),
    ];
    for (i, (pool, program)) in queued.iter().enumerate() {
        let at = 100 + i as i64;
        store
            .enqueue(ids[i], "x", (2, *pool, *program), (at, None))
            .await
            .unwrap();
    }
    // Queued once, whatever the pool.
    assert!(matches!(
        store
            .enqueue(ids[0], "x", (3, QueuePool::Programs, false), (200, None))
            .await,
        Err(StoreError::AlreadyQueued(2))
    ));
    assert_eq!(store.queue_length(2, QueuePool::People).await.unwrap(), 2);
    assert_eq!(store.queue_length(2, QueuePool::Programs).await.unwrap(), 3);
    let entry = store.queue_entry(ids[2]).await.unwrap().unwrap();
    assert_eq!((entry.pool, entry.program), (QueuePool::Programs, false));

    // The people's game: the two people, never the older program.
    let people = store
        .take_match((2, QueuePool::People), 0)
        .await
        .unwrap()
        .unwrap();
    let sessions: Vec<_> = people.iter().map(|e| e.session).collect();
    assert_eq!(sessions, [ids[0], ids[4]]);
    assert!(
        people
            .iter()
            .all(|e| e.pool == QueuePool::People && !e.program)
    );
    assert_eq!(
        store.take_match((2, QueuePool::People), 0).await.unwrap(),
        None
    );
    // The programs' game: the two oldest there (a program and the person
    // who chose programs); the last program waits on.
    let programs = store
        .take_match((2, QueuePool::Programs), 0)
        .await
        .unwrap()
        .unwrap();
    let sessions: Vec<_> = programs.iter().map(|e| (e.session, e.program)).collect();
    assert_eq!(sessions, [(ids[1], true), (ids[2], false)]);
    assert_eq!(store.queue_length(2, QueuePool::Programs).await.unwrap(), 1);
}

async fn a_game_with_bots_takes_the_sessions_pool_only(db: TestDb) {
    let store = db.open().await;
    let mut ids = Vec::new();
    for i in 0..3 {
        ids.push(store.create_session(&format!("s{i}"), 1).await.unwrap().0);
    }
    store
        .enqueue(ids[0], "a", (3, QueuePool::People, false), (100, Some(150)))
        .await
        .unwrap();
    store
        .enqueue(ids[1], "b", (3, QueuePool::Programs, true), (90, None))
        .await
        .unwrap();
    store
        .enqueue(ids[2], "c", (3, QueuePool::People, false), (110, None))
        .await
        .unwrap();
    // The person's wait ran out: the people of their pool, bots for the
    // rest, never the program (older as it is).
    let taken = store.take_with_bots(ids[0], 3).await.unwrap().unwrap();
    let sessions: Vec<_> = taken.iter().map(|e| e.session).collect();
    assert_eq!(sessions, [ids[0], ids[2]]);
    assert_eq!(store.queue_length(3, QueuePool::Programs).await.unwrap(), 1);
}
