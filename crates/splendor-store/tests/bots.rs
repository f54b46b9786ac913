//! Programs' names and the programs online (issue 24), on SQLite always and
//! on PostgreSQL when `SPLENDOR_TEST_DATABASE_URL` is set.

#[allow(dead_code)] // the shared helpers this file does not use
mod common;

use std::time::Duration;

use common::{TestDb, on_both_backends};
use splendor_store::{bot_name_key, player_id};

on_both_backends!(
    a_program_name_is_held_by_one_session_whatever_its_case,
    the_programs_online_are_listed_until_their_connection_ends,
    a_forgotten_program_frees_its_name_and_leaves_the_list,
    names_claimed_before_folding_are_keyed_again_at_open,
);

/// Issue 46: a name claimed under the old key (lower case only) is keyed
/// by its folded form when the store opens, so a look-alike cannot take
/// it; of two old names that now fold alike, the first claimed keeps it.
async fn names_claimed_before_folding_are_keyed_again_at_open(db: TestDb) {
    let store = db.open().await;
    let (gem, _) = store.create_session("Gem-Bot", 1).await.unwrap();
    let (twin, _) = store.create_session("gem bot", 2).await.unwrap();
    assert!(store.claim_bot_name(gem, "Gem-Bot", 10).await.unwrap());
    drop(store);
    // As an older server keyed them: "gem-bot" and "gem bot".
    let mut raw = db.raw().await;
    raw.execute(
        "UPDATE bot_names SET name_key = 'gem-bot'",
        "UPDATE bot_names SET name_key = 'gem-bot'",
    )
    .await;
    let twin_hex = twin.0.simple().to_string();
    raw.execute(
        &format!("INSERT INTO bot_names VALUES ('gem bot', X'{twin_hex}', 20)"),
        &format!("INSERT INTO bot_names VALUES ('gem bot', '{twin_hex}', 20)"),
    )
    .await;
    drop(raw);
    let store = db.open().await;
    assert_eq!(store.bot_name_holder("GEM-BOT").await.unwrap(), Some(gem));
    assert_eq!(
        store.bot_name_holder("G\u{0435}m bot").await.unwrap(),
        Some(gem)
    );
    assert!(!store.claim_bot_name(twin, "gem_bot", 30).await.unwrap());
}

async fn a_program_name_is_held_by_one_session_whatever_its_case(db: TestDb) {
    let store = db.open().await;
    let (gem, _) = store.create_session("Gem-Bot", 1).await.unwrap();
    let (other, _) = store.create_session("gem-bot", 2).await.unwrap();
    assert_eq!(bot_name_key("  Gem-Bot "), bot_name_key("gembot"));
    // Look-alikes are one name (issue 46).
    assert_eq!(bot_name_key("G\u{0435}m Bot"), bot_name_key("gem-bot"));
    assert_ne!(bot_name_key("Gem-Bot"), bot_name_key("Gem-Bot-2"));
    assert_eq!(store.bot_name_holder("gem-bot").await.unwrap(), None);
    assert!(store.claim_bot_name(gem, "Gem-Bot", 10).await.unwrap());
    // Again: still its own.
    assert!(store.claim_bot_name(gem, "Gem-Bot", 11).await.unwrap());
    assert_eq!(store.bot_name_holder("GEM-BOT").await.unwrap(), Some(gem));
    // Another session cannot have it, in any case, and nothing changes.
    assert!(!store.claim_bot_name(other, "gem-bot", 12).await.unwrap());
    assert!(!store.claim_bot_name(other, "GEM-bot", 12).await.unwrap());
    assert_eq!(store.bot_name_holder("gem-bot").await.unwrap(), Some(gem));
    // The other takes a name of its own; the first renames and frees its
    // old name, which the other can then have.
    assert!(store.claim_bot_name(other, "ruby", 13).await.unwrap());
    assert!(store.claim_bot_name(gem, "sapphire", 14).await.unwrap());
    assert_eq!(store.bot_name_holder("gem-bot").await.unwrap(), None);
    assert!(store.claim_bot_name(other, "gem-bot", 15).await.unwrap());
    assert_eq!(store.bot_name_holder("ruby").await.unwrap(), None);
    assert_eq!(store.bot_name_holder("sapphire").await.unwrap(), Some(gem));
}

async fn the_programs_online_are_listed_until_their_connection_ends(db: TestDb) {
    let store = db.open().await;
    let (a, _) = store.create_session("alpha", 1).await.unwrap();
    let (b, _) = store.create_session("beta", 1).await.unwrap();
    let (person, _) = store.create_session("carol", 1).await.unwrap();
    store.mark_bot(a).await.unwrap();
    store.mark_bot(b).await.unwrap();
    store.bot_online(a, (0, 7), 100).await.unwrap();
    store.bot_online(b, (0, 8), 200).await.unwrap();
    // Not a program: never listed, whatever a row says.
    store.bot_online(person, (0, 9), 50).await.unwrap();
    let list = store.bots_online(false, 50).await.unwrap();
    let names: Vec<&str> = list.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["alpha", "beta"], "longest online first");
    assert_eq!(list[0].player_id.as_deref(), Some(player_id(a).as_str()));
    assert_eq!((list[0].rating, list[0].rated_games), (None, 0));
    assert_eq!(list[0].since, 100);
    // A newer connection of alpha replaces the row; the older one ending
    // does not take it away; the newer one ending does.
    store.bot_online(a, (0, 17), 300).await.unwrap();
    store.bot_offline(a, 7).await.unwrap();
    let list = store.bots_online(false, 50).await.unwrap();
    assert_eq!(list.iter().map(|b| b.session).collect::<Vec<_>>(), [b, a]);
    store.bot_offline(a, 17).await.unwrap();
    assert_eq!(store.bots_online(false, 50).await.unwrap().len(), 1);
    // A limit.
    store.bot_online(a, (0, 18), 400).await.unwrap();
    assert_eq!(store.bots_online(false, 1).await.unwrap()[0].session, b);
    // In a cluster only the rows of live nodes count; a node that starts
    // clears its own. Connection ids keep their top bits (the node).
    store.bot_online(b, (3, u64::MAX - 5), 500).await.unwrap();
    assert_eq!(store.bots_online(true, 50).await.unwrap().len(), 0);
    store
        .claim_node(3, "instance-3", Duration::from_secs(60))
        .await
        .unwrap()
        .unwrap();
    let live = store.bots_online(true, 50).await.unwrap();
    assert_eq!((live.len(), live[0].node), (1, 3));
    store.bot_offline(b, u64::MAX - 5).await.unwrap();
    assert_eq!(store.bots_online(true, 50).await.unwrap().len(), 0);
    assert_eq!(store.clear_bots_online(0).await.unwrap(), 2);
    assert!(store.bots_online(false, 50).await.unwrap().is_empty());
}

async fn a_forgotten_program_frees_its_name_and_leaves_the_list(db: TestDb) {
    let store = db.open().await;
    let (a, _) = store.create_session("alpha", 1).await.unwrap();
    store.mark_bot(a).await.unwrap();
    assert!(store.claim_bot_name(a, "alpha", 1).await.unwrap());
    store.bot_online(a, (0, 1), 1).await.unwrap();
    assert!(store.forget_session(a, "operator", "asked").await.unwrap());
    assert_eq!(store.bot_name_holder("alpha").await.unwrap(), None);
    assert!(store.bots_online(false, 50).await.unwrap().is_empty());
}
