//! Operators' sanctions and the audit log (issue 22), on SQLite always and
//! on PostgreSQL when `SPLENDOR_TEST_DATABASE_URL` is set.

#[allow(dead_code)] // the shared helpers this file does not use
mod common;

use common::{TestDb, on_both_backends};
use splendor_store::{ActionRecord, NewGame, NewSanction, SeatRecord, SessionId};
use uuid::Uuid;

on_both_backends!(
    sanctions_hold_until_lifted_or_run_out_and_every_change_is_audited,
    only_unfinished_games_nobody_played_since_the_limit_are_pruned,
);

fn ban(kind: &str, value: &str, until_in_ms: Option<i64>) -> NewSanction {
    NewSanction {
        kind: kind.to_owned(),
        value: value.to_owned(),
        until_in_ms,
        reason: format!("spam from {value}"),
        actor: "operator".to_owned(),
    }
}

async fn sanctions_hold_until_lifted_or_run_out_and_every_change_is_audited(db: TestDb) {
    let store = db.open().await;
    let now = store.database_now().await.unwrap();
    let forever = store
        .add_sanction(&ban("ban_address", "198.51.100.0/24", None))
        .await
        .unwrap();
    assert_eq!(forever.until_ms, None);
    assert!(forever.created_at >= now);
    let hour = store
        .add_sanction(&ban("ban_name", "*spam*", Some(3_600_000)))
        .await
        .unwrap();
    assert!(hour.until_ms.unwrap() >= now + 3_600_000);
    let short = store
        .add_sanction(&ban("ban_session", "ab12", Some(1)))
        .await
        .unwrap();
    // The short one runs out by the database's clock.
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    while store.database_now().await.unwrap() <= short.until_ms.unwrap() {
        assert!(tokio::time::Instant::now() < deadline, "never ran out");
        tokio::task::yield_now().await;
    }
    let active: Vec<i64> = store
        .active_sanctions()
        .await
        .unwrap()
        .iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(active, [forever.id, hour.id]);
    // Lifted once; a second lift finds nothing in force.
    let lifted = store
        .lift_sanction(hour.id, "operator", "appeal accepted")
        .await
        .unwrap();
    assert!(lifted.unwrap().lifted_at.is_some());
    assert_eq!(
        store
            .lift_sanction(hour.id, "operator", "again")
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        store.lift_sanction(9999, "operator", "none").await.unwrap(),
        None
    );
    let active: Vec<i64> = store
        .active_sanctions()
        .await
        .unwrap()
        .iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(active, [forever.id]);
    // Every change is in the audit, newest first.
    let audit = store.audit_entries(10).await.unwrap();
    let said: Vec<(&str, &str, &str)> = audit
        .iter()
        .map(|e| (e.action.as_str(), e.target.as_str(), e.reason.as_str()))
        .collect();
    assert_eq!(
        said,
        [
            ("lift", "ban_name:*spam*", "appeal accepted"),
            ("sanction", "ban_session:ab12", "spam from ab12"),
            ("sanction", "ban_name:*spam*", "spam from *spam*"),
            (
                "sanction",
                "ban_address:198.51.100.0/24",
                "spam from 198.51.100.0/24"
            ),
        ]
    );
    assert!(audit.iter().all(|e| e.actor == "operator" && e.at >= now));
    assert_eq!(store.audit_entries(1).await.unwrap().len(), 1);
}

fn game(id: u128, room: &str, created_at: i64) -> NewGame {
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
        created_at,
        clock_json: None,
        listed: false,
        rated: false,
    }
}

fn action(game: u128, seq: u32, at: i64) -> ActionRecord {
    ActionRecord {
        game_id: Uuid::from_u128(game),
        seq,
        seat: (seq % 2) as u8,
        action_json: format!(r#"{{"n":{seq}}}"#),
        at,
        meta_json: None,
    }
}

async fn only_unfinished_games_nobody_played_since_the_limit_are_pruned(db: TestDb) {
    let store = db.open().await;
    let now = store.database_now().await.unwrap();
    let day = 24 * 3600 * 1000;
    // 1: finished long ago. 2: abandoned long ago. 3: started long ago but
    // played today. 4: abandoned long ago, but its room is held now.
    for (id, room) in [(1, "AAAAA"), (2, "BBBBB"), (3, "CCCCC"), (4, "DDDDD")] {
        store
            .create_game(game(id, room, now - 100 * day))
            .await
            .unwrap();
        store
            .append_action(action(id, 0, now - 99 * day))
            .await
            .unwrap();
    }
    store.append_action(action(3, 1, now - 1000)).await.unwrap();
    store
        .finish_game(Uuid::from_u128(1), "{}", now - 99 * day, &[])
        .await
        .unwrap();
    store
        .claim_room("DDDDD", 1, std::time::Duration::from_secs(30))
        .await
        .unwrap();
    let pruned = store.prune_abandoned_games(now - 30 * day).await.unwrap();
    assert_eq!(pruned, 1);
    assert!(store.game(Uuid::from_u128(2)).await.unwrap().is_none());
    for kept in [1, 3, 4] {
        let game = store.game(Uuid::from_u128(kept)).await.unwrap();
        assert!(game.is_some_and(|g| !g.actions.is_empty()), "game {kept}");
    }
    // Again: nothing more.
    assert_eq!(
        store.prune_abandoned_games(now - 30 * day).await.unwrap(),
        0
    );
}
