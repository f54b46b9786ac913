//! Behaviour around a running game, end to end: reconnecting with the
//! token, a second connection replacing the first, spectators, and bad
//! input of every kind leaving the game exactly as it was.

use serde_json::{Value, json};
use splendor_e2e::{Dice, Table, TestClient, TestServer, open_table};
use splendor_protocol::{StateInfo, WireAction};

fn assert_error(reply: &Value, code: &str) {
    assert_eq!(reply["type"], "error", "expected {code}, got {reply}");
    assert_eq!(reply["code"], code, "{reply}");
}

/// Asks for the state again and checks it is `before`, and that the very
/// next frames are the answers (nothing else was sent in between).
async fn assert_unchanged(client: &mut TestClient, before: &StateInfo) {
    client.send(json!({"type": "sync", "id": "check"})).await;
    let room = client.recv().await;
    assert_eq!(
        (room["type"].as_str(), room["id"].as_str()),
        (Some("room"), Some("check")),
        "{room}"
    );
    let state: StateInfo = serde_json::from_value(client.recv_after_history().await).unwrap();
    assert_eq!(&state, before, "{}: the state changed", client.name);
}

/// Sends `frame`, expects exactly the error `code` as the next frame, and
/// checks the state did not change.
async fn refused(client: &mut TestClient, frame: String, code: &str, before: &StateInfo) -> Value {
    client.send_text(frame.clone()).await;
    let reply = client.recv().await;
    assert_error(&reply, code);
    assert_unchanged(client, before).await;
    reply
}

async fn started(names: &[&str], moves: usize) -> (TestServer, Table, Dice, u64, Vec<StateInfo>) {
    let server = TestServer::start().await;
    let mut table = open_table(&server, names).await;
    let mut dice = Dice(11);
    let (version, states, _) = table.play(0, moves, &mut dice).await;
    assert_eq!(version, moves as u64);
    (server, table, dice, version, states)
}

#[tokio::test]
async fn a_player_who_reconnects_with_the_token_gets_the_same_state_and_plays_on() {
    let (server, mut table, mut dice, version, states) = started(&["ann", "bob"], 5).await;
    let token = table.players[1].token.clone().unwrap();
    let bob = table.players.remove(1);
    bob.disconnect().await;
    let away = |m: &Value| m["type"] == "room" && m["seats"][1]["connected"] == false;
    table.players[0].recv_until(away).await;
    table.spectator.recv_until(away).await;

    let mut back = TestClient::connect(&server, "bob").await;
    let welcome = back.resume(&token).await;
    assert!(welcome.resumed);
    let room = back.recv().await;
    assert_eq!(room["type"], "room", "{room}");
    assert_eq!(room["you"], json!({"role": "player", "seat": 1}));
    assert_eq!(room["status"], "playing");
    // The current state at once, identical to the one bob had.
    let state: StateInfo = serde_json::from_value(back.recv_after_history().await).unwrap();
    assert_eq!(state, states[1]);
    let present = |m: &Value| m["type"] == "room" && m["seats"][1]["connected"] == true;
    table.players[0].recv_until(present).await;
    table.players.insert(1, back);
    table.play_to_the_end(version, &mut dice).await;
    for p in &mut table.players {
        p.recv_type("result").await;
    }
}

#[tokio::test]
async fn a_second_connection_with_the_token_replaces_the_first_mid_game() {
    let (server, mut table, mut dice, version, states) = started(&["ann", "bob", "carl"], 4).await;
    let token = table.players[2].token.clone().unwrap();
    let mut second = TestClient::connect(&server, "carl-2").await;
    second.resume(&token).await;
    let room = second.recv_type("room").await;
    assert_eq!(room["you"]["seat"], 2);
    let state: StateInfo = serde_json::from_value(second.recv_after_history().await).unwrap();
    assert_eq!(state, states[2]);
    let (code, _) = table.players[2].expect_close().await;
    assert_eq!(code, 4001);
    table.players[2] = second;
    table.play_to_the_end(version, &mut dice).await;
}

#[tokio::test]
async fn spectators_see_the_public_view_and_cannot_act() {
    let (server, mut table, _, version, states) = started(&["ann", "bob"], 6).await;
    let mut late = TestClient::join_server(&server, "late").await;
    let room = late
        .request(json!({"type": "join", "code": table.code, "as": "spectator"}))
        .await;
    assert_eq!(room["you"], json!({"role": "spectator"}));
    assert_eq!(room["spectators"].as_array().unwrap().len(), 2);
    let view: StateInfo = serde_json::from_value(late.recv_after_history().await).unwrap();
    assert_eq!(view.version, version);
    assert!(view.you.is_none() && view.legal_actions.is_none());
    // The same public view as the spectator who watched from the start.
    let (_, mut watched) = table.states_at(version).await;
    watched.id = None;
    assert_eq!(view, watched);
    // Players' hidden reserves show only their level.
    for (seat, p) in view.players.iter().enumerate() {
        for (i, r) in p.reserved.iter().enumerate() {
            let own = &states[seat].players[seat].reserved[i];
            assert_eq!(r.level, own.level);
            if r.from_deck {
                assert!(r.card.is_none(), "a blind reserve shown to a spectator");
            }
        }
    }
    let actor = states[0].to_act.unwrap() as usize;
    let legal = states[actor].legal_actions.as_ref().unwrap()[0].clone();
    let act = json!({"type": "act", "action": legal, "expect_version": version}).to_string();
    refused(&mut late, act, "spectator_cannot_act", &view).await;
    // A spectator cannot take a seat in a running game.
    let mut outsider = TestClient::join_server(&server, "outsider").await;
    let reply = outsider
        .request(json!({"type": "join", "code": table.code}))
        .await;
    assert_error(&reply, "game_already_started");
}

