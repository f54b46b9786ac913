//! The table around the game (issue 11) against the real server: chat
//! between players and spectators with the host's mute, and a rematch that
//! every client follows into a new, started game.

use serde_json::{Value, json};
use splendor_e2e::{Dice, TestClient, TestServer, open_table};

fn seat_of(room: &Value, name: &str) -> u64 {
    room["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .and_then(|s| s["seat"].as_u64())
        .unwrap_or_else(|| panic!("{name} is not seated: {room}"))
}

#[tokio::test]
async fn chat_reaches_players_and_spectators_and_the_host_can_mute_a_seat() {
    let server = TestServer::start().await;
    let mut table = open_table(&server, &["ann", "bob"]).await;
    let ann = table.players.iter().position(|p| p.name == "ann").unwrap();
    let bob = 1 - ann;

    let reply = table.players[bob]
        .request(json!({"type": "chat", "text": "  good luck <b>all</b>  "}))
        .await;
    assert_eq!(reply["type"], "chat", "{reply}");
    // Relayed as sent (trimmed), never as markup: the page writes it as text.
    assert_eq!(reply["text"], "good luck <b>all</b>");
    assert_eq!(reply["from"], "bob");
    assert_eq!(reply["seat"], bob as u64);
    let heard = table.players[ann].recv_type("chat").await;
    assert_eq!(heard["text"], "good luck <b>all</b>");
    assert!(
        heard.get("id").is_none(),
        "only the sender's copy answers: {heard}"
    );
    let watched = table.spectator.recv_type("chat").await;
    assert_eq!(watched["from"], "bob");

    // A spectator talks too, without a seat.
    let reply = table
        .spectator
        .request(json!({"type": "chat", "text": "nice move"}))
        .await;
    assert_eq!(reply["from"], "spectator");
    assert!(reply.get("seat").is_none(), "{reply}");
    table.players[ann].recv_type("chat").await;

    // Bad chat: a specific error each, nothing relayed.
    for (text, code) in [
        ("", "invalid_chat"),
        ("two\nlines", "invalid_chat"),
        (&"x".repeat(201)[..], "invalid_chat"),
    ] {
        let reply = table.players[bob]
            .request(json!({"type": "chat", "text": text}))
            .await;
        assert_eq!(reply["code"], code, "{reply}");
    }
    let reply = table.players[bob]
        .request(json!({"type": "mute", "seat": ann, "muted": true}))
        .await;
    assert_eq!(reply["code"], "not_host", "{reply}");

    // The host mutes bob's seat: everyone sees it, bob can no longer chat.
    let reply = table.players[ann]
        .request(json!({"type": "mute", "seat": bob, "muted": true}))
        .await;
    assert_eq!(reply["type"], "room", "{reply}");
    assert_eq!(reply["seats"][bob]["muted"], true, "{reply}");
    let reply = table.players[bob]
        .request(json!({"type": "chat", "text": "hello?"}))
        .await;
    assert_eq!(reply["code"], "chat_muted", "{reply}");
    let reply = table.players[ann]
        .request(json!({"type": "mute", "seat": bob, "muted": false}))
        .await;
    assert!(reply["seats"][bob].get("muted").is_none(), "{reply}");

    // Five messages in ten seconds (the first was sent above), then a
    // pause is asked for.
    for n in 1..5 {
        let reply = table.players[bob]
            .request(json!({"type": "chat", "text": format!("message {n}")}))
            .await;
        assert_eq!(reply["type"], "chat", "{reply}");
    }
    let reply = table.players[bob]
        .request(json!({"type": "chat", "text": "one more"}))
        .await;
    assert_eq!(reply["code"], "chat_too_fast", "{reply}");

    // Outside a room there is nobody to talk to.
    let mut outsider = TestClient::join_server(&server, "outsider").await;
    let reply = outsider
        .request(json!({"type": "chat", "text": "anyone?"}))
        .await;
    assert_eq!(reply["code"], "not_in_room", "{reply}");
}

#[tokio::test]
async fn a_rematch_agreed_by_both_players_starts_a_new_game_they_both_follow() {
    let server = TestServer::start().await;
    let mut table = open_table(&server, &["ann", "bob"]).await;
    let code = table.code.clone();
    let mut dice = Dice(29);

    // (Not before the end: the room core's tests.)
    table.play_to_the_end(0, &mut dice).await;
    for p in &mut table.players {
        p.recv_type("result").await;
    }
    let reply = table.spectator.request(json!({"type": "rematch"})).await;
    assert_eq!(reply["code"], "rematch_unavailable", "{reply}");

    // The first player offers: everyone sees who accepted.
    let offer = table.players[0].request(json!({"type": "rematch"})).await;
    assert_eq!(offer["type"], "room", "{offer}");
    assert_eq!(offer["rematch"]["accepted"], json!([0]), "{offer}");
    let seen = table.players[1]
        .recv_until(|m| m["type"] == "room" && m.get("rematch").is_some())
        .await;
    assert_eq!(seen["rematch"]["accepted"], json!([0]));

    // The second accepts: a new room, already started, with both seated.
    table.players[1]
        .send_with_id(json!({"type": "rematch"}))
        .await;
    let moved = table.players[1]
        .recv_until(|m| m["type"] == "room" && m["rematch"]["room"].is_string())
        .await;
    let new_code = moved["rematch"]["room"].as_str().unwrap().to_owned();
    assert_ne!(new_code, code);
    let left = table.players[1].recv().await;
    assert_eq!(left["type"], "left", "{left}");
    assert_eq!(left["room"], code.as_str());
    let room = table.players[1]
        .recv_until(|m| m["type"] == "room" && m["status"] == "playing")
        .await;
    assert_eq!(room["code"], new_code.as_str());
    let bob_state = table.players[1].recv_type("state").await;
    assert_eq!(bob_state["version"], 0);

    // The first player is moved by the server (issue 23): the old room
    // tells the code, then `left`, then the new room (waiting for the
    // start or already playing) and its first state, with no `join`.
    let told = table.players[0]
        .recv_until(|m| m["type"] == "room" && m["rematch"]["room"].is_string())
        .await;
    assert_eq!(told["rematch"]["room"], new_code.as_str());
    let left = table.players[0].recv_type("left").await;
    assert_eq!(left["room"], code.as_str(), "{left}");
    let room = table.players[0]
        .recv_until(|m| m["type"] == "room" && m["status"] == "playing")
        .await;
    assert_eq!(room["code"], new_code.as_str(), "{room}");
    assert_eq!(room["you"]["role"], "player", "{room}");
    let name = table.players[0].name.clone();
    assert_eq!(room["you"]["seat"], seat_of(&room, &name));
    let ann_state = table.players[0].recv_type("state").await;
    assert_eq!(ann_state["game"], bob_state["game"]);
    // A client that follows with `join` all the same (as older pages
    // did) gets `room` again, not an error.
    let again = table.players[0]
        .request(json!({"type": "join", "code": new_code}))
        .await;
    assert_eq!(again["type"], "room", "{again}");
    assert_eq!(again["code"], new_code.as_str(), "{again}");

    // The spectator learns the code from the old room and follows with a
    // plain join: the finished room gives way.
    table
        .spectator
        .recv_until(|m| m["type"] == "room" && m["rematch"]["room"].is_string())
        .await;
    let reply = table
        .spectator
        .request(json!({"type": "join", "code": new_code, "as": "spectator"}))
        .await;
    assert_eq!(reply["type"], "room", "{reply}");
    assert_eq!(reply["you"]["role"], "spectator");

    // The new game is played to its end like any other.
    let mut ann = table.players.remove(0);
    let mut bob = table.players.remove(0);
    // The first states were read above: ask for them again.
    ann.send(json!({"type": "sync"})).await;
    bob.send(json!({"type": "sync"})).await;
    let (mut dice_a, mut dice_b) = (Dice(3), Dice(4));
    let (a, b) = tokio::join!(
        ann.play_until_result(&mut dice_a),
        bob.play_until_result(&mut dice_b)
    );
    assert_eq!(a["game"], b["game"]);
    assert_eq!(a["game"], bob_state["game"]);
}

#[tokio::test]
async fn a_room_still_playing_does_not_give_way_to_another() {
    let server = TestServer::start().await;
    let mut table = open_table(&server, &["ann", "bob"]).await;
    let mut carl = TestClient::join_server(&server, "carl").await;
    let other = carl.request(json!({"type": "create", "seats": 2})).await;
    let reply = table.players[0]
        .request(json!({"type": "join", "code": other["code"]}))
        .await;
    assert_eq!(reply["code"], "already_in_room", "{reply}");
    let reply = table.players[0]
        .request(json!({"type": "create", "seats": 2}))
        .await;
    assert_eq!(reply["code"], "already_in_room", "{reply}");
}

/// The host mutes every spectator's chat (issue 22): the room says so, a
/// spectator's chat is refused while the players talk on; a `mute` naming
/// neither a seat nor the spectators (or both) is refused and changes
/// nothing.
#[tokio::test]
async fn the_host_mutes_the_spectators_chat_and_lets_it_again() {
    let server = TestServer::start().await;
    let mut table = open_table(&server, &["ann", "bob"]).await;
    let host = table.players.iter().position(|p| p.name == "ann").unwrap();
    for bad in [
        json!({"type": "mute", "muted": true}),
        json!({"type": "mute", "seat": 0, "spectators": true, "muted": true}),
    ] {
        let reply = table.players[host].request(bad.clone()).await;
        assert_eq!(reply["code"], "invalid_field", "{bad}: {reply}");
    }
    let room = table.players[host]
        .request(json!({"type": "mute", "spectators": true, "muted": true}))
        .await;
    assert_eq!(room["type"], "room", "{room}");
    assert_eq!(room["spectators_muted"], true, "{room}");
    let refused = table
        .spectator
        .request(json!({"type": "chat", "text": "boo"}))
        .await;
    assert_eq!(refused["code"], "chat_muted", "{refused}");
    assert!(
        refused["message"].as_str().unwrap().contains("spectators"),
        "{refused}"
    );
    let talk = table.players[1 - host]
        .request(json!({"type": "chat", "text": "gl"}))
        .await;
    assert_eq!(talk["type"], "chat", "{talk}");
    let room = table.players[host]
        .request(json!({"type": "mute", "spectators": true, "muted": false}))
        .await;
    assert!(room.get("spectators_muted").is_none(), "{room}");
    let said = table
        .spectator
        .request(json!({"type": "chat", "text": "gg"}))
        .await;
    assert_eq!(said["type"], "chat", "{said}");
}
