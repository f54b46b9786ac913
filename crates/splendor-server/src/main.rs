//! The `splendor-server` binary: configuration, logging, signals; the
//! server itself is `splendor_server::run`.
#![forbid(unsafe_code)]

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::{Parser, Subcommand};
use splendor_server::config::parse_positive_duration;
use splendor_server::{Config, LogFormat};
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;

/// The command line: the server's settings, and what to do.
#[derive(Debug, Parser)]
#[command(
    name = "splendor-server",
    version,
    about = "An authoritative Splendor game server",
    long_about = "An authoritative Splendor game server.\n\n\
        Without a command it serves. Every setting can be given as a flag or as \
        the environment variable shown with it; a flag wins. Durations are \
        written like 250ms, 30s, 10m or 2h. docs/HOSTING.md explains each setting."
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("splendor-server: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match cli.command.unwrap_or(Command::Serve) {
        Command::Healthcheck { timeout } => {
            let probed = runtime.block_on(splendor_server::probe::check(
                cli.config.listen,
                "/healthz",
                timeout,
            ));
            match probed {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("splendor-server healthcheck: {e}");
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

async fn serve(config: Config) -> anyhow::Result<()> {
    config.check().map_err(anyhow::Error::msg)?;
    init_logging(&config)?;
    if let Some(turn) = config.turn_timeout {
        tracing::warn!(
            ?turn,
            "--turn-timeout is reserved and not enforced yet: no turn clock runs"
        );
    }
    let listener = TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("cannot listen on {}", config.listen))?;
    tracing::info!(
        addr = %listener.local_addr()?,
        version = env!("CARGO_PKG_VERSION"),
        "listening"
    );
    splendor_server::run(listener, config, shutdown_signal()).await?;
    Ok(())
}

fn init_logging(config: &Config) -> anyhow::Result<()> {
    let filter = EnvFilter::try_new(&config.log)
        .with_context(|| format!("--log {:?} is not a log filter", config.log))?;
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
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
