//! The `strong` level: single-observer information-set Monte-Carlo tree
//! search (Cowling, Powley and Whitehouse, 2012).
//!
//! Each iteration deals a fresh sample of what the seat cannot see
//! ([`Sampler::sample`]), walks one tree shared by all samples (a child is
//! only considered when its action is legal in this sample; UCB counts how
//! often it was available), adds one node, then plays the sample on with a
//! rollout policy for a few rounds and scores the position ([`Rollout`]:
//! quick and noisy for levels 3 and 4 and the analysis, planned for the
//! top level, `crate::plan`). Each node
//! keeps the reward of the seat that made its move, so every seat plays to
//! win for itself (2 to 4 players). The move is the root's most visited.

use std::time::Instant;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::RngCore;
use splendor_rules::{Action, Game, Phase, Sampler, Seat, card};

use crate::Budget;

/// The iterations of the `strong` level (4), the analysis's default
/// (docs/BOTS.md for the levels' Elo, docs/BENCHMARKS.md for the times).
pub const DEFAULT_ITERATIONS: u32 = 10_000;

/// UCB1's exploration constant (rewards are in 0..=1).
const EXPLORATION: f64 = 0.7;
/// Rollouts stop after this many turns of each seat and are scored.
const ROLLOUT_ROUNDS: u32 = 6;
/// The temperature of the score-to-reward softmax: lower trusts the
/// heuristic score more.
const TEMPERATURE: f64 = 2.0;

struct Node {
    /// The move into this node (unused at the root).
    action: Action,
    /// The seat that made it.
    actor: Seat,
    children: Vec<u32>,
    visits: u32,
    /// How often this node's move was legal when its parent was visited.
    available: u32,
    /// Sum of the actor's rewards over the visits.
    reward: f64,
}

impl Node {
    fn new(action: Action, actor: Seat) -> Node {
        Node {
            action,
            actor,
            children: Vec::new(),
            visits: 0,
            available: 0,
            reward: 0.0,
        }
    }
}

/// The search's move for the sampler's seat, and whether the budget's time
/// cap stopped the search early. The sampler's games must wait for that
/// seat (checked by the caller).
pub fn choose(
    sampler: &Sampler,
    rng: &mut ChaCha8Rng,
    budget: &Budget,
    way: Rollout,
) -> (Action, bool) {
    let mut legal = Vec::with_capacity(64);
    sampler.sample(rng).legal_actions(&mut legal);
    match legal.len() {
        0 => return (Action::Pass, false),
        1 => return (legal[0], false),
        _ => {}
    }
    let mut capped = false;
    let started = budget.time_cap.map(|cap| (Instant::now(), cap));
    let mut search = Search::new(sampler, way);
    for iteration in 0..budget.iterations {
        // Never before the first iteration: the root needs a child.
        if let Some((start, cap)) = started
            && iteration > 0
            && iteration % 32 == 0
            && start.elapsed() > cap
        {
            capped = true;
            break;
        }
        search.iterate(sampler, rng, None);
    }
    (search.tree[search.most_visited()].action, capped)
}

/// What the search makes of a position and of the move played there, for
/// the analysis of a finished game (issue 26). Chances are the mean
/// rewards of the search (a finished rollout pays its winners, an
/// unfinished one the softmax of the heuristic), read as each seat's
/// chance to win.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// The move the search prefers (its most visited, or the move played
    /// when that scored at least as well).
    pub best: Action,
    /// Every seat's chance to win after [`Evaluation::best`], by seat; the
    /// players' entries sum to 1.
    pub chances: [f64; 4],
    /// The mover's chance after the preferred move.
    pub best_chance: f64,
    /// The mover's chance after the move played.
    pub played_chance: f64,
    /// How many actions were legal.
    pub legal: usize,
}

