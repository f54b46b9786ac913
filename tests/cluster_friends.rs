//! Friends across nodes (issue 50), with real processes on one PostgreSQL
//! database and a `nats-server` of the test's own: follows made through
//! one node are listed by the other; a friend connected only to node 2 is
//! online in the list node 1 answers, with the room of the game he plays
//! there (nothing of it lives in node 1's memory: node 2 records its
//! connected sessions as seen in the store); a friend no node has seen
//! for longer than the window is offline (his last sight set back in the
//! database itself, as time passing would).
//!
//! Needs PostgreSQL (`SPLENDOR_TEST_DATABASE_URL`, which `.ci/run` sets):
//! without it the test says SKIPPED and passes.

use serde_json::{Value, json};
use splendor_cluster::testing::Nats;
use splendor_e2e::TestClient;
use splendor_e2e::process::{ServerProcess, TestDatabase, http_request};

const SERVER: &str = env!("CARGO_BIN_EXE_splendor-server-e2e");

async fn node(db: &TestDatabase, nats: &Nats, id: &str) -> ServerProcess {
    let env = [
        ("SPLENDOR_NATS_URL", nats.url.as_str()),
        ("SPLENDOR_NODE_ID", id),
        ("SPLENDOR_LEASE_TTL", "4s"),
    ];
    ServerProcess::start_with_env(SERVER, &db.url, &env).await
}

/// A client with a new session on `node`: the client, its player_id and
/// its bearer header.
async fn player(node: &ServerProcess, name: &str) -> (TestClient, String, String) {
    let mut client = TestClient::connect_to(node.addr(), name).await;
    let welcome = client.hello().await;
    let auth = format!("Bearer {}", client.token.clone().unwrap());
    (client, welcome.player_id, auth)
}

async fn call(node: &ServerProcess, method: &str, path: &str, auth: &str) -> (u16, Value) {
    let (status, body) =
        http_request(node.addr(), method, path, &[("Authorization", auth)], "").await;
    let json = serde_json::from_str(&body).unwrap_or(Value::Null);
    (status, json)
}

/// The row of `id` in the follows `node` lists for `auth`.
async fn row(node: &ServerProcess, auth: &str, id: &str) -> Value {
    let (status, lists) = call(node, "GET", "/api/me/follows", auth).await;
    assert_eq!(status, 200, "{lists}");
    lists["follows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["player_id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("{id} not in {lists}"))
}

#[tokio::test]
async fn a_friend_on_another_node_is_online_in_his_game_and_offline_once_unseen() {
    let Some(db) = TestDatabase::postgres("friends across nodes").await else {
        return;
    };
    let nats = Nats::start().await;
    let (one, two) = (node(&db, &nats, "1").await, node(&db, &nats, "2").await);
    let (_ann, ann_id, ann_auth) = player(&one, "ann").await;
    let (mut bob, bob_id, bob_auth) = player(&two, "bob").await;
    let (cy, cy_id, cy_auth) = player(&two, "cy").await;
    // Follows made through either node, the others' through the other.
    for (node, auth, id) in [
        (&one, &ann_auth, &bob_id),
        (&two, &bob_auth, &ann_id),
        (&one, &ann_auth, &cy_id),
        (&one, &cy_auth, &ann_id),
    ] {
        let (status, body) = call(node, "PUT", &format!("/api/me/follows/{id}"), auth).await;
        assert_eq!(status, 201, "{body}");
    }
    // Bob plays the tutorial on node 2: node 1 lists him online, in it.
    let room = bob
        .request(json!({"type": "create", "seats": 2, "tutorial": true}))
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "start"})).await;
    bob.state().await;
    let seen = row(&one, &ann_auth, &bob_id).await;
    assert_eq!(
        (&seen["mutual"], &seen["online"], &seen["room"]),
        (&json!(true), &json!(true), &json!(code)),
        "{seen}"
    );
    // Cy leaves, and no node has seen him for ten minutes: offline, with
    // when he was last seen.
    cy.disconnect().await;
    let admin = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect(&db.url)
        .await
        .unwrap();
    let ago = splendor_store::unix_millis_now() - 600_000;
    sqlx::query("UPDATE sessions SET last_seen = $1, created_at = $1 WHERE player_id = $2")
        .bind(ago)
        .bind(&cy_id)
        .execute(&admin)
        .await
        .unwrap();
    let unseen = row(&one, &ann_auth, &cy_id).await;
    assert_eq!(
        (&unseen["online"], &unseen["last_seen"]),
        (&json!(false), &json!(ago)),
        "{unseen}"
    );
    assert!(unseen.get("room").is_none(), "{unseen}");
}
