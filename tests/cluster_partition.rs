//! Partitions (issue 21): the node that owns a room is cut from NATS but
//! not from PostgreSQL, or from PostgreSQL but not from NATS, by a
//! fault-injecting TCP proxy of the test's own between that node and the
//! engine (loopback only; the other node's links stay whole). No move is
//! acknowledged twice or lost, no room has two owners that write, and the
//! game goes on once the cut heals.
//!
//! Needs PostgreSQL (`SPLENDOR_TEST_DATABASE_URL`, which `.ci/run` sets):
//! without it each test says SKIPPED and passes.

use std::net::SocketAddr;

use serde_json::{Value, json};
use splendor_cluster::testing::Nats;
use splendor_e2e::faultproxy::FaultProxy;
use splendor_e2e::process::{ServerProcess, TestDatabase, http_get};
use splendor_e2e::steady::Steady;
use splendor_e2e::takeover::{address_of, through};
use splendor_e2e::{Dice, SAFETY_TIMEOUT, TestClient};
use splendor_protocol::StateInfo;
use splendor_replay::{Replay, verify_with_commitment};
use tokio::sync::watch;

const SERVER: &str = env!("CARGO_BIN_EXE_splendor-server-e2e");

async fn node(db_url: &str, nats_url: &str, id: u16) -> ServerProcess {
    let id = id.to_string();
    let env = [
        ("SPLENDOR_NATS_URL", nats_url),
        ("SPLENDOR_NODE_ID", id.as_str()),
        ("SPLENDOR_LEASE_TTL", "2s"),
    ];
    ServerProcess::start_with_env(SERVER, db_url, &env).await
}

async fn player(addr: SocketAddr, name: &str) -> TestClient {
    let mut client = TestClient::connect_to(addr, name).await;
    client.hello().await;
    client
}

async fn counter(node: SocketAddr, series: &str) -> f64 {
    let (status, text) = http_get(node, "/metrics").await;
    assert_eq!(status, 200);
    splendor_e2e::metric_value(&text, series)
}

/// Polls `/readyz` of `node` until its body is `body`.
async fn until_ready_says(node: SocketAddr, body: &str) {
    let deadline = tokio::time::Instant::now() + SAFETY_TIMEOUT;
    loop {
        let (status, text) = http_get(node, "/readyz").await;
        if status == 200 && text == body {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "/readyz never said {body:?}: {status} {text:?}"
        );
        tokio::task::yield_now().await;
    }
}

/// Ann (on `a`) makes a room for two, Bob (on `b`) joins, the game starts;
/// both play until version `moves`. Returns them and the last state each
/// saw.
async fn game_to(
    a: SocketAddr,
    b: SocketAddr,
    moves: u64,
) -> (TestClient, TestClient, StateInfo, StateInfo) {
    let mut ann = player(a, "ann").await;
    let room = ann.request(json!({"type": "create", "seats": 2})).await;
    let code = room["code"].as_str().unwrap().to_owned();
    let mut bob = player(b, "bob").await;
    let joined = bob.request(json!({"type": "join", "code": code})).await;
    assert_eq!(joined["type"], "room", "{joined}");
    let started = ann.request(json!({"type": "start"})).await;
    assert_ne!(started["type"], "error", "{started}");
    let mut dice = Dice(3);
    let mut version = 0;
    loop {
        let (sa, sb) = (ann.state_at(version).await, bob.state_at(version).await);
        if version == moves {
            return (ann, bob, sa, sb);
        }
        let (actor, state) = if sa.to_act == sa.you {
            (&mut ann, sa)
        } else {
            (&mut bob, sb)
        };
        let action = splendor_e2e::choose(state.legal_actions.as_ref().unwrap(), &mut dice).clone();
        let answer = actor
            .request(json!({"type": "act", "action": action, "expect_version": version}))
            .await;
        assert_ne!(answer["type"], "error", "{answer}");
        version += 1;
    }
}

