//! Room leases and fenced writes (issue 21), on SQLite always and on
//! PostgreSQL when `SPLENDOR_TEST_DATABASE_URL` is set; the race between a
//! takeover and an append in flight on PostgreSQL only (its row locks).

#[allow(dead_code)] // the shared helpers this file does not use
mod common;

use std::time::Duration;

use common::{Kind, TestDb, on_both_backends};
use splendor_store::{
    ActionRecord, NewGame, OpenRoomRecord, RoomLease, SeatRecord, SessionId, Store, StoreError,
};
use uuid::Uuid;

on_both_backends!(
    one_live_lease_per_code_and_every_claim_a_larger_epoch,
    an_expired_lease_is_claimed_with_the_next_epoch,
    a_fenced_owner_cannot_write_after_a_takeover,
    fenced_appends_batched_together_are_refused_one_by_one,
    orphaned_games_are_the_unfinished_ones_no_live_lease_holds,
    a_parked_game_waits_in_the_store_and_is_swept_when_due,
    a_parked_games_chat_is_kept_with_it_and_a_forgotten_players_lines_go,
    a_node_renews_all_its_leases_in_one_go_and_learns_which_it_lost,
    one_process_per_node_id_until_its_claim_runs_out_or_is_given_up,
    open_rooms_count_only_under_their_owners_live_lease,
    rooms_held_by_a_nodes_lease_live_and_die_with_it,
);

const TTL: Duration = Duration::from_secs(30);

fn game(id: u128, room: &str) -> NewGame {
    NewGame {
        id: Uuid::from_u128(id),
        room_code: room.to_owned(),
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
        created_at: id as i64,
        clock_json: None,
        listed: false,
        rated: false,
    }
}

fn action(game: u128, seq: u32) -> ActionRecord {
    ActionRecord {
        game_id: Uuid::from_u128(game),
        seq,
        seat: (seq % 2) as u8,
        action_json: format!(r#"{{"n":{seq}}}"#),
        at: 10,
        meta_json: None,
    }
}

async fn claim(store: &Store, code: &str, node: u16) -> Option<RoomLease> {
    store.claim_room(code, node, TTL).await.expect("a claim")
}

/// Waits until the database's clock is past `lease`'s expiry, asking the
/// database (a state, not a guessed duration).
async fn until_expired(store: &Store, lease: &RoomLease) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while store.database_now().await.expect("the time") <= lease.expires_at {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the lease never expired"
        );
        tokio::task::yield_now().await;
    }
}

async fn one_live_lease_per_code_and_every_claim_a_larger_epoch(db: TestDb) {
    let store = db.open().await;
    let a = claim(&store, "KHPQZ", 1).await.expect("a free code");
    assert_eq!((a.node, a.epoch), (1, 1));
    assert!(a.expires_at >= store.database_now().await.unwrap() + 29_000);
    // Held, by another node or by the same one.
    assert_eq!(claim(&store, "KHPQZ", 2).await, None);
    assert_eq!(claim(&store, "KHPQZ", 1).await, None);
    let b = claim(&store, "ABCDE", 2).await.expect("another code");
    assert_eq!(
        store.room_lease("KHPQZ").await.unwrap().map(|l| l.epoch),
        Some(1)
    );
    let listed: Vec<(String, u16)> = store
        .room_leases()
        .await
        .unwrap()
        .into_iter()
        .map(|l| (l.room_code, l.node))
        .collect();
    assert_eq!(listed, [("ABCDE".to_owned(), 2), ("KHPQZ".to_owned(), 1)]);
    assert!(store.renew_room(&a, TTL).await.unwrap());
    assert!(store.renew_room(&b, TTL).await.unwrap());
    // Released, the code is free at once and its next claim has the next
    // epoch; the old lease is gone for good.
    store.release_room(&a).await.unwrap();
    assert_eq!(store.room_lease("KHPQZ").await.unwrap(), None);
    assert!(!store.renew_room(&a, TTL).await.unwrap());
    let c = claim(&store, "KHPQZ", 3).await.expect("a released code");
    assert_eq!((c.node, c.epoch), (3, 2));
    assert!(!store.renew_room(&a, TTL).await.unwrap());
    store.release_room(&a).await.unwrap();
    assert_eq!(store.room_lease("KHPQZ").await.unwrap(), Some(c));
}

