//! Friends (issue 50) against the real server: a player follows another
//! by `player_id` over HTTP; only a friend (who follows back) is shown
//! online and the room of the game they sit in; a block either way hides
//! a follow, and following one's blocked player is refused; a bad request
//! gets a specific error and changes nothing.

use serde_json::{Value, json};
use splendor_e2e::process::{http_get_with, http_request};
use splendor_e2e::{TestClient, TestServer};
use splendor_server::Config;

async fn person(server: &TestServer, name: &str) -> (TestClient, String, String) {
    let mut client = TestClient::connect(server, name).await;
    let player_id = client.hello().await.player_id;
    let auth = format!("Bearer {}", client.token.clone().unwrap());
    (client, player_id, auth)
}

async fn call(server: &TestServer, method: &str, path: &str, auth: &str) -> (u16, Value) {
    let (status, body) =
        http_request(server.addr(), method, path, &[("Authorization", auth)], "").await;
    let json = if body.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&body).unwrap_or_else(|_| panic!("{status}: {body}"))
    };
    (status, json)
}

async fn lists(server: &TestServer, auth: &str) -> Value {
    let (status, body) = call(server, "GET", "/api/me/follows", auth).await;
    assert_eq!(status, 200, "{body}");
    body
}

#[tokio::test]
async fn a_friend_is_seen_online_and_in_their_game_and_blocks_hide_follows() {
    let server = TestServer::start_with(Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        ..Config::default()
    })
    .await;
    let (mut ann, ann_id, ann_auth) = person(&server, "ann").await;
    let (mut bob, bob_id, bob_auth) = person(&server, "bob").await;
    let (mut cy, _, _) = person(&server, "cy").await;

    // Bad requests first: each says what is wrong, and nothing changes.
    let (status, _) = http_get_with(server.addr(), "/api/me/follows", &[]).await;
    assert_eq!(status, 401);
    for (path, want_status, want_code) in [
        ("/api/me/follows/bob", 400, "invalid_player_id"),
        ("/api/me/follows/0000000000", 404, "player_not_found"),
        (
            &*format!("/api/me/follows/{ann_id}"),
            400,
            "follow_yourself",
        ),
    ] {
        let (status, body) = call(&server, "PUT", path, &ann_auth).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (want_status, Some(want_code)),
            "{body}"
        );
    }
    let (status, body) = call(
        &server,
        "DELETE",
        &format!("/api/me/follows/{bob_id}"),
        &ann_auth,
    )
    .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (404, Some("not_following")),
        "{body}"
    );
    assert_eq!(
        lists(&server, &ann_auth).await,
        json!({"follows": [], "followers": []})
    );

    // Ann follows Bob: one way, so she sees his name and no more.
    let path = format!("/api/me/follows/{bob_id}");
    let (status, body) = call(&server, "PUT", &path, &ann_auth).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body, json!({"player_id": bob_id, "name": "bob"}));
    let (status, _) = call(
        &server,
        "PUT",
        &path
            .to_uppercase()
            .replace("/API/ME/FOLLOWS", "/api/me/follows"),
        &ann_auth,
    )
    .await;
    assert_eq!(status, 200, "already followed, the id read without case");
    let listed = lists(&server, &ann_auth).await;
    let bob_row = &listed["follows"][0];
    assert_eq!(
        (&bob_row["name"], &bob_row["mutual"]),
        (&json!("bob"), &json!(false)),
        "{listed}"
    );
    for hidden in ["online", "last_seen", "room"] {
        assert!(
            bob_row.get(hidden).is_none(),
            "{hidden} shown one way: {listed}"
        );
    }
    // Bob sees Ann among those who follow him, to follow back.
    let his = lists(&server, &bob_auth).await;
    assert_eq!(his["follows"], json!([]));
    assert_eq!(his["followers"][0]["player_id"], ann_id.as_str(), "{his}");
    assert!(his["followers"][0].get("online").is_none(), "{his}");

    // Bob follows back and sits down to a game with Cy: Ann sees him
    // online, in that room.
    let (status, _) = call(
        &server,
        "PUT",
        &format!("/api/me/follows/{ann_id}"),
        &bob_auth,
    )
    .await;
    assert_eq!(status, 201);
    let room = bob.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    cy.request(json!({"type": "join", "code": code})).await;
    bob.request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    bob.state().await;
    let listed = lists(&server, &ann_auth).await;
    let bob_row = &listed["follows"][0];
    assert_eq!(bob_row["mutual"], true, "{listed}");
    assert_eq!(bob_row["online"], true, "{listed}");
    assert_eq!(bob_row["room"], code.as_str(), "{listed}");
    assert!(bob_row["last_seen"].as_i64().unwrap() > 0, "{listed}");
    assert_eq!(
        lists(&server, &bob_auth).await["followers"],
        json!([]),
        "followed back"
    );

    // Ann blocks Bob: he leaves both lists, and following him again is
    // refused until she unblocks him.
    let blocked = ann
        .request(json!({"type": "block", "player_id": bob_id}))
        .await;
    assert_eq!(blocked["type"], "blocked", "{blocked}");
    assert_eq!(lists(&server, &ann_auth).await["follows"], json!([]));
    assert_eq!(lists(&server, &bob_auth).await["follows"], json!([]));
    let (status, body) = call(&server, "PUT", &path, &ann_auth).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (409, Some("blocked")),
        "{body}"
    );
    ann.request(json!({"type": "unblock", "player_id": bob_id}))
        .await;
    assert_eq!(lists(&server, &ann_auth).await["follows"][0]["name"], "bob");

    // Unfollowing: Bob stays Ann's follower only.
    let (status, _) = call(&server, "DELETE", &path, &ann_auth).await;
    assert_eq!(status, 204);
    assert_eq!(lists(&server, &ann_auth).await["follows"], json!([]));
    assert_eq!(
        lists(&server, &ann_auth).await["followers"][0]["name"],
        "bob"
    );
}
