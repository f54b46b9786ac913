//! Setting a game up (R2): the seeded shuffle, explicit layouts, and
//! snapshots of a whole game, each validated before a [`Game`] exists.
//!
//! R2.5 determinism: the seed is expanded with SplitMix64 into a ChaCha8 key
//! (ChaCha's output is value-stable across platforms and `rand_chacha`
//! versions), and the shuffle is our own Fisher–Yates with Lemire's unbiased
//! bounded sampling, so a seed gives the same game everywhere and after
//! dependency upgrades. Golden tests pin both.

use std::fmt;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use crate::data::{CARDS, NOBLES};
use crate::game::{DECK_CAPACITY, Game, MAX_RESERVED, NONE, SeatState, TOKEN_LIMIT};
use crate::{CardId, Layout, NobleId, Options, Phase, Seat, SetupError, Tokens};

/// R2.3: gem tokens per colour for 2, 3 and 4 players; gold is always 5.
pub(crate) fn initial_supply(players: u8) -> Tokens {
    let gems = match players {
        2 => 4,
        3 => 5,
        _ => 7,
    };
    Tokens {
        gems: [gems; 5],
        gold: 5,
    }
}

fn check_players(players: u8) -> Result<(), SetupError> {
    if (2..=4).contains(&players) {
        Ok(())
    } else {
        Err(SetupError::PlayerCount(players))
    }
}

/// SplitMix64, used only to expand the u64 seed into a 32-byte ChaCha key.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The game's random stream for `seed` (R2.5).
pub(crate) fn rng_for_seed(seed: u64) -> ChaCha8Rng {
    let mut key = [0u8; 32];
    let mut state = seed;
    for chunk in key.chunks_exact_mut(8) {
        chunk.copy_from_slice(&splitmix64(&mut state).to_le_bytes());
    }
    ChaCha8Rng::from_seed(key)
}

/// A uniform number in `0..n` (n > 0), without modulo bias (Lemire 2019).
pub(crate) fn below(rng: &mut impl RngCore, n: u32) -> u32 {
    debug_assert!(n > 0);
    let mut m = rng.next_u32() as u64 * n as u64;
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = rng.next_u32() as u64 * n as u64;
        }
    }
    (m >> 32) as u32
}

