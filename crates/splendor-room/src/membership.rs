//! Requests about who is in the room: join (and reconnect), leave, detach,
//! sync. Each checks first and changes after: a refused request leaves
//! everything as it was.

use splendor_protocol::{Left, Role, RoomStatus, ServerMessage, Words};
use splendor_rules::{Action, Seat};
use tracing::{debug, info};

use super::core::RoomCore;
use super::effect::Effect;
use super::effect::{Answer, Joined};
use super::input::{Caller, Ticket};
use super::seats::{Member, Spectator};
use crate::conn::{ConnId, Outgoing, Worded};
use crate::error::RoomError;
use crate::session::{Session, SessionId};

impl RoomCore {
    pub(crate) fn join(
        &mut self,
        session: Session,
        role: Role,
        verbose: bool,
        claim: u64,
        caller: &Caller,
    ) -> Result<Joined, RoomError> {
        let conn = caller.conn;
        if self.people.is_barred(session.id) {
            return Err(RoomError::Removed);
        }
        if let Some(seat) = self.people.seat_of(session.id) {
            // A connection whose claim is older than the seat's newest
            // (issue 44: it follows the room from a node that lost it,
            // while the player took the seat again elsewhere) is let go as
            // a replaced one is: the newest claim keeps the seat.
            if claim < self.people.claim_of(session.id) {
                info!(session = %session.id, seat, claim, "an older claim on a seat refused");
                return Err(RoomError::SeatClaimedElsewhere);
            }
            self.people.claim(session.id, claim);
            // A seated session comes back: it gets its seat, on this connection.
            let replaced = self.people.attach(seat, conn, verbose);
            info!(session = %session.id, seat, "player reconnected");
            if let Some(old) = replaced {
                self.moved_to_another_connection(old);
            }
            // Back: an away player's clock runs on the bank again (R12.3)
            // before the state tells them what is left.
            self.run_clock(self.now);
            self.after_join(caller);
            return Ok(Joined {
                role: Role::Player,
                seat: Some(seat as Seat),
                claim,
            });
        }
        let spectating = self.people.spectator_of(session.id);
        // Check first, change after: a failed join leaves everything as it was.
        let free_seat = match role {
            Role::Player => {
                if self.running.is_some() {
                    return Err(RoomError::GameAlreadyStarted);
                }
                Some(self.people.free_seat().ok_or(RoomError::RoomFull)?)
            }
            Role::Spectator => {
                if spectating.is_none()
                    && self.people.spectators().len() >= self.config.max_spectators
                {
                    return Err(RoomError::TooManySpectators);
                }
                None
            }
        };
        if let Some(i) = spectating {
            let old = self.people.remove_spectator(i);
            if old.conn != conn {
                self.moved_to_another_connection(old.conn);
            }
        }
        let joined = match free_seat {
            Some(seat) => {
                // A host who left before the start hands over to the
                // joiner (`Seats::sit`).
                self.people.sit(
                    seat,
                    Member {
                        session: session.id,
                        name: session.name,
                        conn: Some(conn),
                        verbose,
                        bot: None,
                        program: session.program,
                    },
                );
                info!(session = %session.id, seat, "player joined");
                self.people.claim(session.id, claim);
                Joined {
                    role: Role::Player,
                    seat: Some(seat as Seat),
                    claim,
                }
            }
            None => {
                self.people.add_spectator(Spectator {
                    session: session.id,
                    name: session.name,
                    conn,
                    verbose,
                });
                info!(session = %session.id, "spectator joined");
                Joined {
                    role: Role::Spectator,
                    seat: None,
                    claim,
                }
            }
        };
        self.after_join(caller);
        Ok(joined)
    }

    /// The session's seat (or place among the spectators) went to its
    /// newer connection: the older one is told so and let go, not closed
    /// (issue 23: it may be another device of the session, which stays
    /// open in the lobby; an older connection of the same device was
    /// closed as replaced before its session came back here).
    fn moved_to_another_connection(&mut self, old: ConnId) {
        let notice = Worded::RoomClosed {
            room: self.code.to_string(),
            reason: Words::new("closed-other-device"),
            room_goes_on: true,
        };
        self.push(Effect::Send {
            to: old,
            message: Outgoing::Worded(Box::new(notice)),
        });
        self.push(Effect::Release { conn: old });
    }

    /// Tells everyone about the join, and brings the joiner up to date.
    fn after_join(&mut self, caller: &Caller) {
        if self.running.is_none() {
            self.people.pass_host_if_away();
        }
        self.broadcast_room(Some((caller.conn, caller.request.clone())));
        if let Some(audience) = self.audience_of(caller.conn) {
            self.send_game_to(&audience, None);
        }
        // The conversation so far (issue 23): a reload keeps it.
        self.send_chat_history(caller.conn, caller.session);
    }

    /// `leave` from the lobby's side when the connection goes back to the
    /// lobby: allowed once the game is finished; refused while the session
    /// still plays here (through this connection or another device's,
    /// issue 23: one room at a time).
    pub(crate) fn leave_finished(&mut self, caller: &Caller) -> Result<(), RoomError> {
        let attached = self.people.is_attached(caller.session, caller.conn);
        // The session sits here through another of its devices
        // (issue 23): it is in this room, one room at a time.
        let elsewhere = !attached
            && !self.people.is_barred(caller.session)
            && self.status() != RoomStatus::Finished
            && (self
                .people
                .seat_of(caller.session)
                .and_then(|seat| self.people.member(seat))
                .is_some_and(|m| m.conn.is_some())
                || self.people.spectator_of(caller.session).is_some());
        if elsewhere {
            Err(RoomError::AlreadyInRoom(self.code.to_string()))
        } else if !attached {
            // Not at this table (removed, say): nothing to leave.
            Ok(())
        } else if self.status() == RoomStatus::Finished {
            self.leave(caller, false)
        } else {
            Err(RoomError::AlreadyInRoom(self.code.to_string()))
        }
    }

