//! The operators' API (issue 22) against the real server on port 0: no
//! token configured, no admin routes; without the right token every admin
//! path answers the same 401 and reveals nothing; wrong tokens from one
//! address are cut off after a few; with the token, the live rooms.

use serde_json::{Value, json};
use splendor_e2e::operators::{TOKEN, with_token};
use splendor_e2e::process::{http_get, http_get_with, http_post_with};
use splendor_e2e::{TestClient, TestServer};
use splendor_server::config::{AdminOptions, AdminToken, Config};

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

#[tokio::test]
async fn without_a_token_configured_there_are_no_admin_routes() {
    let server = TestServer::start().await;
    for path in ["/api/admin/rooms", "/api/admin"] {
        let (status, body) =
            http_get_with(server.addr(), path, &[("Authorization", &bearer(TOKEN))]).await;
        assert_eq!(status, 404, "{path}: {body}");
        assert!(!body.contains("rooms\""), "{body}");
    }
}

#[tokio::test]
async fn without_the_right_token_every_admin_path_answers_the_same_401() {
    let server = with_token().await;
    let mut ann = TestClient::connect(&server, "ann").await;
    ann.hello().await;
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    let mut answers = Vec::new();
    for path in [
        "/api/admin/rooms".to_owned(),
        format!("/api/admin/rooms?q={code}"),
        "/api/admin/rooms/ZZZZZ".to_owned(),
        "/api/admin/nothing-here".to_owned(),
        "/api/admin".to_owned(),
        // Issue 22's reports, players and queue: the same answer.
        "/api/admin/reports".to_owned(),
        "/api/admin/sessions?q=ann".to_owned(),
        "/api/admin/queue".to_owned(),
    ] {
        for headers in [
            vec![],
            vec![("Authorization", "Bearer")],
            vec![("Authorization", "Basic b3A6b3A=")],
        ] {
            let (status, body) = http_get_with(server.addr(), &path, &headers).await;
            assert_eq!(status, 401, "{path}: {body}");
            assert!(!body.contains(&code), "{body}");
            answers.push(body);
        }
    }
    answers.dedup();
    assert_eq!(answers.len(), 1, "one answer for every path: {answers:?}");
    // A wrong token is refused the same way.
    let (status, body) = http_get_with(
        server.addr(),
        "/api/admin/rooms",
        &[("Authorization", "Bearer guessing-it-0000")],
    )
    .await;
    assert_eq!((status, body), (401, answers[0].clone()));
}

