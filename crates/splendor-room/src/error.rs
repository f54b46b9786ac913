//! What can go wrong with a lobby or room request, with its wire code.

use std::fmt;

use splendor_protocol::{ErrorCode, Words};
use splendor_rules::RuleError;

use crate::write::{PersistError, PersistErrorKind};

/// A room or lobby request failed; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoomError {
    /// No open room has this code.
    RoomNotFound(String),
    /// The text is not a room code at all (the words say why).
    MalformedCode(Words),
    /// Every seat is taken.
    RoomFull,
    /// The room has as many spectators as it allows.
    TooManySpectators,
    /// A connection is in one room at a time.
    AlreadyInRoom(String),
    /// The request needs a room this connection is in (as itself).
    NotInRoom,
    /// The room closed before it could answer.
    RoomClosed,
    /// The room runs on another node that cannot be reached now (issue
    /// 21); the same request may succeed shortly.
    RoomUnavailable,
    /// The session's seat was taken again by a newer connection than this
    /// one (issue 44): this one follows the room from a node that lost it.
    SeatClaimedElsewhere,
    /// Only the host may start the game.
    NotHost,
    /// `add_bot` with a level that does not exist.
    UnknownBotLevel(String),
    /// The player's time ran out: the stand-in makes the rest of the turn.
    StandInTurn,
    /// The player resigned this game: the stand-in plays the seat (R13.2).
    Resigned,
    /// The operators removed the session from this room.
    Removed,
    /// A clock outside R12.1, or `stand_in_when_away` without a clock.
    InvalidClock(Words),
    /// `remove_bot` names a seat that no bot holds.
    NotABot(u8),
    /// Fewer than two players are seated (R1).
    NotEnoughPlayers,
    /// Seats are fixed once the game started.
    GameAlreadyStarted,
    /// An action before the start.
    GameNotStarted,
    /// An action after the end.
    GameOver,
    /// A spectator sent an action.
    SpectatorCannotAct,
    /// The action named a state version that is not the current one.
    StaleVersion {
        /// The room's version.
        current: u64,
        /// The version the action expected.
        expected: u64,
    },
    /// A room of other than 2 to 4 seats (R1).
    InvalidSeats(u8),
    /// The server holds `max_rooms` rooms.
    TooManyRooms,
    /// The session created `max_rooms_per_session` rooms that are still open.
    TooManyRoomsForSession(usize),
    /// The client address has `max_waiting_rooms_per_ip` rooms waiting.
    TooManyWaitingRoomsFromOrigin(usize),
    /// As many unfinished rooms were created from this client address as
    /// one address may have (issue 45).
    TooManyRoomsFromAddress(usize),
    /// Starting a table of built-in bots only, while this many such games
    /// made from the same client address are running already.
    TooManyBotTables(usize),
    /// Storing failed for a reason other than the database being away.
    Persistence,
    /// The database cannot take writes right now; the client may retry.
    StorageUnavailable,
    /// Something that should not happen; the client sees only that it
    /// did, the gateway logs the cause once.
    Internal(InternalCause),
    /// A chat text that is empty, too long or not plain text.
    InvalidChat(Words),
    /// `hint` outside a practice game (unrated, against built-in bots
    /// only) or when it is not the caller's turn (the words say which).
    HintNotAllowed(Words),
    /// The host muted the caller's chat.
    ChatMuted {
        /// The host muted the spectators (not a seat).
        spectators: bool,
    },
    /// Too many chat messages in a short time.
    ChatTooFast {
        /// The spectators' chat as a whole, not the sender's.
        spectators: bool,
    },
    /// No rematch can be offered now (the words say why).
    RematchUnavailable(Words),
    /// `mute` names a seat no person holds.
    NoPersonInSeat(u8),
    /// `add_bot` in a rated room.
    RatedRoom,
    /// The session left a running game but still holds its seat there:
    /// no quick play or rated room until that game is over.
    SeatHeld(String),
    /// `invite` names a player who sits in this room already.
    AlreadySeated,
    /// `report` or `block` names a chat line the room does not keep (any
    /// more).
    NoSuchLine(u64),
    /// The rules rejected the action (R11.3).
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

impl RoomError {
    /// An internal error with its cause (logged by the gateway, not sent).
    pub fn internal(cause: impl Into<String>) -> RoomError {
        RoomError::Internal(InternalCause(cause.into()))
    }

