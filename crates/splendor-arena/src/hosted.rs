//! A series with bot programs, on the real server embedded on a loopback
//! port (an in-memory database: nothing is kept after the series).
//!
//! For each game the arena connects as a spectator host and creates a room
//! with a clock (bank and increment: the move limit, R12.1) whose stand-in
//! also plays for a program that is away (R12.3). Seats are filled in the
//! game's rotation order: a built-in entrant with `add_bot`, a program by
//! starting it with [`ENV_URL`](crate::ENV_URL),
//! [`ENV_ROOM`](crate::ENV_ROOM) and [`ENV_NAME`](crate::ENV_NAME) in its
//! environment and waiting for it to sit down. Then the arena starts the
//! game in join order, watches it to its `result`, fetches the replay from
//! the history API, and ends the programs still running.

use std::net::SocketAddr;
use std::process::Stdio;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use splendor_replay::{By, Replay};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::process::{Child, Command};
use tokio::time::{Instant, timeout};
use tokio_tungstenite::tungstenite::Message;

use crate::local::write_replay;
use crate::{ArenaError, EntrantKind, GameRecord, SeriesConfig, Trouble, seating};

/// How long a program has to take its seat.
const JOIN_TIME: Duration = Duration::from_secs(30);
/// How long a program has to end by itself after its game.
const EXIT_TIME: Duration = Duration::from_secs(3);
/// A game still running after this many actions is abandoned (programs
/// that take and give back tokens forever would stall the series).
const MAX_ACTIONS: u64 = 5_000;

/// A program started for a game, in a process group of its own (the
/// shell and everything it started): the group ends with it, whether the
/// game ended, the series failed, or the arena was stopped by SIGINT or
/// SIGTERM (issue 51: programs were left running, reparented to PID 1).
struct Program {
    entrant: usize,
    child: Child,
}

impl Program {
    /// Ends the program's whole process group.
    fn kill_group(&self) {
        if let Some(pid) = self.child.id() {
            // SAFETY: killpg only sends a signal to the group the arena
            // made for this program (`process_group(0)` at spawn).
            unsafe {
                libc::killpg(pid as libc::pid_t, libc::SIGKILL);
            }
        }
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        self.kill_group();
    }
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// The embedded server and its address.
struct Server {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Server {
    /// `deals`: the series' deals, dealt in the order rooms are created
    /// (one room per game); `budget`: the series' cap on the searches.
    async fn start(
        seed: u64,
        deals: Vec<u64>,
        budget: splendor_ai::Budget,
    ) -> Result<Server, ArenaError> {
        let config = splendor_server::Config {
            database_url: Some(
                "sqlite::memory:"
                    .parse::<splendor_server::DatabaseUrl>()
                    .map_err(|e| ArenaError::Server(e.to_string()))?,
            ),
            // Built-in entrants move as soon as they have chosen, each
            // level searching its own iterations within the series' cap.
            bot_delay_ms: 0,
            bot_max_iterations: (budget.iterations != u32::MAX).then_some(budget.iterations),
            strong_time_cap_ms: budget.time_cap.map_or(0, |c| c.as_millis() as u64),
            // The programs are ours, all on 127.0.0.1: no per-address
            // limit or rate gets in their way.
            max_messages_per_second: 10_000,
            message_burst: 10_000,
            max_connections_per_ip: 10_000,
            max_connects_per_ip_per_minute: 1_000_000,
            max_tcp_per_peer: 10_000,
            max_rooms_per_session: 1_000_000,
            max_waiting_rooms_per_ip: 1_000_000,
            max_rooms_per_ip: 0,
            max_sessions_per_ip_per_hour: 0,
            room_seed: Some(seed),
            // Game k deals the series' deal k (mirrored: once per seating).
            series_deals: Some(deals.into()),
            // Each game starts its programs anew, each a new session under
            // its entrant's name: those names repeat (issue 24).
            shared_program_names: true,
            ..splendor_server::Config::default()
        };
        let state = splendor_server::AppState::open(config)
            .await
            .map_err(|e| ArenaError::Server(e.to_string()))?;
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| ArenaError::Server(e.to_string()))?;
        let addr = listener
            .local_addr()
            .map_err(|e| ArenaError::Server(e.to_string()))?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(splendor_server::serve(listener, state, async {
            let _ = stopped.await;
        }));
        Ok(Server {
            addr,
            stop: Some(stop),
        })
    }

