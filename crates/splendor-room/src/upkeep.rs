//! What runs after every input to the room core: the bots' turn, the quiet
//! clocks (no player connected; nobody attached at all), what the lobby
//! lists, and the timers (expiry, the bots' delay, the turn clock).

use std::time::Instant;

use splendor_protocol::RoomSummary;

use super::clock::Clocks;
use super::core::RoomCore;
use super::effect::Effect;
use super::timers::{ExpiryInputs, RoomTimer, expiry};

impl RoomCore {
    /// After every input: the bots, the quiet clock, what the lobby lists,
    /// the timers.
    pub(crate) fn after_input(&mut self, now: Instant) {
        self.run_clock(now);
        self.schedule_bot(now);
        self.notify_away();
        // A game that a bot is moving is not abandoned, whoever is
        // connected; a host who watches counts as present.
        if self.people.connected_players() > 0
            || self.mover_level().is_some()
            || self.people.host_watching()
        {
            self.quiet_since = None;
        } else if self.quiet_since.is_none() {
            self.quiet_since = Some(now);
        }
        if self.people.connected_players() > 0 || !self.people.spectators().is_empty() {
            self.empty_since = None;
        } else {
            self.empty_since.get_or_insert(now);
        }
        let summary = self.current_summary();
        // A closed room lists nothing: the lobby forgets it.
        if summary != self.summary && !self.closed {
            self.summary = summary.clone();
            self.effects.push_back(Effect::Listed(summary));
        }
        // A room never expires with a write in flight: it closes once it
        // knows the write's outcome.
        let deadline = if self.closed || self.pending.is_some() {
            None
        } else {
            expiry(
                &self.config,
                &ExpiryInputs {
                    status: self.status(),
                    finished_at: self.running.as_ref().and_then(|r| r.finished_at()),
                    quiet_since: self.quiet_since,
                    last_activity: self.last_activity,
                    empty_since: self.empty_since,
                    turn_based: self.clock.is_some_and(|c| c.clock.is_per_move()),
                },
            )
        };
        self.timers.set(RoomTimer::Expiry, deadline);
        let bot = if self.closed {
            None
        } else {
            self.bot_deadline()
        };
        self.timers.set(RoomTimer::BotMove, bot);
        // No clock runs out while an action is being stored (R12.1).
        let clock = match &self.running {
            Some(r) if !self.closed && self.pending.is_none() => {
                r.clocks().and_then(Clocks::deadline)
            }
            _ => None,
        };
        self.timers.set(RoomTimer::TurnClock, clock);
        let park = self.park_deadline();
        self.timers.set(RoomTimer::Park, park);
        let deserted = self.deserted_deadline(now);
        self.timers.set(RoomTimer::Deserted, deserted);
    }

    pub(crate) fn current_summary(&self) -> RoomSummary {
        RoomSummary {
            code: self.code.to_string(),
            host: self.people.host_name(),
            seats: self.people.len() as u8,
            players: self.people.seated() as u8,
            programs: self
                .people
                .slots()
                .iter()
                .flatten()
                .filter(|m| m.program)
                .count() as u8,
            status: self.status(),
        }
    }
}
