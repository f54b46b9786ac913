//! `splendor-bot`: plays one game on a Splendor server (see `--help`).
#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::Parser;
use splendor_bot::{cli::Args, run_bot};

#[tokio::main]
async fn main() -> ExitCode {
    let mut config = Args::parse().into_config();
    // Progress goes to stderr; the result alone goes to stdout.
    config.on_progress = Box::new(|progress| eprintln!("{progress}"));
    match run_bot(config).await {
        Ok(outcome) => {
            for line in &outcome.result.ranking {
                let you = if Some(line.seat) == outcome.seat {
                    "  <- this bot"
                } else {
                    ""
                };
                println!(
                    "{}. {} (seat {}): {} points, {} cards{you}",
                    line.rank, line.name, line.seat, line.points, line.cards
                );
            }
            if outcome.result.deadlock {
                println!("(ended by deadlock: a full round of passes)");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("splendor-bot: {e}");
            ExitCode::FAILURE
        }
    }
}