async fn an_expired_lease_is_claimed_with_the_next_epoch(db: TestDb) {
    let store = db.open().await;
    let short = store
        .claim_room("KHPQZ", 1, Duration::from_millis(1))
        .await
        .unwrap()
        .expect("a free code");
    until_expired(&store, &short).await;
    // Expired: not listed, and another node takes it.
    assert_eq!(store.room_lease("KHPQZ").await.unwrap(), None);
    assert!(store.room_leases().await.unwrap().is_empty());
    let next = claim(&store, "KHPQZ", 2).await.expect("an expired code");
    assert_eq!((next.node, next.epoch), (2, 2));
    // The old holder's renewal fails: it must stop the room.
    assert!(!store.renew_room(&short, TTL).await.unwrap());
}

async fn a_fenced_owner_cannot_write_after_a_takeover(db: TestDb) {
    let store = db.open().await;
    let mut raw = db.raw().await;
    let old = claim(&store, "KHPQZ", 1).await.unwrap();
    store
        .create_game_fenced(game(1, "KHPQZ"), old.epoch)
        .await
        .unwrap();
    store
        .append_action_fenced(action(1, 0), old.epoch)
        .await
        .unwrap();
    // The old owner stops renewing; another node takes the room over.
    store.release_room(&old).await.unwrap();
    let new = claim(&store, "KHPQZ", 2).await.unwrap();
    let fenced = store.append_action_fenced(action(1, 1), old.epoch).await;
    assert!(
        matches!(&fenced, Err(StoreError::Fenced { room, epoch }) if room == "KHPQZ" && *epoch == 1),
        "{fenced:?}"
    );
    assert_eq!(raw.action_count().await, 1);
    // A retry of a move stored before the takeover is still answered as stored.
    store
        .append_action_fenced(action(1, 0), old.epoch)
        .await
        .unwrap();
    // The new owner writes on; the old one cannot start a game either.
    store
        .append_action_fenced(action(1, 1), new.epoch)
        .await
        .unwrap();
    let refused = store.create_game_fenced(game(2, "KHPQZ"), old.epoch).await;
    assert!(
        matches!(refused, Err(StoreError::Fenced { .. })),
        "{refused:?}"
    );
    assert!(store.game(Uuid::from_u128(2)).await.unwrap().is_none());
    // An epoch that never was is fenced too; unfenced writes are not checked.
    let never = store.append_action_fenced(action(1, 2), 99).await;
    assert!(matches!(never, Err(StoreError::Fenced { .. })), "{never:?}");
    store.append_action(action(1, 2)).await.unwrap();
    assert_eq!(raw.action_count().await, 3);
}

async fn fenced_appends_batched_together_are_refused_one_by_one(db: TestDb) {
    let store = db.open().await;
    let mut raw = db.raw().await;
    let codes = ["AAAAA", "BBBBB", "CCCCC", "DDDDD"];
    let mut leases = Vec::new();
    for (i, code) in codes.iter().enumerate() {
        let lease = claim(&store, code, 1).await.unwrap();
        store
            .create_game_fenced(game(10 + i as u128, code), lease.epoch)
            .await
            .unwrap();
        leases.push(lease);
    }
    // Room BBBBB is taken over.
    store.release_room(&leases[1]).await.unwrap();
    claim(&store, "BBBBB", 2).await.unwrap();
    // All four appends at once: the writer puts them in one statement.
    let appends = leases
        .iter()
        .enumerate()
        .map(|(i, lease)| store.append_action_fenced(action(10 + i as u128, 0), lease.epoch));
    let answers = futures_util::future::join_all(appends).await;
    assert!(
        answers[0].is_ok() && answers[2].is_ok() && answers[3].is_ok(),
        "{answers:?}"
    );
    assert!(
        matches!(&answers[1], Err(StoreError::Fenced { room, .. }) if room == "BBBBB"),
        "{answers:?}"
    );
    assert_eq!(raw.action_count().await, 3);
}

