//! Setting a game up (R2): the seeded shuffle and explicit layouts, each
//! validated before a [`Game`] exists (snapshots of a whole game are in
//! `snapshot.rs`).
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
use crate::game::{DECK_CAPACITY, Game, MAX_RESERVED, NONE, SeatState};
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
    if !options.rulings.is_known() {
        return Err(SetupError::UnknownRulings(options.rulings.0));
    }
    if let Some(first) = options.first_seat {
        check_first_seat(players, first)?;
    }
    let mut rng = rng_for_seed(seed);
    let mut game = empty_game(players, 0);
    game.rulings = options.rulings;
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
        ended: None,
        rulings: crate::Rulings::CURRENT,
        idle_rounds: 0,
        round_progress: false,
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
pub(crate) struct Seen {
    cards: u128,
    nobles: u16,
}

impl Seen {
    pub(crate) fn card(
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

    pub(crate) fn noble(&mut self, noble: NobleId, place: &dyn fmt::Display) -> Result<u8, String> {
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
