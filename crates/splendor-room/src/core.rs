//! The room core: a pure state machine, the only owner of a room's game.
//!
//! It reads no clock (time comes in as `now`), draws no OS randomness (its
//! RNG is seeded by the driver), holds no channel and no connection (people
//! are named by [`ConnId`]), and awaits nothing. Inputs are the `handle_*`
//! methods; what to do comes out of [`RoomCore::poll_effect`] in order, and
//! the next deadline out of [`RoomCore::poll_timeout`] (quinn-proto's shape,
//! stateroom's addressing).
//!
//! A request that needs storage ends in an [`Effect::Write`]; the core then
//! holds the change in `pending` and finishes it when the driver feeds back
//! [`DriverEvent::Written`]: durable before anyone sees it. The core asks
//! for one write at a time, and the driver reads no request while a write
//! is in flight.

use std::collections::VecDeque;
use std::time::Instant;

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use splendor_protocol::{RoomStatus, RoomSummary, SeatOrder};
use splendor_rules::{Action, Events, Game};
use tracing::{info, warn};
use uuid::Uuid;

use super::bots::BotTurn;
use super::clock::{ClockOptions, Clocks};
use super::effect::Mover;
use super::effect::RoomProbe;
use super::effect::{Answer, Effect, Write};
use super::input::{Caller, DriverEvent, Request, Ticket, WriteId};
use super::running::Running;
use super::seats::Seats;
use super::social::Social;
use super::timers::{RoomTimer, TimerTable, expiry_reason};
use crate::code::RoomCode;
use crate::config::RoomConfig;
use crate::error::RoomError;
use crate::session::Session;
use crate::write::GameId;

/// An action accepted and being stored: it becomes the game once durable.
#[derive(Debug)]
pub(crate) struct AcceptedAct {
    /// The person who asked, `None` for a bot's or the stand-in's move.
    pub(crate) origin: Option<(Ticket, Caller)>,
    /// The game after it.
    pub(crate) next: Game,
    /// What it did, as the rules said.
    pub(crate) events: Events,
    /// The clocks after it.
    pub(crate) clocks: Option<Clocks>,
    /// Who made it.
    pub(crate) by: Mover,
    /// When it was accepted: the clocks stopped then.
    pub(crate) accepted_at: Instant,
}

/// The change waiting for the write in flight.
#[derive(Debug)]
// One at a time per room: the game held inline costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Pending {
    /// A game to start once its record is durable.
    Start {
        ticket: Ticket,
        caller: Caller,
        running: Box<Running>,
        /// The join slots in their new seat order.
        order: Vec<usize>,
    },
    /// An action to commit once it is durable.
    Act(AcceptedAct),
    /// The result of a game that ended is being stored; then `then`.
    Result { then: AfterResult },
    /// The game is being parked in the store (issue 25).
    Park,
    /// The store said it is ahead of the room: its log is being read.
    Reload {
        ticket: Option<Ticket>,
        expected: u64,
    },
}

