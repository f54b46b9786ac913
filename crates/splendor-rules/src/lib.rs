//! The rules of Splendor, as written in `shared/RULES.md` (R1..R11): setup,
//! validation, events, legal actions, per-seat views and scoring.
//!
//! Map of the crate:
//! - this file: the public vocabulary (colours, tokens, cards, actions,
//!   phases, events, views, errors) and the card/noble lookups;
//! - `data`: the 90 cards and 10 nobles as constant tables (ids are rows of
//!   `data/cards.csv` and `data/nobles.csv`);
//! - `setup`: the seeded shuffle (ChaCha8 and our own Fisher–Yates, pinned
//!   by golden tests), layouts and snapshots, with their validation;
//! - `game`: [`Game`], the state in small fixed-size arrays, and the one
//!   entry point [`Game::apply`] with [`Game::legal_actions`] built on the
//!   same checks;
//! - `reject`: why an action was refused, turned into a [`RuleError`];
//! - `view`: [`Game::view`], the only place a viewer's view is produced.
//!
//! ```
//! use splendor_rules::{Action, Game, Options, Viewer};
//!
//! let mut game = Game::new(3, Options::default(), 42).expect("3 players");
//! let mut legal = Vec::new();
//! while let Some(seat) = game.to_act() {
//!     game.legal_actions(&mut legal);
//!     let events = game.apply(seat, legal[0]).expect("listed actions are legal");
//!     for event in &events {
//!         let _for_seat_0 = event.redact_for(Viewer::Seat(0));
//!     }
//!     # if game.turn() > 30 { break; }
//! }
//! let err = game.apply(9, Action::Pass).unwrap_err();
//! assert_eq!(err.code, "unknown_seat");
//! let _view = game.view(Viewer::Spectator);
//! ```
//!
//! Invariants of this crate: no IO, no clock, no tokio, no wire types. A game
//! is a pure function of (player count, options, seed, actions). A rejected
//! action changes nothing (R11.3). Nothing a caller passes in can panic.
#![forbid(unsafe_code)]

use std::fmt;

mod apply;
mod data;
mod events;
mod game;
mod legal;
mod reject;
mod resign;
mod sample;
mod setup;
mod snapshot;
mod swar;
mod view;

pub use events::{Event, Events, MAX_EVENTS};
pub use game::{Game, NO_PROGRESS_ROUNDS};
pub use reject::{CODES as REFUSAL_CODES, RULES as REFUSAL_RULES};
pub use resign::bot_mask;
pub use sample::Sampler;
pub use setup::seat_order;
pub use snapshot::{ReservedCard, SeatSnapshot, Snapshot};

/// The five gem colours, always in this order (RULES.md preamble).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub enum Color {
    /// White: the diamond.
    White,
    /// Blue: the sapphire.
    Blue,
    /// Green: the emerald.
    Green,
    /// Red: the ruby.
    Red,
    /// Black: the onyx.
    Black,
}

impl Color {
    /// The five colours in their fixed order: white, blue, green, red, black.
    pub const ALL: [Color; 5] = [
        Color::White,
        Color::Blue,
        Color::Green,
        Color::Red,
        Color::Black,
    ];
    /// The colour's place in [`Color::ALL`], which is also its index in [`Gems`].
    pub fn index(self) -> usize {
        self as usize
    }
    /// The colour's name as the wire protocol writes it, e.g. "blue".
    pub fn name(self) -> &'static str {
        ["white", "blue", "green", "red", "black"][self as usize]
    }
}

/// A count of each gem colour (index = `Color::index`). Used for costs and bonuses.
pub type Gems = [u8; 5];

/// A set of tokens: five gem colours plus gold (R1.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Tokens {
    /// Tokens of each gem colour, indexed by [`Color::index`].
    pub gems: Gems,
    /// Gold (joker) tokens, which stand in for any colour when buying (R7.3).
    pub gold: u8,
}

impl Tokens {
    /// All tokens counted together, gold included (the R8.1 limit counts this).
    pub fn total(&self) -> u32 {
        self.gems.iter().map(|&n| n as u32).sum::<u32>() + self.gold as u32
    }
}

/// Stable id of a development card: its 0-based row in `data/cards.csv`
/// (0..90). Goes on the wire as a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct CardId(pub u8);

