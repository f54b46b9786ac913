//! What can go wrong with a lobby or room request, with its wire code.

use std::fmt;

use splendor_protocol::{ErrorCode, Words};
use splendor_rules::RuleError;

use crate::write::{PersistError, PersistErrorKind};

/// A room or lobby request failed; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LobbyError {
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
            LobbyError::RoomUnavailable => ErrorCode::RoomUnavailable,
            // Told as a room closed to this connection: it plays on another.
            LobbyError::SeatClaimedElsewhere => ErrorCode::RoomClosed,
            LobbyError::NotHost => ErrorCode::NotHost,
            LobbyError::UnknownBotLevel(_) => ErrorCode::UnknownBotLevel,
            LobbyError::NotABot(_) => ErrorCode::NotABot,
            LobbyError::InvalidClock(_) => ErrorCode::InvalidClock,
            LobbyError::StandInTurn => ErrorCode::StandInTurn,
            LobbyError::Resigned => ErrorCode::Resigned,
            LobbyError::Removed => ErrorCode::Removed,
            LobbyError::NotEnoughPlayers => ErrorCode::NotEnoughPlayers,
            LobbyError::GameAlreadyStarted => ErrorCode::GameAlreadyStarted,
            LobbyError::GameNotStarted => ErrorCode::GameNotStarted,
            LobbyError::GameOver => ErrorCode::GameOver,
            LobbyError::SpectatorCannotAct => ErrorCode::SpectatorCannotAct,
            LobbyError::StaleVersion { .. } => ErrorCode::StaleVersion,
            LobbyError::InvalidSeats(_) => ErrorCode::InvalidSeats,
            LobbyError::TooManyRooms => ErrorCode::TooManyRooms,
            LobbyError::TooManyRoomsForSession(_) => ErrorCode::TooManySessionRooms,
            LobbyError::TooManyWaitingRoomsFromOrigin(_)
            | LobbyError::TooManyRoomsFromAddress(_) => ErrorCode::TooManyRoomsFromAddress,
            LobbyError::TooManyBotTables(_) => ErrorCode::TooManyBotTables,
            LobbyError::Persistence => ErrorCode::PersistenceFailed,
            LobbyError::StorageUnavailable => ErrorCode::StorageUnavailable,
            LobbyError::Internal(_) => ErrorCode::Internal,
            LobbyError::InvalidChat(_) => ErrorCode::InvalidChat,
            LobbyError::HintNotAllowed(_) => ErrorCode::HintNotAllowed,
            LobbyError::ChatMuted { .. } => ErrorCode::ChatMuted,
            LobbyError::ChatTooFast { .. } => ErrorCode::ChatTooFast,
            LobbyError::RematchUnavailable(_) => ErrorCode::RematchUnavailable,
            LobbyError::NoPersonInSeat(_) => ErrorCode::InvalidSeat,
            LobbyError::RatedRoom => ErrorCode::RatedRoom,
            LobbyError::SeatHeld(_) => ErrorCode::SeatHeld,
            LobbyError::AlreadySeated => ErrorCode::InvalidField,
            LobbyError::NoSuchLine(_) => ErrorCode::InvalidField,
            LobbyError::Rule(e) => return e.code,
        };
        code.as_str()
    }

    /// The rule a rule error cites (R11.3); none for the others.
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            LobbyError::Rule(e) => Some(e.rule),
            _ => None,
        }
    }

    /// What the person is told: a message id of the server's message files
    /// and its arguments, worded at the edge in their language.
    pub fn words(&self) -> Words {
        let w = Words::new;
        match self {
            LobbyError::RoomNotFound(code) => w("room-not-found").text("code", format!("{code:?}")),
            LobbyError::MalformedCode(words)
            | LobbyError::InvalidClock(words)
            | LobbyError::InvalidChat(words)
            | LobbyError::HintNotAllowed(words)
            | LobbyError::RematchUnavailable(words) => words.clone(),
            LobbyError::RoomFull => w("room-full").text("example", AS_SPECTATOR),
            LobbyError::TooManySpectators => w("room-no-spectators"),
            LobbyError::AlreadyInRoom(code) => w("room-already-in").text("code", code.as_str()),
            LobbyError::NotInRoom => w("room-not-in"),
            LobbyError::RoomClosed => w("room-closed"),
            LobbyError::RoomUnavailable => w("room-unavailable"),
            LobbyError::SeatClaimedElsewhere => w("closed-other-device"),
            LobbyError::NotHost => w("room-not-host"),
            LobbyError::UnknownBotLevel(level) => {
                w("room-unknown-bot-level").text("level", format!("{level:?}"))
            }
            LobbyError::StandInTurn => w("room-stand-in-turn"),
            LobbyError::Resigned => w("room-resigned"),
            LobbyError::Removed => w("room-removed"),
            LobbyError::NotABot(seat) => w("room-not-a-bot").num("seat", *seat),
            LobbyError::NotEnoughPlayers => w("room-not-enough-players"),
            LobbyError::GameAlreadyStarted => w("room-game-started").text("example", AS_SPECTATOR),
            LobbyError::GameNotStarted => w("room-game-not-started"),
            LobbyError::GameOver => w("rule-game-over"),
            LobbyError::SpectatorCannotAct => w("room-spectators-cannot-act"),
            LobbyError::StaleVersion { current, expected } => w("room-stale-version")
                .count("current", *current)
                .count("expected", *expected),
            LobbyError::InvalidSeats(seats) => w("room-invalid-seats").num("seats", *seats),
            LobbyError::TooManyRooms => w("room-too-many"),
            LobbyError::TooManyRoomsForSession(max) => {
                w("room-too-many-for-session").count("max", *max)
            }
            LobbyError::TooManyWaitingRoomsFromOrigin(max) => {
                w("room-too-many-from-address").count("max", *max)
            }
            LobbyError::TooManyRoomsFromAddress(max) => {
                w("room-too-many-unfinished-from-address").count("max", *max)
            }
            LobbyError::TooManyBotTables(max) => w("room-too-many-bot-tables").count("max", *max),
            LobbyError::Persistence => w("room-store-failed"),
            LobbyError::StorageUnavailable => w("room-store-unavailable"),
            LobbyError::Internal(_) => w("room-internal"),
            LobbyError::ChatMuted { spectators: false } => w("chat-muted"),
            LobbyError::ChatMuted { spectators: true } => w("chat-spectators-muted"),
            LobbyError::ChatTooFast { spectators: false } => w("chat-too-fast")
                .count("burst", crate::social::CHAT_BURST)
                .count("seconds", crate::social::CHAT_WINDOW.as_secs()),
            LobbyError::ChatTooFast { spectators: true } => w("chat-spectators-too-fast")
                .count("burst", crate::social::SPECTATORS_CHAT_BURST)
                .count("seconds", crate::social::CHAT_WINDOW.as_secs()),
            LobbyError::NoPersonInSeat(seat) => w("room-no-person-in-seat").num("seat", *seat),
            LobbyError::RatedRoom => w("room-rated"),
            LobbyError::SeatHeld(code) => w("room-seat-held").text("code", code.as_str()),
            LobbyError::AlreadySeated => w("invite-already-seated"),
            LobbyError::NoSuchLine(line) => {
                w("room-no-such-line").num("line", i64::try_from(*line).unwrap_or(i64::MAX))
            }
            LobbyError::Rule(e) => e.words.clone(),
        }
    }
}

/// How to join as a spectator, as the errors show it.
const AS_SPECTATOR: &str = r#""as":"spectator""#;

impl fmt::Display for LobbyError {
    /// The code and the words' id and arguments: for logs, not for people.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.words())
    }
}

impl std::error::Error for LobbyError {}
