//! Requests about the game: start and act, each split at its durable
//! write: checked and prepared on the request, committed and broadcast when
//! the write's outcome comes back. Also the reload of a game whose stored
//! log is ahead of the room.

use std::time::Instant;

use splendor_protocol::{SeatOrder, Words};
use splendor_replay::{Commitment, Salt, Seed};
use splendor_rules::{Action, Events, Game, Options, Seat, seat_order};
use tracing::{debug, info, warn};

use super::clock::Clocks;
use super::core::{AcceptedAct, AfterResult, Pending, RoomCore};
use super::effect::{Answer, Effect, GameRecord, Mover, Tally, Write};
use super::input::{Caller, Ticket, WriteId};
use super::running::{Deal, Running};
use crate::error::RoomError;
use crate::write::{PersistError, PersistErrorKind};

/// Why a fenced room closed.
pub(crate) const FENCED: &str = crate::effect::CLOSED_MOVED;

/// A game replayed from its stored log: the game, its version, and every
/// action's events with who made it.
type Replayed = (Game, u64, Vec<(Mover, Events)>);

impl RoomCore {
    /// A tutorial's seats: two, a person's then a bot's (the tutor).
    fn tutorial_seats(&self) -> bool {
        self.people.len() == 2
            && self.people.member(0).is_some_and(|m| m.bot.is_none())
            && self.people.bot_at(1).is_some()
    }

    /// Checks a start and asks for the game's record to be stored.
    pub(crate) fn start(
        &mut self,
        ticket: Ticket,
        caller: Caller,
        order: SeatOrder,
    ) -> Result<(), RoomError> {
        self.check_host_before_start(&caller)?;
        self.start_unchecked(ticket, caller, order)
    }

    /// Starts the game without asking who asks: the host's `start`, or
    /// the gateway's `StartMatch` of a quick-play room.
    pub(crate) fn start_unchecked(
        &mut self,
        ticket: Ticket,
        caller: Caller,
        order: SeatOrder,
    ) -> Result<(), RoomError> {
        let seated = self.people.seated();
        if seated < 2 {
            return Err(RoomError::NotEnoughPlayers);
        }
        // A tutorial (issue 50) plays the prepared deal, the learner first,
        // when its seats are still the learner's and the tutor's.
        // Seats changed before the start (the tutor removed, a friend
        // seated): an ordinary game, and no longer a tutorial room.
        let order = if self.tutorial_room && self.tutorial_seats() {
            self.first_deal = Some(crate::tutorial::script().seed);
            self.tutorial = Some(crate::tutorial::TutorialRun { on_script: true });
            SeatOrder::Joined
        } else {
            self.tutorial_room = false;
            order
        };
        // R2.5: the deal drawn from the room's RNG, or the arena's.
        let drawn = self.random_u64();
        let seed = self.first_deal.take().unwrap_or(drawn);
        // R2.4: in join order the first to join plays first; in a random
        // order the first seat is drawn from the seed too.
        let options = Options {
            first_seat: (order == SeatOrder::Joined).then_some(0),
            // A new game is played by today's rulings (R11.6, R13.2).
            rulings: splendor_rules::Rulings::CURRENT,
        };
        let game = Game::new(seated as u8, options, seed)
            .map_err(|e| RoomError::internal(format!("game setup failed: {e}")))?;
        // R2.4: the seat order is random by default, drawn from the seed.
        let joined: Vec<usize> = (0..self.people.len())
            .filter(|&i| self.people.member(i).is_some())
            .collect();
        let order: Vec<usize> = match order {
            SeatOrder::Joined => joined,
            SeatOrder::Random => seat_order(seated as u8, seed)
                .map_err(|e| RoomError::internal(format!("seat order: {e}")))?
                .into_iter()
                .map(|k| joined[usize::from(k)])
                .collect(),
        };
        let members: Vec<_> = order
            .iter()
            .filter_map(|&i| self.people.member(i))
            .collect();
        let players = members.iter().map(|m| m.session).collect();
        let names: Vec<String> = members.iter().map(|m| m.name.clone()).collect();
        let bots: Vec<_> = members.iter().map(|m| m.bot).collect();
        let programs = members.iter().map(|m| m.program).collect();
        // R13.2 counts the built-in bots apart from people.
        let game = game.with_bots(splendor_rules::bot_mask(bots.iter().map(Option::is_some)));
        let clocks = self.clock.map(|options| {
            let clocks = Clocks::new(options, bots.iter().map(Option::is_some).collect())
                .with_min_grace(self.config.min_grace);
            // A quick-play or rematch room starts while its players'
            // connections are being moved in by the server: being away
            // does not count for the first turn (R12.3), so the first seat
            // starts with its whole bank (R12.1).
            if self.matched || self.people.fixed_host() {
                clocks.players_arriving()
            } else {
                clocks
            }
        });
        let id = self.random_game_id();
        // The salt makes the commitment to a 64-bit seed impossible to invert.
        let mut salt = Salt([0; 32]);
        self.random_fill(&mut salt.0);
        let deal = Deal {
            id,
            game,
            seed,
            options,
            salt,
            names: names.clone(),
        };
        let commitment = Commitment::of(Seed(seed), &salt);
        let running = Running::new(deal, clocks);
        // Persistence step: the game exists only once it is durable.
        self.write(
            Write::GameStarted(GameRecord {
                game: id,
                room: self.code,
                seed,
                salt,
                commitment,
                options,
                players,
                names,
                bots,
                programs,
                clock: self.clock,
                listed: self.listed,
                rated: self.rated,
            }),
            Pending::Start {
                ticket,
                caller,
                running: Box::new(running),
                order,
            },
        );
        Ok(())
    }

