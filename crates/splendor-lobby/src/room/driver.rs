//! The room task: a thin driver around the [`RoomCore`]. It owns what the
//! core must not: the connections (by id), the reply channels (by ticket),
//! the persistence, the clock, and what the lobby reads (the listing, the
//! counters). It feeds the core one input at a time and carries out the
//! effects in order.
//!
//! The order of a step: read one command (or wake for the core's deadline,
//! or a bot's answer), hand it to the core, then carry out its effects in
//! order. A write ([`Effect::Write`]) stops that: it is handed to the
//! persistence as it is and polled in the same `select!` as everything
//! else, and until its outcome is fed back the driver reads no command and
//! no bot answer, and carries out no further effect. So nothing the write
//! is for reaches anyone before it is durable, and a command that arrives
//! meanwhile waits in the bounded command channel (behind it, callers wait
//! too: backpressure on connections, never on the room) and is decided on
//! the state the write left. The core holds no timer while a write is in
//! flight (a turn clock stops when an action is accepted, R12.1, so the
//! time to store it is not the player's).

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant as StdInstant;

use splendor_protocol::RoomSummary;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::{Instant, sleep_until};

use super::Occupancy;
use super::effect::{Answer, Closed, Effect, Tally, Write};
use super::handle::{Call, Command};
use super::input::{DriverEvent, Request, Ticket, WriteId};
use crate::conn::{ConnId, Connection};
use crate::error::RoomError;
use crate::lobby::Stats;
use crate::persist::Stored;
use crate::persist::{PersistError, Persistence};
use crate::session::BoxFuture;
use splendor_room::RoomCore;

/// The room task's state besides the core.
pub(crate) struct Driver {
    core: RoomCore,
    /// The connections the core addresses, by id.
    conns: HashMap<ConnId, Connection>,
    /// Who waits for which answer.
    replies: HashMap<Ticket, oneshot::Sender<Result<Answer, RoomError>>>,
    /// The write in flight, if any: its outcome is the core's next input.
    writing: Option<BoxFuture<'static, DriverEvent>>,
    next_ticket: u64,
    persistence: Arc<dyn Persistence>,
    /// The epoch of the room's lease when the room directory keeps leases
    /// the store checks (issue 21): every write names it.
    fence: Option<u64>,
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
    /// The address the room was made from, whose tables of bots only
    /// think within a budget (issue 45); `None` for a room of no counted
    /// address.
    client: Option<crate::ClientKey>,
}

/// The driver's clock, as the core takes it (tokio's, so that tests with
/// paused time control it).
fn now() -> StdInstant {
    Instant::now().into_std()
}

/// What a room task is given besides its core.
pub(crate) struct DriverSetup {
    /// Where its writes go.
    pub(crate) persistence: Arc<dyn Persistence>,
    /// The epoch of its lease when the directory fences writes (several
    /// nodes), which every write names.
    pub(crate) fence: Option<u64>,
    /// The lobby's counters and the thinking pool.
    pub(crate) stats: Arc<Stats>,
    /// Who is in the room, which the task keeps up to date.
    pub(crate) occupancy: Arc<Occupancy>,
    /// The client the room was made from, whose budget its bots-only
    /// thinking counts against (issue 45).
    pub(crate) client: Option<crate::ClientKey>,
}

impl Driver {
    /// A driver for `core`, whose first effects are still to be carried
    /// out; `conns` are the connections the core already addresses.
    pub(crate) fn new(
        core: RoomCore,
        conns: Vec<Connection>,
        setup: DriverSetup,
    ) -> (Driver, watch::Receiver<RoomSummary>) {
        let DriverSetup {
            persistence,
            fence,
            stats,
            occupancy,
            client,
        } = setup;
        let (summary, summary_rx) = watch::channel(core.summary().clone());
        let driver = Driver {
            core,
            conns: conns.into_iter().map(|c| (c.id(), c)).collect(),
            replies: HashMap::new(),
            writing: None,
            next_ticket: 1,
            persistence,
            fence,
            summary,
            stats,
            thinking: None,
            occupancy,
            act_started: None,
            client,
        };
        (driver, summary_rx)
    }

