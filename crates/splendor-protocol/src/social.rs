//! The table around the game: chat between the people in a room, and the
//! rematch after its end (issue 11).
//!
//! Chat is text from a person, relayed as sent (after the checks below) to
//! everyone in the room; the server never writes game state into it, never
//! stores it, and forgets it when the room closes.

use serde::{Deserialize, Serialize};

use crate::Seat;
use crate::ids::{RequestId, TurnBased};

/// The longest chat message, in characters.
pub const MAX_CHAT_CHARS: usize = 200;

/// `chat`: a short plain-text message to everyone in the room.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Chat {
    /// 1 to [`MAX_CHAT_CHARS`] characters, no control characters (line
    /// breaks included); surrounding spaces are trimmed.
    pub text: String,
}

/// `mute`: the host stops (or lets again) a seat's chat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Mute {
    /// The seat, as the `room` message numbers it; absent with
    /// `spectators`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// True: every spectator's chat instead of a seat's (those watching
    /// now and those who come).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub spectators: bool,
    /// True to mute, false to let them chat again.
    pub muted: bool,
}

/// `invite` (issue 25): a seated player of a room waiting for players
/// invites another player by their `player_id` (`welcome` gives each
/// session its own; names are not unique). The invitation waits in the
/// invitee's My games (`GET /api/me/games`) until they join the room or
/// decline it, and tells them (their notification settings: event
/// `invitation`). Answered by `invited`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Invite {
    /// The invitee's public id: ten lowercase hexadecimal digits.
    pub player_id: String,
}

/// `invited`: the answer to `invite`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Invited {
    /// The id of the `invite` request, if it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The room the player is invited to.
    pub room: String,
    /// Whom, as `invite` named them.
    pub player_id: String,
    /// Their display name (text from a person: show it as text).
    pub name: String,
    /// The invitation's id (what the invitee declines).
    pub invitation: String,
    /// False when the same invitation was already made: nothing new, and
    /// the invitee is not told again.
    pub new: bool,
}

/// `chat` from the server: what someone in the room said.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ChatInfo {
    /// The id of the sender's `chat` request, on the copy the sender gets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The room code.
    pub room: String,
    /// The sender's display name (text from a person: show it as text).
    pub from: String,
    /// The sender's seat; absent for a spectator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// The message, as the sender wrote it (trimmed).
    pub text: String,
    /// The line's number in the room, from 1 (issue 22): `report` and
    /// `block` name the line's author by it.
    #[serde(default)]
    pub line: u64,
}

/// `chat_history` (issue 23): the room's last chat lines (at most 50,
/// oldest first), given to a connection that joins the room or comes back
/// to it, after `room` (and `state`). Lines of a person the host muted or
/// the operators removed are not among them. Each line is as `chat` sent
/// it, without `id`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ChatHistory {
    /// The room code.
    pub room: String,
    /// The lines, oldest first.
    pub lines: Vec<ChatInfo>,
}

/// The rematch after a finished game, as `room` shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RematchInfo {
    /// The seats that want the rematch (bots always do).
    pub accepted: Vec<Seat>,
    /// Once everyone accepted: the code of the new room, already started,
    /// where every player holds a seat. Join it to follow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<String>,
}

/// What a room waiting for players offers an invited player (issue 24):
/// enough to accept or decline a challenge without joining first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RoomTerms {
    /// The number of seats: 2, 3 or 4.
    pub seats: u8,
    /// The seated players now (the challenger among them).
    pub players: u8,
    /// A rated room.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The room's turn clock (R12); absent without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<crate::ids::RoomClock>,
    /// A turn-based room's time per move (R12.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_based: Option<TurnBased>,
}

/// Who challenges (issue 24).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Challenger {
    /// Their display name (text from a person: show it as text).
    pub name: String,
    /// Their public id.
    pub player_id: String,
    /// A program plays for them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub program_bot: bool,
}

/// `challenge` (issue 24): pushed to every open connection of a session
/// invited by `player_id` (`invite`), at once, on whatever node it is
/// connected to. Accept by `join`ing the room as a player; decline with
/// `decline`, giving a reason the challenger is told. An invitation made
/// while the session had no open connection waits in My games (and a
/// program that says `"challenges":true` in `hello` gets its waiting ones
/// as `challenge` messages after `welcome`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Challenge {
    /// The invitation's id (what `decline` names).
    pub invitation: String,
    /// The room's code, to `join`.
    pub room: String,
    /// Who challenges.
    pub from: Challenger,
    /// What the room offers.
    pub terms: RoomTerms,
}

