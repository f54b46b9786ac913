//! Stable machine codes for every error the server reports, and the
//! WebSocket close codes it uses.
//!
//! A rejected rules action carries the rules crate's own code instead (for
//! example `not_your_turn`), together with the rule number it cites.

use std::fmt;

/// Every error code the protocol, lobby and gateway layers can report.
/// The string forms are part of the protocol: never rename one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// The frame is not valid JSON.
    InvalidJson,
    /// The frame is JSON but not an object with a string `type`, or is binary.
    BadMessage,
    /// The `type` names no client message.
    UnknownType,
    /// A required field is missing.
    MissingField,
    /// A field has the wrong type or value, or is not a field of this message.
    InvalidField,
    /// The `action` of an `act` message is not in the action syntax.
    InvalidAction,
    /// The frame is larger than the server accepts.
    FrameTooLarge,
    /// The connection must send `hello` first.
    NotIdentified,
    /// `hello` was already sent on this connection.
    AlreadyIdentified,
    /// The session token is unknown.
    InvalidToken,
    /// The display name is empty, too long or contains control characters.
    InvalidName,
    /// No room has that code.
    RoomNotFound,
    /// The room has no free seat (or no room for another spectator).
    RoomFull,
    /// The connection already is in a room; `leave` first.
    AlreadyInRoom,
    /// The connection is in no room.
    NotInRoom,
    /// The room closed while the connection was in it.
    RoomClosed,
    /// The room runs on another server node that cannot be reached now;
    /// nothing changed, and the same request may succeed shortly.
    RoomUnavailable,
    /// Only the host may do this.
    NotHost,
    /// A game needs at least two seated players.
    NotEnoughPlayers,
    /// The game already started (join as a spectator instead).
    GameAlreadyStarted,
    /// The game has not started yet.
    GameNotStarted,
    /// The game is over.
    GameOver,
    /// Spectators may watch but not act.
    SpectatorCannotAct,
    /// `expect_version` is not the current state version; nothing was applied.
    StaleVersion,
    /// A room has 2, 3 or 4 seats.
    InvalidSeats,
    /// `add_bot` names a level that does not exist (random, greedy, strong).
    UnknownBotLevel,
    /// `remove_bot` names a seat that no bot holds.
    NotABot,
    /// A clock outside R12.1 (a bank of 1 second to 7 days, an increment of
    /// 0 to 1 day, whole seconds), or `stand_in_when_away` without a clock.
    InvalidClock,
    /// The player's time ran out: the stand-in plays the rest of this turn
    /// (R12.2).
    StandInTurn,
    /// The player resigned this game (R13.1): the stand-in plays the seat
    /// to the end (R13.2); moves of the person are refused.
    Resigned,
    /// The operators removed this session from the room: it may not join
    /// it again.
    Removed,
    /// The server holds as many rooms as it allows.
    TooManyRooms,
    /// The session already has as many open rooms as one session may.
    TooManySessionRooms,
    /// Rooms created from the client's network address and not yet started
    /// are as many as the server allows from one address.
    TooManyRoomsFromAddress,
    /// Games of built-in bots only, made from this client address, are
    /// running as many as allowed.
    TooManyBotTables,
    /// The connection sends faster than the server allows; the message was
    /// not handled. Going on closes the connection (close code 4003).
    RateLimited,
    /// The action could not be stored durably; nothing was applied.
    PersistenceFailed,
    /// The database cannot take writes right now (unreachable, locked or
    /// full); nothing was applied, and the same request may succeed later.
    StorageUnavailable,
    /// Something unexpected failed on the server; nothing was applied.
    Internal,
    /// A `chat` text that is empty, too long or has control characters.
    InvalidChat,
    /// The host muted this seat's chat.
    ChatMuted,
    /// More chat messages than a person may send in a short time.
    ChatTooFast,
    /// `hint` outside a practice game (unrated, against built-in bots
    /// only), or when it is not the caller's turn.
    HintNotAllowed,
    /// `rematch` when no rematch can be offered (the game is not over, the
    /// caller watches, or the rematch is already agreed).
    RematchUnavailable,
    /// A seat that holds no person (`mute`).
    InvalidSeat,
    /// `queue` with a game size other than 2, 3 or 4.
    InvalidPlayers,
    /// `queue` while already queued.
    AlreadyQueued,
    /// `unqueue` while not queued.
    NotQueued,
    /// `add_bot` in a rated room: rated games seat people and programs only.
    RatedRoom,
    /// `queue`, or `create`/`join` of a rated room, while the session
    /// still holds a seat in a running game it left.
    SeatHeld,
    /// The server's operators banned this session, name or address; the
    /// error says until when (`until`), and the connection is closed.
    Banned,
    /// `invite` names a `player_id` that is no session's.
    PlayerNotFound,
    /// The session made as many invitations as it may in an hour; the
    /// error says when the next may be made (`retry_after_ms`).
    TooManyInvitations,
    /// `hello` as a program (`"bot":true`) under a name another program
    /// holds: programs' names are unique among programs (issue 24).
    NameTaken,
    /// `decline` names an invitation the session does not have (never
    /// made, already declined or accepted, or its room gone).
    InvitationNotFound,
    /// `queue` of a program whose owner's programs (or whose address's)
    /// already play as many rated games at once as the server allows; the
    /// error says when to try again (`retry_after_ms`).
    TooManyGames,
    /// `block` past the players one session may block (500).
    TooManyBlocks,
    /// `report` past the reports one session may make in a day; the error
    /// says when the next may be made (`retry_after_ms`).
    TooManyReports,
    /// `hello` without a token from an address that made as many sessions
    /// in the last hour as the server allows (issue 45); the error says
    /// when the next may be made (`retry_after_ms`). Resuming with a token
    /// is never refused for it.
    TooManySessions,
}

