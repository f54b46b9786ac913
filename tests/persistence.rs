//! Durability and replays, end to end.
//!
//! The crash test starts the real server binary on a fresh database, plays
//! part of a game over WebSockets, kills the process with SIGKILL, starts it
//! again on the same database, and has both players resume with their
//! tokens: each finds exactly the last state it was sent, and the game plays
//! on to the end. The finished game's replay is then fetched over HTTP and
//! verified, by the library and by `splendor-server verify` as a player
//! would run it. It runs on SQLite always, and on PostgreSQL when
//! `SPLENDOR_TEST_DATABASE_URL` is set (otherwise it says SKIPPED on stderr).
//!
//! The history API's answers (404 with a reason for unknown and running
//! games, pages) are tested on an in-process server.

use serde_json::{Value, json};
use splendor_e2e::{
    Dice, ServerProcess, TestClient, TestDatabase, TestServer, http_get, open_table, open_table_at,
};
use splendor_protocol::{ResultInfo, ServerMessage, StateInfo};
use splendor_replay::{Commitment, Replay, Salt, Seed, verify_with_commitment};

/// The server binary (the root package's copy of `splendor-server`).
const SERVER: &str = env!("CARGO_BIN_EXE_splendor-server-e2e");

#[tokio::test]
async fn sqlite_a_killed_server_restarts_where_it_was() {
    crash_and_resume(TestDatabase::sqlite()).await;
}

#[tokio::test]
async fn postgres_a_killed_server_restarts_where_it_was() {
    if let Some(db) = TestDatabase::postgres("postgres_a_killed_server_restarts_where_it_was").await
    {
        crash_and_resume(db).await;
    }
}

/// The state as a comparison needs it: without the request id.
fn bare(mut state: StateInfo) -> StateInfo {
    state.id = None;
    state
}

async fn result_of(client: &mut TestClient) -> ResultInfo {
    match client
        .recv_message(|m| matches!(m, ServerMessage::Result(_)))
        .await
    {
        ServerMessage::Result(r) => r,
        _ => unreachable!(),
    }
}

async fn crash_and_resume(db: TestDatabase) {
    let server = ServerProcess::start(SERVER, &db.url).await;
    let mut table = open_table_at(server.addr(), &["ann", "bob"]).await;
    let mut dice = Dice(2024);
    let (version, before, public_before) = table.play(0, 24, &mut dice).await;
    assert_eq!(version, 24, "{}: the game is still running", db.kind);
    let game = before[0].game.clone();
    let commitment = before[0].commitment.clone();
    assert!(before.iter().all(|s| s.commitment == commitment));
    // While it runs, nothing of it is published.
    for path in [
        format!("/api/games/{game}"),
        format!("/api/games/{game}/replay"),
    ] {
        let (status, body) = http_get(server.addr(), &path).await;
        assert_eq!(status, 404, "{path}: {body}");
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(body["error"], "game_not_finished", "{body}");
    }
    let tokens: Vec<String> = table
        .players
        .iter()
        .map(|p| p.token.clone().expect("a token"))
        .collect();

    // No graceful stop: the process dies at once.
    server.kill().await;
    let server = ServerProcess::start(SERVER, &db.url).await;

    // Each player resumes with its token and is put back into its seat with
    // the state it last received, identical.
    let mut states = Vec::new();
    for (seat, token) in tokens.iter().enumerate() {
        let name = table.players[seat].name.clone();
        let mut client = TestClient::connect_to(server.addr(), &name).await;
        let welcome = client.resume(token).await;
        assert!(welcome.resumed, "{welcome:?}");
        assert_eq!(welcome.name, name);
        let state = client.state().await;
        assert_eq!(
            bare(state.clone()),
            bare(before[seat].clone()),
            "{}: seat {seat} finds the last acknowledged state after the restart",
            db.kind
        );
        states.push(state);
        table.players[seat] = client;
    }
    // A new spectator sees the same public state as before the crash.
    let mut spectator = TestClient::connect_to(server.addr(), "spectator").await;
    spectator.hello().await;
    let joined = spectator
        .request(json!({"type": "join", "code": table.code, "as": "spectator"}))
        .await;
    assert_eq!(joined["type"], "room", "{joined}");
    let public = spectator.state().await;
    assert_eq!(bare(public.clone()), bare(public_before));
    table.spectator = spectator;
    table.seen = Some((version, states, public));

    // The game plays on to its end.
    let end = table.play_to_the_end(version, &mut dice).await;
    let result = result_of(&mut table.players[0]).await;
    assert_eq!(result.game, game);
    assert_eq!(result.reveal.commitment, commitment);
    let seed: Seed = result.reveal.seed.parse().unwrap();
    let salt: Salt = result.reveal.salt.parse().unwrap();
    assert_eq!(Commitment::of(seed, &salt).to_string(), commitment);

    // The replay, as a player fetches it, verifies against the commitment
    // the player was given at the start.
    let (status, body) = http_get(server.addr(), &format!("/api/games/{game}/replay")).await;
    assert_eq!(status, 200, "{body}");
    let replay = Replay::from_json(&body).expect("a replay document");
    let report = verify_with_commitment(&replay, &commitment.parse().unwrap())
        .unwrap_or_else(|e| panic!("{}: the replay does not verify: {e}", db.kind));
    assert_eq!(report.actions as u64, end);
    assert_eq!(report.result.winners, result.winners);
    assert_eq!(replay.seed, seed);

    // And with the command, as docs/REPLAYS.md tells players to.
    check_verify_command(&body, &commitment).await;

    // The history lists it, and its summary reveals what the result did.
    let (status, list) = http_get(server.addr(), "/api/games").await;
    assert_eq!(status, 200, "{list}");
    let list: Value = serde_json::from_str(&list).unwrap();
    assert_eq!(list["games"][0]["id"], game.as_str(), "{list}");
    let (status, detail) = http_get(server.addr(), &format!("/api/games/{game}")).await;
    assert_eq!(status, 200, "{detail}");
    let detail: Value = serde_json::from_str(&detail).unwrap();
    assert_eq!(detail["seed"], result.reveal.seed.as_str());
    assert_eq!(detail["commitment"], commitment.as_str());
    assert_eq!(detail["actions"], end);
    server.kill().await;
}

