//! The room task: a thin driver around the [`RoomCore`]. It owns what the
//! core must not: the connections (by id), the reply channels (by ticket),
//! the persistence, the clock, and what the lobby reads (the listing, the
//! counters). It feeds the core one input at a time and carries out the
//! effects in order.
//!
//! The order of a step: read one command (or wake for the core's deadline),
//! hand it to the core, then carry out every effect it gave. A write is
//! awaited where it stands in that order and its outcome fed back at once,
//! so nothing the write is for reaches anyone before it is durable.
//!
//! A command that arrives during a write waits in the bounded command
//! channel (behind it, callers wait too: backpressure on connections, never
//! on the room) and is read once the write's outcome has been handled: the
//! core then decides it on the state the write left, exactly as if it had
//! arrived a moment later. Timers are still served during a write: the
//! sleep runs beside it and the core decides what a timer does while a
//! write is in flight (the expiry never fires then; a turn clock stops when
//! an action is accepted, R12.1, so the time to store it is not the
//! player's).

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant as StdInstant;

use splendor_protocol::RoomSummary;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::{Instant, sleep_until};

use super::effect::{Answer, Closed, Effect, Tally, Write};
use super::handle::Command;
use super::input::{DriverEvent, Request, Ticket, WriteId};
use crate::conn::{ConnId, Connection};
use crate::error::LobbyError;
use crate::lobby::{Occupancy, Stats};
use crate::persist::{ActionMeta, GameStart, Persistence};
use crate::session::BoxFuture;
use splendor_room::RoomCore;

/// The room task's state besides the core.
pub(crate) struct Driver {
    core: RoomCore,
    /// The connections the core addresses, by id.
    conns: HashMap<ConnId, Connection>,
    /// Who waits for which answer.
    replies: HashMap<Ticket, oneshot::Sender<Result<Answer, LobbyError>>>,
    /// Effects the core gave while a write was in flight that must wait
    /// for it (another write, the room's end): carried out, in order,
    /// right after it.
    deferred: VecDeque<Effect>,
    next_ticket: u64,
    persistence: Arc<dyn Persistence>,
    /// What the lobby lists for this room.
    summary: watch::Sender<RoomSummary>,
    /// The lobby's counters of games and actions, and the thinking pool.
    stats: Arc<Stats>,
    /// The bot move being thought about on the pool, if any. A newer one
    /// replaces it (the older answer would be stale).
    thinking: Option<BoxFuture<'static, DriverEvent>>,
    /// Who is in the room, for the metrics.
    occupancy: Arc<Occupancy>,
    /// When the `act` being handled reached the room.
    act_started: Option<Instant>,
}

/// The driver's clock, as the core takes it (tokio's, so that tests with
/// paused time control it).
fn now() -> StdInstant {
    Instant::now().into_std()
}

impl Driver {
    /// A driver for `core`, whose first effects are still to be carried
    /// out; `conns` are the connections the core already addresses.
    pub(crate) fn new(
        core: RoomCore,
        conns: Vec<Connection>,
        persistence: Arc<dyn Persistence>,
        (stats, occupancy): (Arc<Stats>, Arc<Occupancy>),
    ) -> (Driver, watch::Receiver<RoomSummary>) {
        let (summary, summary_rx) = watch::channel(core.summary().clone());
        let driver = Driver {
            core,
            conns: conns.into_iter().map(|c| (c.id(), c)).collect(),
            replies: HashMap::new(),
            deferred: VecDeque::new(),
            next_ticket: 1,
            persistence,
            summary,
            stats,
            thinking: None,
            occupancy,
            act_started: None,
        };
        (driver, summary_rx)
    }

    /// The room task. Ends when the room closes, with why and whose
    /// sessions it held; the lobby then forgets the room.
    pub(crate) async fn run(mut self, mut commands: mpsc::Receiver<Command>) -> Closed {
        loop {
            if let Some(closed) = self.carry_out().await {
                return self.finish(closed, &mut commands);
            }
            self.after_step();
            let deadline = self.core.poll_timeout();
            tokio::select! {
                command = commands.recv() => match command {
                    Some(command) => self.accept(command),
                    None => self.core.handle_event(now(), DriverEvent::HandlesGone),
                },
                () = sleep_until_or_never(deadline) => self.core.handle_timeout(now()),
                event = next_thought(&mut self.thinking) => {
                    self.thinking = None;
                    self.core.handle_event(now(), event);
                }
            }
        }
    }

    /// What the metrics read: the action's latency, who is in the room.
    fn after_step(&mut self) {
        if let Some(started) = self.act_started.take() {
            self.stats.action_latency.record(started.elapsed());
        }
        let [connected, seated, bots, spectators] = self.core.occupancy();
        let o = &self.occupancy;
        o.connected.store(connected, Ordering::Relaxed);
        o.seated.store(seated, Ordering::Relaxed);
        o.bots.store(bots, Ordering::Relaxed);
        o.spectators.store(spectators, Ordering::Relaxed);
    }

    fn accept(&mut self, command: Command) {
        match command {
            Command::Call {
                caller,
                request,
                conn,
                reply,
            } => {
                if let Request::Join { .. } = request {
                    match conn {
                        Some(conn) if conn.id() == caller.conn => {
                            self.conns.insert(conn.id(), conn);
                        }
                        _ => {
                            if let Some(reply) = reply {
                                let _ = reply.send(Err(LobbyError::internal(
                                    "a join without the caller's connection",
                                )));
                            }
                            return;
                        }
                    }
                }
                if let Request::Act { .. } = request {
                    self.act_started = Some(Instant::now());
                }
                let ticket = Ticket(self.next_ticket);
                self.next_ticket += 1;
                if let Some(reply) = reply {
                    self.replies.insert(ticket, reply);
                }
                self.core.handle_request(now(), ticket, caller, request);
            }
            Command::Probe { reply } => {
                let _ = reply.send(self.core.probe());
            }
        }
    }