/// Evaluates the sampler's position, where its seat played `played`:
/// `iterations` searched as [`choose`] searches (no time cap, so the same
/// seed always gives the same answer), then, when the move played is not
/// the preferred one, a quarter as many more that all start with it, so
/// its chance is measured as well as the preferred move's. `played` must
/// be legal there.
pub fn evaluate(
    sampler: &Sampler,
    rng: &mut ChaCha8Rng,
    iterations: u32,
    played: Action,
) -> Evaluation {
    let mut search = Search::new(sampler, Rollout::Quick);
    let legal = {
        let mut legal = Vec::new();
        sampler.sample(rng).legal_actions(&mut legal);
        legal.len()
    };
    let mut totals: Vec<[f64; 4]> = Vec::new();
    let mut record = |search: &Search, rewards: [f64; 4]| {
        if let Some(&first) = search.path.get(1) {
            let at = search.tree[0]
                .children
                .iter()
                .position(|&c| c == first)
                .expect("the path's first node is a root child");
            if totals.len() <= at {
                totals.resize(at + 1, [0.0; 4]);
            }
            for (total, reward) in totals[at].iter_mut().zip(rewards) {
                *total += reward;
            }
        }
    };
    for _ in 0..iterations.max(1) {
        let rewards = search.iterate(sampler, rng, None);
        record(&search, rewards);
    }
    let mut best = search.most_visited();
    if search.tree[best].action != played {
        for _ in 0..(iterations / 4).max(1) {
            let rewards = search.iterate(sampler, rng, Some(played));
            record(&search, rewards);
        }
    }
    let mean = |node: usize| {
        let n = &search.tree[node];
        n.reward / f64::from(n.visits.max(1))
    };
    let played_node = search
        .child(0, played)
        .expect("the move played was searched");
    if mean(played_node) >= mean(best) {
        best = played_node;
    }
    let at = search.tree[0]
        .children
        .iter()
        .position(|&c| c as usize == best)
        .expect("best is a root child");
    let visits = f64::from(search.tree[best].visits.max(1));
    let mut chances = [0.0; 4];
    for (chance, total) in chances.iter_mut().zip(totals[at]) {
        *chance = total / visits;
    }
    Evaluation {
        best: search.tree[best].action,
        chances,
        best_chance: mean(best),
        played_chance: mean(played_node),
        legal,
    }
}

/// How a search's rollouts play on and score the position they reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// Quick and noisy ([`rollout_action`], [`heuristic`]): levels 3 and 4
    /// and the analysis.
    Quick,
    /// With a plan, scoring nobles in reach (`crate::plan`): the top
    /// level.
    Guided,
}

/// One search tree and the buffers its iterations share.
struct Search {
    tree: Vec<Node>,
    path: Vec<u32>,
    legal: Vec<Action>,
    rollout: Rollout,
}

impl Search {
    fn new(sampler: &Sampler, rollout: Rollout) -> Search {
        Search {
            tree: vec![Node::new(Action::Pass, sampler.seat())],
            path: Vec::with_capacity(64),
            legal: Vec::with_capacity(64),
            rollout,
        }
    }

    /// One iteration: a fresh sample, selection and expansion (through
    /// `forced` first, when given: the root's move for this iteration), a
    /// rollout, and its rewards added along the path. Returns the rewards.
    fn iterate(
        &mut self,
        sampler: &Sampler,
        rng: &mut ChaCha8Rng,
        mut forced: Option<Action>,
    ) -> [f64; 4] {
        let Search {
            tree,
            path,
            legal,
            rollout: way,
        } = self;
        let mut game = sampler.sample(rng);
        path.clear();
        path.push(0);
        let mut node = 0usize;
        // Selection and expansion.
        while let Some(actor) = game.to_act() {
            game.legal_actions(legal);
            // The move here: the forced one (through its child if searched),
            // else an untried one (a new child), else UCB's among the tried.
            let (action, existing) = if let Some(action) = forced.take() {
                let existing = tree[node]
                    .children
                    .iter()
                    .map(|&c| c as usize)
                    .find(|&c| tree[c].action == action);
                (action, existing)
            } else {
                let untried = legal.iter().filter(|&&a| !has_child(tree, node, a)).count();
                if untried > 0 {
                    let pick = (rng.next_u64() % untried as u64) as usize;
                    let action = *legal
                        .iter()
                        .filter(|&&a| !has_child(tree, node, a))
                        .nth(pick)
                        .expect("pick < untried");
                    (action, None)
                } else {
                    let child = select(tree, node, legal);
                    (tree[child].action, Some(child))
                }
            };
            apply(&mut game, actor, action);
            match existing {
                Some(child) => {
                    path.push(child as u32);
                    node = child;
                }
                None => {
                    // Expansion: one new node per iteration.
                    let child = tree.len() as u32;
                    tree.push(Node::new(action, actor));
                    tree[node].children.push(child);
                    path.push(child);
                    break;
                }
            }
        }
        let rewards = rollout(&mut game, rng, legal, *way);
        for &n in path.iter() {
            let n = &mut tree[n as usize];
            n.visits += 1;
            n.reward += rewards[n.actor as usize];
        }
        rewards
    }

    /// The root's most visited child (the last of equals).
    fn most_visited(&self) -> usize {
        let best = self.tree[0]
            .children
            .iter()
            .max_by_key(|&&c| self.tree[c as usize].visits)
            .expect("the root has children");
        *best as usize
    }

    /// The child of `node` for `action`, if searched.
    fn child(&self, node: usize, action: Action) -> Option<usize> {
        self.tree[node]
            .children
            .iter()
            .map(|&c| c as usize)
            .find(|&c| self.tree[c].action == action)
    }
}

fn has_child(tree: &[Node], node: usize, action: Action) -> bool {
    tree[node]
        .children
        .iter()
        .any(|&c| tree[c as usize].action == action)
}