/// Stable id of a noble: its 0-based row in `data/nobles.csv` (0..10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct NobleId(pub u8);

/// A seat at the table, 0-based, in turn order (clockwise).
pub type Seat = u8;

/// A card level, 1..=3 (R1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
#[cfg_attr(feature = "schemars", derive(schemars::JsonSchema))]
pub struct Level(pub u8);

/// One development card of the official set (R1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Card {
    /// The card's stable id: its row in `data/cards.csv`.
    pub id: CardId,
    /// The card's level, 1 to 3 (R1.2).
    pub level: Level,
    /// The colour of the bonus the card gives its owner (R7.2).
    pub bonus: Color,
    /// Prestige points, 0 to 5 (R1.2).
    pub points: u8,
    /// The price per gem colour, before bonuses lower it (R7.2).
    pub cost: Gems,
}

/// One noble tile (R1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Noble {
    /// The noble's stable id: its row in `data/nobles.csv`.
    pub id: NobleId,
    /// Prestige points: 3 for every noble (R9.4).
    pub points: u8,
    /// The bonuses per colour a player must own to be visited (R9.1).
    pub requires: Gems,
}

/// The card with this id, if the id is one of the 90.
pub fn card(id: CardId) -> Option<&'static Card> {
    data::CARDS.get(id.0 as usize)
}

/// The noble with this id, if the id is one of the 10.
pub fn noble(id: NobleId) -> Option<&'static Noble> {
    data::NOBLES.get(id.0 as usize)
}

/// All 90 development cards, in id order (R1.2).
pub fn all_cards() -> &'static [Card; 90] {
    &data::CARDS
}

/// All 10 nobles, in id order (R1.3).
pub fn all_nobles() -> &'static [Noble; 10] {
    &data::NOBLES
}

/// An action or decision a seat sends (R3..R9, R11.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Action {
    /// R4: one token each of up to three different colours (set as a mask
    /// over `Color::index`; fewer than three only under R4.2).
    TakeDifferent(ColorSet),
    /// R5: two tokens of one colour.
    TakeTwo(Color),
    /// R6.1: reserve a face-up card.
    ReserveFaceUp(CardId),
    /// R6.1: reserve the top card of a level's deck (blind).
    ReserveFromDeck(Level),
    /// R7: buy a face-up card or one of your own reserved cards.
    /// `gold` says how much gold stands in for each colour (R7.3);
    /// `None` means the default payment (coloured tokens first).
    Buy {
        /// The card to buy: face-up, or in the buyer's own reserve (R7.1).
        card: CardId,
        /// R7.3: the gold spent per colour; `None` for the default payment.
        gold: Option<Gems>,
    },
    /// R8: return these tokens (the decision after a main action that left
    /// the player above 10 tokens).
    ReturnTokens(Tokens),
    /// R9.3: choose one of several nobles that qualify.
    ChooseNoble(NobleId),
    /// R11.1: pass, legal only when no main action is.
    Pass,
    /// R13.1: resign, at any moment of the game, whoever is to move. Never
    /// in the legal actions of a turn: it is not a move but leaving the
    /// game, and it is its own message on the wire.
    Resign,
}

/// A set of gem colours, as a bit mask over `Color::index`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct ColorSet(pub u8);

impl ColorSet {
    /// Whether `c` is in the set.
    pub fn contains(self, c: Color) -> bool {
        self.0 & (1 << c.index()) != 0
    }
    /// How many colours the set holds.
    pub fn len(self) -> u32 {
        (self.0 & 0x1f).count_ones()
    }
    /// Whether the set holds no colour.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
    /// The colours in the set, in [`Color::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Color> {
        Color::ALL.into_iter().filter(move |c| self.contains(*c))
    }
}

impl FromIterator<Color> for ColorSet {
    fn from_iter<I: IntoIterator<Item = Color>>(iter: I) -> Self {
        ColorSet(iter.into_iter().fold(0, |m, c| m | (1 << c.index())))
    }
}

