//! A graceful restart of the real server binary, as `docker stop` and
//! `docker start` do it: SIGTERM while a game runs and a move is on its way,
//! every client told 1012 (service restart), a clean exit within the grace;
//! then a new process on the same database, the players resume with their
//! tokens, find their seats and the state they were last sent, and play on.
//! SQLite always; PostgreSQL when `SPLENDOR_TEST_DATABASE_URL` is set.

use std::time::Duration;

use serde_json::json;
use splendor_e2e::{
    Dice, ServerProcess, TestClient, TestDatabase, choose, http_get, open_table_at,
};
use splendor_protocol::StateInfo;

/// The server binary (the root package's copy of `splendor-server`).
const SERVER: &str = env!("CARGO_BIN_EXE_splendor-server-e2e");

/// The default `--shutdown-grace`, plus slack for a loaded machine.
const STOP_BOUND: Duration = Duration::from_secs(10 + 5);

#[tokio::test]
async fn sqlite_a_graceful_restart_tells_players_and_they_play_on() {
    graceful_restart(TestDatabase::sqlite()).await;
}

#[tokio::test]
async fn postgres_a_graceful_restart_tells_players_and_they_play_on() {
    if let Some(db) =
        TestDatabase::postgres("postgres_a_graceful_restart_tells_players_and_they_play_on").await
    {
        graceful_restart(db).await;
    }
}

/// The state as a comparison needs it: without the request id.
fn bare(mut state: StateInfo) -> StateInfo {
    state.id = None;
    state
}

async fn graceful_restart(db: TestDatabase) {
    let kind = db.kind;
    let server = ServerProcess::start(SERVER, &db.url).await;
    let addr = server.addr();
    let mut table = open_table_at(addr, &["ann", "bob"]).await;
    let mut dice = Dice(99);
    let (version, states, _) = table.play(0, 10, &mut dice).await;
    assert_eq!(version, 10, "{kind}: the game is still running");
    assert_eq!(http_get(addr, "/readyz").await.0, 200);
    let tokens: Vec<String> = table
        .players
        .iter()
        .map(|p| p.token.clone().expect("a token"))
        .collect();

    // A move is sent, and the stop begins before its answer is awaited.
    let actor = states[0].to_act.expect("someone acts") as usize;
    let legal = states[actor].legal_actions.clone().expect("legal actions");
    let action = choose(&legal, &mut dice).clone();
    let move_id = table.players[actor]
        .send_with_id(json!({"type": "act", "action": action, "expect_version": version}))
        .await;
    let (status, took) = server.terminate().await;

    // Everyone was told why, and the process exited cleanly, in time.
    assert!(
        status.success(),
        "{kind}: exit status after SIGTERM: {status}"
    );
    assert!(took < STOP_BOUND, "{kind}: the stop took {took:?}");
    for client in table.players.iter_mut().chain([&mut table.spectator]) {
        let (code, reason) = client.expect_close().await;
        assert_eq!(code, 1012, "{kind}: {}: {reason}", client.name);
        assert!(reason.contains("restart"), "{reason}");
    }
    // The move is either acknowledged (and so stored) or not applied at all.
    let acknowledged = table.players[actor].frames.iter().any(|f| {
        let m: serde_json::Value = serde_json::from_str(f).unwrap();
        m["type"] == "events" && m["id"] == move_id
    });
    let expected = version + u64::from(acknowledged);
    println!("{kind}: stopped in {took:?}; the move in flight was acknowledged: {acknowledged}");

    // A new process on the same database; the players come back.
    let server = ServerProcess::start(SERVER, &db.url).await;
    let addr = server.addr();
    let mut resumed = Vec::new();
    for (seat, token) in tokens.iter().enumerate() {
        let name = table.players[seat].name.clone();
        let mut client = TestClient::connect_to(addr, &name).await;
        let welcome = client.resume(token).await;
        assert!(welcome.resumed, "{welcome:?}");
        let state = client.state().await;
        assert_eq!(
            state.version, expected,
            "{kind}: seat {seat} (move acknowledged: {acknowledged})"
        );
        if !acknowledged {
            assert_eq!(bare(state.clone()), bare(states[seat].clone()));
        }
        resumed.push(state);
        table.players[seat] = client;
    }
    let mut spectator = TestClient::connect_to(addr, "spectator").await;
    spectator.hello().await;
    let joined = spectator
        .request(json!({"type": "join", "code": table.code, "as": "spectator"}))
        .await;
    assert_eq!(joined["type"], "room", "{joined}");
    let public = spectator.state().await;
    table.spectator = spectator;
    table.seen = Some((expected, resumed, public));

    // The game goes on where it was.
    let (after, _, _) = table.play(expected, 6, &mut dice).await;
    assert_eq!(after, expected + 6, "{kind}: moves after the restart");
    let (status, _) = server.terminate().await;
    assert!(status.success());
}
