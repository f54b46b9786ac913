//! The tutorial (issue 50) against the real server: a tutorial room seats
//! its tutor at once; started, it plays the prepared deal's first moves
//! for both seats, then waits for the learner at each lesson and answers
//! with the tutor's scripted moves, until the last lesson brings the
//! learner a noble (R9); a learner who plays something else is free to,
//! and the tutor then plays by its level. `GET /tutorial.json` is the
//! script the page reads. A tutorial asked with other options is refused.

use serde_json::{Value, json};
use splendor_e2e::{TestClient, TestServer};
use splendor_protocol::{PhaseName, StateInfo, WireAction};

/// The script as the page reads it.
async fn script(server: &TestServer) -> Value {
    let (status, body) = server.http_get("/tutorial.json").await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// A learner in a tutorial room, started: the room, and the state at the
/// first lesson (the prepared moves played).
async fn started(server: &TestServer, prefix: u64) -> (TestClient, Value, StateInfo) {
    let mut ann = TestClient::join_server(server, "ann").await;
    let room = ann
        .request(json!({"type": "create", "seats": 2, "tutorial": true}))
        .await;
    assert_eq!(room["type"], "room", "{room}");
    assert_eq!(room["tutorial"], true, "{room}");
    assert!(
        room["seats"][1]["bot"].is_string(),
        "the tutor sits at once: {room}"
    );
    ann.request(json!({"type": "start", "seat_order": "random"}))
        .await;
    let state = ann.state_at(prefix).await;
    (ann, room, state)
}

fn action(line: &Value) -> WireAction {
    serde_json::from_value(line["action"].clone()).unwrap()
}

#[tokio::test]
async fn a_tutorial_plays_its_deal_then_each_lesson_and_the_last_brings_a_noble() {
    let server = TestServer::start().await;
    let doc = script(&server).await;
    let prefix = doc["prefix"].as_array().unwrap().len() as u64;
    let lessons = doc["lessons"].as_array().unwrap().clone();
    assert!(prefix > 0);
    let (mut ann, _, state) = started(&server, prefix).await;
    // The learner plays first (seat 0, whatever the order asked), and
    // the room played the prepared moves: the learner is to play.
    assert_eq!(state.you, Some(0));
    assert_eq!(
        state.to_act,
        Some(0),
        "the first lesson waits for the learner"
    );
    assert!(state.players[0].nobles.is_empty());
    let mut version = prefix;
    let mut current = Some(state);
    for line in &lessons {
        if line["seat"] == 1 {
            // The tutor's scripted answer, played by the room: the next
            // lesson's state comes after it.
            version += 1;
            continue;
        }
        let state = match current.take() {
            Some(state) if state.version == version => state,
            _ => ann.state_at(version).await,
        };
        let wanted = action(line);
        let legal = state.legal_actions.clone().unwrap();
        assert!(
            legal.contains(&wanted),
            "lesson {}: {wanted:?} not in {legal:?}",
            line["lesson"]
        );
        let answer = ann
            .request(json!({"type": "act", "action": line["action"], "expect_version": version}))
            .await;
        assert_ne!(
            answer["type"], "error",
            "lesson {}: {answer}",
            line["lesson"]
        );
        version += 1;
    }
    let end = ann.state_at(version).await;
    // Every move of the script was played, the tutor's as scripted.
    let played = ann
        .frames
        .iter()
        .filter(|f| f.contains("\"type\":\"events\""))
        .count();
    assert!(
        played as u64 >= version,
        "{played} events for {version} moves"
    );
    assert_eq!(
        end.players[0].nobles.len(),
        1,
        "the last lesson brought a noble (R9)"
    );
    assert_ne!(end.phase, PhaseName::GameOver);
    // After the script the tutor plays on by its level.
    let after = ann.state_at(version + 1).await;
    assert_eq!(after.to_act, Some(0));
}

#[tokio::test]
async fn a_learner_off_the_script_plays_on_against_the_tutors_level() {
    let server = TestServer::start().await;
    let doc = script(&server).await;
    let prefix = doc["prefix"].as_array().unwrap().len() as u64;
    let first = action(&doc["lessons"][0]);
    let (mut ann, _, state) = started(&server, prefix).await;
    // Another move than the first lesson's: accepted, as any legal move.
    let other = state
        .legal_actions
        .unwrap()
        .into_iter()
        .find(|a| *a != first && matches!(a, WireAction::Take(_)))
        .unwrap();
    let answer = ann
        .request(json!({"type": "act", "action": other, "expect_version": prefix}))
        .await;
    assert_ne!(answer["type"], "error", "{answer}");
    // The tutor answers by its level (the bots' delay of a test server)
    // and the game waits for the learner again.
    let after = ann.state_at(prefix + 2).await;
    assert_eq!(after.to_act, Some(0), "{:?}", after.phase);
}

#[tokio::test]
async fn a_tutorial_with_other_options_is_refused_and_no_room_is_made() {
    let server = TestServer::start().await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    for create in [
        json!({"type": "create", "seats": 3, "tutorial": true}),
        json!({"type": "create", "tutorial": true}),
        json!({"type": "create", "seats": 2, "tutorial": true, "rated": true}),
        json!({"type": "create", "seats": 2, "tutorial": true, "listed": true}),
        json!({"type": "create", "seats": 2, "tutorial": true, "clock": {"initial_s": 300, "increment_s": 5}}),
        json!({"type": "create", "seats": 2, "tutorial": true, "as": "spectator"}),
    ] {
        let refused = ann.request(create.clone()).await;
        assert_eq!(refused["type"], "error", "{create}: {refused}");
        assert_eq!(refused["code"], "invalid_field", "{refused}");
        assert!(
            refused["message"].as_str().unwrap().contains("tutorial"),
            "{refused}"
        );
    }
    let rooms = ann.request(json!({"type": "list_rooms"})).await;
    assert_eq!(rooms["rooms"], json!([]), "{rooms}");
    // An ordinary room says nothing of tutorials.
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    assert!(room.get("tutorial").is_none(), "{room}");
}

#[tokio::test]
async fn a_tutorial_room_whose_tutor_made_way_for_a_person_plays_an_ordinary_game() {
    let server = TestServer::start().await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    let room = ann
        .request(json!({"type": "create", "seats": 2, "tutorial": true}))
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    let full = bob.request(json!({"type": "join", "code": code})).await;
    assert_eq!(
        full["code"], "room_full",
        "the tutor holds the seat: {full}"
    );
    ann.request(json!({"type": "remove_bot", "seat": 1})).await;
    bob.request(json!({"type": "join", "code": code})).await;
    let started = ann
        .request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    assert_ne!(started["type"], "error", "{started}");
    // The room as it is told after the start: no longer a tutorial.
    let playing = bob
        .recv_until(|m| m["type"] == "room" && m["status"] == "playing")
        .await;
    assert!(playing.get("tutorial").is_none(), "{playing}");
    // Nobody plays for Ann: version 0 is hers to play.
    let take = ann
        .request(json!({"type": "act", "action": {"take": ["white", "blue", "green"]}, "expect_version": 0}))
        .await;
    assert_ne!(take["type"], "error", "{take}");
}