    fn ws_url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// A plain HTTP/1.1 GET: status and body.
    async fn get(&self, path: &str) -> std::io::Result<(u16, String)> {
        let mut stream = TcpStream::connect(self.addr).await?;
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        );
        stream.write_all(request.as_bytes()).await?;
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).await?;
        let text = String::from_utf8_lossy(&raw);
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let body = text
            .split_once("\r\n\r\n")
            .map(|(_, b)| b.to_owned())
            .unwrap_or_default();
        Ok((status, body))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// Plays every game of `config` on a fresh embedded server, `config.jobs`
/// at a time (each game starts its own programs), and says why it stopped
/// early if it did (a program crashed `max_crashes` games in a row).
pub async fn play_series(
    config: &SeriesConfig,
    mut progress: impl FnMut(u32, u32),
) -> Result<(Vec<GameRecord>, Option<String>), ArenaError> {
    crate::refusals::install();
    let deals = crate::series_deals(config).iter().map(|d| d.deal).collect();
    let server = Server::start(config.seed, deals, config.budget).await?;
    // Rooms are created in the games' order whatever runs at once: game k
    // plays the series' deal k (the server deals them in creation order).
    let turn = tokio::sync::watch::channel(0u32).0;
    let mut games = Vec::with_capacity(config.games as usize);
    let mut in_a_row = vec![0u32; config.entrants.len()];
    let mut played = futures_util::stream::iter(0..config.games)
        .map(|index| play_game(&server, config, index, &turn))
        .buffered(config.jobs.max(1));
    while let Some(record) = played.next().await {
        let record = record?;
        let index = record.index;
        for (e, row) in in_a_row.iter_mut().enumerate() {
            let crashed = record.troubles.iter().any(|(who, t)| {
                *who == e && matches!(t, Trouble::Crashed(_) | Trouble::DidNotJoin)
            });
            *row = if crashed { *row + 1 } else { 0 };
        }
        games.push(record);
        progress(index + 1, config.games);
        if config.max_crashes > 0
            && let Some(e) = in_a_row.iter().position(|&n| n >= config.max_crashes)
        {
            let why = format!(
                "{} crashed or did not join in {} games in a row (--max-crashes)",
                config.entrants[e].name, config.max_crashes
            );
            eprintln!("arena: {why}");
            // The games under way end with their programs (dropped).
            return Ok((games, Some(why)));
        }
    }
    Ok((games, None))
}

/// Game `index`'s turn to create its room: taken when the games before
/// it made theirs, passed on once its room is made or it failed before.
struct CreateTurn<'a> {
    turn: &'a tokio::sync::watch::Sender<u32>,
    index: u32,
    passed: bool,
}

impl<'a> CreateTurn<'a> {
    async fn take(turn: &'a tokio::sync::watch::Sender<u32>, index: u32) -> CreateTurn<'a> {
        let mut rx = turn.subscribe();
        let _ = rx.wait_for(|&next| next >= index).await;
        CreateTurn {
            turn,
            index,
            passed: false,
        }
    }

    fn pass(&mut self) {
        if !self.passed {
            self.passed = true;
            let next = self.index + 1;
            self.turn.send_modify(|n| *n = (*n).max(next));
        }
    }
}

impl Drop for CreateTurn<'_> {
    fn drop(&mut self) {
        self.pass();
    }
}

