//! `splendor-loadgen`: drives a running Splendor server with rooms of real
//! WebSocket clients, from a process of its own, and reports what it
//! measured. Loopback only: the server must listen on this machine.
//!
//! Two modes:
//! - `play` (default): N rooms of S seats; in each room the seat to act
//!   sends a legal action (a purchase when it can, so games end), either at
//!   once (closed loop) or paced to a total offered rate; a finished game is
//!   followed by a new room. After a warm-up, a measured window reports
//!   actions/s, the latency from `act` to the actor's resulting `state`
//!   (p50/p90/p99/max), errors, bytes received per action, and the server's
//!   CPU seconds and RSS (from /proc, given its pid).
//! - `idle`: opens N connections seated in running games (rooms of S seats,
//!   started, nobody acting), holds them, and reports the server's RSS per
//!   connection.
//!
//! Every run is bounded in time. The server must allow the load: start it
//! with the limits lifted (docs/BENCHMARKS.md gives the command).

mod proc;
mod table;

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::{Parser, ValueEnum};

use crate::proc::ProcSample;
use crate::table::{Counters, Pace, Plan};

/// What to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Mode {
    /// Rooms that play.
    Play,
    /// Connections seated in running games that do nothing.
    Idle,
}

/// The command line.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Args {
    /// The server's WebSocket URL (loopback only).
    #[arg(long, default_value = "ws://127.0.0.1:8080/ws")]
    url: String,
    /// Play, or hold idle connections.
    #[arg(long, value_enum, default_value_t = Mode::Play)]
    mode: Mode,
    /// Rooms at once (play), or connections to hold (idle).
    #[arg(long, default_value_t = 250)]
    rooms: usize,
    /// Seats per room, 2 to 4.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(2..=4))]
    seats: u8,
    /// Total actions per second to offer, spread over the rooms; 0 is a
    /// closed loop (each room acts as soon as it has its state).
    #[arg(long, default_value_t = 0)]
    rate: u64,
    /// Seconds of warm-up before measuring.
    #[arg(long, default_value_t = 5)]
    warmup: u64,
    /// Seconds measured.
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// The server's process id, to report its CPU time and memory.
    #[arg(long)]
    pid: Option<u32>,
    /// Another node of the same cluster (loopback only): the last
    /// `--remote-seats` seats of every room connect through it, so their
    /// messages are forwarded to the room's node (where seat 0 created it)
    /// and their latencies are reported apart.
    #[arg(long)]
    remote_url: Option<String>,
    /// How many of each room's seats connect through `--remote-url`.
    #[arg(long, default_value_t = 1)]
    remote_seats: u8,
    /// Follow each room to its node (issue 44): a seat whose `room` names
    /// another node than its `welcome` reconnects through this URL (the
    /// load balancer, loopback only) with `?node=N` and resumes there.
    #[arg(long)]
    follow: Option<String>,
    /// Connections opened at once while setting up.
    #[arg(long, default_value_t = 64)]
    connect_parallelism: usize,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    check_loopback(&args.url)?;
    if let Some(url) = &args.remote_url {
        check_loopback(url)?;
        if args.remote_seats == 0 || args.remote_seats >= args.seats {
            bail!(
                "--remote-seats must leave seat 0 on --url and put at least one seat on --remote-url"
            );
        }
    }
    if let Some(url) = &args.follow {
        check_loopback(url)?;
    }
    if args.warmup + args.seconds > 3600 {
        bail!("a run is bounded: warm-up and window together at most an hour");
    }
    match args.mode {
        Mode::Play => play(&args).await,
        Mode::Idle => idle(&args).await,
    }
}

/// Refuses any server that is not on this machine.
fn check_loopback(url: &str) -> anyhow::Result<()> {
    let rest = url
        .strip_prefix("ws://")
        .context("the URL must start with ws://")?;
    let host = rest.split('/').next().unwrap_or_default();
    let host = match host.rsplit_once(':') {
        Some((h, _)) => h,
        None => host,
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let loopback = host == "localhost" || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback());
    if !loopback {
        bail!("{host} is not a loopback address: the load generator drives local servers only");
    }
    Ok(())
}

