//! Invitations across nodes (issue 25), with real processes on one
//! PostgreSQL database and a `nats-server` of the test's own: a player
//! connected to node 2 invites to a room that runs on node 1 (the room
//! there says whether he may); nothing of an invitation lives in one
//! process. The invitee's My games, asked of either node, lists it;
//! joining through node 2 accepts it; the hourly limit is counted in the
//! store, so moving to the other node does not reset it.
//!
//! Needs PostgreSQL (`SPLENDOR_TEST_DATABASE_URL`, which `.ci/run` sets):
//! without it the test says SKIPPED and passes.

use serde_json::{Value, json};
use splendor_cluster::testing::Nats;
use splendor_e2e::TestClient;
use splendor_e2e::process::{ServerProcess, TestDatabase, http_get_with};

const SERVER: &str = env!("CARGO_BIN_EXE_splendor-server-e2e");

async fn node(db: &TestDatabase, nats: &Nats, id: &str) -> ServerProcess {
    let env = [
        ("SPLENDOR_NATS_URL", nats.url.as_str()),
        ("SPLENDOR_NODE_ID", id),
        ("SPLENDOR_LEASE_TTL", "4s"),
        ("SPLENDOR_MAX_INVITATIONS_PER_HOUR", "2"),
    ];
    ServerProcess::start_with_env(SERVER, &db.url, &env).await
}

/// A client with a new session on `node`, and its player_id.
async fn player(node: &ServerProcess, name: &str) -> (TestClient, String) {
    let mut client = TestClient::connect_to(node.addr(), name).await;
    let welcome = client.hello().await;
    (client, welcome.player_id)
}

async fn invitations(node: &ServerProcess, client: &TestClient) -> Vec<Value> {
    let auth = format!("Bearer {}", client.token.clone().unwrap());
    let (status, body) =
        http_get_with(node.addr(), "/api/me/games", &[("Authorization", &auth)]).await;
    assert_eq!(status, 200, "{body}");
    let games: Value = serde_json::from_str(&body).unwrap();
    games["invitations"].as_array().unwrap().clone()
}

#[tokio::test]
async fn an_invitation_made_through_one_node_is_listed_and_accepted_through_another() {
    let Some(db) = TestDatabase::postgres("invitations across nodes").await else {
        return;
    };
    let nats = Nats::start().await;
    let (one, two) = (node(&db, &nats, "1").await, node(&db, &nats, "2").await);
    // Ann's room runs on node 1; Cy, connected to node 2, sits in it and
    // invites: his request reaches the room on node 1.
    let (mut ann, _) = player(&one, "ann").await;
    let code = ann
        .request(json!({"type": "create", "seats": 4, "turn_based": {"per_move_s": 86_400}}))
        .await["code"]
        .as_str()
        .unwrap()
        .to_owned();
    let (mut cy, _) = player(&two, "cy").await;
    let joined = cy.request(json!({"type": "join", "code": code})).await;
    assert_eq!(joined["type"], "room", "{joined}");
    let (mut bob, bob_id) = player(&two, "bob").await;
    let (_dan, dan_id) = player(&one, "dan").await;
    let (_eve, eve_id) = player(&two, "eve").await;

    let invited = cy
        .request(json!({"type": "invite", "player_id": bob_id}))
        .await;
    assert_eq!(invited["type"], "invited", "{invited}");
    assert_eq!(
        (&invited["room"], &invited["name"]),
        (&json!(code), &json!("bob"))
    );
    // The room on node 1 checked the invitee is not seated there.
    let seated = cy
        .request(json!({"type": "invite", "player_id": bob_id}))
        .await;
    assert_eq!(seated["new"], false, "{seated}");

    // Bob's My games lists it on either node.
    for node in [&one, &two] {
        let listed = invitations(node, &bob).await;
        assert_eq!(listed.len(), 1, "{listed:?}");
        assert_eq!(listed[0]["room"], code.as_str());
        assert_eq!(listed[0]["from"]["name"], "cy");
    }
    // The hourly limit (2 here) holds across nodes: Cy's second
    // invitation is made, his third refused, and refused again once he
    // resumed his session on the other node.
    let second = cy
        .request(json!({"type": "invite", "player_id": dan_id}))
        .await;
    assert_eq!(second["type"], "invited", "{second}");
    let third = cy
        .request(json!({"type": "invite", "player_id": eve_id}))
        .await;
    assert_eq!(third["code"], "too_many_invitations", "{third}");
    let mut cy_again = TestClient::connect_to(one.addr(), "cy").await;
    cy_again.resume(&cy.token.clone().unwrap()).await;
    // A resume on node 1 takes the session (and its room) there; the
    // limit came along, from the store.
    let rejoined = cy_again
        .request(json!({"type": "join", "code": code}))
        .await;
    assert_eq!(rejoined["type"], "room", "{rejoined}");
    let fourth = cy_again
        .request(json!({"type": "invite", "player_id": eve_id}))
        .await;
    assert_eq!(fourth["code"], "too_many_invitations", "{fourth}");

    // Bob joins through node 2 (the room is on node 1): accepted, gone.
    let joined = bob.request(json!({"type": "join", "code": code})).await;
    assert_eq!(joined["type"], "room", "{joined}");
    let gone = loop {
        let listed = invitations(&one, &bob).await;
        if listed.is_empty() {
            break listed;
        }
        tokio::task::yield_now().await;
    };
    assert!(gone.is_empty());
    drop(ann);
}

