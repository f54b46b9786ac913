//! Forgetting a player (issue 22): by the operators' API on a running
//! server and by `splendor-server forget-player`; the name (a unique one)
//! and the token leave no trace in any table (nor the reports that named
//! them or kept their chat, issue 22), the
//! games stay as "a former player" and their replays verify.

use serde_json::{Value, json};
use splendor_e2e::process::{ServerProcess, TestDatabase, http_get, http_get_with, http_post_with};
use splendor_e2e::{Dice, TestClient};
use splendor_replay::{Replay, verify};
use splendor_store::testing::{sqlite_find, token_hash};

const SERVER: &str = env!("CARGO_BIN_EXE_splendor-server-e2e");
const TOKEN: &str = "forget-operators-0123456789";

/// A finished game between `name` and bob, with a chat line from `name`;
/// returns the player's session, token and the game.
async fn played(addr: std::net::SocketAddr, name: &str, chat: &str) -> (String, String, String) {
    let mut ann = TestClient::connect_to(addr, name).await;
    let welcome = ann.request(json!({"type": "hello", "name": name})).await;
    let (session, token) = (
        welcome["session"].as_str().unwrap().to_owned(),
        welcome["token"].as_str().unwrap().to_owned(),
    );
    ann.token = Some(token.clone());
    let mut bob = TestClient::connect_to(addr, "bob").await;
    bob.hello().await;
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    bob.request(json!({"type": "join", "code": code})).await;
    let mut cy = TestClient::connect_to(addr, "cy").await;
    cy.hello().await;
    cy.request(json!({"type": "join", "code": code, "as": "spectator"}))
        .await;
    let said = ann.request(json!({"type": "chat", "text": chat})).await;
    assert_eq!(said["type"], "chat", "{said}");
    // Issue 22: reports keep the room's chat. Bob reports the player (a
    // report about them), Cy reports Bob (a report about someone else that
    // keeps the player's line in its context).
    let reported = bob
        .request(json!({"type": "report", "seat": 0, "reason": "rude"}))
        .await;
    assert_eq!(reported["name"], name, "{reported}");
    let reported = cy
        .request(json!({"type": "report", "seat": 1, "reason": "also rude"}))
        .await;
    assert_eq!(reported["name"], "bob", "{reported}");
    ann.request(json!({"type": "start"})).await;
    let (mut da, mut db) = (Dice(3), Dice(4));
    let (result, _) = tokio::join!(
        ann.play_until_result(&mut da),
        bob.play_until_result(&mut db)
    );
    (session, token, result["game"].as_str().unwrap().to_owned())
}

async fn replay_verifies(addr: std::net::SocketAddr, game: &str) -> Value {
    let (status, body) = http_get(addr, &format!("/api/games/{game}/replay")).await;
    assert_eq!(status, 200, "{body}");
    let replay = Replay::from_json(&body).expect("a replay");
    verify(&replay).unwrap_or_else(|e| panic!("the replay does not verify: {e}"));
    serde_json::from_str(&body).unwrap()
}

#[tokio::test]
async fn a_forgotten_player_leaves_no_trace_and_their_games_still_verify() {
    let db = TestDatabase::sqlite();
    let server =
        ServerProcess::start_with_env(SERVER, &db.url, &[("SPLENDOR_ADMIN_TOKEN", TOKEN)]).await;
    let addr = server.addr();
    let (session, token, game) = played(addr, "Zebulon7f3a", "secret-chat-9d1").await;
    let before = replay_verifies(addr, &game).await;
    assert!(before.to_string().contains("Zebulon7f3a"));
    // The positions are served (and kept in memory) with the name.
    let (status, _) = http_get(addr, &format!("/api/games/{game}/positions")).await;
    assert_eq!(status, 200);
    let needles: [&[u8]; 4] = [
        b"Zebulon7f3a",
        b"secret-chat-9d1",
        token.as_bytes(),
        &token_hash(&token),
    ];
    let found = sqlite_find(&db.url, &needles).await;
    assert!(
        !found.is_empty(),
        "the scan finds the name before: {found:?}"
    );

    let auth = format!("Bearer {TOKEN}");
    let (status, body) = http_post_with(
        addr,
        &format!("/api/admin/players/{session}/forget"),
        &[("Authorization", auth.as_str())],
        &json!({"reason": "asked by email"}).to_string(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    // Nowhere in the database any more: chat is stored only with reports,
    // and the player's reports and lines went.
    assert_eq!(sqlite_find(&db.url, &needles).await, Vec::<String>::new());
    let (status, reports) = http_get_with(
        addr,
        "/api/admin/reports?status=all",
        &[("Authorization", auth.as_str())],
    )
    .await;
    assert_eq!(status, 200, "{reports}");
    let reports: Value = serde_json::from_str(&reports).unwrap();
    let reported: Vec<&str> = reports["reports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["reported"]["name"].as_str().unwrap())
        .collect();
    assert!(
        reported.contains(&"bob"),
        "Cy's report of Bob stays: {reports}"
    );
    // The games stay, as a former player's, and verify.
    let after = replay_verifies(addr, &game).await;
    assert!(after.to_string().contains("a former player"), "{after}");
    let (_, positions) = http_get(addr, &format!("/api/games/{game}/positions")).await;
    assert!(!positions.contains("Zebulon7f3a"));
    // The token no longer resumes anything.
    let mut again = TestClient::connect_to(addr, "again").await;
    let refused = again
        .request(json!({"type": "hello", "token": token}))
        .await;
    assert_eq!(refused["code"], "invalid_token", "{refused}");
    // A second forget of the same session finds it (already a former
    // player); an unknown one is 404, a malformed one 400.
    let (status, _) = http_post_with(
        addr,
        "/api/admin/players/0000000000000000000000000000abcd/forget",
        &[("Authorization", auth.as_str())],
        &json!({"reason": "x"}).to_string(),
    )
    .await;
    assert_eq!(status, 404);
    let (status, _) = http_post_with(
        addr,
        "/api/admin/players/not-a-session/forget",
        &[("Authorization", auth.as_str())],
        &json!({"reason": "x"}).to_string(),
    )
    .await;
    assert_eq!(status, 400);

    // The command line does the same for another player.
    let (session2, token2, game2) = played(addr, "Quillon8e2b", "another-chat-3c4").await;
    let out = tokio::task::spawn_blocking({
        let url = db.url.clone();
        move || {
            std::process::Command::new(SERVER)
                .args(["--database-url", &url, "forget-player", &session2])
                .env_remove("SPLENDOR_DATABASE_URL")
                .env_remove("SPLENDOR_DATA_DIR")
                .output()
                .expect("run forget-player")
        }
    })
    .await
    .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let needles2: [&[u8]; 4] = [
        b"Quillon8e2b",
        b"another-chat-3c4",
        token2.as_bytes(),
        &token_hash(&token2),
    ];
    assert_eq!(sqlite_find(&db.url, &needles2).await, Vec::<String>::new());
    replay_verifies(addr, &game2).await;
}
