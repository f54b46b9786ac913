//! Logs written before a change of format still read the same (issue 19):
//! a store written by the server of 2026-11-25 (an SQL dump in
//! tests/fixtures, never edited) is loaded into a fresh SQLite file; its
//! unfinished game is restored into a room at the version it had, and its
//! finished game replays and verifies with the result it had.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use splendor_lobby::restore;
use splendor_lobby::stored::{StorePersistence, replay_of};
use splendor_lobby::{Lobby, LobbyConfig};
use splendor_protocol::RoomStatus;
use splendor_store::Store;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection};

const FIXTURE: &str = include_str!("fixtures/store-2026-11-25.sql");

/// The fixture loaded into a fresh SQLite file, opened as a store (its
/// migrations are recorded as applied; newer ones would run now).
async fn old_store(dir: &tempfile::TempDir) -> Store {
    let url = format!("sqlite://{}/splendor.db", dir.path().display());
    let mut conn = SqliteConnectOptions::from_str(&url)
        .unwrap()
        .create_if_missing(true)
        // The dump creates tables in name order (actions before games).
        .foreign_keys(false)
        .connect()
        .await
        .unwrap();
    sqlx::raw_sql(FIXTURE).execute(&mut conn).await.unwrap();
    conn.close().await.unwrap();
    Store::open(&url).await.unwrap()
}

#[tokio::test]
async fn a_store_of_2026_11_25_restores_and_replays_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let store = old_store(&dir).await;
    // However long ago the fixture was written, its games are neither
    // abandoned nor past their viewing time here.
    let forever = Duration::from_secs(100 * 365 * 24 * 3600);
    let lobby = Lobby::new(
        LobbyConfig {
            abandoned_game_ttl: forever,
            finished_room_ttl: forever,
            ..LobbyConfig::default()
        },
        Arc::new(StorePersistence::new(store.clone())),
    );
    let summary = restore(&lobby, &store).await.unwrap();
    assert_eq!((summary.restored, summary.viewable), (1, 1), "{summary:?}");
    assert_eq!(summary.failed, 0, "{summary:?}");

    // The game killed mid-way is back at the version its log reached.
    let unfinished = store.unfinished_games().await.unwrap();
    assert_eq!(unfinished.len(), 1);
    let running = &unfinished[0];
    assert_eq!(running.room_code, "BQBDW");
    let probe = lobby.find("BQBDW").unwrap().probe().await.unwrap();
    assert_eq!(probe.status, RoomStatus::Playing);
    assert_eq!(probe.version, Some(running.actions.len() as u64));
    assert!(running.actions.len() >= 24, "{}", running.actions.len());

    // The finished game replays, verifies, and ends as it ended then.
    let probe = lobby.find("WFYRS").unwrap().probe().await.unwrap();
    assert_eq!(
        (probe.status, probe.version),
        (RoomStatus::Finished, Some(84))
    );
    let finished = store
        .games_to_restore(0)
        .await
        .unwrap()
        .into_iter()
        .find(|g| g.room_code == "WFYRS")
        .expect("the finished game");
    let replay = replay_of(&finished).expect("finished").unwrap();
    let report = splendor_replay::verify(&replay).unwrap();
    let points: Vec<(u8, u8)> = report
        .result
        .ranking
        .iter()
        .map(|s| (s.seat, s.points))
        .collect();
    assert_eq!(points, [(0, 15), (2, 8), (1, 1)]);
}
