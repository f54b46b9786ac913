//! Challenges (issue 24) against the real server: a session invited by
//! `player_id` gets a `challenge` at once on its open connection, with
//! what the room offers; it accepts by joining, or declines with a reason
//! the challenger is told (`challenge_declined`), over the socket or HTTP.
//! A program that takes challenges is listed by `GET /api/bots/online`
//! while connected and gets the challenges that waited for it after
//! `welcome`. Programs' names are unique among programs.

use serde_json::{Value, json};
use splendor_e2e::process::http_request;
use splendor_e2e::{TestClient, TestServer};

/// A program that takes challenges; its welcome.
async fn program(server: &TestServer, name: &str) -> (TestClient, Value) {
    let mut client = TestClient::connect(server, name).await;
    let welcome = client
        .request(json!({"type": "hello", "name": name, "bot": true, "challenges": true}))
        .await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    client.token = Some(welcome["token"].as_str().unwrap().to_owned());
    (client, welcome)
}

async fn bots_online(server: &TestServer) -> Vec<Value> {
    let (status, body) = server.http_get("/api/bots/online").await;
    assert_eq!(status, 200, "{body}");
    let list: Value = serde_json::from_str(&body).unwrap();
    list["bots"].as_array().unwrap().clone()
}

fn names(bots: &[Value]) -> Vec<String> {
    bots.iter()
        .map(|b| b["name"].as_str().unwrap().to_owned())
        .collect()
}

