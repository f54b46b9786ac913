//! What can go wrong with a lobby or room request, with its wire code.

use splendor_protocol::{ErrorCode, ErrorInfo, RequestId};
use splendor_rules::RuleError;

use crate::persist::{PersistError, PersistErrorKind};

/// A room or lobby request failed; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LobbyError {
    #[error("no room has the code {0:?}")]
    RoomNotFound(String),
    #[error("{0:?} is not a room code: codes are five letters, like KHPQZ")]
    MalformedCode(String),
    #[error("the room has no free seat; join as a spectator with \"as\":\"spectator\"")]
    RoomFull,
    #[error("the room has no room for more spectators")]
    TooManySpectators,
    #[error("this connection is already in room {0}; leave it first")]
    AlreadyInRoom(String),
    #[error("this connection is not in a room; create or join one first")]
    NotInRoom,
    #[error("the room closed")]
    RoomClosed,
    #[error("only the host can do this")]
    NotHost,
    #[error("a game needs at least 2 seated players")]
    NotEnoughPlayers,
    #[error("the game already started; join as a spectator with \"as\":\"spectator\"")]
    GameAlreadyStarted,
    #[error("the game has not started yet")]
    GameNotStarted,
    #[error("the game is over")]
    GameOver,
    #[error("spectators cannot act")]
    SpectatorCannotAct,
    #[error("the state is at version {current}, not {expected}; nothing was applied")]
    StaleVersion { current: u64, expected: u64 },
    #[error("a room has 2, 3 or 4 seats, not {0}")]
    InvalidSeats(u8),
    #[error("the server has as many rooms as it allows; try again later")]
    TooManyRooms,
    #[error("this session already has {0} open rooms, the most allowed; finish or leave one first")]
    TooManyRoomsForSession(usize),
    #[error(
        "{0} rooms created from your network address are waiting for players, the most allowed; \
         start or close one of them, or join a room instead"
    )]
    TooManyWaitingRoomsFromOrigin(usize),
    #[error("the server could not store this; nothing changed")]
    Persistence,
    #[error(
        "the server cannot store moves right now (its database is unavailable); nothing changed, try again shortly"
    )]
    StorageUnavailable,
    /// Something that should not happen; the client sees only that it
    /// did, the gateway logs the cause once.
    #[error("internal error; nothing changed")]
    Internal(InternalCause),
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
            },
            other => ErrorInfo {
                id,
                code: other.code().to_owned(),
                message: other.to_string(),
                rule: None,
            },
        }
    }
}
