//! An example bot for the Splendor server, written to be read.
//!
//! A bot is a WebSocket client speaking the JSON protocol of
//! `docs/PROTOCOL.md`. It needs no rules code: the `state` sent to the
//! player who must act lists every legal action in exactly the form `act`
//! takes, so a bot only picks one. `docs/BOTS.md` explains the flow for
//! any language.
//!
//! Map of the crate:
//! - this file: [`Config`] and [`run_bot`] (the socket loop);
//! - `bot.rs`: [`Bot`], the protocol logic without IO: it takes one server
//!   message and queues the frames to send back, so it can be tested
//!   without a server;
//! - [`strategy`]: the [`Strategy`] trait and two strategies,
//!   [`Random`] and [`Greedy`];
//! - [`cli`]: the command line of the `splendor-bot` binary.
//!
//! The flow: `hello` → `welcome` → `create` or `join` → `room` (→ `start`)
//! → `state` with `legal_actions` → `act` with `expect_version` → `events`
//! and `state` → … → `result`.
#![forbid(unsafe_code)]

mod bot;
pub mod cli;

pub use bot::Bot;
use bot::request;

/// The strategies live in `splendor-ai`, shared with the server's built-in
/// players (its `greedy` level is [`Greedy`]).
pub use splendor_ai::strategy;

use std::fmt;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use splendor_protocol::{ErrorInfo, ResultInfo, Seat, Welcome, WireAction};
use tokio_tungstenite::{connect_async, tungstenite::Message};

pub use strategy::{Greedy, Random, Strategy};

/// Where the bot plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoomChoice {
    /// Create a room with this many seats (2 to 4) and become its host.
    Create {
        /// 2, 3 or 4 seats.
        seats: u8,
        /// Whether the room is listed for strangers to join.
        listed: bool,
    },
    /// Join the room with this code as a player.
    Join {
        /// The room's five letters.
        code: String,
    },
    /// Quick play: queue for a rated game of this many players (2 to 4);
    /// the server seats the bot when enough are waiting.
    Queue {
        /// 2, 3 or 4 players.
        players: u8,
    },
    /// Wait for a challenge (another player's `invite` by this bot's
    /// player id, issue 24) and play it: `hello` says `"challenges":true`
    /// and the first challenge's room is joined.
    Challenges,
}

/// Everything [`run_bot`] needs.
pub struct Config {
    /// The server's WebSocket endpoint, e.g. `ws://127.0.0.1:8080/ws`.
    pub url: String,
    /// The display name of a new session.
    pub name: String,
    /// A token from an earlier run: resume that session (and its seat).
    pub token: Option<String>,
    /// Used unless a resumed session is already in a room.
    pub room: RoomChoice,
    /// Start the game once this many players are seated, if this bot is host.
    pub start_when: Option<usize>,
    /// How the bot chooses among the legal actions.
    pub strategy: Box<dyn Strategy + Send>,
    /// Called for everything worth telling a person; the binary prints it.
    pub on_progress: Box<dyn FnMut(&Progress) + Send>,
    /// The author's secret, said in `hello` (issue 24): one owner's bots
    /// never meet in quick play and share the ladder's cap; with the name,
    /// it gets a bot back whose token was lost (issue 51).
    pub owner: Option<String>,
    /// Players to challenge by player id once the created room is made
    /// (`invite`); a declined challenge ends the bot
    /// ([`BotError::Declined`]).
    pub invite: Vec<String>,
}

impl Config {
    /// A greedy bot that creates a two-seat room and starts when it is full.
    pub fn new(url: impl Into<String>, name: impl Into<String>) -> Config {
        Config {
            url: url.into(),
            name: name.into(),
            token: None,
            room: RoomChoice::Create {
                seats: 2,
                listed: false,
            },
            start_when: Some(2),
            strategy: Box::new(Greedy),
            on_progress: Box::new(|_| {}),
            owner: None,
            invite: Vec::new(),
        }
    }
}

/// What happened, for people watching the bot.
#[derive(Clone, Debug, PartialEq)]
pub enum Progress {
    /// The server said who this bot is.
    Welcome(Welcome),
    /// In the room with this code (printed so that others can join it).
    InRoom(String),
    /// The game started; this bot plays this seat.
    Started(Option<Seat>),
    /// This bot sent this action at this version.
    Acted(u64, WireAction),
    /// A request was refused (the error's `id` names the request).
    Refused(ErrorInfo),
    /// A frame the bot did not understand (from a newer server, say); skipped.
    Ignored(String),
    /// The connection was lost for this reason; resuming the session.
    Reconnecting(String),
    /// Quick play: the queue seated this bot in the room with this code.
    Matched(String),
    /// Challenged by this player: joining the room with this code.
    Challenged(String, String),
    /// The ladder's cap (`too_many_games`): queueing again after this wait.
    Capped(Duration),
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Progress::Welcome(w) => write!(
                f,
                "hello {} (player id {}); resume with --token {}",
                w.name, w.player_id, w.token
            ),
            Progress::InRoom(code) => write!(f, "in room {code}; others join with --join {code}"),
            Progress::Started(Some(seat)) => write!(f, "the game started; this bot is seat {seat}"),
            Progress::Started(None) => write!(f, "the game started; this bot watches"),
            Progress::Acted(version, action) => {
                let json = serde_json::to_string(action).unwrap_or_default();
                write!(f, "v{version}: {json}")
            }
            Progress::Refused(e) => write!(f, "{}", BotError::Refused(Box::new(e.clone()))),
            Progress::Ignored(reason) => write!(f, "ignored a frame: {reason}"),
            Progress::Reconnecting(why) => write!(f, "{why}; reconnecting"),
            Progress::Matched(code) => write!(f, "quick play: seated in room {code}"),
            Progress::Challenged(who, code) => {
                write!(f, "challenged by {who}: joining room {code}")
            }
            Progress::Capped(wait) => write!(
                f,
                "too_many_games: the ladder's cap is reached; queueing again in {} s",
                wait.as_secs().max(1)
            ),
        }
    }
}

