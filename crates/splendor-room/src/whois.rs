//! Whom a `report` or a `block` names in a room (issue 22): the person in
//! a seat, or the author of a chat line the room still keeps. The room
//! answers with the session (which never reaches the client) and the
//! chat around it, for the operators' context; nothing in the room
//! changes (`social.rs` answers it).

use splendor_protocol::ChatInfo;

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
