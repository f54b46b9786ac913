//! An example bot for the Splendor server, written to be read.
//!
//! A bot is a WebSocket client speaking the JSON protocol of
//! `docs/PROTOCOL.md`. It needs no rules code: the `state` sent to the
//! player who must act lists every legal action in exactly the form `act`
//! takes, so a bot only picks one. `docs/BOTS.md` explains the flow for
//! any language.
//!
//! Map of the crate:
//! - this file: [`Config`], [`run_bot`] (the socket loop) and [`Bot`], the
//!   protocol logic without IO: it takes one server message and queues the
//!   frames to send back, so it can be tested without a server;
//! - [`strategy`]: the [`Strategy`] trait and two strategies,
//!   [`Random`] and [`Greedy`];
//! - [`cli`]: the command line of the `splendor-bot` binary.
//!
//! The flow: `hello` → `welcome` → `create` or `join` → `room` (→ `start`)
//! → `state` with `legal_actions` → `act` with `expect_version` → `events`
//! and `state` → … → `result`.
#![forbid(unsafe_code)]

pub mod cli;

/// The strategies live in `splendor-ai`, shared with the server's built-in
/// players (its `greedy` level is [`Greedy`]).
pub use splendor_ai::strategy;

use std::fmt;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use splendor_protocol::{
    Act, ClientFrame, ClientMessage, Create, ErrorInfo, Hello, Join, Queue, RequestId, ResultInfo,
    Role, RoomInfo, RoomStatus, Seat, ServerMessage, Start, StateInfo, Welcome, WireAction,
};
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
const MAX_FAILURES: u32 = 5;

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

/// The bot's memory and its reactions to server messages, without IO.
pub struct Bot {
    config: Config,
    /// Frames decided on but not yet sent.
    outbox: Vec<ClientFrame>,
    token: String,
    seat: Option<Seat>,
    in_room: bool,
    playing: bool,
    start_sent: bool,
    /// The version an `act` was sent for, so a repeated state is not acted on twice.
    acted_at: Option<u64>,
    version: u64,
    accepted: u64,
    /// Refused actions in a row.
    failures: u32,
    /// Quick play: queued, not matched yet. Frames of any room (the last
    /// game's, which a resumed session is put back into) are not ours.
    awaiting_match: bool,
    /// The server refused a message for the message rate: wait this long
    /// before sending the outbox ([`Bot::take_wait`]).
    wait: Option<Duration>,
    /// The last `act` sent, to send again if the rate refused it.
    last_act: Option<ClientFrame>,
}

impl Bot {
    /// A bot whose first frame, `hello`, is already queued.
    pub fn new(config: Config) -> Bot {
        // A token resumes a session; otherwise the name starts a new one.
        let hello = Hello {
            name: config.token.is_none().then(|| config.name.clone()),
            token: config.token.clone(),
            // Lean states after actions (protocol 2): the protocol crate
            // reads their card ids back into the cards' details.
            verbose: false,
            lang: None,
            bot: true,
            liveness_s: None,
        };
        let mut bot = Bot {
            config,
            outbox: Vec::new(),
            wait: None,
            last_act: None,
            token: String::new(),
            seat: None,
            in_room: false,
            playing: false,
            start_sent: false,
            acted_at: None,
            version: 0,
            accepted: 0,
            failures: 0,
            awaiting_match: false,
        };
        bot.send("hello", ClientMessage::Hello(hello));
        bot
    }

    fn queueing(&self) -> bool {
        matches!(self.config.room, RoomChoice::Queue { .. })
    }

    /// Starts over on a new connection: `hello` with the token resumes the seat.
    fn resume(&mut self) {
        self.outbox.clear();
        self.acted_at = None; // An action lost with the connection is chosen again.
        let hello = Hello {
            name: None,
            token: Some(self.token.clone()),
            verbose: false,
            lang: None,
            bot: true,
            liveness_s: None,
        };
        self.send("hello", ClientMessage::Hello(hello));
    }

    /// The frames to send now, in order.
    pub fn take_outbox(&mut self) -> Vec<ClientFrame> {
        std::mem::take(&mut self.outbox)
    }

