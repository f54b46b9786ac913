//! Invitations by `player_id` (issue 25) against the real server: a
//! seated player of a room waiting for players invites another player;
//! the invitation waits in the invitee's My games until they join (accept)
//! or decline it, tells them by their webhook (event `invitation`) once,
//! and goes when its room starts or closes. Bad input, unknown players and
//! a spam of invitations get specific errors and change nothing.

use serde_json::{Value, json};
use splendor_e2e::hook::receiver;
use splendor_e2e::process::{http_get_with, http_request};
use splendor_e2e::{TestClient, TestServer};
use splendor_server::Config;

/// A client with a new session, and its player_id.
async fn player(server: &TestServer, name: &str) -> (TestClient, String) {
    let mut client = TestClient::connect(server, name).await;
    let welcome = client.hello().await;
    (client, welcome.player_id)
}

async fn my_games(server: &TestServer, client: &TestClient) -> Value {
    let auth = format!("Bearer {}", client.token.clone().unwrap());
    let (status, body) =
        http_get_with(server.addr(), "/api/me/games", &[("Authorization", &auth)]).await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// The rooms of the client's listed invitations, newest first.
async fn invited_to(server: &TestServer, client: &TestClient) -> Vec<String> {
    my_games(server, client).await["invitations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["room"].as_str().unwrap().to_owned())
        .collect()
}

async fn decline(server: &TestServer, token: &str, id: &str) -> u16 {
    let auth = format!("Bearer {token}");
    let path = format!("/api/me/invitations/{id}");
    let headers: Vec<(&str, &str)> = if token.is_empty() {
        Vec::new()
    } else {
        vec![("Authorization", &auth)]
    };
    http_request(server.addr(), "DELETE", &path, &headers, "")
        .await
        .0
}

fn code_of(room: &Value) -> String {
    room["code"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn an_invitation_waits_in_my_games_until_joined_or_declined() {
    let server = TestServer::start_with(Config {
        webhook_allow_private: true,
        ..Config::default()
    })
    .await;
    let (url, mut deliveries) = receiver().await;
    let (mut ann, ann_id) = player(&server, "ann").await;
    let (bob, bob_id) = player(&server, "bob").await;
    let (mut cy, cy_id) = player(&server, "cy").await;
    // Bob is told of invitations by his webhook.
    let auth = format!("Bearer {}", bob.token.clone().unwrap());
    let (status, _) = http_request(
        server.addr(),
        "PUT",
        "/api/me/notifications",
        &[
            ("Authorization", &auth),
            ("Content-Type", "application/json"),
        ],
        &json!({"events": ["invitation"], "webhook": url}).to_string(),
    )
    .await;
    assert_eq!(status, 200);
    // Each session's My games gives its own player_id, to pass to friends.
    assert_eq!(my_games(&server, &bob).await["player_id"], bob_id);

    // Not in a room: nothing to invite to.
    let refused = ann
        .request(json!({"type": "invite", "player_id": bob_id}))
        .await;
    assert_eq!(refused["code"], "not_in_room", "{refused}");
    let room = ann
        .request(json!({"type": "create", "seats": 3, "turn_based": {"per_move_s": 86_400}}))
        .await;
    let code = code_of(&room);

    // Bad input: each its own error, nothing made.
    for (sent, error, says) in [
        (json!("bob"), "invalid_field", "not a player id"),
        (
            json!("0123456789abcdef"),
            "invalid_field",
            "not a player id",
        ),
        (json!(ann_id), "invalid_field", "yourself"),
        (json!("0000000000"), "player_not_found", "0000000000"),
    ] {
        let answer = ann
            .request(json!({"type": "invite", "player_id": sent}))
            .await;
        assert_eq!(answer["type"], "error", "{sent}: {answer}");
        assert_eq!(answer["code"], error, "{sent}: {answer}");
        assert!(
            answer["message"].as_str().unwrap().contains(says),
            "{sent}: {answer}"
        );
    }
    let missing = ann.request(json!({"type": "invite"})).await;
    assert_eq!(missing["code"], "missing_field", "{missing}");
    let extra = ann
        .request(json!({"type": "invite", "player_id": bob_id, "name": "bob"}))
        .await;
    assert_eq!(extra["code"], "invalid_field", "{extra}");
    assert!(invited_to(&server, &bob).await.is_empty());

    // Ann invites Bob (by an id in capitals, as a person may type it).
    let invited = ann
        .request(json!({"type": "invite", "player_id": bob_id.to_uppercase()}))
        .await;
    assert_eq!(invited["type"], "invited", "{invited}");
    assert_eq!(
        (
            &invited["room"],
            &invited["player_id"],
            &invited["name"],
            &invited["new"]
        ),
        (&json!(code), &json!(bob_id), &json!("bob"), &json!(true))
    );
    // Again: the same invitation, nothing new, Bob not told twice.
    let again = ann
        .request(json!({"type": "invite", "player_id": bob_id}))
        .await;
    assert_eq!(again["new"], false, "{again}");
    assert_eq!(again["invitation"], invited["invitation"]);
    let told = deliveries.recv().await.unwrap();
    assert_eq!(told.event, "invitation");
    let body: Value = serde_json::from_slice(&told.body).unwrap();
    assert_eq!(
        (&body["room"], &body["from"]),
        (&json!(code), &json!("ann"))
    );

    let listed = my_games(&server, &bob).await;
    let first = &listed["invitations"][0];
    assert_eq!(first["id"], invited["invitation"], "{listed}");
    assert_eq!(first["room"], code);
    assert_eq!(first["from"], json!({"name": "ann", "player_id": ann_id}));
    assert_eq!(
        (&first["host"], &first["seats"], &first["players"]),
        (&json!("ann"), &json!(3), &json!(1))
    );
    assert_eq!(listed["invitations"].as_array().unwrap().len(), 1);
    // Ann sees no invitation of her own.
    assert!(invited_to(&server, &ann).await.is_empty());

    // Declining: the invitee's token only; then it is gone.
    let id = invited["invitation"].as_str().unwrap();
    assert_eq!(decline(&server, "", id).await, 401);
    assert_eq!(decline(&server, &cy.token.clone().unwrap(), id).await, 404);
    assert_eq!(
        decline(&server, &bob.token.clone().unwrap(), "nonsense").await,
        404
    );
    assert_eq!(decline(&server, &bob.token.clone().unwrap(), id).await, 204);
    assert_eq!(decline(&server, &bob.token.clone().unwrap(), id).await, 404);
    assert!(invited_to(&server, &bob).await.is_empty());

    // Joining accepts: Cy is invited, joins, and the invitation goes.
    ann.request(json!({"type": "invite", "player_id": cy_id}))
        .await;
    assert_eq!(invited_to(&server, &cy).await, vec![code.clone()]);
    let joined = cy.request(json!({"type": "join", "code": code})).await;
    assert_eq!(joined["type"], "room", "{joined}");
    let gone = loop {
        // The deletion follows the join; My games shows it at once after.
        let list = invited_to(&server, &cy).await;
        if list.is_empty() {
            break list;
        }
        tokio::task::yield_now().await;
    };
    assert!(gone.is_empty());
    // A seated player cannot be invited to the room they sit in, and a
    // seated guest may invite too.
    let seated = ann
        .request(json!({"type": "invite", "player_id": cy_id}))
        .await;
    assert_eq!(seated["code"], "invalid_field", "{seated}");
    assert!(seated["message"].as_str().unwrap().contains("already sits"));
    let by_guest = cy
        .request(json!({"type": "invite", "player_id": bob_id}))
        .await;
    assert_eq!(by_guest["type"], "invited", "{by_guest}");
    assert_eq!(invited_to(&server, &bob).await, vec![code.clone()]);

    // Once the game starts the invitation is no longer shown (and
    // inviting is over).
    ann.request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    assert!(invited_to(&server, &bob).await.is_empty());
    let late = ann
        .request(json!({"type": "invite", "player_id": bob_id}))
        .await;
    assert_eq!(late["code"], "game_already_started", "{late}");
}

#[tokio::test]
async fn a_spam_of_invitations_is_refused_past_the_hourly_limit() {
    let server = TestServer::start_with(Config {
        max_invitations_per_hour: 2,
        ..Config::default()
    })
    .await;
    let (mut ann, _) = player(&server, "ann").await;
    let mut others = Vec::new();
    for name in ["bob", "cy", "dan"] {
        others.push(player(&server, name).await);
    }
    let code = code_of(&ann.request(json!({"type": "create", "seats": 4})).await);
    for (_, id) in &others[..2] {
        let made = ann
            .request(json!({"type": "invite", "player_id": id}))
            .await;
        assert_eq!(made["type"], "invited", "{made}");
    }
    // The same invitation again is no new one: still answered.
    let same = ann
        .request(json!({"type": "invite", "player_id": others[0].1}))
        .await;
    assert_eq!(same["new"], false, "{same}");
    let refused = ann
        .request(json!({"type": "invite", "player_id": others[2].1}))
        .await;
    assert_eq!(refused["code"], "too_many_invitations", "{refused}");
    let wait = refused["retry_after_ms"].as_u64().unwrap();
    assert!(wait > 3_500_000 && wait <= 3_600_000, "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("at most 2"));
    assert!(invited_to(&server, &others[2].0).await.is_empty());
    assert_eq!(invited_to(&server, &others[1].0).await, [code]);
}

#[tokio::test]
async fn an_invitation_to_a_room_that_closed_is_not_shown_again() {
    let server = TestServer::start().await;
    let (mut ann, _) = player(&server, "ann").await;
    let (bob, bob_id) = player(&server, "bob").await;
    ann.request(json!({"type": "create", "seats": 2})).await;
    ann.request(json!({"type": "invite", "player_id": bob_id}))
        .await;
    assert_eq!(invited_to(&server, &bob).await.len(), 1);
    // The host leaves the waiting room: it closes (a live room nobody is in).
    let left = ann.request(json!({"type": "leave", "give_up": true})).await;
    assert_eq!(left["type"], "left", "{left}");
    let list = loop {
        let list = invited_to(&server, &bob).await;
        if list.is_empty() {
            break list;
        }
        tokio::task::yield_now().await;
    };
    assert!(list.is_empty());
}