/// Runs `splendor-server verify` on the replay text, then on a tampered copy
/// and on a file that is not there.
async fn check_verify_command(replay_json: &str, commitment: &str) {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("replay.json");
    std::fs::write(&good, replay_json).unwrap();
    let run = |args: Vec<String>| async move {
        tokio::process::Command::new(SERVER)
            .args(&args)
            .output()
            .await
            .expect("run splendor-server verify")
    };
    let path = good.display().to_string();
    let ok = run(vec![
        "verify".into(),
        path.clone(),
        "--commitment".into(),
        commitment.into(),
    ])
    .await;
    let stdout = String::from_utf8_lossy(&ok.stdout);
    assert!(ok.status.success(), "{ok:?}");
    assert!(
        stdout.contains("SHA-256(salt || seed) equals the commitment"),
        "{stdout}"
    );
    assert!(stdout.contains("given at the start"), "{stdout}");

    let mut tampered: Value = serde_json::from_str(replay_json).unwrap();
    let points = tampered["result"]["ranking"][0]["points"].as_u64().unwrap();
    tampered["result"]["ranking"][0]["points"] = json!(points + 1);
    let bad = dir.path().join("tampered.json");
    std::fs::write(&bad, tampered.to_string()).unwrap();
    let failed = run(vec!["verify".into(), bad.display().to_string()]).await;
    assert_eq!(failed.status.code(), Some(1), "{failed:?}");
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert!(stderr.contains("result_mismatch"), "{stderr}");

    let other = "0".repeat(64);
    let wrong = run(vec!["verify".into(), path, "--commitment".into(), other]).await;
    assert_eq!(wrong.status.code(), Some(1), "{wrong:?}");
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("not_the_commitment_given"));

    let missing = run(vec![
        "verify".into(),
        dir.path().join("nope.json").display().to_string(),
    ])
    .await;
    assert_eq!(missing.status.code(), Some(2), "{missing:?}");
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read"));

    // `analyse` (issue 26): the analysis of the replay file, written where
    // --out says, a summary on standard error; a replay that does not
    // verify is not analysed.
    let out = dir.path().join("analysis.json");
    let analysed = run(vec![
        "analyse".into(),
        good.display().to_string(),
        "--iterations".into(),
        "30".into(),
        "--out".into(),
        out.display().to_string(),
    ])
    .await;
    assert!(analysed.status.success(), "{analysed:?}");
    let actions = serde_json::from_str::<Value>(replay_json).unwrap()["actions"]
        .as_array()
        .unwrap()
        .len();
    let summary = String::from_utf8_lossy(&analysed.stderr);
    assert!(
        summary.contains(&format!("analysed {actions} positions")),
        "{summary}"
    );
    let analysis: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(analysis["format"], "splendor-analysis/1");
    assert_eq!(analysis["moves"].as_array().unwrap().len(), actions);
    let refused = run(vec!["analyse".into(), bad.display().to_string()]).await;
    assert_eq!(refused.status.code(), Some(1), "{refused:?}");
}

// ---- the history API on an in-process server ----------------------------

