//! What a host relies on: readiness, metrics, the limits of a public server,
//! allowed origins, heartbeats, and a bounded shutdown. Each test drives a
//! real server over real sockets with tiny timers where time matters, and
//! waits for the specific answer or close, never for time to pass.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use splendor_e2e::{SAFETY_TIMEOUT, TestClient, TestServer};
use splendor_lobby::session::BoxFuture;
use splendor_server::{AppState, Backend, Config, Storage};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn assert_error(reply: &Value, code: &str) {
    assert_eq!(reply["type"], "error", "{reply}");
    assert_eq!(reply["code"], code, "{reply}");
    assert!(
        reply["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{reply}"
    );
}

/// A room of two started: (host, guest, room code).
async fn two_player_game(server: &TestServer) -> (TestClient, TestClient, String) {
    let mut ann = TestClient::join_server(server, "ann").await;
    let mut bob = TestClient::join_server(server, "bob").await;
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    let joined = bob.request(json!({"type": "join", "code": code})).await;
    assert_eq!(joined["type"], "room", "{joined}");
    let started = ann
        .request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    assert_eq!(started["status"], "playing", "{started}");
    (ann, bob, code)
}

/// Plays `moves` legal actions from `version` (players in seat order);
/// returns the new version and how long each move took to be answered.
async fn play(players: &mut [TestClient], mut version: u64, moves: usize) -> (u64, Vec<Duration>) {
    let mut took = Vec::new();
    for _ in 0..moves {
        let mut actor = None;
        for (i, p) in players.iter_mut().enumerate() {
            let state = p.state_at(version).await;
            if let Some(legal) = state.legal_actions {
                actor = Some((i, legal));
            }
        }
        let Some((i, legal)) = actor else { break };
        // A purchase when there is one (so that games move on), else the first.
        let action = legal
            .iter()
            .find(|a| matches!(a, splendor_protocol::WireAction::Buy(_)))
            .unwrap_or(&legal[0])
            .clone();
        let sent = Instant::now();
        let reply = players[i]
            .request(json!({"type": "act", "action": action, "expect_version": version}))
            .await;
        took.push(sent.elapsed());
        assert_eq!(reply["type"], "events", "{reply}");
        version += 1;
    }
    (version, took)
}

// ---- readiness and metrics ----------------------------------------------

/// A storage whose database can be switched off, and whose close can hang.
#[derive(Default)]
struct FakeStorage {
    down: AtomicBool,
    hang_on_close: AtomicBool,
    closed: AtomicBool,
}

impl Storage for FakeStorage {
    fn ping(&self) -> BoxFuture<'_, Result<(), String>> {
        Box::pin(async {
            if self.down.load(Ordering::SeqCst) {
                Err("connection refused (db.internal:5432)".into())
            } else {
                Ok(())
            }
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async {
            if self.hang_on_close.load(Ordering::SeqCst) {
                std::future::pending::<()>().await;
            }
            self.closed.store(true, Ordering::SeqCst);
        })
    }
}

fn state_with_storage(config: Config, storage: Arc<FakeStorage>) -> AppState {
    AppState::with_backend(
        config,
        Backend {
            storage: Some(storage),
            ..Backend::in_memory()
        },
    )
}

#[tokio::test]
async fn readiness_follows_the_database_and_the_shutdown() {
    let storage = Arc::new(FakeStorage::default());
    let state = state_with_storage(Config::default(), storage.clone());
    let server = TestServer::start_with_state(state.clone()).await;
    assert_eq!(server.http_get("/readyz").await, (200, "ready\n".into()));
    storage.down.store(true, Ordering::SeqCst);
    let (status, body) = server.http_get("/readyz").await;
    assert_eq!(status, 503);
    assert!(!body.contains("db.internal"), "no internals leak: {body}");
    // Alive all the same: liveness is about the process, not its database.
    assert_eq!(server.http_get("/healthz").await.0, 200);
    storage.down.store(false, Ordering::SeqCst);
    assert_eq!(server.http_get("/readyz").await.0, 200);

    // Shutting down: not ready, no new WebSockets, still alive.
    let mut ann = TestClient::join_server(&server, "ann").await;
    state.shut_down();
    let (code, reason) = ann.expect_close().await;
    assert_eq!(code, 1012, "{reason}");
    assert_eq!(
        server.http_get("/readyz").await,
        (503, "shutting down\n".into())
    );
    assert_eq!(
        TestClient::connect_with_headers(&server, "late", &[])
            .await
            .err(),
        Some(503)
    );
    assert_eq!(server.http_get("/healthz").await.0, 200);
    assert_eq!(
        server
            .metric("splendor_connections_refused_total{reason=\"shutting_down\"}")
            .await,
        1.0
    );
    server.shutdown().await.unwrap();
    assert!(
        storage.closed.load(Ordering::SeqCst),
        "the storage was closed"
    );
}

#[tokio::test]
async fn metrics_count_connections_rooms_games_actions_and_rejections() {
    let server = TestServer::start().await;
    let (status, body) = server.http_get("/metrics").await;
    assert_eq!(status, 200);
    assert!(body.contains("# TYPE splendor_connections gauge"), "{body}");
    assert!(body.ends_with("# EOF\n"));

    let (ann, bob, _) = two_player_game(&server).await;
    let mut players = vec![ann, bob];
    let (version, _) = play(&mut players, 0, 4).await;
    // The player not to act tries anyway.
    let state = players[0].state_at(version).await;
    let idle = usize::from(state.to_act != Some(1));
    let reply = players[idle]
        .request(json!({"type": "act", "action": "pass", "expect_version": version}))
        .await;
    assert_eq!(reply["type"], "error", "{reply}");
    let code = reply["code"].as_str().unwrap().to_owned();
    let mut carl = TestClient::join_server(&server, "carl").await;
    let waiting = carl.request(json!({"type": "create"})).await;
    assert_eq!(waiting["type"], "room");

    let (_, text) = server.http_get("/metrics").await;
    let value = |series: &str| splendor_e2e::metric_value(&text, series);
    assert_eq!(value("splendor_connections"), 3.0, "{text}");
    assert_eq!(value("splendor_connections_accepted_total"), 3.0);
    assert_eq!(value("splendor_rooms{status=\"playing\"}"), 1.0);
    assert_eq!(value("splendor_rooms{status=\"waiting\"}"), 1.0);
    assert_eq!(value("splendor_rooms{status=\"finished\"}"), 0.0);
    assert_eq!(value("splendor_games_started_total"), 1.0);
    assert_eq!(value("splendor_games_finished_total"), 0.0);
    assert_eq!(value("splendor_actions_applied_total"), version as f64);
    assert_eq!(
        value(&format!(
            "splendor_intents_rejected_total{{code=\"{code}\"}}"
        )),
        1.0
    );
    assert_eq!(
        value("splendor_store_commit_seconds_count{op=\"action_applied\"}"),
        version as f64
    );
    assert_eq!(
        value("splendor_store_commit_seconds_count{op=\"game_started\"}"),
        1.0
    );
    // The server's own act-to-acknowledgement histogram: every act once,
    // its buckets cumulative up to `+Inf`, which is the count (they were
    // added up twice before, +Inf far above the count: the hostile soak
    // of issue 45 read it and found out).
    let acts = value("splendor_action_latency_seconds_count");
    assert_eq!(acts, (version + 1) as f64, "the acts and the refused one");
    let buckets: Vec<f64> = text
        .lines()
        .filter(|l| l.starts_with("splendor_action_latency_seconds_bucket"))
        .filter_map(|l| l.rsplit(' ').next()?.parse().ok())
        .collect();
    assert!(buckets.len() > 2, "{text}");
    assert!(buckets.windows(2).all(|w| w[0] <= w[1]), "{buckets:?}");
    assert_eq!(
        value("splendor_action_latency_seconds_bucket{le=\"+Inf\"}"),
        acts,
        "{text}"
    );
    // hello x3, create x2, join, start, 4 acts, the refused act.
    assert_eq!(value("splendor_messages_received_total"), 12.0);
    assert!(value("splendor_messages_sent_total") > 12.0);

    drop(carl);
    players.pop().unwrap().disconnect().await;
    server.shutdown().await.unwrap();
}

#[tokio::test]
async fn metrics_on_an_address_of_their_own_are_not_on_the_public_port() {
    let config = Config {
        metrics_listen: Some("127.0.0.1:0".parse().unwrap()),
        ..Config::default()
    };
    let state = AppState::new(config);
    let mut bound = state.metrics_addr_watch();
    let server = TestServer::start_with_state(state).await;
    let metrics = tokio::time::timeout(SAFETY_TIMEOUT, bound.wait_for(Option::is_some))
        .await
        .expect("the metrics address is bound in time")
        .unwrap()
        .expect("an address");
    assert_ne!(metrics, server.addr());
    let _ann = TestClient::join_server(&server, "ann").await;
    // The figures are there, and they are this server's.
    let (status, body) = splendor_e2e::http_get(metrics, "/metrics").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        splendor_e2e::metric_value(&body, "splendor_connections"),
        1.0
    );
    assert!(body.ends_with("# EOF\n"));
    // Not on the public port any more; everything else still is.
    assert_eq!(server.http_get("/metrics").await.0, 404);
    assert_eq!(server.http_get("/healthz").await.0, 200);
    // The metrics address serves nothing else.
    for path in ["/healthz", "/ws", "/api/rooms", "/"] {
        assert_eq!(splendor_e2e::http_get(metrics, path).await.0, 404, "{path}");
    }
    // A stop closes it too.
    server.shutdown().await.unwrap();
    assert!(
        TcpStream::connect(metrics).await.is_err(),
        "still listening"
    );
}

