//! Built-in bots at the table. Before the start the host seats them
//! (`add_bot`) and removes them (`remove_bot`). Once the game runs,
//! whenever a bot's seat must act the core asks for its move with
//! [`Effect::Think`], giving the seat's view and nothing else (R6.4), and
//! plays the answer through the same path as a person's action (checked,
//! stored, broadcast), no sooner than the bots' delay after the position
//! it answers, so that people can follow. An answer about an older
//! position is dropped, as a stale `act` would be refused.

use std::time::{Duration, Instant};

use splendor_protocol::bot_level::Level;
use splendor_rules::{Action, Seat, Viewer};
use tracing::{info, warn};
use uuid::Uuid;

use super::config::OnDeadline;
use super::core::RoomCore;
use super::effect::{Effect, Tally, Think};
use super::input::Caller;
use super::seats::Member;
use crate::error::RoomError;
use crate::session::SessionId;

/// A bot's turn: asked about, then answered, then played.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BotTurn {
    pub(crate) seat: Seat,
    /// The version of the position it was asked about.
    pub(crate) version: u64,
    /// The move may be played from then on (the bots' delay).
    pub(crate) ready_at: Instant,
    /// The move, once the thinking is done.
    pub(crate) answer: Option<Action>,
}

/// The stand-in of a player out of time plays as `greedy` (R12.2).
const STAND_IN: Level = Level::GREEDY;

/// After a bot's move could not be stored, the next try waits this long at
/// least (the store may be down; no busy loop).
const RETRY_AFTER_STORE_FAILURE: Duration = Duration::from_secs(1);

impl RoomCore {
    /// Seats a bot of `level` in the first free seat.
    pub(crate) fn add_bot(&mut self, caller: &Caller, level: &str) -> Result<(), RoomError> {
        self.check_host_before_start(caller)?;
        if self.rated {
            return Err(RoomError::RatedRoom);
        }
        let level: Level =
            level
                .parse()
                .map_err(|e: splendor_protocol::bot_level::UnknownLevel| {
                    RoomError::UnknownBotLevel(e.0)
                })?;
        let seat = self.people.free_seat().ok_or(RoomError::RoomFull)?;
        let id = SessionId(Uuid::from_u64_pair(self.random_u64(), self.random_u64()));
        let name = self.bot_name(level);
        info!(seat, %level, "bot seated");
        self.people.sit(seat, Member::bot(id, name, level));
        self.broadcast_room(Some((caller.conn, caller.request.clone())));
        Ok(())
    }

    /// A tutorial room's tutor (issue 50): a bot of the casual level in
    /// the first free seat, seated with the room.
    pub(crate) fn seat_tutor(&mut self) {
        self.tutorial_room = true;
        let Some(seat) = self.people.free_seat() else {
            return;
        };
        let level = Level::GREEDY;
        let id = SessionId(Uuid::from_u64_pair(self.random_u64(), self.random_u64()));
        let name = self.bot_name(level);
        info!(seat, %level, "tutor seated");
        self.people.sit(seat, Member::bot(id, name, level));
    }

    /// Frees the seat of the bot in `seat`.
    pub(crate) fn remove_bot(&mut self, caller: &Caller, seat: u8) -> Result<(), RoomError> {
        self.check_host_before_start(caller)?;
        if self.people.bot_at(usize::from(seat)).is_none() {
            return Err(RoomError::NotABot(seat));
        }
        self.people.free(usize::from(seat));
        info!(seat, "bot removed");
        self.broadcast_room(Some((caller.conn, caller.request.clone())));
        Ok(())
    }

    /// The seats of a room (and its start) are the host's, before the start.
    pub(crate) fn check_host_before_start(&self, caller: &Caller) -> Result<(), RoomError> {
        if !self.people.is_attached(caller.session, caller.conn) {
            return Err(RoomError::NotInRoom);
        }
        if self.running.is_some() {
            return Err(RoomError::GameAlreadyStarted);
        }
        if !self.people.is_host(caller.session) {
            return Err(RoomError::NotHost);
        }
        Ok(())
    }

    /// Whether the caller may invite `to` (issue 25): it sits here on this
    /// connection, the game has not started, a seat is free, and `to` has
    /// none.
    pub(crate) fn may_invite(
        &self,
        caller: &Caller,
        to: SessionId,
    ) -> Result<splendor_protocol::social::RoomTerms, RoomError> {
        if self
            .people
            .seat_of_conn(caller.session, caller.conn)
            .is_none()
        {
            return Err(RoomError::NotInRoom);
        }
        if self.running.is_some() {
            return Err(RoomError::GameAlreadyStarted);
        }
        if self.people.seat_of(to).is_some() {
            return Err(RoomError::AlreadySeated);
        }
        if self.people.free_seat().is_none() {
            return Err(RoomError::RoomFull);
        }
        Ok(self.terms())
    }