    pub(crate) fn leave(&mut self, caller: &Caller, give_up: bool) -> Result<(), RoomError> {
        let (session, conn) = (caller.session, caller.conn);
        if give_up && self.running.is_some() && self.people.seat_of_conn(session, conn).is_some() {
            // A seat in a game is given up by resigning (R13).
            return Err(RoomError::GameAlreadyStarted);
        }
        let left = if let Some(seat) = self.people.seat_of_conn(session, conn) {
            if self.running.is_some() {
                // A running game keeps the seat; the player may come back.
                self.people.detach(seat)
            } else if self.turn_based() && !give_up {
                // R12.5: before the start too, a turn-based room keeps the
                // seat of a player who goes (to another game, for days);
                // the host role passes to someone present.
                let conn = self.people.detach(seat);
                self.people.pass_host_if_away();
                conn
            } else {
                // A host who leaves hands the role on (`Seats::free`).
                self.people.free(seat).and_then(|m| m.conn)
            }
        } else if let Some(i) = self.people.spectator_of_conn(session, conn) {
            Some(self.people.remove_spectator(i).conn)
        } else {
            return Err(RoomError::NotInRoom);
        };
        if self.people.seat_of(session).is_some() && self.status() == RoomStatus::Finished {
            self.left_table(session);
        }
        info!(session = %session, "left the room");
        if let Some(conn) = left {
            self.send(
                conn,
                ServerMessage::Left(Left {
                    id: caller.request.clone(),
                    room: self.code.to_string(),
                }),
            );
            self.push(Effect::Release { conn });
        }
        self.broadcast_room(None);
        Ok(())
    }

    /// A turn-based room (R12.5).
    pub(crate) fn turn_based(&self) -> bool {
        self.clock.is_some_and(|c| c.clock.is_per_move())
    }

    pub(crate) fn detach(&mut self, caller: &Caller) {
        let (session, conn) = (caller.session, caller.conn);
        if let Some(seat) = self.people.seat_of_conn(session, conn) {
            self.people.detach(seat);
            info!(session = %session, seat, "player disconnected");
        } else if let Some(i) = self.people.spectator_of_conn(session, conn) {
            self.people.remove_spectator(i);
            debug!(session = %session, "spectator disconnected");
        } else {
            // A connection that was already replaced or removed.
            return;
        }
        self.push(Effect::Release { conn });
        if self.running.is_none() {
            self.people.pass_host_if_away();
        }
        self.broadcast_room(None);
    }

    /// The operators remove `session` (see [`Request::Remove`]); the reply
    /// comes once a resignation is durable, or at once.
    pub(crate) fn remove(
        &mut self,
        ticket: Ticket,
        session: SessionId,
        reason: String,
    ) -> Result<(), RoomError> {
        let seat = self.people.seat_of(session);
        let spectator = self.people.spectator_of(session);
        if seat.is_none() && spectator.is_none() {
            return Err(RoomError::NotInRoom);
        }
        let started = self.running.is_some();
        let in_play = self.running.as_ref().is_some_and(|r| !r.game().is_over());
        let resigned = seat.is_some_and(|s| {
            self.running
                .as_ref()
                .is_some_and(|r| r.game().has_resigned(s as Seat))
        });
        self.people.bar(session);
        self.forget_chat_of(session);
        let conn = match (seat, spectator) {
            // From the start a seat is the game's: it stays, away.
            (Some(seat), _) if started => self.people.detach(seat),
            (Some(seat), _) => self.people.free(seat).and_then(|m| m.conn),
            (None, Some(i)) => Some(self.people.remove_spectator(i).conn),
            (None, None) => None,
        };
        info!(session = %session, ?seat, "removed by the operators");
        if let Some(conn) = conn {
            let notice = Worded::RoomClosed {
                room: self.code.to_string(),
                reason: Words::new("closed-removed").text("reason", reason),
                room_goes_on: true,
            };
            self.push(Effect::Send {
                to: conn,
                message: Outgoing::Worded(Box::new(notice)),
            });
            self.push(Effect::Release { conn });
        }
        self.broadcast_room(None);
        match seat {
            // R13: the seat resigns; the stand-in plays it to the end.
            Some(seat) if in_play && !resigned => {
                let caller = Caller {
                    session,
                    conn: ConnId(0),
                    request: None,
                };
                self.act_as(seat as Seat, Action::Resign, None, Some((ticket, caller)))
            }
            _ => {
                self.reply(ticket, Ok(Answer::Done));
                Ok(())
            }
        }
    }

    pub(crate) fn sync(&mut self, caller: &Caller) -> Result<(), RoomError> {
        if !self.people.is_attached(caller.session, caller.conn) {
            return Err(RoomError::NotInRoom);
        }
        let audience = self.audience_of(caller.conn).ok_or(RoomError::NotInRoom)?;
        let mut info = self.room_info(audience.you);
        info.id = caller.request.clone();
        self.send(audience.conn, ServerMessage::Room(info));
        self.send_game_to(&audience, None);
        Ok(())
    }
}