#[tokio::test]
async fn bad_input_during_a_game_gets_its_error_and_changes_nothing() {
    let (server, mut table, _, version, states) = started(&["ann", "bob"], 3).await;
    let actor = states[0].to_act.unwrap() as usize;
    let other = 1 - actor;
    let legal: WireAction = states[actor].legal_actions.as_ref().unwrap()[0].clone();
    let act = |action: Value, expect: Option<u64>| {
        let mut m = json!({"type": "act", "action": action});
        if let Some(v) = expect {
            m["expect_version"] = json!(v);
        }
        m.to_string()
    };
    let legal_json = serde_json::to_value(&legal).unwrap();
    let before = states[actor].clone();
    let a = &mut table.players[actor];
    refused(
        a,
        act(legal_json.clone(), Some(version + 3)),
        "stale_version",
        &before,
    )
    .await;
    refused(
        a,
        act(legal_json.clone(), Some(version - 1)),
        "stale_version",
        &before,
    )
    .await;
    // No action at all (issue 24: refused as the schema refuses them, when
    // the frame is read, whatever the phase): four colours, a level or a
    // card or a noble that does not exist.
    refused(
        a,
        act(json!({"take": ["white", "blue", "red", "green"]}), None),
        "invalid_action",
        &before,
    )
    .await;
    refused(
        a,
        act(json!({"reserve_deck": 7}), None),
        "invalid_action",
        &before,
    )
    .await;
    refused(a, act(json!({"buy": 200}), None), "invalid_action", &before).await;
    refused(
        a,
        act(json!({"noble": 10}), None),
        "invalid_action",
        &before,
    )
    .await;
    refused(a, act(json!({"take": []}), None), "invalid_colors", &before).await;
    refused(
        a,
        act(json!({"take": ["red", "red"]}), None),
        "invalid_action",
        &before,
    )
    .await;
    refused(a, act(json!({"fly": 1}), None), "invalid_action", &before).await;
    refused(a, "{\"type\":\"act\"".into(), "invalid_json", &before).await;
    refused(a, r#"{"type":"dance"}"#.into(), "unknown_type", &before).await;
    refused(a, r#"{"type":"act"}"#.into(), "missing_field", &before).await;
    refused(
        a,
        r#"{"type":"act","action":"pass","expect_version":"x"}"#.into(),
        "invalid_field",
        &before,
    )
    .await;
    let oversized = act(json!({"take": ["white"], "pad": "x".repeat(20_000)}), None);
    refused(a, oversized, "frame_too_large", &before).await;
    refused(
        a,
        r#"{"type":"join","code":"QQQQQ"}"#.into(),
        "already_in_room",
        &before,
    )
    .await;
    refused(
        a,
        r#"{"type":"start"}"#.into(),
        "game_already_started",
        &before,
    )
    .await;

    // Out of turn: the other player tries the actor's legal move.
    let other_before = states[other].clone();
    let actor_name = states[actor].players[actor].name.clone();
    let b = &mut table.players[other];
    let reply = refused(
        b,
        act(legal_json.clone(), None),
        "not_your_turn",
        &other_before,
    )
    .await;
    // Players by name, never by a seat number they never see (issue 11).
    assert_eq!(
        reply["message"],
        format!("it is {actor_name}'s turn, not yours")
    );
    refused(
        b,
        act(legal_json.clone(), Some(version)),
        "not_your_turn",
        &other_before,
    )
    .await;

    let mut outsider = TestClient::join_server(&server, "outsider").await;
    let reply = outsider
        .request(json!({"type": "join", "code": "QQQQQ"}))
        .await;
    assert_error(&reply, "room_not_found");

    // Nothing was broadcast: the next thing anyone hears is the real move.
    let reply = table.players[actor]
        .request(json!({"type": "act", "action": legal, "expect_version": version}))
        .await;
    assert_eq!(reply["type"], "events", "{reply}");
    for c in [&mut table.players[other], &mut table.spectator] {
        let next = c.recv().await;
        assert_eq!(
            (next["type"].as_str(), next["version"].as_u64()),
            (Some("events"), Some(version + 1)),
            "{next}"
        );
    }
}

/// The raw text of the last `state` frame `client` received.
fn last_state_frame(client: &TestClient) -> Value {
    client
        .frames
        .iter()
        .rev()
        .map(|f| serde_json::from_str::<Value>(f).unwrap())
        .find(|v| v["type"] == "state")
        .expect("a state frame")
}

/// Protocol 2: after an action every connection gets a lean state (cards
/// and nobles by id, no game id or commitment) that reads back into exactly
/// the full state `sync` gives, and is much smaller.
#[tokio::test]
async fn after_an_action_states_are_lean_and_read_back_into_the_full_state() {
    let (_server, mut table, _, version, _) = started(&["ann", "bob", "carl"], 7).await;
    for client in table.players.iter_mut().chain([&mut table.spectator]) {
        let lean = last_state_frame(client);
        assert_eq!(lean["version"], version);
        assert_eq!(lean["lean"], true, "{lean}");
        for left_out in ["game", "commitment", "first_seat"] {
            assert!(lean.get(left_out).is_none(), "{left_out}: {lean}");
        }
        assert!(lean["players"][0].get("name").is_none(), "{lean}");
        let face_up = &lean["levels"][0]["cards"][0];
        assert!(
            face_up.is_u64() || face_up.is_null(),
            "a card by id: {lean}"
        );
        assert!(lean["nobles"][0].is_u64(), "a noble by id: {lean}");
        client.send(json!({"type": "sync", "id": "full"})).await;
        client.recv_type("room").await;
        let full_frame = client.recv_after_history().await;
        assert_eq!(full_frame["type"], "state");
        assert!(full_frame.get("lean").is_none() && full_frame["game"].is_string());
        let full: StateInfo = serde_json::from_value(full_frame.clone()).unwrap();
        let read_back: StateInfo = serde_json::from_value(lean.clone()).unwrap();
        assert!(read_back.lean);
        let mut read_back = read_back.completed_from(&full);
        read_back.id = full.id.clone();
        assert_eq!(read_back, full, "{}", client.name);
        // Besides the legal actions (the same list in both), a lean state
        // is less than half the size of the full one.
        let without_legal = |mut v: Value| {
            v.as_object_mut().unwrap().remove("legal_actions");
            v.to_string().len()
        };
        let (lean_bytes, full_bytes) = (without_legal(lean), without_legal(full_frame));
        assert!(
            lean_bytes * 2 < full_bytes,
            "{}: lean {lean_bytes} bytes, full {full_bytes}",
            client.name
        );
    }
}

/// `"verbose": true` in `hello` keeps full states after every action;
/// `welcome` says which protocol and whether verbose.
#[tokio::test]
async fn a_verbose_connection_gets_full_states_after_actions() {
    let (server, mut table, mut dice, version, _) = started(&["ann", "bob"], 2).await;
    let mut watcher = TestClient::connect(&server, "watcher").await;
    let welcome = watcher
        .request(json!({"type": "hello", "name": "watcher", "verbose": true}))
        .await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    assert_eq!(
        (welcome["protocol"].as_u64(), welcome["verbose"].as_bool()),
        (Some(2), Some(true))
    );
    let plain = table.players[0]
        .frames
        .iter()
        .find(|f| f.contains("\"welcome\""))
        .unwrap();
    let plain: Value = serde_json::from_str(plain).unwrap();
    assert_eq!(plain["protocol"], 2);
    assert!(plain.get("verbose").is_none(), "{plain}");
    watcher
        .request(json!({"type": "join", "code": table.code, "as": "spectator"}))
        .await;
    watcher.state_at(version).await;
    let (next, _, _) = table.play(version, 1, &mut dice).await;
    watcher.state_at(next).await;
    let frame = last_state_frame(&watcher);
    assert!(frame.get("lean").is_none(), "{frame}");
    assert!(frame["game"].is_string() && frame["commitment"].is_string());
    assert!(
        frame["levels"][0]["cards"][0]["cost"].is_object(),
        "{frame}"
    );
    assert_eq!(last_state_frame(&table.spectator)["lean"], true);
}

/// `GET /api/catalogue`: every card and noble with its details, for
/// clients of lean states.
#[tokio::test]
async fn the_catalogue_gives_every_card_and_noble_by_id() {
    let server = TestServer::start().await;
    let (status, body) = server.http_get("/api/catalogue").await;
    assert_eq!(status, 200, "{body}");
    let catalogue: splendor_protocol::Catalogue = serde_json::from_str(&body).unwrap();
    assert_eq!((catalogue.cards.len(), catalogue.nobles.len()), (90, 10));
    for (i, card) in catalogue.cards.iter().enumerate() {
        assert_eq!(usize::from(card.id.0), i);
        assert_eq!(Some(card.id), splendor_rules::card(card.id).map(|c| c.id));
    }
    assert_eq!(catalogue, splendor_protocol::catalogue());
}
