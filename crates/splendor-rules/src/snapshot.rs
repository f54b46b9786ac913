//! Snapshots of a whole game: its complete state in plain form, and a
//! [`Game`] built back from one, validated before it exists.

use crate::data::CARDS;
use crate::game::{Game, MAX_RESERVED, NONE, TOKEN_LIMIT};
use crate::setup::{Seen, game_from_layout, initial_supply};
use crate::{CardId, Layout, NobleId, Phase, SetupError, Tokens};

/// The complete state of a game in plain form: what a [`Game`] serializes
/// to, and a way to build any position exactly (`Game::from_snapshot`
/// validates it). Bonuses, points and card counts are not stored; they
/// follow from the purchased cards and nobles.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Snapshot {
    /// The layout the game started from; its decks hold the order of the
    /// cards not drawn yet.
    pub layout: Layout,
    /// Cards drawn so far from the top of each level's layout deck.
    pub drawn: [u8; 3],
    /// What the game waits for, and from whom.
    pub phase: Phase,
    /// Turns completed so far.
    pub turn: u32,
    /// R11.2: consecutive turns that were passes.
    pub passes: u8,
    /// R10.1 has triggered.
    pub end_triggered: bool,
    /// The game ended by R11.2.
    pub deadlock: bool,
    /// How the game ended, once it did; absent in a snapshot of before
    /// (then a deadlock, or on points or by resignations as R13.2 says).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub end: Option<crate::End>,
    /// The rulings the game is played by; absent in a snapshot of before
    /// there were versions ([`crate::Rulings::FIRST`]).
    #[cfg_attr(feature = "serde", serde(default = "crate::Rulings::first"))]
    pub rulings: crate::Rulings,
    /// R11.6: rounds in a row without a card bought or reserved.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub idle_rounds: u8,
    /// R11.6: the round in progress saw a card bought or reserved.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "std::ops::Not::not")
    )]
    pub round_progress: bool,
    /// R13.2: the seats built-in bots hold, a bit per seat.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub bots: u8,
    /// R13.1: the order each seat resigned in (1 = first), 0 in play.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "is_none_resigned")
    )]
    pub resigned: [u8; 4],
    /// The tokens in the supply.
    pub supply: Tokens,
    /// Face-up cards per level and slot; `None` is an empty slot.
    pub face_up: [[Option<CardId>; 4]; 3],
    /// Nobles still on the table (a subset of the layout's).
    pub nobles: Vec<NobleId>,
    /// One entry per seat, in seat order.
    pub seats: Vec<SeatSnapshot>,
}

/// One seat's possessions in a [`Snapshot`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SeatSnapshot {
    /// The tokens the seat holds.
    pub tokens: Tokens,
    /// The cards the seat bought.
    pub purchased: Vec<CardId>,
    /// The nobles that visited the seat (R9).
    pub nobles: Vec<NobleId>,
    /// Reserved cards in the order they were reserved.
    pub reserved: Vec<ReservedCard>,
}

/// A reserved card and whether it was reserved blind from a deck (R6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ReservedCard {
    /// The reserved card.
    pub card: CardId,
    /// Whether it was reserved blind from a deck (R6.4).
    pub from_deck: bool,
}

impl Game {
    /// The complete state, hidden information included (never send it to a
    /// player; use [`Game::view`]).
    pub fn snapshot(&self) -> Snapshot {
        let seats = (0..self.players as usize)
            .map(|s| {
                let st = &self.seats[s];
                SeatSnapshot {
                    tokens: st.tokens,
                    purchased: st.purchased_cards().collect(),
                    nobles: st.noble_ids().collect(),
                    reserved: st
                        .reserved()
                        .iter()
                        .enumerate()
                        .map(|(i, &card)| ReservedCard {
                            card: CardId(card),
                            from_deck: st.is_blind(i),
                        })
                        .collect(),
                }
            })
            .collect();
        Snapshot {
            layout: self.initial_layout(),
            drawn: std::array::from_fn(|l| self.deck_initial_len[l] - self.deck_len[l]),
            phase: self.phase,
            turn: self.turn,
            passes: self.passes,
            end_triggered: self.end_triggered,
            deadlock: self.ended == Some(crate::End::Deadlock),
            end: self.ended,
            rulings: self.rulings,
            idle_rounds: self.idle_rounds,
            round_progress: self.round_progress,
            bots: self.bots,
            resigned: self.resigned,
            supply: self.supply,
            face_up: self
                .face_up
                .map(|row| row.map(|c| (c != NONE).then_some(CardId(c)))),
            nobles: self.nobles[..self.noble_count as usize]
                .iter()
                .filter(|&&n| self.nobles_left & (1 << n) != 0)
                .map(|&n| NobleId(n))
                .collect(),
            seats,
        }
    }

