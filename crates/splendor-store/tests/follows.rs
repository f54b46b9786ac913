//! Follows (issue 50): kept per follower, limited, one way; only friends
//! (who follow each other) see when the other was last seen and the room
//! of their game; blocks either way hide a follow; a rated player's mean
//! accuracy is read from their games' analyses. On SQLite always and on
//! PostgreSQL when `SPLENDOR_TEST_DATABASE_URL` is set.

#[allow(dead_code)] // the shared helpers this file does not use
mod common;

use common::{TestDb, on_both_backends};
use splendor_store::{
    ActionRecord, Following, NewGame, R13_4_OWN_MOVES, SeatRecord, SessionId, Store, StoreError,
    player_id,
};
use uuid::Uuid;

on_both_backends!(
    a_follow_is_kept_listed_limited_and_undone,
    only_friends_see_when_and_where_and_blocks_hide_a_follow,
    a_players_mean_accuracy_comes_from_their_analysed_rated_games,
);

async fn sessions(store: &Store, names: &[&str]) -> Vec<SessionId> {
    let mut ids = Vec::new();
    for (i, name) in names.iter().enumerate() {
        ids.push(store.create_session(name, 1 + i as i64).await.unwrap().0);
    }
    ids
}

fn game(id: u128, players: &[SessionId], names: &[&str], code: &str, rated: bool) -> NewGame {
    NewGame {
        id: Uuid::from_u128(id),
        room_code: code.into(),
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
                bot: None,
                program: false,
            })
            .collect(),
        created_at: 100 + id as i64,
        clock_json: None,
        listed: false,
        rated,
    }
}

async fn a_follow_is_kept_listed_limited_and_undone(db: TestDb) {
    let store = db.open().await;
    let ids = sessions(&store, &["ann", "bob", "cy", "dan"]).await;
    let (ann, bob, cy, dan) = (ids[0], ids[1], ids[2], ids[3]);
    assert_eq!(store.follow(ann, cy, 10, 2).await.unwrap(), Following::Made);
    assert_eq!(
        store.follow(ann, cy, 11, 2).await.unwrap(),
        Following::Already
    );
    assert!(matches!(
        store.follow(ann, ann, 12, 2).await,
        Err(StoreError::Invalid { .. })
    ));
    assert_eq!(
        store.follow(ann, bob, 13, 2).await.unwrap(),
        Following::Made
    );
    assert_eq!(
        store.follow(ann, dan, 14, 2).await.unwrap(),
        Following::TooMany
    );
    let listed = store.follows_of(ann).await.unwrap();
    let names: Vec<_> = listed.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["bob", "cy"], "by name");
    assert_eq!(listed[0].player_id, player_id(bob));
    assert_eq!(listed[0].since, 13);
    assert!(listed.iter().all(|f| !f.mutual), "one way");
    // One way: bob follows nobody, but sees ann among those to follow back.
    assert!(store.follows_of(bob).await.unwrap().is_empty());
    let back = store.followers_of(bob, 10).await.unwrap();
    assert_eq!(back.len(), 1);
    assert_eq!((back[0].session, back[0].name.as_str()), (ann, "ann"));
    assert!(!back[0].mutual && back[0].last_seen.is_none() && back[0].room.is_none());
    assert!(store.unfollow(ann, cy).await.unwrap());
    assert!(!store.unfollow(ann, cy).await.unwrap());
    assert_eq!(
        store.follow(ann, dan, 15, 2).await.unwrap(),
        Following::Made
    );
    // Forgetting a player takes its follows, made and received.
    assert!(
        store
            .forget_session(dan, "operator", "asked")
            .await
            .unwrap()
    );
    let names: Vec<_> = store
        .follows_of(ann)
        .await
        .unwrap()
        .into_iter()
        .map(|f| f.name)
        .collect();
    assert_eq!(names, ["bob"]);
}

