//! Budgets for what a stranger can make the server hold (issue 45) against
//! the real server, client addresses through `X-Forwarded-For` as behind
//! HAProxy: fresh sessions from one address each starting a turn-based
//! game against a bot and leaving stop at the address's budget of
//! unfinished rooms (they filled the server's rooms in 27 s before), while
//! a bystander from another address still creates and plays; once the
//! server fills up, a crowded address gets a quarter of its budget; an
//! address the host lifted the per-address budgets for is not counted.

use serde_json::{Value, json};
use splendor_e2e::{TestClient, TestServer};
use splendor_server::Config;

fn config() -> Config {
    Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        client_ip_header: Some("x-forwarded-for".into()),
        max_rooms_per_ip: 6,
        // Each attacker's session is new: the per-session caps never bind.
        ..Config::default()
    }
}

/// A fresh session from `from` creates a turn-based game against a greedy
/// bot, starts it and leaves: the answer to its `create` or `start`.
async fn turn_based_and_leave(server: &TestServer, from: &str, n: usize) -> Value {
    let mut client =
        TestClient::connect_with_headers(server, &format!("t{n}"), &[("X-Forwarded-For", from)])
            .await
            .expect("connected");
    let welcome = client
        .request(json!({"type": "hello", "name": format!("turner {n}")}))
        .await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    let room = client
        .request(json!({"type": "create", "seats": 2, "turn_based": {"per_move_s": 1_209_600}}))
        .await;
    if room["type"] == "error" {
        return room;
    }
    let added = client
        .request(json!({"type": "add_bot", "level": "greedy"}))
        .await;
    assert_eq!(added["type"], "room", "{added}");
    let started = client.request(json!({"type": "start"})).await;
    if started["type"] == "error" {
        return started;
    }
    client.request(json!({"type": "leave"})).await;
    room
}

#[tokio::test]
async fn turn_based_games_from_one_address_stop_at_its_budget_and_a_bystander_plays() {
    let server = TestServer::start_with(config()).await;
    let mut made = 0;
    let refused = loop {
        let answer = turn_based_and_leave(&server, "198.51.100.7", made).await;
        if answer["type"] == "error" {
            break answer;
        }
        made += 1;
        assert!(made <= 6, "past the budget: {answer}");
    };
    assert_eq!(made, 6);
    assert_eq!(refused["code"], "too_many_rooms_from_address", "{refused}");
    assert!(
        refused["message"].as_str().unwrap().contains('6'),
        "{refused}"
    );
    // A bystander from another address creates and starts a game.
    let answer = turn_based_and_leave(&server, "203.0.113.5", 100).await;
    assert_eq!(answer["type"], "room", "{answer}");
}

#[tokio::test]
async fn a_crowded_address_gets_a_quarter_of_its_budget_once_the_server_fills_up() {
    // Room for 10: at 8 the server counts as filling up.
    let server = TestServer::start_with(Config {
        max_rooms: 10,
        max_rooms_per_ip: 8,
        ..config()
    })
    .await;
    // Eight addresses make a room each: the server is four fifths full.
    for n in 0..8 {
        let answer = turn_based_and_leave(&server, &format!("198.51.100.{n}"), n).await;
        assert_eq!(answer["type"], "room", "{answer}");
    }
    // An address with two rooms already is refused (a quarter of 8), one
    // with a single room is not.
    let second = turn_based_and_leave(&server, "198.51.100.0", 20).await;
    assert_eq!(second["type"], "room", "{second}");
    let third = turn_based_and_leave(&server, "198.51.100.0", 21).await;
    assert_eq!(third["code"], "too_many_rooms_from_address", "{third}");
    assert!(third["message"].as_str().unwrap().contains('2'), "{third}");
}

#[tokio::test]
async fn an_address_the_host_lifted_the_budgets_for_is_not_counted() {
    let server = TestServer::start_with(Config {
        max_rooms_per_ip: 2,
        unlimited_addresses: vec!["198.51.100.0/24".parse().unwrap()],
        ..config()
    })
    .await;
    for n in 0..5 {
        let answer = turn_based_and_leave(&server, "198.51.100.9", n).await;
        assert_eq!(answer["type"], "room", "{answer}");
    }
    for n in 10..12 {
        let answer = turn_based_and_leave(&server, "203.0.113.9", n).await;
        assert_eq!(answer["type"], "room", "{answer}");
    }
    let refused = turn_based_and_leave(&server, "203.0.113.9", 12).await;
    assert_eq!(refused["code"], "too_many_rooms_from_address", "{refused}");
}

/// Issue 45, sessions per address: a `hello` without a token makes a
/// session and costs nothing, so one address makes at most so many an
/// hour (counted in the store, on every node together). Past it a new
/// player is refused `too_many_sessions` with `retry_after_ms` and nothing
/// is made; a session of that address resumes with its token as before;
/// another address, and a lifted one, make theirs.
#[tokio::test]
async fn one_address_makes_so_many_sessions_an_hour_and_resuming_is_never_refused() {
    let db = splendor_e2e::TestDatabase::sqlite();
    let server = TestServer::start_with(Config {
        max_sessions_per_ip_per_hour: 20,
        database_url: Some(db.url.parse().expect("a database URL")),
        unlimited_addresses: vec!["192.0.2.0/24".parse().expect("a range")],
        ..config()
    })
    .await;
    let hello = |from: &'static str, body: Value| {
        let server = &server;
        async move {
            let mut client =
                TestClient::connect_with_headers(server, "s", &[("X-Forwarded-For", from)])
                    .await
                    .expect("connected");
            let answer = client.request(body).await;
            // Closed before the next: the address's open connections stay
            // under their own budget.
            client.disconnect().await;
            ((), answer)
        }
    };
    let mut first_token = None;
    for n in 0..20 {
        let (_, welcome) = hello(
            "203.0.113.9",
            json!({"type": "hello", "name": format!("p{n}")}),
        )
        .await;
        assert_eq!(welcome["type"], "welcome", "{n}: {welcome}");
        first_token.get_or_insert_with(|| welcome["token"].as_str().unwrap().to_owned());
    }
    // The 21st new player of the hour is refused, said when to come back.
    let (_, refused) = hello("203.0.113.9", json!({"type": "hello", "name": "p20"})).await;
    assert_eq!(refused["code"], "too_many_sessions", "{refused}");
    let wait = refused["retry_after_ms"].as_u64().expect("retry_after_ms");
    assert!(wait > 3_000_000 && wait <= 3_600_000, "{refused}");
    assert!(
        refused["message"].as_str().unwrap().contains("20"),
        "{refused}"
    );
    // A player of that address comes back with their token.
    let token = first_token.expect("a token");
    let (_, resumed) = hello("203.0.113.9", json!({"type": "hello", "token": token})).await;
    assert_eq!(resumed["type"], "welcome", "{resumed}");
    assert_eq!(resumed["resumed"], true, "{resumed}");
    // Another address, and a range the host lifted the budgets for.
    let (_, other) = hello("198.51.100.40", json!({"type": "hello", "name": "q"})).await;
    assert_eq!(other["type"], "welcome", "{other}");
    for n in 0..25 {
        let (_, lifted) = hello(
            "192.0.2.8",
            json!({"type": "hello", "name": format!("r{n}")}),
        )
        .await;
        assert_eq!(lifted["type"], "welcome", "{lifted}");
    }
}
