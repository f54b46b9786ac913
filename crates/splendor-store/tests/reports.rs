//! Players' reports (issue 22): kept with the room's chat, one open report
//! per reporter and reported, a daily limit per reporter, resolved once
//! and audited, and gone with a forgotten player. On SQLite always and on
//! PostgreSQL when `SPLENDOR_TEST_DATABASE_URL` is set.

#[allow(dead_code)] // the shared helpers this file does not use
mod common;

use common::{TestDb, on_both_backends};
use splendor_store::{
    NewReport, REPORT_WINDOW_MS, ReportCaps, ReportLine, Reporting, SessionId, StoreError,
};

on_both_backends!(
    a_report_is_kept_with_its_chat_limited_and_resolved_once,
    forgetting_a_player_takes_the_reports_and_lines_that_name_them,
    the_console_finds_sessions_by_name_id_player_id_or_address_and_lists_the_queue,
    an_address_is_capped_across_its_sessions_and_a_forgotten_player_is_not_reported,
);

fn report(reporter: SessionId, reported: SessionId, chat: Vec<ReportLine>) -> NewReport {
    NewReport {
        reporter,
        reporter_name: "ann".into(),
        reporter_client: None,
        reported,
        reported_name: "bob".into(),
        room: Some("KHPQZ".into()),
        game: Some("00000000000000000000000000000009".into()),
        seat: Some(1),
        line: Some("you are all bad".into()),
        reason: "insults".into(),
        chat,
    }
}

fn caps(per_session: u32) -> ReportCaps {
    ReportCaps {
        per_session,
        per_address: 100,
    }
}

fn line(session: SessionId, name: &str, n: u64, text: &str) -> ReportLine {
    ReportLine {
        session: Some(session),
        name: name.into(),
        seat: Some(0),
        line: n,
        text: text.into(),
    }
}

async fn a_report_is_kept_with_its_chat_limited_and_resolved_once(db: TestDb) {
    let store = db.open().await;
    let (ann, _) = store.create_session("ann", 1).await.unwrap();
    let (bob, _) = store.create_session("bob", 1).await.unwrap();
    let (cy, _) = store.create_session("cy", 1).await.unwrap();
    let chat = vec![
        line(ann, "ann", 1, "hi"),
        line(bob, "bob", 2, "you are all bad"),
    ];
    let now = 1_000_000_000;
    let Reporting::Made(first) = store
        .report(&report(ann, bob, chat), now, caps(2))
        .await
        .unwrap()
    else {
        panic!("made");
    };
    // The same open report again: nothing new.
    assert_eq!(
        store
            .report(&report(ann, bob, vec![]), now + 1, caps(2))
            .await
            .unwrap(),
        Reporting::Already(first)
    );
    assert!(matches!(
        store.report(&report(ann, ann, vec![]), now, caps(2)).await,
        Err(StoreError::Invalid { .. })
    ));
    let Reporting::Made(second) = store
        .report(&report(ann, cy, vec![]), now + 10, caps(2))
        .await
        .unwrap()
    else {
        panic!("made");
    };
    // Two a day: the third waits until the first is a day old.
    let (dan, _) = store.create_session("dan", 1).await.unwrap();
    assert_eq!(
        store
            .report(&report(ann, dan, vec![]), now + 100, caps(2))
            .await
            .unwrap(),
        Reporting::TooMany {
            retry_after_ms: REPORT_WINDOW_MS - 100
        }
    );
    // Another reporter is not limited by ann's.
    assert!(matches!(
        store
            .report(&report(cy, bob, vec![]), now + 100, caps(2))
            .await
            .unwrap(),
        Reporting::Made(_)
    ));
    let open = store.reports(true, 10).await.unwrap();
    assert_eq!(open.len(), 3);
    let kept = open.iter().find(|r| r.id == first).unwrap();
    assert_eq!(kept.made.chat.len(), 2);
    assert_eq!(kept.made.chat[1].text, "you are all bad");
    assert_eq!(kept.made.chat[1].session, Some(bob));
    assert_eq!(kept.made.seat, Some(1));
    assert_eq!(kept.at, now);
    assert_eq!(store.reports_about(bob, 10).await.unwrap().len(), 2);
    // Resolved once, audited; then no longer open, and a new report of bob
    // by ann may be made.
    let resolved = store
        .resolve_report(first, "muted", "24 h")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(resolved.action.as_deref(), Some("muted"));
    assert!(resolved.resolved_at.is_some());
    assert_eq!(resolved.made.chat.len(), 2);
    assert!(
        store
            .resolve_report(first, "banned", "again")
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store
            .resolve_report(9_999, "banned", "x")
            .await
            .unwrap()
            .is_none()
    );
    let open: Vec<i64> = store
        .reports(true, 10)
        .await
        .unwrap()
        .iter()
        .map(|r| r.id)
        .collect();
    assert!(!open.contains(&first) && open.contains(&second));
    assert_eq!(store.reports(false, 10).await.unwrap().len(), 3);
    let audit = store.audit_entries(10).await.unwrap();
    assert!(
        audit
            .iter()
            .any(|e| e.action == "resolve_report" && e.target == format!("report:{first}")),
        "{audit:?}"
    );
    assert!(matches!(
        store
            .report(
                &report(ann, bob, vec![]),
                now + REPORT_WINDOW_MS + 1,
                caps(2)
            )
            .await
            .unwrap(),
        Reporting::Made(_)
    ));
}