/// Reads `/api/bots/online` until `pred` holds: a closed connection is
/// taken off the list by the server a moment after the close.
async fn bots_online_until(server: &TestServer, pred: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    for _ in 0..500 {
        let bots = bots_online(server).await;
        if pred(&bots) {
            return bots;
        }
        // The server ends the closed connection on its own task: look
        // again soon (an outside view of the list, like a bot author's).
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("the list of bots online never changed as expected");
}

#[tokio::test]
async fn a_challenge_reaches_the_program_at_once_and_is_declined_with_a_reason_or_accepted() {
    let server = TestServer::start().await;
    let (mut gem, welcome) = program(&server, "gem-bot").await;
    let gem_id = welcome["player_id"].as_str().unwrap().to_owned();

    // Listed online, by name and id.
    let bots = bots_online(&server).await;
    assert_eq!(names(&bots), ["gem-bot"]);
    assert_eq!(bots[0]["player_id"], gem_id.as_str());
    assert_eq!(bots[0]["rated_games"], 0);

    // Ann makes a room with a clock and challenges the program.
    let mut ann = TestClient::connect(&server, "ann").await;
    let ann_id = ann.hello().await.player_id;
    let room = ann
        .request(
            json!({"type": "create", "seats": 2, "clock": {"initial_s": 60, "increment_s": 2}}),
        )
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    let invited = ann
        .request(json!({"type": "invite", "player_id": gem_id}))
        .await;
    assert_eq!(invited["type"], "invited", "{invited}");
    let challenge = gem.recv_type("challenge").await;
    assert_eq!(challenge["room"], code.as_str(), "{challenge}");
    assert_eq!(
        challenge["invitation"], invited["invitation"],
        "{challenge}"
    );
    assert_eq!(challenge["from"]["name"], "ann");
    assert_eq!(challenge["from"]["player_id"], ann_id.as_str());
    assert!(
        challenge["from"].get("program_bot").is_none(),
        "{challenge}"
    );
    assert_eq!(challenge["terms"]["seats"], 2, "{challenge}");
    assert_eq!(challenge["terms"]["players"], 1, "{challenge}");
    assert_eq!(challenge["terms"]["clock"]["initial_s"], 60, "{challenge}");
    assert!(challenge["terms"].get("rated").is_none(), "{challenge}");

    // A bad reason, an unknown invitation: specific errors, nothing changes.
    let bad = gem
        .request(
            json!({"type": "decline", "invitation": challenge["invitation"], "reason": "boring"}),
        )
        .await;
    assert_eq!(bad["code"], "invalid_field", "{bad}");
    let unknown = gem
        .request(json!({"type": "decline", "invitation": "0f3c"}))
        .await;
    assert_eq!(unknown["code"], "invitation_not_found", "{unknown}");
    // Ann cannot decline it for the program.
    let not_hers = ann
        .request(json!({"type": "decline", "invitation": challenge["invitation"]}))
        .await;
    assert_eq!(not_hers["code"], "invitation_not_found", "{not_hers}");

    // Declined: the program has the answer, Ann is told who and why.
    let declined = gem
        .request(
            json!({"type": "decline", "invitation": challenge["invitation"], "reason": "too_fast"}),
        )
        .await;
    assert_eq!(declined["type"], "declined", "{declined}");
    assert_eq!(declined["reason"], "too_fast");
    assert_eq!(declined["room"], code.as_str());
    let told = ann.recv_type("challenge_declined").await;
    assert_eq!(told["invitation"], challenge["invitation"], "{told}");
    assert_eq!(told["by"]["name"], "gem-bot", "{told}");
    assert_eq!(told["by"]["player_id"], gem_id.as_str(), "{told}");
    assert_eq!(told["by"]["program_bot"], true, "{told}");
    assert_eq!(told["reason"], "too_fast", "{told}");
    let again = gem
        .request(json!({"type": "decline", "invitation": challenge["invitation"]}))
        .await;
    assert_eq!(again["code"], "invitation_not_found", "{again}");

    // Challenged again: accepted by joining; Ann sees the program seated.
    ann.request(json!({"type": "invite", "player_id": gem_id}))
        .await;
    let challenge = gem.recv_type("challenge").await;
    let joined = gem
        .request(json!({"type": "join", "code": challenge["room"], "as": "player"}))
        .await;
    assert_eq!(joined["type"], "room", "{joined}");
    let room = ann.recv_type("room").await;
    assert_eq!(room["seats"][1]["program_bot"], true, "{room}");

    // Off the list once its connection ends.
    gem.disconnect().await;
    bots_online_until(&server, |bots| bots.is_empty()).await;
}

#[tokio::test]
async fn challenges_wait_for_a_program_and_a_decline_over_http_tells_the_challenger() {
    let server = TestServer::start().await;
    let (ruby, welcome) = program(&server, "ruby").await;
    let ruby_id = welcome["player_id"].as_str().unwrap().to_owned();
    let token = ruby.token.clone().unwrap();
    ruby.disconnect().await;
    bots_online_until(&server, |bots| bots.is_empty()).await;

    // Ann challenges the program while it is away: nothing is lost.
    let mut ann = TestClient::join_server(&server, "ann").await;
    ann.request(json!({"type": "create", "seats": 3, "rated": true}))
        .await;
    let invited = ann
        .request(json!({"type": "invite", "player_id": ruby_id}))
        .await;
    assert_eq!(invited["type"], "invited", "{invited}");

    // Back, taking challenges: the waiting one comes after welcome.
    let mut ruby = TestClient::connect(&server, "ruby").await;
    let welcome = ruby
        .request(json!({"type": "hello", "token": token, "bot": true, "challenges": true}))
        .await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    let challenge = ruby.recv_type("challenge").await;
    assert_eq!(
        challenge["invitation"], invited["invitation"],
        "{challenge}"
    );
    assert_eq!(challenge["terms"]["seats"], 3, "{challenge}");
    assert_eq!(challenge["terms"]["rated"], true, "{challenge}");
    assert_eq!(names(&bots_online(&server).await), ["ruby"]);

    // Declined over HTTP with a reason: the challenger is told.
    let id = challenge["invitation"].as_str().unwrap();
    let auth = format!("Bearer {token}");
    let path = format!("/api/me/invitations/{id}?reason=bogus");
    let (status, body) = http_request(
        server.addr(),
        "DELETE",
        &path,
        &[("Authorization", &auth)],
        "",
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("invalid_query"), "{body}");
    let path = format!("/api/me/invitations/{id}?reason=casual");
    let (status, _) = http_request(
        server.addr(),
        "DELETE",
        &path,
        &[("Authorization", &auth)],
        "",
    )
    .await;
    assert_eq!(status, 204);
    let told = ann.recv_type("challenge_declined").await;
    assert_eq!(told["reason"], "casual", "{told}");
    assert_eq!(told["by"]["name"], "ruby", "{told}");
}

#[tokio::test]
async fn programs_names_are_unique_among_programs_whatever_their_case() {
    let server = TestServer::start().await;
    let (first, _) = program(&server, "Gem-Bot").await;
    let token = first.token.clone().unwrap();
    // Another program under that name, in any case: refused, said why.
    let mut second = TestClient::connect(&server, "gem-bot").await;
    let refused = second
        .request(json!({"type": "hello", "name": "gem-bot", "bot": true}))
        .await;
    assert_eq!(refused["code"], "name_taken", "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("choose another name"),
        "{refused}"
    );
    // The connection may try another name.
    let welcome = second
        .request(json!({"type": "hello", "name": "gem-bot-2", "bot": true}))
        .await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    // A person may share a program's name.
    let mut person = TestClient::connect(&server, "gem-bot").await;
    let welcome = person
        .request(json!({"type": "hello", "name": "GEM-BOT"}))
        .await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    // A program renaming itself to a taken name is refused and keeps its
    // name; the first program keeps its own across a resume.
    drop(person);
    let mut again = TestClient::connect(&server, "gem-bot").await;
    let resumed = again
        .request(json!({"type": "hello", "token": token, "bot": true}))
        .await;
    assert_eq!(resumed["type"], "welcome", "{resumed}");
    assert_eq!(resumed["name"], "Gem-Bot");
    drop(again);
    let (mut third, welcome) = program(&server, "ruby").await;
    let third_token = welcome_token(&welcome);
    drop(third);
    third = TestClient::connect(&server, "ruby").await;
    let renamed = third
        .request(json!({"type": "hello", "token": third_token, "name": "gem-BOT"}))
        .await;
    assert_eq!(renamed["code"], "name_taken", "{renamed}");
    let welcome = third
        .request(json!({"type": "hello", "token": third_token}))
        .await;
    assert_eq!(welcome["name"], "ruby", "{welcome}");
    // `challenges` is for programs only.
    let mut person = TestClient::connect(&server, "cy").await;
    let refused = person
        .request(json!({"type": "hello", "name": "cy", "challenges": true}))
        .await;
    assert_eq!(refused["code"], "invalid_field", "{refused}");
}

fn welcome_token(welcome: &Value) -> String {
    welcome["token"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_program_waiting_for_challenges_is_not_closed_as_idle() {
    // The review found such a bot closed (4004) after the idle timeout:
    // waiting for challenges is what it is there for.
    let server = splendor_e2e::TestServer::start_with(splendor_server::Config {
        idle_timeout: std::time::Duration::from_millis(300),
        ..splendor_server::Config::default()
    })
    .await;
    let (mut waiter, welcome) = program(&server, "patient-bot").await;
    // Another session, identified after the program and in no room, is
    // closed as idle: the idle time has passed for the program too.
    let mut idle = TestClient::join_server(&server, "idle").await;
    let (code, reason) = idle.expect_close().await;
    assert!(reason.starts_with("idle"), "{code} {reason}");
    // Still there, still listed, and still challenged.
    assert_eq!(names(&bots_online(&server).await), ["patient-bot"]);
    let mut ann = TestClient::join_server(&server, "ann").await;
    ann.request(json!({"type": "create", "seats": 2})).await;
    ann.request(json!({"type": "invite", "player_id": welcome["player_id"]}))
        .await;
    let challenge = waiter.recv_type("challenge").await;
    assert_eq!(challenge["from"]["name"], "ann", "{challenge}");
}
