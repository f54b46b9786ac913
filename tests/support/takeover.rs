//! The kill loop of issue 21: three nodes behind HAProxy on one PostgreSQL
//! and one NATS; round after round, three players (connected through the
//! proxy) start a game, play to a random version, and the node that owns
//! their room is killed with SIGKILL — between two moves, or with moves on
//! their way. The game must go on from another node; every version any
//! player was shown must show the same game whenever it is shown again
//! (checked by [`Steady`]); every game is played to its end and its replay
//! verifies against the commitment the players got, with every version they
//! saw in its log. The killed node is started again where the proxy
//! expects it before the next round.
//!
//! The same loop with [`Fault::HoldDatabase`] (issue 44) holds the owner's
//! PostgreSQL link silent instead (each node reaches PostgreSQL through a
//! [`FaultProxy`] of its own): bytes stop, sockets stay open; the link
//! heals once the game went on elsewhere, and the node is not restarted.
//!
//! Used by the cluster tests (a few rounds, in CI) and by the soak example
//! (`cargo run --release --example takeover`), which reports the times.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::json;
use splendor_cluster::testing::Nats;
use splendor_replay::{Replay, verify_with_commitment};
use splendor_store::Store;
use tokio::sync::watch;

use crate::faultproxy::FaultProxy;
use crate::haproxy::Haproxy;
use crate::process::{ServerProcess, http_get};
use crate::steady::Steady;
use crate::{Dice, SAFETY_TIMEOUT, TestClient};

/// What befalls the owner of the room in each round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// SIGKILL; started again before the next round.
    Kill,
    /// Its link to PostgreSQL held silent until the game went on elsewhere.
    HoldDatabase,
}

/// What a kill loop measured.
#[derive(Debug, Default)]
pub struct KillReport {
    /// Per kill: from SIGKILL to the next move any player saw acknowledged.
    pub takeovers: Vec<Duration>,
    /// Per hold: from the hold to the first 1012 close a player of the
    /// owner got (none for a kill: its sockets just end).
    pub closed_1012: Vec<Duration>,
    /// Kills made while moves were on their way.
    pub in_flight: usize,
    /// Moves in the games' logs, all verified.
    pub moves: u64,
    /// Times players connected again through the proxy.
    pub reconnects: usize,
}

/// Node `id` over `db_url`, in the cluster on `nats`, listening on `listen`.
pub async fn start_node(
    binary: &str,
    db_url: &str,
    nats: &Nats,
    (id, listen, ttl): (u16, &str, &str),
) -> ServerProcess {
    let id = id.to_string();
    let env = [
        ("SPLENDOR_NATS_URL", nats.url.as_str()),
        ("SPLENDOR_NODE_ID", id.as_str()),
        ("SPLENDOR_LEASE_TTL", ttl),
        ("SPLENDOR_CLIENT_IP_HEADER", "X-Forwarded-For"),
        ("SPLENDOR_MAX_TCP_PER_PEER", "0"),
    ];
    ServerProcess::start_on(listen, binary, db_url, &env).await
}

/// Runs `kills` rounds as the module says, with leases of `ttl`; `seed`
/// chooses the moves and the points of the kills.
pub async fn kill_loop(
    binary: &str,
    db_url: &str,
    kills: usize,
    ttl: &str,
    seed: u64,
) -> KillReport {
    fault_loop(binary, db_url, (kills, Fault::Kill), ttl, seed).await
}

