//! Quick play (issue 13): a session queues for a rated game of 2, 3 or 4
//! players; the server forms the game when enough wait and seats everyone.

use serde::{Deserialize, Serialize};

use crate::ids::{RequestId, RoomClock};

/// The quick-play pools (issue 24): people and programs wait apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Pool {
    /// People: a person's default. Rated on the people's leaderboard.
    People,
    /// Programs (sessions whose `hello` said `"bot":true`): a program's
    /// only pool. A person may choose it to play programs; such a game is
    /// not rated.
    Programs,
}

/// `queue`: wait for a rated game of `players`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Queue {
    /// 2, 3 or 4 (else `invalid_players`).
    pub players: u8,
    /// After this many seconds (1 to 600) without enough people, built-in
    /// bots take the seats still free and the game starts; their seats are
    /// not rated. Absent: wait for people only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_after_s: Option<u32>,
    /// The pool to wait in: absent, the session's own (`people` for a
    /// person, `programs` for a program); a person may ask for `programs`
    /// (unrated games against programs); a program may not ask for
    /// `people` (`invalid_field`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<Pool>,
}

/// `queued`: the session waits in the queue for games of `players`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Queued {
    /// The id of the `queue` request; absent when sent after a resume.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The game size waited for.
    pub players: u8,
    /// The pool waited in.
    pub pool: Pool,
    /// Sessions waiting in that queue (that size, that pool) now, this one
    /// included.
    pub waiting: u64,
    /// The clock of its games (R12), with the stand-in for the away.
    pub clock: RoomClock,
    /// Seconds left before built-in bots fill the free seats, when the
    /// `queue` asked for them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_after_s: Option<u32>,
}

/// `unqueued`: the answer to `unqueue`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Unqueued {
    /// The id of the `unqueue` request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The game size the session no longer waits for.
    pub players: u8,
}

/// `matched`: the queue made a game; `room` and `state` follow.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Matched {
    /// The new room's code; the session is seated there.
    pub room: String,
    /// How many play.
    pub players: u8,
}
