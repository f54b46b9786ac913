//! [`Sampler`]: full games consistent with what one seat sees (R6.4), for
//! players that search.
//!
//! A seat sees everything but the order of the decks and the other seats'
//! blind reserves (R6.4). A search player fills those in: every card it has
//! not seen is dealt at random into the decks and into the blind reserves
//! of the right level. A sample never changes anything the seat can see, so
//! a player that only ever looks at samples and at its own view cannot
//! learn more than its seat may.

use rand_core::RngCore;

use crate::game::Game;
use crate::setup::shuffle;
use crate::{
    CardId, Layout, Level, ReservedCard, ReservedView, Seat, SeatSnapshot, SetupError, Snapshot,
    View,
};

/// The most cards of one level a seat may not have seen (level 1 has 40).
const POOL: usize = 40;

/// Deals the cards one seat has not seen into the places it cannot see.
///
/// Built once from the seat's [`View`]; each [`Sampler::sample`] is a copy
/// of a base game and one shuffle per level, with no allocation.
#[derive(Clone, Debug)]
pub struct Sampler {
    seat: Seat,
    base: Game,
    /// Per level: the unseen cards (first `pool_len` entries).
    pools: [[u8; POOL]; 3],
    pool_len: [u8; 3],
    /// Per level: the hidden reserves, as (seat, index in its reserve).
    hidden: [Vec<(u8, u8)>; 3],
}

impl Sampler {
    /// A sampler for `seat`, from the view that seat has (`Game::view(
    /// Viewer::Seat(seat))`). Refuses a view that is not a seat's (its own
    /// reserves hidden), a seat that does not exist, or counts that do not
    /// add up (more hidden places than unseen cards of a level).
    pub fn new(view: &View, seat: Seat) -> Result<Sampler, SetupError> {
        let bad = |why: String| SetupError::Snapshot(why);
        if seat >= view.players || view.seats.len() != view.players as usize {
            return Err(bad(format!(
                "seat {seat} in a view of {} players with {} seats",
                view.players,
                view.seats.len()
            )));
        }
        let mut known = 0u128;
        let mut mark = |card: CardId| known |= 1u128 << (card.0 & 127);
        view.face_up
            .iter()
            .flatten()
            .flatten()
            .for_each(|&c| mark(c));
        let mut hidden: [Vec<(u8, u8)>; 3] = Default::default();
        for (s, st) in view.seats.iter().enumerate() {
            st.purchased.iter().for_each(|&c| mark(c));
            for (i, reserved) in st.reserved.iter().enumerate() {
                match *reserved {
                    ReservedView::Card { card, .. } => mark(card),
                    ReservedView::Hidden { level } if s != seat as usize => {
                        let l = level_index(level)
                            .ok_or_else(|| bad(format!("a reserve of level {}", level.0)))?;
                        hidden[l].push((s as u8, i as u8));
                    }
                    ReservedView::Hidden { .. } => {
                        return Err(bad(format!(
                            "seat {seat}'s own reserve is hidden: this is not its view"
                        )));
                    }
                }
            }
        }
        let mut pools = [[0u8; POOL]; 3];
        let mut pool_len = [0u8; 3];
        for card in crate::all_cards() {
            let l = level_index(card.level).expect("the data has levels 1 to 3");
            if known & (1u128 << card.id.0) == 0 {
                pools[l][pool_len[l] as usize] = card.id.0;
                pool_len[l] += 1;
            }
        }
        for l in 0..3 {
            let places = view.deck_sizes[l] as usize + hidden[l].len();
            if places != pool_len[l] as usize {
                return Err(bad(format!(
                    "level {}: {} unseen cards for {places} hidden places",
                    l + 1,
                    pool_len[l]
                )));
            }
        }
        let base = Game::from_snapshot(&base_snapshot(view, &pools, &pool_len, &hidden))?;
        Ok(Sampler {
            seat,
            base,
            pools,
            pool_len,
            hidden,
        })
    }