    /// Handles one text frame; anything unparsable is reported and skipped.
    pub fn handle_text(&mut self, text: &str) -> Result<Option<Outcome>, BotError> {
        match serde_json::from_str::<ServerMessage>(text) {
            Ok(message) => self.handle(message),
            Err(e) => {
                self.report(Progress::Ignored(e.to_string()));
                Ok(None)
            }
        }
    }

    /// Handles one server message; returns the outcome once the game is over.
    pub fn handle(&mut self, message: ServerMessage) -> Result<Option<Outcome>, BotError> {
        match message {
            ServerMessage::Welcome(welcome) => {
                self.token = welcome.token.clone();
                let resumed = welcome.resumed;
                self.report(Progress::Welcome(welcome));
                if self.queueing() && !self.playing {
                    // Queue (again); a session already seated in its game
                    // hears `already_in_room` and syncs (see on_error).
                    self.enter();
                } else if resumed {
                    // A resumed session may already sit in a room: `sync`
                    // answers with that room, or `not_in_room` (see on_error).
                    self.send("resume", ClientMessage::Sync);
                } else {
                    self.enter();
                }
            }
            ServerMessage::Matched(matched) => {
                self.awaiting_match = false;
                self.report(Progress::Matched(matched.room));
            }
            // Until the queue seats the bot, no room's frames are its own.
            ServerMessage::Room(_)
            | ServerMessage::State(_)
            | ServerMessage::Events(_)
            | ServerMessage::Result(_)
                if self.awaiting_match => {}
            ServerMessage::Room(room) => self.on_room(room),
            ServerMessage::State(state) => self.on_state(state)?,
            // The copy carrying our request id confirms our action.
            ServerMessage::Events(events) if request(&events.id).starts_with("act-") => {
                self.accepted += 1;
                self.failures = 0;
            }
            ServerMessage::Result(result) => {
                return Ok(Some(Outcome {
                    seat: self.seat,
                    token: self.token.clone(),
                    result,
                    version: self.version,
                    actions: self.accepted,
                }));
            }
            ServerMessage::Error(error) => self.on_error(error)?,
            ServerMessage::RoomClosed(closed) => return Err(BotError::RoomClosed(closed.reason)),
            _ => {} // Others' events, and answers to requests this bot never sends.
        }
        Ok(None)
    }

    /// Creates or joins the configured room.
    fn enter(&mut self) {
        let (id, message) = match &self.config.room {
            &RoomChoice::Create { seats, listed } => (
                "create",
                ClientMessage::Create(Create {
                    seats,
                    listed,
                    ..Create::default()
                }),
            ),
            RoomChoice::Join { code } => {
                let join = Join {
                    code: code.clone(),
                    role: Role::Player,
                };
                ("join", ClientMessage::Join(join))
            }
            &RoomChoice::Queue { players } => {
                self.awaiting_match = true;
                let queue = Queue {
                    players,
                    bot_after_s: None,
                };
                ("queue", ClientMessage::Queue(queue))
            }
        };
        self.send(id, message);
    }

    fn on_room(&mut self, room: RoomInfo) {
        if !self.in_room {
            self.in_room = true;
            self.report(Progress::InRoom(room.code.clone()));
        }
        // Seats are renumbered into turn order at the start.
        self.seat = room.you.seat;
        if room.status != RoomStatus::Waiting {
            if !self.playing {
                self.playing = true;
                self.report(Progress::Started(self.seat));
            }
            return;
        }
        // Only the host may start; the host role can also pass to us.
        let seated = room.seats.iter().flatten().count();
        let host = room
            .seats
            .iter()
            .flatten()
            .any(|s| Some(s.seat) == self.seat && s.host);
        if let Some(wanted) = self.config.start_when
            && host
            && !self.start_sent
            && seated >= wanted
        {
            self.start_sent = true;
            self.send("start", ClientMessage::Start(Start::default()));
        }
    }

    fn on_state(&mut self, state: StateInfo) -> Result<(), BotError> {
        self.version = state.version;
        self.seat = state.you;
        // Only the player who must act gets `legal_actions`.
        let Some(legal) = &state.legal_actions else {
            return Ok(());
        };
        if self.acted_at == Some(state.version) {
            return Ok(()); // The same state again (after a resume, say): already answered.
        }
        if legal.is_empty() {
            let what = format!("no legal actions at version {}", state.version);
            return Err(BotError::Protocol(what));
        }
        let action = self.config.strategy.choose(&state);
        self.acted_at = Some(state.version);
        self.report(Progress::Acted(state.version, action.clone()));
        // With expect_version, nothing is applied if the game moved on meanwhile.
        let act = Act {
            action,
            expect_version: Some(state.version),
        };
        self.send(&format!("act-{}", state.version), ClientMessage::Act(act));
        self.last_act = self.outbox.last().cloned();
        Ok(())
    }

