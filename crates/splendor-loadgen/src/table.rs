//! One table of the load: S real WebSocket clients that create a room,
//! join it, start, play to the end, and start over with a new room.
//!
//! Each client's socket is read by a task of its own, which counts bytes
//! and frames and hands the parsed messages to the table; the table holds
//! the write halves, picks the actions and times them.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio::sync::{Semaphore, mpsc};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async_with_config};

type Sink = SplitSink<WebSocketStream<MaybeTlsStream<TcpStream>>, Message>;

/// How a room paces its actions.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Pace {
    /// The seat to act acts as soon as it has its state.
    ClosedLoop,
    /// At most one action per this interval in each room.
    Every(Duration),
}

/// What every table does.
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    pub(crate) url: String,
    /// Another node of the same cluster, and how many of each room's seats
    /// (counted from the last) connect through it: the room lives where
    /// seat 0 creates it, so these seats' messages are forwarded.
    pub(crate) remote: Option<(String, u8)>,
    /// Follow each room to its node (issue 44): a seat whose `room` names
    /// another node than its `welcome` reconnects through this URL (the
    /// load balancer) with `?node=N` and resumes there.
    pub(crate) follow: Option<String>,
    pub(crate) seats: u8,
    pub(crate) pace: Pace,
    /// Nothing runs past this, whatever happens.
    pub(crate) stop_at: Instant,
}

impl Plan {
    /// Whether `seat` connects through the other node.
    fn is_remote(&self, seat: usize) -> bool {
        self.remote
            .as_ref()
            .is_some_and(|(_, n)| seat >= usize::from(self.seats.saturating_sub(*n)))
    }
}

/// Totals of all tables, read at the start and end of the window.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    actions: AtomicU64,
    games: AtomicU64,
    errors: AtomicU64,
    lost: AtomicU64,
    /// Seats that reconnected to their room's node (`--follow`), and of
    /// those, how many landed on it.
    follows: AtomicU64,
    followed_home: AtomicU64,
    bytes: AtomicU64,
    frames: AtomicU64,
    /// Bytes of the `events` and `state` frames of mid-game actions
    /// (versions 10 to 49), and those actions: what one action costs once
    /// the game is under way, without the setup of rooms and games.
    mid_bytes: AtomicU64,
    mid_actions: AtomicU64,
    /// Latencies from `act` to the actor's resulting state, in microseconds,
    /// of the seats connected to the room's own node.
    latencies: Mutex<Vec<u32>>,
    /// The same, of the seats connected through another node.
    remote_latencies: Mutex<Vec<u32>>,
    /// Set when the run is over.
    pub(crate) stop: AtomicBool,
}

/// A reading of [`Counters`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Totals {
    pub(crate) actions: u64,
    pub(crate) games: u64,
    pub(crate) errors: u64,
    pub(crate) lost: u64,
    pub(crate) bytes: u64,
    pub(crate) frames: u64,
    pub(crate) mid_bytes: u64,
    pub(crate) mid_actions: u64,
    pub(crate) follows: u64,
    pub(crate) followed_home: u64,
}

impl Counters {
    /// The totals so far.
    pub(crate) fn snapshot(&self) -> Totals {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        Totals {
            actions: get(&self.actions),
            games: get(&self.games),
            errors: get(&self.errors),
            lost: get(&self.lost),
            bytes: get(&self.bytes),
            frames: get(&self.frames),
            mid_bytes: get(&self.mid_bytes),
            mid_actions: get(&self.mid_actions),
            follows: get(&self.follows),
            followed_home: get(&self.followed_home),
        }
    }

    /// The latencies recorded since the last call: the local seats', and
    /// the seats' connected through another node.
    pub(crate) fn take_latencies(&self) -> (Vec<u32>, Vec<u32>) {
        let take =
            |m: &Mutex<Vec<u32>>| std::mem::take(&mut *m.lock().unwrap_or_else(|p| p.into_inner()));
        (take(&self.latencies), take(&self.remote_latencies))
    }

