//! Ratings and quick-play queues in the store (issue 13), on SQLite always
//! and on PostgreSQL when `SPLENDOR_TEST_DATABASE_URL` is set.

#[allow(dead_code)] // the shared helpers this file does not use
mod common;

use common::{TestDb, on_both_backends};
use splendor_store::{
    ActionRecord, BoardKind, MAX_GAIN_PER_OPPONENT, NewGame, QueuePool, R13_4_OWN_MOVES,
    SeatRecord, SessionId, Store, StoreError, player_id,
};
use uuid::Uuid;

on_both_backends!(
    a_rated_game_moves_ratings_the_right_way_once,
    unrated_games_and_built_in_bots_are_not_rated,
    a_rated_game_needs_a_place_per_seat,
    leaderboards_keep_people_and_bots_apart_in_pages,
    players_are_found_by_id_and_name,
    rated_sessions_are_not_pruned,
    queues_form_games_from_the_oldest_present_sessions,
    ratings_survive_reopening_and_queues_are_cleared,
    a_game_with_bots_takes_the_asker_first_and_only_while_queued,
    a_farmer_beating_a_dozen_throwaway_sessions_gains_little,
    a_marked_session_is_off_the_leaderboard_until_the_mark_is_lifted,
    r13_4_a_rated_game_with_a_seat_short_of_five_own_moves_is_unrated,
    a_players_gain_from_one_opponent_is_capped_per_day,
);

