//! The attack of the soak: from each of its addresses (each in a /24 of its
//! own, so no range budget catches them together), at full speed, what the
//! hostile tests of issue 45 found hurt the server:
//! - fresh sessions that each start a turn-based game of two weeks a move
//!   against a bot and leave (they filled the server's rooms before);
//! - fresh sessions that start tables of four strong bots and leave;
//! - spectators in the listed rooms chatting as fast as they may send
//!   (they silenced the players before);
//! - the finished games' positions and lists drawn over HTTP in a loop
//!   (786 answers a second before);
//! - and every connection the address may hold and more, so that the
//!   handshakes past its budget are refused at full speed too.
//!
//! Nothing here waits politely: a refusal is counted and the loop goes on.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::time::Instant;

use crate::client::{Conn, Failure, http_get};

/// The attack's size.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    pub(crate) url: String,
    pub(crate) http: SocketAddr,
    pub(crate) addresses: usize,
    /// Parts of the attack left out (`churn`, `bots`, `chat`, `http`), to
    /// see what each costs.
    pub(crate) without: Vec<String>,
    pub(crate) stop_at: Instant,
}

impl Plan {
    fn has(&self, part: &str) -> bool {
        !self.without.iter().any(|w| w == part)
    }
}

/// The address of attacking address number `n`.
pub(crate) fn address(n: usize) -> String {
    format!("198.18.{n}.66")
}

type Tally = Arc<Mutex<BTreeMap<String, u64>>>;

/// One of the attack's loops, to spawn.
type Loop = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>;

fn count(tally: &Tally, what: impl Into<String>) {
    if let Ok(mut tally) = tally.lock() {
        *tally.entry(what.into()).or_default() += 1;
    }
}

/// Counts a request's outcome under `what`: `what ok` or its refusal.
fn counted(tally: &Tally, what: &str, outcome: Result<Value, Failure>) -> Result<Value, Failure> {
    match &outcome {
        Ok(_) => count(tally, format!("{what} ok")),
        Err(failure) => count(tally, format!("{what} {}", failure.key())),
    }
    outcome
}

const ANSWER: Duration = Duration::from_secs(10);

/// Runs the attack until `plan.stop_at`; the report.
pub(crate) async fn run(plan: Plan) -> Value {
    let tally: Tally = Arc::default();
    let mut tasks = Vec::new();
    for n in 0..plan.addresses {
        let from = address(n);
        let spawn =
            |tasks: &mut Vec<_>, part: &str, n: usize, f: fn(Plan, String, Tally) -> Loop| {
                if plan.has(part) {
                    for _ in 0..n {
                        tasks.push(tokio::spawn(f(plan.clone(), from.clone(), tally.clone())));
                    }
                }
            };
        spawn(&mut tasks, "churn", 3, |p, f, t| {
            Box::pin(async move { churn(&p, &f, &t).await })
        });
        spawn(&mut tasks, "bots", 1, |p, f, t| {
            Box::pin(async move { bot_tables(&p, &f, &t).await })
        });
        spawn(&mut tasks, "chat", 14, |p, f, t| {
            Box::pin(async move { watch_and_chat(&p, &f, &t).await })
        });
        spawn(&mut tasks, "http", 2, |p, f, t| {
            Box::pin(async move { draw_http(&p, &f, &t).await })
        });
    }
    for task in tasks {
        let _ = task.await;
    }
    let tally = std::mem::take(&mut *tally.lock().expect("no task panicked holding it"));
    json!({"side": "attack", "addresses": plan.addresses, "outcomes": tally})
}

/// A fresh session's connection, or the refusal counted.
async fn fresh(plan: &Plan, from: &str, tally: &Tally, name: &str) -> Option<Conn> {
    let mut conn = match Conn::connect(&plan.url, from).await {
        Ok(conn) => conn,
        Err(failure) => {
            count(tally, format!("connect {}", failure.key()));
            // A refused handshake costs the attacker nothing: go again at
            // once, only yielding so that the other loops run.
            tokio::task::yield_now().await;
            return None;
        }
    };
    let hello = json!({"type": "hello", "name": name});
    counted(tally, "hello", conn.request(hello, ANSWER).await).ok()?;
    Some(conn)
}

/// Sessions starting turn-based games against a bot and leaving them, one
/// after another on the same connection until one is refused, then again
/// from a fresh session (the rooms' budget is the address's, not the
/// session's: the churn meets it whatever sessions the other loops took).
async fn churn(plan: &Plan, from: &str, tally: &Tally) {
    while Instant::now() < plan.stop_at {
        let Some(mut conn) = fresh(plan, from, tally, "turner").await else {
            continue;
        };
        while Instant::now() < plan.stop_at {
            let create =
                json!({"type": "create", "seats": 2, "turn_based": {"per_move_s": 1_209_600}});
            if counted(
                tally,
                "turn-based create",
                conn.request(create, ANSWER).await,
            )
            .is_err()
            {
                break;
            }
            let bot = json!({"type": "add_bot", "level": "greedy"});
            if counted(tally, "add_bot", conn.request(bot, ANSWER).await).is_err() {
                break;
            }
            let start = conn.request(json!({"type": "start"}), ANSWER).await;
            if counted(tally, "turn-based start", start).is_err() {
                break;
            }
            let left = conn.request(json!({"type": "leave"}), ANSWER).await.is_ok();
            if !left {
                break;
            }
        }
    }
}

