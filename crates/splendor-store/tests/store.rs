//! The store's behaviour, written once and run against SQLite always and
//! against PostgreSQL when `SPLENDOR_TEST_DATABASE_URL` is set (each test in
//! a fresh database; without the variable the PostgreSQL tests say SKIPPED).

mod common;

use std::time::Duration;

use common::{Kind, TestDb, on_both_backends, wait_until};
use sha2::{Digest, Sha256};
use splendor_store::{
    ActionRecord, FinishedCursor, NewGame, SeatRecord, SessionId, Store, StoreConfig, StoreError,
};
use uuid::Uuid;

on_both_backends!(
    the_live_games_view_shows_seats_start_and_last_move,
    tokens_are_hashed_at_rest,
    sessions_are_found_by_token_and_renamed,
    actions_are_appended_in_order_and_never_overwritten,
    unfinished_games_are_restored_with_their_logs,
    finished_games_are_listed_recent_first_in_pages,
    bad_input_is_refused_and_changes_nothing,
    one_bad_write_does_not_fail_its_batch,
    one_statement_appends_for_many_games_and_refuses_row_by_row,
    an_outage_fails_writes_and_the_store_recovers,
    many_rooms_share_commits,
    data_survives_reopening,
);

fn game_id(n: u128) -> Uuid {
    Uuid::from_u128(0x5ee0_0000_0000_0000_0000_0000_0000_0000 + n)
}

fn new_game(id: Uuid, players: u8, created_at: i64) -> NewGame {
    NewGame {
        id,
        room_code: "ABCD".to_owned(),
        players,
        options_json: r#"{"target_points":15}"#.to_owned(),
        // Above i64::MAX, to prove the seed is stored losslessly.
        seed: u64::MAX - 7,
        salt: [0xa5; 32],
        commitment: "0123456789abcdef".repeat(4),
        seats: (0..players)
            .map(|seat| SeatRecord {
                seat,
                session_id: SessionId(Uuid::from_u128(1000 + u128::from(seat))),
                name: format!("Player {seat}"),
                bot: None,
                // Issue 24: seat 1 is a program's, read back as written.
                program: seat == 1,
            })
            .collect(),
        created_at,
        clock_json: None,
        listed: false,
        rated: false,
    }
}

