//! Seats held in running games a session has left.
//!
//! `leave` during a game keeps the player's seat (the stand-in plays it if
//! the room says so, R12), but the session is no longer "in" the room. A
//! session that still holds such a seat may not queue for quick play nor
//! sit at a rated table (issue 22): otherwise one connection could leave
//! and queue again in a loop, leaving rated games to the stand-in under its
//! name. Unrated rooms keep their rules: a player may leave a casual game
//! and sit down elsewhere. A player who resigned (R13.1) holds no seat:
//! the stand-in plays it to the end under the rules, not under the name.

use splendor_protocol::{Role, RoomStatus};

use crate::code::RoomCode;
use crate::error::RoomError;
use crate::lobby::Lobby;
use crate::presence::RoomSeat;
use crate::session::SessionId;

impl Lobby {
    /// The session left the room it was in (`left` was answered). A player
    /// who leaves a game that is running keeps the seat: remembered until
    /// that game is over.
    pub fn left_room(&self, session: SessionId, seat: Option<RoomSeat>) {
        let presence = self.presence();
        presence.set_room(session, None);
        if let Some(seat) = seat
            && seat.role == Role::Player
            && !presence.take_resigned(session, seat.code)
            && match self.room_status(seat.code) {
                Some((RoomStatus::Playing, _)) => true,
                // R12.5: a turn-based room keeps its seats before the start.
                Some((RoomStatus::Waiting, _)) => self.is_turn_based(seat.code),
                _ => false,
            }
        {
            presence.hold(session, seat.code);
        }
    }

    /// The session resigned the game in room `code` (R13.1): the stand-in
    /// plays its seat to the end, so leaving it holds nothing.
    pub fn resigned(&self, session: SessionId, code: RoomCode) {
        self.presence().resign(session, code);
    }

    /// A running live game in which the session holds a seat it left, if
    /// any. Held seats whose game is over (or whose room closed) are
    /// forgotten. A turn-based game (R12.5) is not one: its players keep
    /// other games going meanwhile, and a turn-based room waiting for
    /// players keeps its hold.
    pub fn held_seat(&self, session: SessionId) -> Option<RoomCode> {
        let presence = self.presence();
        let mut running = None;
        for code in presence.held(session) {
            let turn_based = self.is_turn_based(code);
            match self.room_status(code) {
                Some((RoomStatus::Playing, _)) if !turn_based => running = running.or(Some(code)),
                Some((RoomStatus::Playing | RoomStatus::Waiting, _)) if turn_based => {}
                _ => presence.unhold(session, code),
            }
        }
        running
    }

    /// Refuses quick play while the session holds a seat in a running game
    /// (`seat_held`).
    pub fn check_free_for_quick_play(&self, session: SessionId) -> Result<(), RoomError> {
        match self.held_seat(session) {
            Some(code) => Err(RoomError::SeatHeld(code.to_string())),
            None => Ok(()),
        }
    }

    /// Refuses a seat at the rated table `code` (a `join` as a player, or
    /// a `create` of a rated room when `code` is `None`) while the session
    /// holds a seat in another running game. Taking one's own held seat
    /// back is always allowed, and so is any unrated room.
    pub fn check_free_for_rated(
        &self,
        session: SessionId,
        code: Option<RoomCode>,
    ) -> Result<(), RoomError> {
        if let Some(code) = code
            && !matches!(self.room_status(code), Some((_, true)))
        {
            return Ok(());
        }
        match self.held_seat(session) {
            Some(held) if Some(held) != code => Err(RoomError::SeatHeld(held.to_string())),
            _ => Ok(()),
        }
    }
}
