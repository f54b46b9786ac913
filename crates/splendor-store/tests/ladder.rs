//! The bots' ladder (issue 24): programs of one owner are never seated
//! together by quick play, and what counts against a program's caps on
//! rated games at once (its owner's, its address's) is read from the
//! store, so it holds on every node. On SQLite always and on PostgreSQL
//! when `SPLENDOR_TEST_DATABASE_URL` is set.

#[allow(dead_code)] // the shared helpers this file does not use
mod common;

use common::{TestDb, on_both_backends};
use splendor_store::{LadderLoad, NewGame, QueuePool, SeatRecord, SessionId, Store, owner_digest};
use uuid::Uuid;

on_both_backends!(
    one_owners_programs_never_share_a_table,
    a_game_with_bots_seats_no_two_programs_of_one_owner,
    a_programs_load_counts_its_owners_and_its_addresss_games,
);

async fn program(store: &Store, name: &str, owner: Option<&str>, client: &str) -> SessionId {
    let (id, _) = store.create_session(name, 1).await.unwrap();
    store.mark_bot(id).await.unwrap();
    let owner = owner.map(owner_digest);
    store
        .set_program_owner(id, owner.as_deref(), Some(client))
        .await
        .unwrap();
    id
}

async fn one_owners_programs_never_share_a_table(db: TestDb) {
    let store = db.open().await;
    let a1 = program(&store, "a1", Some("alice's secret"), "10.0.0.1").await;
    let a2 = program(&store, "a2", Some("alice's secret"), "10.0.0.1").await;
    let b1 = program(&store, "b1", Some("bob's secret"), "10.0.0.2").await;
    let lone = program(&store, "lone", None, "10.0.0.3").await;
    for (i, id) in [a1, a2, b1, lone].into_iter().enumerate() {
        store
            .enqueue(
                id,
                "x",
                (2, QueuePool::Programs, true),
                (100 + i as i64, None),
            )
            .await
            .unwrap();
    }
    assert_eq!(
        store.queue_entry(a1).await.unwrap().unwrap().owner,
        Some(owner_digest("alice's secret"))
    );
    // Oldest first, but not Alice's second program with her first.
    let game = store
        .take_match((2, QueuePool::Programs), 0)
        .await
        .unwrap()
        .unwrap();
    let seated: Vec<_> = game.iter().map(|e| e.session).collect();
    assert_eq!(seated, [a1, b1]);
    let game = store
        .take_match((2, QueuePool::Programs), 0)
        .await
        .unwrap()
        .unwrap();
    let seated: Vec<_> = game.iter().map(|e| e.session).collect();
    assert_eq!(seated, [a2, lone]);
    // Two of one owner alone never make a game.
    let a3 = program(&store, "a3", Some("alice's secret"), "10.0.0.1").await;
    for (i, id) in [a1, a3].into_iter().enumerate() {
        store
            .enqueue(
                id,
                "x",
                (2, QueuePool::Programs, true),
                (200 + i as i64, None),
            )
            .await
            .unwrap();
    }
    assert_eq!(
        store.take_match((2, QueuePool::Programs), 0).await.unwrap(),
        None
    );
    assert_eq!(store.queue_length(2, QueuePool::Programs).await.unwrap(), 2);
}

fn rated_game(id: Uuid, seats: &[SessionId]) -> NewGame {
    NewGame {
        id,
        room_code: "LADDR".into(),
        players: seats.len() as u8,
        options_json: r#"{"target_points":15}"#.into(),
        seed: 1,
        salt: [1; 32],
        commitment: "00".repeat(32),
        seats: seats
            .iter()
            .enumerate()
            .map(|(seat, &session_id)| SeatRecord {
                seat: seat as u8,
                session_id,
                name: format!("p{seat}"),
                bot: None,
                program: true,
            })
            .collect(),
        created_at: 1,
        clock_json: None,
        listed: false,
        rated: true,
    }
}

async fn a_programs_load_counts_its_owners_and_its_addresss_games(db: TestDb) {
    let store = db.open().await;
    let a1 = program(&store, "a1", Some("alice"), "10.0.0.1").await;
    let a2 = program(&store, "a2", Some("alice"), "10.0.0.9").await;
    let b1 = program(&store, "b1", Some("bob"), "10.0.0.1").await;
    let c1 = program(&store, "c1", None, "10.0.0.7").await;
    let d1 = program(&store, "d1", None, "10.0.0.8").await;
    assert_eq!(store.ladder_load(a1).await.unwrap(), LadderLoad::default());
    // a2 plays c1; b1 plays d1: a1's owner has one game, its address one.
    store
        .create_game(rated_game(Uuid::from_u128(1), &[a2, c1]))
        .await
        .unwrap();
    store
        .create_game(rated_game(Uuid::from_u128(2), &[b1, d1]))
        .await
        .unwrap();
    let load = store.ladder_load(a1).await.unwrap();
    assert_eq!((load.by_owner, load.by_address), (1, 1));
    // A program without an owner counts its own games only.
    assert_eq!(store.ladder_load(c1).await.unwrap().by_owner, 1);
    assert_eq!(store.ladder_load(d1).await.unwrap().by_owner, 1);
    // Alice's other program waiting in the queue counts too; a finished
    // game no longer does.
    store
        .enqueue(a2, "x", (2, QueuePool::Programs, true), (5, None))
        .await
        .unwrap();
    store
        .finish_game(Uuid::from_u128(1), r#"{"ranking":[0,1]}"#, 9, &[1, 2])
        .await
        .unwrap();
    let load = store.ladder_load(a1).await.unwrap();
    assert_eq!((load.by_owner, load.by_address), (1, 1));
    assert_eq!(store.ladder_load(a2).await.unwrap().by_owner, 0);
}

async fn a_game_with_bots_seats_no_two_programs_of_one_owner(db: TestDb) {
    // The review's scenario: two of one owner's programs queue, one with
    // `bot_after_s`; built-in bots fill the seats, never her other program.
    let store = db.open().await;
    let a1 = program(&store, "a1", Some("alice"), "10.0.0.1").await;
    let a2 = program(&store, "a2", Some("alice"), "10.0.0.1").await;
    let b1 = program(&store, "b1", Some("bob"), "10.0.0.2").await;
    for (i, id) in [a1, a2, b1].into_iter().enumerate() {
        store
            .enqueue(
                id,
                "x",
                (3, QueuePool::Programs, true),
                (10 + i as i64, Some(0)),
            )
            .await
            .unwrap();
    }
    let game = store.take_with_bots(a2, 3).await.unwrap().unwrap();
    let seated: Vec<_> = game.iter().map(|e| e.session).collect();
    assert_eq!(seated, [a2, b1], "a1 is Alice's too: a bot takes the seat");
    assert!(store.queue_entry(a1).await.unwrap().is_some());
    // Its owner's other program alone: a game with bots only.
    let game = store.take_with_bots(a1, 3).await.unwrap().unwrap();
    assert_eq!(game.iter().map(|e| e.session).collect::<Vec<_>>(), [a1]);
}