/// PostgreSQL: an append in flight against a takeover in flight. The
/// takeover holds the lease row (updated, not yet committed) when the old
/// owner's append arrives: the append waits for it, then sees the new
/// epoch and is refused. Without the share lock it would read the old
/// epoch from its snapshot and write into a game another node now owns.
#[tokio::test]
async fn postgres_an_append_racing_a_takeover_waits_and_is_fenced() {
    let Some(db) = TestDb::postgres("append racing a takeover").await else {
        return;
    };
    assert_eq!(db.kind, Kind::Postgres);
    let store = db.open().await;
    let old = claim(&store, "KHPQZ", 1).await.unwrap();
    store
        .create_game_fenced(game(1, "KHPQZ"), old.epoch)
        .await
        .unwrap();
    let (mut admin, name) = db.pg_admin().await;
    let mut takeover = db.raw().await;
    takeover
        .execute(
            "",
            "BEGIN; UPDATE room_leases SET node_id = 2, epoch = epoch + 1 WHERE room_code = 'KHPQZ'",
        )
        .await;
    let append = tokio::spawn({
        let store = store.clone();
        async move { store.append_action_fenced(action(1, 0), 1).await }
    });
    // The append waits on the lease row's lock (asked of the server, not
    // guessed by time).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let waiting: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'",
        )
        .bind(&name)
        .fetch_one(&mut admin)
        .await
        .unwrap();
        if waiting > 0 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the append never waited for the lease"
        );
        tokio::task::yield_now().await;
    }
    takeover.execute("", "COMMIT").await;
    let answer = append.await.unwrap();
    assert!(
        matches!(answer, Err(StoreError::Fenced { .. })),
        "{answer:?}"
    );
    let mut raw = db.raw().await;
    assert_eq!(raw.action_count().await, 0);
}

async fn orphaned_games_are_the_unfinished_ones_no_live_lease_holds(db: TestDb) {
    let store = db.open().await;
    let held = claim(&store, "AAAAA", 1).await.unwrap();
    store
        .create_game_fenced(game(1, "AAAAA"), held.epoch)
        .await
        .unwrap();
    let lost = claim(&store, "BBBBB", 1).await.unwrap();
    store
        .create_game_fenced(game(2, "BBBBB"), lost.epoch)
        .await
        .unwrap();
    // A game stored without any lease (a single node's).
    store.create_game(game(3, "CCCCC")).await.unwrap();
    let done = claim(&store, "DDDDD", 1).await.unwrap();
    store
        .create_game_fenced(game(4, "DDDDD"), done.epoch)
        .await
        .unwrap();
    store
        .finish_game(Uuid::from_u128(4), "{}", 20, &[1, 2])
        .await
        .unwrap();
    store.release_room(&done).await.unwrap();
    assert_eq!(store.orphaned_games().await.unwrap(), [Uuid::from_u128(3)]);
    store.release_room(&lost).await.unwrap();
    assert_eq!(
        store.orphaned_games().await.unwrap(),
        [Uuid::from_u128(2), Uuid::from_u128(3)]
    );

    // Where a seated session belongs: its newest unfinished game's room.
    let ann = SessionId(Uuid::from_u128(100));
    assert_eq!(
        store.seat_room(ann).await.unwrap().as_deref(),
        Some("CCCCC")
    );
    let stranger = SessionId(Uuid::from_u128(999));
    assert_eq!(store.seat_room(stranger).await.unwrap(), None);

    // A player's games in play (issue 25): every unfinished one, newest
    // first, with its log; the finished one is not among them.
    let games: Vec<String> = store
        .unfinished_games_of(ann, 50)
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.room_code)
        .collect();
    assert_eq!(games, ["CCCCC", "BBBBB", "AAAAA"]);
    let newest: Vec<String> = store
        .unfinished_games_of(ann, 1)
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.room_code)
        .collect();
    assert_eq!(newest, ["CCCCC"]);
    assert!(
        store
            .unfinished_games_of(stranger, 50)
            .await
            .unwrap()
            .is_empty()
    );
}