async fn forgetting_a_player_takes_the_reports_and_lines_that_name_them(db: TestDb) {
    let store = db.open().await;
    let (ann, _) = store.create_session("ann", 1).await.unwrap();
    let (bob, _) = store.create_session("bob", 1).await.unwrap();
    let (cy, _) = store.create_session("cy", 1).await.unwrap();
    let chat = vec![line(ann, "ann", 1, "hi"), line(cy, "cy", 2, "cy was here")];
    store
        .report(&report(ann, bob, chat), 10, caps(5))
        .await
        .unwrap();
    store
        .report(&report(cy, bob, vec![]), 11, caps(5))
        .await
        .unwrap();
    store
        .report(&report(ann, cy, vec![]), 12, caps(5))
        .await
        .unwrap();
    assert!(store.forget_session(cy, "operator", "asked").await.unwrap());
    let left = store.reports(false, 10).await.unwrap();
    assert_eq!(left.len(), 1, "cy's report and the one about cy go");
    assert_eq!(left[0].made.reporter, ann);
    let texts: Vec<&str> = left[0].made.chat.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(texts, ["hi"], "cy's line goes from ann's report");
}

async fn the_console_finds_sessions_by_name_id_player_id_or_address_and_lists_the_queue(
    db: TestDb,
) {
    let store = db.open().await;
    let (ann, _) = store.create_session("Ann_Smith", 1).await.unwrap();
    let (bob, _) = store.create_session("bob", 2).await.unwrap();
    store
        .set_program_owner(bob, None, Some("203.0.113.7"))
        .await
        .unwrap();
    let names = |rows: Vec<splendor_store::SessionRow>| -> Vec<String> {
        rows.into_iter().map(|r| r.name).collect()
    };
    assert_eq!(
        names(store.find_sessions("ann_s", 10).await.unwrap()),
        ["Ann_Smith"]
    );
    // `_` is a letter here, not LIKE's wildcard.
    assert!(store.find_sessions("ann_x", 10).await.unwrap().is_empty());
    assert_eq!(
        names(store.find_sessions("113.7", 10).await.unwrap()),
        ["bob"]
    );
    let by_id = store
        .find_sessions(&bob.0.simple().to_string(), 10)
        .await
        .unwrap();
    assert_eq!(by_id[0].client.as_deref(), Some("203.0.113.7"));
    let pid = splendor_store::player_id(ann);
    assert_eq!(
        names(store.find_sessions(&pid, 10).await.unwrap()),
        ["Ann_Smith"]
    );
    assert_eq!(store.find_sessions("", 10).await.unwrap().len(), 2);
    store
        .enqueue(
            ann,
            "Ann_Smith",
            (3, splendor_store::QueuePool::People, false),
            (10, None),
        )
        .await
        .unwrap();
    let queue = store.queue_entries().await.unwrap();
    assert_eq!(queue.len(), 1);
    assert_eq!((queue[0].session, queue[0].players), (ann, 3));
    // Forgetting takes the address it said hello from.
    assert!(
        store
            .forget_session(bob, "operator", "asked")
            .await
            .unwrap()
    );
    assert!(store.find_sessions("113.7", 10).await.unwrap().is_empty());
}

async fn an_address_is_capped_across_its_sessions_and_a_forgotten_player_is_not_reported(
    db: TestDb,
) {
    let store = db.open().await;
    let (target, _) = store.create_session("troll", 1).await.unwrap();
    let caps = ReportCaps {
        per_session: 10,
        per_address: 3,
    };
    let mut made = 0;
    for i in 0..5 {
        let (reporter, _) = store.create_session(&format!("sock{i}"), 1).await.unwrap();
        let mut new = report(reporter, target, vec![]);
        new.reporter_client = Some("198.51.100.7".into());
        match store.report(&new, 1_000 + i, caps).await.unwrap() {
            Reporting::Made(_) => made += 1,
            Reporting::TooMany { retry_after_ms } => {
                assert_eq!(retry_after_ms, REPORT_WINDOW_MS - i);
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(made, 3, "three from one address, however many sessions");
    // Another address is not limited by that one.
    let (other, _) = store.create_session("ann", 1).await.unwrap();
    let mut new = report(other, target, vec![]);
    new.reporter_client = Some("203.0.113.1".into());
    assert!(matches!(
        store.report(&new, 2_000, caps).await.unwrap(),
        Reporting::Made(_)
    ));
    // A forgotten player is not reported again, and its lines in another
    // report are not kept.
    let (bob, _) = store.create_session("bob", 1).await.unwrap();
    assert!(
        store
            .forget_session(target, "operator", "asked")
            .await
            .unwrap()
    );
    let (cy, _) = store.create_session("cy", 1).await.unwrap();
    assert_eq!(
        store
            .report(&report(cy, target, vec![]), 3_000, caps)
            .await
            .unwrap(),
        Reporting::Forgotten
    );
    let chat = vec![
        line(target, "troll", 1, "old words"),
        line(bob, "bob", 2, "hi"),
    ];
    store
        .report(&report(cy, bob, chat), 3_001, caps)
        .await
        .unwrap();
    let kept = store.reports_about(bob, 5).await.unwrap();
    let texts: Vec<&str> = kept[0].made.chat.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(texts, ["hi"]);
}