#[tokio::test]
async fn the_owner_cut_from_nats_refuses_moves_it_cannot_deliver_and_plays_on_once_healed() {
    let Some(db) = TestDatabase::postgres("the owner cut from nats").await else {
        return;
    };
    let nats = Nats::start().await;
    let link = FaultProxy::start(address_of(&nats.url)).await;
    let owner = node(&db.url, &through(&nats.url, link.addr()), 1).await;
    let other = node(&db.url, &nats.url, 2).await;
    let (mut ann, mut bob, sa, sb) = game_to(owner.addr(), other.addr(), 6).await;

    link.cut();
    until_ready_says(owner.addr(), "ready (degraded: nats)\n").await;
    // Neither the owner's own player nor the other node's gets a move in:
    // the owner could not deliver it to Bob, and Bob's node cannot reach
    // the owner. Both are told to try again shortly.
    let (actor, state) = if sa.to_act == sa.you {
        (&mut ann, &sa)
    } else {
        (&mut bob, &sb)
    };
    let action = state.legal_actions.as_ref().unwrap()[0].clone();
    let act = json!({"type": "act", "action": action, "expect_version": 6});
    let refused = actor.request(act.clone()).await;
    assert_eq!(refused["code"], "room_unavailable", "{refused}");
    let synced = bob.request(json!({"type": "sync"})).await;
    assert_eq!(synced["code"], "room_unavailable", "{synced}");
    // The owner still holds its lease (PostgreSQL is fine): no takeover.
    assert_eq!(
        counter(other.addr(), "splendor_rooms_taken_over_total").await,
        0.0
    );

    link.heal();
    until_ready_says(owner.addr(), "ready\n").await;
    // The same move, once more: taken, exactly once (version 7).
    let (actor, _) = if sa.to_act == sa.you {
        (&mut ann, &sa)
    } else {
        (&mut bob, &sb)
    };
    // `room_unavailable` is retryable: Bob's node joins him to the room
    // again when it hears the owner's Reattach, which may come a moment
    // after the owner is ready.
    let deadline = tokio::time::Instant::now() + SAFETY_TIMEOUT;
    loop {
        let answer = actor.request(act.clone()).await;
        if answer["code"] == "room_unavailable" && tokio::time::Instant::now() < deadline {
            tokio::task::yield_now().await;
            continue;
        }
        assert_ne!(answer["type"], "error", "{answer}");
        break;
    }
    let (a7, b7) = (ann.state_at(7).await, bob.state_at(7).await);
    assert_eq!(a7.version, b7.version);
    // Version 7 was read above: both ask for it again, so that whoever is
    // to act gets it in the play below (each version is answered once).
    for client in [&mut ann, &mut bob] {
        client.send(json!({"type": "sync"})).await;
    }
    let (mut d1, mut d2) = (Dice(1), Dice(2));
    let (ra, rb) = tokio::join!(
        ann.play_until_result(&mut d1),
        bob.play_until_result(&mut d2)
    );
    assert_eq!(ra["winners"], rb["winners"]);
    assert_eq!(
        counter(other.addr(), "splendor_rooms_taken_over_total").await,
        0.0
    );
    verify(other.addr(), &ra, &sa.commitment, 7).await;
}

/// Waits for every player's game to end: the same winners for all, and
/// the replay (from `node`) verifies against the commitment with every
/// version any of them saw. Returns the players.
async fn finished(
    players: &mut tokio::task::JoinSet<(Steady, Value)>,
    node: SocketAddr,
    commitment: &str,
) -> Vec<Steady> {
    let (mut steadies, mut results) = (Vec::new(), Vec::new());
    while let Some(done) = players.join_next().await {
        let (steady, result) = done.expect("a player");
        steadies.push(steady);
        results.push(result);
    }
    assert!(
        results
            .windows(2)
            .all(|w| w[0]["winners"] == w[1]["winners"])
    );
    let seen_last = steadies
        .iter()
        .filter_map(|s| s.seen.keys().next_back().copied())
        .max()
        .unwrap_or(0);
    verify(node, &results[0], commitment, seen_last).await;
    steadies
}

/// The finished game's replay verifies against the commitment, with at
/// least `seen` actions.
async fn verify(node: SocketAddr, result: &Value, commitment: &str, seen: u64) {
    let game = result["game"].as_str().expect("the game");
    let (status, body) = http_get(node, &format!("/api/games/{game}/replay")).await;
    assert_eq!(status, 200, "{body}");
    let replay = Replay::from_json(&body).expect("a replay");
    let report = verify_with_commitment(&replay, &commitment.parse().unwrap())
        .unwrap_or_else(|e| panic!("the replay does not verify: {e}"));
    assert!(report.actions as u64 >= seen, "{} actions", report.actions);
}