/// Fisher–Yates: every order equally likely.
pub(crate) fn shuffle(rng: &mut impl RngCore, items: &mut [u8]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

/// R2.4, R2.5: a random seat order drawn from the game's seed, for a room
/// whose players sit in random order. Entry `k` is the join position of the
/// player who takes seat `k`. The draws come from the seed's own ChaCha8
/// stream 1 (the deal uses stream 0), so the order neither depends on nor
/// changes the deal; a golden test pins it.
pub fn seat_order(players: u8, seed: u64) -> Result<Vec<u8>, SetupError> {
    check_players(players)?;
    let mut rng = rng_for_seed(seed);
    rng.set_stream(1);
    let mut order: Vec<u8> = (0..players).collect();
    shuffle(&mut rng, &mut order);
    Ok(order)
}

/// R2.1 to R2.5: the game a seed gives, built directly (no layout, no
/// allocation). The draws, in order: the level 1, 2 and 3 decks (each
/// shuffled from id order), the nobles, then the first seat unless given.
/// Index 0 of a shuffled deck is its top; the top four are dealt face up.
pub(crate) fn seeded_game(players: u8, options: Options, seed: u64) -> Result<Game, SetupError> {
    check_players(players)?;
    if let Some(first) = options.first_seat {
        check_first_seat(players, first)?;
    }
    let mut rng = rng_for_seed(seed);
    let mut game = empty_game(players, 0);
    for level in 0..3 {
        let mut ids = [0u8; DECK_CAPACITY];
        let mut n = 0;
        for c in CARDS.iter().filter(|c| c.level.0 as usize == level + 1) {
            ids[n] = c.id.0;
            n += 1;
        }
        shuffle(&mut rng, &mut ids[..n]);
        game.face_up[level].copy_from_slice(&ids[..4]);
        // The rest, top first, stored bottom first.
        for (i, &card) in ids[4..n].iter().rev().enumerate() {
            game.decks[level][i] = card;
        }
        game.deck_len[level] = (n - 4) as u8;
    }
    game.initial_face_up = game.face_up;
    game.deck_initial_len = game.deck_len;
    let mut nobles: [u8; 10] = std::array::from_fn(|n| n as u8);
    shuffle(&mut rng, &mut nobles);
    let count = players as usize + 1;
    game.nobles[..count].copy_from_slice(&nobles[..count]);
    game.noble_count = count as u8;
    game.nobles_left = nobles[..count].iter().fold(0, |mask, &n| mask | (1 << n));
    game.first_seat = match options.first_seat {
        Some(seat) => seat,
        None => below(&mut rng, players as u32) as Seat,
    };
    game.phase = Phase::Main {
        seat: game.first_seat,
    };
    Ok(game)
}

/// A game with nothing on the table, before any deal.
fn empty_game(players: u8, first_seat: Seat) -> Game {
    Game {
        players,
        first_seat,
        phase: Phase::Main { seat: first_seat },
        turn: 0,
        passes: 0,
        end_triggered: false,
        deadlock: false,
        bots: 0,
        resigned: [0; 4],
        supply: initial_supply(players),
        decks: [[NONE; DECK_CAPACITY]; 3],
        deck_len: [0; 3],
        deck_initial_len: [0; 3],
        face_up: [[NONE; 4]; 3],
        initial_face_up: [[NONE; 4]; 3],
        nobles: [NONE; 5],
        noble_count: 0,
        nobles_left: 0,
        seats: [SeatState {
            reserved: [NONE; MAX_RESERVED as usize],
            ..SeatState::default()
        }; 4],
    }
}

fn check_first_seat(players: u8, first: Seat) -> Result<(), SetupError> {
    if first < players {
        Ok(())
    } else {
        Err(SetupError::Layout(format!(
            "first seat {first} does not exist with {players} players (seats are 0 to {})",
            players - 1
        )))
    }
}

/// Tracks that each card and noble appears at most once.
#[derive(Default)]
struct Seen {
    cards: u128,
    nobles: u16,
}

impl Seen {
    fn card(
        &mut self,
        card: CardId,
        level: Option<usize>,
        place: &dyn fmt::Display,
    ) -> Result<u8, String> {
        let Some(data) = CARDS.get(card.0 as usize) else {
            return Err(format!("{place}: there is no card {}", card.0));
        };
        if let Some(level) = level
            && data.level.0 as usize != level + 1
        {
            return Err(format!(
                "{place}: card {} is level {}, not level {}",
                card.0,
                data.level.0,
                level + 1
            ));
        }
        if self.cards & (1 << card.0) != 0 {
            return Err(format!("{place}: card {} appears twice", card.0));
        }
        self.cards |= 1 << card.0;
        Ok(card.0)
    }

    fn noble(&mut self, noble: NobleId, place: &dyn fmt::Display) -> Result<u8, String> {
        if noble.0 as usize >= NOBLES.len() {
            return Err(format!("{place}: there is no noble {}", noble.0));
        }
        if self.nobles & (1 << noble.0) != 0 {
            return Err(format!("{place}: noble {} appears twice", noble.0));
        }
        self.nobles |= 1 << noble.0;
        Ok(noble.0)
    }
}

pub(crate) fn game_from_layout(layout: &Layout) -> Result<Game, SetupError> {
    check_players(layout.players)?;
    check_first_seat(layout.players, layout.first_seat)?;
    let mut seen = Seen::default();
    let mut game = empty_game(layout.players, layout.first_seat);
    for level in 0..3 {
        let row = &layout.face_up[level];
        let deck = &layout.decks[level];
        if row.len() > 4 {
            return Err(SetupError::Layout(format!(
                "level {}: {} face-up cards, at most 4",
                level + 1,
                row.len()
            )));
        }
        if row.len() < 4 && !deck.is_empty() {
            return Err(SetupError::Layout(format!(
                "level {}: only {} face-up cards while the deck holds {}; a slot stays empty only when the deck is (R7A)",
                level + 1,
                row.len(),
                deck.len()
            )));
        }
        for (slot, &card) in row.iter().enumerate() {
            game.face_up[level][slot] = seen
                .card(
                    card,
                    Some(level),
                    &format_args!("level {} face-up", level + 1),
                )
                .map_err(SetupError::Layout)?;
        }
        // The deck is given top first and stored bottom first.
        for (i, &card) in deck.iter().rev().enumerate() {
            game.decks[level][i] = seen
                .card(card, Some(level), &format_args!("level {} deck", level + 1))
                .map_err(SetupError::Layout)?;
        }
        game.deck_len[level] = deck.len() as u8;
    }
    game.initial_face_up = game.face_up;
    game.deck_initial_len = game.deck_len;
    // R2.2: players + 1 nobles at most (fewer are allowed for puzzles).
    if layout.nobles.len() > layout.players as usize + 1 {
        return Err(SetupError::Layout(format!(
            "{} nobles, at most {} with {} players (R2.2)",
            layout.nobles.len(),
            layout.players + 1,
            layout.players
        )));
    }
    for (i, &noble) in layout.nobles.iter().enumerate() {
        game.nobles[i] = seen.noble(noble, &"nobles").map_err(SetupError::Layout)?;
        game.nobles_left |= 1 << noble.0;
    }
    game.noble_count = layout.nobles.len() as u8;
    Ok(game)
}

pub(crate) fn initial_layout(game: &Game) -> Layout {
    let mut decks: [Vec<CardId>; 3] = Default::default();
    let mut face_up: [Vec<CardId>; 3] = Default::default();
    for level in 0..3 {
        decks[level] = game.decks[level][..game.deck_initial_len[level] as usize]
            .iter()
            .rev()
            .map(|&c| CardId(c))
            .collect();
        face_up[level] = game.initial_face_up[level]
            .iter()
            .filter(|&&c| c != NONE)
            .map(|&c| CardId(c))
            .collect();
    }
    Layout {
        players: game.players,
        decks,
        face_up,
        nobles: game.nobles[..game.noble_count as usize]
            .iter()
            .map(|&n| NobleId(n))
            .collect(),
        first_seat: game.first_seat,
    }
}

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
                    purchased: (0..CARDS.len() as u8)
                        .filter(|&c| st.purchased & (1 << c) != 0)
                        .map(CardId)
                        .collect(),
                    nobles: (0..NOBLES.len() as u8)
                        .filter(|&n| st.nobles & (1 << n) != 0)
                        .map(NobleId)
                        .collect(),
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
            deadlock: self.deadlock,
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
        game.deadlock = snapshot.deadlock;
        game.bots = snapshot.bots;
        game.resigned = snapshot.resigned;
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
    if game.deadlock && game.phase != Phase::GameOver {
        return Err("a deadlock is recorded but the game is not over (R11.2)".to_string());
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
