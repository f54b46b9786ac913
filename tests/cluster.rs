//! Several server nodes (issue 21), as real processes on one PostgreSQL
//! database and a `nats-server` of the test's own, on loopback: players and
//! a spectator connected to different nodes play one room; refusals come
//! back in the caller's language; every node answers the same listings and
//! history; without NATS a node says it is degraded but ready.
//!
//! Needs PostgreSQL (`SPLENDOR_TEST_DATABASE_URL`, which `.ci/run` sets):
//! without it each test says SKIPPED and passes.

use serde_json::{Value, json};
use splendor_cluster::testing::Nats;
use splendor_e2e::process::{ServerProcess, TestDatabase, http_get, http_get_with};
use splendor_e2e::{Dice, TestClient};
use splendor_protocol::StateInfo;
use splendor_replay::{Replay, verify_with_commitment};

const SERVER: &str = env!("CARGO_BIN_EXE_splendor-server-e2e");

/// The operators' token of every node here.
const ADMIN_TOKEN: &str = "cluster-operators-0123456789";

/// Nodes `ids` over `db`, in the cluster on `nats`.
async fn nodes(db: &TestDatabase, nats: &Nats, ids: &[u16]) -> Vec<ServerProcess> {
    nodes_with_lease(db, nats, ids, "4s").await
}

/// Nodes `ids` whose leases live `ttl` (short: takeovers come quickly).
async fn nodes_with_lease(
    db: &TestDatabase,
    nats: &Nats,
    ids: &[u16],
    ttl: &str,
) -> Vec<ServerProcess> {
    let mut nodes = Vec::new();
    for id in ids {
        let id = id.to_string();
        let env = [
            ("SPLENDOR_NATS_URL", nats.url.as_str()),
            ("SPLENDOR_NODE_ID", id.as_str()),
            ("SPLENDOR_LEASE_TTL", ttl),
            ("SPLENDOR_ADMIN_TOKEN", ADMIN_TOKEN),
        ];
        nodes.push(ServerProcess::start_with_env(SERVER, &db.url, &env).await);
    }
    nodes
}

async fn identified(node: &ServerProcess, name: &str, lang: &str) -> TestClient {
    let mut client = TestClient::connect_to(node.addr(), name).await;
    let welcome = client
        .request(json!({"type": "hello", "name": name, "lang": lang}))
        .await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    client.token = welcome["token"].as_str().map(str::to_owned);
    client
}

async fn identified_at(addr: std::net::SocketAddr, name: &str) -> TestClient {
    let mut client = TestClient::connect_to(addr, name).await;
    client.hello().await;
    client
}

/// Plays `count` actions from `version`: every client sees each version,
/// the one to act acts. Returns the version reached.
async fn play_moves(
    clients: &mut [&mut TestClient],
    mut version: u64,
    count: u64,
    dice: &mut Dice,
) -> u64 {
    for _ in 0..count {
        let mut actor = None;
        for (i, client) in clients.iter_mut().enumerate() {
            let state = client.state_at(version).await;
            assert!(state.you.is_some(), "{} has a seat", client.name);
            if state.to_act.is_some() && state.to_act == state.you {
                actor = Some((i, state.legal_actions.clone().expect("legal actions")));
            }
        }
        let Some((i, legal)) = actor else {
            return version;
        };
        let action = splendor_e2e::choose(&legal, dice).clone();
        let answer = clients[i]
            .request(json!({"type": "act", "action": action, "expect_version": version}))
            .await;
        assert_ne!(answer["type"], "error", "{answer}");
        version += 1;
    }
    version
}

/// Nothing of another seat's blind reserve in any state `client` got.
fn assert_redacted(client: &TestClient) {
    for frame in &client.frames {
        let value: Value = serde_json::from_str(frame).unwrap();
        if value["type"] != "state" || value["lean"] == true {
            continue;
        }
        let state: StateInfo = serde_json::from_value(value).unwrap();
        for player in state.players.iter().filter(|p| Some(p.seat) != state.you) {
            for reserved in player.reserved.iter().filter(|r| r.from_deck) {
                assert!(
                    reserved.card.is_none(),
                    "{}: a blind reserve shown",
                    client.name
                );
            }
        }
    }
}

