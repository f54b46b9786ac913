//! The wire form of a game's state, its events and its result: what the
//! `state`, `events`, `history` and `result` messages carry (issue 49: the
//! shapes, apart from `view.rs`, which translates the rules' `View` into
//! them, and from `server.rs`, which names them in its messages).

use serde::{Deserialize, Serialize};
use splendor_rules::{CardId, Color, Level, NobleId, Seat};

use crate::action::WireAction;
use crate::ids::RequestId;
use crate::tokens::{GemCounts, TokenCounts};

/// A development card with its details (R1.2). It reads from its full
/// object or from its bare id (a lean state's form, see [`crate::lean`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct CardInfo {
    /// The card's id: its row in `cards.csv`, 0 to 89.
    pub id: CardId,
    /// The card's level, 1 to 3 (R1.2).
    pub level: Level,
    /// The colour of the bonus the card gives its owner (R7.2).
    pub bonus: Color,
    /// Prestige points, 0 to 5 (R1.2).
    pub points: u8,
    /// The price per gem colour, before bonuses lower it (R7.2).
    pub cost: GemCounts,
}

/// A noble tile with its details (R1.3). It reads from its full object or
/// from its bare id (a lean state's form, see [`crate::lean`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct NobleInfo {
    /// The noble's id: its row in `nobles.csv`, 0 to 9.
    pub id: NobleId,
    /// Prestige points: 3 (R9.4).
    pub points: u8,
    /// The bonuses per colour a player must own to be visited (R9.1).
    pub requires: GemCounts,
}

/// One level of the table: its deck size and its face-up slots.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct LevelRow {
    /// The level, 1 to 3.
    pub level: Level,
    /// Cards left in the deck (never their order).
    pub deck: u8,
    /// Four slots; `null` is a slot left empty by an empty deck (R7A).
    pub cards: Vec<Option<CardInfo>>,
}

/// A reserved card. `card` is `null` when the viewer may not see it: then
/// only its level is known (R6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ReservedInfo {
    /// The card's level, which everyone may see (R6.4).
    pub level: Level,
    /// True for a blind reserve from the top of a deck.
    pub from_deck: bool,
    /// The card, or `null` for another seat's blind reserve (R6.4).
    pub card: Option<CardInfo>,
}

/// One seat's public holdings, plus its hidden reserves for its owner.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PlayerInfo {
    /// The seat.
    pub seat: Seat,
    /// The display name of the player in the seat (absent from a lean
    /// state: empty here).
    #[serde(default)]
    pub name: String,
    /// Points of bought cards plus nobles (R10.3).
    pub points: u8,
    /// The tokens the player holds.
    pub tokens: TokenCounts,
    /// Bonuses per colour: one per bought card of that colour (R7.2).
    pub bonuses: GemCounts,
    /// Purchased cards, by card id (the rules view keeps no purchase order).
    pub cards: Vec<CardInfo>,
    /// The nobles that visited the player (R9).
    pub nobles: Vec<NobleInfo>,
    /// The reserved cards, at most 3 (R6.2).
    pub reserved: Vec<ReservedInfo>,
}

/// Something that happened, tagged by `event`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum WireEvent {
    /// `took_tokens`: a seat took tokens from the supply (R4, R5).
    TookTokens {
        /// The seat that took them.
        seat: Seat,
        /// The tokens taken.
        tokens: TokenCounts,
    },
    /// `card` is `null` for a blind reserve seen by anyone but its owner.
    Reserved {
        /// The seat that reserved the card (R6).
        seat: Seat,
        /// The level of the card, which everyone may see (R6.4).
        level: Level,
        /// True for a blind reserve from the top of a deck (R6.1).
        from_deck: bool,
        /// True when a gold token came with it (R6.3).
        gold: bool,
        /// The card; `null` for a blind reserve seen by anyone but its owner
        /// (R6.4).
        card: Option<CardInfo>,
    },
    /// `bought`: a seat bought a card (R7).
    Bought {
        /// The buyer.
        seat: Seat,
        /// The card bought, now in the buyer's tableau (R7.5).
        card: CardInfo,
        /// The tokens paid, gold included; they went back to the supply (R7.4).
        paid: TokenCounts,
    },
    /// A face-up slot was refilled from its deck (R7A).
    Dealt {
        /// The level of the slot and of the deck.
        level: Level,
        /// The slot refilled: its place in that level's `cards`, 0 to 3.
        slot: u8,
        /// The card now face-up in that slot.
        card: CardInfo,
    },
    /// `returned_tokens`: a seat above 10 tokens gave some back (R8.1).
    ReturnedTokens {
        /// The seat that returned them.
        seat: Seat,
        /// The tokens returned to the supply.
        tokens: TokenCounts,
    },
    /// `noble_visited`: a noble visited a seat (R9).
    NobleVisited {
        /// The seat visited.
        seat: Seat,
        /// The noble, worth 3 points to that seat (R9.4).
        noble: NobleInfo,
    },
    /// `passed`: a seat passed, having no legal action (R11.1).
    Passed {
        /// The seat that passed.
        seat: Seat,
    },
    /// `resigned`: a seat resigned (R13.1); the stand-in plays it from now
    /// on, unless `game_over` follows at once (R13.2).
    Resigned {
        /// The seat that resigned.
        seat: Seat,
    },
    /// A player reached 15 points; the round is finished (R10.1).
    EndTriggered {
        /// The seat that reached 15 points.
        seat: Seat,
    },
    /// `game_over`: the game is over (R10.2, R11.2); a `result` message follows.
    GameOver,
}

