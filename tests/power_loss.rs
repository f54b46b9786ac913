//! Power loss, not just `kill -9` (issue 12): an acknowledged move survives
//! losing the operating system's page cache.
//!
//! The real server binary runs with its SQLite database on
//! `splendor-faultfs`, a FUSE file system of our own that keeps every write
//! apart until it is synced and drops the unsynced ones when the power is
//! cut. Two players play over real WebSockets. In each round the power is
//! cut at a seeded random point: after the round's `a`-th acknowledged move,
//! at the `n`-th change to the file system after it (so the cut lands
//! between moves or inside a commit, between its writes and its fsync).
//! The server is killed with SIGKILL at once; the file system is mounted
//! again with only what was synced, the server starts on it, and every
//! player resumes with its token and `sync`s: every action the server ever
//! acknowledged to it (its `events` reply) must be in the restored game's
//! history, the same events at the same version. The game goes on in the
//! next round (a new one starts when it ends).
//!
//! The negative control runs the same scenario with SQLite's
//! `synchronous=OFF` (the store's test-only
//! `SPLENDOR_UNSAFE_SQLITE_SYNCHRONOUS_OFF`), cutting the power right after
//! the third acknowledgement, and must lose acknowledged moves: the harness
//! can see a loss.
//!
//! Without FUSE these tests fail, saying what to install (`.ci/run`
//! installs `fuse3`); they never skip. The seed is printed; set
//! `SPLENDOR_POWER_LOSS_SEED` to replay a run's cut points and moves.

use std::collections::BTreeMap;
use std::time::Instant;

use serde_json::{Value, json};
use splendor_e2e::{Dice, ServerProcess, Table, TestClient, choose, events_by_id, open_table_at};
use splendor_faultfs::{Image, Mount};
use splendor_protocol::StateInfo;
use splendor_store::UNSAFE_SYNCHRONOUS_OFF_VAR;
use tokio::sync::oneshot;

/// The server binary (the root package's copy of `splendor-server`).
const SERVER: &str = env!("CARGO_BIN_EXE_splendor-server-e2e");

/// Power cuts in the main test (under 0.1 s each).
const CUTS: usize = 50;

/// Moves a round may make after its cut is planned before the test gives
/// up waiting for it (a bug in the plan, not a slow machine).
const MOVES_AFTER_PLAN: usize = 40;

/// Where one round cuts the power: `then_changes` changes to the file
/// system after the round's `after_acks`-th acknowledged move reach it, and
/// the power goes out at the next one.
#[derive(Clone, Copy, Debug)]
struct Cut {
    after_acks: u32,
    then_changes: u64,
}

/// An action the server told its actor was accepted: its `events` reply.
#[derive(Clone, Debug)]
struct Ack {
    seat: usize,
    events: Value,
}

/// A game played across power cuts: who plays it, and every action
/// acknowledged in it so far, by version.
struct Game {
    code: String,
    names: Vec<String>,
    tokens: Vec<String>,
    acks: BTreeMap<u64, Ack>,
}

/// What a run found.
#[derive(Debug, Default)]
struct Outcome {
    cuts: usize,
    /// Distinct acknowledged actions.
    acks: usize,
    /// Moves on their way when the power went out (sent, never
    /// acknowledged): the cut struck while they were being stored.
    in_flight: usize,
    /// Acknowledged actions looked for after a restart (one is looked for
    /// after every later cut of its game too).
    checks: usize,
    /// Changes to the file system per round, before its cut.
    changes: Vec<u64>,
    /// What was acknowledged and is not in the restored game.
    lost: Vec<String>,
}

#[tokio::test]
async fn acknowledged_moves_survive_power_cuts() {
    let seed = std::env::var("SPLENDOR_POWER_LOSS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
            now.map_or(1, |d| d.as_nanos() as u64)
        });
    println!("power-loss seed {seed} (SPLENDOR_POWER_LOSS_SEED={seed} replays it)");
    let mut dice = Dice(seed);
    let cuts: Vec<Cut> = (0..CUTS)
        .map(|_| Cut {
            after_acks: dice.below(16) as u32,
            then_changes: dice.below(24) as u64,
        })
        .collect();
    let started = Instant::now();
    let outcome = scenario(&[], &cuts, seed).await;
    let took = started.elapsed();
    println!(
        "{} power cuts ({} while a move was being stored), {} acknowledged moves \
         ({} checks after restarts), changes per round {:?}, {took:.1?}",
        outcome.cuts, outcome.in_flight, outcome.acks, outcome.checks, outcome.changes
    );
    assert!(
        outcome.lost.is_empty(),
        "seed {seed}: acknowledged moves lost in a power cut:\n{}",
        outcome.lost.join("\n")
    );
    assert_eq!(outcome.cuts, CUTS);
    assert!(
        outcome.acks >= 3,
        "too few moves to show anything: {outcome:?}"
    );
}