/// How a finished game ended for this bot.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// This bot's seat in turn order (`None` if it only watched).
    pub seat: Option<Seat>,
    /// The session token, to resume or to look at the finished room again.
    pub token: String,
    /// The game's result as the server sent it.
    pub result: ResultInfo,
    /// The last state version seen: the number of actions in the game.
    pub version: u64,
    /// How many of this bot's actions the server accepted.
    pub actions: u64,
}

/// Why a bot stopped before the game's result.
#[derive(Debug)]
pub enum BotError {
    /// The WebSocket failed.
    Socket(tokio_tungstenite::tungstenite::Error),
    /// The server closed the connection with this code (4001: the session
    /// was resumed elsewhere) and reason.
    Closed(Option<u16>, String),
    /// `hello`, `create` or `join` was refused; the bot cannot go on.
    Refused(Box<ErrorInfo>),
    /// The room closed before the game ended, for this reason.
    RoomClosed(String),
    /// The server kept refusing actions taken from its own legal list.
    Stuck(Box<ErrorInfo>),
    /// The server sent something that cannot be played from.
    Protocol(String),
    /// A player this bot challenged declined: who, and why.
    Declined(String, String),
}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotError::Socket(e) => write!(f, "WebSocket: {e}"),
            BotError::Closed(code, why) => write!(f, "the server closed: {code:?} {why}"),
            BotError::Refused(e) => {
                write!(f, "{} refused: {}: {}", request(&e.id), e.code, e.message)
            }
            BotError::RoomClosed(why) => write!(f, "the room closed: {why}"),
            BotError::Stuck(e) => write!(f, "actions keep failing: {}: {}", e.code, e.message),
            BotError::Protocol(what) => write!(f, "unexpected server behaviour: {what}"),
            BotError::Declined(who, why) => write!(f, "{who} declined the challenge: {why}"),
        }
    }
}

impl std::error::Error for BotError {}

impl BotError {
    /// Whether resuming on a new connection may help: not after 4001 (the
    /// session moved to another connection) nor 4003 (rate limit).
    fn may_reconnect(&self) -> bool {
        match self {
            BotError::Socket(_) => true,
            BotError::Closed(code, _) => !matches!(code, Some(1000 | 4001 | 4003)),
            _ => false,
        }
    }
}

/// How many refused actions in a row the bot tolerates before giving up.
pub(crate) const MAX_FAILURES: u32 = 5;

/// How often a dropped connection is resumed in one game, waiting 1, 2, 4... seconds.
const MAX_RECONNECTS: u32 = 5;

/// Connects, plays one game and returns its outcome. A connection lost
/// after the welcome (a server restart closes with 1012) is resumed with
/// the session's token: same seat, current state.
pub async fn run_bot(config: Config) -> Result<Outcome, BotError> {
    let mut bot = Bot::new(config);
    let mut attempt = 0;
    loop {
        match play_connection(&mut bot).await {
            Err(e) if e.may_reconnect() && !bot.token.is_empty() && attempt < MAX_RECONNECTS => {
                bot.report(Progress::Reconnecting(e.to_string()));
                // A random part, so that bots do not all come back at once.
                let delay = Duration::from_millis(rand::random_range(1000..1500) << attempt);
                tokio::time::sleep(delay).await;
                attempt += 1;
                bot.resume();
            }
            other => return other,
        }
    }
}

/// Plays on one connection until the result, an error or a close.
async fn play_connection(bot: &mut Bot) -> Result<Outcome, BotError> {
    let (mut ws, _) = connect_async(bot.config.url.as_str())
        .await
        .map_err(BotError::Socket)?;
    loop {
        // Send what the bot queued (its hello first), then read one frame;
        // after a rate_limited refusal, only once the server's wait is over.
        if let Some(wait) = bot.take_wait() {
            tokio::time::sleep(wait).await;
        }
        for frame in bot.take_outbox() {
            let text = frame.to_json();
            ws.send(Message::text(text))
                .await
                .map_err(BotError::Socket)?;
        }
        let Some(frame) = ws.next().await else {
            return Err(BotError::Closed(None, "the stream ended".into()));
        };
        match frame.map_err(BotError::Socket)? {
            Message::Text(text) => {
                if let Some(outcome) = bot.handle_text(text.as_str())? {
                    let _ = ws.close(None).await; // Polite; the outcome stands anyway.
                    return Ok(outcome);
                }
            }
            Message::Close(close) => {
                let (code, why) = close.map_or((None, String::new()), |c| {
                    (Some(u16::from(c.code)), c.reason.to_string())
                });
                return Err(BotError::Closed(code, why));
            }
            // Pings are answered by tungstenite itself; the protocol has no binary frames.
            _ => {}
        }
    }
}
