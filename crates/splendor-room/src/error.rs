//! What can go wrong with a lobby or room request, with its wire code.

use splendor_protocol::{ErrorCode, ErrorInfo, RequestId};
use splendor_rules::RuleError;

use crate::write::{PersistError, PersistErrorKind};

/// A room or lobby request failed; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LobbyError {
    /// No open room has this code.
    #[error("no room has the code {0:?}")]
    RoomNotFound(String),
    /// The text is not a room code at all (the message says why).
    #[error("{0}")]
    MalformedCode(String),
    /// Every seat is taken.
    #[error("the room has no free seat; join as a spectator with \"as\":\"spectator\"")]
    RoomFull,
    /// The room has as many spectators as it allows.
    #[error("the room has no room for more spectators")]
    TooManySpectators,
    /// A connection is in one room at a time.
    #[error("this connection is already in room {0}; leave it first")]
    AlreadyInRoom(String),
    /// The request needs a room this connection is in (as itself).
    #[error("this connection is not in a room; create or join one first")]
    NotInRoom,
    /// The room closed before it could answer.
    #[error("the room closed")]
    RoomClosed,
    /// Only the host may start the game.
    #[error("only the host can do this")]
    NotHost,
    /// `add_bot` with a level that does not exist.
    #[error("{0}")]
    UnknownBotLevel(String),
    /// The player's time ran out: the stand-in makes the rest of the turn.
    #[error(
        "your time ran out: the stand-in plays the rest of this turn (R12.2); act within the grace at your next turn to take your seat back"
    )]
    StandInTurn,
    /// A clock outside R12.1, or `stand_in_when_away` without a clock.
    #[error("{0}")]
    InvalidClock(String),
    /// `remove_bot` names a seat that no bot holds.
    #[error("seat {0} is not held by a bot")]
    NotABot(u8),
    /// Fewer than two players are seated (R1).
    #[error("a game needs at least 2 seated players")]
    NotEnoughPlayers,
    /// Seats are fixed once the game started.
    #[error("the game already started; join as a spectator with \"as\":\"spectator\"")]
    GameAlreadyStarted,
    /// An action before the start.
    #[error("the game has not started yet")]
    GameNotStarted,
    /// An action after the end.
    #[error("the game is over")]
    GameOver,
    /// A spectator sent an action.
    #[error("spectators cannot act")]
    SpectatorCannotAct,
    /// The action named a state version that is not the current one.
    #[error("the state is at version {current}, not {expected}; nothing was applied")]
    StaleVersion {
        /// The room's version.
        current: u64,
        /// The version the action expected.
        expected: u64,
    },
    /// A room of other than 2 to 4 seats (R1).
    #[error("a room has 2, 3 or 4 seats, not {0}")]
    InvalidSeats(u8),
    /// The server holds `max_rooms` rooms.
    #[error("the server has as many rooms as it allows; try again later")]
    TooManyRooms,
    /// The session created `max_rooms_per_session` rooms that are still open.
    #[error("this session already has {0} open rooms, the most allowed; finish or leave one first")]
    TooManyRoomsForSession(usize),
    /// The client address has `max_waiting_rooms_per_ip` rooms waiting.
    #[error(
        "{0} rooms created from your network address are waiting for players, the most allowed; \
         start or close one of them, or join a room instead"
    )]
    TooManyWaitingRoomsFromOrigin(usize),
    /// Storing failed for a reason other than the database being away.
    #[error("the server could not store this; nothing changed")]
    Persistence,
    /// The database cannot take writes right now; the client may retry.
    #[error(
        "the server cannot store moves right now (its database is unavailable); nothing changed, try again shortly"
    )]
    StorageUnavailable,
    /// Something that should not happen; the client sees only that it
    /// did, the gateway logs the cause once.
    #[error("internal error; nothing changed")]
    Internal(InternalCause),
    /// A chat text that is empty, too long or not plain text.
    #[error("{0}")]
    InvalidChat(String),
    /// The host muted the caller's chat.
    #[error("the host muted your chat in this room")]
    ChatMuted,
    /// Too many chat messages in a short time.
    #[error(
        "at most {} chat messages in {} seconds; wait a moment",
        crate::social::CHAT_BURST,
        crate::social::CHAT_WINDOW.as_secs()
    )]
    ChatTooFast,
    /// No rematch can be offered now (the message says why).
    #[error("{0}")]
    RematchUnavailable(String),
    /// `mute` names a seat no person holds.
    #[error("seat {0} has no person in it (it is free or a bot's)")]
    NoPersonInSeat(u8),
    /// `add_bot` in a rated room.
    #[error(
        "this room is rated: its seats are for people and bot programs, not built-in bots \
         (create an unrated room to play against them)"
    )]
    RatedRoom,
    /// The session left a running game but still holds its seat there:
    /// no quick play or rated room until that game is over.
    #[error(
        "you still hold a seat in the game running in room {0}; finish it first \
         (join {0} to take your seat back)"
    )]
    SeatHeld(String),
    /// The rules rejected the action (R11.3).
    #[error("{0}")]
    Rule(RuleError),
}

