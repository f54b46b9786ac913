//! Blocks (issue 22): kept per blocker, limited, and quick play never
//! seats a blocker with the one it blocked (nor the other way round). On
//! SQLite always and on PostgreSQL when `SPLENDOR_TEST_DATABASE_URL` is set.

#[allow(dead_code)] // the shared helpers this file does not use
mod common;

use common::{TestDb, on_both_backends};
use splendor_store::{Blocking, QueuePool, StoreError};

on_both_backends!(
    a_block_is_kept_listed_limited_and_undone,
    quick_play_never_seats_a_blocker_with_the_one_it_blocked,
);

async fn a_block_is_kept_listed_limited_and_undone(db: TestDb) {
    let store = db.open().await;
    let (ann, _) = store.create_session("ann", 1).await.unwrap();
    let (bob, _) = store.create_session("bob", 1).await.unwrap();
    let (cy, _) = store.create_session("cy", 1).await.unwrap();
    assert_eq!(store.block(ann, bob, 10, 2).await.unwrap(), Blocking::Made);
    assert_eq!(
        store.block(ann, bob, 11, 2).await.unwrap(),
        Blocking::Already
    );
    assert!(matches!(
        store.block(ann, ann, 12, 2).await,
        Err(StoreError::Invalid { .. })
    ));
    assert_eq!(store.block(ann, cy, 13, 2).await.unwrap(), Blocking::Made);
    let (dan, _) = store.create_session("dan", 1).await.unwrap();
    assert_eq!(
        store.block(ann, dan, 14, 2).await.unwrap(),
        Blocking::TooMany
    );
    let listed = store.blocks_of(ann).await.unwrap();
    let names: Vec<_> = listed.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["cy", "bob"], "newest first");
    assert!(store.blocks_of(bob).await.unwrap().is_empty());
    assert!(store.unblock(ann, bob).await.unwrap());
    assert!(!store.unblock(ann, bob).await.unwrap());
    assert_eq!(store.block(ann, dan, 15, 2).await.unwrap(), Blocking::Made);
    // Forgetting a player takes its blocks, made and received.
    assert!(store.forget_session(cy, "operator", "asked").await.unwrap());
    let names: Vec<_> = store
        .blocks_of(ann)
        .await
        .unwrap()
        .into_iter()
        .map(|b| b.name)
        .collect();
    assert_eq!(names, ["dan"]);
}

async fn quick_play_never_seats_a_blocker_with_the_one_it_blocked(db: TestDb) {
    let store = db.open().await;
    let mut ids = Vec::new();
    for name in ["ann", "bob", "cy", "dan"] {
        ids.push(store.create_session(name, 1).await.unwrap().0);
    }
    let (ann, bob, cy, dan) = (ids[0], ids[1], ids[2], ids[3]);
    store.block(bob, ann, 1, 100).await.unwrap();
    for (i, id) in [ann, bob, cy].into_iter().enumerate() {
        store
            .enqueue(
                id,
                "x",
                (2, QueuePool::People, false),
                (10 + i as i64, Some(0)),
            )
            .await
            .unwrap();
    }
    // Oldest first, but never ann with bob, who blocked her.
    let game = store
        .take_match((2, QueuePool::People), 0)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        game.iter().map(|e| e.session).collect::<Vec<_>>(),
        [ann, cy]
    );
    assert_eq!(
        store.take_match((2, QueuePool::People), 0).await.unwrap(),
        None
    );
    // A game filled with bots does not take ann to bob's table either.
    store.dequeue(bob).await.unwrap();
    for (i, id) in [ann, bob, dan].into_iter().enumerate() {
        store
            .enqueue(
                id,
                "x",
                (3, QueuePool::People, false),
                (30 + i as i64, Some(0)),
            )
            .await
            .unwrap();
    }
    let game = store.take_with_bots(bob, 3).await.unwrap().unwrap();
    assert_eq!(
        game.iter().map(|e| e.session).collect::<Vec<_>>(),
        [bob, dan]
    );
}