/// UCB1 among the children legal in this sample (all have been tried).
fn select(tree: &mut [Node], node: usize, legal: &[Action]) -> usize {
    let mut best = usize::MAX;
    let mut best_score = f64::NEG_INFINITY;
    for i in 0..tree[node].children.len() {
        let c = tree[node].children[i] as usize;
        if !legal.contains(&tree[c].action) {
            continue;
        }
        tree[c].available += 1;
        let n = f64::from(tree[c].visits.max(1));
        let score =
            tree[c].reward / n + EXPLORATION * (f64::from(tree[c].available).ln() / n).sqrt();
        if score > best_score {
            best_score = score;
            best = c;
        }
    }
    debug_assert!(best != usize::MAX, "every legal action has a child");
    best
}

fn apply(game: &mut Game, seat: Seat, action: Action) {
    // Every action comes from `legal_actions` of this very game.
    let applied = game.apply(seat, action);
    debug_assert!(applied.is_ok(), "{action:?}: {applied:?}");
}

/// Plays on with [`rollout_action`] for a few rounds, then scores: a
/// finished game pays its winners, an unfinished one the softmax of
/// [`heuristic`] scores.
fn rollout(
    game: &mut Game,
    rng: &mut ChaCha8Rng,
    legal: &mut Vec<Action>,
    way: Rollout,
) -> [f64; 4] {
    let players = game.players();
    let rounds = match way {
        Rollout::Quick => ROLLOUT_ROUNDS,
        Rollout::Guided => crate::plan::ROLLOUT_ROUNDS,
    };
    let stop = game.turn() + rounds * u32::from(players);
    while let Some(seat) = game.to_act() {
        if game.turn() >= stop {
            break;
        }
        game.legal_actions(legal);
        let action = match way {
            Rollout::Quick => rollout_action(game, seat, legal, rng),
            Rollout::Guided => crate::plan::rollout_action(game, seat, legal, rng),
        };
        apply(game, seat, action);
    }
    let mut rewards = [0.0; 4];
    if let Some(result) = game.result() {
        let share = 1.0 / result.winners.len() as f64;
        for &w in &result.winners {
            rewards[w as usize] = share;
        }
        return rewards;
    }
    let mut total = 0.0;
    for s in 0..players {
        let score = match way {
            Rollout::Quick => heuristic(game, s),
            Rollout::Guided => crate::plan::heuristic(game, s),
        };
        let r = (score / TEMPERATURE).exp();
        rewards[s as usize] = r;
        total += r;
    }
    for r in &mut rewards {
        *r /= total;
    }
    rewards
}

/// A quick, noisy policy: usually buy the card worth most points; else take
/// three different tokens; reserve rarely; decisions at random.
fn rollout_action(game: &Game, seat: Seat, legal: &[Action], rng: &mut ChaCha8Rng) -> Action {
    let random = |rng: &mut ChaCha8Rng| legal[(rng.next_u64() % legal.len() as u64) as usize];
    if !matches!(game.phase(), Phase::Main { .. }) {
        return random(rng);
    }
    let roll = rng.next_u32() % 100;
    let mut best = None;
    let mut best_value = 0u32;
    for &a in legal {
        if let Action::Buy { card: id, .. } = a {
            let points = card(id).map_or(0, |c| u32::from(c.points));
            // Points first; a random tie-break among equals.
            let value = (points + 1) * 1024 + (rng.next_u32() & 1023);
            if value > best_value {
                best_value = value;
                best = Some(a);
            }
        }
    }
    if let Some(buy) = best
        && roll < 90
    {
        return buy;
    }
    let takes = legal
        .iter()
        .filter(|a| matches!(a, Action::TakeDifferent(set) if set.len() == 3 || roll >= 95))
        .count();
    if takes > 0 && roll < 97 {
        let pick = (rng.next_u64() % takes as u64) as usize;
        return *legal
            .iter()
            .filter(|a| matches!(a, Action::TakeDifferent(set) if set.len() == 3 || roll >= 95))
            .nth(pick)
            .expect("pick < takes");
    }
    let _ = seat;
    random(rng)
}

/// How well `seat` stands, in points: points, plus what its bonuses and
/// tokens will buy.
pub(crate) fn heuristic(game: &Game, seat: Seat) -> f64 {
    let points = f64::from(game.points(seat).unwrap_or(0));
    let bonuses: u32 = game
        .bonuses(seat)
        .map_or(0, |b| b.iter().map(|&n| u32::from(n)).sum());
    let tokens = game.tokens(seat).unwrap_or_default();
    let gems: u32 = tokens.gems.iter().map(|&n| u32::from(n)).sum();
    points + 0.4 * f64::from(bonuses) + 0.1 * f64::from(gems) + 0.15 * f64::from(tokens.gold)
}
