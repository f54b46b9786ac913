//! Trust among strangers (issue 46) against the real server on port 0:
//! each of the four defects of the hostile test, as it was found.
//!
//! - Sign-in: wrong passwords on one login from many addresses (client
//!   addresses through `X-Forwarded-For`, as behind HAProxy) never refuse
//!   its owner, and a login that exists answers as one that does not; an
//!   address refused for its own failures still lets a device of the
//!   session in; a thousand tries leave the hashing's memory bounded.
//! - Ratings: twelve throwaway sessions that resign at once feed nobody
//!   (R13.4); the cap per opponent and day is in the store's tests.
//! - Names: a ban of `*spammer*` refuses its look-alikes, a program's name
//!   is taken in every look-alike, a name many screens wide is refused,
//!   and a session's ban extends to its address's range.
//! - Webhooks: a host name is checked by what it resolves to, at saving and
//!   again at posting (a name rebound to this machine gets nothing), and
//!   other ports than 443 are refused.

use std::net::IpAddr;
use std::time::Duration;

use serde_json::{Value, json};
use splendor_e2e::hook::receiver;
use splendor_e2e::metric_value;
use splendor_e2e::process::http_request;
use splendor_e2e::{TestClient, TestDatabase, TestServer};
use splendor_server::config::{AdminOptions, AdminToken};
use splendor_server::{Config, TestNames};

const ADMIN: &str = "operators-only-0123456789";

macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(splendor_e2e::TestDatabase::sqlite()).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    if let Some(db) = splendor_e2e::TestDatabase::postgres(stringify!($name)).await {
                        super::$name(db).await;
                    }
                }
            )*
        }
    };
}

// Where the store counts (sign-in tries, ratings): on both backends.
on_both_backends!(
    nobody_can_lock_a_player_out_of_sign_in_nor_learn_which_logins_exist,
    a_farm_of_throwaway_sessions_that_resign_at_once_feeds_nobody,
);

fn config() -> Config {
    Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        client_ip_header: Some("x-forwarded-for".into()),
        ..Config::default()
    }
}

fn on(db: &TestDatabase, config: Config) -> Config {
    Config {
        database_url: Some(db.url.parse().expect("a database URL")),
        ..config
    }
}

/// An HTTP call with a JSON body, from `from` (`X-Forwarded-For`), with
/// `token` as the bearer when not empty.
async fn call(
    server: &TestServer,
    (method, path): (&str, &str),
    from: &str,
    token: &str,
    body: Value,
) -> (u16, Value) {
    let auth = format!("Bearer {token}");
    let mut headers = vec![
        ("X-Forwarded-For", from),
        ("Content-Type", "application/json"),
    ];
    if !token.is_empty() {
        headers.push(("Authorization", &auth));
    }
    let body = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    let (status, text) = http_request(server.addr(), method, path, &headers, &body).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

async fn login(server: &TestServer, from: &str, login: &str, password: &str) -> (u16, Value) {
    call(
        server,
        ("POST", "/api/login"),
        from,
        "",
        json!({"login": login, "password": password}),
    )
    .await
}

/// A new session with password `password` under `name`; its token.
async fn with_password(server: &TestServer, name: &str, password: &str) -> String {
    let mut client = TestClient::connect(server, name).await;
    let token = client.hello().await.token;
    let (status, got) = call(
        server,
        ("PUT", "/api/me/password"),
        "192.0.2.200",
        &token,
        json!({"login": name, "password": password}),
    )
    .await;
    assert_eq!(status, 200, "{got}");
    token
}

async fn nobody_can_lock_a_player_out_of_sign_in_nor_learn_which_logins_exist(db: TestDatabase) {
    let server = TestServer::start_with(on(&db, config())).await;
    let token = with_password(&server, "ann b", "correct horse").await;

    // Eight wrong tries on Ann's login from eight addresses, and eight on
    // a login nobody has: the same answer every time (before: Ann's login
    // answered 429 from the sixth try, the unknown one 401).
    let mut answers = Vec::new();
    for (i, name) in ["ann b", "nobody here"].iter().enumerate() {
        for n in 1..=8 {
            let from = format!("198.51.100.{}", i * 10 + n);
            let (status, got) = login(&server, &from, name, "wrong password").await;
            answers.push((status, got));
        }
    }
    let first = answers[0].clone();
    assert_eq!(first.0, 401, "{}", first.1);
    assert_eq!(first.1["error"], "wrong_login");
    for (status, got) in &answers {
        assert_eq!((*status, got), (first.0, &first.1));
    }
    // Ann, from an address that has not failed, gets in (slowed, never
    // refused; before: 429 for a minute).
    let (status, signed) = login(&server, "198.51.100.99", "ANN B", "correct horse").await;
    assert_eq!(status, 200, "{signed}");
    assert!(signed["token"].is_string(), "{signed}");

    // An address that failed five times itself is refused, right password
    // or not...
    for n in 0..5 {
        let (status, _) = login(&server, "203.0.113.7", &format!("guess {n}"), "nope nope").await;
        assert_eq!(status, 401);
    }
    let (status, got) = login(&server, "203.0.113.7", "ann b", "correct horse").await;
    assert_eq!(
        (status, &got["error"]),
        (429, &json!("too_many_tries")),
        "{got}"
    );
    // ...but a device the session already holds always gets in.
    let (status, got) = call(
        &server,
        ("POST", "/api/login"),
        "203.0.113.7",
        &token,
        json!({"login": "ann b", "password": "correct horse"}),
    )
    .await;
    assert_eq!(status, 200, "{got}");
}

/// The resident memory of this process (the server runs in it), in bytes.
fn rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS");
    kib * 1024
}