#[tokio::test]
async fn the_owner_cut_from_postgresql_loses_its_room_to_another_node_and_no_move() {
    let Some(db) = TestDatabase::postgres("the owner cut from postgresql").await else {
        return;
    };
    let nats = Nats::start().await;
    let link = FaultProxy::start(address_of(&db.url)).await;
    let owner = node(&through(&db.url, link.addr()), &nats.url, 1).await;
    let other = node(&db.url, &nats.url, 2).await;
    let (ann, bob, sa, _) = game_to(owner.addr(), other.addr(), 6).await;

    // The owner loses PostgreSQL: it can neither store a move nor renew
    // its lease. The players keep trying (refused moves are made again).
    link.cut();
    // Kept to the end: the players watch it.
    let (_allow, allowed) = watch::channel(u64::MAX);
    let (reach, mut reached) = watch::channel(6u64);
    let mut players = tokio::task::JoinSet::new();
    // Within a lease without its database the owner gives its room up and
    // closes its sockets (1012, issue 44); Ann reconnects where the load
    // balancer sends her while the owner's /readyz answers 503.
    for (i, client) in [ann, bob].into_iter().enumerate() {
        let steady = Steady::new(client, other.addr(), Dice(10 + i as u64));
        players.spawn(steady.play(allowed.clone(), reach.clone()));
    }
    // Another node takes the room over once the lease ran out.
    let deadline = tokio::time::Instant::now() + SAFETY_TIMEOUT;
    while counter(other.addr(), "splendor_rooms_taken_over_total").await < 1.0 {
        assert!(tokio::time::Instant::now() < deadline, "no takeover");
        tokio::task::yield_now().await;
    }
    // The cut heals; the cut-off node gave its copy of the room up (it
    // refused every move meanwhile: it could not store them), and its
    // player joins the room where it lives now. The game goes on from the
    // last version anyone saw.
    link.heal();
    let went_on = tokio::time::timeout(SAFETY_TIMEOUT, reached.wait_for(|v| *v > 6))
        .await
        .is_ok();
    assert!(went_on, "the game never went on: {}", *reached.borrow());
    assert_eq!(
        counter(other.addr(), "splendor_rooms_taken_over_total").await,
        1.0
    );

    finished(&mut players, other.addr(), &sa.commitment).await;
}

/// The owner cut from both PostgreSQL and NATS (a cut link of its own):
/// no announcement of the takeover can reach it, so after two leases
/// without its database it closes its WebSockets with 1012; its player
/// reconnects (as a load balancer would send it: to the node that answers
/// `/readyz`) and the game goes on from the other node, before the cut
/// heals.
#[tokio::test]
async fn the_owner_cut_off_entirely_closes_its_sockets_and_its_player_carries_on_elsewhere() {
    let Some(db) = TestDatabase::postgres("the owner cut off entirely").await else {
        return;
    };
    let nats = Nats::start().await;
    let pg_link = FaultProxy::start(address_of(&db.url)).await;
    let nats_link = FaultProxy::start(address_of(&nats.url)).await;
    let owner = node(
        &through(&db.url, pg_link.addr()),
        &through(&nats.url, nats_link.addr()),
        1,
    )
    .await;
    let other = node(&db.url, &nats.url, 2).await;
    let (ann, bob, sa, _) = game_to(owner.addr(), other.addr(), 6).await;

    pg_link.cut();
    nats_link.cut();
    let (_allow, allowed) = watch::channel(u64::MAX);
    let (reach, mut reached) = watch::channel(6u64);
    let mut players = tokio::task::JoinSet::new();
    // Both reconnect to the node that answers (the proxy's choice while
    // the owner's /readyz says 503).
    for (i, client) in [ann, bob].into_iter().enumerate() {
        let steady = Steady::new(client, other.addr(), Dice(20 + i as u64));
        players.spawn(steady.play(allowed.clone(), reach.clone()));
    }
    // The game goes on while the owner is still cut off: two more moves,
    // so both players moved, the owner's player after its reconnect.
    let went_on = tokio::time::timeout(SAFETY_TIMEOUT, reached.wait_for(|v| *v > 7))
        .await
        .is_ok();
    assert!(went_on, "the game never went on: {}", *reached.borrow());
    assert_eq!(http_get(owner.addr(), "/readyz").await.0, 503);
    pg_link.heal();
    nats_link.heal();

    let steadies = finished(&mut players, other.addr(), &sa.commitment).await;
    let reconnects: usize = steadies.iter().map(|s| s.reconnects).sum();
    assert!(
        reconnects >= 1,
        "the owner's player was moved by a reconnect"
    );
}