#[tokio::test]
async fn the_operators_see_every_live_room_and_can_search_them() {
    let server = with_token().await;
    let mut ann = TestClient::connect(&server, "ann").await;
    let welcome = ann.request(json!({"type": "hello", "name": "ann"})).await;
    let room = ann
        .request(json!({"type": "create", "seats": 3, "listed": true}))
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    let auth = bearer(TOKEN);
    let headers = [("Authorization", auth.as_str())];
    let (status, body) = http_get_with(server.addr(), "/api/admin/rooms", &headers).await;
    assert_eq!(status, 200, "{body}");
    let list: Value = serde_json::from_str(&body).unwrap();
    let rooms = list["rooms"].as_array().unwrap();
    assert_eq!(rooms.len(), 1, "{list}");
    let seen = &rooms[0];
    assert_eq!(seen["code"], code.as_str());
    assert_eq!(seen["host"], "ann");
    assert_eq!(seen["seats"], 3);
    assert_eq!(seen["players"], 1);
    assert_eq!(seen["status"], "waiting");
    assert_eq!(seen["listed"], true);
    assert_eq!(seen["client"], "127.0.0.1");
    assert_eq!(seen["epoch"], 1);
    assert!(seen["node"].is_u64(), "{seen}");
    assert_eq!(seen["creator"], welcome["session"], "{seen} / {welcome}");
    // Searching: by code (any case), by host, by address; or nothing.
    for (q, found) in [
        (code.to_lowercase(), 1),
        ("AN".to_owned(), 1),
        ("127.0".to_owned(), 1),
        ("nobody".to_owned(), 0),
    ] {
        let (status, body) =
            http_get_with(server.addr(), &format!("/api/admin/rooms?q={q}"), &headers).await;
        assert_eq!(status, 200, "{body}");
        let list: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(
            list["rooms"].as_array().unwrap().len(),
            found,
            "{q}: {list}"
        );
    }
    // An admin path that does not exist, with the token: 404.
    let (status, _) = http_get_with(server.addr(), "/api/admin/nothing-here", &headers).await;
    assert_eq!(status, 404);
    // The public listing is unchanged by all this.
    let (status, body) = http_get(server.addr(), "/api/rooms").await;
    assert_eq!(status, 200);
    assert!(body.contains(&code), "{body}");
    assert!(seen.get("game").is_none(), "nothing in play yet: {seen}");

    // Once its game is in play: who sits where, its start and last move.
    ann.request(json!({"type": "add_bot", "level": "random"}))
        .await;
    let started = ann
        .request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    assert_eq!(started["status"], "playing", "{started}");
    let moved = ann
        .request(json!({"type": "act", "action": {"take": ["white", "blue", "green"]}}))
        .await;
    assert_eq!(moved["type"], "events", "{moved}");
    let (status, body) = http_get_with(server.addr(), "/api/admin/rooms", &headers).await;
    assert_eq!(status, 200, "{body}");
    let list: Value = serde_json::from_str(&body).unwrap();
    let game = &list["rooms"][0]["game"];
    assert_eq!(
        game["players"],
        json!([{"seat": 0, "name": "ann", "bot": null}, {"seat": 1, "name": "Random bot", "bot": "random"}]),
        "{list}"
    );
    let started_at = game["started_at"].as_i64().expect("a start");
    assert!(
        game["last_move_at"].as_i64().unwrap() >= started_at,
        "{game}"
    );
    assert_eq!(game["clock"], Value::Null, "no clock: {game}");
}

#[tokio::test]
async fn an_address_that_guesses_is_cut_off_even_with_the_right_token() {
    let server = with_token().await;
    for i in 0..10 {
        let wrong = bearer(&format!("guess-number-{i:04}-xxxx"));
        let (status, _) = http_get_with(
            server.addr(),
            "/api/admin/rooms",
            &[("Authorization", &wrong)],
        )
        .await;
        assert_eq!(status, 401, "guess {i}");
    }
    let right = bearer(TOKEN);
    let (status, body) = http_get_with(
        server.addr(),
        "/api/admin/rooms",
        &[("Authorization", &right)],
    )
    .await;
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("too_many_attempts"), "{body}");
}