/// What the game waits for, and from whom (R3, R8.2, R9.3, R11.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Phase {
    /// `seat` must make a main action (or pass under R11.1).
    Main {
        /// The seat whose turn it is.
        seat: Seat,
    },
    /// `seat` must return `count` tokens (R8).
    ReturnTokens {
        /// The active seat, above 10 tokens (R8.1).
        seat: Seat,
        /// How many tokens it must return to keep exactly 10 (R8.1).
        count: u8,
    },
    /// `seat` must choose one of the qualifying nobles (R9.3).
    ChooseNoble {
        /// The active seat, which several nobles qualify for.
        seat: Seat,
    },
    /// The game is over (R10, R11.2).
    GameOver,
}

/// Game options beyond the player count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Options {
    /// R2.4: the seat that plays first; `None` draws it from the seed.
    pub first_seat: Option<Seat>,
    /// The server's rulings the game is played by: a stored game keeps
    /// the result it was played to. Absent in what was stored before
    /// there were versions: [`Rulings::FIRST`].
    #[cfg_attr(feature = "serde", serde(default = "Rulings::first"))]
    pub rulings: Rulings,
}

impl Default for Options {
    /// A new game: the first seat drawn from the seed, today's rulings.
    fn default() -> Options {
        Options {
            first_seat: None,
            rulings: Rulings::CURRENT,
        }
    }
}

/// The version of the server's rulings (shared/RULES.md, R11 to R13) a
/// game is played by. Games stored before a ruling keep the result they
/// were played to, so a game records its version and its replay is judged
/// by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
pub struct Rulings(pub u16);

impl Rulings {
    /// Every game before 2026-11-29.
    pub const FIRST: Rulings = Rulings(1);
    /// From 2026-11-29: R11.6 (25 rounds without progress end the game)
    /// and R13.2 as amended (the one person left ranks first).
    pub const CURRENT: Rulings = Rulings(2);

    /// [`Rulings::FIRST`], for serde's defaults.
    pub fn first() -> Rulings {
        Rulings::FIRST
    }

    /// Whether R11.6 ends a game without progress.
    pub fn no_progress(self) -> bool {
        self >= Rulings(2)
    }

    /// Whether R13.2 ranks the one person left first.
    pub fn person_left_first(self) -> bool {
        self >= Rulings(2)
    }

    /// Whether this server knows these rulings (a later server's game may
    /// not be judged by an earlier one).
    pub fn is_known(self) -> bool {
        (Rulings::FIRST..=Rulings::CURRENT).contains(&self)
    }
}

/// How a game ended: one field of every result, whatever the ending.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum End {
    /// R10.1, R10.2: a player reached 15 points and the round was finished.
    #[default]
    Points,
    /// R11.2: a full round of passes.
    Deadlock,
    /// R11.6: 25 rounds in a row without a card bought or reserved.
    NoProgress,
    /// R13.2: the players left in play were one person, or bots only.
    Resigned,
    /// R12.6: nobody in play was connected for 2 minutes (the server's).
    Deserted,
    /// The server's operators ended it (no winner; the server's).
    Operators,
}

impl End {
    /// How a result recorded before endings were (2026-11-29) ended, from
    /// what it says: a deadlock, no winner (the operators), a resignation
    /// with nobody at 15 points (R13.2), else on points.
    pub fn inferred(result_deadlock: bool, winners: &[Seat], resigned: &[Seat], best: u8) -> End {
        if result_deadlock {
            End::Deadlock
        } else if winners.is_empty() {
            End::Operators
        } else if !resigned.is_empty() && best < 15 {
            End::Resigned
        } else {
            End::Points
        }
    }
}

/// An explicit starting position (for tests, tools and puzzles).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Layout {
    /// The number of players, 2, 3 or 4 (R2).
    pub players: u8,
    /// Each level's deck, top card first (index 0 = level 1).
    pub decks: [Vec<CardId>; 3],
    /// Face-up cards per level (up to 4 each; dealt from nowhere else).
    pub face_up: [Vec<CardId>; 3],
    /// The nobles revealed on the table (R2.2).
    pub nobles: Vec<NobleId>,
    /// The seat that plays first (R2.4).
    pub first_seat: Seat,
}

/// Who looks at the game: a seat, or a spectator (public view only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// The player in this seat: the public state and that seat's own reserved cards.
    Seat(Seat),
    /// Someone without a seat: the public state only.
    Spectator,
}