impl ErrorCode {
    /// Every code, in declaration order (the schema's enum of `error.code`
    /// lists these and the rules' [`splendor_rules::REFUSAL_CODES`]).
    pub const ALL: [ErrorCode; 59] = [
        ErrorCode::InvalidJson,
        ErrorCode::BadMessage,
        ErrorCode::UnknownType,
        ErrorCode::MissingField,
        ErrorCode::InvalidField,
        ErrorCode::InvalidAction,
        ErrorCode::FrameTooLarge,
        ErrorCode::NotIdentified,
        ErrorCode::AlreadyIdentified,
        ErrorCode::InvalidToken,
        ErrorCode::InvalidName,
        ErrorCode::RoomNotFound,
        ErrorCode::RoomFull,
        ErrorCode::AlreadyInRoom,
        ErrorCode::NotInRoom,
        ErrorCode::RoomClosed,
        ErrorCode::RoomUnavailable,
        ErrorCode::NotHost,
        ErrorCode::NotEnoughPlayers,
        ErrorCode::GameAlreadyStarted,
        ErrorCode::GameNotStarted,
        ErrorCode::GameOver,
        ErrorCode::SpectatorCannotAct,
        ErrorCode::StaleVersion,
        ErrorCode::InvalidSeats,
        ErrorCode::UnknownBotLevel,
        ErrorCode::NotABot,
        ErrorCode::InvalidClock,
        ErrorCode::StandInTurn,
        ErrorCode::Resigned,
        ErrorCode::Removed,
        ErrorCode::TooManyRooms,
        ErrorCode::TooManySessionRooms,
        ErrorCode::TooManyRoomsFromAddress,
        ErrorCode::TooManyBotTables,
        ErrorCode::RateLimited,
        ErrorCode::PersistenceFailed,
        ErrorCode::StorageUnavailable,
        ErrorCode::Internal,
        ErrorCode::InvalidChat,
        ErrorCode::ChatMuted,
        ErrorCode::ChatTooFast,
        ErrorCode::HintNotAllowed,
        ErrorCode::RematchUnavailable,
        ErrorCode::InvalidSeat,
        ErrorCode::InvalidPlayers,
        ErrorCode::AlreadyQueued,
        ErrorCode::NotQueued,
        ErrorCode::RatedRoom,
        ErrorCode::SeatHeld,
        ErrorCode::Banned,
        ErrorCode::PlayerNotFound,
        ErrorCode::TooManyInvitations,
        ErrorCode::NameTaken,
        ErrorCode::InvitationNotFound,
        ErrorCode::TooManyGames,
        ErrorCode::TooManyBlocks,
        ErrorCode::TooManyReports,
        ErrorCode::TooManySessions,
    ];
}