/// Appends `each` moves per seat of a game of `seats` seats, in turn, from
/// `seq` on (`by`: who made them, as the server stores it); the next seq.
async fn moves(store: &Store, id: u128, seats: u8, each: u32, by: Option<&str>) -> u32 {
    let mut seq = store
        .game(Uuid::from_u128(id))
        .await
        .unwrap()
        .map_or(0, |g| g.actions.len() as u32);
    for _ in 0..each {
        for seat in 0..seats {
            store
                .append_action(ActionRecord {
                    game_id: Uuid::from_u128(id),
                    seq,
                    seat,
                    action_json: format!(r#"{{"type":"take","gems":["red"],"n":{seq}}}"#),
                    at: 200 + i64::from(seq),
                    meta_json: by.map(|by| format!(r#"{{"by":"{by}"}}"#)),
                })
                .await
                .unwrap();
            seq += 1;
        }
    }
    seq
}

/// Finishes game `id` with `places` after five moves of every seat's own
/// (R13.4: a rated game needs them to stay rated).
async fn finish(store: &Store, id: u128, at: i64, places: &[u8]) -> Result<(), StoreError> {
    moves(store, id, places.len() as u8, R13_4_OWN_MOVES as u32, None).await;
    store
        .finish_game(Uuid::from_u128(id), "{}", at, places)
        .await
}

/// R13.4: a seat of a person or program with four moves of its own (and
/// the stand-in's besides) makes a rated game unrated: no rating moves,
/// no game counts; with five it is rated. Built-in bots need none.
async fn r13_4_a_rated_game_with_a_seat_short_of_five_own_moves_is_unrated(db: TestDb) {
    let store = db.open().await;
    let ids = sessions(&store, &["ann", "bob", "cy"]).await;
    store
        .create_game(rated_game(1, &ids[..2], &["ann", "bob"], &[]))
        .await
        .unwrap();
    // Four turns each by themselves (bob's returns tokens and chooses a
    // noble too: not moves of their own), then the stand-in plays bob's.
    moves(&store, 1, 2, 4, None).await;
    for json in [r#"{"return":{"white":1}}"#, r#"{"noble":3}"#] {
        let seq = moves(&store, 1, 0, 0, None).await;
        store
            .append_action(ActionRecord {
                game_id: Uuid::from_u128(1),
                seq,
                seat: 1,
                action_json: json.into(),
                at: 800 + i64::from(seq),
                meta_json: None,
            })
            .await
            .unwrap();
    }
    let mut seq = moves(&store, 1, 1, 1, None).await;
    for _ in 0..6 {
        for (seat, by) in [(1, Some("stand_in")), (0, None)] {
            store
                .append_action(ActionRecord {
                    game_id: Uuid::from_u128(1),
                    seq,
                    seat,
                    action_json: r#"{"type":"take","gems":["red"]}"#.into(),
                    at: 900 + i64::from(seq),
                    meta_json: by.map(|by: &str| format!(r#"{{"by":"{by}"}}"#)),
                })
                .await
                .unwrap();
            seq += 1;
        }
    }
    store
        .finish_game(Uuid::from_u128(1), "{}", 1_000, &[1, 2])
        .await
        .unwrap();
    for id in &ids[..2] {
        assert_eq!(store.rating_of(*id).await.unwrap(), None, "R13.4: unrated");
    }
    let game = store.game(Uuid::from_u128(1)).await.unwrap().unwrap();
    assert!(!game.rated, "the stored game says unrated");
    // Five each: rated. A built-in bot's seat needs none of its own.
    store
        .create_game(rated_game(
            2,
            &ids,
            &["ann", "bob", "bot"],
            &[None, None, Some("greedy")],
        ))
        .await
        .unwrap();
    moves(&store, 2, 2, R13_4_OWN_MOVES as u32, None).await;
    store
        .finish_game(Uuid::from_u128(2), "{}", 2_000, &[1, 2, 3])
        .await
        .unwrap();
    let ann = store.rating_of(ids[0]).await.unwrap().unwrap();
    assert_eq!(ann.games, 1, "{ann:?}");
    assert!(store.game(Uuid::from_u128(2)).await.unwrap().unwrap().rated);
}

/// Issue 46: beating one established opponent again and again gains at
/// most MAX_GAIN_PER_OPPONENT a day from them; a day later, more.
async fn a_players_gain_from_one_opponent_is_capped_per_day(db: TestDb) {
    let store = db.open().await;
    let ids = sessions(&store, &["farmer", "friend", "other"]).await;
    // The friend is established first, against the third player.
    for g in 0..5u128 {
        store
            .create_game(rated_game(
                10 + g,
                &[ids[1], ids[2]],
                &["friend", "other"],
                &[],
            ))
            .await
            .unwrap();
        finish(
            &store,
            10 + g,
            1_000 + g as i64,
            &[1 + (g % 2) as u8, 2 - (g % 2) as u8],
        )
        .await
        .unwrap();
    }
    for g in 0..10u128 {
        store
            .create_game(rated_game(
                20 + g,
                &[ids[0], ids[1]],
                &["farmer", "friend"],
                &[],
            ))
            .await
            .unwrap();
        finish(&store, 20 + g, 10_000 + g as i64, &[1, 2])
            .await
            .unwrap();
    }
    let farmer = store.rating_of(ids[0]).await.unwrap().unwrap();
    assert_eq!(farmer.games, 10);
    assert!(
        farmer.rating <= 1500.0 + MAX_GAIN_PER_OPPONENT + 1e-6,
        "{farmer:?}"
    );
    assert!(
        farmer.rating > 1500.0 + MAX_GAIN_PER_OPPONENT - 1.0,
        "{farmer:?}"
    );
    // A day later the friend is worth points again.
    let day = splendor_store::GAIN_WINDOW_MS;
    store
        .create_game(rated_game(
            40,
            &[ids[0], ids[1]],
            &["farmer", "friend"],
            &[],
        ))
        .await
        .unwrap();
    finish(&store, 40, 10_010 + day, &[1, 2]).await.unwrap();
    let later = store.rating_of(ids[0]).await.unwrap().unwrap();
    assert!(later.rating > farmer.rating, "{later:?} {farmer:?}");
}

async fn sessions(store: &Store, names: &[&str]) -> Vec<SessionId> {
    let mut ids = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let (id, _) = store.create_session(name, i as i64).await.unwrap();
        ids.push(id);
    }
    ids
}

fn rated_game(id: u128, players: &[SessionId], names: &[&str], bots: &[Option<&str>]) -> NewGame {
    NewGame {
        id: Uuid::from_u128(id),
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
                name: names[i].into(),
                bot: bots.get(i).copied().flatten().map(str::to_owned),
                program: false,
            })
            .collect(),
        created_at: 100,
        clock_json: None,
        listed: false,
        rated: true,
    }
}

/// Issue 22: the farmer of the hostile test (twelve fresh sessions beaten
/// in rated games, one each) went from 1500 to 2021; results against
/// sessions with fewer than five rated games now count little.
async fn a_farmer_beating_a_dozen_throwaway_sessions_gains_little(db: TestDb) {
    let store = db.open().await;
    let names: Vec<String> = (0..13).map(|i| format!("p{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let ids = sessions(&store, &refs).await;
    for (k, &throwaway) in ids[1..].iter().enumerate() {
        let id = 100 + k as u128;
        store
            .create_game(rated_game(
                id,
                &[ids[0], throwaway],
                &["farmer", "throwaway"],
                &[],
            ))
            .await
            .unwrap();
        finish(&store, id, 5_000 + k as i64, &[1, 2]).await.unwrap();
    }
    let farmer = store.rating_of(ids[0]).await.unwrap().unwrap();
    assert_eq!((farmer.games, farmer.wins), (12, 12));
    assert!(
        farmer.rating > 1500.0 && farmer.rating <= 1550.0,
        "{farmer:?}"
    );
    // Each throwaway lost a little too, not the farmer's gain times twelve.
    let throwaway = store.rating_of(ids[1]).await.unwrap().unwrap();
    assert!(throwaway.rating < 1500.0, "{throwaway:?}");
}

/// Issue 22: a mark keeps a session off the leaderboard (and its count)
/// without changing its rating; lifted, it is back.
async fn a_marked_session_is_off_the_leaderboard_until_the_mark_is_lifted(db: TestDb) {
    let store = db.open().await;
    let ids = sessions(&store, &["ann", "bob"]).await;
    store
        .create_game(rated_game(1, &ids, &["ann", "bob"], &[]))
        .await
        .unwrap();
    finish(&store, 1, 10, &[1, 2]).await.unwrap();
    let board = |store: &Store| {
        let store = store.clone();
        async move {
            let page = store.leaderboard(BoardKind::Humans, 1, 50).await.unwrap();
            let names: Vec<String> = page.players.iter().map(|p| p.name.clone()).collect();
            (page.total, names)
        }
    };
    assert_eq!(board(&store).await, (2, vec!["ann".into(), "bob".into()]));
    let mark = store
        .add_sanction(&splendor_store::NewSanction {
            kind: splendor_store::MARK_SESSION.into(),
            value: ids[0].0.simple().to_string(),
            until_in_ms: None,
            reason: "farmed throwaway sessions".into(),
            actor: "operator".into(),
        })
        .await
        .unwrap();
    assert_eq!(board(&store).await, (1, vec!["bob".into()]));
    // Not told: the session's own rating is as it was.
    assert!(store.rating_of(ids[0]).await.unwrap().unwrap().rating > 1500.0);
    store
        .lift_sanction(mark.id, "operator", "appeal")
        .await
        .unwrap();
    assert_eq!(board(&store).await, (2, vec!["ann".into(), "bob".into()]));
}

async fn a_rated_game_moves_ratings_the_right_way_once(db: TestDb) {
    let store = db.open().await;
    let ids = sessions(&store, &["ann", "bob"]).await;
    let game = rated_game(1, &ids, &["ann", "bob"], &[]);
    store.create_game(game).await.unwrap();
    // Seat 1 (bob) wins.
    finish(&store, 1, 5_000, &[2, 1]).await.unwrap();
    let ann = store
        .rating_of(ids[0])
        .await
        .unwrap()
        .expect("ann is rated");
    let bob = store
        .rating_of(ids[1])
        .await
        .unwrap()
        .expect("bob is rated");
    assert!(
        bob.rating > 1500.0 && ann.rating < 1500.0,
        "{ann:?} {bob:?}"
    );
    assert!(ann.deviation < 350.0 && ann.provisional());
    assert_eq!((ann.games, ann.wins, bob.games, bob.wins), (1, 0, 1, 1));
    assert_eq!(bob.last_played, 5_000);
    assert_eq!(bob.player_id, player_id(ids[1]));
    // Finishing again (a retry) changes nothing.
    store
        .finish_game(Uuid::from_u128(1), "{}", 5_000, &[2, 1])
        .await
        .unwrap();
    assert_eq!(store.rating_of(ids[1]).await.unwrap().unwrap(), bob);
    let recent = store.recent_rated_games(&bob.player_id).await.unwrap();
    assert_eq!(recent.len(), 1);
    assert_eq!((recent[0].place, recent[0].players), (1, 2));
    assert!((recent[0].rating_before - 1500.0).abs() < 1e-9);
    assert!((recent[0].rating_after - bob.rating).abs() < 1e-9);

    // A second game the other way round: ann climbs back, from her new rating.
    store
        .create_game(rated_game(2, &ids, &["ann", "bob"], &[]))
        .await
        .unwrap();
    finish(&store, 2, 6_000, &[1, 2]).await.unwrap();
    let ann2 = store.rating_of(ids[0]).await.unwrap().unwrap();
    assert!(ann2.rating > ann.rating);
    assert_eq!(ann2.games, 2);
    let recent = store.recent_rated_games(&ann2.player_id).await.unwrap();
    assert_eq!(recent.len(), 2);
    assert_eq!(recent[0].finished_at, 6_000, "newest first");
    assert!((recent[0].rating_before - ann.rating).abs() < 1e-9);
}

async fn unrated_games_and_built_in_bots_are_not_rated(db: TestDb) {
    let store = db.open().await;
    let ids = sessions(&store, &["ann", "bob"]).await;
    let mut game = rated_game(1, &ids, &["ann", "bob"], &[]);
    game.rated = false;
    store.create_game(game).await.unwrap();
    finish(&store, 1, 1, &[1, 2]).await.unwrap();
    assert_eq!(store.rating_of(ids[0]).await.unwrap(), None);
    // A rated game against a built-in bot: one rated seat rates nobody.
    let bot = SessionId(Uuid::from_u128(99));
    store
        .create_game(rated_game(
            2,
            &[ids[0], bot],
            &["ann", "Greedy bot"],
            &[None, Some("greedy")],
        ))
        .await
        .unwrap();
    finish(&store, 2, 2, &[1, 2]).await.unwrap();
    assert_eq!(store.rating_of(ids[0]).await.unwrap(), None);
    assert_eq!(store.rating_of(bot).await.unwrap(), None);
}

async fn a_rated_game_needs_a_place_per_seat(db: TestDb) {
    let store = db.open().await;
    let ids = sessions(&store, &["ann", "bob"]).await;
    store
        .create_game(rated_game(1, &ids, &["ann", "bob"], &[]))
        .await
        .unwrap();
    for places in [&[][..], &[1][..], &[1, 3][..], &[0, 1][..]] {
        let err = finish(&store, 1, 1, places).await.unwrap_err();
        assert!(
            matches!(err, StoreError::Invalid { what: "places", .. }),
            "{places:?}: {err}"
        );
    }
    // Nothing was finished or rated by the refusals.
    assert!(
        store
            .game(Uuid::from_u128(1))
            .await
            .unwrap()
            .unwrap()
            .finished
            .is_none()
    );
    assert_eq!(store.rating_of(ids[0]).await.unwrap(), None);
}

async fn leaderboards_keep_people_and_bots_apart_in_pages(db: TestDb) {
    let store = db.open().await;
    let names = ["p0", "p1", "p2", "b0", "b1"];
    let ids = sessions(&store, &names).await;
    store.mark_bot(ids[3]).await.unwrap();
    store.mark_bot(ids[4]).await.unwrap();
    // p0 beats p1 beats p2 (a 3-player game); b0 beats b1.
    store
        .create_game(rated_game(1, &ids[..3], &names[..3], &[]))
        .await
        .unwrap();
    finish(&store, 1, 10, &[1, 2, 3]).await.unwrap();
    store
        .create_game(rated_game(2, &ids[3..], &names[3..], &[]))
        .await
        .unwrap();
    finish(&store, 2, 11, &[1, 2]).await.unwrap();

    let humans = store.leaderboard(BoardKind::Humans, 1, 2).await.unwrap();
    assert_eq!(humans.total, 3);
    let order: Vec<_> = humans.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(order, ["p0", "p1"]);
    let page2 = store.leaderboard(BoardKind::Humans, 2, 2).await.unwrap();
    assert_eq!(page2.players.len(), 1);
    assert_eq!(page2.players[0].name, "p2");
    assert!(!page2.players[0].bot);
    let bots = store.leaderboard(BoardKind::Bots, 1, 50).await.unwrap();
    assert_eq!(bots.total, 2);
    assert!(bots.players.iter().all(|p| p.bot));
    assert_eq!(bots.players[0].name, "b0");
    // Past the end: an empty page. Bad pages are refused.
    assert!(
        store
            .leaderboard(BoardKind::Humans, 9, 2)
            .await
            .unwrap()
            .players
            .is_empty()
    );
    assert!(store.leaderboard(BoardKind::Humans, 0, 2).await.is_err());
    assert!(store.leaderboard(BoardKind::Humans, 1, 0).await.is_err());
    assert!(store.leaderboard(BoardKind::Humans, 1, 101).await.is_err());
}

async fn players_are_found_by_id_and_name(db: TestDb) {
    let store = db.open().await;
    let ids = sessions(&store, &["twin", "twin", "solo"]).await;
    store
        .create_game(rated_game(1, &ids, &["twin", "twin", "solo"], &[]))
        .await
        .unwrap();
    finish(&store, 1, 10, &[1, 1, 3]).await.unwrap();
    let twin = store.player(&player_id(ids[0])).await.unwrap().unwrap();
    assert_eq!(twin.name, "twin");
    assert_eq!(twin.wins, 1, "a shared first place is a win");
    assert_eq!(store.players_named("twin").await.unwrap().len(), 2);
    assert_eq!(store.players_named("solo").await.unwrap().len(), 1);
    assert!(store.players_named("nobody").await.unwrap().is_empty());
    assert_eq!(store.player("0000000000").await.unwrap(), None);
    assert_eq!(store.player("not an id; DROP TABLE").await.unwrap(), None);
}

async fn rated_sessions_are_not_pruned(db: TestDb) {
    let store = db.open().await;
    let ids = sessions(&store, &["ann", "bob"]).await;
    store
        .create_game(rated_game(1, &ids, &["ann", "bob"], &[]))
        .await
        .unwrap();
    finish(&store, 1, 10, &[1, 2]).await.unwrap();
    let (other, _) = store.create_session("idle", 0).await.unwrap();
    let pruned = store.prune_sessions(i64::MAX, i64::MAX).await.unwrap();
    assert_eq!(pruned, 1, "only the unrated session goes");
    assert!(store.rating_of(ids[0]).await.unwrap().is_some());
    let _ = other;
}

async fn queues_form_games_from_the_oldest_present_sessions(db: TestDb) {
    let store = db.open().await;
    let ids = sessions(&store, &["a", "b", "c", "d", "e"]).await;
    for (i, &id) in ids[..4].iter().enumerate() {
        store
            .enqueue(
                id,
                "x",
                (2, QueuePool::People, false),
                (100 + i as i64, None),
            )
            .await
            .unwrap();
    }
    store
        .enqueue(ids[4], "x", (3, QueuePool::People, false), (100, None))
        .await
        .unwrap();
    assert!(matches!(
        store
            .enqueue(ids[0], "x", (3, QueuePool::People, false), (200, None))
            .await,
        Err(StoreError::AlreadyQueued(2))
    ));
    assert!(
        store
            .enqueue(ids[4], "x", (5, QueuePool::People, false), (1, None))
            .await
            .is_err()
    );
    assert_eq!(store.queue_length(2, QueuePool::People).await.unwrap(), 4);
    // The oldest is away: it is skipped, not matched.
    store.set_queue_away(ids[0], Some(150)).await.unwrap();
    assert_eq!(store.queue_length(2, QueuePool::People).await.unwrap(), 3);
    let first = store
        .take_match((2, QueuePool::People), 0)
        .await
        .unwrap()
        .expect("a game of two");
    let taken: Vec<_> = first.iter().map(|e| e.session).collect();
    assert_eq!(taken, [ids[1], ids[2]]);
    assert_eq!(
        store.take_match((2, QueuePool::People), 0).await.unwrap(),
        None,
        "one present left"
    );
    assert_eq!(
        store.take_match((3, QueuePool::People), 0).await.unwrap(),
        None
    );
    // Back: matched with the last one.
    store.set_queue_away(ids[0], None).await.unwrap();
    let second = store
        .take_match((2, QueuePool::People), 0)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        second.iter().map(|e| e.session).collect::<Vec<_>>(),
        [ids[0], ids[3]]
    );
    // An entry away since before the cutoff is dropped.
    store
        .enqueue(ids[1], "x", (2, QueuePool::People, false), (300, None))
        .await
        .unwrap();
    store.set_queue_away(ids[1], Some(310)).await.unwrap();
    assert_eq!(
        store.take_match((2, QueuePool::People), 400).await.unwrap(),
        None
    );
    assert_eq!(store.queue_entry(ids[1]).await.unwrap(), None);
    assert_eq!(store.dequeue(ids[4]).await.unwrap(), Some(3));
    assert_eq!(store.dequeue(ids[4]).await.unwrap(), None);
}

async fn ratings_survive_reopening_and_queues_are_cleared(db: TestDb) {
    let ids;
    {
        let store = db.open().await;
        ids = sessions(&store, &["ann", "bob"]).await;
        store
            .create_game(rated_game(1, &ids, &["ann", "bob"], &[]))
            .await
            .unwrap();
        finish(&store, 1, 10, &[1, 2]).await.unwrap();
        store
            .enqueue(ids[0], "ann", (2, QueuePool::People, false), (20, None))
            .await
            .unwrap();
        store.close().await;
    }
    let store = db.open().await;
    assert_eq!(store.rating_of(ids[0]).await.unwrap().unwrap().games, 1);
    assert!(store.queue_entry(ids[0]).await.unwrap().is_some());
    assert_eq!(store.clear_queues().await.unwrap(), 1);
    assert_eq!(store.queue_entry(ids[0]).await.unwrap(), None);
}

async fn a_game_with_bots_takes_the_asker_first_and_only_while_queued(db: TestDb) {
    let store = db.open().await;
    let ids = sessions(&store, &["a", "b", "c", "d"]).await;
    store
        .enqueue(ids[0], "a", (4, QueuePool::People, false), (100, None))
        .await
        .unwrap();
    store
        .enqueue(ids[1], "b", (4, QueuePool::People, false), (110, None))
        .await
        .unwrap();
    store
        .enqueue(ids[2], "c", (4, QueuePool::People, false), (120, Some(500)))
        .await
        .unwrap();
    store
        .enqueue(ids[3], "d", (3, QueuePool::People, false), (90, None))
        .await
        .unwrap();
    assert_eq!(
        store.queue_entry(ids[2]).await.unwrap().unwrap().bots_at,
        Some(500)
    );
    // c's wait ran out: c first, then the others of its queue, oldest first;
    // d waits for games of three and stays.
    let taken = store.take_with_bots(ids[2], 4).await.unwrap().unwrap();
    let order: Vec<_> = taken.iter().map(|e| e.session).collect();
    assert_eq!(order, [ids[2], ids[0], ids[1]]);
    assert_eq!(store.queue_length(4, QueuePool::People).await.unwrap(), 0);
    assert_eq!(store.queue_length(3, QueuePool::People).await.unwrap(), 1);
    // No longer queued (matched meanwhile): nothing is taken.
    assert_eq!(store.take_with_bots(ids[2], 4).await.unwrap(), None);
    // Away: not taken either, and the others stay.
    store
        .enqueue(ids[0], "a", (3, QueuePool::People, false), (200, Some(300)))
        .await
        .unwrap();
    store.set_queue_away(ids[0], Some(250)).await.unwrap();
    assert_eq!(store.take_with_bots(ids[0], 3).await.unwrap(), None);
    assert_eq!(store.queue_length(3, QueuePool::People).await.unwrap(), 1);
    assert!(store.queue_entry(ids[3]).await.unwrap().is_some());
}