#[tokio::test]
async fn a_thousand_password_tries_leave_the_hashing_memory_bounded() {
    let server = TestServer::start_with(config()).await;
    with_password(&server, "memo", "correct horse").await;
    let before = rss();
    // Eight at a time, from a thousand addresses, on a thousand logins:
    // nothing is throttled, every try is a whole argon2 verification.
    let mut done = 0;
    while done < 1_000 {
        let batch: Vec<_> = (done..done + 8)
            .map(|n| {
                let from = format!("10.{}.{}.1", n / 250, n % 250);
                let name = format!("user {n}");
                let server = &server;
                async move { login(server, &from, &name, "wrong password").await }
            })
            .collect();
        for (status, got) in futures_util::future::join_all(batch).await {
            assert_eq!(status, 401, "{got}");
        }
        done += 8;
    }
    let after = rss();
    let grown = after.saturating_sub(before);
    eprintln!(
        "RSS before {} MiB, after 1,000 tries {} MiB",
        before >> 20,
        after >> 20
    );
    assert!(
        grown < 64 << 20,
        "hashing grew the process by {} MiB",
        grown >> 20
    );
}

async fn admin_server() -> TestServer {
    TestServer::start_with(Config {
        admin: AdminOptions {
            admin_token: Some(AdminToken::new(ADMIN).expect("a token")),
            admin_token_file: None,
        },
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        ..Config::default()
    })
    .await
}

