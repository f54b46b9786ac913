//! The protocol around games, end to end through real sockets: identity,
//! rooms, listing, closing, and every kind of malformed input.

use std::time::Duration;

use serde_json::{Value, json};
use splendor_e2e::{TestClient, TestServer};
use splendor_server::Config;

fn assert_error(reply: &Value, code: &str) {
    assert_eq!(reply["type"], "error", "expected error {code}, got {reply}");
    assert_eq!(reply["code"], code, "{reply}");
    assert!(
        reply["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{reply}"
    );
}

/// The connection still answers.
async fn assert_usable(client: &mut TestClient) {
    let pong = client.request(json!({"type": "ping"})).await;
    assert_eq!(pong["type"], "pong", "{pong}");
}

/// A room code that is well-formed but belongs to no room.
fn unused_code(used: &[&str]) -> &'static str {
    ["QQQQQ", "WWWWW", "XXXXX"]
        .into_iter()
        .find(|c| !used.contains(c))
        .unwrap()
}

#[tokio::test]
async fn health_index_and_unknown_paths() {
    let server = TestServer::start().await;
    assert_eq!(server.http_get("/healthz").await.0, 200);
    let (status, body) = server.http_get("/").await;
    assert_eq!(status, 200);
    assert!(body.contains("/ws"), "{body}");
    assert_eq!(server.http_get("/nope").await.0, 404);
    // /ws without an upgrade is refused, not crashed on.
    assert!(server.http_get("/ws").await.0 >= 400);
}

#[tokio::test]
async fn hello_gives_a_session_whose_token_resumes_it() {
    let server = TestServer::start().await;
    let mut ann = TestClient::connect(&server, "ann").await;
    let welcome = ann.hello().await;
    assert_eq!((welcome.name.as_str(), welcome.resumed), ("ann", false));
    assert_eq!(welcome.token.len(), 64);
    assert!(welcome.token.chars().all(|c| c.is_ascii_hexdigit()));
    assert_error(
        &ann.request(json!({"type": "hello", "name": "again"})).await,
        "already_identified",
    );

    let mut other = TestClient::connect(&server, "other").await;
    assert_error(
        &other
            .request(json!({"type": "hello", "token": "0".repeat(64)}))
            .await,
        "invalid_token",
    );
    assert_error(
        &other.request(json!({"type": "hello", "name": "   "})).await,
        "invalid_name",
    );
    assert_error(
        &other
            .request(json!({"type": "hello", "name": "x".repeat(25)}))
            .await,
        "invalid_name",
    );
    assert_error(
        &other.request(json!({"type": "hello"})).await,
        "missing_field",
    );
    // Still usable: now resume ann's session on this connection.
    let resumed = other.resume(&welcome.token).await;
    assert_eq!(
        (
            resumed.session.as_str(),
            resumed.name.as_str(),
            resumed.resumed
        ),
        (welcome.session.as_str(), "ann", true)
    );
}

#[tokio::test]
async fn rooms_are_created_joined_by_code_and_listed() {
    let server = TestServer::start().await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    let mut carl = TestClient::join_server(&server, "carl").await;

    let room = ann
        .request(json!({"type": "create", "seats": 3, "listed": true}))
        .await;
    assert_eq!(room["type"], "room", "{room}");
    let code = room["code"].as_str().unwrap().to_owned();
    assert_eq!(code.len(), 5);
    assert!(
        code.chars()
            .all(|c| c.is_ascii_uppercase() && !"IOL".contains(c)),
        "{code}"
    );
    assert_eq!(room["status"], "waiting");
    assert_eq!(room["seats"].as_array().unwrap().len(), 3);
    assert_eq!(room["seats"][0]["name"], "ann");
    assert_eq!(room["seats"][0]["host"], true);
    assert_eq!(room["you"], json!({"role": "player", "seat": 0}));

    let (status, body) = server.http_get("/api/rooms").await;
    assert_eq!(status, 200);
    let listed: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        listed["rooms"],
        json!([{"code": code, "host": "ann", "seats": 3, "players": 1, "status": "waiting"}])
    );

    let joined = bob
        .request(json!({"type": "join", "code": code.to_lowercase()}))
        .await;
    assert_eq!(joined["type"], "room", "{joined}");
    assert_eq!(joined["you"], json!({"role": "player", "seat": 1}));
    let seen = ann
        .recv_until(|m| m["type"] == "room" && !m["seats"][1].is_null())
        .await;
    assert_eq!(seen["seats"][1]["name"], "bob");

    // A private room is not listed; list_rooms over the socket shows the same.
    carl.request(json!({"type": "create", "seats": 2})).await;
    let list = bob.request(json!({"type": "list_rooms"})).await;
    assert_eq!(list["type"], "rooms");
    assert_eq!(list["rooms"].as_array().unwrap().len(), 1);
    assert_eq!(list["rooms"][0]["code"], code.as_str());

    let mut dora = TestClient::join_server(&server, "dora").await;
    for bad in [unused_code(&[&code]), "0O1IL", "ABC"] {
        assert_error(
            &dora.request(json!({"type": "join", "code": bad})).await,
            "room_not_found",
        );
    }
    assert_error(
        &dora.request(json!({"type": "create", "seats": 5})).await,
        "invalid_seats",
    );
    assert_error(
        &bob.request(json!({"type": "create"})).await,
        "already_in_room",
    );
    assert_usable(&mut dora).await;
}

