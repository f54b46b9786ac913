//! The guided search's rollouts (issue 51's top level): each seat plays
//! on with a plan, as a player would, and the position reached is scored
//! with the nobles in reach. The tree is [`crate::strong`]'s; only what a
//! rollout plays and how its end is scored differ.
//!
//! The plan: buy the card that scores most (points, then a bonus a noble
//! on the table still wants); else take the tokens the nearest card still
//! needs (the face-up or reserved card the fewest tokens from being
//! bought); return the tokens that card needs least; choose nobles at
//! random. A rollout runs on a sample the searching seat dealt itself, so
//! the cards it reads are that sample's, never the real game's.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::RngCore;
use splendor_rules::{Action, CardId, Color, Game, Gems, Phase, Seat, card, noble};

/// Rollouts stop after this many turns of each seat and are scored: more
/// than the quick rollouts' 6, as a planned rollout says more the further
/// it goes (issue 51's tries: 6 rounds even with the quick search at equal
/// iterations, 10 rounds +67 Elo, the whole game +41 at twice the cost).
pub(crate) const ROLLOUT_ROUNDS: u32 = 10;

/// The weight of the nobles in reach in a seat's score, in points: a
/// noble `m` bonuses away (`m` under 4) adds `NOBLE_WEIGHT * (1 - m/4)²`,
/// 0.84 points one bonus away, nothing from four away.
const NOBLE_WEIGHT: f64 = 1.5;

/// The move of `seat`, to act in `game`, among `legal` (not empty).
pub(crate) fn rollout_action(
    game: &Game,
    seat: Seat,
    legal: &[Action],
    rng: &mut ChaCha8Rng,
) -> Action {
    let random = |rng: &mut ChaCha8Rng| legal[(rng.next_u64() % legal.len() as u64) as usize];
    match game.phase() {
        Phase::Main { .. } => main_action(game, seat, legal, rng).unwrap_or_else(|| random(rng)),
        Phase::ReturnTokens { .. } => {
            return_action(game, seat, legal).unwrap_or_else(|| random(rng))
        }
        Phase::ChooseNoble { .. } | Phase::GameOver => random(rng),
    }
}

/// A main action by the plan; `None` when nothing in it applies (then any
/// legal action).
fn main_action(game: &Game, seat: Seat, legal: &[Action], rng: &mut ChaCha8Rng) -> Option<Action> {
    let bonuses = game.bonuses(seat)?;
    let mut best: Option<(u32, Action)> = None;
    for &a in legal {
        if let Action::Buy { card: id, .. } = a
            && let Some(c) = card(id)
        {
            let wanted = u32::from(noble_wants(game, &bonuses, c.bonus));
            consider(&mut best, u32::from(c.points) * 4 + wanted + 1, a, rng);
        }
    }
    if let Some((_, buy)) = best {
        return Some(buy);
    }
    let (needs, _) = nearest_card(game, seat)?;
    for &a in legal {
        let useful = match a {
            Action::TakeDifferent(set) => {
                let useful = set.iter().filter(|c| needs[c.index()] > 0).count() as u32;
                useful * 4 + set.len()
            }
            Action::TakeTwo(color) => u32::from(needs[color.index()].min(2)) * 4 + 1,
            _ => continue,
        };
        consider(&mut best, useful, a, rng);
    }
    best.map(|(_, a)| a)
}

/// Keeps the better of `best` and `action`, worth `value`, with a random
/// tie-break among equals.
fn consider(best: &mut Option<(u32, Action)>, value: u32, action: Action, rng: &mut ChaCha8Rng) {
    let value = value * 64 + (rng.next_u32() & 63);
    if best.is_none_or(|(v, _)| value > v) {
        *best = Some((value, action));
    }
}

/// R8: the return that costs the nearest card least: tokens it does not
/// need first, gold last (it pays for anything).
fn return_action(game: &Game, seat: Seat, legal: &[Action]) -> Option<Action> {
    let tokens = game.tokens(seat)?;
    let bonuses = game.bonuses(seat)?;
    let cost = nearest_card(game, seat).map_or([0; 5], |(_, id)| {
        card(id).map_or([0; 5], |c| {
            std::array::from_fn(|i| c.cost[i].saturating_sub(bonuses[i]))
        })
    });
    legal
        .iter()
        .filter_map(|&a| match a {
            Action::ReturnTokens(back) => {
                let coloured: u32 = (0..5)
                    .map(|i| {
                        let returned = u32::from(back.gems[i]);
                        let spare = u32::from(tokens.gems[i].saturating_sub(cost[i]));
                        returned + returned.saturating_sub(spare) * 10
                    })
                    .sum();
                Some((u32::from(back.gold) * 30 + coloured, a))
            }
            _ => None,
        })
        .min_by_key(|&(loss, _)| loss)
        .map(|(_, a)| a)
}

