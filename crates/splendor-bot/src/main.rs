//! `splendor-bot`: plays one game on a Splendor server (see `--help`).
#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::Parser;
use splendor_bot::{cli::Args, run_bot};
use splendor_protocol::GameEnd;

#[tokio::main]
async fn main() -> ExitCode {
    let args = Args::parse();
    let mut token = args.token.clone();
    // The ladder without --games plays for ever.
    let games = args.games();
    let total = games.map_or_else(|| "∞".to_owned(), |n| n.to_string());
    for game in 1.. {
        if games.is_some_and(|n| game > n) {
            break;
        }
        let mut config = args.clone().into_config();
        // The same session from game to game: its token is its identity
        // (and, in quick play, its rating).
        config.token = token.clone();
        // Progress goes to stderr; the result alone goes to stdout.
        config.on_progress = Box::new(|progress| eprintln!("{progress}"));
        if games != Some(1) {
            eprintln!("game {game} of {total}");
        }
        match play_one(config).await {
            Some(next) => token = Some(next),
            None => return ExitCode::FAILURE,
        }
    }
    ExitCode::SUCCESS
}

/// Plays one game and prints its result; the session token, or `None` on
/// failure (said on stderr).
async fn play_one(config: splendor_bot::Config) -> Option<String> {
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
            match outcome.result.end {
                GameEnd::Points => {}
                GameEnd::Deadlock => println!("(ended by deadlock: a full round of passes, R11.2)"),
                GameEnd::NoProgress => {
                    println!(
                        "(ended for no progress: 25 rounds without a card bought or reserved, R11.6)"
                    )
                }
                GameEnd::Resigned => println!("(ended by resignations, R13.2)"),
                GameEnd::Deserted => {
                    println!(
                        "(ended deserted: nobody in play connected for 2 minutes, unrated, R12.6)"
                    )
                }
                GameEnd::Operators => println!("(ended by the server's operators)"),
            }
            Some(outcome.token)
        }
        Err(e) => {
            eprintln!("splendor-bot: {e}");
            None
        }
    }
}