async fn a_node_renews_all_its_leases_in_one_go_and_learns_which_it_lost(db: TestDb) {
    let store = db.open().await;
    let short = Duration::from_millis(200);
    let mut held = Vec::new();
    for code in ["BCDFG", "HJKLM", "NPQRS"] {
        held.push(store.claim_room(code, 1, short).await.unwrap().unwrap());
    }
    // Another node's lease is not this node's to renew.
    let other = claim(&store, "TVWXZ", 2).await.unwrap();
    // One of node 1's leases was given up, another taken over after it
    // expired (a paused node).
    store.release_room(&held[0]).await.unwrap();
    until_expired(&store, &held[1]).await;
    let taken = claim(&store, "HJKLM", 3).await.expect("an expired lease");
    assert_eq!(taken.epoch, 2);

    let mut asked = held.clone();
    asked.push(RoomLease {
        node: 1,
        ..other.clone()
    });
    let lost = store.renew_rooms(1, &asked, TTL).await.unwrap();
    let lost: Vec<&str> = lost.iter().map(|l| l.room_code.as_str()).collect();
    assert_eq!(lost, ["BCDFG", "HJKLM", "TVWXZ"]);
    // The one still held lives a whole TTL from now; the others are as
    // they were.
    let now = store.database_now().await.unwrap();
    let leases = store.room_leases().await.unwrap();
    let of = |code: &str| leases.iter().find(|l| l.room_code == code).cloned();
    assert!(of("NPQRS").unwrap().expires_at >= now + 29_000);
    assert_eq!(of("HJKLM"), Some(taken));
    assert_eq!(of("TVWXZ"), Some(other));
    assert_eq!(of("BCDFG"), None, "given up: not live");
    // Nothing to renew costs nothing.
    assert!(store.renew_rooms(1, &[], TTL).await.unwrap().is_empty());
}

async fn one_process_per_node_id_until_its_claim_runs_out_or_is_given_up(db: TestDb) {
    let store = db.open().await;
    let first = store
        .claim_node(1, "instance-a", TTL)
        .await
        .unwrap()
        .expect("a free id");
    assert_eq!((first.node, first.instance.as_str()), (1, "instance-a"));
    // A second process asking for the same id is refused while the first
    // holds it; another id is free.
    assert_eq!(store.claim_node(1, "instance-b", TTL).await.unwrap(), None);
    assert!(
        store
            .claim_node(2, "instance-b", TTL)
            .await
            .unwrap()
            .is_some()
    );
    // The holder renews (its start time stays).
    let renewed = store
        .claim_node(1, "instance-a", TTL)
        .await
        .unwrap()
        .expect("a renewal");
    assert_eq!(renewed.started_at, first.started_at);
    assert!(renewed.expires_at >= first.expires_at);
    assert_eq!(
        store.node_claim(1).await.unwrap().map(|c| c.instance),
        Some("instance-a".to_owned())
    );
    let live: Vec<u16> = store
        .nodes()
        .await
        .unwrap()
        .iter()
        .map(|c| c.node)
        .collect();
    assert_eq!(live, [1, 2]);
    // Another's release changes nothing; the holder's frees the id at once.
    store.release_node(1, "instance-b").await.unwrap();
    assert_eq!(store.claim_node(1, "instance-c", TTL).await.unwrap(), None);
    store.release_node(1, "instance-a").await.unwrap();
    assert_eq!(store.node_claim(1).await.unwrap(), None);
    let c = store
        .claim_node(1, "instance-c", TTL)
        .await
        .unwrap()
        .expect("a released id");
    assert_eq!(c.instance, "instance-c");
    // A claim that ran out (its process died) is taken by the next.
    let short = store
        .claim_node(3, "instance-d", Duration::from_millis(1))
        .await
        .unwrap()
        .expect("a free id");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while store.database_now().await.unwrap() <= short.expires_at {
        assert!(tokio::time::Instant::now() < deadline, "never expired");
        tokio::task::yield_now().await;
    }
    assert_eq!(store.node_claim(3).await.unwrap(), None);
    let e = store
        .claim_node(3, "instance-e", TTL)
        .await
        .unwrap()
        .expect("an expired id");
    assert!(e.started_at >= short.started_at);
    // The dead one cannot renew it back.
    assert_eq!(store.claim_node(3, "instance-d", TTL).await.unwrap(), None);
}