async fn ban(server: &TestServer, body: Value) -> (u16, Value) {
    let auth = format!("Bearer {ADMIN}");
    let (status, text) = http_request(
        server.addr(),
        "POST",
        "/api/admin/bans",
        &[
            ("Authorization", &auth),
            ("Content-Type", "application/json"),
        ],
        &body.to_string(),
    )
    .await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

async fn hello(server: &TestServer, message: Value) -> Value {
    let mut client = TestClient::connect(server, "x").await;
    client.request(message).await
}

#[tokio::test]
async fn look_alike_names_are_one_name_and_wide_names_are_refused() {
    let server = admin_server().await;
    let (status, made) = ban(
        &server,
        json!({"kind": "name", "value": "*spammer*", "reason": "spam"}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    for name in [
        "SPAMMER",
        "\u{0455}pammer",
        "sp\u{0430}mmer",
        "ｓｐａｍｍｅｒ",
        "𝐬𝐩𝐚𝐦𝐦𝐞𝐫",
        "sp ammer",
        "s.pammer",
        "s\u{1E55}ammer",
    ] {
        let refused = hello(&server, json!({"type": "hello", "name": name})).await;
        assert_eq!(refused["code"], "banned", "{name:?}: {refused}");
    }
    let fine = hello(&server, json!({"type": "hello", "name": "spanner"})).await;
    assert_eq!(fine["type"], "welcome", "{fine}");

    // Names many screens wide (before: 24 copies of U+FDFD were taken).
    for name in [
        "\u{FDFD}".repeat(24),
        "\u{1242B}".repeat(24),
        "w".repeat(21),
    ] {
        let refused = hello(&server, json!({"type": "hello", "name": name})).await;
        assert_eq!(refused["code"], "invalid_name", "{refused}");
    }

    // A program's name is taken in every look-alike.
    let gem = hello(
        &server,
        json!({"type": "hello", "name": "Gem-Bot", "bot": true}),
    )
    .await;
    assert_eq!(gem["type"], "welcome", "{gem}");
    for alike in ["gem bot", "G\u{0435}m-B\u{043E}t", "ＧＥＭＢＯＴ"] {
        let taken = hello(
            &server,
            json!({"type": "hello", "name": alike, "bot": true}),
        )
        .await;
        assert_eq!(taken["code"], "name_taken", "{alike:?}: {taken}");
    }
}

#[tokio::test]
async fn a_sessions_ban_extends_to_its_address_range_on_request() {
    let server = admin_server().await;
    let welcome = hello(&server, json!({"type": "hello", "name": "bob"})).await;
    let session = welcome["session"].as_str().unwrap().to_owned();
    // Only a session's ban extends; a refusal makes nothing.
    let (status, got) = ban(
        &server,
        json!({"kind": "name", "value": "bobby", "reason": "x", "address_range": true}),
    )
    .await;
    assert_eq!(status, 400, "{got}");
    let auth = format!("Bearer {ADMIN}");
    let listed = || async {
        let (_, text) = http_request(
            server.addr(),
            "GET",
            "/api/admin/bans",
            &[("Authorization", &auth)],
            "",
        )
        .await;
        serde_json::from_str::<Value>(&text).unwrap()["bans"]
            .as_array()
            .unwrap()
            .len()
    };
    assert_eq!(listed().await, 0);
    // Before, a banned player came back with a new session.
    let (status, made) = ban(
        &server,
        json!({"kind": "session", "value": session, "reason": "abuse", "minutes": 60, "address_range": true}),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["range_ban"]["kind"], "address", "{made}");
    assert_eq!(made["range_ban"]["value"], "127.0.0.0/24", "{made}");
    assert_eq!(listed().await, 2);
    let again = hello(&server, json!({"type": "hello", "name": "bob two"})).await;
    assert_eq!(again["code"], "banned", "{again}");
}

async fn settings(server: &TestServer, token: &str, webhook: &str) -> (u16, Value) {
    let auth = format!("Bearer {token}");
    let (status, text) = http_request(
        server.addr(),
        "PUT",
        "/api/me/notifications",
        &[
            ("Authorization", &auth),
            ("Content-Type", "application/json"),
        ],
        &json!({"events": ["your_turn", "chat", "game_over"], "webhook": webhook}).to_string(),
    )
    .await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Ann and Bob in a turn-based game; Bob is away and wants to be told:
/// Ann moves, writes and resigns (three notices for Bob).
async fn notices_for_bob(server: &TestServer, bob_token: &str) {
    let mut ann = TestClient::join_server(server, "ann").await;
    let mut bob = TestClient::connect(server, "bob").await;
    bob.resume(bob_token).await;
    let room = ann
        .request(json!({"type": "create", "seats": 2, "turn_based": {"per_move_s": 86_400}}))
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    ann.request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    bob.request(json!({"type": "leave"})).await;
    let state = ann.state().await;
    let action = state.legal_actions.unwrap()[0].clone();
    ann.request(json!({"type": "act", "action": action, "expect_version": 0}))
        .await;
    ann.request(json!({"type": "chat", "text": "your move"}))
        .await;
    ann.request(json!({"type": "resign"})).await;
}

/// Waits until the server counts `n` notices under `reason`.
async fn counted(server: &TestServer, reason: &str, n: f64) {
    let series = format!("splendor_notices_total{{reason=\"{reason}\"}}");
    tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            let (_, text) = server.http_get("/metrics").await;
            if metric_value(&text, &series) >= n {
                return;
            }
            tokio::task::yield_now().await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("{n} notices counted as {reason}"));
}

#[tokio::test]
async fn a_webhook_goes_only_to_public_addresses_looked_up_when_it_is_posted() {
    let names = TestNames::default();
    // A receiver on this machine, which the server must never reach.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = TestServer::start_with(Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        webhook_ports: vec![port],
        test_names: Some(names.clone()),
        ..Config::default()
    })
    .await;
    let mut bob = TestClient::connect(&server, "bob").await;
    let bob_token = bob.hello().await.token;
    drop(bob);
    let public: IpAddr = "93.184.216.34".parse().unwrap();
    names.set(
        "metadata.google.internal",
        vec!["169.254.169.254".parse().unwrap()],
    );
    names.set("hooks.test", vec![public]);
    // Refused when saved, each with its reason (before: all taken).
    for (url, says) in [
        (
            "https://metadata.google.internal/computeMetadata/v1/",
            "resolves to 169.254.169.254",
        ),
        ("https://192.88.99.1/x", "public address"),
        ("https://1.1.1.1:6379/x", "port 443"),
        ("https://hooks.test:8443/x", "port 443"),
    ] {
        let (status, got) = settings(&server, &bob_token, url).await;
        assert_eq!(status, 400, "{url}: {got}");
        assert!(
            got["message"].as_str().unwrap().contains(says),
            "{url}: {got}"
        );
    }
    // A public name is kept; then it is rebound to this machine (DNS
    // rebinding): the deliveries look it up again and post nothing.
    let url = format!("https://hooks.test:{port}/hook");
    let (status, set) = settings(&server, &bob_token, &url).await;
    assert_eq!(status, 200, "{set}");
    names.set("hooks.test", vec!["127.0.0.1".parse().unwrap()]);
    notices_for_bob(&server, &bob_token).await;
    counted(&server, "failed", 3.0).await;
    let accepted = tokio::time::timeout(Duration::from_millis(1), listener.accept()).await;
    assert!(accepted.is_err(), "the server connected to this machine");
}

#[tokio::test]
async fn a_webhooks_host_is_resolved_once_and_posted_to_at_that_address() {
    // A server allowed private addresses (as tests are): the name the
    // test resolves to its receiver is where the post goes.
    let names = TestNames::default();
    let (url, mut deliveries) = receiver().await;
    let port = url.rsplit(':').next().unwrap().trim_end_matches("/hook");
    names.set("hooks.test", vec!["127.0.0.1".parse().unwrap()]);
    let server = TestServer::start_with(Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        webhook_allow_private: true,
        test_names: Some(names),
        ..Config::default()
    })
    .await;
    let mut bob = TestClient::connect(&server, "bob").await;
    let bob_token = bob.hello().await.token;
    drop(bob);
    let (status, set) = settings(
        &server,
        &bob_token,
        &format!("http://hooks.test:{port}/hook"),
    )
    .await;
    assert_eq!(status, 200, "{set}");
    notices_for_bob(&server, &bob_token).await;
    let delivery = tokio::time::timeout(Duration::from_secs(10), deliveries.recv())
        .await
        .expect("a delivery in time")
        .expect("the receiver runs");
    assert!(!delivery.body.is_empty());
}

