//! `splendor-arena`: plays a series between bots and prints the table.
//!
//! ```text
//! splendor-arena greedy random --games 100 --seed 7
//! splendor-arena greedy --bot "mine=python3 my_bot.py" --games 20
//! ```

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use splendor_ai::Budget;
use splendor_arena::{Entrant, SeriesConfig, run_series};

/// Plays a seeded series of Splendor games between bots (built-in levels
/// and bot programs) and prints each one's score with its 95% confidence
/// interval and, between two, the Elo difference. Seats rotate every game.
/// Every game's replay is written to --replays (check one with
/// `splendor-server verify FILE`).
#[derive(Debug, Parser)]
#[command(name = "splendor-arena", version)]
struct Args {
    /// Built-in entrants: a level's number or name (1 to the top level,
    /// random, greedy, strong; --list-levels shows them), `LEVEL:N` for a
    /// searching level with N iterations a move of its own, `NAME=LEVEL` to
    /// name one (2 to 4 entrants in all, with --bot).
    levels: Vec<String>,
    /// A bot program, as `NAME=COMMAND` or a bare command, run with
    /// `sh -c` for each game with SPLENDOR_URL, SPLENDOR_ROOM and
    /// SPLENDOR_BOT_NAME in its environment: it joins that room as a
    /// player and plays to the end. Repeatable.
    #[arg(long = "bot", value_name = "COMMAND")]
    bots: Vec<String>,
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// The series' seed: the same seed plays the same deals, seats and
    /// built-in moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The most search iterations a move of any level (unset: each level
    /// searches its own; the levels above it then no longer play to their
    /// Elo). `--strong-iterations` is its former name.
    #[arg(long, alias = "strong-iterations", value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    max_iterations: Option<u32>,
    /// The longest a searching level's search runs per move, in
    /// milliseconds; 0 turns the cap off, so that a series is the same on
    /// any machine (a move the cap stops depends on the machine's load).
    /// `--strong-time-cap-ms` is its former name.
    #[arg(long, alias = "strong-time-cap-ms", default_value_t = 1000)]
    time_cap_ms: u64,
    /// A bot program's time per move, in seconds (the bank and increment
    /// of its clock; out of time, the stand-in moves for it).
    #[arg(long, default_value_t = 10)]
    move_limit: u64,
    /// Where the replays go.
    #[arg(long, default_value = "arena-replays")]
    replays: PathBuf,
    /// Write no replays.
    #[arg(long)]
    no_replays: bool,
    /// Mirrored deals: each deal played once per rotation of the seats
    /// (with two entrants, twice with the seats swapped).
    #[arg(long)]
    mirror: bool,
    /// Games played at once (with a program, each game starts its own
    /// program: N of them run at once); the same seed plays the same
    /// deals and seats whatever N.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    jobs: u32,
    /// Stop the series when a program crashed (or did not join) in this
    /// many games in a row; 0 never stops.
    #[arg(long, default_value_t = 3)]
    max_crashes: u32,
    /// Also write the results as JSON lines to this file (`-`: standard
    /// output): one object per game (`"type":"game"`, with its deal's
    /// seed), then one for the series (`"type":"series"`).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Analyse every game after the series (as the server's replay page
    /// does): `game-0001.analysis.json` beside each replay, and each
    /// entrant's mean accuracy, inaccuracies, mistakes and blunders.
    #[arg(long, conflicts_with = "no_replays")]
    analyse: bool,
    /// Instead of a series: the calibration of the analyses in these
    /// folders (replays and the analyses --analyse wrote beside them): a
    /// reliability table of the chances to win by tenths, the Brier score,
    /// and a baseline that sees only the score and the cards. Repeatable.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["levels", "bots"])]
    calibrate: Vec<PathBuf>,
    /// Search iterations per position of an analysis.
    #[arg(long, default_value_t = splendor_analysis::Settings::DEFAULT.iterations, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    analysis_iterations: u32,
    /// Instead of a series: the built-in levels, one a line, weakest
    /// first (number, name, Elo, how it plays).
    #[arg(long, conflicts_with_all = ["levels", "bots", "calibrate"])]
    list_levels: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if args.list_levels {
        print!("{}", splendor_arena::levels_table());
        return ExitCode::SUCCESS;
    }
    if !args.calibrate.is_empty() {
        return match splendor_arena::calibration::read_games(&args.calibrate) {
            Ok(games) => {
                print!("{}", splendor_arena::calibration::calibrate(&games).text());
                ExitCode::SUCCESS
            }
            Err(e) => fail(&e.to_string()),
        };
    }
    let mut entrants = Vec::new();
    for level in &args.levels {
        match Entrant::built_in(level) {
            Ok(e) => entrants.push(e),
            Err(why) => return fail(&why),
        }
    }
    for bot in &args.bots {
        match Entrant::program(bot) {
            Ok(e) => entrants.push(e),
            Err(why) => return fail(&why),
        }
    }
    splendor_arena::distinct_names(&mut entrants);
    let config = SeriesConfig {
        entrants,
        games: args.games,
        seed: args.seed,
        budget: Budget {
            iterations: args.max_iterations.unwrap_or(u32::MAX),
            time_cap: (args.time_cap_ms > 0).then(|| Duration::from_millis(args.time_cap_ms)),
        },
        move_limit: Duration::from_secs(args.move_limit.max(1)),
        replays: (!args.no_replays).then(|| args.replays.clone()),
        mirror: args.mirror,
        jobs: args.jobs as usize,
        max_crashes: args.max_crashes,
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => return fail(&format!("no runtime: {e}")),
    };
    let started = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let progress = |done: u32, total: u32| {
        if terminal {
            let width = 30;
            let filled = (done as usize * width) / total.max(1) as usize;
            eprint!(
                "\r[{}{}] {done}/{total} games",
                "#".repeat(filled),
                " ".repeat(width - filled)
            );
            if done == total {
                eprintln!();
            }
            let _ = std::io::stderr().flush();
        }
    };
    let with_programs = config.entrants.iter().any(Entrant::is_program);
    let outcome = runtime.block_on(async {
        if !with_programs {
            // A series of built-in levels runs on this thread: a signal
            // ends it as it would any program.
            return Some(run_series(&config, progress).await);
        }
        // Issue 51: SIGINT or SIGTERM drops the series, and with it every
        // program's process group (`hosted::Program`), before the arena
        // exits: none is left running.
        tokio::select! {
            outcome = run_series(&config, progress) => Some(outcome),
            signal = stop_signal() => {
                eprintln!("\nsplendor-arena: {signal}: the series and its programs are stopped");
                None
            }
        }
    });
    let Some(outcome) = outcome else {
        return ExitCode::from(130);
    };
    match outcome {
        Ok(report) => {
            print!("{}", report.table());
            if let Some(path) = &args.json {
                let lines = report.json_lines(&config);
                let written = if path.as_os_str() == "-" {
                    std::io::stdout().write_all(lines.as_bytes())
                } else {
                    std::fs::write(path, lines)
                };
                if let Err(e) = written {
                    return fail(&format!("cannot write {}: {e}", path.display()));
                }
            }
            let capped: u32 = report.standings.iter().map(|s| s.time_capped).sum();
            if capped > 0 {
                eprintln!(
                    "warning: the searching levels' time cap ({} ms) stopped {capped} of its searches early: \
                     those moves depend on this machine's load, so seed {} may not replay this series; \
                     --time-cap-ms 0 turns the cap off",
                    args.time_cap_ms, config.seed
                );
            }
            println!(
                "{} games, seed {}, {:.1} s{}",
                report.games.len(),
                config.seed,
                started.elapsed().as_secs_f64(),
                config
                    .replays
                    .as_ref()
                    .map_or(String::new(), |p| format!(", replays in {}", p.display()))
            );
            if args.analyse {
                let settings = splendor_analysis::Settings {
                    iterations: args.analysis_iterations,
                };
                let started = Instant::now();
                let analysing = |done: u32, total: u32| {
                    if terminal {
                        eprint!("\ranalysed {done}/{total} games");
                        if done == total {
                            eprintln!();
                        }
                    }
                };
                match splendor_arena::analyse::analyse_series(&report, &settings, analysing) {
                    Ok(figures) => {
                        println!("analysis ({} iterations a position):", settings.iterations);
                        for (standing, f) in report.standings.iter().zip(figures) {
                            println!(
                                "  {:<16} accuracy {:>6}  {} inaccuracies, {} mistakes, {} blunders in {} moves",
                                standing.name,
                                f.accuracy.map_or("-".into(), |a| format!("{a}%")),
                                f.inaccuracies,
                                f.mistakes,
                                f.blunders,
                                f.moves
                            );
                        }
                        println!(
                            "analysed in {:.1} s, each beside its replay (game-NNNN.analysis.json)",
                            started.elapsed().as_secs_f64()
                        );
                    }
                    Err(e) => return fail(&e.to_string()),
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e.to_string()),
    }
}

/// The first SIGINT or SIGTERM, by name.
async fn stop_signal() -> &'static str {
    use tokio::signal::unix::{SignalKind, signal};
    match (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    ) {
        (Ok(mut int), Ok(mut term)) => tokio::select! {
            _ = int.recv() => "interrupted (SIGINT)",
            _ = term.recv() => "terminated (SIGTERM)",
        },
        // No handler: the default action (the arena ends, and the shells
        // die with it: PR_SET_PDEATHSIG) stays.
        _ => std::future::pending().await,
    }
}

fn fail(why: &str) -> ExitCode {
    eprintln!("splendor-arena: {why}");
    ExitCode::from(2)
}
