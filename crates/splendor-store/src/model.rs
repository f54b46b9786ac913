//! The records the store reads and writes, and the checks on them.

use std::fmt;

use uuid::Uuid;

use crate::StoreError;

/// The longest display name, in characters, for sessions and seats.
pub const MAX_NAME_CHARS: usize = 64;

/// The longest room code, in characters.
pub const MAX_ROOM_CODE_CHARS: usize = 32;

/// The most JSON text one action, options or result may hold, in bytes.
pub const MAX_JSON_BYTES: usize = 64 * 1024;

/// The most games [`Store::list_finished`](crate::Store::list_finished) returns at once.
pub const MAX_PAGE: u32 = 200;

/// A point in time: milliseconds since the Unix epoch, UTC.
///
/// The store never reads the clock: every time it stores is given by the
/// caller (see [`unix_millis_now`]), so tests and replays are deterministic.
pub type UnixMillis = i64;

/// The current time as [`UnixMillis`], for callers that want the wall clock.
pub fn unix_millis_now() -> UnixMillis {
    match std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        Ok(elapsed) => i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX),
        // A clock set before 1970 is reported as negative milliseconds.
        Err(before) => i64::try_from(before.duration().as_millis()).map_or(i64::MIN, |ms| -ms),
    }
}

/// A session's id: a random UUID, public (it may be shown to other players).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SessionId(pub Uuid);

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A session's secret bearer token, handed to the player once.
///
/// Its `Debug` form hides the secret so that it cannot end up in a log by
/// accident; use [`SessionToken::as_str`] to send it to its owner.
#[derive(Clone, PartialEq, Eq)]
pub struct SessionToken(pub(crate) String);

impl SessionToken {
    /// The token as sent to the player: 64 lowercase hexadecimal digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The token as an owned string.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Debug for SessionToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SessionToken(<secret>)")
    }
}

/// A stored session: who a token belongs to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// The session's id.
    pub id: SessionId,
    /// The display name.
    pub name: String,
    /// When the session was created.
    pub created_at: UnixMillis,
    /// Played by a program (`"bot":true` in hello); ranked apart.
    pub bot: bool,
}

/// Who sits at one seat of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRecord {
    /// The seat number, from 0 to `players - 1`.
    pub seat: u8,
    /// The session that owns the seat.
    pub session_id: SessionId,
    /// The display name at the time the game started.
    pub name: String,
    /// The level of a built-in bot that holds the seat (its `session_id`
    /// is then the bot's own id, not a session's); `None` for a person.
    pub bot: Option<String>,
    /// A program played for the session (issue 24: `program_bot` in
    /// seats, lists and replays); false for a person and a built-in bot.
    pub program: bool,
}

/// A game to store when it starts: everything needed to rebuild it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// The game's id.
    pub id: Uuid,
    /// The room it is played in.
    pub room_code: String,
    /// The number of players, equal to the number of seats.
    pub players: u8,
    /// The rules options, as the JSON text the server uses.
    pub options_json: String,
    /// The seed of the shuffles; secret until the game ends.
    pub seed: u64,
    /// The salt of the commitment; secret until the game ends.
    pub salt: [u8; 32],
    /// The commitment to the seed shown to players, as hexadecimal text.
    pub commitment: String,
    /// Every seat, one per player, in any order.
    pub seats: Vec<SeatRecord>,
    /// When the game started.
    pub created_at: UnixMillis,
    /// The room's turn clock as the server's JSON text; `None` without one.
    pub clock_json: Option<String>,
    /// Whether the room was listed for strangers to join.
    pub listed: bool,
    /// Whether the game counts for its players' ratings (issue 13).
    pub rated: bool,
}

/// One accepted action, to append to its game's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionRecord {
    /// The game.
    pub game_id: Uuid,
    /// The action's place in the log, from 0: it must equal the number of
    /// actions already stored for the game (the log has no gaps).
    pub seq: u32,
    /// The seat that played it.
    pub seat: u8,
    /// The action as its wire JSON text; the store keeps it byte for byte.
    pub action_json: String,
    /// When it was accepted.
    pub at: UnixMillis,
    /// What the server keeps beside the move (who made it, the clocks
    /// after it) as its JSON text; `None` when there is nothing.
    pub meta_json: Option<String>,
}

/// One action as read back from the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    /// The action's place in the log, from 0.
    pub seq: u32,
    /// The seat that played it.
    pub seat: u8,
    /// The action's wire JSON text, exactly as appended.
    pub action_json: String,
    /// When it was accepted.
    pub at: UnixMillis,
    /// What was stored beside the move, exactly as appended.
    pub meta_json: Option<String>,
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// The result and ranking, as the JSON text given to `finish_game`.
    pub result_json: String,
    /// When the game ended.
    pub finished_at: UnixMillis,
}