/// Why a challenge is declined (issue 24; Lichess's reasons, less its
/// variants).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum DeclineReason {
    /// No reason given.
    #[default]
    Generic,
    /// Not now; perhaps later.
    Later,
    /// The clock is too fast.
    TooFast,
    /// The clock is too slow (or turn-based).
    TooSlow,
    /// Not with this clock.
    TimeControl,
    /// Only rated games, please.
    Rated,
    /// Only unrated games, please.
    Casual,
    /// Not against programs.
    NoBot,
    /// Only against programs.
    OnlyBot,
}

/// `decline` (issue 24): decline a challenge (an invitation) by its id;
/// the challenger is told why (`challenge_declined`). Answered by
/// `declined`. `DELETE /api/me/invitations/{id}` does the same over HTTP.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Decline {
    /// The invitation's id, as `challenge` (or My games) gave it.
    pub invitation: String,
    /// Why; `generic` when absent.
    #[serde(default)]
    pub reason: DeclineReason,
}

/// `declined`: the answer to `decline`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Declined {
    /// The id of the `decline` request, if it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The invitation declined.
    pub invitation: String,
    /// Its room.
    pub room: String,
    /// The reason given.
    pub reason: DeclineReason,
}

/// `challenge_declined` (issue 24): pushed to the challenger's open
/// connections when the challenged player declines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ChallengeDeclined {
    /// The invitation declined.
    pub invitation: String,
    /// The room it was to.
    pub room: String,
    /// Who declined.
    pub by: Challenger,
    /// Why.
    pub reason: DeclineReason,
}

/// `block` (issue 22): block a player, named by exactly one of
/// `player_id`, `seat` (the person in that seat of the caller's room) or
/// `line` (the author of that chat line of the caller's room): quick play
/// never seats the two together again, and their chat never reaches the
/// blocker (in every room, now and later). Answered by `blocked`.
/// `unblock` takes the same fields.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Block {
    /// The player's public id: ten lowercase hexadecimal digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_id: Option<String>,
    /// A seat of the caller's room, as `room` numbers seats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// A chat line of the caller's room, as `chat` numbered it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
}

/// Whom a `block` or a `report` names: exactly one of three ways.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Named<'a> {
    /// By public id.
    PlayerId(&'a str),
    /// The person in a seat of the caller's room.
    Seat(u8),
    /// The author of a chat line of the caller's room.
    Line(u64),
}

/// Exactly one of the three, or `None`.
pub fn named(player_id: Option<&str>, seat: Option<u8>, line: Option<u64>) -> Option<Named<'_>> {
    match (player_id, seat, line) {
        (Some(id), None, None) => Some(Named::PlayerId(id)),
        (None, Some(seat), None) => Some(Named::Seat(seat)),
        (None, None, Some(line)) => Some(Named::Line(line)),
        _ => None,
    }
}

impl Block {
    /// Whom it names (the parser lets through only exactly one).
    pub fn named(&self) -> Option<Named<'_>> {
        named(self.player_id.as_deref(), self.seat, self.line)
    }
}

/// The most characters a report's reason may have.
pub const MAX_REPORT_CHARS: usize = 500;

/// `report` (issue 22): tell the server's operators about a player, named
/// like `block` names one (`player_id`, `seat` or `line`), with a reason
/// (1 to [`MAX_REPORT_CHARS`] characters, the rule chat follows). A seat
/// or a line sends the operators the room's recent chat with it. Answered
/// by `reported`; the reported player is never told.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Report {
    /// The player's public id: ten lowercase hexadecimal digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_id: Option<String>,
    /// A seat of the caller's room, as `room` numbers seats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u8>,
    /// A chat line of the caller's room, as `chat` numbered it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// What happened, in the reporter's words.
    pub reason: String,
}

impl Report {
    /// Whom it names (the parser lets through only exactly one).
    pub fn named(&self) -> Option<Named<'_>> {
        named(self.player_id.as_deref(), self.seat, self.line)
    }
}

/// `reported`: the answer to `report`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Reported {
    /// The id of the `report` request, if it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// Whom, when `report` named them by `player_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_id: Option<String>,
    /// Their display name (text from a person: show it as text).
    pub name: String,
    /// False when the caller's open report of this player already said
    /// it: nothing new is kept.
    pub new: bool,
}

/// `blocked`: the answer to `block`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Blocked {
    /// The id of the `block` request, if it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// Whom, when `block` named them by `player_id` (a seat or a chat
    /// line does not reveal one: unrated rooms do not show player ids).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_id: Option<String>,
    /// Their display name (text from a person: show it as text).
    pub name: String,
    /// False when they were blocked already.
    pub new: bool,
}

/// `unblocked`: the answer to `unblock`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Unblocked {
    /// The id of the `unblock` request, if it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// Whom, when `unblock` named them by `player_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_id: Option<String>,
    /// False when they were not blocked.
    pub was_blocked: bool,
}