/// Fresh sessions starting tables of four strong bots and leaving.
async fn bot_tables(plan: &Plan, from: &str, tally: &Tally) {
    while Instant::now() < plan.stop_at {
        let Some(mut conn) = fresh(plan, from, tally, "botter").await else {
            continue;
        };
        let create = json!({"type": "create", "seats": 4, "as": "spectator"});
        if counted(tally, "bots create", conn.request(create, ANSWER).await).is_err() {
            continue;
        }
        let mut seated = true;
        for _ in 0..4 {
            let bot = json!({"type": "add_bot", "level": "strong"});
            seated &= counted(tally, "add_bot", conn.request(bot, ANSWER).await).is_ok();
        }
        if seated {
            let start = conn.request(json!({"type": "start"}), ANSWER).await;
            let _ = counted(tally, "bots start", start);
        }
        let _ = conn.send(&json!({"type": "leave"})).await;
    }
}

/// A spectator of the listed rooms, chatting as fast as the message rate
/// lets one connection send (18 a second, under its 20: a faster one is
/// closed, and the attacker would rather stay).
async fn watch_and_chat(plan: &Plan, from: &str, tally: &Tally) {
    let mut dice = u64::from(from.len() as u32) ^ 0x9e37_79b9_7f4a_7c15;
    while Instant::now() < plan.stop_at {
        let Some(mut conn) = fresh(plan, from, tally, "watcher").await else {
            continue;
        };
        'watching: while Instant::now() < plan.stop_at {
            let rooms = match conn.request(json!({"type": "list_rooms"}), ANSWER).await {
                Ok(rooms) => rooms,
                Err(failure) => {
                    count(tally, format!("list_rooms {}", failure.key()));
                    if matches!(failure, Failure::Refused(_)) {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                    break;
                }
            };
            let Some(codes) = rooms["rooms"].as_array().filter(|r| !r.is_empty()) else {
                tokio::time::sleep(Duration::from_millis(60)).await;
                continue;
            };
            dice = dice.wrapping_mul(6364136223846793005).wrapping_add(1);
            let code = codes[(dice >> 33) as usize % codes.len()]["code"].clone();
            let join = json!({"type": "join", "code": code, "as": "spectator"});
            if counted(tally, "spectate", conn.request(join, ANSWER).await).is_err() {
                continue;
            }
            let mut tick = tokio::time::interval(Duration::from_millis(1000 / 18));
            for line in 0..18 * 20 {
                tick.tick().await;
                if Instant::now() >= plan.stop_at {
                    break 'watching;
                }
                let chat = json!({"type": "chat", "text": format!("spam {line}")});
                if conn.send(&chat).await.is_err() {
                    count(tally, "chat closed");
                    break 'watching;
                }
                count(tally, "chat sent");
                // Read what came (answers, the room's traffic) without waiting.
                while let Ok(message) = conn.next(Instant::now()).await {
                    match message["type"].as_str() {
                        Some("error") => count(
                            tally,
                            format!("chat {}", message["code"].as_str().unwrap_or("error")),
                        ),
                        Some("room_closed") => continue 'watching,
                        _ => {}
                    }
                }
            }
            let _ = conn.request(json!({"type": "leave"}), ANSWER).await;
        }
    }
}

/// Lists of finished games and their positions, drawn in a loop.
async fn draw_http(plan: &Plan, from: &str, tally: &Tally) {
    let mut ids: Vec<String> = Vec::new();
    let mut n = 0usize;
    while Instant::now() < plan.stop_at {
        n += 1;
        let path = if ids.is_empty() || n.is_multiple_of(10) {
            "/api/games?limit=50".to_owned()
        } else {
            format!("/api/games/{}/positions", ids[n % ids.len()])
        };
        let what = if path.ends_with("/positions") {
            "positions"
        } else {
            "games"
        };
        match http_get(plan.http, &path, from).await {
            Ok((status, body)) => {
                count(tally, format!("{what} http_{status}"));
                if what == "games"
                    && status == 200
                    && let Ok(list) = serde_json::from_slice::<Value>(&body)
                {
                    ids = list["games"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|g| g["id"].as_str().map(str::to_owned))
                        .collect();
                }
            }
            Err(failure) => count(tally, format!("{what} {}", failure.key())),
        }
    }
}
