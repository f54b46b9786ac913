//! A session's notification settings (issue 25), on SQLite always and on
//! PostgreSQL when `SPLENDOR_TEST_DATABASE_URL` is set.

#[allow(dead_code)] // the shared helpers this file does not use
mod common;

use common::{TestDb, on_both_backends};
use splendor_store::NotifySettings;

on_both_backends!(settings_are_set_replaced_and_go_with_a_forgotten_session,);

async fn settings_are_set_replaced_and_go_with_a_forgotten_session(db: TestDb) {
    let store = db.open().await;
    let (ann, _) = store.create_session("ann", 1).await.unwrap();
    let (bob, _) = store.create_session("bob", 1).await.unwrap();
    assert_eq!(store.notify_settings(ann).await.unwrap(), None);
    let hook = NotifySettings {
        events: vec!["your_turn".into(), "game_over".into()],
        webhook: Some(("https://hooks.example.org/a".into(), "s3cret".into())),
    };
    store.put_notify_settings(ann, &hook, 2).await.unwrap();
    assert_eq!(store.notify_settings(ann).await.unwrap(), Some(hook));
    // Replaced whole: no webhook, no events.
    let quiet = NotifySettings::default();
    store.put_notify_settings(ann, &quiet, 3).await.unwrap();
    assert_eq!(store.notify_settings(ann).await.unwrap(), Some(quiet));
    let chat = NotifySettings {
        events: vec!["chat".into()],
        webhook: Some(("https://hooks.example.org/b".into(), "x".into())),
    };
    store.put_notify_settings(bob, &chat, 4).await.unwrap();
    // Forgetting a player forgets where their notices went.
    assert!(
        store
            .forget_session(bob, "operator", "asked")
            .await
            .unwrap()
    );
    assert_eq!(store.notify_settings(bob).await.unwrap(), None);
    store.delete_notify_settings(ann).await.unwrap();
    assert_eq!(store.notify_settings(ann).await.unwrap(), None);
}
