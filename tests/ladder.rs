//! The bots' ladder (issue 24) against the real server: programs queue in
//! the programs' pool (rated, the bots' board); two programs of one owner
//! (`hello`'s `owner`) are never seated together, and the rated games one
//! owner's programs, or one address's, play at once are capped
//! (`too_many_games` with a `retry_after_ms`, counted in the store).

use serde_json::{Value, json};
use splendor_e2e::{TestClient, TestServer};
use splendor_server::Config;

fn config(per_owner: u32, per_address: u32) -> Config {
    Config {
        max_messages_per_second: 10_000,
        message_burst: 10_000,
        bot_delay_ms: 0,
        ladder_games_per_owner: per_owner,
        ladder_games_per_address: per_address,
        ..Config::default()
    }
}

async fn program(server: &TestServer, name: &str, owner: Option<&str>) -> TestClient {
    let mut client = TestClient::connect(server, name).await;
    let mut hello = json!({"type": "hello", "name": name, "bot": true});
    if let Some(owner) = owner {
        hello["owner"] = json!(owner);
    }
    let welcome = client.request(hello).await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    client
}

async fn queue(client: &mut TestClient) -> Value {
    client.request(json!({"type": "queue", "players": 2})).await
}

/// The room of the game quick play formed for `client`.
async fn matched(client: &mut TestClient) -> String {
    client.recv_type("matched").await["room"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn one_owners_programs_never_meet_and_their_games_at_once_are_capped() {
    let server = TestServer::start_with(config(2, 8)).await;
    let alice = "alice's ladder secret";
    let mut a1 = program(&server, "alice-1", Some(alice)).await;
    let mut a2 = program(&server, "alice-2", Some(alice)).await;
    let mut bob = program(&server, "bob-1", Some("bob's ladder secret")).await;

    // Alice's two programs wait side by side, but never play each other.
    assert_eq!(queue(&mut a1).await["type"], "queued");
    let queued = queue(&mut a2).await;
    assert_eq!(queued["waiting"], 2, "{queued}");
    // Bob's program comes: it plays Alice's first, the oldest.
    assert_eq!(queue(&mut bob).await["type"], "queued");
    let room = matched(&mut bob).await;
    assert_eq!(matched(&mut a1).await, room);

    // Alice's programs now play one rated game and wait for another: her
    // cap (2) is reached. A third of hers is refused, said why and when to
    // ask again.
    let mut a3 = program(&server, "alice-3", Some(alice)).await;
    let refused = queue(&mut a3).await;
    assert_eq!(refused["code"], "too_many_games", "{refused}");
    assert!(refused["retry_after_ms"].as_u64().unwrap() > 0, "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("2 rated games"),
        "{refused}"
    );
    // A program without an owner is its own: it may queue, and plays the
    // one of Alice's that waits.
    let mut lone = program(&server, "lone", None).await;
    assert_eq!(queue(&mut lone).await["type"], "queued");
    let room = matched(&mut lone).await;
    assert_eq!(matched(&mut a2).await, room);

    // `owner` is for programs, 8 to 128 characters.
    let mut person = TestClient::connect(&server, "cy").await;
    let refused = person
        .request(json!({"type": "hello", "name": "cy", "owner": alice}))
        .await;
    assert_eq!(refused["code"], "invalid_field", "{refused}");
    let refused = person
        .request(json!({"type": "hello", "name": "cy", "bot": true, "owner": "short"}))
        .await;
    assert_eq!(refused["code"], "invalid_field", "{refused}");
}

#[tokio::test]
async fn the_programs_of_one_address_play_only_so_many_rated_games_at_once() {
    // Every client of the test comes from 127.0.0.1: one address.
    let server = TestServer::start_with(config(8, 2)).await;
    // p1 and p2 play one game; p3 then waits: two games' worth for the
    // address (a program waiting counts as a game it will play).
    let mut p1 = program(&server, "p1", None).await;
    let mut p2 = program(&server, "p2", None).await;
    assert_eq!(queue(&mut p1).await["type"], "queued");
    assert_eq!(queue(&mut p2).await["type"], "queued");
    let room = matched(&mut p1).await;
    assert_eq!(matched(&mut p2).await, room);
    let mut p3 = program(&server, "p3", None).await;
    let queued = queue(&mut p3).await;
    assert_eq!(queued["type"], "queued", "{queued}");
    let mut p4 = program(&server, "p4", None).await;
    let refused = queue(&mut p4).await;
    assert_eq!(refused["code"], "too_many_games", "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("your address"),
        "{refused}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn programs_of_one_owner_queueing_at_once_count_each_other() {
    // The cap is counted with the insert: six of one owner's programs
    // queueing at the same moment, two get in (the review found all six
    // queued when the count came before the insert).
    let server = TestServer::start_with(config(2, 100)).await;
    let mut clients = Vec::new();
    for i in 0..6 {
        clients.push(program(&server, &format!("same-{i}"), Some("one owner's secret")).await);
    }
    let answers = futures_util::future::join_all(
        clients
            .iter_mut()
            .map(|c| async move { c.request(json!({"type": "queue", "players": 4})).await }),
    )
    .await;
    let queued = answers.iter().filter(|a| a["type"] == "queued").count();
    let refused = answers
        .iter()
        .filter(|a| a["code"] == "too_many_games")
        .count();
    assert_eq!((queued, refused), (2, 4), "{answers:?}");
}

/// R12.6 (issue 47, issue 51): a quick-play game whose programs both left
/// ends deserted once nobody in play has been connected for the deserted
/// time (2 minutes; lowered here), and its ladder slots are free at once:
/// a program of the same address that was refused `too_many_games` is
/// queued now. A spectator watching the abandoned game is told.
#[tokio::test]
async fn r12_6_a_deserted_ladder_game_ends_and_frees_its_slots() {
    let server = TestServer::start_with(Config {
        deserted_after: Some(std::time::Duration::from_millis(300)),
        ..config(8, 2)
    })
    .await;
    let mut p1 = program(&server, "p1", None).await;
    let mut p2 = program(&server, "p2", None).await;
    assert_eq!(queue(&mut p1).await["type"], "queued");
    assert_eq!(queue(&mut p2).await["type"], "queued");
    let room = matched(&mut p1).await;
    assert_eq!(matched(&mut p2).await, room);
    let mut p3 = program(&server, "p3", None).await;
    assert_eq!(queue(&mut p3).await["type"], "queued");
    let mut p4 = program(&server, "p4", None).await;
    assert_eq!(queue(&mut p4).await["code"], "too_many_games");

    // Someone watches; both programs leave without a word.
    let mut watcher = TestClient::join_server(&server, "watcher").await;
    let watching = watcher
        .request(json!({"type": "join", "code": room, "as": "spectator"}))
        .await;
    assert_eq!(watching["type"], "room", "{watching}");
    p1.disconnect().await;
    p2.disconnect().await;
    let result = watcher.recv_type("result").await;
    assert_eq!(result["end"], "deserted", "{result}");
    let closed = watcher.recv_type("room_closed").await;
    let reason = closed["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("R12.6"), "{closed}");

    // The slots are free: p4 may queue now (and meets p3).
    let queued = queue(&mut p4).await;
    assert_eq!(queued["type"], "queued", "{queued}");
    assert_eq!(matched(&mut p4).await, matched(&mut p3).await);
    // Unrated: nobody is on the bots' board.
    let (_, board) = server.http_get("/api/leaderboard?kind=bots").await;
    let board: Value = serde_json::from_str(&board).unwrap();
    assert_eq!(board["total"], 0, "{board}");
}

/// Issue 51, defect 6: a program whose token lived only in memory runs
/// again under its name and with its owner's secret: it is the same
/// program (session, player id, name), with a new token; another owner's
/// secret, or none, still finds the name taken. Each token given this way
/// replaces the one given before (whose connection is closed); the
/// program's first token stays; wrong secrets are counted as password
/// tries are.
#[tokio::test]
async fn a_program_gets_its_name_back_with_its_owners_secret() {
    let server = TestServer::start_with(config(2, 8)).await;
    let hello = |owner: Option<&str>| {
        let mut hello = json!({"type": "hello", "name": "Keeper", "bot": true});
        if let Some(owner) = owner {
            hello["owner"] = json!(owner);
        }
        hello
    };
    let mut first = TestClient::connect(&server, "keeper").await;
    let welcome = first.request(hello(Some("keepers-secret"))).await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    let (session, player_id) = (welcome["session"].clone(), welcome["player_id"].clone());
    let first_token = welcome["token"].as_str().unwrap().to_owned();
    drop(first);

    // Run again without the token: the same program.
    let mut again = TestClient::connect(&server, "keeper").await;
    let back = again.request(hello(Some("keepers-secret"))).await;
    assert_eq!(back["type"], "welcome", "{back}");
    assert_eq!(back["resumed"], true, "{back}");
    assert_eq!(back["session"], session);
    assert_eq!(back["player_id"], player_id);
    assert_eq!(back["name"], "Keeper");
    let second_token = back["token"].as_str().unwrap().to_owned();
    assert_ne!(second_token, first_token);
    drop(again);

    // Another owner, or none: the name is taken, as before.
    for owner in [Some("someone-elses"), None] {
        let mut other = TestClient::connect(&server, "other").await;
        let refused = other.request(hello(owner)).await;
        assert_eq!(refused["code"], "name_taken", "{owner:?}: {refused}");
    }

    // Once more, while the second token's connection is open: a third
    // token; the second's connection is closed (revoked, 4007) and the
    // second no longer opens the session, the first (the program's own)
    // still does.
    let mut live = TestClient::connect(&server, "keeper").await;
    // (Its hello says the owner, as the kits' do: a hello without one
    // leaves the program without an owner, issue 24.)
    let welcome = live
        .request(
            json!({"type": "hello", "token": second_token, "bot": true, "owner": "keepers-secret"}),
        )
        .await;
    assert_eq!(welcome["session"], session, "{welcome}");
    let mut third = TestClient::connect(&server, "keeper").await;
    let back = third.request(hello(Some("keepers-secret"))).await;
    assert_eq!(back["session"], session, "{back}");
    assert_eq!(live.expect_close().await.0, 4007);
    drop(third);
    let mut stale = TestClient::connect(&server, "keeper").await;
    let refused = stale
        .request(json!({"type": "hello", "token": second_token}))
        .await;
    assert_eq!(refused["code"], "invalid_token", "{refused}");
    let mut own = TestClient::connect(&server, "keeper").await;
    let welcome = own
        .request(json!({"type": "hello", "token": first_token}))
        .await;
    assert_eq!(welcome["session"], session, "{welcome}");

    // The secret is guessed no faster than a password: five wrong ones
    // from an address this minute (one above, four here), and that
    // address is not heard for the rest of it, right secret or not.
    for n in 0..4 {
        let mut guess = TestClient::connect(&server, "guess").await;
        let refused = guess
            .request(hello(Some(&format!("guess-number-{n}"))))
            .await;
        assert_eq!(refused["code"], "name_taken", "{refused}");
    }
    let mut right = TestClient::connect(&server, "keeper").await;
    let refused = right.request(hello(Some("keepers-secret"))).await;
    assert_eq!(refused["code"], "name_taken", "{refused}");
}