async fn play(args: &Args) -> anyhow::Result<()> {
    let counters = Arc::new(Counters::default());
    let pace = match args.rate {
        0 => Pace::ClosedLoop,
        rate => Pace::Every(Duration::from_secs_f64(args.rooms as f64 / rate as f64)),
    };
    let start = Instant::now();
    let stop_at = start + Duration::from_secs(args.warmup + args.seconds) + Duration::from_secs(60);
    let plan = Plan {
        url: args.url.clone(),
        remote: args.remote_url.clone().map(|url| (url, args.remote_seats)),
        follow: args.follow.clone(),
        seats: args.seats,
        pace,
        stop_at,
    };
    let mut tasks = tokio::task::JoinSet::new();
    let gate = Arc::new(tokio::sync::Semaphore::new(args.connect_parallelism.max(1)));
    for room in 0..args.rooms {
        let (plan, counters, gate) = (plan.clone(), counters.clone(), gate.clone());
        tasks.spawn(async move { table::run(room, plan, counters, gate).await });
    }
    let ready_by = start + Duration::from_secs(args.warmup);
    tokio::time::sleep_until(ready_by.into()).await;
    let before = counters.snapshot();
    // Only the window's latencies count.
    counters.take_latencies();
    let proc_before = args.pid.map(ProcSample::read).transpose()?;
    let window_start = Instant::now();
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    let elapsed = window_start.elapsed().as_secs_f64();
    let after = counters.snapshot();
    let proc_after = args.pid.map(ProcSample::read).transpose()?;
    counters.stop.store(true, Ordering::Relaxed);
    let (latencies, remote_latencies) = counters.take_latencies();
    let actions = after.actions - before.actions;
    println!(
        "splendor-loadgen play: {} rooms x {} seats, {}, {:.1} s measured after {} s warm-up",
        args.rooms,
        args.seats,
        match args.rate {
            0 => "closed loop".to_owned(),
            r => format!("{r} actions/s offered"),
        },
        elapsed,
        args.warmup
    );
    println!(
        "actions:      {actions} ({:.0}/s)",
        actions as f64 / elapsed
    );
    println!(
        "games:        {} finished in the window",
        after.games - before.games
    );
    println!(
        "errors:       {} error messages, {} connections lost",
        after.errors - before.errors,
        after.lost - before.lost
    );
    if args.follow.is_some() {
        println!(
            "followed:     {} seats reconnected to their room's node, {} landed on it",
            after.follows, after.followed_home
        );
    }
    if args.remote_url.is_some() {
        println!(
            "latency:      local seats {}",
            table::percentiles(latencies)
        );
        println!(
            "latency:      seats that started on --remote-url {}",
            table::percentiles(remote_latencies)
        );
    } else {
        println!("latency:      {}", table::percentiles(latencies));
    }
    if actions > 0 {
        println!(
            "received:     {:.0} bytes per action (all frames to all seats), {:.1} frames per action",
            (after.bytes - before.bytes) as f64 / actions as f64,
            (after.frames - before.frames) as f64 / actions as f64
        );
    }
    let mid_actions = after.mid_actions - before.mid_actions;
    if mid_actions > 0 {
        println!(
            "mid-game:     {:.0} bytes per action (events and states of versions 10 to 49, all seats)",
            (after.mid_bytes - before.mid_bytes) as f64 / mid_actions as f64
        );
    }
    if let (Some(a), Some(b)) = (proc_before, proc_after) {
        let cpu = b.cpu_seconds - a.cpu_seconds;
        println!(
            "server:       {cpu:.2} CPU-s ({:.0}% of one core), {:.0} actions per CPU-second, RSS {:.1} MiB",
            100.0 * cpu / elapsed,
            if cpu > 0.0 { actions as f64 / cpu } else { 0.0 },
            b.rss_bytes as f64 / (1024.0 * 1024.0)
        );
        if actions > 0 {
            let per_action = |x: u64, y: u64| y.saturating_sub(x) as f64 / actions as f64;
            println!(
                "switches:     {:.2} voluntary (wake-ups) and {:.2} involuntary context switches of the server's threads per action",
                per_action(a.voluntary_switches, b.voluntary_switches),
                per_action(a.involuntary_switches, b.involuntary_switches),
            );
        }
    }
    tasks.abort_all();
    Ok(())
}

async fn idle(args: &Args) -> anyhow::Result<()> {
    let pid = args
        .pid
        .context("idle mode measures the server's memory: give --pid")?;
    let seats = usize::from(args.seats);
    let rooms = args.rooms.div_ceil(seats);
    let before = ProcSample::read(pid)?;
    let start = Instant::now();
    let gate = Arc::new(tokio::sync::Semaphore::new(args.connect_parallelism.max(1)));
    let mut setups = tokio::task::JoinSet::new();
    for room in 0..rooms {
        let (url, gate) = (args.url.clone(), gate.clone());
        let seats = args.seats;
        setups.spawn(async move { table::seated_idle(room, &url, seats, gate).await });
    }
    let mut held = Vec::new();
    let mut failed = 0;
    while let Some(done) = setups.join_next().await {
        match done {
            Ok(Ok(clients)) => held.push(clients),
            _ => failed += 1,
        }
    }
    let connections: usize = held.iter().map(Vec::len).sum();
    // Let the server settle (queues drained, buffers shrunk) before reading.
    tokio::time::sleep(Duration::from_secs(args.warmup)).await;
    let after = ProcSample::read(pid)?;
    let grown = after.rss_bytes.saturating_sub(before.rss_bytes);
    println!(
        "splendor-loadgen idle: {connections} connections seated in {} running games ({failed} rooms failed), set up in {:.1} s",
        held.len(),
        start.elapsed().as_secs_f64()
    );
    println!(
        "server RSS:   {:.1} MiB before, {:.1} MiB after: {:.1} KiB per connection",
        before.rss_bytes as f64 / (1024.0 * 1024.0),
        after.rss_bytes as f64 / (1024.0 * 1024.0),
        grown as f64 / 1024.0 / connections.max(1) as f64
    );
    // Hold them for the window, then close: bounded like every run.
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    let later = ProcSample::read(pid)?;
    println!(
        "server RSS:   {:.1} MiB after holding them {} s more",
        later.rss_bytes as f64 / (1024.0 * 1024.0),
        args.seconds
    );
    drop(held);
    Ok(())
}