#[tokio::test]
async fn negative_control_synchronous_off_loses_acknowledged_moves() {
    let cut = Cut {
        after_acks: 3,
        then_changes: 0,
    };
    let outcome = scenario(&[(UNSAFE_SYNCHRONOUS_OFF_VAR, "1")], &[cut], 7).await;
    println!("synchronous=OFF: {outcome:?}");
    assert_eq!(outcome.acks, 3, "{outcome:?}");
    assert!(
        !outcome.lost.is_empty(),
        "with synchronous=OFF a power cut right after three acknowledged moves \
         must lose some, or the harness cannot see a loss: {outcome:?}"
    );
}

/// Plays one round per cut, then checks what the last cut left.
async fn scenario(env: &[(&str, &str)], cuts: &[Cut], seed: u64) -> Outcome {
    let mut outcome = Outcome::default();
    let mut dice = Dice(seed ^ 0x5eed);
    let mut image = Image::new();
    let mut carried: Option<Game> = None;
    for (round, cut) in cuts.iter().enumerate() {
        let machine = Machine::boot(&image, env).await;
        let restored = match carried.take() {
            Some(game) => restore(&machine.server, game, &mut outcome).await,
            None => None,
        };
        let (mut game, mut table, mut version) = match restored {
            Some(restored) => restored,
            None => new_game(&machine.server).await,
        };
        let before = machine.mount.stats().changes;
        let sent =
            play_until_the_power_cut(&machine.mount, &mut table, &mut version, *cut, &mut dice)
                .await;
        let changes = machine.mount.stats().changes - before;
        println!(
            "round {round}: {cut:?}: the power went out at version {version} after {changes} changes"
        );
        outcome.changes.push(changes);
        outcome.cuts += 1;
        machine.server.kill().await;
        // Acknowledgements on their way were sent before the kill: read
        // everything each player got.
        for client in table.players.iter_mut().chain([&mut table.spectator]) {
            client.read_until_gone().await;
        }
        let new = acks_in(&table);
        outcome.acks += new.len();
        outcome.in_flight += sent - new.len();
        game.acks.extend(new);
        drop(table);
        image = machine.mount.durable_image();
        machine
            .mount
            .unmount()
            .expect("unmount: the server is gone");
        carried = Some(game);
    }
    // The machine after the last cut.
    let machine = Machine::boot(&image, env).await;
    if let Some(game) = carried {
        drop(restore(&machine.server, game, &mut outcome).await);
    }
    for (path, entry) in image.entries() {
        if let splendor_faultfs::Entry::File(bytes) = entry {
            println!(
                "after the last cut: {} holds {} bytes",
                path.display(),
                bytes.len()
            );
        }
    }
    machine.server.kill().await;
    machine
        .mount
        .unmount()
        .expect("unmount: the server is gone");
    outcome
}

/// The machine after a (re)boot: the file system over what the last cut
/// left, and the server on it. (Dropped in this order if a test fails.)
struct Machine {
    server: ServerProcess,
    mount: Mount,
    _mountpoint: tempfile::TempDir,
}

impl Machine {
    async fn boot(image: &Image, env: &[(&str, &str)]) -> Machine {
        let mountpoint = tempfile::tempdir().expect("a mount point");
        let mount = Mount::new(mountpoint.path(), image).unwrap_or_else(|err| {
            panic!(
                "the power-loss test (issue 12) needs FUSE and does not skip without it: \
                 {err} (.ci/run installs fuse3 and libfuse3-dev when they are missing)"
            )
        });
        let url = format!("sqlite://{}/data/splendor.db", mount.path().display());
        let server = ServerProcess::start_with_env(SERVER, &url, env).await;
        Machine {
            server,
            mount,
            _mountpoint: mountpoint,
        }
    }
}

async fn new_game(server: &ServerProcess) -> (Game, Table, u64) {
    let table = open_table_at(server.addr(), &["ann", "bob"]).await;
    let game = Game {
        code: table.code.clone(),
        names: table.players.iter().map(|p| p.name.clone()).collect(),
        tokens: table
            .players
            .iter()
            .map(|p| p.token.clone().expect("a token"))
            .collect(),
        acks: BTreeMap::new(),
    };
    (game, table, 0)
}