async fn only_friends_see_when_and_where_and_blocks_hide_a_follow(db: TestDb) {
    let store = db.open().await;
    let ids = sessions(&store, &["ann", "bob", "cy"]).await;
    let (ann, bob, cy) = (ids[0], ids[1], ids[2]);
    // bob and cy sit in a game in play; bob was seen at 5,000.
    store
        .create_game(game(1, &[bob, cy], &["bob", "cy"], "ROOMB", false))
        .await
        .unwrap();
    store.touch_sessions(vec![bob], 5_000).await.unwrap();
    store.follow(ann, bob, 10, 50).await.unwrap();
    store.follow(ann, cy, 11, 50).await.unwrap();
    // ann follows both; neither follows her: neither when nor where.
    let listed = store.follows_of(ann).await.unwrap();
    assert_eq!(listed.len(), 2);
    assert!(
        listed
            .iter()
            .all(|f| f.last_seen.is_none() && f.room.is_none())
    );
    // bob follows back: they are friends, and ann sees his room and time.
    store.follow(bob, ann, 12, 50).await.unwrap();
    let listed = store.follows_of(ann).await.unwrap();
    assert!(listed[0].mutual);
    assert_eq!(listed[0].last_seen, Some(5_000));
    assert_eq!(listed[0].room.as_deref(), Some("ROOMB"));
    assert!(!listed[1].mutual && listed[1].room.is_none(), "cy: one way");
    assert!(
        store.followers_of(ann, 10).await.unwrap().is_empty(),
        "bob is followed back"
    );
    // A finished game is no room of his.
    store
        .finish_game(Uuid::from_u128(1), "{}", 6_000, &[1, 2])
        .await
        .unwrap();
    assert_eq!(store.follows_of(ann).await.unwrap()[0].room, None);
    // A block either way hides the follow from both lists, and lifting it
    // shows it again.
    store.block(cy, ann, 20, 50).await.unwrap();
    let names: Vec<_> = store
        .follows_of(ann)
        .await
        .unwrap()
        .into_iter()
        .map(|f| f.name)
        .collect();
    assert_eq!(names, ["bob"], "cy blocks ann");
    store.follow(cy, ann, 21, 50).await.unwrap();
    assert!(store.followers_of(ann, 10).await.unwrap().is_empty());
    store.block(ann, bob, 22, 50).await.unwrap();
    assert!(
        store.follows_of(ann).await.unwrap().is_empty(),
        "ann blocks bob"
    );
    assert!(store.follows_of(bob).await.unwrap().is_empty());
    store.unblock(ann, bob).await.unwrap();
    store.unblock(cy, ann).await.unwrap();
    assert_eq!(store.follows_of(ann).await.unwrap().len(), 2);
}

/// Appends five moves of every seat's own (R13.4), in turn.
async fn moves(store: &Store, id: u128, seats: u8) {
    let mut seq = 0;
    for _ in 0..R13_4_OWN_MOVES {
        for seat in 0..seats {
            store
                .append_action(ActionRecord {
                    game_id: Uuid::from_u128(id),
                    seq,
                    seat,
                    action_json: format!(r#"{{"type":"take","gems":["red"],"n":{seq}}}"#),
                    at: 200 + i64::from(seq),
                    meta_json: None,
                })
                .await
                .unwrap();
            seq += 1;
        }
    }
}

async fn a_players_mean_accuracy_comes_from_their_analysed_rated_games(db: TestDb) {
    let store = db.open().await;
    let ids = sessions(&store, &["ann", "bob"]).await;
    let ann = player_id(ids[0]);
    // Three rated games; ann sits first, second, first.
    let tables = [[ids[0], ids[1]], [ids[1], ids[0]], [ids[0], ids[1]]];
    for (i, seats) in tables.iter().enumerate() {
        let id = i as u128 + 1;
        let names = if seats[0] == ids[0] {
            ["ann", "bob"]
        } else {
            ["bob", "ann"]
        };
        store
            .create_game(game(id, seats, &names, "RATED", true))
            .await
            .unwrap();
        moves(&store, id, 2).await;
        store
            .finish_game(Uuid::from_u128(id), "{}", 1_000 + id as i64, &[1, 2])
            .await
            .unwrap();
    }
    let none = store.mean_accuracy(&ann).await.unwrap();
    assert_eq!((none.games, none.mean), (0, None), "no analysis yet");
    // Games 1 and 2 analysed: ann's seat reads 80 in the first, 60 in the
    // second (her seat 1); game 3's analysis still runs.
    for (id, figures) in [(1u128, "[80.0, 10.0]"), (2, "[10.0, 60.0]")] {
        let game = Uuid::from_u128(id);
        assert!(store.claim_analysis(game, "node", 2, 60_000).await.unwrap());
        let accuracies: Vec<f64> = serde_json::from_str(figures).unwrap();
        let body = serde_json::json!({
            "figures": accuracies.iter().map(|a| serde_json::json!({"accuracy": a})).collect::<Vec<_>>(),
        });
        assert!(
            store
                .finish_analysis(game, "node", &body.to_string())
                .await
                .unwrap()
        );
    }
    assert!(
        store
            .claim_analysis(Uuid::from_u128(3), "node", 2, 60_000)
            .await
            .unwrap()
    );
    let mean = store.mean_accuracy(&ann).await.unwrap();
    assert_eq!(mean.games, 2);
    assert!((mean.mean.unwrap() - 70.0).abs() < 1e-9, "{mean:?}");
    let bob = store.mean_accuracy(&player_id(ids[1])).await.unwrap();
    assert!((bob.mean.unwrap() - 10.0).abs() < 1e-9, "{bob:?}");
    assert_eq!(store.mean_accuracy("0123456789").await.unwrap().games, 0);
}