impl ErrorCode {
    /// The code as it appears on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidJson => "invalid_json",
            ErrorCode::BadMessage => "bad_message",
            ErrorCode::UnknownType => "unknown_type",
            ErrorCode::MissingField => "missing_field",
            ErrorCode::InvalidField => "invalid_field",
            ErrorCode::InvalidAction => "invalid_action",
            ErrorCode::FrameTooLarge => "frame_too_large",
            ErrorCode::NotIdentified => "not_identified",
            ErrorCode::AlreadyIdentified => "already_identified",
            ErrorCode::InvalidToken => "invalid_token",
            ErrorCode::InvalidName => "invalid_name",
            ErrorCode::RoomNotFound => "room_not_found",
            ErrorCode::RoomFull => "room_full",
            ErrorCode::AlreadyInRoom => "already_in_room",
            ErrorCode::NotInRoom => "not_in_room",
            ErrorCode::RoomClosed => "room_closed",
            ErrorCode::RoomUnavailable => "room_unavailable",
            ErrorCode::NotHost => "not_host",
            ErrorCode::NotEnoughPlayers => "not_enough_players",
            ErrorCode::GameAlreadyStarted => "game_already_started",
            ErrorCode::GameNotStarted => "game_not_started",
            ErrorCode::GameOver => "game_over",
            ErrorCode::SpectatorCannotAct => "spectator_cannot_act",
            ErrorCode::StaleVersion => "stale_version",
            ErrorCode::InvalidSeats => "invalid_seats",
            ErrorCode::UnknownBotLevel => "unknown_bot_level",
            ErrorCode::NotABot => "not_a_bot",
            ErrorCode::InvalidClock => "invalid_clock",
            ErrorCode::StandInTurn => "stand_in_turn",
            ErrorCode::Resigned => "resigned",
            ErrorCode::Removed => "removed",
            ErrorCode::TooManyRooms => "too_many_rooms",
            ErrorCode::TooManySessionRooms => "too_many_session_rooms",
            ErrorCode::TooManyRoomsFromAddress => "too_many_rooms_from_address",
            ErrorCode::TooManyBotTables => "too_many_bot_tables",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::PersistenceFailed => "persistence_failed",
            ErrorCode::StorageUnavailable => "storage_unavailable",
            ErrorCode::Internal => "internal",
            ErrorCode::InvalidChat => "invalid_chat",
            ErrorCode::ChatMuted => "chat_muted",
            ErrorCode::ChatTooFast => "chat_too_fast",
            ErrorCode::HintNotAllowed => "hint_not_allowed",
            ErrorCode::InvalidPlayers => "invalid_players",
            ErrorCode::AlreadyQueued => "already_queued",
            ErrorCode::NotQueued => "not_queued",
            ErrorCode::RatedRoom => "rated_room",
            ErrorCode::SeatHeld => "seat_held",
            ErrorCode::Banned => "banned",
            ErrorCode::RematchUnavailable => "rematch_unavailable",
            ErrorCode::InvalidSeat => "invalid_seat",
            ErrorCode::PlayerNotFound => "player_not_found",
            ErrorCode::TooManyInvitations => "too_many_invitations",
            ErrorCode::NameTaken => "name_taken",
            ErrorCode::InvitationNotFound => "invitation_not_found",
            ErrorCode::TooManyGames => "too_many_games",
            ErrorCode::TooManyBlocks => "too_many_blocks",
            ErrorCode::TooManyReports => "too_many_reports",
            ErrorCode::TooManySessions => "too_many_sessions",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// WebSocket close codes the server sends, and why.
pub mod close {
    /// The client left normally.
    pub const NORMAL: u16 = 1000;
    /// The server is restarting (or stopping): reconnect after a short,
    /// randomised delay and resume the session with its token.
    pub const SERVICE_RESTART: u16 = 1012;
    /// A frame exceeded the hard size limit, so the stream cannot be resynchronised.
    pub const MESSAGE_TOO_BIG: u16 = 1009;
    /// A newer connection resumed the same session with the same token
    /// (another device's token does not replace it).
    pub const REPLACED: u16 = 4001;
    /// The client read too slowly: its outbound queue was full.
    pub const TOO_SLOW: u16 = 4002;
    /// The client went on sending past the message rate after a
    /// `rate_limited` error.
    pub const RATE_LIMITED: u16 = 4003;
    /// The connection sent nothing for the idle timeout while in no room.
    pub const IDLE: u16 = 4004;
    /// The client stopped answering the server's pings.
    pub const HEARTBEAT_TIMEOUT: u16 = 4005;
    /// The server's operators banned the session, its name or its address.
    pub const BANNED: u16 = 4006;
    /// The token this connection proved itself with was revoked from
    /// another device (issue 23): it opens the session no more.
    pub const REVOKED: u16 = 4007;
}