/// What went wrong inside, for the log only: never sent to a client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InternalCause(pub String);

impl std::fmt::Display for InternalCause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl LobbyError {
    /// An internal error with its cause (logged by the gateway, not sent).
    pub fn internal(cause: impl Into<String>) -> LobbyError {
        LobbyError::Internal(InternalCause(cause.into()))
    }

    /// The cause of an internal error, to log once.
    pub fn internal_cause(&self) -> Option<&InternalCause> {
        match self {
            LobbyError::Internal(cause) => Some(cause),
            _ => None,
        }
    }

    /// The error a client gets when storing its request failed.
    pub fn from_persistence(error: &PersistError) -> LobbyError {
        match error.kind {
            PersistErrorKind::Unavailable => LobbyError::StorageUnavailable,
            PersistErrorKind::Diverged | PersistErrorKind::Failed => LobbyError::Persistence,
            // Another server holds the room: this one is gone for the caller.
            PersistErrorKind::Fenced => LobbyError::RoomClosed,
        }
    }

    /// The stable wire code: the rules crate's own code for a rule error.
    pub fn code(&self) -> &'static str {
        let code = match self {
            LobbyError::RoomNotFound(_) | LobbyError::MalformedCode(_) => ErrorCode::RoomNotFound,
            LobbyError::RoomFull | LobbyError::TooManySpectators => ErrorCode::RoomFull,
            LobbyError::AlreadyInRoom(_) => ErrorCode::AlreadyInRoom,
            LobbyError::NotInRoom => ErrorCode::NotInRoom,
            LobbyError::RoomClosed => ErrorCode::RoomClosed,
            LobbyError::NotHost => ErrorCode::NotHost,
            LobbyError::UnknownBotLevel(_) => ErrorCode::UnknownBotLevel,
            LobbyError::NotABot(_) => ErrorCode::NotABot,
            LobbyError::InvalidClock(_) => ErrorCode::InvalidClock,
            LobbyError::StandInTurn => ErrorCode::StandInTurn,
            LobbyError::NotEnoughPlayers => ErrorCode::NotEnoughPlayers,
            LobbyError::GameAlreadyStarted => ErrorCode::GameAlreadyStarted,
            LobbyError::GameNotStarted => ErrorCode::GameNotStarted,
            LobbyError::GameOver => ErrorCode::GameOver,
            LobbyError::SpectatorCannotAct => ErrorCode::SpectatorCannotAct,
            LobbyError::StaleVersion { .. } => ErrorCode::StaleVersion,
            LobbyError::InvalidSeats(_) => ErrorCode::InvalidSeats,
            LobbyError::TooManyRooms => ErrorCode::TooManyRooms,
            LobbyError::TooManyRoomsForSession(_) => ErrorCode::TooManySessionRooms,
            LobbyError::TooManyWaitingRoomsFromOrigin(_) => ErrorCode::TooManyRoomsFromAddress,
            LobbyError::Persistence => ErrorCode::PersistenceFailed,
            LobbyError::StorageUnavailable => ErrorCode::StorageUnavailable,
            LobbyError::Internal(_) => ErrorCode::Internal,
            LobbyError::InvalidChat(_) => ErrorCode::InvalidChat,
            LobbyError::ChatMuted => ErrorCode::ChatMuted,
            LobbyError::ChatTooFast => ErrorCode::ChatTooFast,
            LobbyError::RematchUnavailable(_) => ErrorCode::RematchUnavailable,
            LobbyError::NoPersonInSeat(_) => ErrorCode::InvalidSeat,
            LobbyError::RatedRoom => ErrorCode::RatedRoom,
            LobbyError::SeatHeld(_) => ErrorCode::SeatHeld,
            LobbyError::Rule(e) => return e.code,
        };
        code.as_str()
    }

    /// The `error` message for this failure, echoing the request id.
    pub fn to_error_info(&self, id: Option<RequestId>) -> ErrorInfo {
        match self {
            LobbyError::Rule(e) => ErrorInfo {
                id,
                code: e.code.to_owned(),
                message: e.message.clone(),
                rule: Some(e.rule.to_owned()),
                retry_after_ms: None,
            },
            other => ErrorInfo {
                id,
                code: other.code().to_owned(),
                message: other.to_string(),
                rule: None,
                retry_after_ms: None,
            },
        }
    }
}