    fn latency(&self, since: Instant, until: Instant, remote: bool) {
        let micros = until
            .duration_since(since)
            .as_micros()
            .min(u32::MAX as u128) as u32;
        let list = if remote {
            &self.remote_latencies
        } else {
            &self.latencies
        };
        list.lock().unwrap_or_else(|p| p.into_inner()).push(micros);
    }
}

/// p50, p90, p99 and max of `latencies`, in milliseconds.
pub(crate) fn percentiles(mut latencies: Vec<u32>) -> String {
    if latencies.is_empty() {
        return "no samples".into();
    }
    latencies.sort_unstable();
    let at = |q: f64| {
        let i = ((latencies.len() as f64 - 1.0) * q).round() as usize;
        f64::from(latencies[i]) / 1000.0
    };
    format!(
        "p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} samples)",
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0),
        latencies.len()
    )
}

/// One client of a table.
pub(crate) struct Client {
    sink: Sink,
    /// The node this connection is on (`welcome.node`), in a cluster.
    node: Option<u64>,
    /// The session's token, to resume it on another connection.
    token: String,
}

/// A message one of the table's clients received, and when: latency is
/// measured to the moment the frame arrived, not to when the table got to
/// it (it may be pacing another seat's action meanwhile).
struct Received {
    seat: usize,
    message: Value,
    at: Instant,
}

/// Plays games at one table until the run stops.
pub(crate) async fn run(
    index: usize,
    plan: Plan,
    counters: Arc<Counters>,
    gate: Arc<Semaphore>,
) -> anyhow::Result<()> {
    let (tx, mut rx) = mpsc::channel(256);
    let table = Table {
        tx: tx.clone(),
        counters: counters.clone(),
    };
    let mut clients = Vec::new();
    {
        let _permit = gate.acquire().await?;
        for seat in 0..usize::from(plan.seats) {
            let url = match &plan.remote {
                Some((url, _)) if plan.is_remote(seat) => url,
                _ => &plan.url,
            };
            clients.push(connect(url, seat, tx.clone(), counters.clone()).await?);
        }
    }
    drop(tx);
    for (seat, client) in clients.iter_mut().enumerate() {
        send(
            client,
            json!({"type": "hello", "name": format!("t{index}s{seat}"), "id": "hello"}),
        )
        .await?;
        let welcome = wait_for(&mut rx, seat, ("welcome", "hello"), plan.stop_at).await?;
        client.identified(&welcome)?;
    }
    let mut dice = 0x9E37_79B9_7F4A_7C15_u64 ^ index as u64;
    while !counters.stop.load(Ordering::Relaxed) && Instant::now() < plan.stop_at {
        if let Err(e) = play_one(&plan, &table, &mut clients, &mut rx, &mut dice).await {
            counters.lost.fetch_add(1, Ordering::Relaxed);
            if counters.lost.load(Ordering::Relaxed) <= 3 {
                eprintln!("table {index}: {e:#}");
            }
            return Err(e);
        }
        counters.games.fetch_add(1, Ordering::Relaxed);
        for client in clients.iter_mut() {
            send(client, json!({"type": "leave"})).await?;
        }
    }
    Ok(())
}

/// What a table's clients share: where their messages go, and the counts.
struct Table {
    tx: mpsc::Sender<Received>,
    counters: Arc<Counters>,
}

impl Client {
    /// Takes the node and the token from `welcome`.
    fn identified(&mut self, welcome: &Value) -> anyhow::Result<()> {
        self.node = welcome["node"].as_u64();
        self.token = welcome["token"]
            .as_str()
            .context("a welcome without a token")?
            .to_owned();
        Ok(())
    }
}

