//! Web Push (issue 25) against the real server, with a push service inside
//! the test: a small HTTP server that takes each push as a browser's push
//! service would, checks its VAPID signature (ES256, by the key the server
//! gives the page) and decrypts it with the browser's keys (RFC 8291). A
//! turn-based game's turn reaches a player who is away, in their language,
//! saying little; an event they did not ask for is not pushed; a push
//! service that answers 410 has the browser forgotten; one that hangs
//! never delays a move. The subscription API's refusals, and the key kept
//! across a restart. A public server pushes only to public HTTPS endpoints
//! (unit tests in `notify/push.rs`); this server is allowed the test's
//! loopback push service.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use base64ct::{Base64UrlUnpadded, Encoding};
use p256::ecdsa::signature::Verifier;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use serde_json::{Value, json};
use splendor_e2e::process::http_request;
use splendor_e2e::{SAFETY_TIMEOUT, TestClient, TestServer};
use splendor_server::Config;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::sync::{Notify, mpsc};

async fn call(
    server: &TestServer,
    method: &str,
    path: &str,
    token: &str,
    body: &str,
) -> (u16, Value) {
    let auth = format!("Bearer {token}");
    let (status, text) = http_request(
        server.addr(),
        method,
        path,
        &[
            ("Authorization", &auth),
            ("Content-Type", "application/json"),
        ],
        body,
    )
    .await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A browser: its key pair and authentication secret.
struct Browser {
    secret: p256::SecretKey,
    auth: [u8; 16],
}

impl Browser {
    fn new(seed: u8) -> Browser {
        let mut bytes = [seed; 32];
        bytes[0] = 1;
        Browser {
            secret: p256::SecretKey::from_slice(&bytes).unwrap(),
            auth: [seed.wrapping_add(3); 16],
        }
    }

    /// What `PushSubscription.toJSON()` gives, with the page's language.
    fn subscription(&self, endpoint: &str, lang: &str) -> String {
        json!({
            "endpoint": endpoint,
            "expirationTime": null,
            "keys": {
                "p256dh": Base64UrlUnpadded::encode_string(
                    self.secret.public_key().to_encoded_point(false).as_bytes()),
                "auth": Base64UrlUnpadded::encode_string(&self.auth),
            },
            "lang": lang,
        })
        .to_string()
    }

    fn decrypt(&self, body: &[u8]) -> Value {
        let auth = web_push_native::Auth::clone_from_slice(&self.auth);
        let plain = web_push_native::decrypt(body.to_vec(), &self.secret, &auth)
            .expect("a push this browser can decrypt");
        serde_json::from_slice(&plain).expect("a push is JSON")
    }
}

/// One push as the push service took it.
#[derive(Debug)]
struct Pushed {
    path: String,
    headers: BTreeMap<String, String>,
    body: Vec<u8>,
}

/// How the push service answers.
#[derive(Clone, Copy)]
enum Answer {
    Created,
    Gone,
    /// Takes the push and answers only once released.
    Hang,
}

/// A push service on loopback: each POST goes to the channel, then it
/// answers as `answer` says.
struct PushService {
    origin: String,
    pushes: mpsc::UnboundedReceiver<Pushed>,
    answer: Arc<Mutex<Answer>>,
    release: Arc<Notify>,
}

impl PushService {
    async fn start() -> PushService {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let (tx, pushes) = mpsc::unbounded_channel();
        let answer = Arc::new(Mutex::new(Answer::Created));
        let release = Arc::new(Notify::new());
        let (task_answer, task_release) = (answer.clone(), release.clone());
        tokio::spawn(async move {
            loop {
                let Ok((mut socket, _)) = listener.accept().await else {
                    return;
                };
                let (tx, answer, release) = (tx.clone(), task_answer.clone(), task_release.clone());
                tokio::spawn(async move {
                    let mut data = Vec::new();
                    let mut buf = [0u8; 4096];
                    let (head, body_start) = loop {
                        let n = socket.read(&mut buf).await.unwrap_or(0);
                        if n == 0 {
                            return;
                        }
                        data.extend_from_slice(&buf[..n]);
                        if let Some(end) = data.windows(4).position(|w| w == b"\r\n\r\n") {
                            break (String::from_utf8_lossy(&data[..end]).to_string(), end + 4);
                        }
                    };
                    let mut lines = head.lines();
                    let path = lines
                        .next()
                        .and_then(|l| l.split(' ').nth(1))
                        .unwrap_or_default()
                        .to_owned();
                    let headers: BTreeMap<String, String> = lines
                        .filter_map(|l| {
                            let (k, v) = l.split_once(':')?;
                            Some((k.trim().to_ascii_lowercase(), v.trim().to_owned()))
                        })
                        .collect();
                    let length: usize = headers
                        .get("content-length")
                        .and_then(|l| l.parse().ok())
                        .unwrap_or(0);
                    while data.len() < body_start + length {
                        let n = socket.read(&mut buf).await.unwrap_or(0);
                        if n == 0 {
                            break;
                        }
                        data.extend_from_slice(&buf[..n]);
                    }
                    let now = *answer.lock().unwrap();
                    let _ = tx.send(Pushed {
                        path,
                        headers,
                        body: data[body_start..].to_vec(),
                    });
                    let status = match now {
                        Answer::Created => "201 Created",
                        Answer::Gone => "410 Gone",
                        Answer::Hang => {
                            release.notified().await;
                            "201 Created"
                        }
                    };
                    let _ = socket
                        .write_all(
                            format!("HTTP/1.1 {status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                                .as_bytes(),
                        )
                        .await;
                });
            }
        });
        PushService {
            origin,
            pushes,
            answer,
            release,
        }
    }

    fn endpoint(&self, name: &str) -> String {
        format!("{}/push/{name}", self.origin)
    }

    fn answer(&self, answer: Answer) {
        *self.answer.lock().unwrap() = answer;
    }

    async fn next(&mut self) -> Pushed {
        tokio::time::timeout(SAFETY_TIMEOUT, self.pushes.recv())
            .await
            .expect("a push in time")
            .expect("the push service runs")
    }
}

/// Checks a push's VAPID header against the server's public key and the
/// push service's origin (RFC 8292).
fn check_vapid(pushed: &Pushed, server_key: &str, origin: &str) {
    let header = &pushed.headers["authorization"];
    let (t, k) = header
        .strip_prefix("vapid t=")
        .and_then(|rest| rest.split_once(", k="))
        .unwrap_or_else(|| panic!("a VAPID header: {header}"));
    assert_eq!(k, server_key);
    let key = p256::PublicKey::from_sec1_bytes(&Base64UrlUnpadded::decode_vec(k).unwrap()).unwrap();
    let (signed, signature) = t.rsplit_once('.').unwrap();
    let signature =
        p256::ecdsa::Signature::from_slice(&Base64UrlUnpadded::decode_vec(signature).unwrap())
            .unwrap();
    p256::ecdsa::VerifyingKey::from(key)
        .verify(signed.as_bytes(), &signature)
        .expect("signed by the server's key");
    let claims = signed.split('.').nth(1).unwrap();
    let claims: Value =
        serde_json::from_slice(&Base64UrlUnpadded::decode_vec(claims).unwrap()).unwrap();
    assert_eq!(claims["aud"], origin, "{claims}");
    assert!(
        claims["sub"].as_str().unwrap().starts_with("mailto:"),
        "{claims}"
    );
    assert_eq!(pushed.headers["content-encoding"], "aes128gcm");
    assert!(pushed.headers["ttl"].parse::<u64>().unwrap() > 0);
}

fn config() -> Config {
    Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        max_api_requests_per_ip_per_minute: 0,
        webhook_allow_private: true,
        ..Config::default()
    }
}

async fn wait_for_metric(server: &TestServer, line: &str) {
    tokio::time::timeout(SAFETY_TIMEOUT, async {
        while !server
            .http_get("/metrics")
            .await
            .1
            .lines()
            .any(|l| l == line)
        {
            tokio::task::yield_now().await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("{line} in /metrics"));
}

/// A turn-based game of Ann and Bob, started, Bob gone (keeping his seat);
/// the room's code.
async fn game_with_bob_away(ann: &mut TestClient, bob: &mut TestClient) -> String {
    let room = ann
        .request(json!({"type": "create", "seats": 2, "turn_based": {"per_move_s": 86_400}}))
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    ann.request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    bob.request(json!({"type": "leave"})).await;
    code
}

#[tokio::test]
async fn a_turn_is_pushed_encrypted_signed_in_the_players_language_saying_little() {
    let server = TestServer::start_with(config()).await;
    let mut service = PushService::start().await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    let bob_token = bob.token.clone().unwrap();
    let (status, key) = call(&server, "GET", "/api/push/key", "", "").await;
    assert_eq!(status, 200, "{key}");
    let server_key = key["public_key"].as_str().unwrap().to_owned();
    assert_eq!(
        Base64UrlUnpadded::decode_vec(&server_key).unwrap().len(),
        65
    );

    let phone = Browser::new(5);
    let (status, answer) = call(
        &server,
        "PUT",
        "/api/me/push",
        &bob_token,
        &phone.subscription(&service.endpoint("bob-phone"), "nl"),
    )
    .await;
    assert_eq!(status, 204, "{answer}");
    // Bob asks to be told of the game's end only.
    let (status, _) = call(
        &server,
        "PUT",
        "/api/me/notifications",
        &bob_token,
        r#"{"events":["game_over"]}"#,
    )
    .await;
    assert_eq!(status, 200);

    let code = game_with_bob_away(&mut ann, &mut bob).await;
    let state = ann.state().await;
    let action = state.legal_actions.unwrap()[0].clone();
    ann.request(json!({"type": "act", "action": action, "expect_version": 0}))
        .await;
    // Bob's turn was not what he asked for: not pushed.
    wait_for_metric(&server, "splendor_notices_total{reason=\"unwanted\"} 1").await;
    assert!(service.pushes.try_recv().is_err(), "no push of a turn");

    // Now he asks for his turns too; Ann's next turn comes after his, so
    // she resigns and the end is pushed.
    let (status, _) = call(
        &server,
        "PUT",
        "/api/me/notifications",
        &bob_token,
        r#"{"events":["your_turn","game_over"]}"#,
    )
    .await;
    assert_eq!(status, 200);
    ann.request(json!({"type": "resign"})).await;
    let pushed = service.next().await;
    assert_eq!(pushed.path, "/push/bob-phone");
    check_vapid(&pushed, &server_key, &service.origin);
    let told = phone.decrypt(&pushed.body);
    assert_eq!(
        told,
        json!({
            "event": "game_over",
            "room": code,
            "title": "Splendor",
            "body": format!("Het spel in kamer {code} is afgelopen."),
            "url": format!("/#{code}"),
        })
    );
    wait_for_metric(&server, "splendor_notices_total{reason=\"pushed\"} 1").await;

    // A turn: a second game, Bob asked for turns.
    let mut cat = TestClient::join_server(&server, "cat").await;
    let code = game_with_bob_away(&mut cat, &mut bob).await;
    let state = cat.state().await;
    let action = state.legal_actions.unwrap()[0].clone();
    cat.request(json!({"type": "act", "action": action, "expect_version": 0}))
        .await;
    let pushed = service.next().await;
    check_vapid(&pushed, &server_key, &service.origin);
    let told = phone.decrypt(&pushed.body);
    assert_eq!(told["event"], "your_turn");
    assert_eq!(
        told["body"],
        format!("Je bent aan de beurt in kamer {code}.")
    );
    assert_eq!(pushed.headers["topic"], format!("your_turn-{code}"));
    // Only what a stranger could know: no cards, tokens, names or seats.
    assert_eq!(told.as_object().unwrap().len(), 5, "{told}");
    // Another browser of another session cannot read it.
    let other = Browser::new(9);
    let auth = web_push_native::Auth::clone_from_slice(&other.auth);
    assert!(web_push_native::decrypt(pushed.body.clone(), &other.secret, &auth).is_err());
}

#[tokio::test]
async fn a_gone_browser_is_forgotten_and_a_hanging_service_never_delays_a_move() {
    let server = TestServer::start_with(config()).await;
    let mut service = PushService::start().await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::join_server(&server, "bob").await;
    let bob_token = bob.token.clone().unwrap();
    let (status, _) = call(
        &server,
        "PUT",
        "/api/me/notifications",
        &bob_token,
        r#"{"events":["your_turn","game_over","chat"]}"#,
    )
    .await;
    assert_eq!(status, 200);
    let laptop = Browser::new(6);
    let (status, _) = call(
        &server,
        "PUT",
        "/api/me/push",
        &bob_token,
        &laptop.subscription(&service.endpoint("bob-laptop"), "en"),
    )
    .await;
    assert_eq!(status, 204);

    // The push service holds every push without answering.
    service.answer(Answer::Hang);
    let code = game_with_bob_away(&mut ann, &mut bob).await;
    let state = ann.state().await;
    let action = state.legal_actions.unwrap()[0].clone();
    ann.request(json!({"type": "act", "action": action, "expect_version": 0}))
        .await;
    let held = service.next().await;
    assert_eq!(laptop.decrypt(&held.body)["event"], "your_turn");
    // While that push hangs, Bob comes back and the game goes on: a move
    // each, answered.
    bob.request(json!({"type": "join", "code": code})).await;
    let state = bob.state_at(1).await;
    let action = state.legal_actions.unwrap()[0].clone();
    bob.request(json!({"type": "act", "action": action, "expect_version": 1}))
        .await;
    let state = ann.state_at(2).await;
    let action = state.legal_actions.unwrap()[0].clone();
    ann.request(json!({"type": "act", "action": action, "expect_version": 2}))
        .await;
    assert_eq!(bob.state_at(3).await.version, 3);
    service.release.notify_waiters();

    // Bob goes again; the service now says his browser is gone.
    service.answer(Answer::Gone);
    bob.request(json!({"type": "leave"})).await;
    ann.request(json!({"type": "chat", "text": "still there?"}))
        .await;
    let pushed = service.next().await;
    let told = laptop.decrypt(&pushed.body);
    assert_eq!(told["event"], "chat");
    assert_eq!(
        told["body"],
        format!("ann wrote in the chat of room {code}.")
    );
    assert!(!told.to_string().contains("still there"), "{told}");
    wait_for_metric(&server, "splendor_notices_total{reason=\"push_gone\"} 1").await;
    let (status, list) = call(&server, "GET", "/api/me/push", &bob_token, "").await;
    assert_eq!(status, 200);
    assert_eq!(list, json!({"browsers": []}));
}

#[tokio::test]
async fn subscriptions_are_checked_capped_and_need_the_sessions_token() {
    // A public server's rules: HTTPS to public addresses only.
    let server = TestServer::start().await;
    let ann = TestClient::join_server(&server, "ann").await;
    let token = ann.token.clone().unwrap();
    let browser = Browser::new(7);
    let good = |n: usize| browser.subscription(&format!("https://push.example.org/s/{n}"), "fr");
    for method in ["GET", "PUT", "DELETE"] {
        let (status, body) = call(&server, method, "/api/me/push", "nope", &good(0)).await;
        assert_eq!(status, 401, "{method}: {body}");
    }
    for (body, says) in [
        (
            browser.subscription("http://push.example.org/x", "en"),
            "https://",
        ),
        (
            browser.subscription("https://127.0.0.1/x", "en"),
            "public address",
        ),
        (
            browser.subscription("https://192.168.1.1/x", "en"),
            "public address",
        ),
        (
            browser.subscription("https://push.example.org/x", "tlh"),
            "language",
        ),
        (
            browser.subscription(
                &format!("https://push.example.org/{}", "a".repeat(1100)),
                "en",
            ),
            "at most",
        ),
        (
            good(0).replace(&Base64UrlUnpadded::encode_string(&browser.auth), "AAAA"),
            "keys.auth",
        ),
        (
            r#"{"endpoint":"https://push.example.org/x"}"#.to_owned(),
            "keys",
        ),
        ("[]".to_owned(), "PushSubscription"),
    ] {
        let (status, answer) = call(&server, "PUT", "/api/me/push", &token, &body).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["error"], "invalid_subscription", "{answer}");
        assert!(
            answer["message"].as_str().unwrap().contains(says),
            "{body}: {answer}"
        );
    }
    // Nothing was kept by the refusals.
    let (_, list) = call(&server, "GET", "/api/me/push", &token, "").await;
    assert_eq!(list, json!({"browsers": []}));

    for n in 0..10 {
        let (status, answer) = call(&server, "PUT", "/api/me/push", &token, &good(n)).await;
        assert_eq!(status, 204, "{answer}");
    }
    // The same browser again is no new one; an eleventh is refused.
    assert_eq!(
        call(&server, "PUT", "/api/me/push", &token, &good(3))
            .await
            .0,
        204
    );
    let (status, answer) = call(&server, "PUT", "/api/me/push", &token, &good(10)).await;
    assert_eq!(status, 409, "{answer}");
    assert_eq!(answer["error"], "too_many_browsers");
    let (_, list) = call(&server, "GET", "/api/me/push", &token, "").await;
    let browsers = list["browsers"].as_array().unwrap();
    assert_eq!(browsers.len(), 10);
    assert_eq!(browsers[0]["lang"], "fr");
    assert!(
        browsers[0].get("keys").is_none(),
        "keys are not shown again"
    );

    let one = r#"{"endpoint":"https://push.example.org/s/4"}"#;
    assert_eq!(
        call(&server, "DELETE", "/api/me/push", &token, one).await.0,
        204
    );
    assert_eq!(
        call(&server, "DELETE", "/api/me/push", &token, one).await.0,
        404
    );
    assert_eq!(
        call(&server, "DELETE", "/api/me/push", &token, "{").await.0,
        400
    );
    let (_, list) = call(&server, "GET", "/api/me/push", &token, "").await;
    assert_eq!(list["browsers"].as_array().unwrap().len(), 9);
    // An empty body forgets nothing (a proxy may drop a body).
    assert_eq!(
        call(&server, "DELETE", "/api/me/push", &token, "").await.0,
        400
    );
    let all = r#"{"all":true}"#;
    assert_eq!(
        call(&server, "DELETE", "/api/me/push", &token, all).await.0,
        204
    );
    let (_, list) = call(&server, "GET", "/api/me/push", &token, "").await;
    assert_eq!(list, json!({"browsers": []}));
    // Another session that knows an endpoint but not its browser's keys
    // cannot take it.
    assert_eq!(
        call(&server, "PUT", "/api/me/push", &token, &good(1))
            .await
            .0,
        204
    );
    let bob = TestClient::join_server(&server, "bob").await;
    let thief = Browser::new(8).subscription("https://push.example.org/s/1", "en");
    let (status, answer) = call(
        &server,
        "PUT",
        "/api/me/push",
        bob.token.as_ref().unwrap(),
        &thief,
    )
    .await;
    assert_eq!(status, 409, "{answer}");
    assert_eq!(answer["error"], "endpoint_taken");
    let (_, list) = call(&server, "GET", "/api/me/push", &token, "").await;
    assert_eq!(list["browsers"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn the_servers_key_is_made_once_and_kept_across_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("push.db").display());
    let with_db = || Config {
        database_url: Some(url.parse().unwrap()),
        ..config()
    };
    let server = TestServer::start_with(with_db()).await;
    let (status, first) = server.http_get("/api/push/key").await;
    assert_eq!(status, 200, "{first}");
    let (_, again) = server.http_get("/api/push/key").await;
    assert_eq!(first, again);
    server.shutdown().await.unwrap();
    let server = TestServer::start_with(with_db()).await;
    let (_, after) = server.http_get("/api/push/key").await;
    assert_eq!(first, after, "the same key after a restart");
}