fn action(game_id: Uuid, seq: u32, seat: u8) -> ActionRecord {
    ActionRecord {
        game_id,
        seq,
        seat,
        action_json: format!(r#"{{"type":"take","gems":["red","blue","green"],"n":{seq}}}"#),
        at: 10_000 + i64::from(seq),
        meta_json: None,
    }
}

/// Plays `count` actions, seats taking turns.
async fn play(store: &Store, game_id: Uuid, players: u8, from: u32, count: u32) {
    for seq in from..from + count {
        let seat = u8::try_from(seq % u32::from(players)).unwrap();
        store
            .append_action(action(game_id, seq, seat))
            .await
            .unwrap_or_else(|err| panic!("append {seq}: {err}"));
    }
}

async fn tokens_are_hashed_at_rest(db: TestDb) {
    let store = db.open().await;
    let (_, token) = store.create_session("Ada", 1).await.unwrap();
    let (_, other) = store.create_session("Grace", 2).await.unwrap();
    assert_ne!(token, other);
    assert_eq!(token.as_str().len(), 64, "256 bits as hex");

    // What is stored is the SHA-256 of each token, and nothing else of it.
    let mut raw = db.raw().await;
    let mut hashes = raw.token_hashes().await;
    hashes.sort();
    let mut expected = vec![
        Sha256::digest(token.as_str()).to_vec(),
        Sha256::digest(other.as_str()).to_vec(),
    ];
    expected.sort();
    assert_eq!(hashes, expected);

    // A stolen database does not contain the token in any form.
    let secret_bytes: Vec<u8> = (0..32)
        .map(|i| u8::from_str_radix(&token.as_str()[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    match db.kind {
        Kind::Sqlite => {
            let path = db.sqlite_path();
            let mut files = std::fs::read(&path).unwrap();
            let wal = path.with_extension("db-wal");
            files.extend(std::fs::read(&wal).unwrap_or_default());
            assert!(
                files.len() > 4096,
                "the database files were read ({} bytes)",
                files.len()
            );
            let contains = |needle: &[u8]| files.windows(needle.len()).any(|w| w == needle);
            assert!(contains(b"Grace"), "the scan sees stored rows");
            assert!(
                !contains(token.as_str().as_bytes()),
                "the token text is stored"
            );
            assert!(!contains(&secret_bytes), "the token bytes are stored");
        }
        Kind::Postgres => {
            let dump = raw.pg_sessions_as_text().await;
            assert!(dump.contains("Grace"), "the dump sees stored rows: {dump}");
            assert!(!dump.contains(token.as_str()), "the token text is stored");
            let secret_hex: String = secret_bytes.iter().map(|b| format!("{b:02x}")).collect();
            assert!(!dump.contains(&secret_hex));
        }
    }

    // The hash does not work as a token.
    let hash_hex: String = Sha256::digest(token.as_str())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(store.session_by_token(&hash_hex).await.unwrap(), None);
}

async fn sessions_are_found_by_token_and_renamed(db: TestDb) {
    let store = db.open().await;
    let (id, token) = store
        .create_session("Ada", 1_700_000_000_000)
        .await
        .unwrap();

    let session = store
        .session_by_token(token.as_str())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(session.id, id);
    assert_eq!(session.name, "Ada");
    assert_eq!(session.created_at, 1_700_000_000_000);

    // Unknown and malformed tokens find nothing.
    let mut wrong = token.as_str().to_owned();
    let last = if wrong.ends_with('0') { "1" } else { "0" };
    wrong.replace_range(63.., last);
    assert_eq!(store.session_by_token(&wrong).await.unwrap(), None);
    assert_eq!(store.session_by_token("").await.unwrap(), None);
    assert_eq!(store.session_by_token("' OR 1=1 --").await.unwrap(), None);
    assert_eq!(
        store
            .session_by_token(&token.as_str().to_uppercase())
            .await
            .unwrap(),
        None
    );

    store.rename_session(id, "Ada Lovelace").await.unwrap();
    let session = store
        .session_by_token(token.as_str())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(session.name, "Ada Lovelace");

    let nobody = SessionId(Uuid::from_u128(42));
    assert!(matches!(
        store.rename_session(nobody, "Eve").await,
        Err(StoreError::UnknownSession(id)) if id == nobody
    ));
    for bad in ["", "   ", "tab\there", &"x".repeat(65)] {
        assert!(
            matches!(
                store.rename_session(id, bad).await,
                Err(StoreError::Invalid { .. })
            ),
            "{bad:?}"
        );
        assert!(matches!(
            store.create_session(bad, 1).await,
            Err(StoreError::Invalid { .. })
        ));
    }
    let session = store
        .session_by_token(token.as_str())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        session.name, "Ada Lovelace",
        "refused renames changed nothing"
    );
}

async fn actions_are_appended_in_order_and_never_overwritten(db: TestDb) {
    let store = db.open().await;
    let id = game_id(1);
    store.create_game(new_game(id, 2, 100)).await.unwrap();
    play(&store, id, 2, 0, 5).await;

    // Acknowledged means committed: a separate connection sees all of it.
    let mut raw = db.raw().await;
    assert_eq!(raw.action_count().await, 5);

    let game = store.game(id).await.unwrap().unwrap();
    let seqs: Vec<u32> = game.actions.iter().map(|a| a.seq).collect();
    assert_eq!(seqs, [0, 1, 2, 3, 4]);
    assert_eq!(game.actions[3], {
        let a = action(id, 3, 1);
        splendor_store::StoredAction {
            seq: 3,
            seat: 1,
            action_json: a.action_json,
            at: a.at,
            meta_json: None,
        }
    });

    // A different action at a taken seq is refused; the stored one stays.
    let mut other = action(id, 2, 0);
    other.action_json = r#"{"type":"pass"}"#.to_owned();
    assert!(matches!(
        store.append_action(other).await,
        Err(StoreError::DuplicateAction { game_id, seq: 2 }) if game_id == id
    ));
    // So is the same action from another seat.
    assert!(matches!(
        store.append_action(action(id, 2, 1)).await,
        Err(StoreError::DuplicateAction { seq: 2, .. })
    ));
    // The very same action again is already durable: Ok, and nothing changes.
    let mut same = action(id, 4, 0);
    same.at += 999;
    store.append_action(same).await.unwrap();

    // The log has no gaps and does not go back.
    assert!(matches!(
        store.append_action(action(id, 7, 1)).await,
        Err(StoreError::OutOfOrder {
            seq: 7,
            expected: 5,
            ..
        })
    ));

    assert_eq!(
        store.game(id).await.unwrap().unwrap(),
        game,
        "nothing changed"
    );
    assert_eq!(raw.action_count().await, 5);
    play(&store, id, 2, 5, 1).await;
    assert_eq!(store.game(id).await.unwrap().unwrap().actions.len(), 6);
}

async fn unfinished_games_are_restored_with_their_logs(db: TestDb) {
    let store = db.open().await;
    assert!(store.unfinished_games().await.unwrap().is_empty());

    let (a, b, c, d) = (game_id(1), game_id(2), game_id(3), game_id(4));
    store.create_game(new_game(a, 2, 300)).await.unwrap();
    store.create_game(new_game(b, 3, 100)).await.unwrap();
    store.create_game(new_game(c, 4, 200)).await.unwrap();
    store.create_game(new_game(d, 2, 50)).await.unwrap();
    // Interleave the rooms' appends, as concurrent rooms would.
    for round in 0..4 {
        play(&store, a, 2, round * 3, 3).await;
        play(&store, b, 3, round * 2, 2).await;
    }
    play(&store, d, 2, 0, 2).await;
    store
        .finish_game(d, r#"{"winner":0}"#, 999, &[])
        .await
        .unwrap();

    let games = store.unfinished_games().await.unwrap();
    let ids: Vec<Uuid> = games.iter().map(|g| g.id).collect();
    assert_eq!(ids, [b, c, a], "oldest first, finished game left out");

    let restored_a = &games[2];
    assert_eq!(restored_a, &store.game(a).await.unwrap().unwrap());
    let expected = new_game(a, 2, 300);
    assert_eq!(restored_a.seed, u64::MAX - 7);
    assert_eq!(restored_a.salt, expected.salt);
    assert_eq!(restored_a.commitment, expected.commitment);
    assert_eq!(restored_a.options_json, expected.options_json);
    assert_eq!(restored_a.room_code, "ABCD");
    assert_eq!(restored_a.players, 2);
    assert_eq!(restored_a.created_at, 300);
    assert_eq!(restored_a.seats, expected.seats);
    assert_eq!(restored_a.finished, None);
    assert_eq!(restored_a.actions.len(), 12);
    for (i, stored) in restored_a.actions.iter().enumerate() {
        let i = u32::try_from(i).unwrap();
        let sent = action(a, i, u8::try_from(i % 2).unwrap());
        assert_eq!(
            (stored.seq, stored.seat, &stored.action_json, stored.at),
            (i, sent.seat, &sent.action_json, sent.at)
        );
    }
    assert_eq!(games[0].actions.len(), 8);
    assert_eq!(games[0].seats.len(), 3);
    assert!(games[1].actions.is_empty());
    assert_eq!(games[1].seats.len(), 4);
}

async fn finished_games_are_listed_recent_first_in_pages(db: TestDb) {
    let store = db.open().await;
    assert!(store.list_finished(None, 10).await.unwrap().is_empty());

    // Seven finished games, two pairs finishing at the same millisecond,
    // and one game still running.
    let finish_times = [5_000, 7_000, 7_000, 6_000, 9_000, 9_000, 1_000];
    for (n, &at) in finish_times.iter().enumerate() {
        let id = game_id(n as u128);
        store.create_game(new_game(id, 2, 10)).await.unwrap();
        play(&store, id, 2, 0, 2).await;
        let result = format!(r#"{{"ranking":[{n}]}}"#);
        store.finish_game(id, &result, at, &[]).await.unwrap();
    }
    let running = game_id(99);
    store.create_game(new_game(running, 2, 10)).await.unwrap();

    let mut seen = Vec::new();
    let mut cursor: Option<FinishedCursor> = None;
    let mut pages = 0;
    loop {
        let page = store.list_finished(cursor, 3).await.unwrap();
        assert!(page.len() <= 3);
        let Some(last) = page.last() else { break };
        cursor = Some(last.cursor());
        seen.extend(page);
        pages += 1;
        assert!(pages <= 3, "paging must end");
    }
    assert_eq!(pages, 3);
    assert_eq!(
        seen.len(),
        7,
        "every finished game once, the running one never"
    );
    for pair in seen.windows(2) {
        assert!(
            (pair[0].finished_at, pair[0].id) > (pair[1].finished_at, pair[1].id),
            "recent first, ties broken by id"
        );
    }
    let first = &seen[0];
    assert_eq!(first.finished_at, 9_000);
    assert_eq!(first.players, 2);
    assert_eq!(first.seats.len(), 2);
    assert_eq!(first.seats[1].name, "Player 1");
    assert!(
        first.seats[1].program && !first.seats[0].program,
        "issue 24"
    );
    let n = (0..7).find(|&n| game_id(n) == first.id).unwrap();
    assert_eq!(first.result_json, format!(r#"{{"ranking":[{n}]}}"#));

    // A finished game comes back whole, with its result; it takes no more.
    let id = game_id(0);
    let game = store.game(id).await.unwrap().unwrap();
    let finished = game.finished.clone().unwrap();
    assert_eq!(finished.finished_at, 5_000);
    assert_eq!(finished.result_json, r#"{"ranking":[0]}"#);
    assert_eq!(game.actions.len(), 2);
    assert!(matches!(
        store.append_action(action(id, 2, 0)).await,
        Err(StoreError::GameFinished(g)) if g == id
    ));
    // Finishing again: the same result is Ok, another is refused.
    store
        .finish_game(id, r#"{"ranking":[0]}"#, 5_000, &[])
        .await
        .unwrap();
    assert!(matches!(
        store
            .finish_game(id, r#"{"ranking":[1]}"#, 8_000, &[])
            .await,
        Err(StoreError::GameFinished(_))
    ));
    assert_eq!(store.game(id).await.unwrap().unwrap(), game);

    assert!(matches!(
        store.finish_game(game_id(1234), "{}", 1, &[]).await,
        Err(StoreError::UnknownGame(_))
    ));
    assert_eq!(store.game(game_id(1234)).await.unwrap(), None);
    for limit in [0, splendor_store::MAX_PAGE + 1] {
        assert!(matches!(
            store.list_finished(None, limit).await,
            Err(StoreError::Invalid { .. })
        ));
    }
}

async fn bad_input_is_refused_and_changes_nothing(db: TestDb) {
    let store = db.open().await;
    let id = game_id(1);

    let mut bad = Vec::new();
    let mut game = new_game(id, 2, 1);
    game.seats.pop();
    bad.push(("too few seats", game));
    let mut game = new_game(id, 2, 1);
    game.seats[1].seat = 0;
    bad.push(("a seat given twice", game));
    let mut game = new_game(id, 2, 1);
    game.seats[1].seat = 2;
    bad.push(("a seat out of range", game));
    let mut game = new_game(id, 2, 1);
    game.options_json = "{not json".to_owned();
    bad.push(("options not JSON", game));
    let mut game = new_game(id, 2, 1);
    game.commitment = "xyz".to_owned();
    bad.push(("a commitment that is not a digest", game));
    let mut game = new_game(id, 2, 1);
    game.room_code = String::new();
    bad.push(("an empty room code", game));
    let mut game = new_game(id, 2, 1);
    game.seats[0].name = "\u{7}".to_owned();
    bad.push(("a control character in a name", game));
    let mut game = new_game(id, 0, 1);
    game.seats.clear();
    bad.push(("no players", game));
    for (what, game) in bad {
        let err = store.create_game(game).await.unwrap_err();
        assert!(matches!(err, StoreError::Invalid { .. }), "{what}: {err}");
        assert!(err.is_bad_input());
    }
    assert_eq!(store.game(id).await.unwrap(), None);

    store.create_game(new_game(id, 2, 1)).await.unwrap();
    let mut again = new_game(id, 3, 2);
    again.room_code = "OTHER".to_owned();
    assert!(matches!(
        store.create_game(again).await,
        Err(StoreError::GameExists(g)) if g == id
    ));
    let stored = store.game(id).await.unwrap().unwrap();
    assert_eq!((stored.players, stored.room_code.as_str()), (2, "ABCD"));

    assert!(matches!(
        store.append_action(action(game_id(77), 0, 0)).await,
        Err(StoreError::UnknownGame(_))
    ));
    assert!(matches!(
        store.append_action(action(id, 0, 2)).await,
        Err(StoreError::InvalidSeat {
            seat: 2,
            players: 2,
            ..
        })
    ));
    let mut not_json = action(id, 0, 0);
    not_json.action_json = "take 3".to_owned();
    assert!(matches!(
        store.append_action(not_json).await,
        Err(StoreError::Invalid {
            what: "action JSON",
            ..
        })
    ));
    let mut huge = action(id, 0, 0);
    huge.action_json = format!("\"{}\"", "x".repeat(splendor_store::MAX_JSON_BYTES));
    assert!(matches!(
        store.append_action(huge).await,
        Err(StoreError::Invalid { .. })
    ));
    assert!(matches!(
        store.finish_game(id, "", 5, &[]).await,
        Err(StoreError::Invalid {
            what: "result JSON",
            ..
        })
    ));
    let stored = store.game(id).await.unwrap().unwrap();
    assert!(stored.actions.is_empty());
    assert_eq!(stored.finished, None);

    assert!(matches!(
        Store::open("mysql://root:hunter2@localhost/db").await,
        Err(StoreError::UnsupportedUrl { scheme }) if scheme == "mysql"
    ));
    let message = Store::open("mysql://root:hunter2@localhost/db")
        .await
        .unwrap_err()
        .to_string();
    assert!(!message.contains("hunter2"), "{message}");
    let zero_batch = StoreConfig {
        max_batch: 0,
        ..StoreConfig::default()
    };
    assert!(matches!(
        Store::open_with(&db.url, zero_batch).await,
        Err(StoreError::Invalid { .. })
    ));
}

/// Five writes are forced into one batch (the writer is held up by a lock on
/// the actions table while they queue). One trips a failing trigger, which
/// breaks the batch's transaction; one is a duplicate. Each of the other
/// three must still be stored, and only the two bad ones fail.
async fn one_bad_write_does_not_fail_its_batch(db: TestDb) {
    let store = db.open().await;
    let mut raw = db.raw().await;
    let (a, b, c, d, e) = (game_id(1), game_id(2), game_id(3), game_id(4), game_id(5));
    for id in [a, b, c, d, e] {
        store.create_game(new_game(id, 2, 1)).await.unwrap();
    }
    play(&store, a, 2, 0, 1).await;
    play(&store, d, 2, 0, 1).await;
    raw.execute(
        "CREATE TRIGGER boom BEFORE INSERT ON actions WHEN NEW.action_json LIKE '%boom%' \
         BEGIN SELECT RAISE(ABORT, 'boom: refused by a test trigger'); END",
        "CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
           IF NEW.action_json LIKE '%boom%' THEN \
             RAISE EXCEPTION 'boom: refused by a test trigger'; \
           END IF; RETURN NEW; END $$; \
         CREATE TRIGGER boom BEFORE INSERT ON actions FOR EACH ROW EXECUTE FUNCTION boom()",
    )
    .await;

    // Hold the writer up on its next write.
    raw.execute(
        "BEGIN IMMEDIATE",
        "BEGIN; LOCK TABLE actions IN EXCLUSIVE MODE",
    )
    .await;
    let before = store.writer_stats();
    let first = tokio::spawn({
        let store = store.clone();
        async move { store.append_action(action(e, 0, 0)).await }
    });
    wait_until("the writer is held up", || {
        store.writer_stats().batches > before.batches && store.queued_writes() == 0
    })
    .await;

    let mut boom = action(b, 0, 0);
    boom.action_json = r#"{"type":"boom"}"#.to_owned();
    let mut duplicate = action(d, 0, 0);
    duplicate.action_json = r#"{"type":"other"}"#.to_owned();
    let writes = [
        action(a, 1, 1),
        boom.clone(),
        action(c, 0, 0),
        duplicate,
        action(a, 2, 0),
    ];
    let mut pending = Vec::new();
    for (queued, write) in writes.into_iter().enumerate() {
        let store_for_task = store.clone();
        pending.push(tokio::spawn(async move {
            store_for_task.append_action(write).await
        }));
        // Enqueue one at a time, so that their order is known.
        wait_until("the write is queued", || {
            store.queued_writes() == queued + 1
        })
        .await;
    }
    raw.execute("COMMIT", "COMMIT").await;

    first.await.unwrap().unwrap();
    let mut answers = Vec::new();
    for task in pending {
        answers.push(task.await.unwrap());
    }
    assert!(answers[0].is_ok(), "{:?}", answers[0]);
    assert!(
        matches!(&answers[1], Err(StoreError::Database(err)) if err.to_string().contains("boom")),
        "{:?}",
        answers[1]
    );
    assert!(answers[2].is_ok(), "{:?}", answers[2]);
    assert!(
        matches!(answers[3], Err(StoreError::DuplicateAction { seq: 0, .. })),
        "{:?}",
        answers[3]
    );
    assert!(answers[4].is_ok(), "{:?}", answers[4]);
    let stats = store.writer_stats();
    assert!(
        stats.largest_batch >= 5,
        "the five writes shared a batch: {stats:?}"
    );
    assert_eq!(stats.failed_batches - before.failed_batches, 1, "{stats:?}");
    assert_eq!(stats.retried_alone - before.retried_alone, 5, "{stats:?}");

    assert_eq!(store.game(a).await.unwrap().unwrap().actions.len(), 3);
    assert_eq!(store.game(c).await.unwrap().unwrap().actions.len(), 1);
    assert!(store.game(b).await.unwrap().unwrap().actions.is_empty());
    let d_log = store.game(d).await.unwrap().unwrap().actions;
    assert_eq!(d_log[0].action_json, action(d, 0, 0).action_json);

    // The writer carries on, and the refused write goes through once the
    // cause is gone.
    raw.execute("DROP TRIGGER boom", "DROP TRIGGER boom ON actions")
        .await;
    store.append_action(boom).await.unwrap();
    assert_eq!(store.game(b).await.unwrap().unwrap().actions.len(), 1);
}

/// A batch of appends to different games is written by one multi-row
/// statement. Rows it cannot insert are refused one by one, with the same
/// errors as alone, and the good rows of the same statement are stored.
async fn one_statement_appends_for_many_games_and_refuses_row_by_row(db: TestDb) {
    let store = db.open().await;
    let mut raw = db.raw().await;
    let ids: [Uuid; 6] = std::array::from_fn(|i| game_id(10 + i as u128));
    for &id in &ids {
        store.create_game(new_game(id, 2, 1)).await.unwrap();
    }
    play(&store, ids[1], 2, 0, 2).await;
    play(&store, ids[4], 2, 0, 1).await;
    store
        .finish_game(ids[5], r#"{"ranking":[]}"#, 9, &[])
        .await
        .unwrap();
    // Hold the writer up on its next write, so that the rest queue.
    raw.execute(
        "BEGIN IMMEDIATE",
        "BEGIN; LOCK TABLE actions IN EXCLUSIVE MODE",
    )
    .await;
    let before = store.writer_stats();
    let first = tokio::spawn({
        let store = store.clone();
        async move { store.append_action(action(ids[0], 0, 0)).await }
    });
    wait_until("the writer is held up", || {
        store.writer_stats().batches > before.batches && store.queued_writes() == 0
    })
    .await;
    let writes = [
        action(ids[2], 0, 0),      // stored
        action(ids[1], 1, 1),      // the very action already stored at 1: ok
        action(ids[3], 1, 1),      // a gap: out of order
        action(ids[4], 0, 1),      // another action at a taken place: duplicate
        action(ids[5], 0, 0),      // a finished game
        action(game_id(99), 0, 0), // no such game
        action(ids[1], 2, 0),      // the same game again: after the others
    ];
    let mut pending = Vec::new();
    for (queued, write) in writes.into_iter().enumerate() {
        let store_for_task = store.clone();
        pending.push(tokio::spawn(async move {
            store_for_task.append_action(write).await
        }));
        wait_until("the write is queued", || {
            store.queued_writes() == queued + 1
        })
        .await;
    }
    raw.execute("COMMIT", "COMMIT").await;
    first.await.unwrap().unwrap();
    let mut answers = Vec::new();
    for task in pending {
        answers.push(task.await.unwrap());
    }
    assert!(answers[0].is_ok(), "{:?}", answers[0]);
    assert!(answers[1].is_ok(), "{:?}", answers[1]);
    assert!(
        matches!(
            answers[2],
            Err(StoreError::OutOfOrder {
                seq: 1,
                expected: 0,
                ..
            })
        ),
        "{:?}",
        answers[2]
    );
    assert!(
        matches!(answers[3], Err(StoreError::DuplicateAction { seq: 0, .. })),
        "{:?}",
        answers[3]
    );
    assert!(
        matches!(answers[4], Err(StoreError::GameFinished(_))),
        "{:?}",
        answers[4]
    );
    assert!(
        matches!(answers[5], Err(StoreError::UnknownGame(_))),
        "{:?}",
        answers[5]
    );
    assert!(answers[6].is_ok(), "{:?}", answers[6]);
    let stats = store.writer_stats();
    assert_eq!(stats.failed_batches, before.failed_batches, "{stats:?}");
    assert!(stats.largest_batch >= 7, "{stats:?}");
    assert_eq!(store.game(ids[2]).await.unwrap().unwrap().actions.len(), 1);
    assert_eq!(store.game(ids[1]).await.unwrap().unwrap().actions.len(), 3);
    assert!(
        store
            .game(ids[3])
            .await
            .unwrap()
            .unwrap()
            .actions
            .is_empty()
    );
    assert_eq!(store.game(ids[4]).await.unwrap().unwrap().actions.len(), 1);
}

/// The database stops taking writes (SQLite: another process holds the write
/// lock past the busy timeout; PostgreSQL: the database refuses connections
/// and the store's are cut). Writes fail with a clear, transient error and
/// store nothing; once the database is back, the same writes succeed.
async fn an_outage_fails_writes_and_the_store_recovers(db: TestDb) {
    let config = StoreConfig {
        busy_timeout: Duration::from_millis(300),
        acquire_timeout: Duration::from_millis(1500),
        ..StoreConfig::default()
    };
    let store = db.open_with(config).await;
    let id = game_id(1);
    store.create_game(new_game(id, 2, 1)).await.unwrap();
    play(&store, id, 2, 0, 2).await;

    let mut raw = db.raw().await;
    let mut admin = None;
    match db.kind {
        Kind::Sqlite => raw.execute("BEGIN IMMEDIATE", "").await,
        Kind::Postgres => {
            let (mut conn, name) = db.pg_admin().await;
            sqlx::raw_sql(&format!(
                "ALTER DATABASE {name} ALLOW_CONNECTIONS false; \
                 SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                 WHERE datname = '{name}' AND pid <> pg_backend_pid()"
            ))
            .execute(&mut conn)
            .await
            .unwrap();
            admin = Some((conn, name));
        }
    }

    let err = store.append_action(action(id, 2, 0)).await.unwrap_err();
    assert!(
        matches!(err, StoreError::Unavailable(_)),
        "unexpected error: {err}"
    );
    assert!(err.is_transient());
    assert!(
        err.to_string().starts_with("the database is unreachable"),
        "{err}"
    );
    // Several writes queued during the outage all fail alike.
    let (x, y) = tokio::join!(
        store.append_action(action(id, 2, 0)),
        store.rename_session(SessionId(Uuid::from_u128(1)), "Zed"),
    );
    assert!(matches!(x, Err(StoreError::Unavailable(_))), "{x:?}");
    assert!(matches!(y, Err(StoreError::Unavailable(_))), "{y:?}");

    match admin {
        None => raw.execute("ROLLBACK", "").await,
        Some((mut conn, name)) => {
            sqlx::raw_sql(&format!("ALTER DATABASE {name} ALLOW_CONNECTIONS true"))
                .execute(&mut conn)
                .await
                .unwrap();
            // The raw connection was cut with the others.
            raw = db.raw().await;
        }
    }
    assert_eq!(
        raw.action_count().await,
        2,
        "nothing of the failed writes was stored"
    );
    store.ping().await.unwrap();
    play(&store, id, 2, 2, 3).await;
    assert_eq!(store.game(id).await.unwrap().unwrap().actions.len(), 5);
}

/// Many rooms append at once, each waiting for its acknowledgement like a
/// real room: every action is stored, in order, and commits are shared.
async fn many_rooms_share_commits(db: TestDb) {
    let store = db.open().await;
    let rooms = 32u128;
    let per_room = 20;
    for n in 0..rooms {
        store.create_game(new_game(game_id(n), 2, 1)).await.unwrap();
    }
    let before = store.writer_stats();
    let mut tasks = Vec::new();
    for n in 0..rooms {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            play(&store, game_id(n), 2, 0, per_room).await;
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let stats = store.writer_stats();
    let writes = stats.writes - before.writes;
    let batches = stats.batches - before.batches;
    assert_eq!(writes, 32 * 20);
    assert!(
        batches < writes,
        "{writes} writes took {batches} transactions: no group commit"
    );
    for game in store.unfinished_games().await.unwrap() {
        assert_eq!(game.actions.len(), 20);
    }
}

async fn data_survives_reopening(db: TestDb) {
    let (token, id) = {
        let store = db.open().await;
        let (_, token) = store.create_session("Ada", 1).await.unwrap();
        let id = game_id(1);
        store.create_game(new_game(id, 2, 1)).await.unwrap();
        play(&store, id, 2, 0, 3).await;
        store.close().await;
        assert!(matches!(
            store.append_action(action(id, 3, 1)).await,
            Err(StoreError::Closed)
        ));
        (token, id)
    };
    if db.kind == Kind::Sqlite {
        assert!(
            db.sqlite_path().is_file(),
            "the file and its directory were created"
        );
        let mut raw = db.raw().await;
        let journal = match &mut raw {
            common::Raw::Sqlite(conn) => sqlx::query_scalar::<_, String>("PRAGMA journal_mode")
                .fetch_one(conn)
                .await
                .unwrap(),
            common::Raw::Postgres(_) => unreachable!(),
        };
        assert_eq!(journal, "wal");
    }

    // Opening again runs the migrations again, which must be a no-op.
    let store = db.open().await;
    let session = store
        .session_by_token(token.as_str())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(session.name, "Ada");
    let games = store.unfinished_games().await.unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].actions.len(), 3);
    play(&store, id, 2, 3, 1).await;
    drop(store);

    // A second store on the same database sees it all too.
    let store = db.open().await;
    assert_eq!(store.game(id).await.unwrap().unwrap().actions.len(), 4);
}

#[tokio::test]
async fn memory_databases_work_and_open_errors_are_clear() {
    let store = Store::open("sqlite::memory:").await.unwrap();
    store.create_game(new_game(game_id(1), 2, 1)).await.unwrap();
    play(&store, game_id(1), 2, 0, 3).await;
    store.ping().await.unwrap();
    assert_eq!(store.unfinished_games().await.unwrap()[0].actions.len(), 3);

    // A data directory that cannot be created (its parent is a file).
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, b"x").unwrap();
    let err = Store::open(&format!("sqlite://{}/sub/store.db", file.display()))
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::CreateDir { .. }), "{err}");

    // A PostgreSQL server that is not there.
    let config = StoreConfig {
        acquire_timeout: Duration::from_millis(500),
        ..StoreConfig::default()
    };
    let err = Store::open_with("postgres://nobody@127.0.0.1:1/none", config)
        .await
        .unwrap_err();
    assert!(err.is_transient(), "{err}");
}

#[tokio::test]
async fn max_batch_one_commits_each_write_alone() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}/store.db", dir.path().display());
    let config = StoreConfig {
        max_batch: 1,
        ..StoreConfig::default()
    };
    let store = Store::open_with(&url, config).await.unwrap();
    for n in 0..8 {
        store.create_game(new_game(game_id(n), 2, 1)).await.unwrap();
    }
    let tasks: Vec<_> = (0..8)
        .map(|n| {
            let store = store.clone();
            tokio::spawn(async move { play(&store, game_id(n), 2, 0, 5).await })
        })
        .collect();
    for task in tasks {
        task.await.unwrap();
    }
    let stats = store.writer_stats();
    assert_eq!(stats.largest_batch, 1);
    assert_eq!(stats.batches, stats.writes);
    assert_eq!(stats.writes, 8 + 40);
}

/// Issue 22: the operators' live rooms read the games in play from the
/// store (the same on every node): seats, start, last move and clock; a
/// finished game is not among them.
async fn the_live_games_view_shows_seats_start_and_last_move(db: TestDb) {
    let store = db.open().await;
    let (a, b) = (Uuid::from_u128(71), Uuid::from_u128(72));
    store.create_game(new_game(a, 2, 100)).await.unwrap();
    let mut clocked = new_game(b, 3, 200);
    clocked.room_code = "WXYZ".into();
    clocked.clock_json = Some(r#"{"bank_ms":300000}"#.into());
    clocked.seats[2].bot = Some("strong".into());
    store.create_game(clocked).await.unwrap();
    store.append_action(action(a, 0, 0)).await.unwrap();
    store.append_action(action(a, 1, 1)).await.unwrap();
    let live = store.live_games().await.unwrap();
    assert_eq!(live.len(), 2);
    assert_eq!(live[0].room, "WXYZ", "newest first");
    assert_eq!(live[0].last_move_at, None);
    assert_eq!(live[0].clock_json.as_deref(), Some(r#"{"bank_ms":300000}"#));
    assert_eq!(live[0].seats[2].bot.as_deref(), Some("strong"));
    assert_eq!(live[1].room, "ABCD");
    assert_eq!(live[1].started_at, 100);
    assert_eq!(live[1].last_move_at, Some(10_001));
    let names: Vec<&str> = live[1].seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Player 0", "Player 1"]);
    store
        .finish_game(
            a,
            r#"{"ranking":[],"winners":[],"deadlock":false}"#,
            20_000,
            &[],
        )
        .await
        .unwrap();
    let live = store.live_games().await.unwrap();
    assert_eq!(live.len(), 1);
}