/// Where a program's output goes: beside the replays, one file per game
/// and entrant.
fn log_path(config: &SeriesConfig, index: u32, entrant: usize) -> Option<std::path::PathBuf> {
    config
        .replays
        .as_ref()
        .map(|dir| dir.join(format!("game-{:04}-{}.log", index + 1, entrant)))
}

/// How a program ended, with its log's path and last lines (its
/// traceback, say) when it has one.
fn crash_text(config: &SeriesConfig, index: u32, entrant: usize, status: &str) -> String {
    let Some(path) = log_path(config, index, entrant) else {
        return status.to_owned();
    };
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let tail = lines[lines.len().saturating_sub(12)..].join("\n");
    let message = format!(
        "{status}; its output is in {}{}",
        path.display(),
        if tail.is_empty() {
            String::new()
        } else {
            format!(", ending:\n{tail}")
        }
    );
    eprintln!(
        "arena: game {}: {} {message}",
        index + 1,
        config.entrants[entrant].name
    );
    message
}

/// The arena's own connection: the room's host, watching.
struct Host {
    socket: Socket,
}

impl Host {
    async fn connect(url: &str) -> Result<Host, String> {
        let (socket, _) = tokio_tungstenite::connect_async(url)
            .await
            .map_err(|e| format!("cannot connect to the embedded server: {e}"))?;
        let mut host = Host { socket };
        host.send(json!({"type": "hello", "name": "arena", "verbose": true}))
            .await?;
        host.until(|m| m["type"] == "welcome", Duration::from_secs(10))
            .await?;
        Ok(host)
    }

    async fn send(&mut self, message: Value) -> Result<(), String> {
        self.socket
            .send(Message::text(message.to_string()))
            .await
            .map_err(|e| format!("the arena's connection failed: {e}"))
    }

    /// The next message, or `None` when `deadline` passed.
    async fn next(&mut self, deadline: Instant) -> Result<Option<Value>, String> {
        loop {
            let frame = match tokio::time::timeout_at(deadline, self.socket.next()).await {
                Err(_) => return Ok(None),
                Ok(None) => return Err("the embedded server closed the connection".into()),
                Ok(Some(Err(e))) => return Err(format!("the arena's connection failed: {e}")),
                Ok(Some(Ok(frame))) => frame,
            };
            if let Message::Text(text) = frame {
                let value: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
                if value["type"] == "error" {
                    return Err(format!("the server refused the arena: {value}"));
                }
                return Ok(Some(value));
            }
        }
    }

    /// Reads messages until one matches, within `limit`.
    async fn until(
        &mut self,
        mut pred: impl FnMut(&Value) -> bool,
        limit: Duration,
    ) -> Result<Value, String> {
        let deadline = Instant::now() + limit;
        while let Some(message) = self.next(deadline).await? {
            if pred(&message) {
                return Ok(message);
            }
        }
        Err("the embedded server did not answer in time".into())
    }
}

fn seat_taken(room: &Value, seat: usize) -> bool {
    room["type"] == "room" && room["seats"][seat].is_object()
}