/// Every player resumes and syncs; every acknowledged action must be in its
/// history. Returns the game to play on, or `None` when it is over or lost.
async fn restore(
    server: &ServerProcess,
    game: Game,
    outcome: &mut Outcome,
) -> Option<(Game, Table, u64)> {
    let mut players = Vec::new();
    let mut states = Vec::new();
    for (seat, token) in game.tokens.iter().enumerate() {
        let mut client = TestClient::connect_to(server.addr(), &game.names[seat]).await;
        let mine: Vec<(&u64, &Ack)> = game.acks.iter().filter(|(_, a)| a.seat == seat).collect();
        outcome.checks += mine.len();
        let Some((history, state)) = resume_and_sync(&mut client, token).await else {
            for (version, _) in &mine {
                outcome.lost.push(format!(
                    "{}: seat {seat}'s move to version {version}: its session or seat is gone",
                    game.code
                ));
            }
            continue;
        };
        for (&version, ack) in mine {
            let found = history.get(version as usize - 1);
            // The history names cards in full, the live (lean) events by id.
            if found.map(|a| (a["version"].clone(), events_by_id(a["events"].clone())))
                != Some((json!(version), events_by_id(ack.events.clone())))
            {
                outcome.lost.push(format!(
                    "{}: seat {seat}'s move to version {version}: acknowledged as {}, \
                     restored at version {} as {found:?}",
                    game.code, ack.events, state.version
                ));
            }
        }
        players.push(client);
        states.push(state);
    }
    if players.len() < game.tokens.len() || states[0].to_act.is_none() {
        return None;
    }
    let version = states[0].version;
    assert!(states.iter().all(|s| s.version == version), "one version");
    let mut spectator = TestClient::connect_to(server.addr(), "spectator").await;
    spectator.hello().await;
    let joined = spectator
        .request(json!({"type": "join", "code": game.code, "as": "spectator"}))
        .await;
    assert_eq!(joined["type"], "room", "{joined}");
    let public = spectator.state().await;
    let table = Table {
        players,
        spectator,
        code: game.code.clone(),
        seen: Some((version, states, public)),
    };
    Some((game, table, version))
}

/// Resumes the session and asks for everything again; returns the game's
/// history (every action's events, oldest first) and the state, or `None`
/// when the session or its seat did not survive.
async fn resume_and_sync(client: &mut TestClient, token: &str) -> Option<(Vec<Value>, StateInfo)> {
    let welcome = client
        .request(json!({"type": "hello", "token": token}))
        .await;
    if welcome["type"] != "welcome" || welcome["resumed"] != true {
        return None;
    }
    // What the resume itself sends comes first; the sync's answer follows.
    let sync = client.send_with_id(json!({"type": "sync"})).await;
    let answer = client.recv_until(|m| m.get("id") == Some(&sync)).await;
    if answer["type"] != "room" {
        return None;
    }
    let next = client.recv().await;
    let history = if next["type"] == "history" {
        next["actions"].as_array().expect("history actions").clone()
    } else {
        Vec::new()
    };
    let state = if next["type"] == "state" {
        client.full(serde_json::from_value(next).expect("a state"))
    } else {
        client.state().await
    };
    Some((history, state))
}

/// Plays until the power goes out: the round's cut is planned after its
/// `after_acks`-th acknowledged move. A move refused once the power is out
/// is the cut striking inside its commit; a move refused with the power on
/// fails the test; a game that ends first has the power cut at once.
/// Returns how many moves were sent.
async fn play_until_the_power_cut(
    mount: &Mount,
    table: &mut Table,
    version: &mut u64,
    cut: Cut,
    dice: &mut Dice,
) -> usize {
    let mut sent = 0;
    let (tell, mut told) = oneshot::channel::<()>();
    let mut tell = Some(tell);
    let mut acks = 0;
    let mut moves_after_plan = 0;
    let play = async {
        loop {
            if acks == cut.after_acks
                && let Some(tell) = tell.take()
            {
                mount.cut_power_after(cut.then_changes, move || {
                    let _ = tell.send(());
                });
            }
            if tell.is_none() {
                moves_after_plan += 1;
                assert!(
                    moves_after_plan <= MOVES_AFTER_PLAN,
                    "the planned cut never came"
                );
            }
            let (states, _) = table.states_at(*version).await;
            // The game is over: `None`.
            let actor = states[0].to_act?;
            let legal = states[actor as usize].legal_actions.clone().expect("legal");
            let action = choose(&legal, dice).clone();
            sent += 1;
            let reply = table.players[actor as usize]
                .request(json!({"type": "act", "action": action, "expect_version": *version}))
                .await;
            if reply["type"] != "events" {
                return Some(reply);
            }
            *version += 1;
            acks += 1;
        }
    };
    tokio::select! {
        biased;
        _ = &mut told => {}
        refused = play => match refused {
            Some(reply) => assert!(!mount.is_powered(), "refused with the power on: {reply}"),
            None => {
                println!("the game ended before the planned cut: the power goes out now");
                mount.cut_power();
            }
        },
    }
    sent
}

/// Every `events` reply a player of `table` got to its own `act`.
fn acks_in(table: &Table) -> Vec<(u64, Ack)> {
    let mut acks = Vec::new();
    for (seat, player) in table.players.iter().enumerate() {
        for frame in &player.frames {
            let message: Value = serde_json::from_str(frame).expect("JSON");
            if message["type"] == "events" && message["id"].is_string() {
                let version = message["version"].as_u64().expect("a version");
                let events = message["events"].clone();
                acks.push((version, Ack { seat, events }));
            }
        }
    }
    acks
}
