//! The `splendor-server` command line: configuration, logging, signals,
//! and the `healthcheck` and `verify` commands; the server itself is
//! [`AppState::open`](crate::AppState::open) and [`serve`](crate::serve).
//! `main.rs` only calls [`main`], so that the end-to-end tests can build
//! the very same binary under another name.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::{Parser, Subcommand};
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;

use crate::config::parse_positive_duration;
use crate::{AppState, Config, LogFormat};

/// The command line: the server's settings, and what to do.
#[derive(Debug, Parser)]
#[command(
    name = "splendor-server",
    version,
    about = "An authoritative Splendor game server",
    long_about = "An authoritative Splendor game server.\n\n\
        Without a command it serves. Every setting can be given as a flag or as \
        the environment variable shown with it; a flag wins. Durations are \
        written like 250ms, 30s, 10m, 2h or 30d. docs/HOSTING.md explains each setting."
)]
struct Cli {
    #[command(flatten)]
    config: Config,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve (the default).
    Serve,
    /// Ask the server listening on --listen (SPLENDOR_LISTEN) for /healthz;
    /// exit 0 if it answers 200, 1 otherwise. For container health checks.
    Healthcheck {
        /// How long to wait for the answer.
        #[arg(long, default_value = "3s", value_parser = parse_positive_duration)]
        timeout: Duration,
    },
    /// Copy the database (SQLite) to a new file while the server runs: a
    /// consistent copy as of one moment (SQLite's VACUUM INTO). Start a
    /// server on the copy to restore it. For PostgreSQL use pg_dump.
    /// Exit 0 when the copy is written, 1 otherwise.
    Backup {
        /// The file to write; it must not exist.
        #[arg(long)]
        to: PathBuf,
    },
    /// Forget a player at their request: their name becomes "a former
    /// player" wherever it is stored, their token stops working, they leave
    /// the queue; their games and replays stay (and still verify). On a
    /// running server prefer the operators' API (it also closes their
    /// connection and drops what it keeps in memory). Exit 0 when
    /// forgotten, 1 otherwise.
    ForgetPlayer {
        /// The session, as `welcome` names it (32 hexadecimal digits).
        session: String,
        /// Why, for the audit log.
        #[arg(long, default_value = "the player asked to be forgotten")]
        reason: String,
    },
    /// Check a finished game's replay (from GET /api/games/ID/replay)
    /// without any server: the commitment, the deal, every action and the
    /// result. Exit 0 when it verifies, 1 when a check fails, 2 when the
    /// file cannot be read. docs/REPLAYS.md explains it.
    Verify {
        /// The replay JSON file; - reads standard input.
        file: PathBuf,
        /// The commitment you received when the game started (the `commitment`
        /// of its `state` messages): the replay must be that game's.
        #[arg(long)]
        commitment: Option<String>,
    },
    /// Analyse a finished game from its replay file (GET
    /// /api/games/ID/replay, or an arena's) without any server: every move
    /// judged by the strong search from what its player could see, as the
    /// replay page's analysis. Writes the analysis JSON (docs/REPLAYS.md)
    /// to --out or standard output, and a summary with the time it took
    /// to standard error. Exit 0 when done, 1 when the replay does not
    /// verify, 2 when the file cannot be read.
    Analyse {
        /// The replay JSON file; - reads standard input.
        file: PathBuf,
        /// Search iterations per position.
        #[arg(long, default_value_t = splendor_analysis::Settings::DEFAULT.iterations, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        iterations: u32,
        /// Where the analysis goes (standard output by default).
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

/// The binary's entry point.
pub fn main() -> ExitCode {
    main_with(|_| {})
}

/// [`main`], with the parsed configuration changed by `adjust` before it is
/// used: for the end-to-end tests' copy of the binary, which sets what no
/// flag of the public server may (a fixed room seed for a reproducible
/// deal).
pub fn main_with(adjust: impl FnOnce(&mut Config)) -> ExitCode {
    let mut cli = Cli::parse();
    adjust(&mut cli.config);
    if let Some(Command::Verify { file, commitment }) = &cli.command {
        return verify(file, commitment.as_deref());
    }
    if let Some(Command::Analyse {
        file,
        iterations,
        out,
    }) = &cli.command
    {
        return analyse(file, *iterations, out.as_deref());
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("splendor-server: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match cli.command.unwrap_or(Command::Serve) {
        // Answered above, without a runtime.
        Command::Verify { .. } | Command::Analyse { .. } => ExitCode::SUCCESS,
        Command::Healthcheck { timeout } => {
            let probed =
                runtime.block_on(crate::probe::check(cli.config.listen, "/healthz", timeout));
            match probed {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("splendor-server healthcheck: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Backup { to } => match runtime.block_on(backup(&cli.config, &to)) {
            Ok(()) => {
                println!("splendor-server backup: written to {}", to.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("splendor-server backup: {e:#}");
                ExitCode::FAILURE
            }
        },
        Command::ForgetPlayer { session, reason } => {
            match runtime.block_on(forget_player(&cli.config, &session, &reason)) {
                Ok(()) => {
                    println!("splendor-server forget-player: {session} forgotten");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("splendor-server forget-player: {e:#}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Serve => match runtime.block_on(serve(cli.config)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                // Logging may not be set up yet: say it on stderr as well.
                tracing::error!("{e:#}");
                eprintln!("splendor-server: {e:#}");
                ExitCode::FAILURE
            }
        },
    }
}

/// `splendor-server backup --to FILE`: the configured database, copied.
async fn backup(config: &Config, to: &std::path::Path) -> anyhow::Result<()> {
    let url = config.database_url();
    let store = splendor_store::Store::open(url.expose())
        .await
        .with_context(|| format!("cannot open {url}"))?;
    let copied = store.backup_to(to).await;
    store.close().await;
    copied.with_context(|| format!("copying {url}"))
}

/// `splendor-server forget-player SESSION`.
async fn forget_player(config: &Config, session: &str, reason: &str) -> anyhow::Result<()> {
    let id = uuid::Uuid::try_parse(session.trim())
        .map_err(|_| anyhow::anyhow!("{session:?} is not a session id (32 hexadecimal digits)"))?;
    let url = config.database_url();
    let store = splendor_store::Store::open(url.expose())
        .await
        .with_context(|| format!("cannot open {url}"))?;
    let forgotten = store
        .forget_session(splendor_store::SessionId(id), "command line", reason)
        .await;
    store.close().await;
    if !forgotten.with_context(|| format!("forgetting {session}"))? {
        anyhow::bail!("no session {session} in {url}");
    }
    Ok(())
}

async fn serve(config: Config) -> anyhow::Result<()> {
    config.check().map_err(anyhow::Error::msg)?;
    init_logging(&config)?;
    if let Some(clock) = config.turn_clock {
        tracing::info!(%clock, "rooms created without a clock get this one (R12)");
    }
    // The database first: games are restored before anyone can connect.
    let listen = config.listen;
    let config_format = config.log_format;
    let state = AppState::open(config).await?;
    let listener = TcpListener::bind(listen)
        .await
        .with_context(|| format!("cannot listen on {listen}"))?;
    let addr = listener.local_addr()?;
    tracing::info!(
        %addr,
        version = env!("CARGO_PKG_VERSION"),
        "listening"
    );
    // Scripts and tests read the bound address (with --listen HOST:0) from
    // standard output: a plain line with pretty logs; with JSON logs, the
    // event above (`"message":"listening"`, `"addr"`), so that every line
    // of a JSON log stays JSON for the collectors that parse it.
    if config_format == LogFormat::Pretty {
        println!("splendor-server listening on {addr}");
    }
    crate::serve(listener, state, shutdown_signal()).await?;
    Ok(())
}

/// `splendor-server verify`: prints the checks on standard output, or the
/// failure on standard error.
fn verify(file: &std::path::Path, commitment: Option<&str>) -> ExitCode {
    match crate::verify::verify_file(file, commitment) {
        Ok(report) => {
            print!("{report}");
            println!("verified: this replay is a legal game dealt from the committed seed");
            ExitCode::SUCCESS
        }
        Err(failure) => {
            eprintln!("splendor-server verify: {failure}");
            ExitCode::from(failure.exit_code())
        }
    }
}

/// `splendor-server analyse`: the analysis JSON on standard output (or in
/// `out`), a summary on standard error.
fn analyse(file: &std::path::Path, iterations: u32, out: Option<&std::path::Path>) -> ExitCode {
    let settings = splendor_analysis::Settings { iterations };
    let (analysis, took) = match crate::verify::analyse_file(file, &settings) {
        Ok(done) => done,
        Err(failure) => {
            eprintln!("splendor-server analyse: {failure}");
            return ExitCode::from(failure.exit_code());
        }
    };
    let json = match serde_json::to_string_pretty(&analysis) {
        Ok(json) => json,
        Err(e) => {
            eprintln!("splendor-server analyse: {e}");
            return ExitCode::FAILURE;
        }
    };
    let written = match out {
        Some(path) => std::fs::write(path, json + "\n"),
        None => std::io::Write::write_all(&mut std::io::stdout(), (json + "\n").as_bytes()),
    };
    if let Err(e) = written {
        eprintln!("splendor-server analyse: cannot write the analysis: {e}");
        return ExitCode::FAILURE;
    }
    let figures: Vec<String> = analysis
        .figures
        .iter()
        .map(|f| {
            format!(
                "seat {}: accuracy {}, {} inaccuracies, {} mistakes, {} blunders",
                f.seat,
                f.accuracy.map_or("-".into(), |a| format!("{a}%")),
                f.inaccuracies,
                f.mistakes,
                f.blunders
            )
        })
        .collect();
    eprintln!(
        "analysed {} positions ({} players, {} iterations each) in {:.2} s on one core\n{}",
        analysis.moves.len(),
        analysis.players,
        iterations,
        took.as_secs_f64(),
        figures.join("\n")
    );
    ExitCode::SUCCESS
}

fn init_logging(config: &Config) -> anyhow::Result<()> {
    let filter = EnvFilter::try_new(&config.log)
        .with_context(|| format!("--log {:?} is not a log filter", config.log))?;
    // Colours only for a person at a terminal: a log file or a pipe gets
    // plain text (and NO_COLOR turns them off everywhere).
    let colour = std::io::IsTerminal::is_terminal(&std::io::stdout())
        && std::env::var_os("NO_COLOR").is_none();
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(colour);
    let installed = match config.log_format {
        LogFormat::Pretty => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
    installed.map_err(|e| anyhow::anyhow!("cannot set up logging: {e}"))
}

/// Resolves on Ctrl-C or, on Unix, SIGTERM (what `docker stop` sends).
async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::warn!(error = %e, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
}
