//! How games end (issue 47), against the real server over real sockets:
//! R11.6, a game in which nobody buys or reserves ends after 25 rounds
//! (the kit of a bot whose every move is refused plays the first legal
//! action forever); R12.6, a rated game with a short clock that nobody in
//! play is connected to ends deserted and unrated. Both say how they ended
//! in `result`, in `GET /api/games/{id}` and in their replay, which
//! verifies. (The rulings themselves are tested per rule in the rules
//! crate and the room's scripts; the ladder's slots in tests/ladder.rs.)

use std::time::Duration;

use serde_json::{Value, json};
use splendor_e2e::{TestClient, TestDatabase, TestServer, open_table};
use splendor_protocol::WireAction;
use splendor_replay::{Replay, verify};
use splendor_server::Config;

fn config(db: &TestDatabase) -> Config {
    Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        bot_delay_ms: 0,
        database_url: Some(db.url.parse().expect("a database URL")),
        deserted_after: Some(Duration::from_millis(300)),
        ..Config::default()
    }
}

/// The game's summary and its replay, verified.
async fn stored(server: &TestServer, game: &str) -> (Value, Replay) {
    let (status, body) = server.http_get(&format!("/api/games/{game}")).await;
    assert_eq!(status, 200, "{body}");
    let summary: Value = serde_json::from_str(&body).unwrap();
    let (status, body) = server.http_get(&format!("/api/games/{game}/replay")).await;
    assert_eq!(status, 200, "{body}");
    let replay = Replay::from_json(&body).expect("a replay");
    verify(&replay).unwrap_or_else(|e| panic!("the replay does not verify: {e}"));
    (summary, replay)
}

/// R11.6: each seat reserves once (its gold keeps gems in the supply),
/// then only takes tokens and gives gems back, as a kit playing the first
/// legal take would. The game ends at the end of the 25th round without a
/// card bought or reserved: round 1 had the reserves, so after 26 rounds.
#[tokio::test]
async fn r11_6_a_game_without_progress_ends_after_25_rounds() {
    let db = TestDatabase::sqlite();
    let server = TestServer::start_with(config(&db)).await;
    let mut table = open_table(&server, &["ann", "bob"]).await;
    let mut version = 0;
    let mut turns = 0;
    loop {
        let (states, _) = table.states_at(version).await;
        let Some(to_act) = states[0].to_act else {
            break;
        };
        let actor = states
            .iter()
            .position(|s| s.you == Some(to_act))
            .expect("the seat to act is a player's");
        let state = &states[actor];
        let legal = state.legal_actions.clone().expect("legal actions");
        let mine = &state.players[usize::from(to_act)];
        let pick = |f: &dyn Fn(&WireAction) -> bool| legal.iter().find(|a| f(a)).cloned();
        let action = if mine.reserved.is_empty() {
            pick(&|a| matches!(a, WireAction::ReserveDeck(_)))
        } else {
            pick(&|a| matches!(a, WireAction::Take(_) | WireAction::TakeTwo(_)))
                .or_else(|| pick(&|a| matches!(a, WireAction::Return(t) if t.gold == 0)))
        }
        .unwrap_or_else(|| legal[0].clone());
        if !matches!(action, WireAction::Return(_)) {
            turns += 1;
        }
        let reply = table.players[actor]
            .request(json!({"type": "act", "action": action, "expect_version": version}))
            .await;
        assert_eq!(reply["type"], "events", "{reply}");
        version += 1;
        assert!(turns <= 60, "the game did not end");
    }
    assert_eq!(turns, 52, "26 rounds of two turns");
    let mut game = String::new();
    for player in &mut table.players {
        let result = player.recv_type("result").await;
        assert_eq!(result["end"], "no_progress", "{result}");
        assert_eq!(result["deadlock"], false, "{result}");
        game = result["game"].as_str().unwrap().to_owned();
    }
    let (summary, replay) = stored(&server, &game).await;
    assert_eq!(summary["end"], "no_progress", "{summary}");
    assert_eq!(replay.result.end(), splendor_rules::End::NoProgress);
}

/// R12.6: a rated room with a 5-minute clock; both players go after a few
/// moves. Once nobody in play has been connected for the deserted time
/// the game ends: the spectator gets the result (`"end":"deserted"`, ranked
/// where it stood) and the room closes; nothing is rated; the replay
/// verifies and says so.
#[tokio::test]
async fn r12_6_a_rated_game_nobody_in_play_is_connected_to_ends_deserted_and_unrated() {
    let db = TestDatabase::sqlite();
    let server = TestServer::start_with(config(&db)).await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    let room = ann
        .request(json!({
            "type": "create", "seats": 2, "rated": true,
            "clock": {"initial_s": 300, "increment_s": 5}
        }))
        .await;
    assert_eq!(room["rated"], true, "{room}");
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    let mut dan = TestClient::join_server(&server, "dan").await;
    dan.request(json!({"type": "join", "code": code, "as": "spectator"}))
        .await;
    let started = ann
        .request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    assert_eq!(started["status"], "playing", "{started}");
    // One move of Ann's, then both go.
    let state = ann.state().await;
    let legal = state.legal_actions.expect("Ann acts first");
    let take = legal
        .iter()
        .find(|a| matches!(a, WireAction::Take(_)))
        .expect("a take");
    let reply = ann
        .request(json!({"type": "act", "action": take, "expect_version": 0}))
        .await;
    assert_eq!(reply["type"], "events", "{reply}");
    ann.disconnect().await;
    bob.disconnect().await;

    let result = dan.recv_type("result").await;
    assert_eq!(result["end"], "deserted", "{result}");
    // Ranked where it stood (R10.3, R10.4): nobody bought, both share.
    assert_eq!(result["winners"], json!([0, 1]), "{result}");
    let closed = dan.recv_type("room_closed").await;
    assert!(
        closed["reason"]
            .as_str()
            .unwrap_or_default()
            .contains("R12.6"),
        "{closed}"
    );
    let game = result["game"].as_str().unwrap().to_owned();
    let (summary, replay) = stored(&server, &game).await;
    assert_eq!(summary["end"], "deserted", "{summary}");
    assert_eq!(replay.result.end(), splendor_rules::End::Deserted);
    // Created rated, ended unrated (issue 51: the list says which).
    assert_eq!(summary["rated"], false, "{summary}");
    assert_eq!(replay.actions.len(), 1);
    // Unrated: nobody has a rating.
    let (_, board) = server.http_get("/api/leaderboard?kind=humans").await;
    let board: Value = serde_json::from_str(&board).unwrap();
    assert_eq!(board["total"], 0, "{board}");
}