    /// "Strong bot", then "Strong bot 2", … so that names stay apart;
    /// "Level 3 bot" for a level named by its number.
    fn bot_name(&self, level: Level) -> String {
        let mut name = level.name().replace('-', " ");
        name[..1].make_ascii_uppercase();
        let base = format!("{name} bot");
        let taken = |n: &str| self.people.members().any(|m| m.name == n);
        (1..)
            .map(|k| {
                if k == 1 {
                    base.clone()
                } else {
                    format!("{base} {k}")
                }
            })
            .find(|n| !taken(n))
            .unwrap_or(base)
    }

    /// Who moves for the seat to act, if not a person: the bot's level, or
    /// the stand-in's (`greedy`, R12.2) for a player out of time.
    pub(crate) fn mover_level(&self) -> Option<(Seat, Level)> {
        let running = self.running.as_ref()?;
        let seat = running.game().to_act()?;
        if let Some(level) = self.people.bot_at(usize::from(seat)) {
            return Some((seat, level));
        }
        // R13.2: the stand-in plays a seat whose player resigned.
        if running.game().has_resigned(seat) {
            return Some((seat, STAND_IN));
        }
        let standing_in = running.clocks()?.standing_in == Some(seat);
        standing_in.then_some((seat, STAND_IN))
    }

    /// Starts the clock of the seat the game waits for (R12.1), if it does
    /// not run yet; stops every clock once the game is over.
    pub(crate) fn run_clock(&mut self, now: Instant) {
        if self.pending.is_some() || self.is_closed() {
            return;
        }
        let Some(running) = self.running.as_mut() else {
            return;
        };
        // R13.2: a resigned seat is played by the stand-in, on no clock.
        let to_act = running
            .game()
            .to_act()
            .filter(|&s| !running.game().has_resigned(s));
        let Some(clocks) = running.clocks_mut() else {
            return;
        };
        match to_act {
            None => clocks.stop(),
            Some(seat) => {
                let away = self
                    .people
                    .member(usize::from(seat))
                    .is_some_and(|m| m.conn.is_none());
                clocks.wait_for(seat, now, away);
            }
        }
    }

    /// R12.2: the running clock ran out: the stand-in takes over the turn,
    /// and everyone is shown the seat marked.
    pub(crate) fn clock_ran_out(&mut self, now: Instant) {
        if self.pending.is_some() {
            return; // No clock runs while an action is being stored.
        }
        let Some(clocks) = self.running.as_mut().and_then(|r| r.clocks_mut()) else {
            return;
        };
        if clocks.options.clock.on_deadline() == Some(OnDeadline::Resign) {
            let Some(seat) = clocks.lapse(now) else {
                return;
            };
            self.push(Effect::Count(Tally::ClockTimeout));
            // R12.5: the room says a passed deadline resigns the player
            // (R13); the write records it as the stand-in's.
            info!(seat, "deadline passed: the player resigns (R12.5, R13)");
            if let Err(e) = self.act_as(seat, Action::Resign, None, None) {
                warn!(seat, ?e, "the deadline's resignation was refused");
                self.broadcast_game(None, None);
            }
            return;
        }
        let Some((seat, out_of_time)) = clocks.expire(now) else {
            return;
        };
        self.push(Effect::Count(Tally::ClockTimeout));
        if out_of_time {
            info!(
                seat,
                "out of time: the stand-in plays the turn (R12.2, R12.5)"
            );
        } else {
            info!(
                seat,
                "away past the grace: the stand-in plays the turn, the bank is kept (R12.3)"
            );
        }
        self.broadcast_game(None, None);
    }

    /// Asks for a bot's move when a bot must act on a position it was not
    /// asked about yet. Called after every input.
    pub(crate) fn schedule_bot(&mut self, now: Instant) {
        if self.is_closed() || self.pending.is_some() {
            return;
        }
        // A tutorial's scripted moves, either seat's, come first (issue 50).
        if self.play_tutorial_step() {
            return;
        }
        let Some((seat, level)) = self.mover_level() else {
            self.bot_turn = None;
            return;
        };
        let Some(running) = self.running.as_ref() else {
            return;
        };
        let version = running.version();
        if self
            .bot_turn
            .is_some_and(|t| t.seat == seat && t.version == version)
        {
            return;
        }
        match self.bot_pause_until {
            Some(until) if now < until => return,
            Some(_) => self.bot_pause_until = None,
            None => {}
        }
        let view = running.game().view(Viewer::Seat(seat));
        let seed = self.random_u64();
        self.bot_turn = Some(BotTurn {
            seat,
            version,
            ready_at: now + self.config.bot_delay,
            answer: None,
        });
        // Issue 22: games with a person at the table think first; a table
        // whose people all left (the stand-in playing their seats) does
        // not.
        let for_people = self.people.connected_players() > 0;
        self.push(Effect::Think(Box::new(Think {
            hint: None,
            for_people,
            seat,
            version,
            level,
            view,
            seed,
        })));
    }