/// A rated room of two: `a` creates, `b` joins, `a` starts; both get the
/// first state. The room's code.
async fn rated_table(a: &mut TestClient, b: &mut TestClient) -> String {
    let room = a
        .request(json!({"type": "create", "seats": 2, "rated": true}))
        .await;
    assert_eq!(room["rated"], true, "{room}");
    let code = room["code"].as_str().unwrap().to_owned();
    b.request(json!({"type": "join", "code": code})).await;
    a.request(json!({"type": "start"})).await;
    code
}

async fn a_farm_of_throwaway_sessions_that_resign_at_once_feeds_nobody(db: TestDatabase) {
    let server = TestServer::start_with(on(
        &db,
        Config {
            max_messages_per_second: 10_000,
            message_burst: 10_000,
            bot_delay_ms: 0,
            ..Config::default()
        },
    ))
    .await;
    let mut throwaways = Vec::new();
    for n in 0..12 {
        let mut client = TestClient::connect(&server, "t").await;
        let welcome = client
            .request(json!({"type": "hello", "name": format!("throwaway {n}")}))
            .await;
        throwaways.push((client, welcome["player_id"].as_str().unwrap().to_owned()));
    }
    // Thirty games among themselves, each resigned at once (the hostile
    // test's way to five "established" games each in 2.8 s).
    for g in 0..30 {
        let (i, j) = (g % 12, (g + 1 + g / 12) % 12);
        let (i, j) = (i.min(j), i.max(j));
        let (left, right) = throwaways.split_at_mut(j);
        let (a, b) = (&mut left[i].0, &mut right[0].0);
        rated_table(a, b).await;
        a.request(json!({"type": "resign"})).await;
        a.recv_type("result").await;
        b.recv_type("result").await;
        a.request(json!({"type": "leave"})).await;
        b.request(json!({"type": "leave"})).await;
    }
    // The farmer then beats each (each resigns at once).
    let mut farmer = TestClient::connect(&server, "farmer").await;
    let farmer_id = farmer
        .request(json!({"type": "hello", "name": "farmer"}))
        .await["player_id"]
        .as_str()
        .unwrap()
        .to_owned();
    for (throwaway, _) in &mut throwaways {
        rated_table(&mut farmer, throwaway).await;
        throwaway.request(json!({"type": "resign"})).await;
        farmer.recv_type("result").await;
        farmer.request(json!({"type": "leave"})).await;
        throwaway.request(json!({"type": "leave"})).await;
    }
    // Before: 1500 to 2018.8, first on the leaderboard. Now (R13.4) no
    // game was rated: nobody has a rating, nobody an established count.
    let (status, body) = server.http_get(&format!("/api/players/{farmer_id}")).await;
    if status == 200 {
        let farmer: Value = serde_json::from_str(&body).unwrap();
        let rating = farmer["rating"].as_f64().unwrap();
        assert!((rating - 1500.0).abs() <= 50.0, "{farmer}");
    } else {
        assert_eq!(status, 404, "{body}");
    }
    for (_, id) in &throwaways {
        let (status, body) = server.http_get(&format!("/api/players/{id}")).await;
        assert_eq!(status, 404, "no rated game counts for {id}: {body}");
    }
    let (_, board) = server.http_get("/api/leaderboard?kind=humans").await;
    let board: Value = serde_json::from_str(&board).unwrap();
    assert_eq!(board["total"], 0, "{board}");
}