/// What follows the storing of a result.
#[derive(Debug)]
pub(crate) enum AfterResult {
    /// Tell everyone about the action that ended the game, then answer it.
    Act {
        origin: Option<(Ticket, Caller)>,
        events: Events,
    },
    /// Send everyone the reloaded game, then answer the stale request.
    Reload {
        ticket: Option<Ticket>,
        expected: u64,
    },
    /// Close the room.
    Close { why: &'static str },
    /// The operators' end of the game is stored (or not): close the room
    /// and answer them (issue 22).
    ClosedByOperators { ticket: Ticket, reason: String },
    /// The deserted end of the game is stored (or not): tell whoever is
    /// here and close the room (R12.6).
    Deserted { result: splendor_rules::GameResult },
}

/// The room the effect queue is given when something happens in a quiet
/// room: an action's outcome fits (issue 20).
const EFFECTS_AT_ONCE: usize = 16;

/// A room: its people, its game, its timers and the effects it has not
/// handed out yet.
pub struct RoomCore {
    pub(crate) code: RoomCode,
    pub(crate) listed: bool,
    pub(crate) people: Seats,
    pub(crate) running: Option<Running>,
    /// Since when no player has been connected (`None` while someone is).
    pub(crate) quiet_since: Option<Instant>,
    /// Since when nobody, player or spectator, has been attached.
    pub(crate) empty_since: Option<Instant>,
    /// R12.6: since when no person or program in play has been connected
    /// in a short-clock game (`None` while one is, or R12.6 does not apply).
    pub(crate) deserted_since: Option<Instant>,
    /// When a member last asked the room something or someone joined, left,
    /// reconnected or disconnected: the idle clock of a waiting room.
    pub(crate) last_activity: Instant,
    pub(crate) config: RoomConfig,
    pub(crate) timers: TimerTable,
    /// Seeds, game ids and salts; seeded by the driver from the OS. ChaCha20:
    /// the salt must be unpredictable for the seed commitment to hide.
    rng: ChaCha20Rng,
    pub(crate) effects: VecDeque<Effect>,
    /// The change waiting for the write in flight, with its id.
    pub(crate) pending: Option<(WriteId, Pending)>,
    next_write: u64,
    /// What the lobby lists, as last handed out.
    pub(crate) summary: RoomSummary,
    /// Once closed, every request is answered `room_closed`.
    pub(crate) closed: bool,
    /// When parking the game last failed (issue 25): the next try waits.
    pub(crate) park_failed_at: Option<Instant>,
    /// Scratch space for legal actions.
    pub(crate) legal: Vec<Action>,
    /// The bot move asked about, answered or waiting for the bots' delay.
    pub(crate) bot_turn: Option<BotTurn>,
    /// Practice hints at the current position (issue 26).
    pub(crate) hints: crate::hint::Hints,
    /// What players away were told (issue 25).
    pub(crate) notified: crate::notices::Notified,
    /// No bot is asked again before then (after a move failed to store).
    pub(crate) bot_pause_until: Option<Instant>,
    /// The room's turn clock for its game (R12).
    pub(crate) clock: Option<ClockOptions>,
    /// The time of the input being handled (messages show clocks as of it).
    pub(crate) now: Instant,
    /// Chat, mute and rematch (kept nowhere else).
    pub(crate) social: Social,
    /// The game counts for the ratings (issue 13): a clock with the
    /// stand-in for the away, no built-in bots.
    pub(crate) rated: bool,
    /// A quick-play room: its seats were filled by the queue and the
    /// gateway starts it (`Request::StartMatch`), no host does.
    pub(crate) matched: bool,
    /// The first game's deal when it was chosen (the arena's series,
    /// [`RoomSetup::deal`](crate::RoomSetup::deal)); taken at its start.
    pub(crate) first_deal: Option<u64>,
    /// A tutorial room (issue 50): its tutor sits in the second seat.
    pub(crate) tutorial_room: bool,
    /// Its game in play on the prepared deal, while it follows the script.
    pub(crate) tutorial: Option<crate::tutorial::TutorialRun>,
}

impl RoomCore {
    /// The room with its fields set, before its first input (what `new`
    /// and `restored` in setup.rs build on).
    pub(crate) fn with(
        code: RoomCode,
        listed: bool,
        people: Seats,
        running: Option<Running>,
        config: RoomConfig,
        rng_seed: [u8; 32],
        now: Instant,
    ) -> RoomCore {
        let mut core = RoomCore {
            code,
            listed,
            people,
            running,
            quiet_since: None,
            empty_since: None,
            deserted_since: None,
            last_activity: now,
            config,
            timers: TimerTable::default(),
            rng: ChaCha20Rng::from_seed(rng_seed),
            effects: VecDeque::new(),
            pending: None,
            next_write: 1,
            summary: RoomSummary {
                code: code.to_string(),
                host: String::new(),
                seats: 0,
                players: 0,
                programs: 0,
                status: RoomStatus::Waiting,
            },
            closed: false,
            park_failed_at: None,
            legal: Vec::new(),
            bot_turn: None,
            hints: Default::default(),
            notified: Default::default(),
            bot_pause_until: None,
            clock: None,
            now,
            social: Social::starting_lines_at(first_line(&rng_seed)),
            rated: false,
            matched: false,
            first_deal: None,
            tutorial_room: false,
            tutorial: None,
        };
        core.summary = core.current_summary();
        core
    }