/// Issue 44: `seat`, told by `room` that its (waiting) room runs on
/// another node, reconnects through `follow` asking for that node, resumes
/// its session and joins the room again, which gives it its seat back; its
/// old connection is closed.
async fn follow_room(
    table: &Table,
    follow: &str,
    clients: &mut [Client],
    rx: &mut mpsc::Receiver<Received>,
    (seat, room): (usize, &Value),
    stop_at: Instant,
) -> anyhow::Result<()> {
    let Some(node) = room["node"].as_u64() else {
        return Ok(());
    };
    if clients[seat].node == Some(node) {
        return Ok(());
    }
    let joiner = if follow.contains('?') { '&' } else { '?' };
    let url = format!("{follow}{joiner}node={node}");
    let _ = clients[seat].sink.close().await;
    let mut client = connect(&url, seat, table.tx.clone(), table.counters.clone()).await?;
    let token = clients[seat].token.clone();
    send(
        &mut client,
        json!({"type": "hello", "token": token, "id": "follow"}),
    )
    .await?;
    let welcome = wait_for(rx, seat, ("welcome", "follow"), stop_at).await?;
    client.identified(&welcome)?;
    table.counters.follows.fetch_add(1, Ordering::Relaxed);
    if client.node == Some(node) {
        table.counters.followed_home.fetch_add(1, Ordering::Relaxed);
    }
    // A waiting room's seat is taken again by joining it (the resume
    // brings back only a running game's seat).
    let code = room["code"].clone();
    send(
        &mut client,
        json!({"type": "join", "code": code, "id": "follow-join"}),
    )
    .await?;
    clients[seat] = client;
    wait_for(rx, seat, ("room", "follow-join"), stop_at).await?;
    Ok(())
}

/// Connects a client whose messages go to `tx`.
async fn connect(
    url: &str,
    seat: usize,
    tx: mpsc::Sender<Received>,
    counters: Arc<Counters>,
) -> anyhow::Result<Client> {
    // TCP_NODELAY, as a real client would: an `act` goes out at once.
    let (socket, _) = connect_async_with_config(url, None, true)
        .await
        .with_context(|| format!("connecting to {url}"))?;
    let (sink, mut stream) = socket.split();
    tokio::spawn(async move {
        while let Some(Ok(frame)) = stream.next().await {
            let Message::Text(text) = frame else { continue };
            counters
                .bytes
                .fetch_add(text.len() as u64, Ordering::Relaxed);
            counters.frames.fetch_add(1, Ordering::Relaxed);
            let Ok(message) = serde_json::from_str::<Value>(text.as_str()) else {
                continue;
            };
            let mid = message["version"]
                .as_u64()
                .is_some_and(|v| (10..50).contains(&v));
            if mid && (message["type"] == "state" || message["type"] == "events") {
                counters
                    .mid_bytes
                    .fetch_add(text.len() as u64, Ordering::Relaxed);
            }
            if message["type"] == "error" {
                counters.errors.fetch_add(1, Ordering::Relaxed);
            }
            let at = Instant::now();
            if tx.send(Received { seat, message, at }).await.is_err() {
                break;
            }
        }
    });
    Ok(Client {
        sink,
        node: None,
        token: String::new(),
    })
}

async fn send(client: &mut Client, message: Value) -> anyhow::Result<()> {
    client
        .sink
        .send(Message::Text(message.to_string().into()))
        .await
        .context("sending")
}

/// Waits for the answer to request `id` of `seat` (a message of `kind`
/// echoing the id); other messages, such as updates from a room the seat
/// just left, are dropped. An error answer fails.
async fn wait_for(
    rx: &mut mpsc::Receiver<Received>,
    seat: usize,
    (kind, id): (&str, &str),
    stop_at: Instant,
) -> anyhow::Result<Value> {
    loop {
        let received = tokio::time::timeout_at(stop_at.into(), rx.recv())
            .await
            .context("the run ended while setting up a room")?
            .context("a connection was lost")?;
        let message = received.message;
        if received.seat != seat || message["id"] != id {
            continue;
        }
        if message["type"] == kind {
            return Ok(message);
        }
        bail!("the server refused: {message}");
    }
}