    fn on_error(&mut self, error: ErrorInfo) -> Result<(), BotError> {
        if error.code == "rate_limited" {
            return self.on_rate_limited(error);
        }
        match request(&error.id).to_owned().as_str() {
            // A session in no room enters the configured one, unless it was
            // in a room before a reconnection (that room is gone then).
            "resume" if error.code == "not_in_room" && !self.in_room => self.enter(),
            // Queued from an earlier connection: wait on.
            "queue" if error.code == "already_queued" => {}
            // Seated in its game already (matched while the connection
            // was down): that game is ours.
            "queue" if error.code == "already_in_room" => {
                self.awaiting_match = false;
                self.send("resume", ClientMessage::Sync);
            }
            "queue" => return Err(BotError::Refused(Box::new(error))),
            "hello" | "resume" | "create" | "join" => {
                return Err(BotError::Refused(Box::new(error)));
            }
            // Someone left before the start went through: retry on the next `room`.
            "start" => self.start_sent = false,
            // The game moved on; the next `state` brings a fresh legal list.
            _ if error.code == "stale_version" => {}
            act if act.starts_with("act-") => {
                self.failures += 1;
                if self.failures >= MAX_FAILURES {
                    return Err(BotError::Stuck(Box::new(error)));
                }
                // Fetch the state again and choose anew (`persistence_failed` says "try again").
                self.acted_at = None;
                self.send("resync", ClientMessage::Sync);
            }
            _ => {}
        }
        self.report(Progress::Refused(error));
        Ok(())
    }

    /// The server did not handle a message: it came over the message rate.
    /// Wait what the server says (1 s if it does not), then send the same
    /// move again if it still answers the latest state, else ask for the
    /// state again and choose anew (a move is never applied twice); what was
    /// refused before the game (hello, join, queue) ends the bot, as any
    /// refusal there does.
    fn on_rate_limited(&mut self, error: ErrorInfo) -> Result<(), BotError> {
        let wait = Duration::from_millis(error.retry_after_ms.unwrap_or(1000).min(60_000));
        let refused = request(&error.id).to_owned();
        match refused.as_str() {
            "hello" | "create" | "join" | "queue" => {
                return Err(BotError::Refused(Box::new(error)));
            }
            act if act.starts_with("act-") || act == "resync" || act == "resume" => {
                self.wait = Some(self.wait.map_or(wait, |w| w.max(wait)));
                // Anything else queued would be refused too.
                self.outbox.clear();
                // The move was not handled: the same move again, while it
                // still answers the latest state; else the state again.
                match self.last_act.clone() {
                    Some(frame)
                        if request(&frame.id) == act && self.acted_at == Some(self.version) =>
                    {
                        self.outbox.push(frame);
                    }
                    _ => {
                        self.acted_at = None;
                        self.send("resync", ClientMessage::Sync);
                    }
                }
            }
            // A start or a chat: the next `room` or state brings it back.
            _ => {
                self.start_sent = false;
                self.wait = Some(self.wait.map_or(wait, |w| w.max(wait)));
            }
        }
        self.report(Progress::Refused(error));
        Ok(())
    }

    /// How long to wait before sending the outbox, once: the server asked
    /// this bot to slow down (`rate_limited`).
    pub fn take_wait(&mut self) -> Option<Duration> {
        self.wait.take()
    }

    fn send(&mut self, id: &str, message: ClientMessage) {
        let id = Some(RequestId::String(id.to_owned()));
        self.outbox.push(ClientFrame { id, message });
    }

    fn report(&mut self, progress: Progress) {
        (self.config.on_progress)(&progress);
    }
}

/// The request a message answers, by the id this bot gave it ("" for none).
fn request(id: &Option<RequestId>) -> &str {
    match id {
        Some(RequestId::String(id)) => id,
        _ => "",
    }
}
