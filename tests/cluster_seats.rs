//! A seat's connection across nodes (issue 44, defect 3): the owner of a
//! room pauses past its lease (SIGSTOP), its player reconnects to another
//! node with her token while her first socket stays open to the paused
//! node (as a browser's would), the other node takes the room over and the
//! game goes on; then the paused node wakes (SIGCONT). The newest claim on
//! the seat must keep it: the connection on the woken node, which no longer
//! owns the room, never takes the seat back, and the game finishes.
//!
//! In a loop: the resume before or after the takeover, the wake before or
//! after the game moved on.
//!
//! Needs PostgreSQL (`SPLENDOR_TEST_DATABASE_URL`, which `.ci/run` sets):
//! without it the test says SKIPPED and passes.

use std::net::SocketAddr;

use serde_json::json;
use splendor_cluster::testing::Nats;
use splendor_e2e::process::{ServerProcess, TestDatabase, http_get};
use splendor_e2e::{Dice, SAFETY_TIMEOUT, TestClient};
use splendor_protocol::StateInfo;

const SERVER: &str = env!("CARGO_BIN_EXE_splendor-server-e2e");

/// What a connection whose seat another connection holds is told.
const OTHER_DEVICE: &str =
    "you are playing at this table on another device now; join it again to play here";

async fn node(db_url: &str, nats_url: &str, id: u16) -> ServerProcess {
    let id = id.to_string();
    let env = [
        ("SPLENDOR_NATS_URL", nats_url),
        ("SPLENDOR_NODE_ID", id.as_str()),
        ("SPLENDOR_LEASE_TTL", "2s"),
    ];
    ServerProcess::start_with_env(SERVER, db_url, &env).await
}

async fn taken_over(node: SocketAddr) -> f64 {
    let (status, text) = http_get(node, "/metrics").await;
    assert_eq!(status, 200);
    splendor_e2e::metric_value(&text, "splendor_rooms_taken_over_total")
}

/// Moves from `version` until `to` between the two players, each reading
/// every state; returns the last state each saw.
async fn play(
    (a, b): (&mut TestClient, &mut TestClient),
    mut version: u64,
    to: u64,
    dice: &mut Dice,
) -> (StateInfo, StateInfo) {
    loop {
        let (sa, sb) = (a.state_at(version).await, b.state_at(version).await);
        if version == to {
            return (sa, sb);
        }
        let (actor, state) = if sa.to_act == sa.you {
            (&mut *a, sa)
        } else {
            (&mut *b, sb)
        };
        let action = splendor_e2e::choose(state.legal_actions.as_ref().unwrap(), dice).clone();
        let answer = actor
            .request(json!({"type": "act", "action": action, "expect_version": version}))
            .await;
        assert_ne!(answer["type"], "error", "{answer}");
        version += 1;
    }
}

#[derive(Clone, Copy, Debug)]
enum Resume {
    /// Right after the pause: the paused node's lease still lives.
    BeforeTakeover,
    /// Once the other node has taken the room over.
    AfterTakeover,
}

#[derive(Clone, Copy, Debug)]
enum Wake {
    /// As soon as the resumed connection has its seat.
    AtOnce,
    /// After the game moved on from the other node.
    AfterMoves,
}

#[tokio::test]
async fn a_paused_owner_that_wakes_never_takes_a_seat_back() {
    let Some(db) = TestDatabase::postgres("a paused owner wakes").await else {
        return;
    };
    let nats = Nats::start().await;
    let owner = node(&db.url, &nats.url, 1).await;
    let other = node(&db.url, &nats.url, 2).await;
    let cases = [
        (Resume::BeforeTakeover, Wake::AfterMoves),
        (Resume::AfterTakeover, Wake::AtOnce),
        (Resume::BeforeTakeover, Wake::AtOnce),
        (Resume::AfterTakeover, Wake::AfterMoves),
    ];
    for (round, (resume, wake)) in cases.into_iter().enumerate() {
        let mut dice = Dice(100 + round as u64);
        // Ann makes the room on node 1, its owner; Bob joins from node 2.
        let mut ann = TestClient::connect_to(owner.addr(), "ann").await;
        ann.hello().await;
        let token = ann.token.clone().expect("a token");
        let room = ann.request(json!({"type": "create", "seats": 2})).await;
        let code = room["code"].as_str().unwrap().to_owned();
        let mut bob = TestClient::connect_to(other.addr(), "bob").await;
        bob.hello().await;
        let joined = bob.request(json!({"type": "join", "code": code})).await;
        assert_eq!(joined["type"], "room", "{joined}");
        let started = ann.request(json!({"type": "start"})).await;
        assert_ne!(started["type"], "error", "{started}");
        play((&mut ann, &mut bob), 0, 4, &mut dice).await;

        // Node 1 pauses past its lease. Ann's first socket stays open to it.
        owner.signal("STOP");
        if let Resume::AfterTakeover = resume {
            let deadline = tokio::time::Instant::now() + SAFETY_TIMEOUT;
            while taken_over(other.addr()).await < (round + 1) as f64 {
                assert!(
                    tokio::time::Instant::now() < deadline,
                    "{resume:?}: no takeover"
                );
                tokio::task::yield_now().await;
            }
        }
        // Ann reconnects to node 2 with her token, and does nothing else:
        // she gets her seat (the room and the state) once the room has an
        // owner again.
        let mut again = TestClient::connect_to(other.addr(), "ann-again").await;
        again.token = Some(token.clone());
        let welcome = again
            .request(json!({"type": "hello", "token": token}))
            .await;
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        let seated = again.recv_type("room").await;
        assert_eq!(seated["code"], code.as_str(), "{seated}");

        // Both get the state at version 4 again (Bob from the room's new
        // owner) and play on from there.
        let moves_before_wake = match wake {
            Wake::AtOnce => 4,
            Wake::AfterMoves => 12,
        };
        play((&mut again, &mut bob), 4, moves_before_wake, &mut dice).await;
        owner.signal("CONT");
        // The woken node learns it lost the room; its connection of Ann's
        // follows the room to node 2 with its older claim and is let go,
        // told it plays on another device now (before the fix it took the
        // seat back and the new connection was told that instead).
        let farewell = ann
            .recv_until(|m| {
                m["type"] == "room" || (m["type"] == "room_closed" && m["reason"] == OTHER_DEVICE)
            })
            .await;
        assert_eq!(
            farewell["type"], "room_closed",
            "{resume:?} {wake:?}: the old connection took the seat back: {farewell}"
        );
        // The game goes on between her new connection and Bob, to its end.
        let (mut d1, mut d2) = (Dice(1), Dice(2));
        again.send(json!({"type": "sync"})).await;
        bob.send(json!({"type": "sync"})).await;
        let (first, second) = tokio::join!(
            again.play_until_result(&mut d1),
            bob.play_until_result(&mut d2)
        );
        assert_eq!(first["winners"], second["winners"], "{resume:?} {wake:?}");
        assert!(
            !again.frames.iter().any(|f| f.contains(OTHER_DEVICE)),
            "{resume:?} {wake:?}: the resumed connection lost its seat"
        );
        drop(ann);
    }
}
