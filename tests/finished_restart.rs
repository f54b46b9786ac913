//! A finished room survives a restart for the rest of its viewing time
//! (issue 12): after kill -9 and after SIGTERM alike, a player who resumes
//! with their token gets the room, the final state and the result, and the
//! room's code still lets a spectator watch. SQLite, and PostgreSQL when
//! `SPLENDOR_TEST_DATABASE_URL` is set.

use serde_json::json;
use splendor_e2e::{Dice, ServerProcess, TestClient, TestDatabase};

/// The server binary (the root package's copy of `splendor-server`).
const SERVER: &str = env!("CARGO_BIN_EXE_splendor-server-e2e");

#[derive(Clone, Copy)]
enum Stop {
    Kill,
    Terminate,
}

#[tokio::test]
async fn sqlite_a_finished_room_survives_kill_9() {
    finished_room_survives(TestDatabase::sqlite(), Stop::Kill).await;
}

#[tokio::test]
async fn sqlite_a_finished_room_survives_sigterm() {
    finished_room_survives(TestDatabase::sqlite(), Stop::Terminate).await;
}

#[tokio::test]
async fn postgres_a_finished_room_survives_kill_9() {
    if let Some(db) = TestDatabase::postgres("postgres_a_finished_room_survives_kill_9").await {
        finished_room_survives(db, Stop::Kill).await;
    }
}

async fn finished_room_survives(db: TestDatabase, stop: Stop) {
    let kind = db.kind;
    let server = ServerProcess::start(SERVER, &db.url).await;
    let mut ann = TestClient::connect_to(server.addr(), "ann").await;
    ann.hello().await;
    let token = ann.token.clone().expect("a token");
    let room = ann
        .request(json!({"type": "create", "seats": 2, "listed": true}))
        .await;
    let code = room["code"].as_str().unwrap().to_owned();
    ann.request(json!({"type": "add_bot", "level": "greedy"}))
        .await;
    ann.request(json!({"type": "start"})).await;
    let result = ann.play_until_result(&mut Dice(21)).await;

    match stop {
        Stop::Kill => server.kill().await,
        Stop::Terminate => {
            let (status, _) = server.terminate().await;
            assert!(status.success(), "{kind}: {status}");
        }
    }
    let server = ServerProcess::start(SERVER, &db.url).await;

    // The player resumes: room (finished), the final state, the result.
    let mut ann = TestClient::connect_to(server.addr(), "ann").await;
    let welcome = ann.resume(&token).await;
    assert!(welcome.resumed, "{kind}: {welcome:?}");
    let room = ann.recv_type("room").await;
    assert_eq!(room["code"], code.as_str(), "{kind}: {room}");
    assert_eq!(room["status"], "finished", "{kind}: {room}");
    assert_eq!(
        room["listed"], true,
        "{kind}: a listed room stays listed: {room}"
    );
    let state = ann.state().await;
    assert_eq!(
        state.phase,
        splendor_protocol::PhaseName::GameOver,
        "{kind}"
    );
    let again = ann.recv_type("result").await;
    assert_eq!(again["game"], result["game"], "{kind}");
    assert_eq!(again["winners"], result["winners"], "{kind}");
    assert_eq!(again["ranking"], result["ranking"], "{kind}");

    // Anyone with the code may still watch it.
    let mut cy = TestClient::connect_to(server.addr(), "cy").await;
    cy.hello().await;
    let joined = cy
        .request(json!({"type": "join", "code": code, "as": "spectator"}))
        .await;
    assert_eq!(joined["status"], "finished", "{kind}: {joined}");
    let seen = cy.recv_type("result").await;
    assert_eq!(seen["game"], result["game"], "{kind}");
}