/// The card `seat` is nearest to buying (face-up or its own reserve): the
/// fewest tokens still missing after bonuses, tokens and gold, counting a
/// point as worth half a token. Returns the tokens it still needs by
/// colour, and the card.
fn nearest_card(game: &Game, seat: Seat) -> Option<(Gems, CardId)> {
    let bonuses = game.bonuses(seat)?;
    let tokens = game.tokens(seat)?;
    let mut best: Option<(i32, Gems, CardId)> = None;
    for id in game.face_up_cards().chain(game.reserved_cards(seat)) {
        let Some(c) = card(id) else { continue };
        let needs: Gems = std::array::from_fn(|i| {
            c.cost[i]
                .saturating_sub(bonuses[i])
                .saturating_sub(tokens.gems[i])
        });
        let missing: i32 =
            needs.iter().map(|&n| i32::from(n)).sum::<i32>() - i32::from(tokens.gold);
        let key = missing.max(0) * 2 - i32::from(c.points);
        if best.is_none_or(|(k, _, _)| key < k) {
            best = Some((key, needs, id));
        }
    }
    best.map(|(_, needs, id)| (needs, id))
}

/// How many nobles on the table still want a bonus of `color` from a seat
/// with `bonuses` (R9.1).
fn noble_wants(game: &Game, bonuses: &Gems, color: Color) -> u8 {
    game.nobles_on_table()
        .filter_map(noble)
        .filter(|n| n.requires[color.index()] > bonuses[color.index()])
        .count() as u8
}

/// How well `seat` stands, in points: the quick search's score (points,
/// what its bonuses and tokens will buy) and the nobles within a few
/// bonuses of it.
pub(crate) fn heuristic(game: &Game, seat: Seat) -> f64 {
    let bonuses = game.bonuses(seat).unwrap_or_default();
    let mut nobles = 0.0;
    for n in game.nobles_on_table().filter_map(noble) {
        let missing: u32 = (0..5)
            .map(|i| u32::from(n.requires[i].saturating_sub(bonuses[i])))
            .sum();
        if missing < 4 {
            let near = 1.0 - f64::from(missing) / 4.0;
            nobles += NOBLE_WEIGHT * near * near;
        }
    }
    crate::strong::heuristic(game, seat) + nobles
}

#[cfg(test)]
mod tests {
    use rand_chacha::rand_core::SeedableRng;
    use splendor_rules::Options;

    use super::*;

    /// Positions from seeded games whose moves mix the plan's and any
    /// legal move's: at every one the plan plays a legal action, buys the
    /// card worth most points when it can buy, and returns no gold while a
    /// coloured token can go back instead (R8).
    #[test]
    fn the_plan_plays_legal_moves_buys_what_scores_and_keeps_gold() {
        let mut buys = 0;
        let mut returns = 0;
        for seed in 0..40u64 {
            let players = 2 + (seed % 3) as u8;
            let mut game = Game::new(players, Options::default(), seed).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut legal = Vec::new();
            while let Some(seat) = game.to_act() {
                game.legal_actions(&mut legal);
                let action = rollout_action(&game, seat, &legal, &mut rng);
                assert!(legal.contains(&action), "{action:?} not in {legal:?}");
                let best_points = legal
                    .iter()
                    .filter_map(|a| match a {
                        Action::Buy { card: id, .. } => card(*id).map(|c| c.points),
                        _ => None,
                    })
                    .max();
                if let (Phase::Main { .. }, Some(points)) = (game.phase(), best_points) {
                    let Action::Buy { card: id, .. } = action else {
                        panic!("{action:?} instead of a buy");
                    };
                    assert_eq!(card(id).unwrap().points, points);
                    buys += 1;
                }
                if matches!(game.phase(), Phase::ReturnTokens { .. }) {
                    let coloured = legal
                        .iter()
                        .any(|a| matches!(a, Action::ReturnTokens(t) if t.gold == 0));
                    if let (Action::ReturnTokens(back), true) = (action, coloured) {
                        assert_eq!(back.gold, 0, "gold returned while colours could be");
                    }
                    returns += 1;
                }
                // Every third move anything legal, so that the games go
                // through positions the plan would not reach.
                let played = if rng.next_u32() % 3 == 0 {
                    legal[(rng.next_u64() % legal.len() as u64) as usize]
                } else {
                    action
                };
                game.apply(seat, played).unwrap();
                if game.turn() > 400 {
                    break;
                }
            }
        }
        assert!(buys > 100 && returns > 5, "buys {buys}, returns {returns}");
    }

    /// A seat's score counts the nobles within three bonuses of it (R9.1),
    /// more the nearer, and no other.
    #[test]
    fn nobles_in_reach_add_to_a_seat_score_and_no_others() {
        let mut near_seen = 0;
        for seed in 0..30u64 {
            let mut game = Game::new(2, Options::default(), seed).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut legal = Vec::new();
            while let Some(seat) = game.to_act() {
                for s in 0..2 {
                    let bonuses = game.bonuses(s).unwrap();
                    let base = crate::strong::heuristic(&game, s);
                    let nearest = game
                        .nobles_on_table()
                        .filter_map(noble)
                        .map(|n| {
                            (0..5)
                                .map(|i| u32::from(n.requires[i].saturating_sub(bonuses[i])))
                                .sum::<u32>()
                        })
                        .min()
                        .unwrap_or(u32::MAX);
                    let extra = heuristic(&game, s) - base;
                    if nearest < 4 {
                        near_seen += 1;
                        assert!(extra > 0.0, "a noble {nearest} away adds {extra}");
                    } else {
                        assert!(extra.abs() < 1e-9, "no noble in reach, yet {extra}");
                    }
                }
                game.legal_actions(&mut legal);
                let action = rollout_action(&game, seat, &legal, &mut rng);
                game.apply(seat, action).unwrap();
            }
        }
        assert!(
            near_seen > 100,
            "{near_seen} positions with a noble in reach"
        );
    }
}