    /// The seat whose view this sampler fills in.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// A full game consistent with the view: each level's unseen cards
    /// shuffled with `rng` and dealt into its deck and into the other
    /// seats' blind reserves of that level. Its `view` for the seat equals
    /// the view the sampler was built from. (Its `initial_layout` is not
    /// the real game's: a sample starts from the position it was taken at.)
    pub fn sample(&self, rng: &mut impl RngCore) -> Game {
        let mut game = self.base;
        for l in 0..3 {
            let mut pool = self.pools[l];
            let pool = &mut pool[..self.pool_len[l] as usize];
            shuffle(rng, pool);
            let deck = game.deck_len[l] as usize;
            game.decks[l][..deck].copy_from_slice(&pool[..deck]);
            for (&(s, i), &card) in self.hidden[l].iter().zip(&pool[deck..]) {
                game.seats[s as usize].reserved[i as usize] = card;
            }
        }
        game
    }
}

fn level_index(level: Level) -> Option<usize> {
    (1..=3).contains(&level.0).then(|| level.0 as usize - 1)
}

/// The view as a snapshot, the unseen cards dealt in pool order: validated
/// once by `Game::from_snapshot`, then only reshuffled.
fn base_snapshot(
    view: &View,
    pools: &[[u8; POOL]; 3],
    pool_len: &[u8; 3],
    hidden: &[Vec<(u8, u8)>; 3],
) -> Snapshot {
    let decks: [Vec<CardId>; 3] = std::array::from_fn(|l| {
        pools[l][..view.deck_sizes[l] as usize]
            .iter()
            .map(|&c| CardId(c))
            .collect()
    });
    let mut seats: Vec<SeatSnapshot> = view
        .seats
        .iter()
        .map(|st| SeatSnapshot {
            tokens: st.tokens,
            purchased: st.purchased.clone(),
            nobles: st.nobles.clone(),
            reserved: st
                .reserved
                .iter()
                .map(|r| match *r {
                    ReservedView::Card { card, from_deck } => ReservedCard { card, from_deck },
                    // Filled in below.
                    ReservedView::Hidden { .. } => ReservedCard {
                        card: CardId(0),
                        from_deck: true,
                    },
                })
                .collect(),
        })
        .collect();
    for l in 0..3 {
        let rest = &pools[l][view.deck_sizes[l] as usize..pool_len[l] as usize];
        for (&(s, i), &card) in hidden[l].iter().zip(rest) {
            seats[s as usize].reserved[i as usize].card = CardId(card);
        }
    }
    Snapshot {
        layout: Layout {
            players: view.players,
            decks,
            face_up: view.face_up.map(|row| row.into_iter().flatten().collect()),
            nobles: view.nobles.clone(),
            first_seat: view.first_seat,
        },
        drawn: [0; 3],
        phase: view.phase,
        turn: view.turn,
        passes: view.passes,
        end_triggered: view.end_triggered,
        // R11.2: a game that ended in a full round of passes says so in its
        // result, which the seat sees.
        deadlock: view.result.as_ref().is_some_and(|r| r.deadlock),
        end: view.result.as_ref().map(|r| r.end()),
        rulings: if view.no_progress_rule {
            crate::Rulings::CURRENT
        } else {
            crate::Rulings::FIRST
        },
        idle_rounds: view.idle_rounds,
        round_progress: view.round_progress,
        // Whether a seat is a bot is nothing a seat's view says; who
        // resigned, in which order, is public (R13.1).
        bots: 0,
        resigned: {
            let mut order = [0; 4];
            for (i, &seat) in view.resigned.iter().enumerate() {
                order[usize::from(seat)] = i as u8 + 1;
            }
            order
        },
        supply: view.supply,
        face_up: view.face_up,
        nobles: view.nobles.clone(),
        seats,
    }
}