fn open_room(lease: &RoomLease, status: &str, creator: u128, client: &str) -> OpenRoomRecord {
    OpenRoomRecord {
        room_code: lease.room_code.clone(),
        node: lease.node,
        epoch: lease.epoch,
        listed: true,
        status: status.to_owned(),
        seats: 4,
        players: 1,
        host: format!("host of {}", lease.room_code),
        creator: Some(SessionId(Uuid::from_u128(creator))),
        client: Some(client.to_owned()),
        programs: 1,
    }
}

async fn open_rooms_count_only_under_their_owners_live_lease(db: TestDb) {
    let store = db.open().await;
    let a = claim(&store, "AAAAA", 1).await.unwrap();
    let b = claim(&store, "BBBBB", 2).await.unwrap();
    let c = claim(&store, "CCCCC", 2).await.unwrap();
    store
        .publish_open_room(&open_room(&a, "waiting", 7, "10.0.0.1"))
        .await
        .unwrap();
    store
        .publish_open_room(&open_room(&b, "waiting", 7, "10.0.0.1"))
        .await
        .unwrap();
    store
        .publish_open_room(&open_room(&c, "playing", 7, "10.0.0.2"))
        .await
        .unwrap();
    let codes = |rooms: Vec<OpenRoomRecord>| -> Vec<String> {
        rooms.into_iter().map(|r| r.room_code).collect()
    };
    assert_eq!(
        codes(store.open_rooms().await.unwrap()),
        ["AAAAA", "BBBBB", "CCCCC"]
    );
    assert_eq!(
        store.open_rooms().await.unwrap()[0],
        open_room(&a, "waiting", 7, "10.0.0.1")
    );
    // What counts against session 7 and address 10.0.0.1 beyond node 1.
    let seen = store
        .open_rooms_elsewhere(1, Some(SessionId(Uuid::from_u128(7))), Some("10.0.0.1"))
        .await
        .unwrap();
    assert_eq!((seen.own, seen.waiting_from_client), (2, 1));
    let none = store.open_rooms_elsewhere(1, None, None).await.unwrap();
    assert_eq!((none.own, none.waiting_from_client), (0, 0));
    // A released (or expired) lease takes its room out of every count.
    store.release_room(&b).await.unwrap();
    assert_eq!(codes(store.open_rooms().await.unwrap()), ["AAAAA", "CCCCC"]);
    // Taken over: the new owner's row stands; the old owner's late write
    // does not overwrite it (and would not count: its lease is gone).
    let b2 = claim(&store, "BBBBB", 3).await.unwrap();
    store
        .publish_open_room(&open_room(&b2, "playing", 8, "10.0.0.3"))
        .await
        .unwrap();
    store
        .publish_open_room(&open_room(&b, "waiting", 7, "10.0.0.1"))
        .await
        .unwrap();
    let rooms = store.open_rooms().await.unwrap();
    assert_eq!(rooms[1], open_room(&b2, "playing", 8, "10.0.0.3"));
}

