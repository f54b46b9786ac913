//! [`Game::legal_actions`]: every legal action of the seat to act, each
//! produced by the same check that `apply` runs, so that the list and the
//! validation cannot disagree (R11.3); and whether a seat has any main
//! action at all (R11.1).

// Colour-indexed loops walk several parallel arrays at once.
#![allow(clippy::needless_range_loop)]

use crate::game::{Game, MAX_RESERVED, NONE, buying_power, check_take_different, shortfall};
use crate::{Action, CardId, Color, ColorSet, Level, NobleId, Phase, Tokens};

/// The candidate sets for R4: every non-empty set of at most three colours,
/// the three-colour sets first.
const TAKE_DIFFERENT_SETS: [u8; 25] = {
    let mut sets = [0u8; 25];
    let mut n = 0;
    let mut size = 3;
    while size >= 1 {
        let mut mask = 1u8;
        while mask < 32 {
            if mask.count_ones() == size {
                sets[n] = mask;
                n += 1;
            }
            mask += 1;
        }
        size -= 1;
    }
    sets
};

/// R4 for every supply: for each mask of colours with tokens, the sets that
/// `check_take_different` accepts, in `TAKE_DIFFERENT_SETS` order, and
/// how many there are. Computed at compile time by the check itself, so
/// enumerating is a table lookup that cannot disagree with validation.
const TAKE_DIFFERENT_LEGAL: [([u8; 10], u8); 32] = {
    let mut table = [([0u8; 10], 0u8); 32];
    let mut available = 0;
    while available < 32 {
        let mut i = 0;
        while i < TAKE_DIFFERENT_SETS.len() {
            let set = TAKE_DIFFERENT_SETS[i];
            if check_take_different(set, available as u8).is_ok() {
                let (sets, n) = &mut table[available];
                sets[*n as usize] = set;
                *n += 1;
            }
            i += 1;
        }
        available += 1;
    }
    table
};

impl Game {
    /// Every legal action of the seat to act, in the current phase, written
    /// to `out` (cleared first; nothing when the game is over). Produced by
    /// the same checks that `apply` runs. Buying is listed once per buyable
    /// card with the default payment (`gold: None`, R7.3); explicit
    /// payments are accepted by `apply` when legal but not enumerated.
    pub fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        // Room for every action of a usual position, so pushes never grow it.
        out.reserve(64);
        match self.phase {
            Phase::Main { seat } => {
                self.main_actions(seat as usize, out);
                if out.is_empty() {
                    // R11.1: nothing else is legal, so the seat must pass.
                    out.push(Action::Pass);
                }
            }
            Phase::ReturnTokens { seat, count } => {
                let held = self.seats[seat as usize].tokens;
                let mut kinds = [0u8; 6];
                kinds[..5].copy_from_slice(&held.gems);
                kinds[5] = held.gold;
                return_choices(&kinds, count, &mut |t| {
                    if self.check_return(seat as usize, count, t).is_ok() {
                        out.push(Action::ReturnTokens(t));
                    }
                });
            }
            Phase::ChooseNoble { seat } => {
                let mut candidates = self.qualifying_nobles(seat as usize);
                while candidates != 0 {
                    let n = candidates.trailing_zeros() as u8;
                    candidates &= candidates - 1;
                    if self.check_noble(seat as usize, n).is_ok() {
                        out.push(Action::ChooseNoble(NobleId(n)));
                    }
                }
            }
            Phase::GameOver => {}
        }
    }

    /// Whether `seat` has any main action (R11.1 decides whether it must pass).
    pub(crate) fn has_main_action(&self, seat: usize) -> bool {
        // Any gem in the supply makes some R4 take legal (R4.2).
        if self.supply.gems.iter().any(|&n| n > 0) {
            return true;
        }
        let s = &self.seats[seat];
        if s.reserved_len < MAX_RESERVED
            && (self.deck_len.iter().any(|&n| n > 0)
                || self.face_up.iter().flatten().any(|&c| c != NONE))
        {
            return true;
        }
        let power = buying_power(s);
        let affordable = |c: u8| c != NONE && shortfall(power, c) <= s.tokens.gold;
        self.face_up.iter().flatten().any(|&c| affordable(c))
            || s.reserved().iter().any(|&c| affordable(c))
    }

    /// The main actions of `seat` (R4 to R7), each passed through its check.
    fn main_actions(&self, seat: usize, out: &mut Vec<Action>) {
        // R4: the sets the check accepts for this supply (precomputed).
        let (sets, n) = &TAKE_DIFFERENT_LEGAL[self.available_colors() as usize];
        for &set in &sets[..*n as usize] {
            out.push(Action::TakeDifferent(ColorSet(set)));
        }
        // R5.
        for color in Color::ALL {
            if self.check_take_two(color).is_ok() {
                out.push(Action::TakeTwo(color));
            }
        }
        // R6.
        let s = &self.seats[seat];
        if s.reserved_len < MAX_RESERVED {
            for row in &self.face_up {
                for &card in row {
                    if card != NONE {
                        out.push(Action::ReserveFaceUp(CardId(card)));
                    }
                }
            }
            for level in 1..=3u8 {
                if self.check_reserve_from_deck(seat, level).is_ok() {
                    out.push(Action::ReserveFromDeck(Level(level)));
                }
            }
        }
        // R7, with the default payment: affordable exactly when the
        // shortfall that `default_payment` would pay in gold is covered.
        let power = buying_power(s);
        for row in &self.face_up {
            for &card in row {
                if card != NONE && shortfall(power, card) <= s.tokens.gold {
                    out.push(Action::Buy {
                        card: CardId(card),
                        gold: None,
                    });
                }
            }
        }
        for &card in s.reserved() {
            if shortfall(power, card) <= s.tokens.gold {
                out.push(Action::Buy {
                    card: CardId(card),
                    gold: None,
                });
            }
        }
    }

    // ---- Checks: each returns what the action would do, or why not. ----
}

