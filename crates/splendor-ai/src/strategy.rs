//! Strategies: how a bot picks one of the legal actions.
//!
//! A strategy only ever returns an entry of `state.legal_actions`, so it
//! cannot make an illegal move and needs no rules code. To write your own,
//! implement [`Strategy`] and put it in the example bot's `Config::strategy`
//! (`splendor_bot::Config`).

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use splendor_protocol::{
    BuyTarget, CardInfo, Color, GemCounts, PhaseName, PlayerInfo, StateInfo, TokenCounts,
    WireAction,
};

/// Picks the action to play in a state where the bot must act.
pub trait Strategy {
    /// Returns one entry of `state.legal_actions`, which the caller
    /// guarantees is present and not empty.
    fn choose(&mut self, state: &StateInfo) -> WireAction;
}

/// The legal actions of a state (empty when it has none).
fn legal(state: &StateInfo) -> &[WireAction] {
    state.legal_actions.as_deref().unwrap_or(&[])
}

/// Plays uniformly at random among the legal actions.
pub struct Random {
    rng: StdRng,
}

impl Random {
    /// The same seed plays the same moves in the same states.
    pub fn seeded(seed: u64) -> Random {
        Random {
            rng: StdRng::seed_from_u64(seed),
        }
    }

    /// A fresh seed from the operating system.
    pub fn from_entropy() -> Random {
        Random {
            rng: StdRng::from_os_rng(),
        }
    }
}

impl Strategy for Random {
    fn choose(&mut self, state: &StateInfo) -> WireAction {
        legal(state)
            .choose(&mut self.rng)
            .cloned()
            .unwrap_or(WireAction::Pass)
    }
}

/// Buys the card worth most points it can (then the one that helps most
/// towards a noble), else takes the tokens its closest card still needs,
/// else reserves. Returns the tokens it needs least. Deterministic.
pub struct Greedy;

impl Strategy for Greedy {
    fn choose(&mut self, state: &StateInfo) -> WireAction {
        let actions = legal(state);
        let me = state
            .you
            .and_then(|seat| state.players.get(usize::from(seat)));
        let (Some(me), Some(first)) = (me, actions.first()) else {
            return actions.first().cloned().unwrap_or(WireAction::Pass);
        };
        let target = closest_card(state, me);
        let best = if state.phase == PhaseName::ReturnTokens {
            actions.iter().min_by_key(|a| return_cost(a, me, target))
        } else {
            actions.iter().max_by_key(|a| score(a, state, me, target))
        };
        best.unwrap_or(first).clone()
    }
}

/// How good an action is, compared as a tuple: buying beats taking beats
/// reserving; within each, the later numbers decide.
fn score(
    action: &WireAction,
    state: &StateInfo,
    me: &PlayerInfo,
    target: Option<&CardInfo>,
) -> (u8, u32, u32) {
    match action {
        WireAction::Buy(BuyTarget::Card(id) | BuyTarget::WithGold { card: id, .. }) => {
            match find_card(state, me, id.0) {
                Some(card) => (
                    3,
                    u32::from(card.points),
                    noble_progress(state, me, card.bonus),
                ),
                None => (3, 0, 0),
            }
        }
        WireAction::Take(colors) => {
            let useful = colors
                .iter()
                .filter(|&&c| still_needed(me, target, c) > 0)
                .count();
            (2, useful as u32, colors.len() as u32)
        }
        WireAction::TakeTwo(color) => (2, still_needed(me, target, *color).min(2), 2),
        WireAction::Reserve(id) => {
            let points = find_card(state, me, id.0).map_or(0, |c| c.points);
            (1, u32::from(points), 0)
        }
        // Nobles all score 3 (R9), and a pass is only legal alone (R11.1).
        _ => (0, 0, 0),
    }
}

/// What returning these tokens loses: cheap for tokens the target does not
/// need, dear for ones it needs, dearest for gold (it pays for anything).
fn return_cost(action: &WireAction, me: &PlayerInfo, target: Option<&CardInfo>) -> u32 {
    let WireAction::Return(back) = action else {
        return u32::MAX;
    };
    let mut cost = u32::from(back.gold) * 30;
    for color in Color::ALL {
        let returned = u32::from(token(back, color));
        let spare = u32::from(token(&me.tokens, color)).saturating_sub(need(me, target, color));
        cost += returned + returned.saturating_sub(spare) * 10;
    }
    cost
}

/// The face-up or own reserved card that is cheapest to complete (more
/// points first among equals): what the token choices work towards.
fn closest_card<'a>(state: &'a StateInfo, me: &'a PlayerInfo) -> Option<&'a CardInfo> {
    let face_up = state
        .levels
        .iter()
        .flat_map(|level| level.cards.iter().flatten());
    let reserved = me.reserved.iter().filter_map(|r| r.card.as_ref());
    face_up.chain(reserved).min_by_key(|card| {
        let missing: u32 = Color::ALL
            .iter()
            .map(|&c| still_needed(me, Some(card), c))
            .sum();
        (
            missing.saturating_sub(u32::from(me.tokens.gold)),
            std::cmp::Reverse(card.points),
        )
    })
}

/// Tokens of `color` the target costs beyond our bonuses.
fn need(me: &PlayerInfo, target: Option<&CardInfo>, color: Color) -> u32 {
    target.map_or(0, |card| {
        u32::from(gem(&card.cost, color)).saturating_sub(u32::from(gem(&me.bonuses, color)))
    })
}

/// Tokens of `color` the target needs beyond our bonuses and tokens.
fn still_needed(me: &PlayerInfo, target: Option<&CardInfo>, color: Color) -> u32 {
    need(me, target, color).saturating_sub(u32::from(token(&me.tokens, color)))
}

/// How many nobles on the table a bonus of `color` brings us closer to.
fn noble_progress(state: &StateInfo, me: &PlayerInfo, color: Color) -> u32 {
    let closer = |requires: &GemCounts| gem(requires, color) > gem(&me.bonuses, color);
    state.nobles.iter().filter(|n| closer(&n.requires)).count() as u32
}

/// A card we may see by id: face-up, or in our own reserve.
fn find_card<'a>(state: &'a StateInfo, me: &'a PlayerInfo, id: u8) -> Option<&'a CardInfo> {
    let face_up = state
        .levels
        .iter()
        .flat_map(|level| level.cards.iter().flatten());
    let reserved = me.reserved.iter().filter_map(|r| r.card.as_ref());
    face_up.chain(reserved).find(|card| card.id.0 == id)
}

fn gem(g: &GemCounts, color: Color) -> u8 {
    [g.white, g.blue, g.green, g.red, g.black][color.index()]
}

fn token(t: &TokenCounts, color: Color) -> u8 {
    [t.white, t.blue, t.green, t.red, t.black][color.index()]
}