    /// Plays the tutorial script's next move when the room plays it (the
    /// moves before the first lesson, and the tutor's); whether it did.
    fn play_tutorial_step(&mut self) -> bool {
        let (Some(run), Some(running)) = (self.tutorial, self.running.as_ref()) else {
            return false;
        };
        let Some(step) = run.room_move(running.version(), running.game().to_act()) else {
            return false;
        };
        match self.act_as(step.seat, step.action, None, None) {
            Ok(()) => true,
            Err(e) => {
                warn!(
                    seat = step.seat,
                    ?e,
                    "a tutorial move was refused; the tutor plays on by its level"
                );
                self.tutorial = None;
                false
            }
        }
    }

    /// A bot's answer: played now, or kept until the bots' delay is over.
    pub(crate) fn bot_moved(
        &mut self,
        now: Instant,
        seat: Seat,
        version: u64,
        result: Result<Action, String>,
    ) {
        if !self
            .bot_turn
            .is_some_and(|t| t.seat == seat && t.version == version && t.answer.is_none())
        {
            return; // About a position that is gone, or answered already.
        }
        let action = match result {
            Ok(action) => action,
            Err(why) => {
                warn!(seat, %why, "a bot could not think; it plays its first legal move");
                let Some(action) = self.first_legal() else {
                    return;
                };
                action
            }
        };
        let Some(turn) = self.bot_turn.as_mut() else {
            return;
        };
        turn.answer = Some(action);
        if now >= turn.ready_at {
            self.play_bot(now);
        }
    }

    /// The bots' delay is over: play the answer, if it came.
    pub(crate) fn bot_due(&mut self, now: Instant) {
        if self
            .bot_turn
            .is_some_and(|t| t.answer.is_some() && now >= t.ready_at)
        {
            self.play_bot(now);
        }
    }

    /// When the answered bot move may be played (the timer's deadline).
    /// None while a write is in flight: the move waits for its outcome,
    /// and a deadline already past would only wake the room again and again.
    pub(crate) fn bot_deadline(&self) -> Option<Instant> {
        if self.pending.is_some() {
            return None;
        }
        match self.bot_turn {
            Some(t) if t.answer.is_some() => Some(t.ready_at),
            // Waiting out a store failure before asking again.
            _ if self.mover_level().is_some() => self.bot_pause_until,
            _ => None,
        }
    }

    fn play_bot(&mut self, now: Instant) {
        let Some(BotTurn {
            seat,
            version,
            answer: Some(action),
            ..
        }) = self.bot_turn
        else {
            return;
        };
        if self.pending.is_some() {
            return; // Played once the write in flight is done.
        }
        let outcome = self.act_as(seat, action, Some(version), None);
        if outcome.is_ok() {
            // Played: its write is in flight; the next position asks anew.
            self.bot_turn = None;
        }
        if let Err(e) = outcome {
            // Only a bug makes a bot's move illegal: play a legal one
            // rather than stall the table.
            warn!(seat, %action, error = %e, "a bot's move was refused");
            if let Some(legal) = self.first_legal()
                && let Err(e) = self.act_as(seat, legal, Some(version), None)
            {
                warn!(seat, error = %e, "no legal move could be played for a bot");
                self.bot_turn = None;
                self.bot_pause_until = Some(now + RETRY_AFTER_STORE_FAILURE);
            } else {
                self.bot_turn = None;
            }
        }
    }

    /// A bot's move could not be stored: ask again after a pause.
    pub(crate) fn bot_store_failed(&mut self, now: Instant) {
        self.bot_turn = None;
        self.bot_pause_until = Some(now + self.config.bot_delay.max(RETRY_AFTER_STORE_FAILURE));
    }

    fn first_legal(&mut self) -> Option<Action> {
        let running = self.running.as_ref()?;
        let mut legal = std::mem::take(&mut self.legal);
        running.game().legal_actions(&mut legal);
        let first = legal.first().copied();
        self.legal = legal;
        first
    }
}