/// A rejected action: names the rule and says why (R11.3).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code} ({rule}): {words}")]
pub struct RuleError {
    /// A stable machine code, e.g. "not_your_turn", "take_two_supply".
    pub code: &'static str,
    /// The rule number, e.g. "R5.1".
    pub rule: &'static str,
    /// Why, as a message id and its arguments, e.g. `rule-take-two-supply`
    /// with `left` 3 and `color` blue ("take two: only 3 blue tokens left,
    /// 4 needed" in English).
    pub words: splendor_words::Words,
}

/// Final result (R10.3, R10.4).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameResult {
    /// Seats best first, with score and purchased-card count.
    pub ranking: Vec<Standing>,
    /// Seats that share the victory (R10.4).
    pub winners: Vec<Seat>,
    /// True when the game ended by deadlock (R11.2); kept beside `end`
    /// for the readers of before.
    pub deadlock: bool,
    /// The seats that resigned, first to resign first (R13.1): they rank
    /// below every seat still in play, a later resignation above an
    /// earlier one.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub resigned: Vec<Seat>,
    /// How the game ended. A result written before there was this field
    /// gets it from the others ([`End::inferred`]).
    #[cfg_attr(feature = "serde", serde(default))]
    pub end: Option<End>,
}

impl GameResult {
    /// Whether two results say the same. A result recorded before endings
    /// were (no `end`) says nothing of how the game ended beyond its other
    /// fields, so its ending is not compared: an inferred one could differ
    /// from the one its log leads to (a resignation that ended a game in
    /// which someone had 15 points, R13.2).
    pub fn same_as(&self, other: &GameResult) -> bool {
        self.ranking == other.ranking
            && self.winners == other.winners
            && self.deadlock == other.deadlock
            && self.resigned == other.resigned
            && (self.end.is_none() || other.end.is_none() || self.end == other.end)
    }

    /// How the game ended: as recorded, or inferred for a result recorded
    /// before endings were.
    pub fn end(&self) -> End {
        self.end.unwrap_or_else(|| {
            let best = self.ranking.first().map_or(0, |s| s.points);
            End::inferred(self.deadlock, &self.winners, &self.resigned, best)
        })
    }
}

/// One seat's place in the final ranking (R10.3, R10.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Standing {
    /// The seat.
    pub seat: Seat,
    /// The score: points of purchased cards plus nobles (R10.3).
    pub points: u8,
    /// How many development cards the seat purchased; fewer wins a tie (R10.4).
    pub cards: u8,
    /// 1-based rank; equal ranks are shared.
    pub rank: u8,
}

/// What one viewer may see of the game (R6.4).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct View {
    /// The number of players, 2, 3 or 4 (R2).
    pub players: u8,
    /// The seat that played first (R2.4); the round ends before it (R10.2).
    pub first_seat: Seat,
    /// What the game waits for, and from whom.
    pub phase: Phase,
    /// Turns completed so far (R10.2 bookkeeping).
    pub turn: u32,
    /// Consecutive turns that were passes (R11.2: a full round of them
    /// ends the game). Public: everyone saw them.
    pub passes: u8,
    /// Rounds in a row without a card bought or reserved (R11.6: the 25th
    /// ends the game); 0 under rulings without R11.6.
    #[cfg_attr(feature = "serde", serde(default))]
    pub idle_rounds: u8,
    /// Whether a turn of the round in progress bought or reserved a card
    /// (R11.6).
    #[cfg_attr(feature = "serde", serde(default))]
    pub round_progress: bool,
    /// Whether R11.6 applies to this game (its rulings).
    #[cfg_attr(feature = "serde", serde(default))]
    pub no_progress_rule: bool,
    /// The tokens in the supply.
    pub supply: Tokens,
    /// Face-up cards per level; `None` is an empty slot (R7A).
    pub face_up: [[Option<CardId>; 4]; 3],
    /// Cards left in each level's deck (count only, never order).
    pub deck_sizes: [u8; 3],
    /// The nobles still on the table.
    pub nobles: Vec<NobleId>,
    /// One entry per seat, in seat order.
    pub seats: Vec<SeatView>,
    /// R9.3 candidates when the phase is ChooseNoble.
    pub noble_choices: Vec<NobleId>,
    /// Set once R10.1 triggered.
    pub end_triggered: bool,
    /// The seats that resigned, first to resign first (R13.1); public.
    pub resigned: Vec<Seat>,
    /// The final result, once the game is over (R10.3, R10.4).
    pub result: Option<GameResult>,
}

