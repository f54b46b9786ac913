//! A session's notification settings (issue 25), on SQLite always and on
//! PostgreSQL when `SPLENDOR_TEST_DATABASE_URL` is set.

#[allow(dead_code)] // the shared helpers this file does not use
mod common;

use common::{TestDb, on_both_backends};
use splendor_store::{NotifySettings, PushSubscription};

on_both_backends!(
    settings_are_set_replaced_and_go_with_a_forgotten_session,
    push_subscriptions_follow_their_endpoint_and_session,
    a_server_key_is_made_once_for_every_caller,
);

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

fn browser(endpoint: &str, lang: &str, at: i64) -> PushSubscription {
    PushSubscription {
        endpoint: endpoint.into(),
        p256dh: format!("key-of-{endpoint}"),
        auth: "auth".into(),
        lang: lang.into(),
        created_at: at,
    }
}

async fn push_subscriptions_follow_their_endpoint_and_session(db: TestDb) {
    let store = db.open().await;
    let (ann, _) = store.create_session("ann", 1).await.unwrap();
    let (bob, _) = store.create_session("bob", 1).await.unwrap();
    assert!(store.push_subscriptions(ann).await.unwrap().is_empty());
    let phone = browser("https://push.example.org/phone", "nl", 2);
    let laptop = browser("https://push.example.org/laptop", "en", 3);
    assert!(store.put_push_subscription(ann, &phone).await.unwrap());
    assert!(store.put_push_subscription(ann, &laptop).await.unwrap());
    assert_eq!(
        store.push_subscriptions(ann).await.unwrap(),
        vec![phone.clone(), laptop.clone()]
    );
    // Someone who knows the endpoint but not the browser's secret cannot
    // take it.
    let thief = PushSubscription {
        auth: "other".into(),
        ..browser("https://push.example.org/laptop", "de", 4)
    };
    assert!(!store.put_push_subscription(bob, &thief).await.unwrap());
    assert!(store.push_subscriptions(bob).await.unwrap().is_empty());
    // The same browser given by another session is that session's now.
    let laptop_bob = browser("https://push.example.org/laptop", "de", 4);
    assert!(store.put_push_subscription(bob, &laptop_bob).await.unwrap());
    assert_eq!(
        store.push_subscriptions(ann).await.unwrap(),
        vec![phone.clone()]
    );
    assert_eq!(
        store.push_subscriptions(bob).await.unwrap(),
        vec![laptop_bob]
    );
    // One session cannot forget another's browser.
    assert_eq!(
        store
            .delete_push_subscriptions(ann, Some("https://push.example.org/laptop"))
            .await
            .unwrap(),
        0
    );
    assert_eq!(store.push_subscriptions(bob).await.unwrap().len(), 1);
    // A push service said it is gone.
    assert_eq!(
        store
            .drop_push_endpoint("https://push.example.org/laptop")
            .await
            .unwrap(),
        1
    );
    assert!(store.push_subscriptions(bob).await.unwrap().is_empty());
    // All of a session's, and a forgotten session's.
    store.put_push_subscription(ann, &laptop).await.unwrap();
    assert_eq!(store.delete_push_subscriptions(ann, None).await.unwrap(), 2);
    store.put_push_subscription(bob, &phone).await.unwrap();
    assert!(
        store
            .forget_session(bob, "operator", "asked")
            .await
            .unwrap()
    );
    assert!(store.push_subscriptions(bob).await.unwrap().is_empty());
}

async fn a_server_key_is_made_once_for_every_caller(db: TestDb) {
    let store = db.open().await;
    let first = store.server_key("vapid", "first", 1).await.unwrap();
    assert_eq!(first, "first");
    // A second node (or a restart) offers its own and gets the first.
    let second = store.server_key("vapid", "second", 2).await.unwrap();
    assert_eq!(second, "first");
    assert_eq!(store.server_key("other", "x", 3).await.unwrap(), "x");
}