async fn play_game(
    server: &Server,
    config: &SeriesConfig,
    index: u32,
    turn: &tokio::sync::watch::Sender<u32>,
) -> Result<GameRecord, ArenaError> {
    let seats = seating(config.entrants.len(), index);
    let mut record = GameRecord {
        index,
        seats: seats.clone(),
        winners: Vec::new(),
        points: vec![0; seats.len()],
        moves: 0,
        troubles: Vec::new(),
        replay: None,
        deal: None,
        move_us: vec![Vec::new(); seats.len()],
        end: None,
        refusals: Vec::new(),
    };
    let mut programs: Vec<Program> = Vec::new();
    let mut watched = Watched::default();
    let outcome = run_game(
        server,
        config,
        (&seats, CreateTurn::take(turn, index).await),
        &mut programs,
        (&mut record, &mut watched),
    )
    .await;
    // Every move the server refused in this room, by seat (issue 51).
    if let Some(code) = &watched.room {
        record.refusals = crate::refusals::take(code);
        for (seat, &e) in seats.iter().enumerate() {
            let n = record
                .refusals
                .iter()
                .filter(|r| usize::from(r.seat) == seat)
                .count() as u32;
            if n > 0 {
                record.troubles.push((e, Trouble::Refused(n)));
            }
        }
    }
    // Programs get a moment to end by themselves, then are stopped; a
    // program that failed before the end is recorded.
    for mut program in programs {
        let entrant = program.entrant;
        if let Ok(Ok(status)) = timeout(EXIT_TIME, program.child.wait()).await
            && !status.success()
        {
            let text = crash_text(config, index, entrant, &status.to_string());
            record.troubles.push((entrant, Trouble::Crashed(text)));
        }
        // Whatever the program left running goes with it.
        program.kill_group();
        let _ = program.child.kill().await;
    }
    let game = match outcome {
        Ok(game) => game,
        Err(why) => {
            eprintln!("arena: game {} could not be played: {why}", index + 1);
            return Ok(record);
        }
    };
    // The replay: the proof of the game, and who the stand-in played for.
    if let Some(game) = game {
        match server.get(&format!("/api/games/{game}/replay")).await {
            Ok((200, body)) => {
                if let Ok(replay) = Replay::from_json(&body) {
                    for (seat, &e) in seats.iter().enumerate() {
                        let n = replay
                            .actions
                            .iter()
                            .filter(|a| usize::from(a.seat) == seat && a.by == Some(By::StandIn))
                            .count() as u32;
                        if n > 0 {
                            record.troubles.push((e, Trouble::StandInMoves(n)));
                        }
                    }
                    record.moves = replay.actions.len() as u32;
                    record.deal = Some(replay.seed.0);
                    // Time per move, in microseconds as the arena saw the
                    // moves arrive (issue 51: whole milliseconds before):
                    // from the action before (or the start) to this one,
                    // for the seat's own moves (not the stand-in's).
                    for (a, &us) in replay.actions.iter().zip(&watched.move_us) {
                        if a.by != Some(By::StandIn)
                            && let Some(times) = record.move_us.get_mut(usize::from(a.seat))
                        {
                            times.push(us);
                        }
                    }
                }
                if let Some(dir) = &config.replays {
                    record.replay = Some(write_replay(dir, index, &body)?);
                }
            }
            Ok((status, body)) => eprintln!("arena: replay of {game}: HTTP {status} {body}"),
            Err(e) => eprintln!("arena: replay of {game}: {e}"),
        }
    }
    Ok(record)
}

/// What the arena's own connection saw of a game: its room, and when each
/// action arrived after the one before (or the start), in microseconds.
#[derive(Default)]
struct Watched {
    room: Option<String>,
    move_us: Vec<u64>,
}

