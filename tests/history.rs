//! A client that joins, resumes or spectates mid-game receives every
//! earlier action's events (`history`), redacted for it exactly as the live
//! `events` were (R6.4: another seat's blind reserve stays a level).

use serde_json::{Value, json};
use splendor_e2e::{Dice, TestClient, TestServer, events_by_id, open_table};

/// The `events` of every `events` frame `frames` holds, by version.
fn live_events(frames: &[String]) -> Vec<(u64, Value)> {
    frames
        .iter()
        .map(|f| serde_json::from_str::<Value>(f).unwrap())
        .filter(|m| m["type"] == "events")
        .map(|m| {
            (
                m["version"].as_u64().unwrap(),
                events_by_id(m["events"].clone()),
            )
        })
        .collect()
}

fn history_events(history: &Value) -> Vec<(u64, Value)> {
    history["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["version"].as_u64().unwrap(),
                events_by_id(a["events"].clone()),
            )
        })
        .collect()
}

#[tokio::test]
async fn joiners_and_resumers_get_the_history_as_they_may_see_it() {
    let server = TestServer::start().await;
    let mut table = open_table(&server, &["ann", "bob"]).await;
    // Blind reserves happen now and then (the dice favour them a little).
    let (version, _, _) = table.play(0, 24, &mut Dice(17)).await;
    assert_eq!(version, 24);
    let ann_live = live_events(&table.players[0].frames);
    let spectator_live = live_events(&table.spectator.frames);
    assert_eq!(ann_live.len(), 24);

    // ann comes back on a new connection: her history is what she saw.
    let token = table.players[0].token.clone().unwrap();
    let mut again = TestClient::connect(&server, "ann").await;
    again.resume(&token).await;
    let history = again.recv_type("history").await;
    assert_eq!(history["version"], 24, "{history}");
    assert_eq!(history_events(&history), ann_live);
    let state = again.state().await;
    assert_eq!(state.version, 24);

    // A new spectator sees what the first one saw, and no more.
    let mut cy = TestClient::join_server(&server, "cy").await;
    cy.send_with_id(json!({"type": "join", "code": table.code, "as": "spectator"}))
        .await;
    let history = cy.recv_type("history").await;
    assert_eq!(history_events(&history), spectator_live);
    // The spectator's history differs from ann's exactly where ann's own
    // blind reserves are (or the two are equal when there were none).
    let hidden = spectator_live
        .iter()
        .zip(&ann_live)
        .filter(|(s, a)| s != a)
        .count();
    let blind = ann_live
        .iter()
        .flat_map(|(_, events)| events.as_array().unwrap())
        .filter(|e| e["event"] == "reserved" && e["from_deck"] == true && e["seat"] == 0)
        .count();
    assert!(
        hidden <= blind,
        "{hidden} differences for {blind} blind reserves of ann"
    );
}
