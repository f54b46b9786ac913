//! The `random` level: any legal action, uniformly.

use rand_chacha::rand_core::RngCore;
use splendor_rules::{Action, Game};

/// One of the legal actions of `game`, uniformly (a pass when there is
/// none, which the rules only allow when it is the one legal action).
pub fn choose(game: &Game, rng: &mut impl RngCore) -> Action {
    let legal = crate::legal(game);
    if legal.is_empty() {
        return Action::Pass;
    }
    legal[(rng.next_u64() % legal.len() as u64) as usize]
}