async fn run_game(
    server: &Server,
    config: &SeriesConfig,
    (seats, mut turn): (&[usize], CreateTurn<'_>),
    programs: &mut Vec<Program>,
    (record, watched): (&mut GameRecord, &mut Watched),
) -> Result<Option<String>, String> {
    let mut host = Host::connect(&server.ws_url()).await?;
    let limit = config.move_limit.as_secs().max(1);
    host.send(json!({
        "type": "create", "seats": seats.len(), "as": "spectator",
        "clock": {"initial_s": limit, "increment_s": limit},
        "stand_in_when_away": true,
    }))
    .await?;
    let room = host
        .until(|m| m["type"] == "room", Duration::from_secs(10))
        .await?;
    // The next game may make its room now.
    turn.pass();
    let code = room["code"].as_str().unwrap_or_default().to_owned();
    watched.room = Some(code.clone());
    for (seat, &e) in seats.iter().enumerate() {
        let entrant = &config.entrants[e];
        match &entrant.kind {
            EntrantKind::BuiltIn(level) => {
                host.send(json!({"type": "add_bot", "level": level.name()}))
                    .await?;
                host.until(|m| seat_taken(m, seat), Duration::from_secs(10))
                    .await?;
            }
            EntrantKind::Program(command) => {
                // What a program prints goes to a log beside the replays.
                let (out, err) = match log_path(config, record.index, e) {
                    Some(path) => {
                        let file = std::fs::File::create(&path)
                            .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
                        let copy = file.try_clone().map_err(|err| err.to_string())?;
                        (Stdio::from(file), Stdio::from(copy))
                    }
                    None => (Stdio::null(), Stdio::null()),
                };
                let mut command_line = Command::new("sh");
                // SAFETY: prctl is async-signal-safe. The shell (and the
                // program it execs) gets SIGKILL if the arena dies without
                // a chance to end its groups (kill -9).
                unsafe {
                    command_line.pre_exec(|| {
                        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                        Ok(())
                    });
                }
                let child = command_line
                    .arg("-c")
                    .arg(command)
                    .env(crate::ENV_URL, server.ws_url())
                    .env(crate::ENV_ROOM, &code)
                    .env(crate::ENV_NAME, &entrant.name)
                    .stdin(Stdio::null())
                    .stdout(out)
                    .stderr(err)
                    .process_group(0)
                    .kill_on_drop(true)
                    .spawn()
                    .map_err(|e| format!("cannot start {command:?}: {e}"))?;
                let mut program = Program { entrant: e, child };
                // Seated, or ended before that (a crash), or out of time.
                let seated = tokio::select! {
                    seated = host.until(|m| seat_taken(m, seat), JOIN_TIME) => seated.is_ok(),
                    status = program.child.wait() => {
                        let status = status.map_or_else(|e| e.to_string(), |s| s.to_string());
                        let text = crash_text(config, record.index, e, &status);
                        record.troubles.push((e, Trouble::Crashed(text)));
                        return Err(format!("{} ended before taking its seat ({status})", entrant.name));
                    }
                };
                programs.push(program);
                if !seated {
                    record.troubles.push((e, Trouble::DidNotJoin));
                    return Err(format!(
                        "{} did not take its seat within {} s",
                        entrant.name,
                        JOIN_TIME.as_secs()
                    ));
                }
            }
        }
    }
    host.send(json!({"type": "start", "seat_order": "joined"}))
        .await?;
    // Each move gets the limit (and the grace of the stand-in); a game
    // past MAX_ACTIONS is abandoned. Each action's events are timed as
    // they arrive.
    let per_move = Duration::from_secs(limit * 2 + 10);
    let mut before = std::time::Instant::now();
    let result = host
        .until(
            |m| {
                if m["type"] == "events" {
                    let now = std::time::Instant::now();
                    watched
                        .move_us
                        .push(now.duration_since(before).as_micros() as u64);
                    before = now;
                }
                m["type"] == "result" || m["version"].as_u64().is_some_and(|v| v >= MAX_ACTIONS)
            },
            per_move * 600,
        )
        .await?;
    if result["type"] != "result" {
        return Err(format!(
            "the game was abandoned after {MAX_ACTIONS} actions"
        ));
    }
    record.end = serde_json::from_value(result["end"].clone()).ok();
    record.winners = result["winners"]
        .as_array()
        .map(|w| {
            w.iter()
                .filter_map(|s| s.as_u64())
                .map(|s| s as u8)
                .collect()
        })
        .unwrap_or_default();
    for standing in result["ranking"].as_array().into_iter().flatten() {
        if let (Some(seat), Some(points)) = (standing["seat"].as_u64(), standing["points"].as_u64())
            && let Some(slot) = record.points.get_mut(seat as usize)
        {
            *slot = points as u8;
        }
    }
    let _ = host.send(json!({"type": "leave"})).await;
    Ok(result["game"].as_str().map(str::to_owned))
}