/// What the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PhaseName {
    /// A main action (R3), or a pass when none is possible (R11.1).
    Main,
    /// Tokens must be returned down to 10 (R8).
    ReturnTokens,
    /// A noble must be chosen among several (R9.3).
    ChooseNoble,
    /// The game is over (R10.2, R11.2); nobody acts any more.
    GameOver,
}

/// The game as the receiving connection may see it (R6.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct StateInfo {
    /// The id of the request this answers; absent when the message was pushed
    /// because something happened in the room.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// True for a lean state (after an action, protocol 2): cards and nobles
    /// came as bare ids (read back into their details here), and `game`,
    /// `commitment`, `first_seat` and the players' names were left out (they
    /// are empty or 0 here; the last full state has them).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lean: bool,
    /// The room code.
    pub room: String,
    /// The game's id: its replay is `GET /api/games/{game}/replay` once it is over.
    #[serde(default)]
    pub game: String,
    /// The commitment to the game's secret seed, `SHA-256(salt || seed)` in
    /// hexadecimal (docs/REPLAYS.md); fixed for the whole game. Keep it: the
    /// `result` reveals the seed and salt, and the replay must match it.
    #[serde(default)]
    pub commitment: String,
    /// The number of actions applied so far; `act` may name it as `expect_version`.
    pub version: u64,
    /// The receiver's seat; absent for spectators.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub you: Option<Seat>,
    /// `main`, `return_tokens` (R8), `choose_noble` (R9.3) or `game_over`.
    pub phase: PhaseName,
    /// The seat that must act; absent when the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_act: Option<Seat>,
    /// In `return_tokens`: how many tokens must go back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_count: Option<u8>,
    /// In `choose_noble`: the nobles to choose from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub noble_choices: Vec<NobleInfo>,
    /// The seat that played first (R2.4); the last round ends before it (R10.2).
    #[serde(default)]
    pub first_seat: Seat,
    /// Turns completed so far.
    pub turn: u32,
    /// The tokens in the supply.
    pub supply: TokenCounts,
    /// Levels 1, 2, 3: deck size and face-up cards.
    pub levels: Vec<LevelRow>,
    /// The nobles still on the table.
    pub nobles: Vec<NobleInfo>,
    /// One entry per seat, in seat order.
    pub players: Vec<PlayerInfo>,
    /// Set once a player reached 15 points (R10.1).
    pub end_triggered: bool,
    /// The seats whose players resigned, first to resign first (R13.1):
    /// the stand-in plays them (R13.2); absent when nobody resigned.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resigned: Vec<Seat>,
    /// For the player who must act, and only for them: every legal action,
    /// in exactly the form `act` takes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub legal_actions: Option<Vec<WireAction>>,
    /// In a room with a clock (R12), one entry per seat; absent without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clocks: Option<Vec<ClockInfo>>,
}

/// One seat's clock (R12.1) as of the message: a client counts down from
/// `remaining_ms` while `running`, without needing the server's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ClockInfo {
    /// Milliseconds left, as of this message: the bank, or what is left of
    /// the grace for a seat the stand-in plays (R12.2).
    pub remaining_ms: u64,
    /// Whether this clock runs now (the game waits for this seat).
    pub running: bool,
    /// The seat is played by the stand-in (R12.2): its player ran out of
    /// time and has not acted within a grace since.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stand_in: bool,
    /// A built-in bot's seat has no clock (R12.1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
}

