//! Identity on every device (issue 23): a session's tokens, one-time
//! links, passwords, tries at them, passkeys and ceremonies. On SQLite
//! always and on PostgreSQL when `SPLENDOR_TEST_DATABASE_URL` is set.

#[allow(dead_code)] // the shared helpers this file does not use
mod common;

use common::{TestDb, on_both_backends};
use splendor_store::{LOGIN_WINDOW_MS, device_id_of_token};

on_both_backends!(
    a_link_mints_a_token_once_before_it_expires,
    tokens_are_listed_and_each_can_be_revoked,
    a_password_login_is_unique_and_tries_are_counted,
    passkeys_and_ceremonies_are_kept_and_taken_once,
    forgetting_a_player_takes_every_way_in,
    signing_a_device_out_takes_the_credentials_it_added,
);

async fn a_link_mints_a_token_once_before_it_expires(db: TestDb) {
    let store = db.open().await;
    let (ann, first) = store.create_session("ann", 1).await.unwrap();
    let code = store.make_device_link(ann, 10, 610, 5).await.unwrap();
    let (session, phone) = store
        .claim_device_link(&code, "phone", 20)
        .await
        .unwrap()
        .expect("a fresh link works");
    assert_eq!(session.id, ann);
    assert_eq!(session.name, "ann");
    assert_ne!(phone.as_str(), first.as_str());
    // Both tokens open the session.
    for token in [first.as_str(), phone.as_str()] {
        let found = store.session_by_token(token).await.unwrap().unwrap();
        assert_eq!(found.id, ann);
    }
    // Used once: a second use finds nothing.
    assert!(
        store
            .claim_device_link(&code, "x", 21)
            .await
            .unwrap()
            .is_none()
    );
    // Expired: nothing, and no token is made.
    let late = store.make_device_link(ann, 30, 630, 5).await.unwrap();
    assert!(
        store
            .claim_device_link(&late, "x", 630)
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(store.devices(ann).await.unwrap().len(), 2);
    // Not a code at all.
    assert!(
        store
            .claim_device_link("nope", "x", 40)
            .await
            .unwrap()
            .is_none()
    );
    // At most `max_open` links wait: the oldest goes.
    let links: Vec<String> = futures_like(&store, ann).await;
    assert!(
        store
            .claim_device_link(&links[0], "x", 50)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store
            .claim_device_link(&links[2], "x", 50)
            .await
            .unwrap()
            .is_some()
    );
}

async fn futures_like(
    store: &splendor_store::Store,
    ann: splendor_store::SessionId,
) -> Vec<String> {
    let mut links = Vec::new();
    for i in 0..3 {
        links.push(
            store
                .make_device_link(ann, 40 + i, 640 + i, 2)
                .await
                .unwrap(),
        );
    }
    links
}

async fn tokens_are_listed_and_each_can_be_revoked(db: TestDb) {
    let store = db.open().await;
    let (ann, first) = store.create_session("ann", 1).await.unwrap();
    let phone = store.add_device(ann, "phone", 5).await.unwrap();
    let laptop = store.add_device(ann, "laptop", 6).await.unwrap();
    let listed = store.devices(ann).await.unwrap();
    let labels: Vec<_> = listed.iter().map(|d| (d.label.as_str(), d.first)).collect();
    assert_eq!(labels, [("", true), ("phone", false), ("laptop", false)]);
    assert_eq!(listed[1].id, device_id_of_token(phone.as_str()));
    assert_eq!(listed[0].id, device_id_of_token(first.as_str()));
    // Revoking one token closes that door only.
    assert!(store.revoke_device(ann, &listed[1].id).await.unwrap());
    assert!(!store.revoke_device(ann, &listed[1].id).await.unwrap());
    assert!(
        store
            .session_by_token(phone.as_str())
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store
            .session_by_token(laptop.as_str())
            .await
            .unwrap()
            .is_some()
    );
    // Another session cannot revoke ann's tokens.
    let (bob, _) = store.create_session("bob", 1).await.unwrap();
    assert!(!store.revoke_device(bob, &listed[2].id).await.unwrap());
    // The first token too.
    assert!(store.revoke_device(ann, &listed[0].id).await.unwrap());
    assert!(
        store
            .session_by_token(first.as_str())
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store
            .session_by_token(laptop.as_str())
            .await
            .unwrap()
            .is_some()
    );
    let left = store.devices(ann).await.unwrap();
    assert_eq!(
        left.len(),
        2,
        "the first stays listed under a hash nobody holds"
    );
    assert_ne!(left[0].id, listed[0].id);
}

async fn a_password_login_is_unique_and_tries_are_counted(db: TestDb) {
    let store = db.open().await;
    let (ann, _) = store.create_session("ann", 1).await.unwrap();
    let (bob, _) = store.create_session("bob", 1).await.unwrap();
    assert!(
        store
            .set_password(ann, "Ann", ("$argon2id$a", "dev"), 1)
            .await
            .unwrap()
    );
    // Logins compare without case: bob cannot take "ANN".
    assert!(
        !store
            .set_password(bob, "ANN", ("$argon2id$b", "dev"), 2)
            .await
            .unwrap()
    );
    assert!(store.password_of(bob).await.unwrap().is_none());
    // Ann changes hers (and may keep her login).
    assert!(
        store
            .set_password(ann, "Ann", ("$argon2id$c", "dev"), 3)
            .await
            .unwrap()
    );
    let found = store.password_by_login("aNN").await.unwrap().unwrap();
    assert_eq!(
        (found.session, found.login.as_str(), found.hash.as_str()),
        (ann, "Ann", "$argon2id$c")
    );
    assert!(store.remove_password(ann).await.unwrap());
    assert!(store.password_by_login("ann").await.unwrap().is_none());
    assert!(
        store
            .set_password(bob, "ANN", ("$argon2id$b", "dev"), 4)
            .await
            .unwrap()
    );
    // Tries: counted per key in one-minute windows.
    let t0 = 1_000_000;
    for n in 1..=6 {
        assert_eq!(
            store
                .count_login_try("address:1.2.3.4", t0 + n)
                .await
                .unwrap(),
            n as u32
        );
    }
    assert_eq!(
        store.count_login_try("address:5.6.7.8", t0).await.unwrap(),
        1
    );
    let next = t0 + LOGIN_WINDOW_MS + 1;
    assert_eq!(
        store
            .count_login_try("address:1.2.3.4", next)
            .await
            .unwrap(),
        1
    );
}

async fn passkeys_and_ceremonies_are_kept_and_taken_once(db: TestDb) {
    let store = db.open().await;
    let (ann, _) = store.create_session("ann", 1).await.unwrap();
    store
        .add_passkey(ann, (b"cred-1", "{\"k\":1}"), "dev", (5, 10))
        .await
        .unwrap();
    store
        .add_passkey(ann, (b"cred-2", "{\"k\":2}"), "dev", (6, 10))
        .await
        .unwrap();
    let keys = store.passkeys_of(ann).await.unwrap();
    assert_eq!(keys.len(), 2);
    assert_eq!(keys[0].0, b"cred-1");
    store.update_passkey(b"cred-1", "{\"k\":3}").await.unwrap();
    assert_eq!(
        store.passkey_by_credential(b"cred-1").await.unwrap(),
        Some((ann, "{\"k\":3}".to_owned()))
    );
    assert!(store.remove_passkey(ann, b"cred-2").await.unwrap());
    assert!(!store.remove_passkey(ann, b"cred-2").await.unwrap());
    store
        .put_ceremony(b"c1", Some(ann), "state", (10, 100))
        .await
        .unwrap();
    store
        .put_ceremony(b"c2", None, "login", (10, 100))
        .await
        .unwrap();
    assert_eq!(
        store.take_ceremony(b"c1", 50).await.unwrap(),
        Some((Some(ann), "state".to_owned()))
    );
    assert_eq!(store.take_ceremony(b"c1", 50).await.unwrap(), None, "once");
    assert_eq!(
        store.take_ceremony(b"c2", 100).await.unwrap(),
        None,
        "expired"
    );
}

async fn forgetting_a_player_takes_every_way_in(db: TestDb) {
    let store = db.open().await;
    let (ann, _) = store.create_session("ann", 1).await.unwrap();
    let phone = store.add_device(ann, "phone", 2).await.unwrap();
    let code = store.make_device_link(ann, 3, 1_000, 5).await.unwrap();
    assert!(
        store
            .set_password(ann, "ann", ("$argon2id$a", "dev"), 4)
            .await
            .unwrap()
    );
    store
        .add_passkey(ann, (b"cred", "{}"), "dev", (5, 10))
        .await
        .unwrap();
    assert!(
        store
            .forget_session(ann, "operator", "asked")
            .await
            .unwrap()
    );
    assert!(
        store
            .session_by_token(phone.as_str())
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store
            .claim_device_link(&code, "x", 6)
            .await
            .unwrap()
            .is_none()
    );
    assert!(store.password_by_login("ann").await.unwrap().is_none());
    assert!(
        store
            .passkey_by_credential(b"cred")
            .await
            .unwrap()
            .is_none()
    );
}

async fn signing_a_device_out_takes_the_credentials_it_added(db: TestDb) {
    let store = db.open().await;
    let (ann, _) = store.create_session("ann", 1).await.unwrap();
    let stolen = store.add_device(ann, "thief", 2).await.unwrap();
    let thief = device_id_of_token(stolen.as_str());
    // The thief adds a password and a passkey with the stolen token; the
    // owner adds a passkey from her own device.
    assert!(
        store
            .set_password(ann, "x", ("$argon2id$t", &thief), 3)
            .await
            .unwrap()
    );
    assert!(
        store
            .add_passkey(ann, (b"thief", "{}"), &thief, (4, 10))
            .await
            .unwrap()
    );
    assert!(
        store
            .add_passkey(ann, (b"owner", "{}"), "owner-device", (5, 10))
            .await
            .unwrap()
    );
    // At most `max` passkeys, counted by the insert itself.
    assert!(
        !store
            .add_passkey(ann, (b"third", "{}"), "owner-device", (6, 2))
            .await
            .unwrap()
    );
    // The owner signs the thief's device out: its password and passkey go.
    assert!(store.revoke_device(ann, &thief).await.unwrap());
    assert!(store.password_of(ann).await.unwrap().is_none());
    let left: Vec<Vec<u8>> = store
        .passkeys_of(ann)
        .await
        .unwrap()
        .into_iter()
        .map(|k| k.0)
        .collect();
    assert_eq!(left, [b"owner".to_vec()]);
}