#[tokio::test]
async fn players_on_two_nodes_and_a_bot_play_one_room_to_the_end() {
    let Some(db) = TestDatabase::postgres("two nodes, one room").await else {
        return;
    };
    let nats = Nats::start().await;
    let nodes = nodes(&db, &nats, &[1, 2]).await;
    let mut ann = identified(&nodes[0], "ann", "en").await;
    let room = ann.request(json!({"type": "create", "seats": 3})).await;
    assert_eq!(room["type"], "room", "{room}");
    let code = room["code"].as_str().unwrap().to_owned();
    let added = ann
        .request(json!({"type": "add_bot", "level": "greedy"}))
        .await;
    assert_eq!(added["type"], "room", "{added}");

    // Bob and Carl are on node 2: the room is on node 1.
    let mut bob = identified(&nodes[1], "bob", "fr").await;
    let joined = bob.request(json!({"type": "join", "code": code})).await;
    assert_eq!(joined["type"], "room", "{joined}");
    assert_eq!(joined["code"], code.as_str());
    let mut carl = identified(&nodes[1], "carl", "de").await;
    let watching = carl
        .request(json!({"type": "join", "code": code, "as": "spectator"}))
        .await;
    assert_eq!(watching["type"], "room", "{watching}");

    // A refusal from node 1's room, said in Bob's language on node 2.
    let refused = bob.request(json!({"type": "start"})).await;
    assert_eq!(refused["code"], "not_host", "{refused}");
    assert_eq!(
        refused["message"], "seul l'hôte peut faire cela",
        "{refused}"
    );

    let started = ann.request(json!({"type": "start"})).await;
    assert_ne!(started["type"], "error", "{started}");
    let (mut d1, mut d2) = (Dice(11), Dice(22));
    let (a, b) = tokio::join!(
        ann.play_until_result(&mut d1),
        bob.play_until_result(&mut d2)
    );
    assert_eq!(a["type"], "result");
    assert_eq!(a["winners"], b["winners"], "{a}\n{b}");
    let watched = carl.recv_type("result").await;
    assert_eq!(watched["winners"], a["winners"]);
    for client in [&ann, &bob, &carl] {
        assert_redacted(client);
    }

    // Each node's figures: node 1 owns the room and answered node 2's
    // forwarded requests; node 2 forwarded them and delivered what came
    // back to its sockets.
    let (owner, holder) = (nodes[0].addr(), nodes[1].addr());
    assert_eq!(counter(owner, r#"splendor_node_info{node="1"}"#).await, 1.0);
    assert_eq!(
        counter(holder, r#"splendor_node_info{node="2"}"#).await,
        1.0
    );
    assert_eq!(counter(owner, "splendor_rooms_owned").await, 1.0);
    assert_eq!(counter(holder, "splendor_rooms_owned").await, 0.0);
    let calls = counter(holder, r#"splendor_node_calls_total{direction="out"}"#).await;
    assert!(
        calls >= 3.0,
        "join, join, start refused, the moves: {calls}"
    );
    assert_eq!(
        counter(owner, r#"splendor_node_calls_total{direction="in"}"#).await,
        calls
    );
    assert_eq!(
        counter(holder, "splendor_node_call_seconds_count").await,
        calls
    );
    assert_eq!(
        counter(holder, "splendor_node_calls_failed_total").await,
        0.0
    );
    // Frames after the result may still be on their way.
    let got = counter(holder, r#"splendor_node_deliveries_total{direction="in"}"#).await;
    let sent = counter(owner, r#"splendor_node_deliveries_total{direction="out"}"#).await;
    assert!(got > 0.0 && got <= sent, "{got} of {sent}");
    assert_eq!(
        counter(owner, "splendor_lease_renewals_failed_total").await,
        0.0
    );

    // The game is in the shared history, the same on both nodes.
    let (status, one) = http_get(nodes[0].addr(), "/api/games").await;
    assert_eq!(status, 200, "{one}");
    let (_, two) = http_get(nodes[1].addr(), "/api/games").await;
    assert_eq!(one, two);
    assert!(one.contains(&code), "{one}");
}

#[tokio::test]
async fn a_node_without_nats_is_ready_but_degraded_and_says_so_to_callers() {
    let Some(db) = TestDatabase::postgres("a node without nats").await else {
        return;
    };
    let mut nats = Nats::start().await;
    let nodes = nodes(&db, &nats, &[1, 2]).await;
    let mut ann = identified(&nodes[0], "ann", "en").await;
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    let mut bob = identified(&nodes[1], "bob", "nl").await;
    let joined = bob.request(json!({"type": "join", "code": code})).await;
    assert_eq!(joined["type"], "room", "{joined}");
    for node in &nodes {
        assert_eq!(
            http_get(node.addr(), "/readyz").await,
            (200, "ready\n".into())
        );
    }

    nats.kill().await;
    // Both nodes notice (the client watches its connection), and stay
    // ready: their own rooms play on.
    for node in &nodes {
        let deadline = tokio::time::Instant::now() + splendor_e2e::SAFETY_TIMEOUT;
        loop {
            let (status, body) = http_get(node.addr(), "/readyz").await;
            assert_eq!(status, 200, "{body}");
            if body == "ready (degraded: nats)\n" {
                break;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "never degraded: {body}"
            );
            tokio::task::yield_now().await;
        }
    }
    // Bob's room is on node 1: node 2 cannot reach it, and says so.
    let unavailable = bob.request(json!({"type": "sync"})).await;
    assert_eq!(unavailable["code"], "room_unavailable", "{unavailable}");
    assert!(
        unavailable["message"]
            .as_str()
            .unwrap()
            .contains("probeer het zo opnieuw"),
        "{unavailable}"
    );
    // Ann's room on node 1 itself still answers.
    let chat = ann
        .request(json!({"type": "chat", "text": "still here"}))
        .await;
    assert_ne!(chat["type"], "error", "{chat}");

    // A node stopped while NATS is away still stops (its handoff
    // announcement once waited for a reconnection that never came).
    let mut nodes = nodes.into_iter();
    let (status, _) = nodes.next().expect("node 1").terminate().await;
    assert!(
        status.success(),
        "node 1 after SIGTERM without NATS: {status}"
    );
}

#[tokio::test]
async fn the_owner_killed_mid_game_its_game_goes_on_from_another_node() {
    let Some(db) = TestDatabase::postgres("the owner killed").await else {
        return;
    };
    let nats = Nats::start().await;
    let nodes = nodes_with_lease(&db, &nats, &[1, 2, 3], "2s").await;
    let addrs: Vec<_> = nodes.iter().map(ServerProcess::addr).collect();
    let mut nodes = nodes.into_iter();
    let owner = nodes.next().expect("node 1");
    // The room is on node 1; Ann is on node 1 too, Bob on 2, Carl on 3.
    let mut ann = identified(&owner, "ann", "en").await;
    let room = ann.request(json!({"type": "create", "seats": 3})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    let mut bob = identified_at(addrs[1], "bob").await;
    let mut carl = identified_at(addrs[2], "carl").await;
    for client in [&mut bob, &mut carl] {
        let joined = client.request(json!({"type": "join", "code": code})).await;
        assert_eq!(joined["type"], "room", "{joined}");
    }
    let started = ann.request(json!({"type": "start"})).await;
    assert_ne!(started["type"], "error", "{started}");
    let mut dice = Dice(5);
    let version = play_moves(&mut [&mut ann, &mut bob, &mut carl], 0, 7, &mut dice).await;
    assert_eq!(version, 7);
    // Everyone saw the seventh move acknowledged.
    let mut commitment = String::new();
    for client in [&mut ann, &mut bob, &mut carl] {
        commitment = client.state_at(version).await.commitment;
    }

    // kill -9 of the owner between two moves.
    owner.kill().await;
    // Ann reconnects to node 3 with her token at once, while the room has
    // no owner yet: her seat waits for it.
    let token = ann.token.clone().expect("ann's token");
    let mut ann = TestClient::connect_to(addrs[2], "ann").await;
    let welcome = ann.request(json!({"type": "hello", "token": token})).await;
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    // Another node takes the room over within a lease, and tells every
    // node: Bob and Carl join it there by themselves, Ann too. Each gets
    // the state at the version last acknowledged: nothing was lost; the
    // game goes on from it.
    let version = play_moves(&mut [&mut ann, &mut bob, &mut carl], version, 1, &mut dice).await;
    assert_eq!(version, 8);
    let (mut d1, mut d2, mut d3) = (Dice(1), Dice(2), Dice(3));
    let (a, b, c) = tokio::join!(
        ann.play_until_result(&mut d1),
        bob.play_until_result(&mut d2),
        carl.play_until_result(&mut d3)
    );
    assert_eq!(a["winners"], b["winners"]);
    assert_eq!(b["winners"], c["winners"]);
    // The whole game is in the log, the moves before the kill and after,
    // and its replay verifies against the commitment the players got.
    let game = a["game"].as_str().expect("the game's id").to_owned();
    let (status, body) = http_get(addrs[1], &format!("/api/games/{game}/replay")).await;
    assert_eq!(status, 200, "{body}");
    let replay = Replay::from_json(&body).expect("a replay document");
    let report = verify_with_commitment(&replay, &commitment.parse().unwrap())
        .unwrap_or_else(|e| panic!("the replay does not verify: {e}"));
    assert!(
        report.actions as u64 > version,
        "moves after the takeover: {}",
        report.actions
    );
}

/// The value of a counter in a node's /metrics.
async fn counter(node: std::net::SocketAddr, series: &str) -> f64 {
    let (status, text) = http_get(node, "/metrics").await;
    assert_eq!(status, 200);
    splendor_e2e::metric_value(&text, series)
}

#[tokio::test]
async fn a_paused_owner_never_writes_into_the_game_another_node_took_over() {
    let Some(db) = TestDatabase::postgres("a paused owner").await else {
        return;
    };
    let nats = Nats::start().await;
    let nodes = nodes_with_lease(&db, &nats, &[1, 2], "2s").await;
    let (a, b) = (nodes[0].addr(), nodes[1].addr());
    // The room is on node 1 with Ann; Bob is on node 2.
    let mut ann = identified(&nodes[0], "ann", "en").await;
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    let mut bob = identified_at(b, "bob").await;
    let joined = bob.request(json!({"type": "join", "code": code})).await;
    assert_eq!(joined["type"], "room", "{joined}");
    let started = ann.request(json!({"type": "start"})).await;
    assert_ne!(started["type"], "error", "{started}");
    // Play on until it is Ann's turn.
    let mut dice = Dice(9);
    let mut version = 0;
    let ann_turn = loop {
        let state = ann.state_at(version).await;
        let bobs = bob.state_at(version).await;
        if state.to_act == state.you {
            break state;
        }
        let action = splendor_e2e::choose(bobs.legal_actions.as_ref().unwrap(), &mut dice).clone();
        let answer = bob
            .request(json!({"type": "act", "action": action, "expect_version": version}))
            .await;
        assert_ne!(answer["type"], "error", "{answer}");
        version += 1;
    };

    // Node 1 pauses past its lease; Ann's move waits in its socket.
    nodes[0].signal("STOP");
    let action = splendor_e2e::choose(ann_turn.legal_actions.as_ref().unwrap(), &mut dice).clone();
    let sent = ann
        .send_with_id(json!({"type": "act", "action": action, "expect_version": version}))
        .await;
    // Node 2 takes the room over and moves Bob there: he gets the state
    // again, at the same version.
    let again = bob.state_at(version).await;
    assert_eq!(again.to_act, ann_turn.to_act);
    assert_eq!(counter(b, "splendor_rooms_taken_over_total").await, 1.0);

    // Node 1 wakes up. Either Ann's move is refused (it reached the room
    // on node 1, whose write is fenced, or the room had closed at its
    // renewal just before) and she is told the room moved; or node 1 had
    // learnt first that the room moved and its people follow it, so her
    // move went on to node 2, which holds the lease: then it is written
    // once, by the owner. Node 1 never writes it.
    nodes[0].signal("CONT");
    let answer = ann.recv_until(|m| m.get("id") == Some(&sent)).await;
    if answer["type"] == "events" {
        assert_eq!(answer["version"], version + 1, "{answer}");
        let seen = bob.state_at(version + 1).await;
        assert_ne!(seen.to_act, ann_turn.to_act, "Bob's turn now, from node 2");
        // Bob moves on the state read here: play_until_result below acts
        // only on states it reads itself, and no other comes (both would
        // wait for the other).
        let action = splendor_e2e::choose(seen.legal_actions.as_ref().unwrap(), &mut dice).clone();
        let moved = bob
            .request(json!({"type": "act", "action": action, "expect_version": version + 1}))
            .await;
        assert_ne!(moved["type"], "error", "{moved}");
    } else {
        // room_closed when the move reached the room (fenced at its write);
        // not_in_room when the renewal had closed the room just before;
        // storage_unavailable when the write met a database call of node 1
        // that the pause had outlived (every call is bounded by the lease,
        // issue 44, and a connection PostgreSQL ended meanwhile is gone):
        // nothing stored, try again, as the message says.
        assert!(
            answer["code"] == "room_closed"
                || answer["code"] == "not_in_room"
                || answer["code"] == "storage_unavailable",
            "{answer}"
        );
        // The room's farewell comes before or after that answer.
        let seen = ann
            .frames
            .iter()
            .filter_map(|f| serde_json::from_str::<Value>(f).ok())
            .find(|m| m["type"] == "room_closed");
        let closed = match seen {
            Some(closed) => closed,
            None => ann.recv_type("room_closed").await,
        };
        assert_eq!(
            closed["reason"],
            "the room moved to another server; reconnect to find it"
        );
        // Nothing of it was written: Bob sees no new version, and the game's
        // log still ends at the version Ann's move named. She joins the room
        // where it lives now, takes her seat back, and plays on.
        let back = ann.request(json!({"type": "join", "code": code})).await;
        assert_eq!(back["type"], "room", "{back}");
        let state = ann.state_at(version).await;
        assert_eq!(state.to_act, state.you);
        let action = splendor_e2e::choose(state.legal_actions.as_ref().unwrap(), &mut dice).clone();
        let moved = ann
            .request(json!({"type": "act", "action": action, "expect_version": version}))
            .await;
        assert_ne!(moved["type"], "error", "{moved}");
    }
    let (mut d1, mut d2) = (Dice(1), Dice(2));
    let (first, second) = tokio::join!(
        ann.play_until_result(&mut d1),
        bob.play_until_result(&mut d2)
    );
    assert_eq!(first["winners"], second["winners"]);
    let game = first["game"].as_str().unwrap().to_owned();
    let (status, body) = http_get(a, &format!("/api/games/{game}/replay")).await;
    assert_eq!(status, 200, "{body}");
    let replay = Replay::from_json(&body).expect("a replay document");
    verify_with_commitment(&replay, &ann_turn.commitment.parse().unwrap())
        .unwrap_or_else(|e| panic!("the replay does not verify: {e}"));
}

/// Reads until `matched`, then the room it names; returns the room's code.
async fn matched(client: &mut TestClient) -> String {
    let found = client.recv_type("matched").await;
    let code = found["room"].as_str().expect("a room code").to_owned();
    let room = client
        .recv_until(|m| m["type"] == "room" && m["code"] == code.as_str())
        .await;
    assert_eq!(room["rated"], true, "{room}");
    code
}

#[tokio::test]
async fn quick_play_matches_waiters_on_three_nodes_each_exactly_once() {
    let Some(db) = TestDatabase::postgres("quick play across nodes").await else {
        return;
    };
    let nats = Nats::start().await;
    let nodes = nodes(&db, &nats, &[1, 2, 3]).await;
    // Four waiters for games of two, on nodes 1, 2, 3 and 1: the queue is
    // the database's; each game is formed on the node whose request
    // completed it, and the waiter on another node hears of it by NATS.
    let mut clients = Vec::new();
    for (name, node) in [("ann", 0), ("bob", 1), ("cy", 2), ("dee", 0)] {
        let mut client = identified(&nodes[node], name, "en").await;
        let queued = client.request(json!({"type": "queue", "players": 2})).await;
        assert_eq!(queued["type"], "queued", "{queued}");
        clients.push(client);
    }
    let mut rooms: Vec<String> = Vec::new();
    for client in &mut clients {
        rooms.push(matched(client).await);
    }
    // Two games, two players each, everyone in exactly one.
    assert_eq!(rooms[0], rooms[1], "ann and bob queued first");
    assert_eq!(rooms[2], rooms[3], "cy and dee next");
    assert_ne!(rooms[0], rooms[2]);
    // Nobody is told of a second game: each plays the one it got to the
    // end, and no other `matched` came before the result.
    let (first, second) = clients.split_at_mut(2);
    let (a, b) = first.split_at_mut(1);
    let (c, d) = second.split_at_mut(1);
    let (mut d1, mut d2, mut d3, mut d4) = (Dice(1), Dice(2), Dice(3), Dice(4));
    let (ra, rb, rc, rd) = tokio::join!(
        a[0].play_until_result(&mut d1),
        b[0].play_until_result(&mut d2),
        c[0].play_until_result(&mut d3),
        d[0].play_until_result(&mut d4)
    );
    assert_eq!(ra["winners"], rb["winners"]);
    assert_eq!(rc["winners"], rd["winners"]);
    for client in &clients {
        let matches = client
            .frames
            .iter()
            .filter(|f| f.contains(r#""type":"matched""#))
            .count();
        assert_eq!(matches, 1, "{}: matched {matches} times", client.name);
    }
    // Rated once each: two finished rated games on the leaderboard, the
    // same on every node.
    let (status, one) = http_get(nodes[2].addr(), "/api/leaderboard").await;
    assert_eq!(status, 200, "{one}");
    for node in &nodes[..2] {
        assert_eq!(http_get(node.addr(), "/api/leaderboard").await.1, one);
    }
    let board: Value = serde_json::from_str(&one).unwrap();
    let games: u64 = board["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p["games"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(games, 4, "each of the four played one rated game: {one}");
}

#[tokio::test]
async fn a_rematch_agreed_by_players_on_two_nodes_moves_both_into_the_new_room() {
    let Some(db) = TestDatabase::postgres("a rematch across nodes").await else {
        return;
    };
    let nats = Nats::start().await;
    let nodes = nodes(&db, &nats, &[1, 2]).await;
    let mut ann = identified(&nodes[0], "ann", "en").await;
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    let mut bob = identified(&nodes[1], "bob", "en").await;
    let joined = bob.request(json!({"type": "join", "code": code})).await;
    assert_eq!(joined["type"], "room", "{joined}");
    let started = ann.request(json!({"type": "start"})).await;
    assert_ne!(started["type"], "error", "{started}");
    let (mut d1, mut d2) = (Dice(7), Dice(8));
    tokio::join!(
        ann.play_until_result(&mut d1),
        bob.play_until_result(&mut d2)
    );

    // Ann (on the room's node) offers; Bob, on the other node, accepts:
    // his node makes the new room from the plan the old room sent it.
    let offer = ann.request(json!({"type": "rematch"})).await;
    assert_eq!(offer["type"], "room", "{offer}");
    let accepted = bob.request(json!({"type": "rematch"})).await;
    assert_eq!(accepted["type"], "room", "{accepted}");
    assert_eq!(accepted["status"], "playing", "{accepted}");
    let new_code = accepted["code"].as_str().unwrap().to_owned();
    assert_ne!(new_code, code);
    // Ann, on node 1, is moved into the room on node 2 by the server.
    let left = ann.recv_type("left").await;
    assert_eq!(left["room"], code.as_str(), "{left}");
    let ann_room = ann
        .recv_until(|m| m["type"] == "room" && m["status"] == "playing")
        .await;
    assert_eq!(ann_room["code"], new_code.as_str(), "{ann_room}");
    assert_eq!(ann_room["you"]["role"], "player", "{ann_room}");
    // The new game's first state may have come before the frames read
    // above: both ask for it again (each version is answered once).
    for client in [&mut ann, &mut bob] {
        client.send(json!({"type": "sync"})).await;
    }
    let (mut d1, mut d2) = (Dice(9), Dice(10));
    let (a, b) = tokio::join!(
        ann.play_until_result(&mut d1),
        bob.play_until_result(&mut d2)
    );
    assert_eq!(a["winners"], b["winners"]);
    assert_ne!(a["game"], Value::Null);
}

#[tokio::test]
async fn a_node_refuses_a_node_message_of_another_version_unread() {
    use splendor_cluster::node::{Envelope, NODE_VERSION, ToAll};
    let Some(db) = TestDatabase::postgres("another node version").await else {
        return;
    };
    let nats = Nats::start().await;
    let nodes = nodes(&db, &nats, &[1]).await;
    let mut ann = identified(&nodes[0], "ann", "en").await;
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    // What a node of the next version would say: "room taken over by node
    // 9". Its body reads well in this version; only its version tells.
    let moved = |v: u16| {
        serde_json::to_vec(&Envelope {
            v,
            body: ToAll::Moved {
                room: code.clone(),
                node: 9,
                epoch: 99,
            },
        })
        .expect("encode")
    };
    let next = NODE_VERSION + 1;
    nats.publish_raw(splendor_cluster::ALL_SUBJECT, &moved(next))
        .await;
    let refused = nodes[0]
        .wait_for_line(|l| l.contains("refused a node message") && l.contains("splendor.nodes.all"))
        .await;
    assert!(
        refused.contains(&format!(
            "a node message of version {next}; this node speaks version {NODE_VERSION} only"
        )),
        "{refused}"
    );
    // A call of the previous version to this node: refused the same way.
    let previous = serde_json::to_vec(&json!({"v": NODE_VERSION - 1, "t": "join", "room": code}))
        .expect("encode");
    let calls = splendor_cluster::call_subject(splendor_lobby::NodeId(1));
    let answer = nats.request_raw(&calls, &previous).await;
    let answer: Value = serde_json::from_slice(&answer).expect("a JSON answer");
    assert_eq!(answer["v"], NODE_VERSION, "{answer}");
    assert_eq!(answer["a"], "refused", "{answer}");
    let refused = nodes[0]
        .wait_for_line(|l| l.contains("refused a node message") && l.contains(&calls))
        .await;
    assert!(
        refused.contains(&format!("a node message of version {}", NODE_VERSION - 1)),
        "{refused}"
    );
    // Not misread: the room still runs here and answers.
    let chat = ann
        .request(json!({"type": "chat", "text": "still mine"}))
        .await;
    assert_ne!(chat["type"], "error", "{chat}");
    // The positive control: the same message in this version is read and
    // acted on (this node closes its copy of a room taken over elsewhere).
    nats.publish_raw(splendor_cluster::ALL_SUBJECT, &moved(NODE_VERSION))
        .await;
    nodes[0]
        .wait_for_line(|l| l.contains("another node took over a room this node runs"))
        .await;
    let log = nodes[0].log_lines();
    let closings = log
        .iter()
        .filter(|l| l.contains("another node took over a room this node runs"))
        .count();
    assert_eq!(closings, 1, "only the message of this version was acted on");
}

#[tokio::test]
async fn two_processes_never_run_as_one_node() {
    let Some(db) = TestDatabase::postgres("one node id").await else {
        return;
    };
    let nats = Nats::start().await;
    let mut nodes = nodes_with_lease(&db, &nats, &[1], "1s").await.into_iter();
    let first = nodes.next().expect("node 1");
    // A second process given the same id waits up to two leases for the
    // claim to run out (it may be its own predecessor's), then refuses to
    // start with a clear error: the first one is alive and renews it.
    let second = tokio::process::Command::new(SERVER)
        .args(["--listen", "127.0.0.1:0", "--database-url", &db.url])
        .env("SPLENDOR_NATS_URL", &nats.url)
        .env("SPLENDOR_NODE_ID", "1")
        .env("SPLENDOR_LEASE_TTL", "1s")
        .env_remove("SPLENDOR_DATABASE_URL")
        .kill_on_drop(true)
        .output();
    let second = tokio::time::timeout(splendor_e2e::SAFETY_TIMEOUT, second)
        .await
        .expect("the second process gives up in time")
        .expect("run it");
    let said = String::from_utf8_lossy(&second.stderr).into_owned()
        + &String::from_utf8_lossy(&second.stdout);
    assert!(!second.status.success(), "{said}");
    assert!(
        said.contains("node id 1 is in use by another running node"),
        "{said}"
    );
    assert!(!said.contains("listening on"), "{said}");
    // The first still serves.
    assert_eq!(http_get(first.addr(), "/readyz").await.0, 200);
    // Stopped cleanly, it gives the id up: the next process under it
    // starts at once (no lease to wait out; the start would wait for it).
    let (status, _) = first.terminate().await;
    assert!(status.success(), "{status}");
    let next = nodes_with_lease(&db, &nats, &[1], "1s").await;
    let waited = next[0]
        .log_lines()
        .iter()
        .any(|l| l.contains("node id still claimed"));
    assert!(!waited, "the released id was free at once");
}

/// `GET /api/rooms` of `node`, as JSON.
async fn listed(node: std::net::SocketAddr) -> Value {
    let (status, body) = http_get(node, "/api/rooms").await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).expect("a room list")
}

#[tokio::test]
async fn every_node_lists_every_room_once_and_a_dead_nodes_rooms_leave_the_list() {
    let Some(db) = TestDatabase::postgres("rooms listed by every node").await else {
        return;
    };
    let nats = Nats::start().await;
    let nodes = nodes_with_lease(&db, &nats, &[1, 2], "1s").await;
    let addrs: Vec<_> = nodes.iter().map(ServerProcess::addr).collect();
    let mut ann = identified(&nodes[0], "ann", "en").await;
    let mut bob = identified(&nodes[1], "bob", "en").await;
    let a = ann
        .request(json!({"type": "create", "seats": 3, "listed": true}))
        .await;
    let b = bob
        .request(json!({"type": "create", "seats": 2, "listed": true}))
        .await;
    let (a, b) = (a["code"].as_str().unwrap(), b["code"].as_str().unwrap());
    let mut both = vec![a.to_owned(), b.to_owned()];
    both.sort();
    // Every node lists both rooms, each once, the same way (each owner
    // writes what its room shows as it changes).
    let deadline = tokio::time::Instant::now() + splendor_e2e::SAFETY_TIMEOUT;
    loop {
        let one = listed(addrs[0]).await;
        let two = listed(addrs[1]).await;
        let codes: Vec<&str> = one["rooms"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["code"].as_str().unwrap())
            .collect();
        if codes == both && one == two {
            let ann_room = &one["rooms"][usize::from(both[0] != a)];
            assert_eq!(ann_room["host"], "ann", "{one}");
            assert_eq!(ann_room["seats"], 3, "{one}");
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "{one} / {two}");
        tokio::task::yield_now().await;
    }
    // The operators' view names each room's owner, on either node.
    for addr in &addrs {
        let auth = format!("Bearer {ADMIN_TOKEN}");
        let (status, body) = http_get_with(
            *addr,
            "/api/admin/rooms",
            &[("Authorization", auth.as_str())],
        )
        .await;
        assert_eq!(status, 200, "{body}");
        let view: Value = serde_json::from_str(&body).unwrap();
        let owners: Vec<(String, u64)> = view["rooms"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["code"].as_str().unwrap().to_owned(),
                    r["node"].as_u64().unwrap(),
                )
            })
            .collect();
        let mut expected = vec![(a.to_owned(), 1), (b.to_owned(), 2)];
        expected.sort();
        assert_eq!(owners, expected, "{view}");
    }
    // `list_rooms` over the protocol says the same on the other node.
    let over_ws = bob.request(json!({"type": "list_rooms"})).await;
    assert_eq!(over_ws["rooms"], listed(addrs[1]).await["rooms"]);
    // Node 1 dies: its waiting room ends with it (as a single node's
    // does), and leaves every listing when its lease runs out.
    let mut nodes = nodes.into_iter();
    nodes.next().expect("node 1").kill().await;
    loop {
        let two = listed(addrs[1]).await;
        let codes: Vec<&str> = two["rooms"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["code"].as_str().unwrap())
            .collect();
        if codes == [b] {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "{two}");
        tokio::task::yield_now().await;
    }
}

#[tokio::test]
async fn the_waiting_rooms_of_one_address_are_counted_across_nodes() {
    let Some(db) = TestDatabase::postgres("caps across nodes").await else {
        return;
    };
    let nats = Nats::start().await;
    let mut nodes = Vec::new();
    for id in ["1", "2"] {
        let env = [
            ("SPLENDOR_NATS_URL", nats.url.as_str()),
            ("SPLENDOR_NODE_ID", id),
            ("SPLENDOR_MAX_WAITING_ROOMS_PER_IP", "2"),
        ];
        nodes.push(ServerProcess::start_with_env(SERVER, &db.url, &env).await);
    }
    // Every client here is 127.0.0.1: one room waits on each node.
    let mut ann = identified(&nodes[0], "ann", "en").await;
    let mut bob = identified(&nodes[1], "bob", "en").await;
    let first = ann.request(json!({"type": "create", "seats": 2})).await;
    assert_eq!(first["type"], "room", "{first}");
    let second = bob.request(json!({"type": "create", "seats": 2})).await;
    assert_eq!(second["type"], "room", "{second}");
    // A third from the same address on node 1, which holds only one of
    // them, is refused once node 2's room is written where node 1 reads.
    let mut carl = identified(&nodes[0], "carl", "en").await;
    let deadline = tokio::time::Instant::now() + splendor_e2e::SAFETY_TIMEOUT;
    loop {
        let third = carl.request(json!({"type": "create", "seats": 2})).await;
        if third["type"] == "error" {
            assert_eq!(third["code"], "too_many_rooms_from_address", "{third}");
            break;
        }
        // Made before node 2's room was written: give it back and ask again.
        assert_eq!(third["type"], "room", "{third}");
        let left = carl.request(json!({"type": "leave"})).await;
        assert_ne!(left["type"], "error", "{left}");
        assert!(tokio::time::Instant::now() < deadline, "never refused");
        tokio::task::yield_now().await;
    }
    // Once bob's room starts (it no longer waits), carl may make one.
    let mut dan = identified(&nodes[1], "dan", "en").await;
    let code = second["code"].as_str().unwrap();
    let joined = dan.request(json!({"type": "join", "code": code})).await;
    assert_eq!(joined["type"], "room", "{joined}");
    let started = bob.request(json!({"type": "start"})).await;
    assert_ne!(started["type"], "error", "{started}");
    loop {
        let third = carl.request(json!({"type": "create", "seats": 2})).await;
        if third["type"] == "room" {
            break;
        }
        assert_eq!(third["code"], "too_many_rooms_from_address", "{third}");
        assert!(tokio::time::Instant::now() < deadline, "never allowed");
        tokio::task::yield_now().await;
    }
}

#[tokio::test]
async fn a_ban_made_on_one_node_holds_on_every_node_at_once_and_after_a_kill() {
    let Some(db) = TestDatabase::postgres("a ban on every node").await else {
        return;
    };
    let nats = Nats::start().await;
    let nodes = nodes(&db, &nats, &[1, 2]).await;
    let addrs: Vec<_> = nodes.iter().map(ServerProcess::addr).collect();
    // Mallory is connected to node 2.
    let mut mallory = identified(&nodes[1], "mallory", "fr").await;
    let auth = format!("Bearer {ADMIN_TOKEN}");
    // The ban is made on node 1.
    let (status, made) = splendor_e2e::process::http_post_with(
        addrs[0],
        "/api/admin/bans",
        &[("Authorization", auth.as_str())],
        &json!({"kind": "name", "value": "mallory*", "reason": "triche"}).to_string(),
    )
    .await;
    assert_eq!(status, 201, "{made}");
    let made: Value = serde_json::from_str(&made).unwrap();
    assert_eq!(made["announced"], true, "{made}");
    // Her connection on node 2 was told before the call returned (it is
    // on its way), and closed.
    let told = mallory.recv_type("error").await;
    assert_eq!(told["code"], "banned", "{told}");
    assert!(
        told["message"].as_str().unwrap().contains("triche"),
        "{told}"
    );
    assert_eq!(mallory.expect_close().await.0, 4006);
    // A new hello on either node is refused.
    for addr in &addrs {
        let mut again = TestClient::connect_to(*addr, "mallory2").await;
        let refused = again
            .request(json!({"type": "hello", "name": "Mallory2"}))
            .await;
        assert_eq!(refused["code"], "banned", "{refused}");
    }
    // Node 2 killed and started again: the ban is still there.
    let mut nodes = nodes.into_iter();
    let _one = nodes.next();
    nodes.next().expect("node 2").kill().await;
    let again = nodes_with_lease(&db, &nats, &[2], "4s").await;
    let mut late = TestClient::connect_to(again[0].addr(), "mallory3").await;
    let refused = late
        .request(json!({"type": "hello", "name": "mallory"}))
        .await;
    assert_eq!(refused["code"], "banned", "{refused}");
}

/// Every metric the alert rules and the dashboard (docker/monitoring/)
/// name is in a node's /metrics, once it has served a game, a refusal and
/// a closed connection.
#[tokio::test]
async fn every_metric_the_alerts_and_the_dashboard_name_is_served() {
    let Some(db) = TestDatabase::postgres("the monitoring's metrics").await else {
        return;
    };
    let nats = Nats::start().await;
    let nodes = nodes(&db, &nats, &[1, 2]).await;
    let mut ann = identified(&nodes[0], "ann", "en").await;
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    let mut bob = identified(&nodes[1], "bob", "en").await;
    bob.request(json!({"type": "join", "code": code})).await;
    ann.request(json!({"type": "start"})).await;
    play_moves(&mut [&mut ann, &mut bob], 0, 2, &mut Dice(9)).await;
    let refused = ann
        .request(json!({"type": "act", "action": {"type": "pass"}, "expect_version": 0}))
        .await;
    assert_eq!(refused["type"], "error", "{refused}");
    let gone = identified(&nodes[0], "carl", "en").await;
    gone.disconnect().await;
    let (status, metrics) = http_get(nodes[0].addr(), "/metrics").await;
    assert_eq!(status, 200);
    let served: std::collections::BTreeSet<&str> = metrics
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split(['{', ' ']).next())
        .collect();
    let root = env!("CARGO_MANIFEST_DIR");
    let mut named = std::collections::BTreeSet::new();
    for file in [
        "docker/monitoring/alerts.yml",
        "docker/monitoring/grafana-dashboard.json",
    ] {
        let text = std::fs::read_to_string(format!("{root}/{file}")).expect(file);
        for (i, _) in text.match_indices("splendor_") {
            let name: String = text[i..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_' || c.is_ascii_digit())
                .collect();
            named.insert(name);
        }
    }
    assert!(named.len() > 15, "{named:?}");
    let missing: Vec<&String> = named
        .iter()
        .filter(|n| !served.contains(n.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "named but not served: {missing:?}\n{metrics}"
    );
}
