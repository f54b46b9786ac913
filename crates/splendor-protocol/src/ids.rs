//! The words several message families share (issue 49): a request's id, a
//! role in a room, a turn-based room's time per move and a room's clock.
//! The client's messages, the server's, quick play and the social messages
//! all name them; here they sit below all of them.

use serde::{Deserialize, Serialize};

/// A client-chosen request id, echoed by the reply or the error.
/// A string of at most [`MAX_REQUEST_ID_LEN`] characters or a number.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum RequestId {
    /// A number, echoed as sent.
    Number(serde_json::Number),
    /// A string of at most [`MAX_REQUEST_ID_LEN`] characters.
    String(String),
}

/// The longest string request id the server echoes, in characters.
pub const MAX_REQUEST_ID_LEN: usize = 128;

/// A turn-based room's time per move as `create` gives it (R12.5): whole
/// seconds from 1 hour to 14 days, else `invalid_clock`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnBased {
    /// The time each turn has, from the moment it starts, in seconds.
    pub per_move_s: i64,
    /// What a passed deadline means: `stand_in` (the default: the stand-in
    /// plays that turn) or `resign` (the player resigns, R13).
    #[serde(default)]
    pub on_deadline: OnDeadline,
}

/// What a passed deadline of a turn-based room means (R12.5).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum OnDeadline {
    /// `stand_in`: the stand-in plays that turn (as R12.2); the player has
    /// the next deadline to take the seat back.
    #[default]
    StandIn,
    /// `resign`: the player resigns (R13).
    Resign,
}

/// The role a connection joins a room in.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// `player`: take a seat (the default).
    #[default]
    Player,
    /// `spectator`: watch without a seat, seeing only what everyone may see
    /// (R6.4).
    Spectator,
}

/// A room's turn clock, as `room` shows it (R12.1, R12.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RoomClock {
    /// Each player's bank at the start, in seconds.
    pub initial_s: u64,
    /// Added when each of a player's turns ends, in seconds.
    pub increment_s: u64,
    /// A disconnected player's turn goes to the stand-in after the grace.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stand_in_when_away: bool,
}
