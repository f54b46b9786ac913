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

mod data;
mod game;
mod reject;
mod setup;
mod swar;
mod view;

pub use game::Game;
pub use setup::{ReservedCard, SeatSnapshot, Snapshot, seat_order};

/// The five gem colours, always in this order (RULES.md preamble).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Color {
    White,
    Blue,
    Green,
    Red,
    Black,
}

impl Color {
    pub const ALL: [Color; 5] = [
        Color::White,
        Color::Blue,
        Color::Green,
        Color::Red,
        Color::Black,
    ];
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        ["white", "blue", "green", "red", "black"][self as usize]
    }
    /// The gem's name as the rulebook says it ("sapphire" for blue), for messages.
    pub fn gem_name(self) -> &'static str {
        ["diamond", "sapphire", "emerald", "ruby", "onyx"][self as usize]
    }
}

/// A count of each gem colour (index = `Color::index`). Used for costs and bonuses.
pub type Gems = [u8; 5];

/// A set of tokens: five gem colours plus gold (R1.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Tokens {
    pub gems: Gems,
    pub gold: u8,
}

impl Tokens {
    pub fn total(&self) -> u32 {
        self.gems.iter().map(|&n| n as u32).sum::<u32>() + self.gold as u32
    }
}

/// Stable id of a development card: its 0-based row in `data/cards.csv`
/// (0..90). Goes on the wire as a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct CardId(pub u8);

/// Stable id of a noble: its 0-based row in `data/nobles.csv` (0..10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct NobleId(pub u8);

/// A seat at the table, 0-based, in turn order (clockwise).
pub type Seat = u8;

/// A card level, 1..=3 (R1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Level(pub u8);

/// One development card of the official set (R1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Card {
    pub id: CardId,
    pub level: Level,
    pub bonus: Color,
    pub points: u8,
    pub cost: Gems,
}

/// One noble tile (R1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Noble {
    pub id: NobleId,
    pub points: u8,
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
    Buy { card: CardId, gold: Option<Gems> },
    /// R8: return these tokens (the decision after a main action that left
    /// the player above 10 tokens).
    ReturnTokens(Tokens),
    /// R9.3: choose one of several nobles that qualify.
    ChooseNoble(NobleId),
    /// R11.1: pass, legal only when no main action is.
    Pass,
}

/// A set of gem colours, as a bit mask over `Color::index`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct ColorSet(pub u8);

impl ColorSet {
    pub fn contains(self, c: Color) -> bool {
        self.0 & (1 << c.index()) != 0
    }
    pub fn len(self) -> u32 {
        (self.0 & 0x1f).count_ones()
    }
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
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
    Main { seat: Seat },
    /// `seat` must return `count` tokens (R8).
    ReturnTokens { seat: Seat, count: u8 },
    /// `seat` must choose one of the qualifying nobles (R9.3).
    ChooseNoble { seat: Seat },
    /// The game is over (R10, R11.2).
    GameOver,
}

/// Game options beyond the player count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Options {
    /// R2.4: the seat that plays first; `None` draws it from the seed.
    pub first_seat: Option<Seat>,
}

/// An explicit starting position (for tests, tools and puzzles).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Layout {
    pub players: u8,
    /// Each level's deck, top card first (index 0 = level 1).
    pub decks: [Vec<CardId>; 3],
    /// Face-up cards per level (up to 4 each; dealt from nowhere else).
    pub face_up: [Vec<CardId>; 3],
    pub nobles: Vec<NobleId>,
    pub first_seat: Seat,
}

/// Who looks at the game: a seat, or a spectator (public view only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

/// Something that happened, in order, as a consequence of an action.
/// `redact_for` hides what a viewer may not see (R6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Event {
    TookTokens {
        seat: Seat,
        tokens: Tokens,
    },
    /// `card` is `None` in the redacted form of a blind reserve.
    Reserved {
        seat: Seat,
        level: Level,
        card: Option<CardId>,
        from_deck: bool,
        gold: bool,
    },
    Bought {
        seat: Seat,
        card: CardId,
        paid: Tokens,
    },
    /// R7A: a face-up slot was refilled from the deck.
    Dealt {
        level: Level,
        slot: u8,
        card: CardId,
    },
    ReturnedTokens {
        seat: Seat,
        tokens: Tokens,
    },
    NobleVisited {
        seat: Seat,
        noble: NobleId,
    },
    Passed {
        seat: Seat,
    },
    /// R10.1: `seat` reached 15 points; the round is finished.
    EndTriggered {
        seat: Seat,
    },
    GameOver,
}

