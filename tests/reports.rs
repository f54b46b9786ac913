//! Reports (issue 22) against the real server on port 0: a player reports
//! another by seat, by chat line or by `player_id`; the operators list
//! the open reports with the room's chat in context, the replay link and
//! the reported session's history, and resolve them (audited); the
//! reported player is never told. `block` names a seat or a line too.
//! Bad input is refused with a clear error and changes nothing.

use serde_json::{Value, json};
use splendor_e2e::operators::{TOKEN, with_token};
use splendor_e2e::process::{http_get_with, http_post_with};
use splendor_e2e::{TestClient, TestServer};

async fn get(server: &TestServer, path: &str) -> (u16, Value) {
    let auth = format!("Bearer {TOKEN}");
    let (status, text) = http_get_with(server.addr(), path, &[("Authorization", &auth)]).await;
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

async fn post(server: &TestServer, path: &str, body: &str) -> (u16, Value) {
    let auth = format!("Bearer {TOKEN}");
    let (status, text) =
        http_post_with(server.addr(), path, &[("Authorization", &auth)], body).await;
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

async fn person(server: &TestServer, name: &str) -> (TestClient, Value) {
    let mut client = TestClient::connect(server, name).await;
    let welcome = client.request(json!({"type": "hello", "name": name})).await;
    (client, welcome)
}

#[tokio::test]
async fn a_report_reaches_the_operators_with_its_context_and_is_resolved_once() {
    let server = with_token().await;
    let (mut ann, ann_w) = person(&server, "ann").await;
    let (mut bob, bob_w) = person(&server, "bob").await;
    let (mut eve, _) = person(&server, "eve").await;
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    eve.request(json!({"type": "join", "code": code, "as": "spectator"}))
        .await;
    ann.request(json!({"type": "start", "seat_order": "joined"}))
        .await;
    ann.request(json!({"type": "chat", "text": "good luck"}))
        .await;
    let bad = bob
        .request(json!({"type": "chat", "text": "you all play like bots"}))
        .await;
    let bob_line = bad["line"].as_u64().expect("a chat line has its number");
    let spam = eve
        .request(json!({"type": "chat", "text": "buy gold now"}))
        .await;
    let eve_line = spam["line"].as_u64().unwrap();
    assert!(bob_line > 1 && eve_line > bob_line, "{bad} {spam}");

    // Bad reports first: each refused, nothing kept.
    for (frame, code_wanted) in [
        (json!({"type": "report", "seat": 1}), "missing_field"),
        (json!({"type": "report", "reason": "x"}), "invalid_field"),
        (
            json!({"type": "report", "seat": 1, "line": 2, "reason": "x"}),
            "invalid_field",
        ),
        (
            json!({"type": "report", "seat": 1, "reason": "   "}),
            "invalid_field",
        ),
        (
            json!({"type": "report", "seat": 1, "reason": "x".repeat(501)}),
            "invalid_field",
        ),
        (
            json!({"type": "report", "seat": 1, "reason": "a\u{202e}b"}),
            "invalid_field",
        ),
        (
            json!({"type": "report", "seat": 0, "reason": "me"}),
            "invalid_field",
        ),
        (
            json!({"type": "report", "seat": 3, "reason": "nobody"}),
            "invalid_seat",
        ),
        (
            json!({"type": "report", "line": 999, "reason": "gone"}),
            "invalid_field",
        ),
        (
            json!({"type": "report", "player_id": "0000000000", "reason": "who"}),
            "player_not_found",
        ),
    ] {
        let refused = ann.request(frame.clone()).await;
        assert_eq!(refused["code"], code_wanted, "{frame} -> {refused}");
    }
    let (status, open) = get(&server, "/api/admin/reports").await;
    assert_eq!(status, 200, "{open}");
    assert_eq!(open["reports"], json!([]), "{open}");

    // Ann reports Bob by his seat, and Eve's line; the spectator Eve may
    // report too.
    let reported = ann
        .request(json!({"type": "report", "seat": 1, "reason": "insults in chat"}))
        .await;
    assert_eq!(reported["type"], "reported", "{reported}");
    assert_eq!(
        (&reported["name"], &reported["new"]),
        (&json!("bob"), &json!(true))
    );
    // A seat or a line reveals no player id (an unrated room shows none).
    assert!(reported.get("player_id").is_none(), "{reported}");
    let again = ann
        .request(json!({"type": "report", "line": bob_line, "reason": "and again"}))
        .await;
    assert_eq!(
        (&again["name"], &again["new"]),
        (&json!("bob"), &json!(false)),
        "{again}"
    );
    let by_line = ann
        .request(json!({"type": "report", "line": eve_line, "reason": "spam"}))
        .await;
    assert_eq!(by_line["name"], "eve", "{by_line}");
    assert!(by_line.get("player_id").is_none(), "{by_line}");
    let from_eve = eve
        .request(json!({"type": "report", "player_id": ann_w["player_id"], "reason": "rude"}))
        .await;
    assert_eq!(from_eve["type"], "reported", "{from_eve}");
    assert_eq!(from_eve["player_id"], ann_w["player_id"], "named by it");
    // Nobody reported is told: Bob, reported twice, never hears of it (a
    // round trip first, so that anything sent to him has arrived).
    assert_eq!(bob.request(json!({"type": "ping"})).await["type"], "pong");
    assert!(
        !bob.frames.iter().any(|f| f.contains("\"reported\"")),
        "{:?}",
        bob.frames
    );
    assert!(
        !bob.frames.iter().any(|f| f.contains("insults")),
        "{:?}",
        bob.frames
    );

    // The operators see them, newest first, with the room's chat.
    let (_, open) = get(&server, "/api/admin/reports").await;
    let reports = open["reports"].as_array().unwrap();
    assert_eq!(reports.len(), 3, "{open}");
    let about_bob = reports
        .iter()
        .find(|r| r["reported"]["name"] == "bob")
        .unwrap();
    let first = about_bob["id"].as_i64().unwrap();
    assert_eq!(about_bob["reported"]["name"], "bob");
    assert_eq!(about_bob["reported"]["session"], bob_w["session"]);
    assert_eq!(about_bob["reporter"]["name"], "ann");
    assert_eq!(about_bob["room"], code.as_str());
    assert_eq!(about_bob["seat"], 1);
    assert_eq!(about_bob["reason"], "insults in chat");
    let game = about_bob["game"].as_str().expect("the game being played");
    assert_eq!(about_bob["replay"], format!("/games/{game}"));
    let chat: Vec<(&str, bool)> = about_bob["chat"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["text"].as_str().unwrap(),
                l["reported"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        chat,
        [
            ("good luck", false),
            ("you all play like bots", true),
            ("buy gold now", false)
        ]
    );
    let about_eve = reports
        .iter()
        .find(|r| r["reported"]["name"] == "eve")
        .unwrap();
    assert_eq!(about_eve["line"], "buy gold now");
    assert_eq!(about_eve["seat"], Value::Null, "a spectator has no seat");

    // Bob's history: the report about him, no sanction yet.
    let path = format!("/api/admin/sessions/{}", bob_w["session"].as_str().unwrap());
    let (status, history) = get(&server, &path).await;
    assert_eq!(status, 200, "{history}");
    assert_eq!(history["name"], "bob");
    assert_eq!(history["reports"].as_array().unwrap().len(), 1, "{history}");
    assert_eq!(history["playing_in"], code.as_str());
    assert_eq!(history["connected_here"], true);

    // Resolved once, with the action taken; audited.
    let resolve = format!("/api/admin/reports/{first}/resolve");
    for (body, status_wanted) in [
        ("{", 400),
        (r#"{"action":"shot","note":"x"}"#, 400),
        (r#"{"action":"warned"}"#, 400),
        (r#"{"action":"warned","note":" "}"#, 400),
    ] {
        let (status, answer) = post(&server, &resolve, body).await;
        assert_eq!(status, status_wanted, "{body}: {answer}");
        assert!(answer["message"].is_string(), "{answer}");
    }
    let (status, answer) = post(
        &server,
        "/api/admin/reports/0/resolve",
        r#"{"action":"warned","note":"x"}"#,
    )
    .await;
    assert_eq!(status, 400, "{answer}");
    let (status, answer) = post(
        &server,
        "/api/admin/reports/9999/resolve",
        r#"{"action":"warned","note":"x"}"#,
    )
    .await;
    assert_eq!(status, 404, "{answer}");
    let (status, done) = post(
        &server,
        &resolve,
        r#"{"action":"warned","note":"told him in chat"}"#,
    )
    .await;
    assert_eq!(status, 200, "{done}");
    assert_eq!(done["resolved"]["action"], "warned");
    let (status, _) = post(&server, &resolve, r#"{"action":"banned","note":"twice"}"#).await;
    assert_eq!(status, 404, "resolved once");
    let (_, open) = get(&server, "/api/admin/reports").await;
    assert_eq!(open["reports"].as_array().unwrap().len(), 2, "{open}");
    let (_, all) = get(&server, "/api/admin/reports?status=all").await;
    assert_eq!(all["reports"].as_array().unwrap().len(), 3, "{all}");
    let (status, _) = get(&server, "/api/admin/reports?status=closed").await;
    assert_eq!(status, 400);
    let (_, audit) = get(&server, "/api/admin/audit").await;
    assert!(
        audit.to_string().contains(&format!("report:{first}")),
        "{audit}"
    );

    // The sessions view finds them by name; the queue view is empty.
    let (_, found) = get(&server, "/api/admin/sessions?q=bo").await;
    let names: Vec<&str> = found["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["bob"], "{found}");
    assert_eq!(found["sessions"][0]["address"], "127.0.0.1");
    let (_, queue) = get(&server, "/api/admin/queue").await;
    assert_eq!(queue["queue"], json!([]));
    let (status, _) = get(&server, "/api/admin/sessions/nothing").await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn a_block_by_seat_or_chat_line_blocks_the_person_there() {
    let server = with_token().await;
    let (mut ann, _) = person(&server, "ann").await;
    let (mut bob, bob_w) = person(&server, "bob").await;
    let (mut eve, eve_w) = person(&server, "eve").await;
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    eve.request(json!({"type": "join", "code": code, "as": "spectator"}))
        .await;
    let line = eve.request(json!({"type": "chat", "text": "spam"})).await["line"].clone();
    let blocked = ann.request(json!({"type": "block", "seat": 1})).await;
    assert_eq!(blocked["type"], "blocked", "{blocked}");
    assert_eq!(blocked["name"], "bob", "{blocked}");
    // Named by seat, the answer reveals no player id.
    assert!(blocked.get("player_id").is_none(), "{blocked}");
    let blocked = ann.request(json!({"type": "block", "line": line})).await;
    assert_eq!(blocked["name"], "eve", "{blocked}");
    assert!(blocked.get("player_id").is_none(), "{blocked}");
    // Blocked by seat is blocked by player id: the same block.
    let again = ann
        .request(json!({"type": "block", "player_id": bob_w["player_id"]}))
        .await;
    assert_eq!(
        (&again["new"], &again["player_id"]),
        (&json!(false), &bob_w["player_id"]),
        "{again}"
    );
    let _ = eve_w;
    // Eve's next line never reaches Ann; Bob's neither.
    eve.request(json!({"type": "chat", "text": "more spam"}))
        .await;
    bob.request(json!({"type": "chat", "text": "from bob"}))
        .await;
    ann.request(json!({"type": "chat", "text": "from ann"}))
        .await;
    assert!(
        !ann.frames
            .iter()
            .any(|f| f.contains("more spam") || f.contains("from bob")),
        "{:?}",
        ann.frames
    );
    let unblocked = ann.request(json!({"type": "unblock", "seat": 1})).await;
    assert_eq!(unblocked["was_blocked"], true, "{unblocked}");
    // A stranger to the room cannot name its seats.
    let (mut dan, _) = person(&server, "dan").await;
    let refused = dan.request(json!({"type": "block", "seat": 0})).await;
    assert_eq!(refused["code"], "not_in_room", "{refused}");
    let refused = ann.request(json!({"type": "block", "seat": 0})).await;
    assert_eq!(refused["code"], "invalid_field", "yourself: {refused}");
}