/// Issue 25: a parked game is no one's orphan and is not restored at
/// start; the sweep finds it once its deadline passed, marks it seen, and
/// unparking it (once) puts it back among the orphans' candidates.
async fn a_parked_game_waits_in_the_store_and_is_swept_when_due(db: TestDb) {
    let store = db.open().await;
    store.create_game(game(1, "AAAAA")).await.unwrap();
    store.create_game(game(2, "BBBBB")).await.unwrap();
    let one = Uuid::from_u128(1);
    store
        .park_room("AAAAA", one, (5_000, 1_000), None)
        .await
        .unwrap();
    assert_eq!(store.parked_count().await.unwrap(), 1);
    assert_eq!(store.orphaned_games().await.unwrap(), [Uuid::from_u128(2)]);
    let restored: Vec<Uuid> = store
        .unfinished_games()
        .await
        .unwrap()
        .iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(
        restored,
        [Uuid::from_u128(2)],
        "a parked game is not restored at start"
    );
    let parked = store.parked_room("AAAAA").await.unwrap().unwrap();
    assert_eq!(
        (
            parked.game,
            parked.deadline_at,
            parked.parked_at,
            parked.swept_at
        ),
        (one, 5_000, 1_000, None)
    );
    // Not due yet; then due, as it was, and marked seen from then on.
    assert!(store.due_parked_rooms(4_999, 10).await.unwrap().is_empty());
    let due = store.due_parked_rooms(6_000, 10).await.unwrap();
    assert_eq!(due, std::slice::from_ref(&parked));
    let again = store.due_parked_rooms(7_000, 10).await.unwrap();
    assert_eq!(again[0].swept_at, Some(6_000));
    // Unparked once: the second finds nothing.
    assert!(store.unpark_room("AAAAA", one).await.unwrap());
    assert!(!store.unpark_room("AAAAA", one).await.unwrap());
    assert_eq!(store.parked_room("AAAAA").await.unwrap(), None);
    assert_eq!(
        store.orphaned_games().await.unwrap(),
        [one, Uuid::from_u128(2)]
    );
    // Fenced: only under the room's current lease.
    let lease = claim(&store, "AAAAA", 1).await.unwrap();
    let stale = store
        .park_room("AAAAA", one, (9_000, 8_000), Some(lease.epoch + 1))
        .await;
    assert!(matches!(stale, Err(StoreError::Fenced { .. })), "{stale:?}");
    assert_eq!(store.parked_room("AAAAA").await.unwrap(), None);
    store
        .park_room("AAAAA", one, (9_000, 8_000), Some(lease.epoch))
        .await
        .unwrap();
    // A game that cannot be loaded is put out of the way.
    store.postpone_parked("AAAAA", one, 99_000).await.unwrap();
    assert_eq!(
        store
            .parked_room("AAAAA")
            .await
            .unwrap()
            .unwrap()
            .deadline_at,
        99_000
    );
    // Parked again: a fresh deadline, not seen passed.
    store
        .park_room("AAAAA", one, (9_000, 8_000), None)
        .await
        .unwrap();
    let parked = store.parked_room("AAAAA").await.unwrap().unwrap();
    assert_eq!((parked.deadline_at, parked.swept_at), (9_000, None));
}

/// Issue 23: the chat a room kept goes with its parked game and comes back
/// as it was; forgetting a player takes their lines out of it, and only
/// theirs.
async fn a_parked_games_chat_is_kept_with_it_and_a_forgotten_players_lines_go(db: TestDb) {
    let store = db.open().await;
    store.create_game(game(1, "AAAAA")).await.unwrap();
    let (ann, _) = store.create_session("ann", 1).await.unwrap();
    let (bob, _) = store.create_session("bob", 1).await.unwrap();
    let chat = format!(
        r#"[{{"session":"{}","from":"ann","seat":0,"text":"hi","line":5}},{{"session":"{}","from":"bob","text":"yo","line":6}}]"#,
        ann.0, bob.0
    );
    store
        .park_room_with_chat(
            "AAAAA",
            Uuid::from_u128(1),
            (5_000, 1_000),
            None,
            Some(&chat),
            None,
        )
        .await
        .unwrap();
    let parked = store.parked_room("AAAAA").await.unwrap().unwrap();
    assert_eq!(parked.chat.as_deref(), Some(chat.as_str()));
    assert!(
        store
            .forget_session(bob, "operator", "asked")
            .await
            .unwrap()
    );
    let parked = store.parked_room("AAAAA").await.unwrap().unwrap();
    let kept: serde_json::Value = serde_json::from_str(parked.chat.as_deref().unwrap()).unwrap();
    assert_eq!(kept.as_array().unwrap().len(), 1, "{kept}");
    assert_eq!(kept[0]["text"], "hi");
    // Parked again without chat: none kept.
    store
        .park_room("AAAAA", Uuid::from_u128(1), (6_000, 2_000), None)
        .await
        .unwrap();
    assert_eq!(
        store.parked_room("AAAAA").await.unwrap().unwrap().chat,
        None
    );
}

