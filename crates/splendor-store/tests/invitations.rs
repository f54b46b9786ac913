//! Invitations by player_id (issue 25), on SQLite always and on
//! PostgreSQL when `SPLENDOR_TEST_DATABASE_URL` is set.

#[allow(dead_code)] // the shared helpers this file does not use
mod common;

use common::{TestDb, on_both_backends};
use splendor_store::{Invitation, Invited, SessionId, player_id};
use uuid::Uuid;

on_both_backends!(
    a_player_is_found_by_player_id_and_invited_once_per_room,
    an_inviter_makes_only_so_many_an_hour,
    invitations_go_when_declined_joined_stale_or_forgotten,
    sessions_from_before_player_ids_get_theirs_at_open,
);

fn invitation(from: SessionId, to: SessionId, room: &str, epoch: u64, at: i64) -> Invitation {
    Invitation {
        id: Uuid::new_v4(),
        room_code: room.into(),
        room_epoch: epoch,
        from,
        from_name: "ann".into(),
        to,
        created_at: at,
        terms_json: Some(format!(r#"{{"seats":{epoch},"players":1}}"#)),
    }
}

async fn a_player_is_found_by_player_id_and_invited_once_per_room(db: TestDb) {
    let store = db.open().await;
    let (ann, _) = store.create_session("ann", 1).await.unwrap();
    let (bob, _) = store.create_session("bob", 1).await.unwrap();
    let found = store.sessions_by_player_id(&player_id(bob)).await.unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!((found[0].session, found[0].name.as_str()), (bob, "bob"));
    // Not an id, or nobody's.
    assert!(store.sessions_by_player_id("bob").await.unwrap().is_empty());
    assert!(
        store
            .sessions_by_player_id("0000000000")
            .await
            .unwrap()
            .is_empty()
    );
    let first = invitation(ann, bob, "ABCDE", 7, 10);
    assert_eq!(
        store.invite(&first, 0, 20).await.unwrap(),
        Invited::Made(first.id)
    );
    // The same again: nothing new (and so no second notice).
    let again = invitation(ann, bob, "ABCDE", 7, 11);
    assert_eq!(
        store.invite(&again, 0, 20).await.unwrap(),
        Invited::Already(first.id)
    );
    // A later room under the same code replaces it.
    let later = invitation(ann, bob, "ABCDE", 9, 12);
    assert_eq!(
        store.invite(&later, 0, 20).await.unwrap(),
        Invited::Made(later.id)
    );
    let listed = store.invitations_to(bob, 50).await.unwrap();
    assert_eq!(listed, vec![later]);
    assert!(store.invitations_to(ann, 50).await.unwrap().is_empty());
}

async fn an_inviter_makes_only_so_many_an_hour(db: TestDb) {
    let store = db.open().await;
    let (ann, _) = store.create_session("ann", 1).await.unwrap();
    let mut others = Vec::new();
    for i in 0..4 {
        others.push(store.create_session(&format!("p{i}"), 1).await.unwrap().0);
    }
    // Three allowed since time 100; one made before it does not count.
    let old = invitation(ann, others[0], "OLDER", 1, 50);
    assert!(matches!(
        store.invite(&old, 100, 3).await.unwrap(),
        Invited::Made(_)
    ));
    for (i, to) in others[1..].iter().enumerate() {
        let at = 100 + i64::try_from(i).unwrap();
        let made = store
            .invite(&invitation(ann, *to, "ROOMA", 1, at), 100, 3)
            .await
            .unwrap();
        assert!(matches!(made, Invited::Made(_)), "{made:?}");
    }
    let refused = invitation(ann, others[0], "ROOMA", 1, 200);
    assert_eq!(
        store.invite(&refused, 100, 3).await.unwrap(),
        Invited::Limited { oldest_at: 100 }
    );
    // Nothing was written.
    let got = store.invitations_to(others[0], 50).await.unwrap();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].room_code, "OLDER");
    // Declining gives the inviter nothing back (issue 24: the review sent
    // 30 invitations past a limit of 20, each one declined).
    let declined = store.invitations_to(others[1], 50).await.unwrap();
    assert!(
        store
            .decline_invitation(declined[0].id, others[1])
            .await
            .unwrap()
            .is_some()
    );
    let again = invitation(ann, others[1], "ROOMA", 1, 201);
    assert!(matches!(
        store.invite(&again, 100, 3).await.unwrap(),
        Invited::Limited { .. }
    ));
    // Once the hour is over, the old ones no longer count.
    assert!(matches!(
        store.invite(&again, 150, 3).await.unwrap(),
        Invited::Made(_)
    ));
}

async fn invitations_go_when_declined_joined_stale_or_forgotten(db: TestDb) {
    let store = db.open().await;
    let (ann, _) = store.create_session("ann", 1).await.unwrap();
    let (bob, _) = store.create_session("bob", 1).await.unwrap();
    let (cy, _) = store.create_session("cy", 1).await.unwrap();
    let a = invitation(ann, bob, "AAAAA", 1, 10);
    let b = invitation(ann, bob, "BBBBB", 1, 20);
    let c = invitation(cy, bob, "CCCCC", 1, 30);
    let d = invitation(cy, bob, "DDDDD", 1, 40);
    for i in [&a, &b, &c, &d] {
        store.invite(i, 0, 20).await.unwrap();
    }
    let ids = |list: Vec<Invitation>| list.into_iter().map(|i| i.id).collect::<Vec<_>>();
    // Newest first.
    assert_eq!(
        ids(store.invitations_to(bob, 50).await.unwrap()),
        [d.id, c.id, b.id, a.id]
    );
    // Declined by its invitee only.
    assert_eq!(store.decline_invitation(a.id, ann).await.unwrap(), None);
    // What was declined comes back whole (issue 24: the challenger is told).
    assert_eq!(
        store.decline_invitation(a.id, bob).await.unwrap(),
        Some(a.clone())
    );
    assert_eq!(store.decline_invitation(a.id, bob).await.unwrap(), None);
    // Joined: that room's invitations go.
    assert_eq!(store.drop_invitations(bob, "BBBBB").await.unwrap(), 1);
    // Stale: named ones, and any older than a time.
    assert_eq!(store.drop_stale_invitations(&[d.id], 35).await.unwrap(), 2);
    assert!(store.invitations_to(bob, 50).await.unwrap().is_empty());
    // A forgotten player can no longer be found, nor keeps invitations.
    store
        .invite(&invitation(ann, bob, "EEEEE", 1, 50), 0, 20)
        .await
        .unwrap();
    assert!(
        store
            .forget_session(bob, "operator", "asked")
            .await
            .unwrap()
    );
    assert!(store.invitations_to(bob, 50).await.unwrap().is_empty());
    assert!(
        store
            .sessions_by_player_id(&player_id(bob))
            .await
            .unwrap()
            .is_empty()
    );
}

async fn sessions_from_before_player_ids_get_theirs_at_open(db: TestDb) {
    let store = db.open().await;
    let mut made = Vec::new();
    for i in 0..3 {
        made.push(store.create_session(&format!("p{i}"), 1).await.unwrap().0);
    }
    store.close().await;
    // As sessions made before migration 0016 are.
    let sql = "UPDATE sessions SET player_id = NULL";
    db.raw().await.execute(sql, sql).await;
    let store = db.open().await;
    for session in made {
        let found = store
            .sessions_by_player_id(&player_id(session))
            .await
            .unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].session, session);
    }
    assert_eq!(store.backfill_player_ids().await.unwrap(), 0);
}
