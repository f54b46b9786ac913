//! The honest players of the soak: pairs of friends from different
//! addresses who, in turn, play a live game in a listed room with a few
//! chat lines, queue for quick play, and play a turn-based game a few moves
//! before one of them resigns (R13.2 ends it). Each player thinks a fixed
//! time before a move, so the offered load is the same with or without an
//! attack. Every answer that is an `error` is a refusal, counted by code.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::Instant;

use crate::client::{Conn, Failure};

/// The honest side's size and pace.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    pub(crate) url: String,
    pub(crate) players: usize,
    pub(crate) addresses: usize,
    pub(crate) think: Duration,
    pub(crate) stop_at: Instant,
}

/// The address of honest address number `n` (each in a /24 of its own).
pub(crate) fn address(n: usize) -> String {
    format!("100.64.{n}.10")
}

/// What the honest players did and were told.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    requests: u64,
    refused: BTreeMap<String, u64>,
    /// Connections lost or answers that never came (not refusals, but as
    /// bad for a player: reported apart).
    failures: BTreeMap<String, u64>,
    games: BTreeMap<&'static str, u64>,
    acts: u64,
    chat_lines: u64,
    /// From `act` to its `events`, in microseconds.
    act_us: Vec<u32>,
}

type Shared = Arc<Mutex<Tally>>;

fn note(tally: &Shared, f: impl FnOnce(&mut Tally)) {
    if let Ok(mut tally) = tally.lock() {
        f(&mut tally);
    }
}

/// Counts a request's outcome; the answer if it was one.
fn counted(tally: &Shared, outcome: Result<Value, Failure>) -> Result<Value, Failure> {
    note(tally, |t| {
        t.requests += 1;
        match &outcome {
            Err(Failure::Refused(code)) => *t.refused.entry(code.clone()).or_default() += 1,
            Err(other) => *t.failures.entry(other.key()).or_default() += 1,
            Ok(_) => {}
        }
    });
    outcome
}

const ANSWER: Duration = Duration::from_secs(30);

/// Runs every pair until `plan.stop_at`; the report.
pub(crate) async fn run(plan: Plan) -> Value {
    let tally: Shared = Arc::default();
    let mut pairs = Vec::new();
    for k in 0..plan.players / 2 {
        let plan = plan.clone();
        let tally = tally.clone();
        pairs.push(tokio::spawn(async move { pair(k, &plan, &tally).await }));
    }
    for pair in pairs {
        let _ = pair.await;
    }
    let mut tally = std::mem::take(&mut *tally.lock().expect("no task panicked holding it"));
    tally.act_us.sort_unstable();
    let at = |q: f64| {
        let v = &tally.act_us;
        if v.is_empty() {
            0.0
        } else {
            f64::from(v[((v.len() - 1) as f64 * q).round() as usize]) / 1000.0
        }
    };
    json!({
        "side": "honest",
        "players": plan.players,
        "addresses": plan.addresses,
        "requests": tally.requests,
        "refused": tally.refused,
        "refusals": tally.refused.values().sum::<u64>(),
        "failures": tally.failures,
        "games": tally.games,
        "acts": tally.acts,
        "chat_lines": tally.chat_lines,
        "act_ms": {"p50": at(0.5), "p90": at(0.9), "p99": at(0.99), "max": at(1.0)},
    })
}

