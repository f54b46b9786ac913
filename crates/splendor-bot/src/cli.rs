//! The command line of the `splendor-bot` binary, turned into a [`Config`].
//!
//! It lives in the library so that tests start bots exactly as a person
//! would type them.

use clap::{Parser, ValueEnum};

use crate::{Config, Greedy, Random, RoomChoice, Strategy};

/// A bot that plays Splendor on a server: it creates a room (printing the
/// code others join with) or joins one by code, then plays to the end.
#[derive(Clone, Debug, Parser)]
#[command(name = "splendor-bot", version)]
pub struct Args {
    /// The server's WebSocket URL.
    #[arg(long, env = "SPLENDOR_URL", default_value = "ws://127.0.0.1:8080/ws")]
    pub url: String,
    /// The display name of a new session (1 to 24 characters).
    #[arg(long, env = "SPLENDOR_BOT_NAME", default_value = "bot")]
    pub name: String,
    /// Resume an earlier session (and its seat) with its token.
    #[arg(long, env = "SPLENDOR_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// Join the room with this code as a player; without it, create a room.
    /// (The arena passes the room in SPLENDOR_ROOM.)
    #[arg(long, value_name = "CODE", env = "SPLENDOR_ROOM")]
    pub join: Option<String>,
    /// Quick play: queue for a rated game of N players (2 to 4) with
    /// whoever waits on the server, instead of creating a room (`--join`
    /// wins over it).
    #[arg(long, value_name = "N", env = "SPLENDOR_QUEUE", value_parser = clap::value_parser!(u8).range(2..=4))]
    pub queue: Option<u8>,
    /// The bots' ladder (issue 24): rated games of N players (2 to 4)
    /// against the other programs, one after the other, for ever unless
    /// `--games` says how many; past the ladder's cap (`too_many_games`)
    /// the bot waits what the server says and queues again.
    #[arg(long, value_name = "N", env = "SPLENDOR_LADDER", value_parser = clap::value_parser!(u8).range(2..=4), conflicts_with = "queue")]
    pub ladder: Option<u8>,
    /// Wait for a challenge (another player's invitation by this bot's
    /// player id) and play it, instead of creating a room. The variable
    /// SPLENDOR_CHALLENGES=accept does the same.
    #[arg(long)]
    pub challenges: bool,
    /// Challenge this player (by player id) to the room the bot creates;
    /// repeatable. A declined challenge ends the bot with the reason.
    #[arg(long = "challenge", value_name = "PLAYER_ID")]
    pub challenge: Vec<String>,
    /// The author's secret (8 to 128 characters), said in `hello`: one
    /// owner's bots never meet in quick play and share the ladder's cap,
    /// and with the bot's name it gets the bot back if its token is lost.
    #[arg(long, env = "SPLENDOR_OWNER", hide_env_values = true)]
    pub owner: Option<String>,
    /// Games to play in a row, on the same session (with `--queue`, each a
    /// new rated game) [default: 1; with --ladder, for ever].
    #[arg(long, value_name = "N", env = "SPLENDOR_GAMES", value_parser = clap::value_parser!(u32).range(1..))]
    pub games: Option<u32>,
    /// Seats of the room to create.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4))]
    pub seats: u8,
    /// List the created room publicly (`GET /api/rooms`).
    #[arg(long)]
    pub listed: bool,
    /// Start the game once N players are seated, if this bot is the host
    /// [default: --seats when creating a room].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(2..=4))]
    pub start_when: Option<u8>,
    /// How to choose moves.
    #[arg(long, value_enum, default_value_t = StrategyName::Greedy)]
    pub strategy: StrategyName,
    /// Seed of the random strategy, to replay its choices [default: fresh].
    #[arg(long)]
    pub seed: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
/// A strategy the binary can play (see `strategy`).
pub enum StrategyName {
    /// Any legal action, at random.
    Random,
    /// The best action by a simple score (see `strategy::Greedy`).
    Greedy,
}

impl Args {
    /// Parses the words after `splendor-bot`, as a shell passes them.
    pub fn parse_words<'a>(words: impl IntoIterator<Item = &'a str>) -> Result<Args, clap::Error> {
        Args::try_parse_from(std::iter::once("splendor-bot").chain(words))
    }

    /// How many games to play: `None` for ever (the ladder without
    /// `--games`).
    pub fn games(&self) -> Option<u32> {
        match (self.games, self.ladder) {
            (Some(n), _) => Some(n),
            (None, Some(_)) => None,
            (None, None) => Some(1),
        }
    }

    /// Whether the bot waits for challenges (`--challenges`, or
    /// SPLENDOR_CHALLENGES=accept as the kits read it).
    fn takes_challenges(&self) -> bool {
        self.challenges
            || std::env::var("SPLENDOR_CHALLENGES").is_ok_and(|v| v.eq_ignore_ascii_case("accept"))
    }

    /// The bot's configuration (it reports nothing; set `on_progress` to print).
    pub fn into_config(self) -> Config {
        let challenges = self.join.is_none() && self.takes_challenges();
        let strategy: Box<dyn Strategy + Send> = match (self.strategy, self.seed) {
            (StrategyName::Greedy, _) => Box::new(Greedy),
            (StrategyName::Random, Some(seed)) => Box::new(Random::seeded(seed)),
            (StrategyName::Random, None) => Box::new(Random::from_entropy()),
        };
        let (room, start_when) = match (self.join, self.queue.or(self.ladder)) {
            (Some(code), _) => (RoomChoice::Join { code }, self.start_when),
            (None, Some(players)) => (RoomChoice::Queue { players }, None),
            (None, None) if challenges => (RoomChoice::Challenges, None),
            (None, None) => {
                let room = RoomChoice::Create {
                    seats: self.seats,
                    listed: self.listed,
                };
                (room, Some(self.start_when.unwrap_or(self.seats)))
            }
        };
        Config {
            start_when: start_when.map(usize::from),
            room,
            strategy,
            token: self.token,
            owner: self.owner,
            invite: self.challenge,
            ..Config::new(self.url, self.name)
        }
    }
}
