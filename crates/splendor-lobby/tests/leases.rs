//! Room leases in the database (issue 21, first step): two lobbies in one
//! process stand for two nodes over one store, each with a
//! `StoreDirectory`. When another node takes a room over, the old owner
//! writes nothing more into its game and closes the room, whether it finds
//! out at its next write (fenced by the store) or at its next renewal; a
//! live room's lease is renewed for as long as it lives.
//!
//! On an SQLite file always, and on PostgreSQL too when
//! `SPLENDOR_TEST_DATABASE_URL` is set. Real clock (the database's time
//! decides expiry); the tests wait for states, with a timeout as a net.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{Client, started_game};
use splendor_lobby::stored::StorePersistence;
use splendor_lobby::{
    Lobby, LobbyConfig, NodeId, RoomDirectory, RoomError, RoomHandle, StoreDirectory,
};
use splendor_protocol::ServerMessage;
use splendor_store::Store;
use splendor_store::testing::PgTestDatabase;
use tokio::time::timeout;

const SAFETY: Duration = Duration::from_secs(20);

/// A database for one test: an SQLite file, or a fresh PostgreSQL one.
struct Db {
    url: String,
    _dir: Option<tempfile::TempDir>,
    _pg: Option<PgTestDatabase>,
}

impl Db {
    fn sqlite() -> Db {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}/data/splendor.db", dir.path().display());
        Db {
            url,
            _dir: Some(dir),
            _pg: None,
        }
    }

    async fn postgres(test: &str) -> Option<Db> {
        let pg = PgTestDatabase::create("splendor_lease", test).await?;
        Some(Db {
            url: pg.url.clone(),
            _dir: None,
            _pg: Some(pg),
        })
    }

    /// Both kinds this machine has.
    async fn all(test: &str) -> Vec<Db> {
        let mut dbs = vec![Db::sqlite()];
        dbs.extend(Db::postgres(test).await);
        dbs
    }
}

/// A node: a lobby with its own store handle and a directory in it.
async fn node(db: &Db, id: u16, ttl: Duration) -> (Lobby, Arc<StoreDirectory>, Store) {
    let store = Store::open(&db.url).await.unwrap();
    let directory = Arc::new(StoreDirectory::new(store.clone(), ttl));
    let lobby = Lobby::with_directory(
        LobbyConfig {
            node: NodeId(id),
            ..LobbyConfig::default()
        },
        Arc::new(StorePersistence::new(store.clone())),
        directory.clone(),
    );
    (lobby, directory, store)
}

/// The player to act: its index, and an action it may take.
async fn to_act(players: &mut [Client]) -> (usize, splendor_rules::Action) {
    let mut found = None;
    for (i, p) in players.iter_mut().enumerate() {
        let state = p.state().await;
        if let Some(legal) = state.legal_actions {
            found = Some((i, common::pick(&legal, &mut 3)));
        }
    }
    found.expect("someone is to act")
}

/// Node 2 takes the room over as it would once node 1's lease expired.
async fn take_over(store: &Store, dir2: &StoreDirectory, room: &RoomHandle) -> u64 {
    let lease = store
        .room_lease(room.code().as_str())
        .await
        .unwrap()
        .expect("the room's lease");
    store.release_room(&lease).await.unwrap();
    let taken = dir2.claim(room.code(), NodeId(2)).await.unwrap();
    assert_eq!(taken.epoch, lease.epoch + 1);
    taken.epoch
}

async fn room_closed_reason(player: &mut Client) -> String {
    match player
        .recv_until("room_closed", |m| matches!(m, ServerMessage::RoomClosed(_)))
        .await
    {
        ServerMessage::RoomClosed(closed) => closed.reason,
        _ => unreachable!(),
    }
}

async fn actions_stored(store: &Store, room: &RoomHandle) -> usize {
    let games = store.unfinished_games().await.unwrap();
    games
        .iter()
        .find(|g| g.room_code == room.code().as_str())
        .map_or(0, |g| g.actions.len())
}

#[tokio::test]
async fn a_room_taken_over_elsewhere_writes_nothing_more_and_closes() {
    for db in Db::all("taken over, then a move").await {
        let (a, _, store) = node(&db, 1, Duration::from_secs(30)).await;
        let (_b, dir2, _) = node(&db, 2, Duration::from_secs(30)).await;
        let (room, mut players) = started_game(&a, 2).await;
        let (i, action) = to_act(&mut players).await;
        players[i].act(&room, action, Some(0)).await.unwrap();
        assert_eq!(actions_stored(&store, &room).await, 1);

        take_over(&store, &dir2, &room).await;
        let (i, action) = to_act(&mut players).await;
        // The move is fenced by the store: refused, not stored, and the
        // room closes for everyone in it, saying it moved.
        assert_eq!(
            players[i].act(&room, action, Some(1)).await,
            Err(RoomError::RoomClosed)
        );
        for p in &mut players {
            assert_eq!(room_closed_reason(p).await, "closed-moved");
        }
        timeout(SAFETY, room.closed()).await.expect("the room ends");
        let games = store.unfinished_games().await.unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(
            games[0].actions.len(),
            1,
            "the fenced move is not in the log"
        );
        // The code stays the new owner's: the old room gives back nothing.
        let lease = dir2.lookup(room.code()).await.expect("node 2's lease");
        assert_eq!(lease.node, NodeId(2));
    }
}

#[tokio::test]
async fn a_lease_lost_at_renewal_closes_the_room_at_once() {
    for db in Db::all("lost at renewal").await {
        let (a, _, store) = node(&db, 1, Duration::from_secs(30)).await;
        let (_b, dir2, _) = node(&db, 2, Duration::from_secs(30)).await;
        let (room, mut players) = started_game(&a, 2).await;
        let (other, mut rest) = started_game(&a, 2).await;
        assert_eq!(a.renew_leases().await, 0, "both leases are this node's");
        take_over(&store, &dir2, &room).await;
        assert_eq!(a.renew_leases().await, 1);
        for p in &mut players {
            assert_eq!(room_closed_reason(p).await, "closed-moved");
        }
        timeout(SAFETY, room.closed()).await.expect("the room ends");
        // The other room plays on under its lease.
        let (i, action) = to_act(&mut rest).await;
        rest[i].act(&other, action, Some(0)).await.unwrap();
        assert_eq!(a.renew_leases().await, 0);
    }
}

#[tokio::test]
async fn a_live_room_keeps_its_lease_past_its_first_expiry() {
    for db in Db::all("renewed").await {
        let (a, _, store) = node(&db, 1, Duration::from_millis(1500)).await;
        let (_b, dir2, _) = node(&db, 2, Duration::from_millis(1500)).await;
        let renewal = a
            .spawn_lease_renewal()
            .expect("leases that expire are renewed");
        let (room, _players) = started_game(&a, 2).await;
        let first = store
            .room_lease(room.code().as_str())
            .await
            .unwrap()
            .expect("a lease");
        // Until the database's clock is past the first expiry.
        timeout(SAFETY, async {
            while store.database_now().await.unwrap() <= first.expires_at {
                tokio::task::yield_now().await;
            }
        })
        .await
        .expect("the database's clock moves");
        let now = store.room_lease(room.code().as_str()).await.unwrap();
        assert_eq!(
            now.as_ref().map(|l| l.epoch),
            Some(first.epoch),
            "renewed, not lost"
        );
        assert!(now.unwrap().expires_at > first.expires_at);
        assert!(
            dir2.claim(room.code(), NodeId(2)).await.is_err(),
            "still held"
        );
        renewal.abort();
    }
}