/// The same cut, healed as soon as another node took the room over: the
/// takeover's announcement never reached the owner, which gave the room up
/// and closed its sockets by itself (a lease without its database, issue
/// 44); once back, it neither takes the room again nor keeps anyone, and
/// the game ends where it lives now.
#[tokio::test]
async fn a_cut_healed_right_after_the_takeover_leaves_no_player_behind() {
    let Some(db) = TestDatabase::postgres("a cut healed early").await else {
        return;
    };
    let nats = Nats::start().await;
    let pg_link = FaultProxy::start(address_of(&db.url)).await;
    let nats_link = FaultProxy::start(address_of(&nats.url)).await;
    let owner = node(
        &through(&db.url, pg_link.addr()),
        &through(&nats.url, nats_link.addr()),
        1,
    )
    .await;
    let other = node(&db.url, &nats.url, 2).await;
    let (ann, bob, sa, _) = game_to(owner.addr(), other.addr(), 6).await;

    pg_link.cut();
    nats_link.cut();
    let (_allow, allowed) = watch::channel(u64::MAX);
    let (reach, _reached) = watch::channel(6u64);
    let mut players = tokio::task::JoinSet::new();
    for (i, client) in [ann, bob].into_iter().enumerate() {
        let steady = Steady::new(client, other.addr(), Dice(30 + i as u64));
        players.spawn(steady.play(allowed.clone(), reach.clone()));
    }
    let deadline = tokio::time::Instant::now() + SAFETY_TIMEOUT;
    while counter(other.addr(), "splendor_rooms_taken_over_total").await < 1.0 {
        assert!(tokio::time::Instant::now() < deadline, "no takeover");
        tokio::task::yield_now().await;
    }
    pg_link.heal();
    nats_link.heal();
    finished(&mut players, other.addr(), &sa.commitment).await;
    // The room was taken over once, and the owner runs no copy of it.
    assert_eq!(
        counter(other.addr(), "splendor_rooms_taken_over_total").await,
        1.0
    );
    assert_eq!(
        counter(owner.addr(), "splendor_rooms_taken_over_total").await,
        0.0
    );
}

/// Issue 44, a silent failure: the owner's link to PostgreSQL stops
/// passing bytes but closes nothing (a blackholed route). The owner's
/// writes, renewals and the lease row's lock are bounded by its lease, so
/// it gives its room up, closes its players' sockets with 1012 and answers
/// `/readyz` 503 while another node takes the game over; the game goes on
/// there before the link heals (before the fix it stalled for the whole
/// hold, and a transaction left open on the held link kept the lease row
/// locked against the takeover).
#[tokio::test]
async fn the_owner_whose_postgresql_link_goes_silent_gives_its_room_up_and_the_game_goes_on_elsewhere()
 {
    let Some(db) = TestDatabase::postgres("the owner's postgresql link held").await else {
        return;
    };
    let nats = Nats::start().await;
    let link = FaultProxy::start(address_of(&db.url)).await;
    let owner = node(&through(&db.url, link.addr()), &nats.url, 1).await;
    let other = node(&db.url, &nats.url, 2).await;
    let (ann, bob, sa, _) = game_to(owner.addr(), other.addr(), 6).await;

    link.hold();
    let (_allow, allowed) = watch::channel(u64::MAX);
    let (reach, mut reached) = watch::channel(6u64);
    let mut players = tokio::task::JoinSet::new();
    // Ann reconnects where the load balancer would send her: the node
    // whose /readyz answers.
    for (i, client) in [ann, bob].into_iter().enumerate() {
        let steady = Steady::new(client, other.addr(), Dice(40 + i as u64));
        players.spawn(steady.play(allowed.clone(), reach.clone()));
    }
    // Two more moves while the link is still held: both players moved,
    // Ann after her reconnect to the other node.
    let went_on = tokio::time::timeout(SAFETY_TIMEOUT, reached.wait_for(|v| *v > 7))
        .await
        .is_ok();
    assert!(
        went_on,
        "the game stalled behind the held link: {}",
        *reached.borrow()
    );
    // And the owner closed its sockets (its player may have gone on
    // through it, following the room over NATS, before it did).
    owner.wait_for_line(splendor_e2e::takeover::evicts).await;
    assert_eq!(http_get(owner.addr(), "/readyz").await.0, 503);
    assert!(counter(owner.addr(), "splendor_leases_lost_total").await >= 1.0);
    assert_eq!(
        counter(other.addr(), "splendor_rooms_taken_over_total").await,
        1.0
    );
    link.heal();

    let steadies = finished(&mut players, other.addr(), &sa.commitment).await;
    let closes: Vec<Option<u16>> = steadies
        .iter()
        .flat_map(|s| s.closes.iter().map(|(code, _)| *code))
        .collect();
    assert!(
        closes.contains(&Some(1012)),
        "the owner's player was told to reconnect (1012): {closes:?}"
    );
}

