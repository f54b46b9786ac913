//! The analyses of finished games (issue 26): claimed by one owner at a
//! time, taken over only when the claim went quiet, finished once and
//! never written again. On SQLite always and on PostgreSQL when
//! `SPLENDOR_TEST_DATABASE_URL` is set.

#[allow(dead_code)] // the shared helpers this file does not use
mod common;

use common::{TestDb, on_both_backends};
use splendor_store::{AnalysisRecord, NewGame, SeatRecord, SessionId, Store};
use uuid::Uuid;

on_both_backends!(
    one_owner_claims_an_analysis_and_only_it_writes_progress_and_the_end,
    a_claim_gone_quiet_is_taken_over_and_the_old_owner_can_no_longer_write,
);

const HOUR: i64 = 3_600_000;

async fn stored_game(store: &Store, id: u128) -> Uuid {
    let game = NewGame {
        id: Uuid::from_u128(id),
        room_code: "ANALYS".to_owned(),
        players: 2,
        options_json: "{}".to_owned(),
        seed: 7,
        salt: [1; 32],
        commitment: "ab".repeat(32),
        seats: (0..2)
            .map(|seat| SeatRecord {
                seat,
                session_id: SessionId(Uuid::from_u128(100 + u128::from(seat))),
                name: format!("p{seat}"),
                bot: None,
                program: false,
            })
            .collect(),
        created_at: 1,
        clock_json: None,
        listed: false,
        rated: false,
    };
    store.create_game(game).await.unwrap();
    Uuid::from_u128(id)
}

async fn one_owner_claims_an_analysis_and_only_it_writes_progress_and_the_end(db: TestDb) {
    let store = db.open().await;
    let game = stored_game(&store, 1).await;
    assert_eq!(store.analysis(game).await.unwrap(), None);
    assert!(
        store
            .claim_analysis(game, "node-a", 60, HOUR)
            .await
            .unwrap()
    );
    // A live claim is nobody else's; its owner may take it again (a claim
    // it no longer works on), its progress from 0.
    assert!(
        !store
            .claim_analysis(game, "node-b", 60, HOUR)
            .await
            .unwrap()
    );
    assert!(store.analysis_progress(game, "node-a", 5).await.unwrap());
    assert!(
        store
            .claim_analysis(game, "node-a", 60, HOUR)
            .await
            .unwrap()
    );
    assert!(matches!(
        store.analysis(game).await.unwrap(),
        Some(AnalysisRecord::Running { done: 0, .. })
    ));
    assert!(store.analysis_progress(game, "node-a", 12).await.unwrap());
    assert!(!store.analysis_progress(game, "node-b", 30).await.unwrap());
    match store.analysis(game).await.unwrap() {
        Some(AnalysisRecord::Running {
            done: 12,
            total: 60,
            owner,
            idle_ms,
        }) => {
            assert_eq!(owner, "node-a");
            assert!((0..HOUR).contains(&idle_ms), "{idle_ms}");
        }
        other => panic!("{other:?}"),
    }
    // Not JSON: refused, nothing written.
    assert!(
        store
            .finish_analysis(game, "node-a", "not json")
            .await
            .is_err()
    );
    assert!(!store.finish_analysis(game, "node-b", "{}").await.unwrap());
    assert!(
        store
            .finish_analysis(game, "node-a", r#"{"moves":[]}"#)
            .await
            .unwrap()
    );
    assert_eq!(
        store.analysis(game).await.unwrap(),
        Some(AnalysisRecord::Done(r#"{"moves":[]}"#.to_owned()))
    );
    // Finished: never claimed, progressed, finished or released again.
    assert!(!store.claim_analysis(game, "node-b", 60, 0).await.unwrap());
    assert!(!store.analysis_progress(game, "node-a", 1).await.unwrap());
    assert!(!store.finish_analysis(game, "node-a", "{}").await.unwrap());
    store.release_analysis(game, "node-a").await.unwrap();
    assert!(matches!(
        store.analysis(game).await.unwrap(),
        Some(AnalysisRecord::Done(_))
    ));
}

async fn a_claim_gone_quiet_is_taken_over_and_the_old_owner_can_no_longer_write(db: TestDb) {
    let store = db.open().await;
    let game = stored_game(&store, 2).await;
    assert!(
        store
            .claim_analysis(game, "node-a", 40, HOUR)
            .await
            .unwrap()
    );
    assert!(store.analysis_progress(game, "node-a", 20).await.unwrap());
    // Quiet for at least 0 ms: taken over, its progress from 0.
    let written = store.database_now().await.unwrap();
    while store.database_now().await.unwrap() <= written {
        tokio::task::yield_now().await;
    }
    assert!(store.claim_analysis(game, "node-b", 40, 0).await.unwrap());
    assert!(matches!(
        store.analysis(game).await.unwrap(),
        Some(AnalysisRecord::Running { done: 0, ref owner, .. }) if owner == "node-b"
    ));
    assert!(!store.analysis_progress(game, "node-a", 21).await.unwrap());
    assert!(!store.finish_analysis(game, "node-a", "{}").await.unwrap());
    // A release by the old owner changes nothing; by the new one, it frees
    // the game for the next claim.
    store.release_analysis(game, "node-a").await.unwrap();
    assert!(store.analysis(game).await.unwrap().is_some());
    store.release_analysis(game, "node-b").await.unwrap();
    assert_eq!(store.analysis(game).await.unwrap(), None);
    assert!(
        store
            .claim_analysis(game, "node-c", 40, HOUR)
            .await
            .unwrap()
    );
}
