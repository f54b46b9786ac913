//! Blocks (issue 22) against the real server: a player blocks another by
//! `player_id`; the blocked one's chat never reaches the blocker (live, and
//! in the chat kept for a return), quick play never seats the two
//! together, and `unblock` undoes it. Bad input is refused, changing
//! nothing.

use serde_json::{Value, json};
use splendor_e2e::process::http_get_with;
use splendor_e2e::{TestClient, TestServer};
use splendor_server::Config;

async fn person(server: &TestServer, name: &str) -> (TestClient, String) {
    let mut client = TestClient::connect(server, name).await;
    let player_id = client.hello().await.player_id;
    (client, player_id)
}

/// The next `chat` frame `client` gets.
async fn next_chat(client: &mut TestClient) -> Value {
    client.recv_type("chat").await
}

#[tokio::test]
async fn a_blocked_players_chat_never_reaches_the_blocker_and_quick_play_keeps_them_apart() {
    let server = TestServer::start_with(Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        ..Config::default()
    })
    .await;
    let (mut ann, ann_id) = person(&server, "ann").await;
    let (mut bob, bob_id) = person(&server, "bob").await;
    let (mut cy, cy_id) = person(&server, "cy").await;

    // Bad input first: nothing changes.
    let refused = ann
        .request(json!({"type": "block", "player_id": "bob"}))
        .await;
    assert_eq!(refused["code"], "invalid_field", "{refused}");
    let refused = ann
        .request(json!({"type": "block", "player_id": "0000000000"}))
        .await;
    assert_eq!(refused["code"], "player_not_found", "{refused}");
    let refused = ann
        .request(json!({"type": "block", "player_id": ann_id}))
        .await;
    assert_eq!(refused["code"], "invalid_field", "{refused}");

    let blocked = ann
        .request(json!({"type": "block", "player_id": bob_id}))
        .await;
    assert_eq!(blocked["type"], "blocked", "{blocked}");
    assert_eq!(
        (&blocked["name"], &blocked["new"]),
        (&json!("bob"), &json!(true))
    );
    let again = ann
        .request(json!({"type": "block", "player_id": bob_id}))
        .await;
    assert_eq!(again["new"], false, "{again}");
    let auth = format!("Bearer {}", ann.token.clone().unwrap());
    let (status, body) =
        http_get_with(server.addr(), "/api/me/blocks", &[("Authorization", &auth)]).await;
    assert_eq!(status, 200, "{body}");
    let list: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(list["blocks"][0]["player_id"], bob_id.as_str(), "{list}");

    // Cy's room: Bob's lines reach Cy, never Ann; Cy's reach both.
    let room = cy.request(json!({"type": "create", "seats": 3})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    bob.request(json!({"type": "chat", "text": "before ann came"}))
        .await;
    ann.request(json!({"type": "join", "code": code})).await;
    bob.request(json!({"type": "chat", "text": "hello ann"}))
        .await;
    assert_eq!(next_chat(&mut cy).await["text"], "before ann came");
    assert_eq!(next_chat(&mut cy).await["text"], "hello ann");
    cy.request(json!({"type": "chat", "text": "from cy"})).await;
    let seen = next_chat(&mut ann).await;
    assert_eq!(seen["text"], "from cy", "Bob's lines never came: {seen}");
    assert!(
        !ann.frames
            .iter()
            .any(|f| f.contains("hello ann") || f.contains("before ann came")),
        "{:?}",
        ann.frames
    );

    // Back on a new connection: the chat kept for her leaves Bob out.
    let token = ann.token.clone().unwrap();
    drop(ann);
    let mut ann = TestClient::connect(&server, "ann").await;
    ann.resume(&token).await;
    let history = ann.recv_type("chat_history").await;
    let lines: Vec<&str> = history["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(lines, ["from cy"], "{history}");

    // Quick play keeps them apart: Ann and Bob wait side by side; Dan
    // comes and plays Ann, the oldest.
    for client in [&mut ann, &mut bob, &mut cy] {
        client
            .request(json!({"type": "leave", "give_up": true}))
            .await;
    }
    let two = json!({"type": "queue", "players": 2});
    assert_eq!(ann.request(two.clone()).await["type"], "queued");
    let queued = bob.request(two.clone()).await;
    assert_eq!(queued["waiting"], 2, "{queued}");
    let (mut dan, _) = person(&server, "dan").await;
    dan.request(two.clone()).await;
    let room = dan.recv_type("matched").await["room"].clone();
    assert_eq!(ann.recv_type("matched").await["room"], room);

    // Unblocked: Bob's chat reaches her again.
    let unblocked = ann
        .request(json!({"type": "unblock", "player_id": bob_id}))
        .await;
    assert_eq!(
        (&unblocked["type"], &unblocked["was_blocked"]),
        (&json!("unblocked"), &json!(true)),
        "{unblocked}"
    );
    let again = ann
        .request(json!({"type": "unblock", "player_id": cy_id}))
        .await;
    assert_eq!(again["was_blocked"], false, "{again}");
}
