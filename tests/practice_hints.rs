//! Practice hints through the real server (issue 26): a person playing
//! built-in bots asks for a hint at every turn and plays it; each hint is
//! one of that state's legal actions, goes to the asker alone, and every
//! move made after one is marked `by: "hint"` in the events, in the replay
//! and in the analysis (which leaves those moves out of the player's
//! accuracy). A table with another person gets `hint_not_allowed`.

use serde_json::{Value, json};
use splendor_e2e::{TestClient, TestServer, open_table};
use splendor_protocol::StateInfo;
use splendor_server::Config;

fn config() -> Config {
    Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        max_api_requests_per_ip_per_minute: 0,
        bot_delay_ms: 0,
        bot_max_iterations: Some(200),
        ..Config::default()
    }
}

#[tokio::test]
async fn a_player_against_bots_plays_every_hint_and_the_replay_says_so() {
    let server = TestServer::start_with(config()).await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    ann.request(json!({"type": "create", "seats": 2})).await;
    ann.request(json!({"type": "add_bot", "level": "greedy"}))
        .await;
    let mut cy = TestClient::join_server(&server, "cy").await;
    let code = ann.request(json!({"type": "sync"})).await["code"]
        .as_str()
        .unwrap()
        .to_owned();
    cy.request(json!({"type": "join", "code": code, "as": "spectator"}))
        .await;
    let started = ann.request(json!({"type": "start"})).await;
    assert_eq!(started["status"], "playing", "{started}");
    let mut hinted = 0;
    let game;
    loop {
        let message = ann.recv().await;
        match message["type"].as_str() {
            Some("result") => {
                game = message["game"].as_str().unwrap().to_owned();
                break;
            }
            Some("state") => {
                let state: StateInfo = ann.full(serde_json::from_value(message).unwrap());
                if state.to_act.is_none() || state.to_act != state.you {
                    continue;
                }
                let hint = ann.request(json!({"type": "hint"})).await;
                assert_eq!(hint["type"], "hint", "{hint}");
                assert_eq!(hint["version"], state.version);
                let legal = state.legal_actions.clone().unwrap();
                let action: splendor_protocol::WireAction =
                    serde_json::from_value(hint["action"].clone()).unwrap();
                assert!(legal.contains(&action), "{hint} not in {legal:?}");
                let events = ann
                    .request(
                        json!({"type": "act", "action": action, "expect_version": state.version}),
                    )
                    .await;
                assert_eq!(events["type"], "events", "{events}");
                assert_eq!(events["by"], "hint", "{events}");
                hinted += 1;
            }
            _ => {}
        }
    }
    assert!(hinted > 5, "{hinted} hints");
    // The spectator saw the moves marked, and no hint.
    cy.recv_until(|m| m["type"] == "result").await;
    let seen = cy.disconnect().await;
    assert!(seen.iter().all(|f| !f.contains(r#""type":"hint""#)));
    assert!(seen.iter().any(|f| f.contains(r#""by":"hint""#)));

    // The replay marks each of them; the analysis leaves them out of
    // ann's accuracy.
    let (status, body) = server.http_get(&format!("/api/games/{game}/replay")).await;
    assert_eq!(status, 200, "{body}");
    let replay: Value = serde_json::from_str(&body).unwrap();
    let marked = replay["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["by"] == "hint")
        .count();
    assert_eq!(marked, hinted);
    let replay = splendor_replay::Replay::from_json(&body).unwrap();
    splendor_replay::verify(&replay).unwrap();
    let analysis = splendor_analysis::Plan::new(&replay)
        .unwrap()
        .analyse(&splendor_analysis::Settings { iterations: 20 });
    let ann_seat = replay.seats.iter().find(|s| s.name == "ann").unwrap().seat;
    assert_eq!(analysis.figures[usize::from(ann_seat)].moves, 0);
}

#[tokio::test]
async fn no_hint_at_a_table_with_another_person() {
    let server = TestServer::start_with(config()).await;
    let mut table = open_table(&server, &["ann", "bob"]).await;
    let (states, _) = table.states_at(0).await;
    let actor = states[0].to_act.unwrap() as usize;
    let refused = table.players[actor].request(json!({"type": "hint"})).await;
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["code"], "hint_not_allowed", "{refused}");
    assert!(
        refused["message"].as_str().unwrap().contains("practice"),
        "{refused}"
    );
}