fn error_code(body: &str) -> String {
    let body: Value = serde_json::from_str(body).unwrap_or_else(|_| panic!("not JSON: {body}"));
    assert!(
        body["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{body}"
    );
    body["error"].as_str().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn unknown_malformed_and_running_games_are_not_found_with_a_reason() {
    let server = TestServer::start().await;
    let unknown = "0123456789abcdef0123456789abcdef";
    for path in [
        format!("/api/games/{unknown}"),
        format!("/api/games/{unknown}/replay"),
        format!("/api/games/{unknown}/positions"),
    ] {
        let (status, body) = server.http_get(&path).await;
        assert_eq!(
            (status, error_code(&body).as_str()),
            (404, "game_not_found")
        );
    }
    let (status, body) = server.http_get("/api/games/not-a-game/replay").await;
    assert_eq!(
        (status, error_code(&body).as_str()),
        (400, "invalid_game_id")
    );

    let mut table = open_table(&server, &["ann", "bob"]).await;
    let (_, states, _) = table.play(0, 3, &mut Dice(5)).await;
    let game = &states[0].game;
    for path in [
        format!("/api/games/{game}"),
        format!("/api/games/{game}/replay"),
        format!("/api/games/{game}/positions"),
    ] {
        let (status, body) = server.http_get(&path).await;
        assert_eq!(
            (status, error_code(&body).as_str()),
            (404, "game_not_finished")
        );
        assert!(!body.contains("seed\""), "{body}");
    }
    let (status, body) = server.http_get("/api/games").await;
    assert_eq!(status, 200);
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        json!({"games": [], "next": null})
    );
}

#[tokio::test]
async fn finished_games_are_listed_in_pages_and_their_replays_verify() {
    let server = TestServer::start().await;
    let mut games = Vec::new();
    for seed in [11, 12] {
        let mut table = open_table(&server, &["ann", "bob"]).await;
        let mut dice = Dice(seed);
        let (_, states, _) = table.play(0, 0, &mut dice).await;
        let end = table.play_to_the_end(0, &mut dice).await;
        games.push((states[0].game.clone(), states[0].commitment.clone(), end));
    }
    // Most recent first, one per page, with a cursor to the next.
    let (status, first) = server.http_get("/api/games?limit=1").await;
    assert_eq!(status, 200, "{first}");
    let first: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(first["games"][0]["id"], games[1].0.as_str(), "{first}");
    assert_eq!(first["games"][0]["players"], 2);
    assert!(
        first["games"][0]["ranking"][0]["name"].is_string(),
        "{first}"
    );
    let next = first["next"].as_str().expect("a next page");
    let (_, second) = server
        .http_get(&format!("/api/games?limit=1&before={next}"))
        .await;
    let second: Value = serde_json::from_str(&second).unwrap();
    assert_eq!(second["games"][0]["id"], games[0].0.as_str(), "{second}");
    let (_, last) = server
        .http_get(&format!(
            "/api/games?limit=1&before={}",
            second["next"].as_str().unwrap()
        ))
        .await;
    assert_eq!(
        serde_json::from_str::<Value>(&last).unwrap(),
        json!({"games": [], "next": null})
    );
    for bad in [
        "limit=0",
        "limit=201",
        "limit=x",
        "before=nope",
        "colour=red",
    ] {
        let (status, body) = server.http_get(&format!("/api/games?{bad}")).await;
        assert_eq!(
            (status, error_code(&body).as_str()),
            (400, "invalid_query"),
            "{bad}"
        );
    }
    for (game, commitment, end) in &games {
        let (status, body) = server.http_get(&format!("/api/games/{game}/replay")).await;
        assert_eq!(status, 200, "{body}");
        let replay = Replay::from_json(&body).unwrap();
        let report = verify_with_commitment(&replay, &commitment.parse().unwrap()).unwrap();
        assert_eq!(report.actions as u64, *end);

        // The replay page's positions: one per version, nothing hidden.
        let (status, body) = server
            .http_get(&format!("/api/games/{game}/positions"))
            .await;
        assert_eq!(status, 200, "{body}");
        let doc: Value = serde_json::from_str(&body).unwrap();
        let positions = doc["positions"].as_array().unwrap();
        assert_eq!(positions.len() as u64, end + 1);
        assert_eq!(doc["actions"].as_array().unwrap().len() as u64, *end);
        assert_eq!(doc["seed"], replay.seed.to_string());
        assert_eq!(doc["commitment"], commitment.as_str());
        for (v, position) in positions.iter().enumerate() {
            assert_eq!(position["version"], v as u64);
            assert!(position.get("you").is_none(), "{position}");
            assert!(position.get("legal_actions").is_none(), "{position}");
            for player in position["players"].as_array().unwrap() {
                for reserved in player["reserved"].as_array().unwrap() {
                    assert!(reserved["card"].is_object(), "revealed: {reserved}");
                }
            }
        }
        let last = positions.last().unwrap();
        assert_eq!(last["phase"], "game_over");
        for rank in replay.result.ranking.iter() {
            assert_eq!(
                last["players"][usize::from(rank.seat)]["points"],
                rank.points
            );
        }
    }
}