impl Event {
    /// The form of this event that `viewer` may see (R6.4).
    pub fn redact_for(&self, viewer: Viewer) -> Event {
        match *self {
            Event::Reserved {
                seat,
                level,
                card: Some(_),
                from_deck: true,
                gold,
            } if viewer != Viewer::Seat(seat) => Event::Reserved {
                seat,
                level,
                card: None,
                from_deck: true,
                gold,
            },
            other => other,
        }
    }
}

/// A rejected action: names the rule and says why in player words (R11.3).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message} ({rule})")]
pub struct RuleError {
    /// A stable machine code, e.g. "not_your_turn", "take_two_supply".
    pub code: &'static str,
    /// The rule number, e.g. "R5.1".
    pub rule: &'static str,
    pub message: String,
}

/// Final result (R10.3, R10.4).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameResult {
    /// Seats best first, with score and purchased-card count.
    pub ranking: Vec<Standing>,
    /// Seats that share the victory (R10.4).
    pub winners: Vec<Seat>,
    /// True when the game ended by deadlock (R11.2).
    pub deadlock: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Standing {
    pub seat: Seat,
    pub points: u8,
    pub cards: u8,
    /// 1-based rank; equal ranks are shared.
    pub rank: u8,
}

/// What one viewer may see of the game (R6.4).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct View {
    pub players: u8,
    /// The seat that played first (R2.4); the round ends before it (R10.2).
    pub first_seat: Seat,
    pub phase: Phase,
    /// Turns completed so far (R10.2 bookkeeping).
    pub turn: u32,
    pub supply: Tokens,
    /// Face-up cards per level; `None` is an empty slot (R7A).
    pub face_up: [[Option<CardId>; 4]; 3],
    /// Cards left in each level's deck (count only, never order).
    pub deck_sizes: [u8; 3],
    pub nobles: Vec<NobleId>,
    pub seats: Vec<SeatView>,
    /// R9.3 candidates when the phase is ChooseNoble.
    pub noble_choices: Vec<NobleId>,
    /// Set once R10.1 triggered.
    pub end_triggered: bool,
    pub result: Option<GameResult>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SeatView {
    pub tokens: Tokens,
    pub bonuses: Gems,
    pub points: u8,
    pub purchased: Vec<CardId>,
    pub nobles: Vec<NobleId>,
    pub reserved: Vec<ReservedView>,
}

/// A reserved card as a viewer sees it: hidden ones show only their level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ReservedView {
    Card { card: CardId, from_deck: bool },
    Hidden { level: Level },
}

/// Up to this many events follow one action.
pub const MAX_EVENTS: usize = 8;

/// The events of one accepted action, in order (fixed capacity, no allocation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Events {
    len: u8,
    items: [Event; MAX_EVENTS],
}

impl Default for Events {
    fn default() -> Self {
        Events {
            len: 0,
            // Filler beyond `len`; never observed.
            items: [Event::GameOver; MAX_EVENTS],
        }
    }
}

impl Events {
    pub fn as_slice(&self) -> &[Event] {
        &self.items[..self.len as usize]
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Event> {
        self.as_slice().iter()
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Appends an event. An action produces at most `MAX_EVENTS` (five in
    /// practice: bought, dealt, noble, end triggered, game over).
    pub(crate) fn push(&mut self, event: Event) {
        self.items[self.len as usize] = event;
        self.len += 1;
    }
}

impl<'a> IntoIterator for &'a Events {
    type Item = &'a Event;
    type IntoIter = std::slice::Iter<'a, Event>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// A game that could not be set up (from a seed, a layout or a snapshot).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("Splendor is played by 2, 3 or 4 players, not {0} (R2)")]
    PlayerCount(u8),
    #[error("invalid layout: {0}")]
    Layout(String),
    #[error("invalid snapshot: {0}")]
    Snapshot(String),
}

impl fmt::Display for Action {
    /// A short human form, e.g. "take diamond+sapphire+ruby", "buy card 17".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::TakeDifferent(set) => {
                f.write_str("take ")?;
                for (i, c) in set.iter().enumerate() {
                    if i > 0 {
                        f.write_str("+")?;
                    }
                    f.write_str(c.gem_name())?;
                }
                if set.is_empty() {
                    f.write_str("nothing")?;
                }
                Ok(())
            }
            Action::TakeTwo(c) => write!(f, "take two {}", c.gem_name()),
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
                        write!(f, " {} {}", gold[c.index()], c.gem_name())?;
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
                parts[n] = (self.0.gems[c.index()], c.gem_name());
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