    /// The room task. Ends when the room closes, with why and whose
    /// sessions it held; the lobby then forgets the room.
    pub(crate) async fn run(mut self, mut commands: mpsc::Receiver<Command>) -> Closed {
        // One timer, moved to the core's next timeout when it changes
        // (issue 20: not a timer made anew for every command).
        let timer = sleep_until(Instant::now());
        tokio::pin!(timer);
        loop {
            if self.writing.is_none() {
                if let Some(closed) = self.carry_out() {
                    return self.finish(closed, &mut commands);
                }
                if self.writing.is_none() {
                    self.after_step();
                }
            }
            let deadline = self.core.poll_timeout().map(Instant::from_std);
            if let Some(deadline) = deadline
                && timer.deadline() != deadline
            {
                timer.as_mut().reset(deadline);
            }
            let idle = self.writing.is_none();
            tokio::select! {
                event = next_event(&mut self.writing) => {
                    self.writing = None;
                    self.core.handle_event(now(), event);
                }
                command = commands.recv(), if idle => match command {
                    Some(command) => self.accept(command),
                    None => self.core.handle_event(now(), DriverEvent::HandlesGone),
                },
                () = &mut timer, if deadline.is_some() => self.core.handle_timeout(now()),
                event = next_event(&mut self.thinking), if idle => {
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
            Command::Call(call) => {
                let Call {
                    caller,
                    mut request,
                    conn,
                    reply,
                } = *call;
                // A join the player made claims the seat under the room's
                // lease now (issue 44): later than any claim made under an
                // earlier owner, which the database ordered.
                if let Request::Join {
                    claim: claim @ None,
                    ..
                } = &mut request
                {
                    *claim = Some(self.fence.unwrap_or(0));
                }
                if let Request::Join { .. } = request {
                    match conn {
                        Some(conn) if conn.id() == caller.conn => {
                            self.conns.insert(conn.id(), conn);
                        }
                        _ => {
                            if let Some(reply) = reply {
                                let _ = reply.send(Err(RoomError::internal(
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
            Command::LeaseLost => self.core.handle_event(now(), DriverEvent::LeaseLost),
            Command::HandOff => self.core.handle_event(now(), DriverEvent::HandOff),
        }
    }

    /// Carries out the core's effects in order, up to a write (which is
    /// then in flight) or the room's end.
    fn carry_out(&mut self) -> Option<Closed> {
        while let Some(effect) = self.core.poll_effect() {
            match effect {
                Effect::Write { id, write } => {
                    self.writing = Some(Box::pin(perform(
                        self.persistence.clone(),
                        self.fence,
                        id,
                        *write,
                    )));
                    return None;
                }
                Effect::Closed(closed) => return Some(closed),
                other => self.immediate(other),
            }
        }
        None
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
                // Issue 45: with no person connected the room is a table
                // of bots only, and its move thinks within its address's
                // budget; with one, it does not wait.
                let gate = match &self.client {
                    Some(client) if !job.for_people => {
                        Some((self.stats.bot_tables.clone(), client.clone()))
                    }
                    _ => None,
                };
                self.thinking = Some(Box::pin(async move {
                    let _turn = match gate {
                        Some((gate, client)) => Some(gate.turn(&client).await),
                        None => None,
                    };
                    pool.think(*job).await
                }));
            }
            Effect::Notify(notice) => {
                if let Some(notifier) = self.stats.notifier.get() {
                    notifier.notify(self.core.code(), notice);
                }
            }
            // `carry_out` keeps these in their place.
            Effect::Write { .. } | Effect::Closed(_) => {}
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

/// Carries out one write against the persistence: what the core hears.
async fn perform(
    persistence: Arc<dyn Persistence>,
    fence: Option<u64>,
    id: WriteId,
    write: Write,
) -> DriverEvent {
    let load = matches!(write, Write::LoadLog { .. });
    let outcome = match fence {
        Some(epoch) => persistence.write_fenced(write, epoch).await,
        None => persistence.write(write).await,
    };
    if load {
        let log = outcome.and_then(|stored| match stored {
            Stored::Log(log) => Ok(log),
            Stored::Done => Err(PersistError::failed("the store gave no log")),
        });
        DriverEvent::LogLoaded { id, log }
    } else {
        DriverEvent::Written {
            id,
            outcome: outcome.map(drop),
        }
    }
}

/// What a future in flight (the write, or a bot's thinking) comes to, or
/// never when there is none.
async fn next_event(future: &mut Option<BoxFuture<'static, DriverEvent>>) -> DriverEvent {
    match future {
        Some(future) => future.await,
        None => std::future::pending().await,
    }
}