#[tokio::test]
async fn requests_out_of_order_are_refused_with_their_codes() {
    let server = TestServer::start().await;
    let mut c = TestClient::connect(&server, "c").await;
    assert_usable(&mut c).await;
    assert_error(
        &c.request(json!({"type": "create"})).await,
        "not_identified",
    );
    assert_error(
        &c.request(json!({"type": "act", "action": "pass"})).await,
        "not_identified",
    );
    c.hello().await;
    for message in [
        json!({"type": "act", "action": "pass"}),
        json!({"type": "start"}),
        json!({"type": "leave"}),
        json!({"type": "sync"}),
    ] {
        assert_error(&c.request(message).await, "not_in_room");
    }
    c.request(json!({"type": "create", "seats": 2})).await;
    assert_error(
        &c.request(json!({"type": "start"})).await,
        "not_enough_players",
    );
    assert_error(
        &c.request(json!({"type": "act", "action": "pass"})).await,
        "game_not_started",
    );
    let left = c.request(json!({"type": "leave"})).await;
    assert_eq!(left["type"], "left", "{left}");
    assert_usable(&mut c).await;
}

#[tokio::test]
async fn every_malformed_frame_gets_its_own_error_and_the_connection_stays_usable() {
    let server = TestServer::start().await;
    let mut c = TestClient::join_server(&server, "c").await;
    let oversized = json!({"type": "ping", "pad": "x".repeat(17 * 1024)}).to_string();
    let cases: Vec<(String, &str)> = vec![
        ("{".into(), "invalid_json"),
        ("not json".into(), "invalid_json"),
        ("[1,2]".into(), "bad_message"),
        (r#"{"type":7}"#.into(), "bad_message"),
        (r#"{"name":"x"}"#.into(), "missing_field"),
        (r#"{"type":"dance"}"#.into(), "unknown_type"),
        (r#"{"type":"join"}"#.into(), "missing_field"),
        (r#"{"type":"join","code":5}"#.into(), "invalid_field"),
        (r#"{"type":"join","cod":"ABCDE"}"#.into(), "invalid_field"),
        (r#"{"type":"act"}"#.into(), "missing_field"),
        (
            r#"{"type":"act","action":{"fly":1}}"#.into(),
            "invalid_action",
        ),
        (
            r#"{"type":"act","action":{"take":["red","red"]}}"#.into(),
            "invalid_action",
        ),
        (r#"{"type":"ping","id":{"a":1}}"#.into(), "invalid_field"),
        (oversized, "frame_too_large"),
    ];
    for (text, code) in cases {
        c.send_text(text.clone()).await;
        let reply = c.recv().await;
        assert_error(&reply, code);
        assert_usable(&mut c).await;
    }
    c.send_binary(vec![1, 2, 3]).await;
    assert_error(&c.recv().await, "bad_message");
    // Errors echo the request id whenever it could be read.
    c.send_text(r#"{"type":"dance","id":"q1"}"#).await;
    let reply = c.recv().await;
    assert_error(&reply, "unknown_type");
    assert_eq!(reply["id"], "q1");
    assert_usable(&mut c).await;
}

#[tokio::test]
async fn a_frame_over_the_hard_limit_closes_the_connection_with_1009() {
    let server = TestServer::start().await;
    let mut c = TestClient::connect(&server, "c").await;
    c.send_text("x".repeat(2 << 20)).await;
    assert_eq!(c.expect_close().await.0, 1009);
    // The server itself is fine.
    let mut d = TestClient::connect(&server, "d").await;
    assert_usable(&mut d).await;
}

#[tokio::test]
async fn a_second_connection_with_the_same_token_replaces_the_first() {
    let server = TestServer::start().await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let token = ann.token.clone().unwrap();

    let mut again = TestClient::connect(&server, "ann-again").await;
    again.resume(&token).await;
    // Straight back into the room, in the same seat.
    let rejoined = again.recv_type("room").await;
    assert_eq!(rejoined["code"], room["code"]);
    assert_eq!(rejoined["you"], json!({"role": "player", "seat": 0}));
    let (code, reason) = ann.expect_close().await;
    assert_eq!(code, 4001, "{reason}");
    assert_usable(&mut again).await;
}

#[tokio::test]
async fn a_waiting_room_expires_when_no_player_is_connected() {
    let config = Config {
        empty_room_ttl: Duration::from_millis(200),
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut eve = TestClient::join_server(&server, "eve").await;
    let room = ann
        .request(json!({"type": "create", "seats": 2, "listed": true}))
        .await;
    let code = room["code"].as_str().unwrap();
    let joined = eve
        .request(json!({"type": "join", "code": code, "as": "spectator"}))
        .await;
    assert_eq!(joined["you"], json!({"role": "spectator"}));
    ann.disconnect().await;
    let closed = eve.recv_type("room_closed").await;
    assert_eq!(closed["room"], code);
    let (_, body) = server.http_get("/api/rooms").await;
    assert!(!body.contains(code), "{body}");
    // The spectator is in no room any more and can create one.
    let created = eve.request(json!({"type": "create", "seats": 2})).await;
    assert_eq!(created["type"], "room", "{created}");
}

#[tokio::test]
async fn shutting_down_closes_every_connection_with_1012() {
    let server = TestServer::start().await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    ann.request(json!({"type": "create"})).await;
    let (stopped, (code, _)) = tokio::join!(server.shutdown(), ann.expect_close());
    stopped.unwrap();
    assert_eq!(code, 1012);
}

/// One rule for the text people show each other (issue 22, defect 3):
/// names and chat refuse bidi overrides (at either end of a name too: they
/// were stripped silently), blank fillers and stacks of combining marks,
/// and keep emoji.
#[tokio::test]
async fn names_and_chat_share_one_rule_for_invisible_and_stacked_characters() {
    let server = TestServer::start().await;
    let mut probe = TestClient::connect(&server, "probe").await;
    for name in [
        "\u{202E}ann",
        "ann\u{202E}",
        "ad\u{202E}min",
        "\u{2800}",
        "\u{2800}\u{2800}ann",
        "Z\u{0335}\u{0321}\u{0322}\u{0327}\u{0328}oe",
    ] {
        let reply = probe.request(json!({"type": "hello", "name": name})).await;
        assert_error(&reply, "invalid_name");
    }
    let welcome = probe
        .request(json!({"type": "hello", "name": "Zoë 🎲"}))
        .await;
    assert_eq!(welcome["name"], "Zoë 🎲", "{welcome}");
    let room = probe.request(json!({"type": "create", "seats": 2})).await;
    assert_eq!(room["type"], "room", "{room}");
    for text in [
        "look \u{202E}here",
        "\u{2800}\u{2800}\u{2800}",
        "\u{200B}\u{200B}",
        "z\u{0335}\u{0321}\u{0322}\u{0327}\u{0328}algo",
    ] {
        let reply = probe.request(json!({"type": "chat", "text": text})).await;
        assert_error(&reply, "invalid_chat");
    }
    let said = probe
        .request(json!({"type": "chat", "text": "gg ❤️ 👨‍👩‍👧"}))
        .await;
    assert_eq!(said["type"], "chat", "{said}");
    assert_eq!(said["text"], "gg ❤️ 👨‍👩‍👧", "{said}");
}

/// The host's word filter (issue 22): a name with a listed word is refused,
/// and in chat the word is masked before anyone sees it.
#[tokio::test]
async fn the_hosts_word_filter_refuses_names_and_masks_chat() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("words.txt");
    std::fs::write(&list, "# our list\nen: idiot*\nnl: sukkel\n").unwrap();
    let server = TestServer::start_with(Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        word_filter: Some(list),
        ..Config::default()
    })
    .await;
    let mut probe = TestClient::connect(&server, "probe").await;
    let refused = probe
        .request(json!({"type": "hello", "name": "IdiotKing", "lang": "nl"}))
        .await;
    assert_error(&refused, "invalid_name");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("niet toestaat"),
        "{refused}"
    );
    let welcome = probe.request(json!({"type": "hello", "name": "ann"})).await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    let mut bob = TestClient::join_server(&server, "bob").await;
    let room = probe.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    let said = probe
        .request(json!({"type": "chat", "text": "wat een Sukkel, first class"}))
        .await;
    assert_eq!(said["text"], "wat een ******, first class", "{said}");
    let heard = bob.recv_type("chat").await;
    assert_eq!(heard["text"], "wat een ******, first class", "{heard}");
}
