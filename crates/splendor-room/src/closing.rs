//! How a room closes: after storing a result still owed (`close`), telling
//! everyone why (`finish_close_with`).
//!
//! The server's operators close a room (issue 22). A room waiting for its
//! start, or whose game is over, simply closes. A game in play is ended
//! first: its result is the standings it stopped at (R10.3, R10.4, R13.1
//! applied to that position) with no winner, stored as ended by the
//! operators (unrated, rating nobody: [`Write::GameEnded`]); its log
//! stays, so its replay verifies. Everyone in the room is then told why,
//! in their language (`room_closed`), and the room is gone. If the end
//! cannot be stored, nothing changes and the operators are told.

use splendor_protocol::Words;
use tracing::{info, warn};

use super::core::{AfterResult, Pending, RoomCore};
use super::effect::{Answer, Closed, Effect, Write};
use super::input::Ticket;
use crate::conn::{Outgoing, Worded};
use crate::error::RoomError;
use crate::write::PersistError;

/// Why the room closed, as [`Closed::why`](super::effect::Closed::why)
/// says it.
pub const CLOSED_BY_OPERATORS: &str = "closed-by-operators";

impl RoomCore {
    /// Closes the room, after storing a result that failed to store before
    /// (if storing it fails again, the next start stores it from the log).
    pub(crate) fn close(&mut self, why: &'static str) {
        if self.closed {
            return;
        }
        if let Some(running) = &self.running
            && running.result_pending()
            && let Some(result) = running.game().result()
        {
            let game = running.id();
            self.write(
                Write::GameFinished { game, result },
                Pending::Result {
                    then: AfterResult::Close { why },
                },
            );
            return;
        }
        self.finish_close(why);
    }

    pub(crate) fn finish_close(&mut self, why: &'static str) {
        let notice = Worded::RoomClosed {
            room: self.code.to_string(),
            reason: Words::new(why),
            room_goes_on: false,
        };
        self.finish_close_with(why, Outgoing::Worded(Box::new(notice)));
    }

    /// Closes the room, telling everyone `notice`.
    pub(crate) fn finish_close_with(&mut self, why: &'static str, notice: Outgoing) {
        info!(reason = why, "room closed");
        self.closed = true;
        self.timers.stop_all();
        let farewell = self.audience().into_iter().map(|a| a.conn).collect();
        self.effects.push_back(Effect::Closed(Closed {
            why,
            sessions: self.people.sessions(),
            farewell,
            notice,
        }));
    }

    /// `Request::Close`.
    pub(crate) fn close_by_operators(&mut self, ticket: Ticket, reason: String) {
        let in_play = self
            .running
            .as_ref()
            .filter(|r| !r.game().is_over())
            .map(|r| (r.id(), r.game().standings()));
        match in_play {
            Some((game, standings)) => {
                info!(%game, "the operators end the game in play");
                self.write(
                    Write::GameEnded {
                        game,
                        standings,
                        reason: reason.clone(),
                    },
                    Pending::Result {
                        then: AfterResult::ClosedByOperators { ticket, reason },
                    },
                );
            }
            // Answered first: a closed room's driver answers nothing more.
            None => {
                self.reply(ticket, Ok(Answer::Done));
                self.finish_close_by_operators(&reason);
            }
        }
    }

    /// The end of the game in play is stored (or not): the room closes,
    /// or nothing changed.
    pub(crate) fn game_ended(
        &mut self,
        outcome: Result<(), PersistError>,
        ticket: Ticket,
        reason: String,
    ) {
        match outcome {
            Ok(()) => {
                self.reply(ticket, Ok(Answer::Done));
                self.finish_close_by_operators(&reason);
            }
            Err(e) => {
                warn!(error = %e, "the operators' end of the game could not be stored; it plays on");
                self.reply(ticket, Err(RoomError::from_persistence(&e)));
            }
        }
    }

    fn finish_close_by_operators(&mut self, reason: &str) {
        let notice = Worded::RoomClosed {
            room: self.code.to_string(),
            reason: Words::new(CLOSED_BY_OPERATORS).text("reason", reason),
            room_goes_on: false,
        };
        self.finish_close_with(CLOSED_BY_OPERATORS, Outgoing::Worded(Box::new(notice)));
    }
}