/// A name taken before names were held to 20 columns stays its session's
/// (a program's kit says its name again at every resume), but a new name,
/// or a rename, is held to the width.
#[tokio::test]
async fn a_name_from_before_the_width_cap_stays_but_a_new_one_is_held_to_it() {
    let db = TestDatabase::sqlite();
    let wide = "x".repeat(22);
    let server = TestServer::start_with(on(
        &db,
        Config {
            max_name_width: 24,
            ..config()
        },
    ))
    .await;
    let welcome = hello(&server, json!({"type": "hello", "name": wide, "bot": true})).await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    let token = welcome["token"].as_str().unwrap().to_owned();
    server.shutdown().await.unwrap();
    let server = TestServer::start_with(on(&db, config())).await;
    let again = hello(
        &server,
        json!({"type": "hello", "name": wide, "token": token, "bot": true}),
    )
    .await;
    assert_eq!(again["type"], "welcome", "{again}");
    assert_eq!(again["name"], wide.as_str());
    let renamed = hello(
        &server,
        json!({"type": "hello", "name": "y".repeat(21), "token": token}),
    )
    .await;
    assert_eq!(renamed["code"], "invalid_name", "{renamed}");
    let fresh = hello(&server, json!({"type": "hello", "name": wide})).await;
    assert_eq!(fresh["code"], "invalid_name", "{fresh}");
}
