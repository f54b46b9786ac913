//! Issue 45, the hostile soak in short: the real server as a host runs it
//! behind a proxy (client addresses from `X-Forwarded-For`, its own limits
//! on messages and API requests), honest pairs of players from four
//! addresses playing live games with chat, quick play and turn-based
//! games, while `splendor-soak attack` from five more addresses, pinned to
//! one core, does at full speed everything the hostile tests found a
//! stranger could make the server hold. The budgets here are small so that
//! the attack meets every one of them within the run.
//!
//! What must hold: not one honest request refused, every kind of honest
//! game played, the attack refused at each budget, the server's sockets
//! within what the connection budgets allow, no panic, and the server
//! ready afterwards. The figures of the full soak (10 minutes, 40 honest
//! players, 10 attacking addresses, latency with and without the attack)
//! are docs/soak-hostile.sh's, in docs/BENCHMARKS.md: speed is measured in
//! benchmarks, never here.

use std::process::Stdio;

use serde_json::Value;
use splendor_e2e::TestDatabase;
use splendor_e2e::process::{ServerProcess, http_get};

const SOAK: &str = env!("CARGO_BIN_EXE_splendor-soak");
const SERVER: &str = env!("CARGO_BIN_EXE_splendor-server-e2e");
const SECONDS: &str = "30";
const ATTACKERS: usize = 5;
const HONEST_ADDRESSES: usize = 4;
/// `SPLENDOR_MAX_CONNECTIONS_PER_IP`, the default.
const CONNECTIONS_PER_ADDRESS: usize = 16;
/// The attack's loops from each address (tests/support/soak/attack.rs).
const ATTACK_LOOPS_PER_ADDRESS: usize = 20;

/// Runs one side of the soak to its end; its report.
async fn side(url: &str, args: &[&str], pin: bool) -> Value {
    let mut command = if pin && which("taskset") {
        let mut c = tokio::process::Command::new("taskset");
        c.args(["-c", "1", SOAK]);
        c
    } else {
        tokio::process::Command::new(SOAK)
    };
    let output = command
        .args(["--url", url, "--seconds", SECONDS])
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .await
        .expect("splendor-soak runs");
    assert!(
        output.status.success(),
        "splendor-soak {args:?}: {output:?}"
    );
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text.lines().last().expect("a report");
    println!("{line}");
    serde_json::from_str(line).expect("a JSON report")
}

fn which(program: &str) -> bool {
    std::process::Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// How many sockets `pid` has open (its other files are the store's, as
/// many as its pool of connections holds).
fn sockets(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| {
            std::fs::read_link(entry.path())
                .is_ok_and(|target| target.to_string_lossy().starts_with("socket:"))
        })
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn honest_players_are_never_refused_while_an_attack_meets_every_budget() {
    let db = TestDatabase::sqlite();
    let server = ServerProcess::start_as_hosted(
        SERVER,
        &db.url,
        &[
            ("SPLENDOR_CLIENT_IP_HEADER", "X-Forwarded-For"),
            // Behind the proxy every connection comes from its address.
            ("SPLENDOR_MAX_TCP_PER_PEER", "0"),
            // Small enough for a short run to reach them.
            // Fewer than the attack's loops from an address (14 spectators,
            // 3 churning turn-based rooms, 1 bot table: 18), so that some
            // are refused whatever the pace of the handshakes.
            ("SPLENDOR_MAX_SESSIONS_PER_IP_PER_HOUR", "16"),
            ("SPLENDOR_MAX_ROOMS_PER_IP", "12"),
            ("SPLENDOR_MAX_BOT_TABLES_PER_IP", "1"),
            // The attack's lists and positions came to 280 to 700 requests
            // an address in 30 s, as the machine was loaded or not: a
            // budget of 120 is met either way (the honest side uses none).
            ("SPLENDOR_MAX_API_REQUESTS_PER_IP_PER_MINUTE", "120"),
            // Refusals still wait, but a short run's attack must reach every
            // budget in 30 s: at the default second, its churn (which waits
            // for each refused handshake) made 23 rooms from 5 addresses and
            // never met the rooms' budget.
            ("SPLENDOR_REFUSAL_PAUSE_MS", "100"),
        ],
    )
    .await;
    let url = format!("ws://{}/ws", server.addr());
    let pid = server.pid().expect("a running server");
    let before = sockets(pid);

    // The most sockets the server has open at once, read while it runs.
    let most = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let sampler = tokio::spawn({
        let most = most.clone();
        async move {
            let mut tick = tokio::time::interval(std::time::Duration::from_millis(200));
            loop {
                tick.tick().await;
                most.fetch_max(sockets(pid), std::sync::atomic::Ordering::Relaxed);
            }
        }
    });
    let attackers = ATTACKERS.to_string();
    let honest = HONEST_ADDRESSES.to_string();
    let attack_args = ["attack", "--addresses", &attackers];
    let honest_args = [
        "honest",
        "--players",
        "12",
        "--addresses",
        &honest,
        "--think-ms",
        "100",
    ];
    let (attack, honest) = tokio::join!(
        side(&url, &attack_args, true),
        side(&url, &honest_args, false),
    );
    sampler.abort();
    let most = most.load(std::sync::atomic::Ordering::Relaxed);

    // Not one honest request refused, nothing lost, every kind of game.
    assert_eq!(honest["refusals"], 0, "{honest}");
    assert_eq!(honest["failures"], serde_json::json!({}), "{honest}");
    for game in ["live", "quick", "turn_based"] {
        assert!(
            honest["games"][game].as_u64() >= Some(1),
            "{game}: {honest}"
        );
    }
    assert!(honest["chat_lines"].as_u64() > Some(0), "{honest}");

    // The attack met each budget.
    let outcomes = &attack["outcomes"];
    let met = |what: &str| outcomes[what].as_u64().unwrap_or(0);
    for refusal in [
        "connect http_429",
        "hello too_many_sessions",
        "turn-based create too_many_rooms_from_address",
        "bots start too_many_bot_tables",
        "chat chat_too_fast",
        "games http_429",
    ] {
        assert!(met(refusal) > 0, "never refused {refusal:?}: {attack}");
    }
    // And got through where a stranger may: it did attack.
    for done in [
        "turn-based start ok",
        "add_bot ok",
        "spectate ok",
        "chat sent",
    ] {
        assert!(met(done) > 0, "never {done:?}: {attack}");
    }

    // The server holds no more than its budgets let it: the WebSockets of
    // every address at most, and for each of the attack's loops the
    // connection it is making and the one it just dropped, which the
    // server may not have read the end of yet (seen: 172 with one per
    // loop allowed, 168).
    let honest_sockets = HONEST_ADDRESSES * CONNECTIONS_PER_ADDRESS;
    let attack_sockets = ATTACKERS * 2 * CONNECTIONS_PER_ADDRESS.max(ATTACK_LOOPS_PER_ADDRESS);
    assert!(
        most <= before + honest_sockets + attack_sockets,
        "{before} sockets open before, at most {most} during"
    );
    // And lets go of all of it once they are gone: nothing leaks.
    let settled = tokio::time::timeout(std::time::Duration::from_secs(30), async {
        while sockets(pid) > before {
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    })
    .await;
    assert!(
        settled.is_ok(),
        "{before} sockets open before, {} after the run",
        sockets(pid)
    );
    let (status, _) = http_get(server.addr(), "/readyz").await;
    assert_eq!(status, 200);
    let panics = server
        .log_lines()
        .iter()
        .filter(|line| line.contains("panicked"))
        .count();
    assert_eq!(panics, 0);
}