    // ---- entry points ----------------------------------------------------

    /// A caller's request. Its answer comes out as [`Effect::Reply`] with
    /// `ticket`: at once, or after a write for `start` and `act`.
    pub fn handle_request(
        &mut self,
        now: Instant,
        ticket: Ticket,
        caller: Caller,
        request: Request,
    ) {
        self.now = now;
        if self.closed {
            self.reply(ticket, Err(RoomError::RoomClosed));
            return;
        }
        if self.pending.is_some() {
            // The driver reads no request while a write is in flight.
            self.reply(
                ticket,
                Err(RoomError::internal("a request arrived during a write")),
            );
            return;
        }
        self.last_activity = now;
        match request {
            Request::Join {
                name,
                program,
                role,
                verbose,
                claim,
            } => {
                let conn = caller.conn;
                let session = Session {
                    id: caller.session,
                    name,
                    program,
                };
                let result = self.join(session, role, verbose, claim.unwrap_or(0), &caller);
                let failed = result.is_err();
                self.reply(ticket, result.map(Answer::Joined));
                if failed && !self.people.addresses(conn) {
                    self.effects.push_back(Effect::Release { conn });
                }
            }
            Request::Leave | Request::GiveUp => {
                let give_up = matches!(request, Request::GiveUp);
                let result = self.leave(&caller, give_up);
                self.reply(ticket, result.map(|()| Answer::Done));
                if self.running.is_none()
                    && self.people.humans() == 0
                    && !self.people.host_watching()
                {
                    self.close("closed-everyone-left");
                }
            }
            Request::Detach => {
                self.detach(&caller);
                self.reply(ticket, Ok(Answer::Done));
            }
            Request::Start { order } => {
                if let Err(e) = self.start(ticket, caller, order) {
                    self.reply(ticket, Err(e));
                }
            }
            Request::Act {
                action,
                expect_version,
            } => {
                if let Err(e) = self.act(ticket, caller, action, expect_version) {
                    self.reply(ticket, Err(e));
                }
            }
            Request::Close { reason } => self.close_by_operators(ticket, reason),
            Request::Remove { session, reason } => {
                if let Err(e) = self.remove(ticket, session, reason) {
                    self.reply(ticket, Err(e));
                }
            }
            Request::Resign => {
                if let Err(e) = self.resign(ticket, caller) {
                    self.reply(ticket, Err(e));
                }
            }
            Request::Hint => {
                let result = self.hint(&caller);
                self.reply(ticket, result.map(|()| Answer::Done));
            }
            Request::Sync => {
                let result = self.sync(&caller);
                self.reply(ticket, result.map(|()| Answer::Done));
            }
            Request::AddBot { level } => {
                let result = self.add_bot(&caller, &level);
                self.reply(ticket, result.map(|()| Answer::Done));
            }
            Request::RemoveBot { seat } => {
                let result = self.remove_bot(&caller, seat);
                self.reply(ticket, result.map(|()| Answer::Done));
            }
            Request::LeaveFinished => {
                let result = self.leave_finished(&caller);
                self.reply(ticket, result.map(|()| Answer::Done));
            }
            Request::Chat { text } => {
                let result = self.chat(&caller, &text);
                self.reply(ticket, result.map(|()| Answer::Done));
            }
            Request::MuteSpectators { muted } => {
                let result = self.mute_spectators(&caller, muted);
                self.reply(ticket, result.map(|()| Answer::Done));
            }
            Request::Mute { seat, muted } => {
                let result = self.mute(&caller, seat, muted);
                self.reply(ticket, result.map(|()| Answer::Done));
            }
            Request::Rematch => {
                let result = self.rematch(&caller);
                self.reply(ticket, result);
            }
            Request::Blocks { blocked } => {
                self.set_blocks(caller.session, blocked);
                self.reply(ticket, Ok(Answer::Done));
            }
            Request::Invite { to } => {
                let result = self.may_invite(&caller, to);
                self.reply(ticket, result.map(Answer::Invitable));
            }
            Request::Whois { whom } => {
                let result = self.whois(&caller, whom);
                self.reply(ticket, result.map(|p| Answer::Person(Box::new(p))));
            }
            Request::RematchReady { room } => {
                self.rematch_ready(room);
                self.reply(ticket, Ok(Answer::Done));
            }
            Request::StartMatch => {
                let started = if !self.matched {
                    Err(RoomError::NotHost)
                } else if self.running.is_some() {
                    Err(RoomError::GameAlreadyStarted)
                } else {
                    self.start_unchecked(ticket, caller, SeatOrder::Random)
                };
                if let Err(e) = started {
                    self.reply(ticket, Err(e));
                }
            }
        }
        self.after_input(now);
    }