    /// Carries out the core's effects in order, awaiting each write where
    /// it stands. Returns once the core has nothing more to do, or closed.
    async fn carry_out(&mut self) -> Option<Closed> {
        while let Some(effect) = self
            .deferred
            .pop_front()
            .or_else(|| self.core.poll_effect())
        {
            match effect {
                Effect::Write { id, write } => {
                    let event = self.perform(id, write).await;
                    self.core.handle_event(now(), event);
                }
                Effect::Closed(closed) => return Some(closed),
                other => self.immediate(other),
            }
        }
        None
    }

    /// Performs a write, serving the core's timers meanwhile.
    async fn perform(&mut self, id: WriteId, write: Write) -> DriverEvent {
        let persistence = self.persistence.clone();
        let outcome = perform(persistence, id, write);
        tokio::pin!(outcome);
        loop {
            let deadline = self.core.poll_timeout();
            tokio::select! {
                event = &mut outcome => return event,
                () = sleep_until_or_never(deadline) => {
                    self.core.handle_timeout(now());
                    // What needs no waiting goes out now; a write or the
                    // room's end waits for the write in flight, in order.
                    while let Some(effect) = self.core.poll_effect() {
                        if matches!(effect, Effect::Write { .. } | Effect::Closed(_))
                            || !self.deferred.is_empty()
                        {
                            self.deferred.push_back(effect);
                        } else {
                            self.immediate(effect);
                        }
                    }
                }
            }
        }
    }

    /// Carries out an effect that needs no waiting.
    fn immediate(&mut self, effect: Effect) {
        match effect {
            Effect::Reply { ticket, result } => {
                if let Some(reply) = self.replies.remove(&ticket) {
                    let _ = reply.send(result);
                }
            }
            Effect::Send { to, message } => {
                let delivered = self.conns.get(&to).is_some_and(|c| c.send(message).is_ok());
                if !delivered {
                    // Too slow (now closed) or gone: the room lets it go.
                    self.conns.remove(&to);
                    self.core
                        .handle_event(now(), DriverEvent::Undeliverable { conn: to });
                }
            }
            Effect::Close { conn, reason } => {
                if let Some(conn) = self.conns.get(&conn) {
                    conn.close(reason);
                }
            }
            Effect::Release { conn } => {
                self.conns.remove(&conn);
            }
            Effect::Listed(summary) => {
                self.summary.send_replace(summary);
            }
            Effect::Count(tally) => Stats::add(match tally {
                Tally::GameStarted => &self.stats.games_started,
                Tally::ActionApplied => &self.stats.actions_applied,
                Tally::GameFinished => &self.stats.games_finished,
                Tally::BotAction => &self.stats.bot_actions,
                Tally::StandInAction => &self.stats.stand_in_actions,
                Tally::ClockTimeout => &self.stats.clock_timeouts,
            }),
            Effect::Think(job) => {
                let pool = self.stats.pool.clone();
                self.thinking = Some(Box::pin(async move { pool.think(job).await }));
            }
            Effect::Write { .. } | Effect::Closed(_) => {
                // `carry_out` and `perform` keep these in their place.
                debug_assert!(false, "a write or a close outside the step order");
                self.deferred.push_back(effect);
            }
        }
    }

    /// The room is closed: new requests are refused from now on, queued
    /// ones fail with `room_closed`, and everyone attached is told.
    fn finish(self, closed: Closed, commands: &mut mpsc::Receiver<Command>) -> Closed {
        commands.close();
        // Dropping the queued commands drops their reply senders: each
        // waiting caller gets `room_closed`.
        while commands.try_recv().is_ok() {}
        for conn in &closed.farewell {
            if let Some(conn) = self.conns.get(conn) {
                let _ = conn.send(closed.notice.clone());
            }
        }
        closed
    }
}

/// Carries out one write against the persistence.
async fn perform(persistence: Arc<dyn Persistence>, id: WriteId, write: Write) -> DriverEvent {
    let outcome = match write {
        Write::GameStarted(record) => {
            persistence
                .game_started(GameStart {
                    game: record.game,
                    room: record.room,
                    seed: record.seed,
                    salt: record.salt,
                    commitment: record.commitment,
                    options: record.options,
                    players: &record.players,
                    names: &record.names,
                    bots: &record.bots,
                    clock: record.clock,
                    listed: record.listed,
                    rated: record.rated,
                })
                .await
        }
        Write::ActionApplied {
            game,
            index,
            seat,
            action,
            by,
            clocks,
        } => {
            let meta = ActionMeta { by, clocks };
            persistence
                .action_applied(game, index, seat, action, meta)
                .await
        }
        Write::GameFinished { game, result } => persistence.game_finished(game, &result).await,
        Write::LoadLog { game } => {
            let log = persistence.stored_log(game).await;
            return DriverEvent::LogLoaded { id, log };
        }
    };
    DriverEvent::Written { id, outcome }
}

/// The answer of the bot move being thought about, or never.
async fn next_thought(thinking: &mut Option<BoxFuture<'static, DriverEvent>>) -> DriverEvent {
    match thinking {
        Some(thought) => thought.await,
        None => std::future::pending().await,
    }
}

/// Sleeps until `deadline` (as the core's clock gives it), or forever.
pub(crate) async fn sleep_until_or_never(deadline: Option<StdInstant>) {
    match deadline {
        Some(deadline) => sleep_until(Instant::from_std(deadline)).await,
        None => std::future::pending().await,
    }
}