#[tokio::test]
async fn automatic_sanctions_are_in_the_audit_log_once_per_address_and_quiet_period() {
    // Issue 22: what the server does on its own against a client is in the
    // audit log beside the operators' actions (actor `system`), one row per
    // sanction and address per ten minutes.
    let server = TestServer::start_with(Config {
        client_ip_header: Some("X-Real-IP".into()),
        max_messages_per_second: 2,
        message_burst: 2,
        admin: AdminOptions {
            admin_token: Some(AdminToken::new(TOKEN).expect("a token")),
            admin_token_file: None,
        },
        ..Config::default()
    })
    .await;
    // An address guesses the token past the limit, twice over.
    for i in 0..15 {
        let wrong = bearer(&format!("guess-number-{i:04}-xxxx"));
        http_get_with(
            server.addr(),
            "/api/admin/rooms",
            &[("Authorization", &wrong), ("X-Real-IP", "203.0.113.9")],
        )
        .await;
    }
    // Two clients of one address flood their sockets until each is closed
    // (4003): one row for both.
    for _ in 0..2 {
        let mut flood = TestClient::connect(&server, "flood").await;
        flood.hello().await;
        flood
            .send_many((0..50).map(|i| json!({"type": "ping", "id": i}).to_string()))
            .await;
        let (code, reason) = flood.expect_close().await;
        assert_eq!(code, 4003, "closed for the rate: {reason}");
    }

    // Each row is written before the refusal or the close it audits.
    let (status, text) = http_get_with(
        server.addr(),
        "/api/admin/audit",
        &[
            ("Authorization", &bearer(TOKEN)),
            ("X-Real-IP", "198.51.100.1"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{text}");
    let audit: Value = serde_json::from_str(&text).unwrap();
    let entries = audit["entries"].as_array().unwrap();
    let guessing: Vec<&Value> = entries
        .iter()
        .filter(|e| e["action"] == "auto_cut_off_token_guessing")
        .collect();
    assert_eq!(
        guessing.len(),
        1,
        "once, though cut off five times: {audit}"
    );
    assert_eq!(guessing[0]["actor"], "system");
    assert_eq!(guessing[0]["target"], "address:203.0.113.9");
    let floods: Vec<&Value> = entries
        .iter()
        .filter(|e| e["action"] == "auto_close_flood")
        .collect();
    assert_eq!(floods.len(), 1, "two closes, one row: {audit}");
    // The address, never the session (forgetting a player leaves no link).
    assert_eq!(floods[0]["target"], "address:127.0.0.1", "{audit}");
}

async fn post(server: &TestServer, path: &str, body: &str) -> (u16, Value) {
    let auth = bearer(TOKEN);
    let (status, text) = http_post_with(
        server.addr(),
        path,
        &[("Authorization", auth.as_str())],
        body,
    )
    .await;
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, value)
}

async fn get(server: &TestServer, path: &str) -> Value {
    let auth = bearer(TOKEN);
    let (status, text) =
        http_get_with(server.addr(), path, &[("Authorization", auth.as_str())]).await;
    assert_eq!(status, 200, "{path}: {text}");
    serde_json::from_str(&text).unwrap()
}

#[tokio::test]
async fn a_ban_refuses_the_next_hello_and_closes_the_connections_it_names() {
    let server = with_token().await;
    // Ann plays Bob; Bob is about to be banned by session.
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::connect(&server, "bob").await;
    let bob_welcome = bob.request(json!({"type": "hello", "name": "bob"})).await;
    let bob_session = bob_welcome["session"].as_str().unwrap().to_owned();
    let bob_token = bob_welcome["token"].as_str().unwrap().to_owned();
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;

    let (status, made) = post(
        &server,
        "/api/admin/bans",
        &json!({"kind": "session", "value": bob_session, "minutes": 60, "reason": "insults in chat"})
            .to_string(),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["ban"]["kind"], "session");
    assert_eq!(made["announced"], true);
    // Bob's open connection is told, in his language, and closed (4006).
    let told = bob.recv_type("error").await;
    assert_eq!(told["code"], "banned", "{told}");
    assert!(
        told["message"]
            .as_str()
            .unwrap()
            .contains("insults in chat"),
        "{told}"
    );
    let until = told["until"].as_i64().expect("until");
    assert_eq!(Some(until), made["ban"]["until"].as_i64());
    assert_eq!(bob.expect_close().await.0, 4006);
    // His token is refused too, and nothing of his session changes.
    let mut again = TestClient::connect(&server, "bob again").await;
    let refused = again
        .request(json!({"type": "hello", "token": bob_token, "lang": "nl", "name": "bobby"}))
        .await;
    assert_eq!(refused["code"], "banned", "{refused}");
    assert!(
        refused["message"].as_str().unwrap().contains("verbannen"),
        "{refused}"
    );
    assert_eq!(again.expect_close().await.0, 4006);
    // Ann is not concerned.
    let chat = ann
        .request(json!({"type": "chat", "text": "still here"}))
        .await;
    assert_eq!(chat["type"], "chat", "{chat}");

    // A name pattern: any case, refused before a session is made.
    let (status, made) = post(
        &server,
        "/api/admin/bans",
        &json!({"kind": "name", "value": "*spam*", "reason": "spam"}).to_string(),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["ban"]["until"], Value::Null);
    let mut spammer = TestClient::connect(&server, "spammer").await;
    let refused = spammer
        .request(json!({"type": "hello", "name": "BigSpammer"}))
        .await;
    assert_eq!(refused["code"], "banned", "{refused}");
    assert!(refused.get("until").is_none(), "{refused}");
    // Lifted, the name is welcome again; the audit has it all.
    let id = made["ban"]["id"].as_i64().unwrap();
    let (status, lifted) = post(
        &server,
        &format!("/api/admin/bans/{id}/lift"),
        &json!({"reason": "a mistake"}).to_string(),
    )
    .await;
    assert_eq!(status, 200, "{lifted}");
    let mut spammer = TestClient::connect(&server, "spammer").await;
    let welcome = spammer
        .request(json!({"type": "hello", "name": "BigSpammer"}))
        .await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    let bans = get(&server, "/api/admin/bans").await;
    assert_eq!(bans["bans"].as_array().unwrap().len(), 1, "{bans}");
    let audit = get(&server, "/api/admin/audit").await;
    let actions: Vec<&str> = audit["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, ["lift", "sanction", "sanction"], "{audit}");

    // An address: 127.0.0.1 is every client here.
    let (status, made) = post(
        &server,
        "/api/admin/bans",
        &json!({"kind": "address", "value": "127.0.0.0/16", "minutes": 5, "reason": "flood"})
            .to_string(),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(made["ban"]["value"], "127.0.0.0/16");
    assert_eq!(ann.expect_close().await.0, 4006);
    let mut anyone = TestClient::connect(&server, "anyone").await;
    let refused = anyone
        .request(json!({"type": "hello", "name": "zed"}))
        .await;
    assert_eq!(refused["code"], "banned", "{refused}");
}

#[tokio::test]
async fn bad_bans_are_refused_with_a_clear_error_and_change_nothing() {
    let server = with_token().await;
    for (body, says) in [
        ("{not json".to_owned(), "body"),
        (
            json!({"kind": "address", "value": "0.0.0.0/0", "reason": "all"}).to_string(),
            "too wide",
        ),
        (
            json!({"kind": "address", "value": "::/0", "reason": "all"}).to_string(),
            "too wide",
        ),
        (
            json!({"kind": "address", "value": "10.0.0.0/8", "reason": "all"}).to_string(),
            "too wide",
        ),
        (
            json!({"kind": "name", "value": "*", "reason": "all"}).to_string(),
            "3 characters",
        ),
        (
            json!({"kind": "session", "value": "nope", "reason": "x"}).to_string(),
            "session id",
        ),
        (
            json!({"kind": "everyone", "value": "x", "reason": "x"}).to_string(),
            "kind of ban",
        ),
        (
            json!({"kind": "name", "value": "troll", "reason": "  "}).to_string(),
            "reason",
        ),
        (
            json!({"kind": "name", "value": "troll", "reason": "x".repeat(201)}).to_string(),
            "200",
        ),
        (
            json!({"kind": "name", "value": "troll", "reason": "x", "minutes": 0}).to_string(),
            "minutes",
        ),
        (
            json!({"kind": "name", "value": "troll", "reason": "x", "extra": 1}).to_string(),
            "unknown field",
        ),
        (
            json!({"kind": "name", "value": "troll"}).to_string(),
            "reason",
        ),
    ] {
        let (status, answer) = post(&server, "/api/admin/bans", &body).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(
            answer["message"]
                .as_str()
                .unwrap_or_default()
                .contains(says),
            "{body}: {answer}"
        );
    }
    let huge = json!({"kind": "name", "value": "troll", "reason": "x".repeat(40_000)}).to_string();
    let (status, _) = post(&server, "/api/admin/bans", &huge).await;
    assert_eq!(status, 413);
    for (path, status) in [
        ("/api/admin/bans/12345/lift", 404),
        ("/api/admin/bans/twelve/lift", 400),
    ] {
        let (got, answer) = post(&server, path, &json!({"reason": "x"}).to_string()).await;
        assert_eq!(got, status, "{path}: {answer}");
    }
    let (status, _) = get_status(&server, "/api/admin/audit?limit=0").await;
    assert_eq!(status, 400);
    // Nothing changed.
    assert_eq!(get(&server, "/api/admin/bans").await["bans"], json!([]));
    assert_eq!(get(&server, "/api/admin/audit").await["entries"], json!([]));
    let mut troll = TestClient::connect(&server, "troll").await;
    let welcome = troll
        .request(json!({"type": "hello", "name": "troll"}))
        .await;
    assert_eq!(welcome["type"], "welcome");
}

async fn get_status(server: &TestServer, path: &str) -> (u16, String) {
    let auth = bearer(TOKEN);
    http_get_with(server.addr(), path, &[("Authorization", auth.as_str())]).await
}

#[tokio::test]
async fn a_mute_silences_a_sessions_chat_in_every_room_until_lifted() {
    let server = with_token().await;
    let mut ann = TestClient::join_server(&server, "ann").await;
    let mut bob = TestClient::connect(&server, "bob").await;
    let welcome = bob
        .request(json!({"type": "hello", "name": "bob", "lang": "de"}))
        .await;
    let session = welcome["session"].as_str().unwrap().to_owned();
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    let (status, made) = post(
        &server,
        "/api/admin/mutes",
        &json!({"session": session, "minutes": 30, "reason": "Beleidigungen"}).to_string(),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let refused = bob.request(json!({"type": "chat", "text": "hallo"})).await;
    assert_eq!(refused["code"], "chat_muted", "{refused}");
    assert!(
        refused["message"].as_str().unwrap().contains("Betreiber"),
        "{refused}"
    );
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("Beleidigungen"),
        "{refused}"
    );
    assert_eq!(refused["until"], made["mute"]["until"]);
    // Only Bob: Ann chats, and Bob still plays.
    let said = ann.request(json!({"type": "chat", "text": "hi"})).await;
    assert_eq!(said["type"], "chat", "{said}");
    let mutes = get(&server, "/api/admin/mutes").await;
    assert_eq!(mutes["mutes"][0]["session"], session.as_str(), "{mutes}");
    // Bad mutes change nothing.
    for body in [
        json!({"session": "nope", "reason": "x"}),
        json!({"session": session, "reason": ""}),
        json!({"session": session, "reason": "x", "minutes": 0}),
    ] {
        let (status, answer) = post(&server, "/api/admin/mutes", &body.to_string()).await;
        assert_eq!(status, 400, "{body}: {answer}");
    }
    let id = made["mute"]["id"].as_i64().unwrap();
    let (status, lifted) = post(
        &server,
        &format!("/api/admin/mutes/{id}/lift"),
        &json!({"reason": "served"}).to_string(),
    )
    .await;
    assert_eq!(status, 200, "{lifted}");
    let said = bob.request(json!({"type": "chat", "text": "danke"})).await;
    assert_eq!(said["type"], "chat", "{said}");
    assert_eq!(get(&server, "/api/admin/mutes").await["mutes"], json!([]));
}

/// Issue 22: a mark keeps a session off the leaderboard without telling
/// it: made, listed and lifted through the API (bad ones refused), the
/// session plays on, and it is not among the bans.
#[tokio::test]
async fn a_mark_is_made_listed_and_lifted_and_the_session_plays_on() {
    let server = with_token().await;
    let mut bob = TestClient::connect(&server, "bob").await;
    let welcome = bob.request(json!({"type": "hello", "name": "bob"})).await;
    let session = welcome["session"].as_str().unwrap().to_owned();
    let (status, made) = post(
        &server,
        "/api/admin/marks",
        &json!({"session": session, "reason": "farmed throwaway sessions"}).to_string(),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let marks = get(&server, "/api/admin/marks").await;
    assert_eq!(marks["marks"][0]["session"], session.as_str(), "{marks}");
    assert_eq!(get(&server, "/api/admin/bans").await["bans"], json!([]));
    // Not told: the session still says hello, creates rooms and chats.
    let room = bob.request(json!({"type": "create", "seats": 2})).await;
    assert_eq!(room["type"], "room", "{room}");
    for body in [
        json!({"session": "nope", "reason": "x"}),
        json!({"session": session, "reason": " "}),
        json!({"session": session, "reason": "x", "minutes": 0}),
        json!({"session": session, "reason": "x", "extra": 1}),
    ] {
        let (status, answer) = post(&server, "/api/admin/marks", &body.to_string()).await;
        assert_eq!(status, 400, "{body}: {answer}");
    }
    let id = made["mark"]["id"].as_i64().unwrap();
    let (status, lifted) = post(
        &server,
        &format!("/api/admin/marks/{id}/lift"),
        &json!({"reason": "appeal accepted"}).to_string(),
    )
    .await;
    assert_eq!(status, 200, "{lifted}");
    assert_eq!(get(&server, "/api/admin/marks").await["marks"], json!([]));
}
