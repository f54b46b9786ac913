//! Identity on every device across nodes (issue 23), with real processes
//! on one PostgreSQL database and a `nats-server` of the test's own: a
//! link made through node 1 is used through node 2, and once only; the
//! phone plays through node 2 while the laptop stays connected to node 1;
//! the seat of a room that runs on node 1 follows the device that joins,
//! and the laptop's node does not take the room for closed when its
//! connection is let go (it joins back); a token signed out through node 1
//! has its connection on node 2 closed (4007) at once; password tries are
//! counted across the nodes together.
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

async fn call(
    node: &ServerProcess,
    method: &str,
    path: &str,
    token: &str,
    body: Value,
) -> (u16, Value) {
    let auth = format!("Bearer {token}");
    let headers: Vec<(&str, &str)> = if token.is_empty() {
        Vec::new()
    } else {
        vec![("Authorization", auth.as_str())]
    };
    let body = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    let (status, text) = http_request(node.addr(), method, path, &headers, &body).await;
    let value = serde_json::from_str(&text).unwrap_or(Value::Null);
    (status, value)
}

#[tokio::test]
async fn a_device_carried_through_one_node_plays_through_another_and_is_signed_out_from_the_first()
{
    let Some(db) = TestDatabase::postgres("identity across nodes").await else {
        return;
    };
    let nats = Nats::start().await;
    let (one, two) = (node(&db, &nats, "1").await, node(&db, &nats, "2").await);

    // Ann's laptop is on node 1, in a room that runs there, with Bob.
    let mut laptop = TestClient::connect_to(one.addr(), "ann").await;
    let welcome = laptop.hello().await;
    let first = welcome.token.clone();
    let room = laptop.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    let mut bob = TestClient::connect_to(one.addr(), "bob").await;
    bob.hello().await;
    assert_eq!(
        bob.request(json!({"type": "join", "code": code})).await["type"],
        "room"
    );

    // A link made through node 1, used through node 2 (once).
    let (status, link) = call(&one, "POST", "/api/me/devices/link", &first, Value::Null).await;
    assert_eq!(status, 200, "{link}");
    let claim = json!({"code": link["code"]});
    let (status, signed) = call(&two, "POST", "/api/devices/claim", "", claim.clone()).await;
    assert_eq!(status, 200, "{signed}");
    let (status, again) = call(&one, "POST", "/api/devices/claim", "", claim).await;
    assert_eq!((status, &again["error"]), (404, &json!("link_not_found")));
    let phone_token = signed["token"].as_str().unwrap().to_owned();

    // The phone on node 2 takes Ann's seat in the room on node 1; the
    // laptop is told, and stays connected.
    let mut phone = TestClient::connect_to(two.addr(), "ann's phone").await;
    let resumed = phone.resume(&phone_token).await;
    assert_eq!(resumed.session, welcome.session);
    let joined = phone.request(json!({"type": "join", "code": code})).await;
    assert_eq!(joined["type"], "room", "{joined}");
    let told = laptop.recv_type("room_closed").await;
    assert_eq!(told["room"], code.as_str(), "{told}");
    // The laptop takes the seat back: node 1 did not mark the room closed;
    // and the phone, on node 2, joins again too (node 2 neither).
    let back = laptop.request(json!({"type": "join", "code": code})).await;
    assert_eq!(back["type"], "room", "{back}");
    phone.recv_type("room_closed").await;
    let again = phone.request(json!({"type": "join", "code": code})).await;
    assert_eq!(again["type"], "room", "{again}");
    laptop.recv_type("room_closed").await;

    // Signed out through node 1: the phone's connection on node 2 closes.
    let (_, devices) = call(&one, "GET", "/api/me/devices", &first, Value::Null).await;
    let phone_id = devices["devices"][1]["id"].as_str().unwrap().to_owned();
    let (status, _) = call(
        &one,
        "DELETE",
        &format!("/api/me/devices/{phone_id}"),
        &first,
        Value::Null,
    )
    .await;
    assert_eq!(status, 204);
    let (close, _) = phone.expect_close().await;
    assert_eq!(close, 4007);
    let mut stolen = TestClient::connect_to(two.addr(), "thief").await;
    let refused = stolen
        .request(json!({"type": "hello", "token": phone_token}))
        .await;
    assert_eq!(refused["code"], "invalid_token", "{refused}");

    // Failed sign-ins are counted in the store: five from this address
    // through the two nodes together, then 429 on either, even for the
    // right password (issue 46: an address's own failures refuse it).
    let (status, _) = call(
        &one,
        "PUT",
        "/api/me/password",
        &first,
        json!({"login": "ann", "password": "a long password"}),
    )
    .await;
    assert_eq!(status, 200);
    let wrong = json!({"login": "ann", "password": "not the password"});
    for n in 0..5 {
        let via = if n % 2 == 0 { &one } else { &two };
        let (status, got) = call(via, "POST", "/api/login", "", wrong.clone()).await;
        assert_eq!(status, 401, "try {n}: {got}");
    }
    let right = json!({"login": "ann", "password": "a long password"});
    let (status, got) = call(&two, "POST", "/api/login", "", right).await;
    assert_eq!(
        (status, &got["error"]),
        (429, &json!("too_many_tries")),
        "{got}"
    );
}