/// [`kill_loop`] with `fault` befalling the owner in each of `rounds`.
pub async fn fault_loop(
    binary: &str,
    db_url: &str,
    (kills, fault): (usize, Fault),
    ttl: &str,
    seed: u64,
) -> KillReport {
    let nats = Nats::start().await;
    let mut nodes = Vec::new();
    let mut links = Vec::new();
    for id in 1..=3 {
        let url = match fault {
            Fault::Kill => db_url.to_owned(),
            Fault::HoldDatabase => {
                let link = FaultProxy::start(address_of(db_url)).await;
                let url = through(db_url, link.addr());
                links.push(link);
                url
            }
        };
        nodes.push(Some(
            start_node(binary, &url, &nats, (id, "127.0.0.1:0", ttl)).await,
        ));
    }
    let addrs: Vec<SocketAddr> = nodes.iter().flatten().map(ServerProcess::addr).collect();
    let proxy = Haproxy::start(&addrs).await;
    let store = Store::open(db_url).await.expect("the database");
    let mut report = KillReport::default();
    let mut dice = Dice(seed);
    for round in 0..kills {
        let mut players = Vec::new();
        for name in ["ann", "bob", "cy"] {
            let mut client = TestClient::connect_to(proxy.addr(), &format!("{name}{round}")).await;
            client.hello().await;
            players.push(client);
        }
        let room = players[0]
            .request(json!({"type": "create", "seats": 3}))
            .await;
        let code = room["code"].as_str().expect("a room").to_owned();
        for client in &mut players[1..] {
            let joined = client.request(json!({"type": "join", "code": code})).await;
            assert_eq!(joined["type"], "room", "{joined}");
        }
        let started = players[0].request(json!({"type": "start"})).await;
        assert_ne!(started["type"], "error", "{started}");
        let owner = store
            .room_lease(&code)
            .await
            .expect("the lease")
            .expect("a live lease")
            .node;
        let owner = usize::from(owner) - 1;

        // Play to a random version, then kill the owner.
        let pause = 1 + dice.below(15) as u64;
        let (allow, allowed) = watch::channel(pause);
        let (reach, mut reached) = watch::channel(0u64);
        let mut tasks = tokio::task::JoinSet::new();
        for (i, client) in players.into_iter().enumerate() {
            let steady = Steady::new(client, proxy.addr(), Dice(seed ^ (round * 3 + i) as u64));
            tasks.spawn(steady.play(allowed.clone(), reach.clone()));
        }
        wait_for_version(&mut reached, pause).await;
        let in_flight = dice.below(2) == 0;
        if in_flight {
            // The next moves go out as the node dies.
            allow.send_replace(u64::MAX);
            report.in_flight += 1;
        }
        let struck = Instant::now();
        match fault {
            Fault::Kill => {
                let node = nodes[owner].take().expect("the owner runs");
                let listen = node.addr().to_string();
                node.kill().await;
                let seen_at_kill = *reached.borrow();
                allow.send_replace(u64::MAX);
                wait_for_version(&mut reached, seen_at_kill + 1).await;
                report.takeovers.push(struck.elapsed());
                nodes[owner] =
                    Some(start_node(binary, db_url, &nats, (owner as u16 + 1, &listen, ttl)).await);
            }
            Fault::HoldDatabase => {
                let node = nodes[owner].as_ref().expect("the owner runs");
                let evicted = node.log_lines().iter().filter(|l| evicts(l)).count();
                links[owner].hold();
                let seen_at_hold = *reached.borrow();
                allow.send_replace(u64::MAX);
                wait_for_version(&mut reached, seen_at_hold + 1).await;
                report.takeovers.push(struck.elapsed());
                // Healed once the owner has closed its sockets too (its
                // players may have gone on through it, following the room
                // over NATS, before it did).
                node.wait_for_lines(evicts, evicted + 1).await;
                links[owner].heal();
            }
        }

        // The game to its end, then its replay.
        let mut results = Vec::new();
        let mut seen_last = 0;
        let mut commitment = None;
        let mut first_1012: Option<Instant> = None;
        while let Some(done) = tasks.join_next().await {
            let (steady, result) = done.expect("a player");
            report.reconnects += steady.reconnects;
            for (code, at) in &steady.closes {
                if *code == Some(1012) && *at > struck {
                    first_1012 = Some(first_1012.map_or(*at, |f| f.min(*at)));
                }
            }
            seen_last = seen_last.max(steady.seen.keys().next_back().copied().unwrap_or(0));
            commitment = steady.commitment.clone();
            results.push(result);
        }
        assert!(
            results
                .windows(2)
                .all(|w| w[0]["winners"] == w[1]["winners"])
        );
        let game = results[0]["game"].as_str().expect("the game").to_owned();
        let (status, body) = http_get(proxy.addr(), &format!("/api/games/{game}/replay")).await;
        assert_eq!(status, 200, "{body}");
        let replay = Replay::from_json(&body).expect("a replay");
        let commitment = commitment.expect("a commitment").parse().expect("hex");
        let verified = verify_with_commitment(&replay, &commitment)
            .unwrap_or_else(|e| panic!("round {round}: the replay does not verify: {e}"));
        assert!(
            verified.actions as u64 >= seen_last,
            "round {round}: {} actions in the log, version {seen_last} seen",
            verified.actions
        );
        report.moves += verified.actions as u64;
        if let Some(at) = first_1012
            && fault == Fault::HoldDatabase
        {
            report.closed_1012.push(at - struck);
        }
    }
    report
}

/// The line a node cut off from its database writes as it closes its
/// WebSockets (1012).
pub fn evicts(line: &str) -> bool {
    line.contains("closing the WebSockets (1012)")
}

/// The `host:port` of a URL (`scheme://[user@]host:port[/...]`).
pub fn address_of(url: &str) -> SocketAddr {
    let rest = url.split_once("://").expect("a URL").1;
    let rest = rest.rsplit_once('@').map_or(rest, |(_, r)| r);
    let host = rest.split('/').next().expect("host:port");
    host.parse().expect("an IP address and port")
}

/// `url` with its `host:port` replaced by `addr`.
pub fn through(url: &str, addr: SocketAddr) -> String {
    url.replacen(&address_of(url).to_string(), &addr.to_string(), 1)
}

async fn wait_for_version(reached: &mut watch::Receiver<u64>, version: u64) {
    let waited = tokio::time::timeout(SAFETY_TIMEOUT, reached.wait_for(|v| *v >= version))
        .await
        .map(|r| r.is_ok());
    assert_eq!(
        waited,
        Ok(true),
        "no player was shown version {version} (last: {})",
        *reached.borrow()
    );
}

impl KillReport {
    /// The median and the longest takeover.
    pub fn median_and_worst(&self) -> (Duration, Duration) {
        let mut times = self.takeovers.clone();
        times.sort();
        let median = times.get(times.len() / 2).copied().unwrap_or_default();
        (median, times.last().copied().unwrap_or_default())
    }
}