    /// Checks a person's action, applies it to a copy, and asks for it to
    /// be stored.
    pub(crate) fn act(
        &mut self,
        ticket: Ticket,
        caller: Caller,
        action: Action,
        expect_version: Option<u64>,
    ) -> Result<(), RoomError> {
        // 1. Who acts: a seated player on its current connection.
        let seat = self.acting_seat(&caller)?;
        if action == Action::Resign {
            return self.resign(ticket, caller);
        }
        // R13.2: the stand-in plays a seat whose player resigned.
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.game().has_resigned(seat as Seat))
        {
            return Err(RoomError::Resigned);
        }
        // R12.2: the stand-in makes the rest of a turn whose time ran out.
        if self
            .running
            .as_ref()
            .and_then(|r| r.clocks())
            .is_some_and(|c| c.standing_in == Some(seat as Seat))
        {
            return Err(RoomError::StandInTurn);
        }
        self.act_as(seat as Seat, action, expect_version, Some((ticket, caller)))
    }

    /// R13.1: the caller's seat resigns, whoever is to move (no version
    /// expected: it is not a move on a position). Stored and sent like
    /// every action; from then on the stand-in plays the seat (R13.2), or
    /// the game is over.
    pub(crate) fn resign(&mut self, ticket: Ticket, caller: Caller) -> Result<(), RoomError> {
        let seat = self.acting_seat(&caller)?;
        self.act_as(seat as Seat, Action::Resign, None, Some((ticket, caller)))
    }

    /// The seat of the caller, a seated player on its current connection;
    /// a spectator or a stranger is told why it may not act.
    pub(crate) fn acting_seat(&self, caller: &Caller) -> Result<usize, RoomError> {
        let (session, conn) = (caller.session, caller.conn);
        match self.people.seat_of_conn(session, conn) {
            Some(seat) => Ok(seat),
            None if self.people.spectator_of_conn(session, conn).is_some() => {
                Err(RoomError::SpectatorCannotAct)
            }
            None => Err(RoomError::NotInRoom),
        }
    }

    /// An action for `seat`, by the person who asked (`origin`) or by a
    /// bot (`None`): the one path every move takes.
    pub(crate) fn act_as(
        &mut self,
        seat: Seat,
        action: Action,
        expect_version: Option<u64>,
        origin: Option<(Ticket, Caller)>,
    ) -> Result<(), RoomError> {
        let running = self.running.as_ref().ok_or(RoomError::GameNotStarted)?;
        if running.game().is_over() {
            return Err(RoomError::GameOver);
        }
        // 2. On which state: a stale expectation applies nothing.
        if let Some(expected) = expect_version
            && expected != running.version()
        {
            return Err(RoomError::StaleVersion {
                current: running.version(),
                expected,
            });
        }
        // 3. Apply to a copy; a rule error leaves the game untouched (R11.3).
        let mut next = *running.game(); // `Game` is `Copy`: this is the copy.
        let events = next.apply(seat, action).map_err(|mut e| {
            debug!(seat, %action, code = e.code, "action rejected");
            // The rules know seats; players know names (issue 11).
            if e.code == "not_your_turn"
                && let Some(name) = running
                    .game()
                    .to_act()
                    .and_then(|s| running.names().get(usize::from(s)))
            {
                e.words = Words::new("rule-not-your-turn-named").text("name", name.clone());
            }
            RoomError::Rule(e)
        })?;
        // R12.1: the clock stops when the action is accepted (now), not
        // when it is stored.
        let by = if origin.is_some() {
            if self.hints.given_at(seat, running.version()) {
                Mover::Hinted
            } else {
                Mover::Person
            }
        } else if self.people.bot_at(usize::from(seat)).is_some() {
            Mover::Bot
        } else {
            Mover::StandIn
        };
        let clocks = running.clocks().cloned().map(|mut clocks| {
            if action == Action::Resign {
                // R13.1: out of turn the clocks go on as they were.
                clocks.resigned(seat, self.now);
            } else {
                let turn_ends = next.to_act() != Some(seat);
                clocks.accepted(seat, self.now, by.is_person(), turn_ends);
            }
            clocks
        });
        // A tutorial follows its script only while every move is its own.
        if let Some(run) = self.tutorial.as_mut() {
            run.saw(running.version(), seat, action);
        }
        // 4. Persistence step: durable before anyone sees it.
        let write = Write::ActionApplied {
            game: running.id(),
            index: running.version(),
            seat,
            action,
            by,
            clocks: clocks.as_ref().map(|c| c.seats.clone()),
        };
        self.write(
            write,
            Pending::Act(AcceptedAct {
                origin,
                next,
                events,
                clocks,
                by,
                accepted_at: self.now,
            }),
        );
        Ok(())
    }

    /// The outcome of the write in flight.
    pub(crate) fn written(&mut self, now: Instant, id: WriteId, outcome: Result<(), PersistError>) {
        let Some(pending) = self.take_pending(id) else {
            return;
        };
        if let Err(e) = &outcome
            && e.kind == PersistErrorKind::Fenced
        {
            return self.fenced(pending, e);
        }
        match pending {
            Pending::Start {
                ticket,
                caller,
                running,
                order,
            } => {
                if let Err(e) = outcome {
                    warn!(error = %e, "could not store the new game");
                    self.reply(ticket, Err(RoomError::from_persistence(&e)));
                    return;
                }
                self.people.seat_in_order(&order);
                info!(game = %running.id(), players = order.len(), "game started");
                self.running = Some(*running);
                self.push(Effect::Count(Tally::GameStarted));
                self.broadcast_room(Some((caller.conn, caller.request)));
                self.broadcast_game(None, None);
                self.reply(ticket, Ok(Answer::Done));
            }
            Pending::Act(act) => self.act_written(act, outcome, now),
            Pending::Result {
                then: AfterResult::ClosedByOperators { ticket, reason },
            } => self.game_ended(outcome, ticket, reason),
            Pending::Result {
                then: AfterResult::Deserted { result },
            } => self.deserted_written(outcome, result),
            Pending::Result { then } => {
                if let Err(e) = outcome {
                    if matches!(then, AfterResult::Close { .. }) {
                        warn!(error = %e, "could not store the result; a restart will");
                    } else {
                        warn!(error = %e, "could not store the result; trying again when the room closes");
                        if let Some(running) = self.running.as_mut() {
                            running.set_result_pending(true);
                        }
                    }
                } else if let Some(running) = self.running.as_mut() {
                    if running.result_pending() {
                        info!("the result is stored now");
                    }
                    running.set_result_pending(false);
                }
                self.after_result(then);
            }
            Pending::Park => self.park_written(now, outcome),
            Pending::Reload { ticket, .. } => {
                // A reload is answered by `LogLoaded`, never by `Written`.
                if let Some(ticket) = ticket {
                    self.reply(
                        ticket,
                        Err(RoomError::internal("a log load answered as a write")),
                    );
                }
            }
        }
    }

    fn act_written(&mut self, act: AcceptedAct, outcome: Result<(), PersistError>, now: Instant) {
        let AcceptedAct {
            origin,
            next,
            events,
            clocks,
            by,
            accepted_at,
        } = act;
        let Some(running) = self.running.as_mut() else {
            return;
        };
        if let Err(e) = outcome {
            let expected = running.version();
            warn!(error = %e, version = expected, "could not store an action; rejected");
            // R12.1: the time the store took is nobody's. The clock that
            // ran when the action was accepted runs on from where it was.
            if let Some(clocks) = running.clocks_mut() {
                clocks.shift(accepted_at, now);
            }
            let ticket = origin.map(|(ticket, _)| ticket);
            if e.kind == PersistErrorKind::Diverged {
                let game = running.id();
                self.write(
                    Write::LoadLog { game },
                    Pending::Reload { ticket, expected },
                );
            } else if let Some(ticket) = ticket {
                self.reply(ticket, Err(RoomError::from_persistence(&e)));
            } else {
                self.bot_store_failed(now);
            }
            return;
        }
        // 5. Commit: the copy becomes the game.
        running.commit(next, clocks, by, events, now);
        debug!(version = running.version(), "action applied");
        let result = running.game().result();
        let game = running.id();
        self.push(Effect::Count(Tally::ActionApplied));
        match by {
            Mover::Person | Mover::Hinted => {}
            Mover::Bot => self.push(Effect::Count(Tally::BotAction)),
            Mover::StandIn => self.push(Effect::Count(Tally::StandInAction)),
        }
        let then = AfterResult::Act { origin, events };
        match result {
            Some(result) => {
                self.push(Effect::Count(Tally::GameFinished));
                info!(winners = ?result.winners, deadlock = result.deadlock, "game over");
                self.write(
                    Write::GameFinished { game, result },
                    Pending::Result { then },
                );
            }
            None => self.after_result(then),
        }
    }

    /// The step after a result was stored (or there was none to store).
    fn after_result(&mut self, then: AfterResult) {
        let over = self.running.as_ref().is_some_and(|r| r.game().is_over());
        match then {
            AfterResult::Act { origin, events } => {
                // 6. Broadcast: everyone gets their own events and view.
                let (ticket, echo) = match origin {
                    Some((ticket, caller)) => (Some(ticket), Some((caller.conn, caller.request))),
                    None => (None, None),
                };
                self.broadcast_game(Some(&events), echo);
                if over {
                    self.broadcast_room(None);
                }
                if let Some(ticket) = ticket {
                    self.reply(ticket, Ok(Answer::Done));
                }
            }
            AfterResult::Reload { ticket, expected } => {
                self.broadcast_game(None, None);
                if over {
                    self.broadcast_room(None);
                }
                let current = self.running.as_ref().map_or(expected, |r| r.version());
                if let Some(ticket) = ticket {
                    self.reply(ticket, Err(RoomError::StaleVersion { current, expected }));
                }
            }
            AfterResult::Close { why } => self.finish_close(why),
            // Handled where its write's outcome arrives (deserted.rs).
            AfterResult::Deserted { .. } => {}
            AfterResult::ClosedByOperators { ticket, .. } => {
                // Handled where its write's outcome arrives (closing.rs).
                self.reply(
                    ticket,
                    Err(RoomError::internal("an operators' close out of turn")),
                );
            }
        }
    }

    /// Another server owns the room now (its lease is newer): nothing was
    /// stored, and this room stops at once. Whoever waits for an answer
    /// gets `room_closed`; everyone is told to reconnect, which finds the
    /// room where it lives now.
    fn fenced(&mut self, pending: Pending, error: &PersistError) {
        warn!(error = %error, "fenced: another server holds the room");
        let ticket = match pending {
            Pending::Start { ticket, .. } => Some(ticket),
            Pending::Act(act) => act.origin.map(|(ticket, _)| ticket),
            Pending::Result { then } => match then {
                AfterResult::Act { origin, .. } => origin.map(|(ticket, _)| ticket),
                AfterResult::Reload { ticket, .. } => ticket,
                AfterResult::Close { .. } => None,
                AfterResult::ClosedByOperators { ticket, .. } => Some(ticket),
                AfterResult::Deserted { .. } => None,
            },
            Pending::Reload { ticket, .. } => ticket,
            Pending::Park => None,
        };
        if let Some(ticket) = ticket {
            self.reply(ticket, Err(RoomError::RoomClosed));
        }
        self.finish_close(FENCED);
    }

    /// The stored log, read after the store said it is ahead of the room:
    /// the store is the source of truth, so the game becomes its replay and
    /// everyone gets the new state.
    pub(crate) fn log_loaded(
        &mut self,
        now: Instant,
        id: WriteId,
        log: Result<Vec<(Seat, Action)>, PersistError>,
    ) {
        let Some(pending) = self.take_pending(id) else {
            return;
        };
        if let Err(e) = &log
            && e.kind == PersistErrorKind::Fenced
        {
            return self.fenced(pending, e);
        }
        let Pending::Reload { ticket, expected } = pending else {
            warn!("a log arrived for a write that was not a load");
            return;
        };
        match self.replayed(log) {
            Err(e) => match ticket {
                Some(ticket) => self.reply(ticket, Err(e)),
                // A bot's move: ask again after a pause, not at once.
                None => self.bot_store_failed(now),
            },
            Ok((game, version, history)) => {
                let Some(running) = self.running.as_mut() else {
                    return;
                };
                info!(
                    from = running.version(),
                    to = version,
                    "game reloaded from the store"
                );
                let then = AfterResult::Reload { ticket, expected };
                if running.reload(game, version, history, now)
                    && let Some(result) = running.game().result()
                {
                    let game = running.id();
                    self.write(
                        Write::GameFinished { game, result },
                        Pending::Result { then },
                    );
                    return;
                }
                self.after_result(then);
            }
        }
    }

    /// The room's game replayed from a stored log, and its version.
    fn replayed(
        &self,
        log: Result<Vec<(Seat, Action)>, PersistError>,
    ) -> Result<Replayed, RoomError> {
        let running = self.running.as_ref().ok_or(RoomError::GameNotStarted)?;
        let log = log.map_err(|e| {
            warn!(error = %e, "could not reload the game from the store");
            RoomError::from_persistence(&e)
        })?;
        // Never back in time: a shorter log means the store lost actions,
        // and replaying it would deal again cards everyone has seen (R6.4).
        if (log.len() as u64) < running.version() {
            return Err(RoomError::internal(format!(
                "the stored log has {} actions, the game {}; keeping the game in memory",
                log.len(),
                running.version()
            )));
        }
        let mut game = Game::new(running.game().players(), running.options(), running.seed())
            .map_err(|e| RoomError::internal(format!("the stored game cannot be set up: {e}")))?
            .with_bots(running.game().bots());
        let mut history = Vec::with_capacity(log.len());
        for (seq, &(seat, action)) in log.iter().enumerate() {
            let events = game.apply(seat, action).map_err(|e| {
                RoomError::internal(format!(
                    "the stored log does not replay at {seq} ({e}); keeping the game in memory"
                ))
            })?;
            // Who made each action is kept for those the room saw; the
            // stored log's own record of it is not read back here.
            let by = running
                .history()
                .get(seq)
                .map_or(Mover::Person, |&(by, _)| by);
            history.push((by, events));
        }
        Ok((game, log.len() as u64, history))
    }
}
