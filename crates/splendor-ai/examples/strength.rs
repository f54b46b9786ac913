//! Strength of the built-in players: seeded 2-player games between two
//! levels, sides swapped on every seed, scored 1 for a win and 1/2 for a
//! shared victory (R10.4). Prints the score of the first level with its 95%
//! confidence interval, the Elo difference, and the time per move.
//!
//! ```text
//! cargo run --release -p splendor-ai --example strength -- \
//!     --a strong --b greedy --games 400 --threads 2
//! ```
//!
//! Options: `--a PLAYER --b PLAYER` (a level's number or name, or
//! `search:N` or `guided:N` for a search of N iterations a move), `--games
//! N` (rounded up to even), `--seed S` (the series' first seed),
//! `--iterations K` (a cap on every search), `--threads T`. The time cap
//! is off: a series replays exactly.

use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use splendor_ai::{Budget, Level, Play, think_as};
use splendor_rules::{Game, Options, Viewer};

/// A player of the series: how it plays, and its name in the table.
#[derive(Clone, Copy)]
struct Player {
    play: Play,
    name: &'static str,
}

impl std::fmt::Display for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

fn player(spec: &str) -> Result<Player, String> {
    let name: &'static str = Box::leak(spec.to_owned().into_boxed_str());
    let play = match spec.split_once(':') {
        Some((way, n)) => {
            let iterations: u32 = n.parse().map_err(|e| format!("{spec}: {e}"))?;
            match way {
                "search" => Play::Search { iterations },
                "guided" => Play::Guided { iterations },
                _ => return Err(format!("{spec}: search:N or guided:N")),
            }
        }
        None => Level::from_str(spec).map_err(|e| e.to_string())?.play(),
    };
    Ok(Player { play, name })
}

struct Args {
    a: Player,
    b: Player,
    games: u64,
    seed: u64,
    iterations: u32,
    threads: usize,
}

fn parse() -> Result<Args, String> {
    let mut args = Args {
        a: player("strong")?,
        b: player("greedy")?,
        games: 100,
        seed: 1,
        iterations: Budget::DEFAULT.iterations,
        threads: 2,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let num = |v: &str| v.parse::<u64>().map_err(|e| format!("{flag} {v}: {e}"));
        match flag.as_str() {
            "--a" => args.a = player(&value)?,
            "--b" => args.b = player(&value)?,
            "--games" => args.games = num(&value)?.div_ceil(2) * 2,
            "--seed" => args.seed = num(&value)?,
            "--iterations" => args.iterations = num(&value)? as u32,
            "--threads" => args.threads = num(&value)?.max(1) as usize,
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(args)
}

/// One game: `levels[s]` plays seat `s`. Returns seat 0's score and the
/// time each seat spent per move.
fn play(seed: u64, levels: [Player; 2], budget: &Budget) -> (f64, [Vec<Duration>; 2], u32) {
    let mut game = Game::new(2, Options::default(), seed).expect("two players");
    let mut times: [Vec<Duration>; 2] = Default::default();
    let mut moves = 0u64;
    while let Some(seat) = game.to_act() {
        let view = game.view(Viewer::Seat(seat));
        let move_seed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ moves;
        let start = Instant::now();
        let action = think_as(levels[seat as usize].play, &view, seat, move_seed, budget)
            .expect("the seat to act can move")
            .action;
        times[seat as usize].push(start.elapsed());
        game.apply(seat, action)
            .expect("players only play legal actions");
        moves += 1;
        if moves > 3000 {
            return (0.5, times, game.turn());
        }
    }
    let result = game.result().expect("over");
    let score = if result.winners.contains(&0) {
        1.0 / result.winners.len() as f64
    } else {
        0.0
    };
    (score, times, game.turn())
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let args = match parse() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("strength: {e}");
            std::process::exit(2);
        }
    };
    let budget = Budget {
        iterations: args.iterations,
        time_cap: None,
    };
    let next = AtomicU64::new(0);
    let scores = Mutex::new(Vec::new());
    let times: Mutex<[Vec<Duration>; 2]> = Mutex::new(Default::default());
    let turns = AtomicU64::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..args.threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= args.games {
                        break;
                    }
                    let seed = args.seed + i / 2;
                    // Sides swapped on every seed: A plays seat 0, then seat 1.
                    let a_seat = (i % 2) as usize;
                    let mut levels = [args.b; 2];
                    levels[a_seat] = args.a;
                    let (seat0, t, turn) = play(seed, levels, &budget);
                    let a_score = if a_seat == 0 { seat0 } else { 1.0 - seat0 };
                    turns.fetch_add(u64::from(turn), Ordering::Relaxed);
                    let mut all = times.lock().unwrap();
                    all[0].extend(&t[a_seat]);
                    all[1].extend(&t[1 - a_seat]);
                    drop(all);
                    let mut s = scores.lock().unwrap();
                    s.push(a_score);
                    let done = s.len();
                    if done % 20 == 0 {
                        let mean = s.iter().sum::<f64>() / done as f64;
                        eprintln!("{done}/{} games, {} scores {mean:.3}", args.games, args.a);
                    }
                }
            });
        }
    });
    let scores = scores.into_inner().unwrap();
    let n = scores.len() as f64;
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.96 * (var / n).sqrt();
    let elo = |p: f64| -400.0 * (1.0 / p.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10();
    println!(
        "{} vs {}: {} games (seeds {}..{}, sides swapped), {} iterations",
        args.a,
        args.b,
        scores.len(),
        args.seed,
        args.seed + args.games / 2,
        args.iterations
    );
    println!(
        "score of {}: {:.3} (95% CI {:.3} to {:.3}); Elo difference {:+.0} ({:+.0} to {:+.0})",
        args.a,
        mean,
        mean - half,
        (mean + half).min(1.0),
        elo(mean),
        elo(mean - half),
        elo(mean + half)
    );
    let mut times = times.into_inner().unwrap();
    for (k, level) in [args.a, args.b].iter().enumerate() {
        times[k].sort();
        println!(
            "{level}: {} moves, median {:.1} ms, p99 {:.1} ms per move",
            times[k].len(),
            percentile(&times[k], 0.5).as_secs_f64() * 1e3,
            percentile(&times[k], 0.99).as_secs_f64() * 1e3
        );
    }
    println!(
        "mean game length {:.1} turns; {:.0} s wall on {} threads",
        turns.load(Ordering::Relaxed) as f64 / n,
        started.elapsed().as_secs_f64(),
        args.threads
    );
}