/// One pair of friends, `k`, until the end of the run.
async fn pair(k: usize, plan: &Plan, tally: &Shared) {
    let from = [
        address(k % plan.addresses),
        address((k + 1) % plan.addresses),
    ];
    let mut tokens: [Option<String>; 2] = [None, None];
    let mut round = 0usize;
    let mut dice = k as u64 + 1;
    while Instant::now() < plan.stop_at {
        let mut conns = Vec::new();
        for (n, from) in from.iter().enumerate() {
            match hello(
                plan,
                from,
                &format!("friend {k}-{n}"),
                &mut tokens[n],
                tally,
            )
            .await
            {
                Some(conn) => conns.push(conn),
                None => break,
            }
        }
        let [mut a, mut b] = match <[Conn; 2]>::try_from(conns) {
            Ok(both) => both,
            Err(_) => {
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        // Play rounds on these connections until one of them fails.
        loop {
            if Instant::now() >= plan.stop_at {
                return;
            }
            let outcome = match round % 3 {
                0 => live(&mut a, &mut b, plan, tally, &mut dice).await,
                1 => quick(&mut a, &mut b, plan, tally, &mut dice).await,
                _ => turn_based(&mut a, &mut b, plan, tally, &mut dice).await,
            };
            round += 1;
            if outcome.is_err() {
                break;
            }
        }
    }
}

/// A connection said `hello` on (resuming its session when it has one).
async fn hello(
    plan: &Plan,
    from: &str,
    name: &str,
    token: &mut Option<String>,
    tally: &Shared,
) -> Option<Conn> {
    let mut conn = match Conn::connect(&plan.url, from).await {
        Ok(conn) => conn,
        Err(failure) => {
            let _ = counted(tally, Err(failure));
            return None;
        }
    };
    let hello = match token {
        Some(token) => json!({"type": "hello", "token": token}),
        None => json!({"type": "hello", "name": name}),
    };
    let welcome = counted(tally, conn.request(hello, ANSWER).await).ok()?;
    *token = welcome["token"].as_str().map(str::to_owned);
    Some(conn)
}

/// A live game in a listed room (spectators may come), played to its end.
async fn live(
    a: &mut Conn,
    b: &mut Conn,
    plan: &Plan,
    tally: &Shared,
    dice: &mut u64,
) -> Result<(), Failure> {
    // The friend arrives a moment later: long enough for the room to be seen.
    let create = json!({"type": "create", "seats": 2, "listed": true});
    hosted(a, b, create, Duration::from_millis(500), tally).await?;
    play([a, b], plan, tally, dice, Game::Live).await
}

/// `a` creates a room with `create`, `b` joins it `after` that, `a` starts.
async fn hosted(
    a: &mut Conn,
    b: &mut Conn,
    create: Value,
    after: Duration,
    tally: &Shared,
) -> Result<(), Failure> {
    let room = counted(tally, a.request(create, ANSWER).await)?;
    let code = room["code"].as_str().unwrap_or_default().to_owned();
    tokio::time::sleep(after).await;
    let join = json!({"type": "join", "code": code});
    counted(tally, b.request(join, ANSWER).await)?;
    counted(tally, a.request(json!({"type": "start"}), ANSWER).await)?;
    Ok(())
}

/// Both queue for a quick game of two (a bot after 5 s if nobody else
/// waits), and play what they are matched into.
async fn quick(
    a: &mut Conn,
    b: &mut Conn,
    plan: &Plan,
    tally: &Shared,
    dice: &mut u64,
) -> Result<(), Failure> {
    let queue = json!({"type": "queue", "players": 2, "bot_after_s": 5});
    counted(tally, a.request(queue.clone(), ANSWER).await)?;
    counted(tally, b.request(queue, ANSWER).await)?;
    play([a, b], plan, tally, dice, Game::Quick).await
}

/// A turn-based game: a few moves, then the host resigns.
async fn turn_based(
    a: &mut Conn,
    b: &mut Conn,
    plan: &Plan,
    tally: &Shared,
    dice: &mut u64,
) -> Result<(), Failure> {
    let create = json!({"type": "create", "seats": 2, "turn_based": {"per_move_s": 86_400}});
    hosted(a, b, create, Duration::ZERO, tally).await?;
    play([a, b], plan, tally, dice, Game::TurnBased).await
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Game {
    Live,
    Quick,
    TurnBased,
}

impl Game {
    fn name(self) -> &'static str {
        match self {
            Game::Live => "live",
            Game::Quick => "quick",
            Game::TurnBased => "turn_based",
        }
    }
}

/// The version at which the host of a turn-based game resigns.
const RESIGN_AT: u64 = 10;

/// One player's side of the game(s) being played.
#[derive(Default)]
struct Side {
    /// The action to send, and when (after the thinking time).
    due: Option<(Instant, Value)>,
    /// The request id and sending time of the action awaiting its answer.
    in_flight: Option<(String, Instant)>,
    chat: Option<String>,
    last_line: Option<Instant>,
    resign: Option<String>,
    resigned: bool,
    moves: u32,
    over: bool,
}

/// Plays both connections' games to their ends (they may be two games).
async fn play(
    mut conns: [&mut Conn; 2],
    plan: &Plan,
    tally: &Shared,
    dice: &mut u64,
    game: Game,
) -> Result<(), Failure> {
    let mut sides = [Side::default(), Side::default()];
    // Nothing for a minute is a failure (a move is at most a few seconds).
    let mut quiet_until = Instant::now() + Duration::from_secs(60);
    while !(sides[0].over && sides[1].over) {
        let due = sides
            .iter()
            .filter_map(|s| s.due.as_ref().map(|(at, _)| *at))
            .min();
        let wake = due.unwrap_or(quiet_until).min(plan.stop_at);
        let [c0, c1] = &mut conns;
        let (n, message) = tokio::select! {
            m = c0.next(quiet_until.min(plan.stop_at)) => (0, m),
            m = c1.next(quiet_until.min(plan.stop_at)) => (1, m),
            () = tokio::time::sleep_until(wake) => {
                if Instant::now() >= plan.stop_at {
                    return Ok(());
                }
                for n in 0..2 {
                    if let Some((at, _)) = &sides[n].due && *at <= Instant::now() {
                        let (_, act) = sides[n].due.take().expect("just seen");
                        let id = conns[n].send_with_id(act).await?;
                        sides[n].in_flight = Some((id, Instant::now()));
                    }
                }
                continue;
            }
        };
        let message = match message {
            Ok(message) => message,
            Err(Failure::Timeout) if Instant::now() >= plan.stop_at => return Ok(()),
            Err(failure) => {
                note(tally, |t| {
                    *t.failures.entry(failure.key()).or_default() += 1
                });
                return Err(failure);
            }
        };
        quiet_until = Instant::now() + Duration::from_secs(60);
        let side = &mut sides[n];
        let id = message["id"].as_str().map(str::to_owned);
        let answers = |mine: &Option<String>| id.is_some() && mine.as_deref() == id.as_deref();
        match message["type"].as_str().unwrap_or_default() {
            "error" => {
                let code = message["code"].as_str().unwrap_or("error").to_owned();
                note(tally, |t| {
                    t.requests += 1;
                    *t.refused.entry(code).or_default() += 1;
                });
                side.in_flight = None;
            }
            "events" if side.in_flight.as_ref().map(|f| Some(&f.0)) == Some(id.as_ref()) => {
                let (_, sent) = side.in_flight.take().expect("just seen");
                let us = u32::try_from(sent.elapsed().as_micros()).unwrap_or(u32::MAX);
                side.moves += 1;
                note(tally, |t| {
                    t.requests += 1;
                    t.acts += 1;
                    t.act_us.push(us);
                });
                // A line every sixth move of one's own, at most one in
                // 2.5 s: well inside a person's 5 lines in 10 s.
                let rested = side
                    .last_line
                    .is_none_or(|at| at.elapsed() >= Duration::from_millis(2500));
                if game != Game::TurnBased
                    && side.moves.is_multiple_of(6)
                    && side.chat.is_none()
                    && rested
                {
                    side.last_line = Some(Instant::now());
                    let line = json!({"type": "chat", "text": format!("nice move {}", side.moves)});
                    side.chat = Some(conns[n].send_with_id(line).await?);
                }
            }
            "chat" if answers(&side.chat) => {
                side.chat = None;
                note(tally, |t| {
                    t.requests += 1;
                    t.chat_lines += 1;
                });
            }
            "events" if answers(&side.resign) => {
                side.resign = None;
                note(tally, |t| t.requests += 1);
            }
            "result" => {
                side.over = true;
                side.due = None;
                if n == 0 || game == Game::Quick {
                    note(tally, |t| *t.games.entry(game.name()).or_default() += 1);
                }
            }
            "state" if !side.over => {
                let version = message["version"].as_u64().unwrap_or_default();
                let Some(legal) = message["legal_actions"].as_array() else {
                    continue;
                };
                if legal.is_empty() || side.in_flight.is_some() || side.resigned {
                    continue;
                }
                // The host resigns a turn-based game on a turn of its own,
                // so that the friend has no move under way (R13.2 ends it).
                if game == Game::TurnBased && n == 0 && version >= RESIGN_AT {
                    side.resigned = true;
                    side.resign = Some(conns[n].send_with_id(json!({"type": "resign"})).await?);
                    continue;
                }
                let action = pick(legal, dice);
                let act = json!({"type": "act", "action": action, "expect_version": version});
                side.due = Some((Instant::now() + plan.think, act));
            }
            _ => {}
        }
    }
    Ok(())
}

/// A purchase when there is one (so games end), otherwise any legal action.
fn pick(legal: &[Value], dice: &mut u64) -> Value {
    *dice = dice
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let roll = (*dice >> 33) as usize;
    let buys: Vec<&Value> = legal.iter().filter(|a| a.get("buy").is_some()).collect();
    if buys.is_empty() {
        legal[roll % legal.len()].clone()
    } else {
        buys[roll % buys.len()].clone()
    }
}