/// Issue 44, a silent failure of the other link: the owner's NATS link
/// stops passing bytes but closes nothing. The node's pings go unanswered,
/// so `/readyz` says `degraded: nats` while it lasts (before the fix it
/// said `ready` for the whole hold: the client only learns of a closed
/// socket) and `ready` once it heals; the players, who kept trying
/// throughout, finish the game after the heal with no move refused as
/// stale.
#[tokio::test]
async fn the_owner_whose_nats_link_goes_silent_says_so_and_its_game_finishes_after_the_heal() {
    let Some(db) = TestDatabase::postgres("the owner's nats link held").await else {
        return;
    };
    let nats = Nats::start().await;
    let link = FaultProxy::start(address_of(&nats.url)).await;
    let owner = node(&db.url, &through(&nats.url, link.addr()), 1).await;
    let other = node(&db.url, &nats.url, 2).await;
    let (mut ann, mut bob, sa, _) = game_to(owner.addr(), other.addr(), 6).await;

    link.hold();
    // Version 6 was read above: both ask for the state again, so that
    // whoever is to act acts at once, before the node can know of the
    // hold (a move the owner takes then reaches Bob's node only after the
    // heal, if at all).
    for client in [&mut ann, &mut bob] {
        client.send(json!({"type": "sync"})).await;
    }
    let (_allow, allowed) = watch::channel(u64::MAX);
    let (reach, _reached) = watch::channel(6u64);
    let mut players = tokio::task::JoinSet::new();
    for (i, (client, home)) in [(ann, owner.addr()), (bob, other.addr())]
        .into_iter()
        .enumerate()
    {
        let steady = Steady::new(client, home, Dice(50 + i as u64));
        players.spawn(steady.play(allowed.clone(), reach.clone()));
    }
    until_ready_says(owner.addr(), "ready (degraded: nats)\n").await;
    link.heal();
    until_ready_says(owner.addr(), "ready\n").await;

    let steadies = finished(&mut players, other.addr(), &sa.commitment).await;
    for steady in &steadies {
        assert_eq!(
            steady.refused.get("stale_version"),
            None,
            "{}: {:?}",
            steady.client.name,
            steady.refused
        );
    }
}

/// Issue 44: PostgreSQL goes away for the whole cluster (a failover longer
/// than a lease; here the one node's link held silent). The node gives its
/// rooms up and closes its sockets, but their leases cannot be released
/// while the database is away; once it is back, the node releases them at
/// its next renewal, finds the games orphaned and takes them over, and the
/// players, back with their tokens, finish the game. (Before, the closed
/// rooms' leases lived on with the node's claim and the games were never
/// taken over.)
#[tokio::test]
async fn a_database_outage_of_the_whole_cluster_leaves_no_game_stuck() {
    let Some(db) = TestDatabase::postgres("a whole cluster's outage").await else {
        return;
    };
    let nats = Nats::start().await;
    let link = FaultProxy::start(address_of(&db.url)).await;
    let only = node(&through(&db.url, link.addr()), &nats.url, 1).await;
    let (ann, bob, sa, _) = game_to(only.addr(), only.addr(), 6).await;

    link.hold();
    only.wait_for_line(splendor_e2e::takeover::evicts).await;
    only.wait_for_line(|l| l.contains("the rooms are given up"))
        .await;
    // The closed room's lease could not be released.
    only.wait_for_line(|l| l.contains("releasing a room's lease"))
        .await;
    link.heal();
    let (_allow, allowed) = watch::channel(u64::MAX);
    let (reach, _reached) = watch::channel(6u64);
    let mut players = tokio::task::JoinSet::new();
    for (i, client) in [ann, bob].into_iter().enumerate() {
        let steady = Steady::new(client, only.addr(), Dice(60 + i as u64));
        players.spawn(steady.play(allowed.clone(), reach.clone()));
    }
    finished(&mut players, only.addr(), &sa.commitment).await;
    assert_eq!(
        counter(only.addr(), "splendor_rooms_taken_over_total").await,
        1.0,
        "the node took its own game over once the database was back"
    );
}