/// What the last action did, as the receiving connection may see it.
/// Followed by a `state` with the same version.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct EventsInfo {
    /// On the actor's copy only: the id of its `act` request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The room code.
    pub room: String,
    /// The version the events lead to.
    pub version: u64,
    /// Who made the action when it was not the seat's player alone: `bot`
    /// (the built-in bot holding the seat), `stand_in` (R12.2, R12.4), or
    /// `hint` (the player, after a practice hint at that position).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// The events, in the order they happened.
    pub events: Vec<WireEvent>,
}

/// Every action of the game so far, each as its `events` message, as the
/// receiver may see them (redacted exactly as live events: another seat's
/// blind reserve stays a level). Sent before the `state` on join, resume
/// and `sync` of a started game, so a move log can be complete.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HistoryInfo {
    /// The room code.
    pub room: String,
    /// The state version the history leads to (the last entry's version).
    pub version: u64,
    /// One entry per action, oldest first, versions 1 to `version`.
    pub actions: Vec<EventsInfo>,
}

/// One line of the final ranking (R10.3, R10.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RankInfo {
    /// The seat.
    pub seat: Seat,
    /// The display name of the player in the seat.
    pub name: String,
    /// The final score: points of bought cards plus nobles (R10.3).
    pub points: u8,
    /// Purchased development cards (the R10.4 tie-break).
    pub cards: u8,
    /// 1-based; tied players share a rank.
    pub rank: u8,
}

/// The final result, sent once when the game ends and on `sync` afterwards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ResultInfo {
    /// The id of the request this answers; absent when the message was pushed
    /// because something happened in the room.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    /// The room code.
    pub room: String,
    /// Every seat, best first: by points, then fewer bought cards (R10.3,
    /// R10.4); the seats that resigned last, a later resignation first
    /// (R13.1).
    pub ranking: Vec<RankInfo>,
    /// The seats that share the victory (R10.4).
    pub winners: Vec<Seat>,
    /// True when the game ended because nobody could act (R11.2); the same
    /// as `"end":"deadlock"`, kept for the clients of before.
    pub deadlock: bool,
    /// How the game ended (every ending, one field). A server of before
    /// 2026-11-29 sent none: read `deadlock` then.
    #[serde(default)]
    pub end: GameEnd,
    /// The seats whose players resigned, first to resign first (R13.1);
    /// absent when nobody did.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resigned: Vec<Seat>,
    /// The game's id, for `GET /api/games/{game}/replay`.
    pub game: String,
    /// The seed and salt behind the commitment, now that the game is over.
    pub reveal: Reveal,
    /// The places in the log (from 0) of the actions a stand-in made for a
    /// player out of time or away (R12.4); absent when there were none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stand_in_actions: Vec<u64>,
}

/// How a game ended.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum GameEnd {
    /// A player reached 15 points and the round was finished (R10.1, R10.2).
    #[default]
    Points,
    /// A full round of passes (R11.2).
    Deadlock,
    /// 25 rounds in a row without a card bought or reserved (R11.6).
    NoProgress,
    /// The players left in play were one person, or bots only (R13.2).
    Resigned,
    /// Nobody in play was connected for 2 minutes: unrated (R12.6).
    Deserted,
    /// The server's operators ended it: no winner.
    Operators,
}

impl From<splendor_rules::End> for GameEnd {
    fn from(end: splendor_rules::End) -> GameEnd {
        use splendor_rules::End;
        match end {
            End::Points => GameEnd::Points,
            End::Deadlock => GameEnd::Deadlock,
            End::NoProgress => GameEnd::NoProgress,
            End::Resigned => GameEnd::Resigned,
            End::Deserted => GameEnd::Deserted,
            End::Operators => GameEnd::Operators,
        }
    }
}

/// What a finished game reveals so that its players can check the deal
/// (docs/REPLAYS.md): `commitment == SHA-256(salt || seed)`, with the salt's
/// 32 bytes and the seed's 8 big-endian bytes, all as lowercase hexadecimal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Reveal {
    /// The commitment every player received when the game started.
    pub commitment: String,
    /// The seed every shuffle came from (R2.5): 16 hexadecimal digits.
    pub seed: String,
    /// The commitment's salt: 64 hexadecimal digits.
    pub salt: String,
}
