//! `splendor-soak`: the hostile soak of issue 45 against a running server
//! that takes client addresses from `X-Forwarded-For`
//! (`SPLENDOR_CLIENT_IP_HEADER`, as behind HAProxy). Two sides, each a
//! process of its own so that the attack can be pinned to one core
//! (`taskset`) and cannot win by taking the honest players' CPU:
//!
//! - `splendor-soak honest`: pairs of players from a few addresses play
//!   live games with chat, quick play and turn-based games at a fixed
//!   thinking time, and count every refusal;
//! - `splendor-soak attack`: from many addresses, at full speed, everything
//!   the hostile tests found a stranger could make the server hold.
//!
//! Each prints one JSON line, its report, when its time is up.
//! docs/soak-hostile.sh runs both against a release server (with and
//! without the attack) and tests/hostile_soak.rs a short run in CI.

mod attack;
mod client;
mod honest;

use std::net::SocketAddr;
use std::time::Duration;

use clap::{Parser, Subcommand};
use tokio::time::Instant;

#[derive(Debug, Parser)]
#[command(about = "The hostile soak: honest players, or the attack, against a running server")]
struct Args {
    /// The server's WebSocket URL, on this machine.
    #[arg(long, default_value = "ws://127.0.0.1:8080/ws")]
    url: String,
    /// How long this side runs, in seconds.
    #[arg(long, default_value_t = 600)]
    seconds: u64,
    #[command(subcommand)]
    side: Side,
}

#[derive(Debug, Subcommand)]
enum Side {
    /// Pairs of honest players.
    Honest {
        /// Players (pairs of friends: an even number).
        #[arg(long, default_value_t = 40)]
        players: usize,
        /// The addresses they come from.
        #[arg(long, default_value_t = 4)]
        addresses: usize,
        /// The thinking time before each move, in milliseconds.
        #[arg(long, default_value_t = 300)]
        think_ms: u64,
    },
    /// The attack, at full speed.
    Attack {
        /// The addresses it comes from.
        #[arg(long, default_value_t = 10)]
        addresses: usize,
        /// Parts to leave out, to see what each costs: churn (turn-based
        /// games and leave), bots (tables of bots), chat (spectators), http
        /// (lists and positions).
        #[arg(long, value_delimiter = ',')]
        without: Vec<String>,
    },
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    let stop_at = Instant::now() + Duration::from_secs(args.seconds);
    let report = match args.side {
        Side::Honest {
            players,
            addresses,
            think_ms,
        } => {
            honest::run(honest::Plan {
                url: args.url,
                players,
                addresses: addresses.max(1),
                think: Duration::from_millis(think_ms),
                stop_at,
            })
            .await
        }
        Side::Attack { addresses, without } => {
            let Some(http) = http_address(&args.url) else {
                eprintln!("--url {:?}: expected ws://HOST:PORT/ws", args.url);
                std::process::exit(2);
            };
            attack::run(attack::Plan {
                url: args.url,
                http,
                addresses,
                without,
                stop_at,
            })
            .await
        }
    };
    println!("{report}");
}

/// The `host:port` of a `ws://host:port/...` URL.
fn http_address(url: &str) -> Option<SocketAddr> {
    let rest = url.strip_prefix("ws://")?;
    rest.split('/').next()?.parse().ok()
}