    /// Rebuild a game from a snapshot, checking every invariant the engine
    /// relies on (cards and nobles each in one place, tokens conserved,
    /// reserves of at most 3, a phase consistent with the seats' tokens and
    /// nobles).
    pub fn from_snapshot(snapshot: &Snapshot) -> Result<Game, SetupError> {
        let bad = SetupError::Snapshot;
        let layout_game = game_from_layout(&snapshot.layout)?;
        let mut game = layout_game;
        let players = game.players as usize;
        if snapshot.seats.len() != players {
            return Err(bad(format!(
                "{} seats for {players} players",
                snapshot.seats.len()
            )));
        }
        let mut seen = Seen::default();
        for level in 0..3 {
            let drawn = snapshot.drawn[level];
            if drawn > game.deck_initial_len[level] {
                return Err(bad(format!(
                    "{drawn} cards drawn from the level {} deck of {}",
                    level + 1,
                    game.deck_initial_len[level]
                )));
            }
            game.deck_len[level] = game.deck_initial_len[level] - drawn;
            for &card in game.deck(level) {
                seen.card(CardId(card), Some(level), &"deck").map_err(bad)?;
            }
            for (slot, card) in snapshot.face_up[level].iter().enumerate() {
                game.face_up[level][slot] = match card {
                    Some(card) => seen.card(*card, Some(level), &"face-up").map_err(bad)?,
                    None => NONE,
                };
            }
        }
        game.nobles_left = 0;
        for &noble in &snapshot.nobles {
            let n = seen.noble(noble, &"table nobles").map_err(bad)?;
            if layout_game.nobles_left & (1 << n) == 0 {
                return Err(bad(format!(
                    "noble {n} is on the table but not among the layout's nobles"
                )));
            }
            game.nobles_left |= 1 << n;
        }
        let mut tokens = snapshot.supply;
        for (s, seat) in snapshot.seats.iter().enumerate() {
            let place = format!("seat {s}");
            let st = &mut game.seats[s];
            st.tokens = seat.tokens;
            for kind in 0..5 {
                tokens.gems[kind] = tokens.gems[kind].saturating_add(seat.tokens.gems[kind]);
            }
            tokens.gold = tokens.gold.saturating_add(seat.tokens.gold);
            for &card in &seat.purchased {
                let c = seen.card(card, None, &place).map_err(bad)?;
                st.add_purchase(&CARDS[c as usize]);
            }
            for &noble in &seat.nobles {
                let n = seen.noble(noble, &place).map_err(bad)?;
                st.add_noble(n as usize);
            }
            if seat.reserved.len() > MAX_RESERVED as usize {
                return Err(bad(format!(
                    "{place} holds {} reserved cards, at most {MAX_RESERVED} (R6.2)",
                    seat.reserved.len()
                )));
            }
            for (i, reserved) in seat.reserved.iter().enumerate() {
                st.reserved[i] = seen.card(reserved.card, None, &place).map_err(bad)?;
                if reserved.from_deck {
                    st.blind |= 1 << i;
                }
            }
            st.reserved_len = seat.reserved.len() as u8;
        }
        if tokens != initial_supply(game.players) {
            return Err(bad(format!(
                "tokens are not conserved: supply and seats hold {tokens:?}, the game has {:?} (R2.3)",
                initial_supply(game.players)
            )));
        }
        game.supply = snapshot.supply;
        game.phase = snapshot.phase;
        game.turn = snapshot.turn;
        game.passes = snapshot.passes;
        game.end_triggered = snapshot.end_triggered;
        game.bots = snapshot.bots;
        game.resigned = snapshot.resigned;
        game.rulings = snapshot.rulings;
        game.idle_rounds = snapshot.idle_rounds;
        game.round_progress = snapshot.round_progress;
        game.ended = match (snapshot.end, snapshot.deadlock) {
            (Some(end), _) => Some(end),
            (None, true) => Some(crate::End::Deadlock),
            // A finished game of before: R13.2 ended it if the people in
            // play were fewer than two, else R10.2.
            (None, false) if snapshot.phase == Phase::GameOver => {
                let people = (0..game.players)
                    .filter(|&s| !game.has_resigned(s) && game.bots & (1 << s) == 0)
                    .count();
                Some(if game.resigned.iter().any(|&r| r != 0) && people <= 1 {
                    crate::End::Resigned
                } else {
                    crate::End::Points
                })
            }
            (None, false) => None,
        };
        if snapshot.deadlock && game.ended != Some(crate::End::Deadlock) {
            return Err(bad(
                "the snapshot says deadlock and ended otherwise (R11.2)".into(),
            ));
        }
        check_phase(&game).map_err(bad)?;
        Ok(game)
    }
}

