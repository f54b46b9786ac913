//! The bot's memory and its reactions to server messages, without IO: it
//! takes one server message and queues the frames to send back.

use std::time::Duration;

use splendor_protocol::social::Invite;
use splendor_protocol::{
    Act, ClientFrame, ClientMessage, Create, ErrorInfo, Hello, Join, Queue, RequestId, Role,
    RoomInfo, RoomStatus, Seat, ServerMessage, Start, StateInfo,
};

use crate::{BotError, Config, MAX_FAILURES, Outcome, Progress, RoomChoice};

/// The bot's memory and its reactions to server messages, without IO.
pub struct Bot {
    pub(crate) config: Config,
    /// Frames decided on but not yet sent.
    outbox: Vec<ClientFrame>,
    pub(crate) token: String,
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
    /// Joining a challenger's room (one challenge at a time).
    joining: bool,
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
            challenges: config.room == RoomChoice::Challenges,
            owner: config.owner.clone(),
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
            joining: false,
        };
        bot.send("hello", ClientMessage::Hello(hello));
        bot
    }

    fn queueing(&self) -> bool {
        matches!(self.config.room, RoomChoice::Queue { .. })
    }

    /// Starts over on a new connection: `hello` with the token resumes the seat.
    pub(crate) fn resume(&mut self) {
        self.outbox.clear();
        self.acted_at = None; // An action lost with the connection is chosen again.
        let hello = Hello {
            name: None,
            token: Some(self.token.clone()),
            verbose: false,
            lang: None,
            bot: true,
            liveness_s: None,
            challenges: self.config.room == RoomChoice::Challenges,
            owner: self.config.owner.clone(),
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
            // Waiting for a challenge: the first one is played (a bot in a
            // room already, or not waiting for one, lets it wait in the
            // challenger's room until it is declined or taken elsewhere).
            ServerMessage::Challenge(challenge)
                if self.config.room == RoomChoice::Challenges && !self.in_room && !self.joining =>
            {
                self.joining = true;
                self.report(Progress::Challenged(
                    challenge.from.name.clone(),
                    challenge.room.clone(),
                ));
                let join = Join {
                    code: challenge.room,
                    role: Role::Player,
                };
                self.send("join", ClientMessage::Join(join));
            }
            ServerMessage::ChallengeDeclined(declined) => {
                let why = serde_json::to_value(declined.reason)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default();
                return Err(BotError::Declined(
                    format!("{} (#{})", declined.by.name, declined.by.player_id),
                    why,
                ));
            }
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
            // Nothing to send: a challenge comes (see `handle`).
            RoomChoice::Challenges => return,
            &RoomChoice::Queue { players } => {
                self.awaiting_match = true;
                let queue = Queue {
                    players,
                    bot_after_s: None,
                    pool: None,
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
            // A room this bot made: challenge the players it names.
            if matches!(self.config.room, RoomChoice::Create { .. }) {
                for player_id in self.config.invite.clone() {
                    self.send("invite", ClientMessage::Invite(Invite { player_id }));
                }
            }
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
            // The ladder's cap (issue 24): queue again after the wait the
            // server gives.
            "queue" if error.code == "too_many_games" => {
                let wait =
                    Duration::from_millis(error.retry_after_ms.unwrap_or(30_000).min(600_000));
                self.wait = Some(self.wait.map_or(wait, |w| w.max(wait)));
                self.report(Progress::Capped(wait));
                self.enter();
                return Ok(());
            }
            // Seated in its game already (matched while the connection
            // was down): that game is ours.
            "queue" if error.code == "already_in_room" => {
                self.awaiting_match = false;
                self.send("resume", ClientMessage::Sync);
            }
            "queue" => return Err(BotError::Refused(Box::new(error))),
            // A challenge's room that would not take the bot (full, started):
            // it waits for the next challenge.
            "join" if self.config.room == RoomChoice::Challenges => self.joining = false,
            "hello" | "resume" | "create" | "join" | "invite" => {
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

    pub(crate) fn report(&mut self, progress: Progress) {
        (self.config.on_progress)(&progress);
    }
}

/// The request a message answers, by the id this bot gave it ("" for none).
pub(crate) fn request(id: &Option<RequestId>) -> &str {
    match id {
        Some(RequestId::String(id)) => id,
        _ => "",
    }
}