#[tokio::test]
async fn a_metrics_address_in_use_is_an_error_that_names_it() {
    let taken = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let config = Config {
        metrics_listen: Some(taken.local_addr().unwrap()),
        ..Config::default()
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let served = splendor_server::serve(listener, AppState::new(config), async {}).await;
    let error = served.unwrap_err().to_string();
    assert!(error.contains("--metrics-listen"), "{error}");
    assert!(
        error.contains(&taken.local_addr().unwrap().to_string()),
        "{error}"
    );
}

// ---- origins ------------------------------------------------------------

#[tokio::test]
async fn only_allowed_origins_may_open_a_websocket() {
    let config = Config {
        allowed_origins: vec!["https://play.example.org".parse().unwrap()],
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    let host = server.addr().to_string();
    let connect = |origin: Option<String>| {
        let server = &server;
        let host = host.clone();
        async move {
            let mut headers = vec![("Host", host)];
            if let Some(origin) = origin {
                headers.push(("Origin", origin));
            }
            let headers: Vec<(&str, &str)> =
                headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
            TestClient::connect_with_headers(server, "x", &headers)
                .await
                .map(|_| ())
        }
    };
    // Non-browser clients send no Origin.
    assert_eq!(connect(None).await, Ok(()));
    assert_eq!(
        connect(Some("https://play.example.org".into())).await,
        Ok(())
    );
    // A page served by this server itself.
    assert_eq!(connect(Some(format!("http://{host}"))).await, Ok(()));
    for refused in [
        "https://evil.example.com",
        "http://play.example.org",
        "https://play.example.org.evil.com",
        "null",
    ] {
        assert_eq!(connect(Some(refused.into())).await, Err(403), "{refused}");
    }
    assert_eq!(
        server
            .metric("splendor_connections_refused_total{reason=\"origin\"}")
            .await,
        4.0
    );
    server.shutdown().await.unwrap();

    // Same-origin can be switched off.
    let config = Config {
        allow_same_origin: false,
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    let origin = format!("http://{}", server.addr());
    let refused = TestClient::connect_with_headers(&server, "x", &[("Origin", &origin)]).await;
    assert_eq!(refused.err(), Some(403));
}

// ---- limits ---------------------------------------------------------------

#[tokio::test]
async fn connections_per_address_are_limited_and_freed_on_close() {
    let config = Config {
        max_connections_per_ip: 2,
        ..Config::default()
    };
    let state = AppState::new(config);
    let server = TestServer::start_with_state(state.clone()).await;
    let first = TestClient::join_server(&server, "one").await;
    let _second = TestClient::join_server(&server, "two").await;
    let third = TestClient::connect_with_headers(&server, "three", &[]).await;
    assert_eq!(third.err(), Some(429));
    assert_eq!(
        server
            .metric("splendor_connections_refused_total{reason=\"per_ip_limit\"}")
            .await,
        1.0
    );
    first.disconnect().await;
    let mut open = state.connections_watch();
    tokio::time::timeout(SAFETY_TIMEOUT, open.wait_for(|n| *n == 1))
        .await
        .unwrap()
        .unwrap();
    let mut again = TestClient::connect_with_headers(&server, "again", &[])
        .await
        .expect("a slot was freed");
    again.hello().await;
}

#[tokio::test]
async fn a_reconnect_loop_from_one_address_is_refused_past_the_connect_rate() {
    // Each connection closes before the next: the open-connection limit
    // never applies, only the rate of new ones does.
    let config = Config {
        max_connects_per_ip_per_minute: 3,
        client_ip_header: Some("x-forwarded-for".into()),
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    let from = |ip: &'static str| [("x-forwarded-for", ip)];
    for i in 0..3 {
        let mut client = TestClient::connect_with_headers(&server, "loop", &from("192.0.2.7"))
            .await
            .unwrap_or_else(|status| panic!("connection {i} refused with {status}"));
        client.hello().await;
        client.disconnect().await;
    }
    let refused = TestClient::connect_with_headers(&server, "loop", &from("192.0.2.7")).await;
    assert_eq!(refused.err(), Some(429));
    assert_eq!(
        server
            .metric("splendor_connections_refused_total{reason=\"connect_rate\"}")
            .await,
        1.0
    );
    // Another address is not affected.
    let mut other = TestClient::connect_with_headers(&server, "other", &from("192.0.2.8"))
        .await
        .expect("another address connects");
    other.hello().await;
}

/// Issue 45: a refusal over an address's budget is answered only after
/// the pause (`SPLENDOR_REFUSAL_PAUSE_MS`), so a client that waits for its
/// answers is slowed to one refusal a pause; nobody else waits meanwhile.
#[tokio::test]
async fn a_refusal_over_an_address_budget_is_answered_after_the_pause_and_nobody_else_waits() {
    let config = Config {
        max_connects_per_ip_per_minute: 1,
        client_ip_header: Some("x-forwarded-for".into()),
        // Longer than anything below takes: the refusal cannot be answered
        // before the other address is served.
        refusal_pause_ms: 60_000,
        ..Config::default()
    };
    let server = std::sync::Arc::new(TestServer::start_with(config).await);
    let from = |ip: &'static str| [("x-forwarded-for", ip)];
    let mut first = TestClient::connect_with_headers(&server, "loop", &from("192.0.2.7"))
        .await
        .expect("the first connection");
    first.hello().await;
    first.disconnect().await;
    let refused = tokio::spawn({
        let server = server.clone();
        async move {
            TestClient::connect_with_headers(&server, "loop", &from("192.0.2.7"))
                .await
                .err()
        }
    });
    // The refusal is counted as soon as it is decided, and held.
    server
        .wait_for_metric(
            "splendor_connections_refused_total{reason=\"connect_rate\"}",
            1.0,
        )
        .await;
    let mut other = TestClient::connect_with_headers(&server, "other", &from("192.0.2.8"))
        .await
        .expect("another address connects while the refusal is held");
    other.hello().await;
    assert!(
        !refused.is_finished(),
        "the refusal was answered before its pause"
    );
    refused.abort();

    // With no pause, the refusal is answered (429) as before.
    let config = Config {
        max_connects_per_ip_per_minute: 1,
        client_ip_header: Some("x-forwarded-for".into()),
        refusal_pause_ms: 0,
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    let mut first = TestClient::connect_with_headers(&server, "loop", &from("192.0.2.7"))
        .await
        .expect("the first connection");
    first.hello().await;
    first.disconnect().await;
    let refused = TestClient::connect_with_headers(&server, "loop", &from("192.0.2.7")).await;
    assert_eq!(refused.err(), Some(429));
}

#[tokio::test]
async fn connections_in_total_are_limited() {
    let config = Config {
        max_connections: 1,
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    let mut first = TestClient::join_server(&server, "one").await;
    let second = TestClient::connect_with_headers(&server, "two", &[]).await;
    assert_eq!(second.err(), Some(503));
    assert_eq!(
        server
            .metric("splendor_connections_refused_total{reason=\"server_full\"}")
            .await,
        1.0
    );
    assert_eq!(first.request(json!({"type": "ping"})).await["type"], "pong");
}

#[tokio::test]
async fn behind_a_proxy_the_client_address_comes_from_the_configured_header() {
    let config = Config {
        max_connections_per_ip: 1,
        client_ip_header: Some("X-Forwarded-For".into()),
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    // Both come from the proxy (127.0.0.1), for two different clients.
    let a = TestClient::connect_with_headers(&server, "a", &[("X-Forwarded-For", "198.51.100.1")])
        .await;
    let b = TestClient::connect_with_headers(
        &server,
        "b",
        &[("X-Forwarded-For", "203.0.113.9, 198.51.100.2")],
    )
    .await;
    assert!(a.is_ok() && b.is_ok());
    // The last address is the one the proxy saw; the first is the client's word.
    let again = TestClient::connect_with_headers(
        &server,
        "c",
        &[("X-Forwarded-For", "198.51.100.2, 198.51.100.1")],
    )
    .await;
    assert_eq!(again.err(), Some(429));
}

#[tokio::test]
async fn a_flooding_connection_gets_its_refusals_answered_then_is_closed() {
    // One message a second after a burst of 5: the flood arrives far faster
    // than a token comes back, even on a loaded machine.
    let config = Config {
        max_messages_per_second: 1,
        message_burst: 5,
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    let mut flood = TestClient::connect(&server, "flood").await;
    flood
        .send_many((0..50).map(|i| json!({"type": "ping", "id": i}).to_string()))
        .await;
    let (code, reason) = flood.expect_close().await;
    assert_eq!(code, 4003, "{reason}");
    let replies: Vec<Value> = flood
        .frames
        .iter()
        .map(|f| serde_json::from_str(f).unwrap())
        .collect();
    let pongs: Vec<&Value> = replies.iter().filter(|m| m["type"] == "pong").collect();
    let limited: Vec<&Value> = replies.iter().filter(|m| m["type"] == "error").collect();
    assert!(
        (5..=6).contains(&pongs.len()),
        "the burst is answered: {replies:?}"
    );
    // Every refusal until the close is answered (the burst, 5, is below
    // the bound on answers a second), each with its id and the wait.
    assert!(
        (4..=5).contains(&limited.len()),
        "each refusal answered: {replies:?}"
    );
    let first_refused = pongs.len();
    for (k, error) in limited.iter().enumerate() {
        assert_error(error, "rate_limited");
        assert_eq!(error["id"], json!(first_refused + k), "{error}");
        let wait = error["retry_after_ms"].as_u64().expect("retry_after_ms");
        assert!((1..=1000).contains(&wait), "{error}");
    }
    assert_eq!(
        server
            .metric("splendor_connections_closed_total{reason=\"rate_limited\"}")
            .await,
        1.0
    );
    // Others are not affected.
    let mut calm = TestClient::join_server(&server, "calm").await;
    assert_eq!(calm.request(json!({"type": "ping"})).await["type"], "pong");
}

#[tokio::test]
async fn a_client_that_waits_what_a_refusal_says_is_served_again() {
    let config = Config {
        // A token every 500 ms: the four pings arrive well within one.
        max_messages_per_second: 2,
        message_burst: 3,
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    let mut bot = TestClient::connect(&server, "bot").await;
    bot.send_many((0..4).map(|i| json!({"type": "ping", "id": i}).to_string()))
        .await;
    let refused = bot.recv_type("error").await;
    assert_error(&refused, "rate_limited");
    assert_eq!(refused["id"], json!(3));
    let wait = refused["retry_after_ms"].as_u64().expect("retry_after_ms");
    assert!((1..=500).contains(&wait), "{refused}");
    // Waiting exactly what was said is enough: the same message is handled.
    tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
    let pong = bot.request(json!({"type": "ping"})).await;
    assert_eq!(pong["type"], "pong", "{pong}");
}

#[tokio::test]
async fn frames_over_the_configured_size_are_refused_and_the_connection_stays() {
    let config = Config {
        max_frame_bytes: 200,
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let big = json!({"type": "ping", "pad": "x".repeat(300)}).to_string();
    ann.send_text(big).await;
    let reply = ann.recv_type("error").await;
    assert_error(&reply, "frame_too_large");
    assert!(
        reply["message"].as_str().unwrap().contains("200"),
        "{reply}"
    );
    assert_eq!(ann.request(json!({"type": "ping"})).await["type"], "pong");
}

#[tokio::test]
async fn rooms_per_session_and_rooms_in_total_are_limited() {
    let config = Config {
        max_rooms_per_session: 1,
        max_rooms: 2,
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    let room = ann.request(json!({"type": "create"})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    // Ann leaves; her room lives on with bob in it, and still counts as hers.
    assert_eq!(ann.request(json!({"type": "leave"})).await["type"], "left");
    let refused = ann.request(json!({"type": "create"})).await;
    assert_error(&refused, "too_many_session_rooms");
    // Total: carl takes the second room, dora finds none left.
    let mut carl = TestClient::join_server(&server, "carl").await;
    assert_eq!(
        carl.request(json!({"type": "create"})).await["type"],
        "room"
    );
    let mut dora = TestClient::join_server(&server, "dora").await;
    assert_error(
        &dora.request(json!({"type": "create"})).await,
        "too_many_rooms",
    );
}

/// Connects from `address` (through the proxy header), says hello as a new
/// session and creates a room; returns the client and the answer.
async fn create_from(server: &TestServer, name: &str, address: &str) -> (TestClient, Value) {
    let mut client =
        TestClient::connect_with_headers(server, name, &[("X-Forwarded-For", address)])
            .await
            .expect("connected");
    client.hello().await;
    let reply = client.request(json!({"type": "create", "seats": 2})).await;
    (client, reply)
}

#[tokio::test]
async fn one_address_cannot_fill_the_server_with_waiting_rooms() {
    let config = Config {
        max_waiting_rooms_per_ip: 2,
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    // Ann waits in her room; the second room's creator walks away, as a
    // client looping connect, hello, create, disconnect would.
    let mut ann = TestClient::join_server(&server, "ann").await;
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    assert_eq!(room["type"], "room", "{room}");
    let mut gone = TestClient::join_server(&server, "gone").await;
    assert_eq!(
        gone.request(json!({"type": "create"})).await["type"],
        "room"
    );
    gone.disconnect().await;
    // A third session from the same address is refused, and nothing changes.
    let mut third = TestClient::join_server(&server, "third").await;
    let refused = third.request(json!({"type": "create"})).await;
    assert_error(&refused, "too_many_rooms_from_address");
    assert!(
        refused["message"].as_str().unwrap().contains('2'),
        "{refused}"
    );
    assert_eq!(
        server.metric("splendor_rooms{status=\"waiting\"}").await,
        2.0
    );
    assert_eq!(
        server
            .metric("splendor_intents_rejected_total{code=\"too_many_rooms_from_address\"}")
            .await,
        1.0
    );
    // Once ann's game starts, her room no longer counts as waiting.
    let mut bob = TestClient::join_server(&server, "bob").await;
    bob.request(json!({"type": "join", "code": room["code"]}))
        .await;
    let started = ann.request(json!({"type": "start"})).await;
    assert_eq!(started["status"], "playing", "{started}");
    let created = third.request(json!({"type": "create"})).await;
    assert_eq!(created["type"], "room", "{created}");
}

#[tokio::test]
async fn waiting_rooms_are_counted_per_client_address_behind_a_proxy_and_per_64_in_ipv6() {
    let config = Config {
        max_waiting_rooms_per_ip: 1,
        client_ip_header: Some("X-Forwarded-For".into()),
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    let (_a, first) = create_from(&server, "a", "198.51.100.1").await;
    assert_eq!(first["type"], "room", "{first}");
    let (_b, refused) = create_from(&server, "b", "198.51.100.1").await;
    assert_error(&refused, "too_many_rooms_from_address");
    // Another client behind the same proxy is not affected.
    let (_c, other) = create_from(&server, "c", "203.0.113.9").await;
    assert_eq!(other["type"], "room", "{other}");
    // One IPv6 /64 is one client; the next /64 is another.
    let (_d, v6) = create_from(&server, "d", "2001:db8:1:2::1").await;
    assert_eq!(v6["type"], "room", "{v6}");
    let (_e, same_64) = create_from(&server, "e", "[2001:db8:1:2:ffff::9]:4711").await;
    assert_error(&same_64, "too_many_rooms_from_address");
    let (_f, next_64) = create_from(&server, "f", "2001:db8:1:3::1").await;
    assert_eq!(next_64["type"], "room", "{next_64}");
}

#[tokio::test]
async fn an_abandoned_waiting_room_closes_after_the_grace_and_frees_its_slot() {
    let config = Config {
        max_waiting_rooms_per_ip: 2,
        empty_room_ttl: Duration::from_millis(200),
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    // Ann stays connected in her room: the grace does not apply to it.
    let mut ann = TestClient::join_server(&server, "ann").await;
    let kept = ann.request(json!({"type": "create", "seats": 2})).await;
    let mut gone = TestClient::join_server(&server, "gone").await;
    let room = gone.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    let mut watcher = TestClient::join_server(&server, "watcher").await;
    watcher
        .request(json!({"type": "join", "code": code, "as": "spectator"}))
        .await;
    gone.disconnect().await;
    let closed = watcher.recv_type("room_closed").await;
    assert_eq!(closed["room"], code.as_str());
    assert!(
        closed["reason"].as_str().unwrap().contains("no player"),
        "{closed}"
    );
    // Its slot is free again; ann's room, older than the grace, is open.
    let mut next = TestClient::join_server(&server, "next").await;
    assert_eq!(
        next.request(json!({"type": "create"})).await["type"],
        "room"
    );
    let synced = ann.request(json!({"type": "sync"})).await;
    assert_eq!(synced["type"], "room", "{synced}");
    assert_eq!(synced["code"], kept["code"]);
}

#[tokio::test]
async fn display_names_follow_the_configured_length_and_characters() {
    let config = Config {
        max_name_chars: 8,
        name_chars: "ascii".parse().unwrap(),
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    let mut client = TestClient::connect(&server, "x").await;
    for bad in ["Zoë", "ninechars", "", "a\u{202E}b", "<script>"] {
        let reply = client.request(json!({"type": "hello", "name": bad})).await;
        assert_error(&reply, "invalid_name");
    }
    let welcome = client
        .request(json!({"type": "hello", "name": "  Ann_2 "}))
        .await;
    assert_eq!(welcome["name"], "Ann_2", "{welcome}");
}

#[tokio::test]
async fn a_connection_idle_outside_rooms_is_closed_but_players_in_rooms_stay() {
    // Long enough that the player's hello and create are never split by
    // the timeout on a loaded machine (the player is idle between them).
    let config = Config {
        idle_timeout: Duration::from_secs(2),
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    let mut player = TestClient::join_server(&server, "player").await;
    assert_eq!(
        player.request(json!({"type": "create"})).await["type"],
        "room"
    );
    let mut idle = TestClient::connect(&server, "idle").await;
    let (code, reason) = idle.expect_close().await;
    assert_eq!(code, 4004, "{reason}");
    // The player sent nothing for longer than that, and is still served.
    assert_eq!(
        player.request(json!({"type": "ping"})).await["type"],
        "pong"
    );
}

// ---- logs -----------------------------------------------------------------

#[tokio::test]
async fn the_idle_clock_of_a_connection_starts_when_its_room_closes() {
    // Ann waits quietly in her room for longer than the idle timeout; the
    // room then closes (its idle TTL), and only from then on does her
    // connection's own idle clock run.
    let config = Config {
        idle_timeout: Duration::from_millis(1_500),
        room_idle_ttl: Duration::from_millis(2_000),
        heartbeat_interval: Duration::from_millis(50),
        heartbeat_timeout: Duration::from_secs(10),
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    assert_eq!(ann.request(json!({"type": "create"})).await["type"], "room");
    let closed = ann.recv_type("room_closed").await;
    assert!(
        closed["reason"]
            .as_str()
            .unwrap()
            .contains("nothing happened"),
        "{closed}"
    );
    let room_gone = Instant::now();
    let (code, reason) = ann.expect_close().await;
    assert_eq!(code, 4004, "{reason}");
    // Before, the clock counted from her last message (the create), so the
    // first pong after the room closed ended the connection at once.
    assert!(
        room_gone.elapsed() >= Duration::from_millis(1_000),
        "closed {:?} after the room",
        room_gone.elapsed()
    );
}

// ---- heartbeats -----------------------------------------------------------

/// A WebSocket client written by hand that reads frames but never answers
/// a ping: what a vanished peer looks like from the server.
struct MuteClient {
    stream: TcpStream,
}

impl MuteClient {
    async fn connect(server: &TestServer) -> MuteClient {
        let mut stream = TcpStream::connect(server.addr()).await.unwrap();
        let request = format!(
            "GET /ws HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
            server.addr()
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        // Read the answer's head byte by byte, so no frame byte is taken.
        let mut head = Vec::new();
        while !head.ends_with(b"\r\n\r\n") {
            head.push(stream.read_u8().await.unwrap());
        }
        let head = String::from_utf8(head).unwrap();
        assert!(head.starts_with("HTTP/1.1 101"), "{head}");
        MuteClient { stream }
    }

    /// The next frame's opcode and payload (server frames are not masked).
    async fn frame(&mut self) -> (u8, Vec<u8>) {
        let first = self.stream.read_u8().await.unwrap();
        let second = self.stream.read_u8().await.unwrap();
        let len = match second & 0x7f {
            126 => u64::from(self.stream.read_u16().await.unwrap()),
            127 => self.stream.read_u64().await.unwrap(),
            n => u64::from(n),
        };
        let mut payload = vec![0; len as usize];
        self.stream.read_exact(&mut payload).await.unwrap();
        (first & 0x0f, payload)
    }
}

#[tokio::test]
async fn a_client_that_stops_answering_pings_is_dropped() {
    let config = Config {
        heartbeat_interval: Duration::from_millis(50),
        heartbeat_timeout: Duration::from_millis(250),
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    let mut mute = MuteClient::connect(&server).await;
    let mut pings = 0;
    let close = tokio::time::timeout(SAFETY_TIMEOUT, async {
        loop {
            match mute.frame().await {
                (0x9, _) => pings += 1,
                (0x8, payload) => return payload,
                (opcode, _) => panic!("unexpected opcode {opcode}"),
            }
        }
    })
    .await
    .expect("closed in time");
    assert!(pings >= 2, "pinged before giving up ({pings})");
    let code = u16::from_be_bytes([close[0], close[1]]);
    assert_eq!(code, 4005, "{}", String::from_utf8_lossy(&close[2..]));
}

#[tokio::test]
async fn a_client_that_answers_pings_stays_connected() {
    // The timeout is far above the interval: a test process stalled for a
    // moment on a loaded machine must not look like a vanished client.
    let config = Config {
        heartbeat_interval: Duration::from_millis(50),
        heartbeat_timeout: Duration::from_secs(2),
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    // Fifty pings span more than the timeout; the client library answers each.
    ann.wait_for_pings(50).await;
    assert_eq!(ann.request(json!({"type": "ping"})).await["type"], "pong");
}

// ---- isolation under a flood ------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_from_one_connection_does_not_delay_another_room() {
    // The rate limit is lifted so that the whole flood reaches the server's
    // rooms: this measures isolation, not the limiter.
    let config = Config {
        max_messages_per_second: 1_000_000,
        message_burst: 1_000_000,
        outbound_queue: 100_000,
        ..Config::default()
    };
    let server = TestServer::start_with(config).await;
    let (ann, bob, _) = two_player_game(&server).await;
    let mut players = vec![ann, bob];
    let (version, baseline) = play(&mut players, 0, 10).await;
    assert_eq!(version, 10);

    // The flooder sits in a game of its own and sends requests its room must
    // answer (sync; an action the rules refuse) as fast as its socket takes them.
    let (mut flooder, mut partner, _) = two_player_game(&server).await;
    const FLOOD: usize = 20_000;
    let flood = tokio::spawn(async move {
        let texts = (0..FLOOD).map(|i| {
            if i % 2 == 0 {
                json!({"type": "sync"}).to_string()
            } else {
                json!({"type": "act", "action": {"take": ["white"]}}).to_string()
            }
        });
        flooder.send_many(texts).await;
        // Read the answers so the flooder is not dropped as too slow.
        let mut answers = 0;
        while answers < FLOOD {
            let m = flooder.recv().await;
            if m["type"] == "error" || m["type"] == "room" {
                assert!(m["type"] == "room" || m["rule"].is_string(), "{m}");
                answers += 1;
            }
        }
        partner.request(json!({"type": "ping"})).await;
        answers
    });
    // Moves are played for as long as the flood is being answered.
    let mut during = Vec::new();
    let mut version = version;
    while !flood.is_finished() && during.len() < 60 {
        let (next, took) = play(&mut players, version, 1).await;
        if next == version {
            break;
        }
        version = next;
        during.extend(took);
    }
    let answered = tokio::time::timeout(SAFETY_TIMEOUT * 3, flood)
        .await
        .expect("the flood is answered")
        .unwrap();
    assert_eq!(answered, FLOOD);
    assert!(
        during.len() >= 5,
        "only {} moves were played during the flood",
        during.len()
    );
    let worst = |d: &[Duration]| d.iter().max().copied().unwrap_or_default();
    let median = |d: &[Duration]| {
        let mut d = d.to_vec();
        d.sort();
        d[d.len() / 2]
    };
    println!(
        "move latency without flood: median {:?}, worst {:?}; during a {FLOOD}-message flood: median {:?}, worst {:?} ({} moves)",
        median(&baseline),
        worst(&baseline),
        median(&during),
        worst(&during),
        during.len()
    );
    for (i, took) in during.iter().enumerate() {
        assert!(
            *took < Duration::from_secs(2),
            "move {i} took {took:?} during the flood"
        );
    }
}

// ---- shutdown ---------------------------------------------------------------

#[tokio::test]
async fn shutdown_is_bounded_even_when_the_storage_hangs() {
    let storage = Arc::new(FakeStorage::default());
    storage.hang_on_close.store(true, Ordering::SeqCst);
    let config = Config {
        shutdown_grace: Duration::from_millis(200),
        ..Config::default()
    };
    let server = TestServer::start_with_state(state_with_storage(config, storage)).await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let started = Instant::now();
    let (stopped, (code, _)) = tokio::join!(server.shutdown(), ann.expect_close());
    stopped.unwrap();
    assert_eq!(code, 1012);
    // The grace, plus the second the storage always gets, plus slack.
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "took {:?}",
        started.elapsed()
    );
}