/// A game as stored: its start, its seats, its whole log, its end if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The game's id.
    pub id: Uuid,
    /// The room it is played in.
    pub room_code: String,
    /// The number of players.
    pub players: u8,
    /// The rules options JSON text.
    pub options_json: String,
    /// The seed. Secret while the game runs: never show it before `finished`.
    pub seed: u64,
    /// The commitment's salt. Secret while the game runs.
    pub salt: [u8; 32],
    /// The commitment to the seed, as given to `create_game`.
    pub commitment: String,
    /// When the game started.
    pub created_at: UnixMillis,
    /// The room's turn clock as the server's JSON text; `None` without one.
    pub clock_json: Option<String>,
    /// Whether the room was listed for strangers to join.
    pub listed: bool,
    /// Whether the game counts for its players' ratings (issue 13).
    pub rated: bool,
    /// The seats in seat order.
    pub seats: Vec<SeatRecord>,
    /// The log in seq order: `actions[i].seq == i`.
    pub actions: Vec<StoredAction>,
    /// The end, once the game is finished.
    pub finished: Option<Finished>,
}

/// A finished game in the history list: no seed, no log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// The game's id.
    pub id: Uuid,
    /// The room it was played in.
    pub room_code: String,
    /// The number of players.
    pub players: u8,
    /// The seats in seat order.
    pub seats: Vec<SeatRecord>,
    /// When the game started.
    pub created_at: UnixMillis,
    /// When the game ended.
    pub finished_at: UnixMillis,
    /// The result and ranking JSON text.
    pub result_json: String,
    /// The game counted for the ratings (false once it was unrated: R13.4,
    /// R12.6, the operators).
    pub rated: bool,
}

impl GameSummary {
    /// The cursor that asks for the games listed after this one.
    pub fn cursor(&self) -> FinishedCursor {
        FinishedCursor {
            finished_at: self.finished_at,
            id: self.id,
        }
    }
}

/// A position in the list of finished games, which is ordered by
/// `(finished_at, id)`, most recent first. Pass the [`GameSummary::cursor`]
/// of the last game of a page to get the next page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FinishedCursor {
    /// The `finished_at` of the last game already seen.
    pub finished_at: UnixMillis,
    /// The id of the last game already seen.
    pub id: Uuid,
}

/// Checks a display name: 1 to [`MAX_NAME_CHARS`] characters, no control
/// characters, not only spaces.
pub(crate) fn check_name(what: &'static str, name: &str) -> Result<(), StoreError> {
    if name.trim().is_empty() {
        return Err(StoreError::invalid(what, "it is empty"));
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return Err(StoreError::invalid(
            what,
            format!("it has {chars} characters, more than {MAX_NAME_CHARS}"),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(StoreError::invalid(what, "it contains a control character"));
    }
    Ok(())
}

/// Checks that an opaque text is one well-formed JSON value of bounded size.
pub(crate) fn check_json(what: &'static str, text: &str) -> Result<(), StoreError> {
    if text.len() > MAX_JSON_BYTES {
        return Err(StoreError::invalid(
            what,
            format!("it has {} bytes, more than {MAX_JSON_BYTES}", text.len()),
        ));
    }
    serde_json::from_str::<serde::de::IgnoredAny>(text)
        .map(|_| ())
        .map_err(|err| StoreError::invalid(what, format!("it is not JSON: {err}")))
}

impl NewGame {
    /// Checks everything that can be checked without the database.
    pub(crate) fn check(&self) -> Result<(), StoreError> {
        let code_chars = self.room_code.chars().count();
        if code_chars == 0 || code_chars > MAX_ROOM_CODE_CHARS {
            return Err(StoreError::invalid(
                "room code",
                format!("it must have 1 to {MAX_ROOM_CODE_CHARS} characters, not {code_chars}"),
            ));
        }
        if self.room_code.chars().any(char::is_control) {
            return Err(StoreError::invalid(
                "room code",
                "it contains a control character",
            ));
        }
        if self.players == 0 {
            return Err(StoreError::invalid(
                "players",
                "a game needs at least one player",
            ));
        }
        check_json("options JSON", &self.options_json)?;
        if self.commitment.len() != 64 || !self.commitment.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(StoreError::invalid(
                "commitment",
                "it must be a SHA-256 digest as 64 hexadecimal digits",
            ));
        }
        if self.seats.len() != usize::from(self.players) {
            return Err(StoreError::invalid(
                "seats",
                format!(
                    "{} seats were given for {} players",
                    self.seats.len(),
                    self.players
                ),
            ));
        }
        let mut taken = vec![false; usize::from(self.players)];
        for seat in &self.seats {
            let Some(slot) = taken.get_mut(usize::from(seat.seat)) else {
                return Err(StoreError::invalid(
                    "seats",
                    format!(
                        "seat {} does not exist with {} players",
                        seat.seat, self.players
                    ),
                ));
            };
            if *slot {
                return Err(StoreError::invalid(
                    "seats",
                    format!("seat {} is given twice", seat.seat),
                ));
            }
            *slot = true;
            check_name("seat name", &seat.name)?;
        }
        Ok(())
    }
}

impl ActionRecord {
    /// Checks everything that can be checked without the database.
    pub(crate) fn check(&self) -> Result<(), StoreError> {
        check_json("action JSON", &self.action_json)
    }
}