/// One seat as a viewer sees it: everything is public except other seats'
/// blind reserves (R6.4).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SeatView {
    /// The tokens the seat holds.
    pub tokens: Tokens,
    /// Bonuses per colour: one per purchased card of that colour (R7.2).
    pub bonuses: Gems,
    /// Points of purchased cards plus nobles (R10.3).
    pub points: u8,
    /// The cards the seat bought, in id order.
    pub purchased: Vec<CardId>,
    /// The nobles that visited the seat (R9).
    pub nobles: Vec<NobleId>,
    /// The seat's reserved cards (at most 3, R6.2), in the order they were reserved.
    pub reserved: Vec<ReservedView>,
}

/// A reserved card as a viewer sees it: hidden ones show only their level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ReservedView {
    /// A card the viewer may see: one reserved face-up, or the viewer's own.
    Card {
        /// The reserved card.
        card: CardId,
        /// Whether it was reserved blind from a deck (R6.1).
        from_deck: bool,
    },
    /// Another seat's blind reserve, of which only the level is known (R6.4).
    Hidden {
        /// The level of the deck it came from.
        level: Level,
    },
}

/// A game that could not be set up (from a seed, a layout or a snapshot).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// R2: a player count other than 2, 3 or 4.
    #[error("Splendor is played by 2, 3 or 4 players, not {0} (R2)")]
    PlayerCount(u8),
    /// A layout that breaks a rule of setup; the text says which.
    #[error("invalid layout: {0}")]
    Layout(String),
    /// A snapshot that breaks an invariant of the engine; the text says which.
    #[error("invalid snapshot: {0}")]
    Snapshot(String),
    /// Rulings this server does not know (a game of a later server).
    #[error("the game is played by rulings {0}, which this server does not know")]
    UnknownRulings(u16),
}

impl fmt::Display for Action {
    /// A short human form, e.g. "take white+blue+red", "buy card 17".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::TakeDifferent(set) => {
                f.write_str("take ")?;
                for (i, c) in set.iter().enumerate() {
                    if i > 0 {
                        f.write_str("+")?;
                    }
                    f.write_str(c.name())?;
                }
                if set.is_empty() {
                    f.write_str("nothing")?;
                }
                Ok(())
            }
            Action::TakeTwo(c) => write!(f, "take two {}", c.name()),
            Action::ReserveFaceUp(card) => write!(f, "reserve card {}", card.0),
            Action::ReserveFromDeck(level) => write!(f, "reserve from the level {} deck", level.0),
            Action::Buy { card, gold: None } => write!(f, "buy card {}", card.0),
            Action::Buy {
                card,
                gold: Some(gold),
            } => {
                write!(f, "buy card {} with gold for", card.0)?;
                let mut any = false;
                for c in Color::ALL {
                    if gold[c.index()] > 0 {
                        write!(f, " {} {}", gold[c.index()], c.name())?;
                        any = true;
                    }
                }
                if !any {
                    f.write_str(" nothing")?;
                }
                Ok(())
            }
            Action::ReturnTokens(tokens) => write!(f, "return {}", TokensText(tokens)),
            Action::ChooseNoble(noble) => write!(f, "choose noble {}", noble.0),
            Action::Pass => f.write_str("pass"),
            Action::Resign => f.write_str("resign"),
        }
    }
}

/// Tokens in words, e.g. "2 ruby and 1 gold"; "nothing" when empty.
pub(crate) struct TokensText(pub Tokens);

impl fmt::Display for TokensText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: [(u8, &str); 6] = [(0, ""); 6];
        let mut n = 0;
        for c in Color::ALL {
            if self.0.gems[c.index()] > 0 {
                parts[n] = (self.0.gems[c.index()], c.name());
                n += 1;
            }
        }
        if self.0.gold > 0 {
            parts[n] = (self.0.gold, "gold");
            n += 1;
        }
        if n == 0 {
            return f.write_str("nothing");
        }
        for (i, (count, name)) in parts[..n].iter().enumerate() {
            if i > 0 {
                f.write_str(if i + 1 == n { " and " } else { ", " })?;
            }
            write!(f, "{count} {name}")?;
        }
        Ok(())
    }
}