/// Issue 44: rooms claimed by a node's lease live exactly as long as the
/// node's claim on its id, whatever their number; renewing is that one
/// row; when the claim lapses every room of the node is an orphan at once
/// and another node takes it with the next epoch (fencing the old owner);
/// the lapsed node, its claim taken again, keeps what nobody took.
async fn rooms_held_by_a_nodes_lease_live_and_die_with_it(db: TestDb) {
    let store = db.open().await;
    let short = Duration::from_millis(300);
    let node1 = store.claim_node(1, "one", short).await.unwrap().unwrap();
    store.claim_node(2, "two", TTL).await.unwrap().unwrap();
    let mut rooms = Vec::new();
    for (i, code) in ["KAAAA", "KBBBB", "KCCCC"].into_iter().enumerate() {
        let lease = store
            .claim_room_by_node(code, 1, "one")
            .await
            .unwrap()
            .expect("a free code");
        assert_eq!(lease.epoch, 1);
        store
            .create_game_fenced(game(50 + i as u128, code), lease.epoch)
            .await
            .unwrap();
        rooms.push(lease);
    }
    // Held: nobody else claims them, the listing shows them, no orphans.
    assert_eq!(
        store.claim_room_by_node("KAAAA", 2, "two").await.unwrap(),
        None
    );
    assert_eq!(store.room_leases().await.unwrap().len(), 3);
    assert!(store.orphaned_games().await.unwrap().is_empty());
    // Renewing is the node's row: true while live.
    assert!(store.renew_node(1, "one", short).await.unwrap());
    assert!(!store.renew_node(1, "someone-else", short).await.unwrap());

    // The claim lapses (the node paused, say): every room is an orphan.
    let lapsed = store
        .node_claim(1)
        .await
        .unwrap()
        .map_or(node1.expires_at, |c| c.expires_at);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while store.database_now().await.unwrap() <= lapsed {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the claim never lapsed"
        );
        tokio::task::yield_now().await;
    }
    assert_eq!(store.orphaned_games().await.unwrap().len(), 3);
    assert!(store.room_leases().await.unwrap().is_empty());
    // A node whose own claim lapsed claims nothing (the lease would be
    // born an orphan).
    assert_eq!(
        store.claim_room_by_node("KCCCC", 1, "one").await.unwrap(),
        None
    );
    assert_eq!(
        store.claim_room_by_node("KNEWW", 1, "one").await.unwrap(),
        None
    );
    // Node 2 takes one over: the next epoch; the old owner's write is fenced.
    let taken = store
        .claim_room_by_node("KBBBB", 2, "two")
        .await
        .unwrap()
        .expect("an orphan is claimed");
    assert_eq!((taken.node, taken.epoch), (2, 2));
    let fenced = store
        .append_action_fenced(action(51, 0), rooms[1].epoch)
        .await;
    assert!(
        matches!(fenced, Err(StoreError::Fenced { .. })),
        "{fenced:?}"
    );
    // Node 1 comes back: its renewal says it lapsed; it takes its claim
    // again and holds what nobody took, which lives again.
    assert!(!store.renew_node(1, "one", TTL).await.unwrap());
    store
        .claim_node(1, "one", TTL)
        .await
        .unwrap()
        .expect("its id again");
    let mut held: Vec<(String, u64)> = store.held_rooms(1, "one").await.unwrap();
    held.sort();
    assert_eq!(held, [("KAAAA".to_owned(), 1), ("KCCCC".to_owned(), 1)]);
    assert!(store.orphaned_games().await.unwrap().is_empty());
    store
        .append_action_fenced(action(50, 0), rooms[0].epoch)
        .await
        .expect("a room nobody took is still the node's");
    // A released room is free at once, even while its node lives.
    store.release_room(&rooms[2]).await.unwrap();
    let again = store.claim_room_by_node("KCCCC", 2, "two").await.unwrap();
    assert_eq!(again.map(|l| l.epoch), Some(2));
}