    /// The cause of an internal error, to log once.
    pub fn internal_cause(&self) -> Option<&InternalCause> {
        match self {
            RoomError::Internal(cause) => Some(cause),
            _ => None,
        }
    }

    /// The error a client gets when storing its request failed.
    pub fn from_persistence(error: &PersistError) -> RoomError {
        match error.kind {
            PersistErrorKind::Unavailable => RoomError::StorageUnavailable,
            PersistErrorKind::Diverged | PersistErrorKind::Failed => RoomError::Persistence,
            // Another server holds the room: this one is gone for the caller.
            PersistErrorKind::Fenced => RoomError::RoomClosed,
        }
    }

    /// The stable wire code: the rules crate's own code for a rule error.
    pub fn code(&self) -> &'static str {
        let code = match self {
            RoomError::RoomNotFound(_) | RoomError::MalformedCode(_) => ErrorCode::RoomNotFound,
            RoomError::RoomFull | RoomError::TooManySpectators => ErrorCode::RoomFull,
            RoomError::AlreadyInRoom(_) => ErrorCode::AlreadyInRoom,
            RoomError::NotInRoom => ErrorCode::NotInRoom,
            RoomError::RoomClosed => ErrorCode::RoomClosed,
            RoomError::RoomUnavailable => ErrorCode::RoomUnavailable,
            // Told as a room closed to this connection: it plays on another.
            RoomError::SeatClaimedElsewhere => ErrorCode::RoomClosed,
            RoomError::NotHost => ErrorCode::NotHost,
            RoomError::UnknownBotLevel(_) => ErrorCode::UnknownBotLevel,
            RoomError::NotABot(_) => ErrorCode::NotABot,
            RoomError::InvalidClock(_) => ErrorCode::InvalidClock,
            RoomError::StandInTurn => ErrorCode::StandInTurn,
            RoomError::Resigned => ErrorCode::Resigned,
            RoomError::Removed => ErrorCode::Removed,
            RoomError::NotEnoughPlayers => ErrorCode::NotEnoughPlayers,
            RoomError::GameAlreadyStarted => ErrorCode::GameAlreadyStarted,
            RoomError::GameNotStarted => ErrorCode::GameNotStarted,
            RoomError::GameOver => ErrorCode::GameOver,
            RoomError::SpectatorCannotAct => ErrorCode::SpectatorCannotAct,
            RoomError::StaleVersion { .. } => ErrorCode::StaleVersion,
            RoomError::InvalidSeats(_) => ErrorCode::InvalidSeats,
            RoomError::TooManyRooms => ErrorCode::TooManyRooms,
            RoomError::TooManyRoomsForSession(_) => ErrorCode::TooManySessionRooms,
            RoomError::TooManyWaitingRoomsFromOrigin(_) | RoomError::TooManyRoomsFromAddress(_) => {
                ErrorCode::TooManyRoomsFromAddress
            }
            RoomError::TooManyBotTables(_) => ErrorCode::TooManyBotTables,
            RoomError::Persistence => ErrorCode::PersistenceFailed,
            RoomError::StorageUnavailable => ErrorCode::StorageUnavailable,
            RoomError::Internal(_) => ErrorCode::Internal,
            RoomError::InvalidChat(_) => ErrorCode::InvalidChat,
            RoomError::HintNotAllowed(_) => ErrorCode::HintNotAllowed,
            RoomError::ChatMuted { .. } => ErrorCode::ChatMuted,
            RoomError::ChatTooFast { .. } => ErrorCode::ChatTooFast,
            RoomError::RematchUnavailable(_) => ErrorCode::RematchUnavailable,
            RoomError::NoPersonInSeat(_) => ErrorCode::InvalidSeat,
            RoomError::RatedRoom => ErrorCode::RatedRoom,
            RoomError::SeatHeld(_) => ErrorCode::SeatHeld,
            RoomError::AlreadySeated => ErrorCode::InvalidField,
            RoomError::NoSuchLine(_) => ErrorCode::InvalidField,
            RoomError::Rule(e) => return e.code,
        };
        code.as_str()
    }

    /// The rule a rule error cites (R11.3); none for the others.
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            RoomError::Rule(e) => Some(e.rule),
            _ => None,
        }
    }

    /// What the person is told: a message id of the server's message files
    /// and its arguments, worded at the edge in their language.
    pub fn words(&self) -> Words {
        let w = Words::new;
        match self {
            RoomError::RoomNotFound(code) => w("room-not-found").text("code", format!("{code:?}")),
            RoomError::MalformedCode(words)
            | RoomError::InvalidClock(words)
            | RoomError::InvalidChat(words)
            | RoomError::HintNotAllowed(words)
            | RoomError::RematchUnavailable(words) => words.clone(),
            RoomError::RoomFull => w("room-full").text("example", AS_SPECTATOR),
            RoomError::TooManySpectators => w("room-no-spectators"),
            RoomError::AlreadyInRoom(code) => w("room-already-in").text("code", code.as_str()),
            RoomError::NotInRoom => w("room-not-in"),
            RoomError::RoomClosed => w("room-closed"),
            RoomError::RoomUnavailable => w("room-unavailable"),
            RoomError::SeatClaimedElsewhere => w("closed-other-device"),
            RoomError::NotHost => w("room-not-host"),
            RoomError::UnknownBotLevel(level) => {
                w("room-unknown-bot-level").text("level", format!("{level:?}"))
            }
            RoomError::StandInTurn => w("room-stand-in-turn"),
            RoomError::Resigned => w("room-resigned"),
            RoomError::Removed => w("room-removed"),
            RoomError::NotABot(seat) => w("room-not-a-bot").num("seat", *seat),
            RoomError::NotEnoughPlayers => w("room-not-enough-players"),
            RoomError::GameAlreadyStarted => w("room-game-started").text("example", AS_SPECTATOR),
            RoomError::GameNotStarted => w("room-game-not-started"),
            RoomError::GameOver => w("rule-game-over"),
            RoomError::SpectatorCannotAct => w("room-spectators-cannot-act"),
            RoomError::StaleVersion { current, expected } => w("room-stale-version")
                .count("current", *current)
                .count("expected", *expected),
            RoomError::InvalidSeats(seats) => w("room-invalid-seats").num("seats", *seats),
            RoomError::TooManyRooms => w("room-too-many"),
            RoomError::TooManyRoomsForSession(max) => {
                w("room-too-many-for-session").count("max", *max)
            }
            RoomError::TooManyWaitingRoomsFromOrigin(max) => {
                w("room-too-many-from-address").count("max", *max)
            }
            RoomError::TooManyRoomsFromAddress(max) => {
                w("room-too-many-unfinished-from-address").count("max", *max)
            }
            RoomError::TooManyBotTables(max) => w("room-too-many-bot-tables").count("max", *max),
            RoomError::Persistence => w("room-store-failed"),
            RoomError::StorageUnavailable => w("room-store-unavailable"),
            RoomError::Internal(_) => w("room-internal"),
            RoomError::ChatMuted { spectators: false } => w("chat-muted"),
            RoomError::ChatMuted { spectators: true } => w("chat-spectators-muted"),
            RoomError::ChatTooFast { spectators: false } => w("chat-too-fast")
                .count("burst", crate::config::CHAT_BURST)
                .count("seconds", crate::config::CHAT_WINDOW.as_secs()),
            RoomError::ChatTooFast { spectators: true } => w("chat-spectators-too-fast")
                .count("burst", crate::config::SPECTATORS_CHAT_BURST)
                .count("seconds", crate::config::CHAT_WINDOW.as_secs()),
            RoomError::NoPersonInSeat(seat) => w("room-no-person-in-seat").num("seat", *seat),
            RoomError::RatedRoom => w("room-rated"),
            RoomError::SeatHeld(code) => w("room-seat-held").text("code", code.as_str()),
            RoomError::AlreadySeated => w("invite-already-seated"),
            RoomError::NoSuchLine(line) => {
                w("room-no-such-line").num("line", i64::try_from(*line).unwrap_or(i64::MAX))
            }
            RoomError::Rule(e) => e.words.clone(),
        }
    }
}

/// How to join as a spectator, as the errors show it.
const AS_SPECTATOR: &str = r#""as":"spectator""#;

impl fmt::Display for RoomError {
    /// The code and the words' id and arguments: for logs, not for people.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.words())
    }
}

impl std::error::Error for RoomError {}