    /// What the driver did or learned.
    pub fn handle_event(&mut self, now: Instant, event: DriverEvent) {
        self.now = now;
        // An action's outcome is a dozen effects (events and state for each
        // seat, the reply, the counts): room for them at once, not grown
        // from nothing (the queue is freed when drained).
        self.effects.reserve(EFFECTS_AT_ONCE);
        match event {
            DriverEvent::Written { id, outcome } => self.written(now, id, outcome),
            DriverEvent::LogLoaded { id, log } => self.log_loaded(now, id, log),
            DriverEvent::Undeliverable { conn } => {
                // Said once: every message that was queued for it fails
                // after the first, each reported.
                if self.people.drop_conn(conn) {
                    info!(conn = %conn, "dropping a connection that cannot receive");
                    if self.running.is_none() {
                        self.people.pass_host_if_away();
                    }
                    self.broadcast_room(None);
                }
                self.effects.push_back(Effect::Release { conn });
            }
            // A closed room moves no more (a move thought out while it
            // closed, say because its lease was lost, is dropped).
            DriverEvent::BotMoved { .. } if self.closed => {}
            DriverEvent::BotMoved {
                seat,
                version,
                result,
            } => self.bot_moved(now, seat, version, result),
            DriverEvent::HintThought { .. } if self.closed => {}
            DriverEvent::HintThought {
                seat,
                version,
                result,
                to,
            } => self.hint_thought(seat, version, result, to),
            DriverEvent::HandlesGone => self.close("closed-shutting-down"),
            DriverEvent::LeaseLost if !self.closed => self.finish_close(super::play::FENCED),
            DriverEvent::LeaseLost => {}
            DriverEvent::HandOff => {
                // A game in progress goes on from another node; anything
                // else ends with this node.
                let why = if self
                    .running
                    .as_ref()
                    .is_some_and(|r| r.game().result().is_none())
                {
                    super::play::FENCED
                } else {
                    "closed-shutting-down"
                };
                self.close(why);
            }
        }
        self.after_input(now);
    }

    /// Time passed: handles every timer due at `now`.
    pub fn handle_timeout(&mut self, now: Instant) {
        self.now = now;
        while let Some(timer) = self.timers.take_expired(now) {
            match timer {
                RoomTimer::Expiry => {
                    let why = expiry_reason(
                        self.status(),
                        self.quiet_since.is_some() && !self.turn_based(),
                    );
                    self.close(why);
                }
                RoomTimer::BotMove => self.bot_due(now),
                RoomTimer::TurnClock => self.clock_ran_out(now),
                RoomTimer::Park => self.park(now),
                RoomTimer::Deserted => self.desert(now),
            }
        }
        self.after_input(now);
    }