/// One game: the first client creates the room, the others join, the
/// host starts, and the seat to act acts until the result.
async fn play_one(
    plan: &Plan,
    table: &Table,
    clients: &mut [Client],
    rx: &mut mpsc::Receiver<Received>,
    dice: &mut u64,
) -> anyhow::Result<()> {
    let counters = &*table.counters;
    send(
        &mut clients[0],
        json!({"type": "create", "seats": plan.seats, "id": "create"}),
    )
    .await?;
    let room = wait_for(rx, 0, ("room", "create"), plan.stop_at).await?;
    let code = room["code"]
        .as_str()
        .context("a room without a code")?
        .to_owned();
    for seat in 1..clients.len() {
        let client = &mut clients[seat];
        send(client, json!({"type": "join", "code": code, "id": "join"})).await?;
        let joined = wait_for(rx, seat, ("room", "join"), plan.stop_at).await?;
        if let Some(follow) = &plan.follow {
            follow_room(table, follow, clients, rx, (seat, &joined), plan.stop_at).await?;
        }
    }
    send(&mut clients[0], json!({"type": "start", "id": "start"})).await?;
    // Each seat's action in flight: on which version, since when. The next
    // actor's state may arrive before the last actor's own, so each seat
    // keeps its own.
    let mut in_flight: Vec<Option<(u64, Instant)>> = vec![None; clients.len()];
    let mut next_slot = Instant::now();
    let mut results = 0;
    loop {
        let Some(received) = tokio::time::timeout_at(plan.stop_at.into(), rx.recv())
            .await
            .ok()
            .flatten()
        else {
            if Instant::now() >= plan.stop_at || counters.stop.load(Ordering::Relaxed) {
                return Ok(());
            }
            bail!("a connection was lost");
        };
        let message = &received.message;
        match message["type"].as_str() {
            Some("result") => {
                results += 1;
                if results == clients.len() {
                    return Ok(());
                }
            }
            Some("error") => bail!("the server refused: {message}"),
            Some("state") => {
                let version = message["version"].as_u64().unwrap_or_default();
                if let Some((sent_on, at)) = in_flight[received.seat]
                    && version > sent_on
                {
                    counters.latency(at, received.at, plan.is_remote(received.seat));
                    counters.actions.fetch_add(1, Ordering::Relaxed);
                    if (10..50).contains(&version) {
                        counters.mid_actions.fetch_add(1, Ordering::Relaxed);
                    }
                    in_flight[received.seat] = None;
                }
                let Some(legal) = message["legal_actions"].as_array() else {
                    continue;
                };
                if legal.is_empty() || counters.stop.load(Ordering::Relaxed) {
                    continue;
                }
                let action = pick(legal, dice);
                if let Pace::Every(every) = plan.pace {
                    tokio::time::sleep_until(next_slot.into()).await;
                    next_slot = next_slot.max(Instant::now() - every) + every;
                }
                let act = json!({"type": "act", "action": action, "expect_version": version});
                in_flight[received.seat] = Some((version, Instant::now()));
                send(&mut clients[received.seat], act).await?;
            }
            _ => {}
        }
    }
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

/// Sets up a room of `seats` clients with a started game and returns them,
/// connected and doing nothing (idle mode).
pub(crate) async fn seated_idle(
    index: usize,
    url: &str,
    seats: u8,
    gate: Arc<Semaphore>,
) -> anyhow::Result<Vec<Client>> {
    let counters = Arc::new(Counters::default());
    let (tx, mut rx) = mpsc::channel(64);
    let mut clients = Vec::new();
    let _permit = gate.acquire().await?;
    for seat in 0..usize::from(seats) {
        clients.push(connect(url, seat, tx.clone(), counters.clone()).await?);
    }
    drop(tx);
    let deadline = Instant::now() + Duration::from_secs(60);
    for (seat, client) in clients.iter_mut().enumerate() {
        send(
            client,
            json!({"type": "hello", "name": format!("idle{index}s{seat}")}),
        )
        .await?;
    }
    send(
        &mut clients[0],
        json!({"type": "create", "seats": seats, "id": "create"}),
    )
    .await?;
    let room = wait_for(&mut rx, 0, ("room", "create"), deadline).await?;
    let code = room["code"]
        .as_str()
        .context("a room without a code")?
        .to_owned();
    for (seat, client) in clients.iter_mut().enumerate().skip(1) {
        send(client, json!({"type": "join", "code": code, "id": "join"})).await?;
        wait_for(&mut rx, seat, ("room", "join"), deadline).await?;
    }
    send(&mut clients[0], json!({"type": "start", "id": "start"})).await?;
    wait_for(&mut rx, 0, ("room", "start"), deadline).await?;
    // The reader tasks keep draining (and answering pings) while held.
    tokio::spawn(async move { while rx.recv().await.is_some() {} });
    Ok(clients)
}