/// `GET /api/bots/online` on `node`, by name.
async fn bots_online(node: &ServerProcess) -> Vec<String> {
    let (status, body) = http_get_with(node.addr(), "/api/bots/online", &[]).await;
    assert_eq!(status, 200, "{body}");
    let list: Value = serde_json::from_str(&body).unwrap();
    list["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_challenge_and_its_decline_cross_nodes_and_a_dead_nodes_programs_leave_the_list() {
    // Issue 24: a program connected to node 2 is listed online by node 1,
    // gets a challenge made on node 1 at once (through NATS), and the
    // challenger on node 1 hears its decline. Killed with node 2, it
    // leaves node 1's list when node 2's claim runs out.
    let Some(db) = TestDatabase::postgres("challenges across nodes").await else {
        return;
    };
    let nats = Nats::start().await;
    let (one, two) = (node(&db, &nats, "1").await, node(&db, &nats, "2").await);
    let mut gem = TestClient::connect_to(two.addr(), "gem").await;
    let welcome = gem
        .request(json!({"type": "hello", "name": "gem", "bot": true, "challenges": true}))
        .await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    let gem_id = welcome["player_id"].as_str().unwrap().to_owned();
    assert_eq!(bots_online(&one).await, ["gem"]);
    // A program of that name on node 1 is refused: names are unique in the
    // database, not per node.
    let mut other = TestClient::connect_to(one.addr(), "gem").await;
    let refused = other
        .request(json!({"type": "hello", "name": "GEM", "bot": true}))
        .await;
    assert_eq!(refused["code"], "name_taken", "{refused}");

    let (mut ann, _) = player(&one, "ann").await;
    ann.request(json!({"type": "create", "seats": 2})).await;
    let invited = ann
        .request(json!({"type": "invite", "player_id": gem_id}))
        .await;
    assert_eq!(invited["type"], "invited", "{invited}");
    let challenge = gem.recv_type("challenge").await;
    assert_eq!(challenge["from"]["name"], "ann", "{challenge}");
    assert_eq!(challenge["terms"]["seats"], 2, "{challenge}");
    let declined = gem
        .request(
            json!({"type": "decline", "invitation": challenge["invitation"], "reason": "later"}),
        )
        .await;
    assert_eq!(declined["type"], "declined", "{declined}");
    let told = ann.recv_type("challenge_declined").await;
    assert_eq!(
        (&told["by"]["name"], &told["reason"]),
        (&json!("gem"), &json!("later")),
        "{told}"
    );

    // A challenge on the node the program is connected to reaches it once:
    // its node sends it to its own connection and tells the others, but
    // not itself again (the review saw every challenge twice).
    let mut near = TestClient::connect_to(two.addr(), "near").await;
    near.hello().await;
    near.request(json!({"type": "create", "seats": 2})).await;
    let invited = near
        .request(json!({"type": "invite", "player_id": gem_id}))
        .await;
    assert_eq!(invited["type"], "invited", "{invited}");
    let challenge = gem.recv_type("challenge").await;
    assert_eq!(challenge["from"]["name"], "near", "{challenge}");
    // NATS has long echoed by the time a second invitation went through it.
    let mut far = TestClient::connect_to(one.addr(), "far").await;
    far.hello().await;
    far.request(json!({"type": "create", "seats": 2})).await;
    far.request(json!({"type": "invite", "player_id": gem_id}))
        .await;
    let second = gem.recv_type("challenge").await;
    assert_eq!(
        second["from"]["name"], "far",
        "the first came twice: {second}"
    );

    // kill -9 of node 2: its rows stay in the database, but node 1 stops
    // listing them once node 2's claim runs out (4 s lease here).
    two.kill().await;
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(30);
    while !bots_online(&one).await.is_empty() {
        assert!(tokio::time::Instant::now() < deadline, "still listed");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    drop(gem);
}