/// The phase must be one the engine could be in with these seats.
fn check_phase(game: &Game) -> Result<(), String> {
    let over_limit = |s: usize| game.seats[s].tokens.total() > TOKEN_LIMIT;
    let deciding = match game.phase {
        Phase::Main { seat } | Phase::ChooseNoble { seat } | Phase::ReturnTokens { seat, .. }
            if seat >= game.players =>
        {
            return Err(format!("the phase names seat {seat} of {}", game.players));
        }
        Phase::ReturnTokens { seat, count } => {
            let total = game.seats[seat as usize].tokens.total();
            if total != TOKEN_LIMIT + count as u32 || count == 0 {
                return Err(format!(
                    "seat {seat} must return {count} tokens but holds {total} (R8.1)"
                ));
            }
            Some(seat as usize)
        }
        Phase::ChooseNoble { seat } => {
            if game.qualifying_nobles(seat as usize).count_ones() < 2 {
                return Err(format!(
                    "seat {seat} is choosing a noble but fewer than two qualify (R9.3)"
                ));
            }
            None
        }
        Phase::Main { .. } | Phase::GameOver => None,
    };
    if let Some(s) = (0..game.players as usize).find(|&s| Some(s) != deciding && over_limit(s)) {
        return Err(format!(
            "seat {s} holds {} tokens, more than 10 (R8.1)",
            game.seats[s].tokens.total()
        ));
    }
    if game.passes > game.players || (game.passes == game.players && game.phase != Phase::GameOver)
    {
        return Err(format!(
            "{} consecutive passes with {} players (R11.2)",
            game.passes, game.players
        ));
    }
    if game.ended.is_some() != (game.phase == Phase::GameOver) {
        return Err(
            "how the game ended is recorded but it is not over, or the reverse".to_string(),
        );
    }
    if !game.rulings.is_known() {
        return Err(format!(
            "rulings {} are not known to this server",
            game.rulings.0
        ));
    }
    // The 25th idle round ends the game (R11.6), whatever ended it first
    // at that round's end (a full round of passes is R11.2's deadlock).
    if game.idle_rounds > crate::NO_PROGRESS_ROUNDS
        || (game.idle_rounds == crate::NO_PROGRESS_ROUNDS && game.ended.is_none())
    {
        return Err(format!(
            "{} rounds without progress (R11.6)",
            game.idle_rounds
        ));
    }
    let mut orders: Vec<u8> = game.resigned.iter().copied().filter(|&r| r != 0).collect();
    orders.sort_unstable();
    let seats_resigned = (0..game.players).filter(|&s| game.has_resigned(s)).count();
    if orders
        .iter()
        .enumerate()
        .any(|(i, &r)| usize::from(r) != i + 1)
        || seats_resigned != orders.len()
    {
        return Err(format!(
            "resignation orders {:?} are not 1, 2, ... for seats in the game (R13.1)",
            game.resigned
        ));
    }
    if game.bots >> game.players != 0 {
        return Err(format!(
            "bots {:#b} name seats beyond the game (R13.2)",
            game.bots
        ));
    }
    Ok(())
}

impl From<Game> for Snapshot {
    fn from(game: Game) -> Snapshot {
        game.snapshot()
    }
}

impl TryFrom<Snapshot> for Game {
    type Error = SetupError;
    fn try_from(snapshot: Snapshot) -> Result<Game, SetupError> {
        Game::from_snapshot(&snapshot)
    }
}

#[cfg(feature = "serde")]
fn is_zero(bots: &u8) -> bool {
    *bots == 0
}

#[cfg(feature = "serde")]
fn is_none_resigned(resigned: &[u8; 4]) -> bool {
    resigned.iter().all(|&r| r == 0)
}
