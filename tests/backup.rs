//! `splendor-server backup --to FILE` (issue 22): a consistent copy of a
//! running SQLite database, taken while a game is being played; a server
//! started on the copy has every game that finished before it, and their
//! replays verify.

use serde_json::{Value, json};
use splendor_e2e::process::{ServerProcess, TestDatabase, http_get};
use splendor_e2e::{Dice, TestClient};
use splendor_replay::{Replay, verify};

const SERVER: &str = env!("CARGO_BIN_EXE_splendor-server-e2e");

async fn two_players(addr: std::net::SocketAddr) -> (TestClient, TestClient) {
    let mut ann = TestClient::connect_to(addr, "ann").await;
    ann.hello().await;
    let mut bob = TestClient::connect_to(addr, "bob").await;
    bob.hello().await;
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    let joined = bob.request(json!({"type": "join", "code": code})).await;
    assert_eq!(joined["type"], "room", "{joined}");
    let started = ann.request(json!({"type": "start"})).await;
    assert_ne!(started["type"], "error", "{started}");
    (ann, bob)
}

async fn play_out(mut ann: TestClient, mut bob: TestClient, seed: u64) -> String {
    let (mut da, mut db) = (Dice(seed), Dice(seed + 1));
    let (result, _) = tokio::join!(
        ann.play_until_result(&mut da),
        bob.play_until_result(&mut db)
    );
    result["game"].as_str().expect("the game").to_owned()
}

fn backup(db: &str, to: &std::path::Path) -> std::process::Output {
    std::process::Command::new(SERVER)
        .args(["--database-url", db, "backup", "--to"])
        .arg(to)
        .env_remove("SPLENDOR_DATABASE_URL")
        .env_remove("SPLENDOR_DATA_DIR")
        .output()
        .expect("run the backup")
}

#[tokio::test]
async fn a_backup_taken_during_a_game_restores_every_finished_game() {
    let db = TestDatabase::sqlite();
    let server = ServerProcess::start(SERVER, &db.url).await;
    let (ann, bob) = two_players(server.addr()).await;
    let finished = play_out(ann, bob, 1).await;
    // Another game is being played while the copy is made.
    let (ann, bob) = two_players(server.addr()).await;
    let playing = tokio::spawn(play_out(ann, bob, 7));
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("copy.db");
    let made = tokio::task::spawn_blocking({
        let (url, copy) = (db.url.clone(), copy.clone());
        move || backup(&url, &copy)
    })
    .await
    .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    assert!(String::from_utf8_lossy(&made.stdout).contains("written to"));
    // A second backup to the same file is refused: it never overwrites.
    let again = tokio::task::spawn_blocking({
        let (url, copy) = (db.url.clone(), copy.clone());
        move || backup(&url, &copy)
    })
    .await
    .unwrap();
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("exists already"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let later = playing.await.unwrap();

    // A server on the copy: the game finished before the backup is there,
    // and its replay verifies.
    let restored = ServerProcess::start(SERVER, &format!("sqlite://{}", copy.display())).await;
    let (status, body) = http_get(restored.addr(), "/api/games").await;
    assert_eq!(status, 200, "{body}");
    let listed: Value = serde_json::from_str(&body).unwrap();
    let ids: Vec<&str> = listed["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&finished.as_str()), "{listed}");
    let (status, body) = http_get(restored.addr(), &format!("/api/games/{finished}/replay")).await;
    assert_eq!(status, 200, "{body}");
    let replay = Replay::from_json(&body).expect("a replay");
    verify(&replay).unwrap_or_else(|e| panic!("the restored replay does not verify: {e}"));
    // The game played during the backup is, on the copy, either finished
    // or as far as it was (restored for its players), never half-written.
    if !ids.contains(&later.as_str()) {
        let (status, body) = http_get(restored.addr(), &format!("/api/games/{later}")).await;
        assert_eq!(status, 404, "{body}");
    }
}

#[tokio::test]
async fn a_postgresql_database_is_pointed_to_pg_dump() {
    let Some(db) = TestDatabase::postgres("backup of postgresql").await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = tokio::task::spawn_blocking({
        let (url, to) = (db.url.clone(), dir.path().join("copy.db"));
        move || backup(&url, &to)
    })
    .await
    .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("pg_dump"));
}