    /// When [`RoomCore::handle_timeout`] should be called next.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.timers.next_timeout()
    }

    /// The next thing to do, in order.
    pub fn poll_effect(&mut self) -> Option<Effect> {
        let effect = self.effects.pop_front();
        if effect.is_none() && self.effects.capacity() > 0 {
            // A quiet room holds no queue (issue 20: the largest burst's
            // stayed, 4 KB a room); the next request's effects make one.
            self.effects = VecDeque::new();
        }
        effect
    }

    /// A summary of the room, for tests and diagnostics.
    pub fn probe(&self) -> RoomProbe {
        RoomProbe {
            status: self.status(),
            version: self.running.as_ref().map(|r| r.version()),
            seated: self.people.seated(),
            connected_players: self.people.connected_players(),
            spectators: self.people.spectators().len(),
        }
    }

    /// Connected people seated, people seated, bots, spectators.
    pub fn occupancy(&self) -> [usize; 4] {
        let humans = self.people.humans();
        [
            self.people.connected_players(),
            humans,
            self.people.seated() - humans,
            self.people.spectators().len(),
        ]
    }

    /// What the lobby lists for this room.
    pub fn summary(&self) -> &RoomSummary {
        &self.summary
    }

    /// The room's code.
    pub fn code(&self) -> RoomCode {
        self.code
    }

    // ---- steps shared by the requests --------------------------------------

    /// Waiting, playing or finished.
    pub fn status(&self) -> RoomStatus {
        match &self.running {
            None => RoomStatus::Waiting,
            Some(r) if r.game().is_over() => RoomStatus::Finished,
            Some(_) => RoomStatus::Playing,
        }
    }

    pub(crate) fn reply(&mut self, ticket: Ticket, result: Result<Answer, RoomError>) {
        self.effects.push_back(Effect::Reply { ticket, result });
    }

    pub(crate) fn push(&mut self, effect: Effect) {
        self.effects.push_back(effect);
    }

    /// Asks the driver for a durable write; `pending` waits for its outcome.
    pub(crate) fn write(&mut self, write: Write, pending: Pending) {
        debug_assert!(self.pending.is_none(), "one write at a time");
        let id = WriteId(self.next_write);
        self.next_write += 1;
        self.pending = Some((id, pending));
        self.effects.push_back(Effect::Write {
            id,
            write: Box::new(write),
        });
    }

    /// The pending change for write `id`, if that is the write in flight.
    pub(crate) fn take_pending(&mut self, id: WriteId) -> Option<Pending> {
        match self.pending.take() {
            Some((pending_id, pending)) if pending_id == id => Some(pending),
            other => {
                warn!(
                    write = id.0,
                    "an outcome for a write not in flight; ignored"
                );
                self.pending = other;
                None
            }
        }
    }

    /// A `u64` from the room's RNG, such as a game's seed (R2.5).
    pub(crate) fn random_u64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    pub(crate) fn random_fill(&mut self, buf: &mut [u8]) {
        self.rng.fill_bytes(buf);
    }

    pub(crate) fn random_game_id(&mut self) -> GameId {
        GameId(Uuid::from_u64_pair(
            self.rng.next_u64(),
            self.rng.next_u64(),
        ))
    }

    /// Whether the room is closed (every request is refused).
    pub(crate) fn is_closed(&self) -> bool {
        self.closed
    }
}

/// Where this room's chat line numbers start (issue 22): drawn for each
/// room (and each time a room is made again, after a restart or on another
/// node), so that a number a page kept from before never names a line of
/// now. From a stream of its own, so the game's draws are unchanged; below
/// 2^44, so that every number is exact in JavaScript.
fn first_line(rng_seed: &[u8; 32]) -> u64 {
    let mut lines = ChaCha20Rng::from_seed(*rng_seed);
    lines.set_stream(0x6c69_6e65);
    lines.next_u64() >> 20
}
