//! `GET /api/games?player=PLAYER_ID` (issue 24) against the real server:
//! a player's finished games only, paged like the whole list; a player id
//! of no one finds none; a text that is not a player id is a 400.

use serde_json::{Value, json};
use splendor_e2e::{Dice, TestClient, TestServer};
use splendor_server::Config;

/// `client` plays one game against a greedy bot to its end; returns the
/// game's id.
async fn one_game(client: &mut TestClient, seed: u64) -> String {
    // A finished room gives way to the next `create`.
    let room = client.request(json!({"type": "create", "seats": 2})).await;
    assert_eq!(room["type"], "room", "{room}");
    client
        .request(json!({"type": "add_bot", "level": "greedy"}))
        .await;
    client
        .send(json!({"type": "start", "seat_order": "joined"}))
        .await;
    let result = client.play_until_result(&mut Dice(seed)).await;
    result["game"].as_str().unwrap().to_owned()
}

/// A new session and its player_id.
async fn player(server: &TestServer, name: &str) -> (TestClient, String) {
    let mut client = TestClient::connect(server, name).await;
    let player_id = client.hello().await.player_id;
    (client, player_id)
}

async fn games(server: &TestServer, query: &str) -> (u16, Value) {
    let (status, body) = server.http_get(&format!("/api/games{query}")).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

fn ids(list: &Value) -> Vec<String> {
    list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn the_games_of_one_player_only_paged_like_the_whole_list() {
    let server = TestServer::start_with(Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        bot_delay_ms: 0,
        ..Config::default()
    })
    .await;
    let (mut ann_client, ann) = player(&server, "ann").await;
    let (mut bob_client, bob) = player(&server, "bob").await;
    let ann_first = one_game(&mut ann_client, 1).await;
    let bob_game = one_game(&mut bob_client, 2).await;
    let ann_second = one_game(&mut ann_client, 3).await;
    let (_, all) = games(&server, "").await;
    assert_eq!(ids(&all).len(), 3, "{all}");
    // Ann's two, newest first; Bob's one.
    let (status, list) = games(&server, &format!("?player={ann}")).await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(ids(&list), [ann_second, ann_first]);
    let (_, list) = games(&server, &format!("?player={bob}")).await;
    assert_eq!(ids(&list), [bob_game]);
    assert_eq!(list["games"][0]["players"], 2, "{list}");
    // Nobody's id: nothing; not an id: a 400 that says so.
    let (status, list) = games(&server, "?player=0000000000").await;
    assert_eq!((status, ids(&list).len()), (200, 0));
    for bad in ["ann", "", "0123456789abc", "ABCDEFGHIJ"] {
        let (status, body) = games(&server, &format!("?player={bad}")).await;
        assert_eq!(status, 400, "{bad:?}: {body}");
        assert_eq!(body["error"], "invalid_query", "{body}");
    }
    // Paged: one a page; Ann's second page is her first game, and then
    // there is nothing more.
    let (_, page) = games(&server, &format!("?player={ann}&limit=1")).await;
    assert_eq!(ids(&page).len(), 1);
    let next = page["next"].as_str().expect("a cursor after a full page");
    let (_, second) = games(&server, &format!("?player={ann}&limit=1&before={next}")).await;
    assert_eq!(ids(&second).len(), 1);
    assert_ne!(ids(&second), ids(&page));
    let next = second["next"].as_str().expect("a full page again");
    let (_, rest) = games(&server, &format!("?player={ann}&limit=1&before={next}")).await;
    assert!(ids(&rest).is_empty(), "{rest}");
}