/// Calls `f` with every way to choose `count` tokens from `held` (index 5
/// is gold), each kind at most what is held: every non-decreasing sequence
/// of kinds, once. R8 asks for at most 3 tokens after any action; larger
/// counts (possible only in a hand-built snapshot) take the general path.
fn return_choices(held: &[u8; 6], count: u8, f: &mut impl FnMut(Tokens)) {
    let emit = |c: &[u8; 6], f: &mut dyn FnMut(Tokens)| {
        f(Tokens {
            gems: [c[0], c[1], c[2], c[3], c[4]],
            gold: c[5],
        })
    };
    let mut c = [0u8; 6];
    if count > 3 {
        return choose(held, 0, count, &mut c, f);
    }
    for a in 0..6 {
        if held[a] == 0 || count == 0 {
            continue;
        }
        c[a] += 1;
        if count == 1 {
            emit(&c, f);
        } else {
            for b in a..6 {
                if c[b] >= held[b] {
                    continue;
                }
                c[b] += 1;
                if count == 2 {
                    emit(&c, f);
                } else {
                    for k in b..6 {
                        if c[k] < held[k] {
                            c[k] += 1;
                            emit(&c, f);
                            c[k] -= 1;
                        }
                    }
                }
                c[b] -= 1;
            }
        }
        c[a] -= 1;
    }
}

/// The general case: for each kind in turn, how many to take.
fn choose(held: &[u8; 6], kind: usize, left: u8, chosen: &mut [u8; 6], f: &mut impl FnMut(Tokens)) {
    if left == 0 {
        f(Tokens {
            gems: [chosen[0], chosen[1], chosen[2], chosen[3], chosen[4]],
            gold: chosen[5],
        });
        return;
    }
    if kind == 6 {
        return;
    }
    for n in 0..=held[kind].min(left) {
        chosen[kind] = n;
        choose(held, kind + 1, left - n, chosen, f);
    }
    chosen[kind] = 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_r4_table_lists_three_colours_whenever_three_are_available() {
        for available in 0..32u8 {
            let (sets, n) = TAKE_DIFFERENT_LEGAL[available as usize];
            let sets = &sets[..n as usize];
            let count = available.count_ones();
            let expected = match count {
                0 => 0,
                1 => 1,
                2 => 3,
                _ => [0, 0, 0, 1, 4, 10][count as usize],
            };
            assert_eq!(sets.len(), expected, "available {available:05b}");
            assert!(sets.iter().all(|&s| s & !available == 0));
        }
    }
}
