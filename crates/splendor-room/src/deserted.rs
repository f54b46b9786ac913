//! R12.6: a deserted game. In a room with a short clock (R12.1, bank and
//! increment both under an hour; not a turn-based room of R12.5), when for
//! 2 minutes in a row no player still in play (a person or a program: not
//! a built-in bot, a spectator or a seat that resigned) has a connection in
//! the room, the game ends as deserted: unrated, those in play ranked by
//! R10.3 and R10.4 where it stands, the resigned below them (R13.1);
//! stored and replayable like any other. The 2 minutes run only while this
//! room's core holds the game: a restart or a takeover starts them afresh
//! (a new core). A game of built-in bots only is never deserted.
//!
//! Once the end is stored, everyone still in the room gets the `result`
//! and the room closes (`closed-deserted`): nobody in play was there to
//! look at it, and the game is in the history and the replays.

use std::time::{Duration, Instant};

use tracing::{info, warn};

use crate::core::{AfterResult, Pending, RoomCore};
use crate::effect::Write;
use crate::write::PersistError;

/// R12.6: a clock is short when its bank and its increment are both under
/// this.
pub const SHORT_CLOCK: Duration = Duration::from_secs(60 * 60);

/// Why the room of a deserted game closes (`closed-deserted`).
pub const CLOSED_DESERTED: &str = "closed-deserted";

impl RoomCore {
    /// Whether R12.6 watches this room now: a running game, not over, with
    /// a short clock, and a person or program in play.
    fn deserted_watched(&self) -> bool {
        let Some(running) = self.running.as_ref() else {
            return false;
        };
        let short = self.clock.is_some_and(|c| {
            !c.clock.is_per_move()
                && c.clock.bank() < SHORT_CLOCK
                && c.clock.increment() < SHORT_CLOCK
        });
        if !short || running.game().is_over() {
            return false;
        }
        self.people_in_play().next().is_some()
    }

    /// The seats in play held by a person or a program, with whether each
    /// has a connection in the room.
    fn people_in_play(&self) -> impl Iterator<Item = bool> + '_ {
        let game = self.running.as_ref().map(|r| r.game());
        self.people
            .slots()
            .iter()
            .enumerate()
            .filter_map(move |(seat, m)| {
                let m = m.as_ref()?;
                let in_play = game.is_some_and(|g| !g.has_resigned(seat as u8));
                (in_play && m.bot.is_none()).then_some(m.conn.is_some())
            })
    }

    /// After every input: since when nobody in play is connected (R12.6),
    /// and when the game is deserted if nobody comes back.
    pub(crate) fn deserted_deadline(&mut self, now: Instant) -> Option<Instant> {
        let deserted = self.deserted_watched() && !self.people_in_play().any(|connected| connected);
        if !deserted {
            self.deserted_since = None;
            return None;
        }
        let since = *self.deserted_since.get_or_insert(now);
        // No end while a write is in flight: it is armed again after.
        (self.pending.is_none() && !self.closed).then_some(since + self.config.deserted_after)
    }

    /// The deserted timer fired: end the game (R12.6).
    pub(crate) fn desert(&mut self, now: Instant) {
        if self.pending.is_some() || self.closed || !self.deserted_watched() {
            return;
        }
        if self.people_in_play().any(|connected| connected) {
            return;
        }
        let Some(running) = self.running.as_ref() else {
            return;
        };
        let since = self.deserted_since.map_or(Duration::ZERO, |s| now - s);
        let result = running.game().deserted();
        let game = running.id();
        info!(%game, away_s = since.as_secs(), "nobody in play connected: the game ends deserted, unrated (R12.6)");
        self.write(
            Write::GameDeserted {
                game,
                result: result.clone(),
            },
            Pending::Result {
                then: AfterResult::Deserted { result },
            },
        );
    }

    /// The deserted end is stored (or not): everyone still here gets the
    /// result and the room closes; or the game goes on, to be tried again.
    pub(crate) fn deserted_written(
        &mut self,
        outcome: Result<(), PersistError>,
        result: splendor_rules::GameResult,
    ) {
        if let Err(e) = outcome {
            warn!(error = %e, "the deserted end could not be stored; the game goes on (R12.6)");
            self.deserted_since = None;
            return;
        }
        if let Some(message) = self.result_message_for(&result) {
            for audience in self.audience() {
                self.send(audience.conn, message.clone());
            }
        }
        self.finish_close(CLOSED_DESERTED);
    }
}
