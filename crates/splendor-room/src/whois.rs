//! Whom a `report` or a `block` names in a room (issue 22): the person in
//! a seat, or the author of a chat line the room still keeps. The room
//! answers with the session (which never reaches the client) and the
//! chat around it, for the operators' context; nothing in the room
//! changes.

use splendor_protocol::ChatInfo;

use super::core::RoomCore;
use super::input::Caller;
use crate::error::LobbyError;
use crate::session::SessionId;
use crate::write::GameId;

/// What a `report` or a `block` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Whom {
    /// The person in this seat, as the `room` message numbers seats.
    Seat(u8),
    /// The author of this chat line, as `chat` numbered it.
    Line(u64),
}

/// The person a [`Whom`] names, as the room knows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Person {
    /// Their session.
    pub session: SessionId,
    /// Their name in the room.
    pub name: String,
    /// A program plays for the session (issue 24).
    pub program: bool,
    /// Their seat, if seated.
    pub seat: Option<u8>,
    /// The line named, when a line was.
    pub line: Option<ChatInfo>,
    /// The chat lines the room keeps (at most the last 50, oldest first),
    /// every one of them, each with its author's session: the context an
    /// operator reads a report in.
    pub chat: Vec<(SessionId, ChatInfo)>,
    /// The game being played or played last in the room.
    pub game: Option<GameId>,
}

impl RoomCore {
    /// `Request::Whois`: the caller must be in the room (seated or
    /// watching); a seat must hold a person (not a built-in bot), a line
    /// must still be kept. The caller may name themself: the gateway
    /// refuses that with its own words.
    pub(crate) fn whois(&self, caller: &Caller, whom: Whom) -> Result<Person, LobbyError> {
        if !self.people.is_attached(caller.session, caller.conn) {
            return Err(LobbyError::NotInRoom);
        }
        let game = self.running.as_ref().map(|r| r.id());
        let chat = self.kept_lines().cloned().collect();
        match whom {
            Whom::Seat(seat) => {
                let member = self
                    .people
                    .member(usize::from(seat))
                    .filter(|m| m.bot.is_none())
                    .ok_or(LobbyError::NoPersonInSeat(seat))?;
                Ok(Person {
                    session: member.session,
                    name: member.name.clone(),
                    program: member.program,
                    seat: Some(seat),
                    line: None,
                    chat,
                    game,
                })
            }
            Whom::Line(number) => {
                let (author, line) = self
                    .kept_lines()
                    .find(|(_, line)| line.line == number)
                    .ok_or(LobbyError::NoSuchLine(number))?;
                let seat = self.people.seat_of(*author);
                let program = seat
                    .and_then(|s| self.people.member(s))
                    .is_some_and(|m| m.program);
                Ok(Person {
                    session: *author,
                    name: line.from.clone(),
                    program,
                    seat: seat.and_then(|s| u8::try_from(s).ok()),
                    line: Some(line.clone()),
                    chat,
                    game,
                })
            }
        }
    }
}
