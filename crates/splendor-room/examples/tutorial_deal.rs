//! Finds the tutorial's prepared deal (issue 50; `src/tutorial.rs`): a
//! seed of a two-player game, moves that bring it to a position one bonus
//! short of a noble for the learner (seat 0), and six turns from there in
//! which the learner takes three gems, takes two of a kind, reserves the
//! card that will bring the noble, buys a card with a bonus, takes tokens
//! past ten and returns some, and buys the reserved card to meet the
//! noble; the other seat (the tutor) only takes tokens meanwhile.
//!
//!     cargo run --release -p splendor-room --example tutorial_deal -- [FIRST_SEED] [SEEDS]
//!
//! prints the first deal found as `src/tutorial.json` holds it (from seed
//! 1: seed 21, in about a second). The rules
//! decide everything here (every move is applied by `Game::apply`); the
//! policies are only how the search walks.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use splendor_protocol::WireAction;
use splendor_rules::{
    Action, CardId, Event, Game, NobleId, Options, Phase, Rulings, Seat, card, noble,
};

const LEARNER: Seat = 0;
const TUTOR: Seat = 1;

/// The learner's bonuses short of `noble`, per colour.
fn deficits(game: &Game, noble_id: NobleId) -> [u8; 5] {
    let bonuses = game.bonuses(LEARNER).unwrap_or_default();
    let wants = noble(noble_id).map(|n| n.requires).unwrap_or_default();
    let mut out = [0; 5];
    for i in 0..5 {
        out[i] = wants[i].saturating_sub(bonuses[i]);
    }
    out
}

fn legal(game: &Game) -> Vec<Action> {
    let mut out = Vec::new();
    game.legal_actions(&mut out);
    out
}

fn tokens(game: &Game, seat: Seat) -> u32 {
    game.tokens(seat).map_or(0, |t| t.total())
}

/// What the tokens `seat` holds and its bonuses still lack of `card_id`.
fn missing(game: &Game, seat: Seat, card_id: CardId) -> [u8; 5] {
    let c = card(card_id).expect("a card");
    let have = game.tokens(seat).unwrap_or_default().gems;
    let bonus = game.bonuses(seat).unwrap_or_default();
    let mut out = [0; 5];
    for i in 0..5 {
        out[i] = c.cost[i].saturating_sub(bonus[i]).saturating_sub(have[i]);
    }
    out
}

/// A return of the decision phase: the tokens least wanted go back.
fn some_return(game: &Game, rng: &mut ChaCha8Rng) -> Action {
    let options = legal(game);
    options[(rng.next_u32() as usize) % options.len()]
}

/// The learner before the lessons: buys cards of the colours the noble
/// still wants (never the last one), else takes the tokens the nearest
/// such card lacks.
fn learner_move(game: &Game, target: NobleId, rng: &mut ChaCha8Rng) -> Action {
    let options = legal(game);
    if !matches!(game.phase(), Phase::Main { .. }) {
        return some_return(game, rng);
    }
    let short = deficits(game, target);
    let left: u8 = short.iter().sum();
    let wanted = |id: CardId| {
        let c = card(id).expect("a card");
        short[c.bonus.index()] > 0 && left > 1
    };
    if let Some(buy) = options.iter().find(|a| match a {
        Action::Buy {
            card: id,
            gold: None,
        } => wanted(*id),
        _ => false,
    }) {
        return *buy;
    }
    // The face-up card of a wanted colour that lacks the fewest tokens.
    let nearest = game
        .face_up_cards()
        .filter(|&id| wanted(id))
        .min_by_key(|&id| {
            missing(game, LEARNER, id)
                .iter()
                .map(|&n| u32::from(n))
                .sum::<u32>()
        });
    if let Some(id) = nearest {
        let lack = missing(game, LEARNER, id);
        let score = |a: &Action| match a {
            Action::TakeDifferent(set) => {
                set.iter().filter(|c| lack[c.index()] > 0).count() * 2 + set.iter().count()
            }
            Action::TakeTwo(c) if lack[c.index()] >= 2 => 5,
            _ => 0,
        };
        if let Some(best) = options
            .iter()
            .max_by_key(|a| score(a))
            .filter(|a| score(a) > 0)
        {
            return *best;
        }
    }
    options
        .iter()
        .find(|a| matches!(a, Action::TakeDifferent(_) | Action::TakeTwo(_)))
        .copied()
        .unwrap_or(options[0])
}

/// The tutor before the lessons: buys a card of a colour the noble does
/// not want when it can, else takes tokens at random.
fn tutor_move(game: &Game, target: NobleId, rng: &mut ChaCha8Rng) -> Action {
    let options = legal(game);
    if !matches!(game.phase(), Phase::Main { .. }) {
        return some_return(game, rng);
    }
    let wants = noble(target).map(|n| n.requires).unwrap_or_default();
    if let Some(buy) = options.iter().find(|a| match a {
        Action::Buy {
            card: id,
            gold: None,
        } => wants[card(*id).expect("a card").bonus.index()] == 0,
        _ => false,
    }) {
        return *buy;
    }
    let takes: Vec<Action> = options
        .iter()
        .filter(|a| matches!(a, Action::TakeDifferent(s) if s.iter().count() == 3))
        .copied()
        .collect();
    if takes.is_empty() {
        return options[0];
    }
    takes[(rng.next_u32() as usize) % takes.len()]
}

/// One move of the script: the seat, the move, and the lesson it is.
type Step = (Seat, Action, Option<&'static str>);

/// The tutor's quiet moves: a card of a colour the learner's noble does
/// not want, else tokens, tried in order.
fn tutor_quiet(game: &Game, ctx: &Ctx) -> Vec<Action> {
    let wants = noble(ctx.noble).map(|n| n.requires).unwrap_or_default();
    let options = legal(game);
    let buys = options.iter().filter(|a| match a {
        Action::Buy {
            card: id,
            gold: None,
        } => wants[card(*id).expect("a card").bonus.index()] == 0 && Some(*id) != ctx.reserved,
        _ => false,
    });
    let takes = options
        .iter()
        .filter(|a| matches!(a, Action::TakeDifferent(s) if s.iter().count() == 3));
    let twos = options.iter().filter(|a| matches!(a, Action::TakeTwo(_)));
    buys.chain(takes).chain(twos).copied().collect()
}

/// Plays a tutor's quiet move (and its return, R8) after a lesson, then
/// the rest of the lessons; the steps from here when they all work.
fn tutor_then(game: &Game, done: u8, ctx: &Ctx) -> Option<Vec<Step>> {
    if game.is_over() {
        return None;
    }
    for a in tutor_quiet(game, ctx).into_iter().take(4) {
        let mut next = *game;
        let Ok(events) = next.apply(TUTOR, a) else {
            continue;
        };
        if events
            .iter()
            .any(|e| matches!(e, Event::NobleVisited { .. }))
        {
            continue;
        }
        let mut steps = vec![(TUTOR, a, None)];
        if matches!(next.phase(), Phase::ReturnTokens { .. }) {
            let r = legal(&next)[0];
            next.apply(TUTOR, r).ok()?;
            steps.push((TUTOR, r, None));
        }
        if let Some(rest) = lessons(&next, done, ctx) {
            steps.extend(rest);
            return Some(steps);
        }
    }
    None
}

struct Ctx {
    noble: NobleId,
    /// The card that brings the noble (reserved at the third lesson).
    reserved: Option<CardId>,
    /// Positions tried so far, and the most the search may try.
    nodes: std::cell::Cell<u32>,
}

const NODES: u32 = 20_000;

/// The learner's lessons not yet `done` (a bit each), in the order they
/// are told, each followed by a tutor's move.
fn lessons(game: &Game, done: u8, ctx: &Ctx) -> Option<Vec<Step>> {
    if game.to_act() != Some(LEARNER) || !matches!(game.phase(), Phase::Main { .. }) {
        return None;
    }
    ctx.nodes.set(ctx.nodes.get() + 1);
    if ctx.nodes.get() > NODES {
        return None;
    }
    let held = tokens(game, LEARNER);
    let short = deficits(game, ctx.noble);
    let mut tries: Vec<(Action, usize)> = Vec::new();
    for lesson in 0..6 {
        if done & (1 << lesson) != 0 || (lesson == 5 && done != 0b11111) {
            continue;
        }
        // In the order the lessons are told: each after all those before.
        if done != (1u8 << lesson) - 1 {
            continue;
        }
        let mut n = 0;
        for a in legal(game) {
            let ok = match (lesson, a) {
                (0, Action::TakeDifferent(s)) => s.iter().count() == 3 && held + 3 <= 10,
                (1, Action::TakeTwo(_)) => held + 2 <= 10,
                (2, Action::ReserveFaceUp(id)) => {
                    short[card(id).expect("a card").bonus.index()] == 1
                        && game.supply().gold > 0
                        && held < 10
                }
                (
                    3,
                    Action::Buy {
                        card: id,
                        gold: None,
                    },
                ) => {
                    let c = card(id).expect("a card");
                    let bonus = game.bonuses(LEARNER).unwrap_or_default();
                    Some(id) != ctx.reserved
                        && short[c.bonus.index()] == 0
                        && (0..5).any(|i| c.cost[i] > 0 && bonus[i] > 0)
                }
                (4, Action::TakeDifferent(s)) => {
                    s.iter().count() == 3 && held + 3 > 10 && ctx.reserved.is_some()
                }
                (
                    5,
                    Action::Buy {
                        card: id,
                        gold: None,
                    },
                ) => Some(id) == ctx.reserved,
                _ => false,
            };
            if ok && n < 4 {
                tries.push((a, lesson));
                n += 1;
            }
        }
    }
    const NAMES: [&str; 6] = [
        "take_three",
        "take_two",
        "reserve",
        "buy_with_bonus",
        "take_past_ten",
        "noble",
    ];
    for (a, lesson) in tries {
        let mut next = *game;
        let Ok(events) = next.apply(LEARNER, a) else {
            continue;
        };
        let mut steps = vec![(LEARNER, a, Some(NAMES[lesson]))];
        let mut ctx2 = Ctx {
            noble: ctx.noble,
            reserved: ctx.reserved,
            nodes: std::cell::Cell::new(ctx.nodes.get()),
        };
        if let Action::ReserveFaceUp(id) = a {
            ctx2.reserved = Some(id);
        }
        if events
            .iter()
            .any(|e| matches!(e, Event::NobleVisited { .. }))
            && lesson != 5
        {
            continue; // No noble before the last lesson.
        }
        if lesson == 4 {
            // R8: above ten, some go back; what is left still pays for
            // the reserved card.
            let Some(id) = ctx2.reserved else { continue };
            let mut found = None;
            for r in legal(&next) {
                let Action::ReturnTokens(back) = r else {
                    continue;
                };
                if back.gold > 0 {
                    continue;
                }
                let mut after = next;
                if after.apply(LEARNER, r).is_err() {
                    continue;
                }
                let lack: u32 = missing(&after, LEARNER, id)
                    .iter()
                    .map(|&n| u32::from(n))
                    .sum();
                let gold = after.tokens(LEARNER).map_or(0, |t| u32::from(t.gold));
                if lack <= gold {
                    found = Some((r, after));
                    break;
                }
            }
            let Some((r, after)) = found else { continue };
            steps.push((LEARNER, r, Some("return")));
            next = after;
        } else if !matches!(next.phase(), Phase::Main { .. }) && !next.is_over() {
            continue; // Any other lesson leaves nothing to return.
        }
        if lesson == 5 {
            let visited = events
                .iter()
                .any(|e| matches!(e, Event::NobleVisited { noble, .. } if *noble == ctx.noble));
            if visited && !next.is_over() {
                return Some(steps);
            }
            continue;
        }
        let found = tutor_then(&next, done | (1 << lesson), &ctx2);
        ctx.nodes.set(ctx2.nodes.get());
        if let Some(rest) = found {
            steps.extend(rest);
            return Some(steps);
        }
    }
    None
}

/// The prepared deal from `seed`, if one is found: the moves before the
/// lessons and the lessons'.
fn search(seed: u64) -> Option<(Vec<Step>, Vec<Step>)> {
    let options = Options {
        first_seat: Some(LEARNER),
        rulings: Rulings::CURRENT,
    };
    let start = Game::new(2, options, seed).ok()?;
    for target in start.nobles_on_table().collect::<Vec<_>>() {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ u64::from(target.0));
        let mut game = start;
        let mut prefix: Vec<Step> = Vec::new();
        while prefix.len() < 90 && !game.is_over() {
            let seat = game.to_act()?;
            let main = matches!(game.phase(), Phase::Main { .. });
            if seat == LEARNER && main {
                let short: u8 = deficits(&game, target).iter().sum();
                let calm =
                    game.points(LEARNER).unwrap_or(0) < 9 && game.points(TUTOR).unwrap_or(0) < 6;
                if short == 1 && calm {
                    let ctx = Ctx {
                        noble: target,
                        reserved: None,
                        nodes: std::cell::Cell::new(0),
                    };
                    if let Some(steps) = lessons(&game, 0, &ctx) {
                        return Some((prefix, steps));
                    }
                }
                if short == 0 {
                    break;
                }
            }
            let a = if seat == LEARNER {
                learner_move(&game, target, &mut rng)
            } else {
                tutor_move(&game, target, &mut rng)
            };
            game.apply(seat, a).ok()?;
            // Another noble came first: not this deal.
            if game.nobles_on_table().count() < start.nobles_on_table().count() {
                break;
            }
            prefix.push((seat, a, None));
        }
    }
    None
}

fn main() {
    let mut args = std::env::args().skip(1);
    let first: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let count: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2000);
    for seed in first..first + count {
        let Some((prefix, steps)) = search(seed) else {
            continue;
        };
        let line = |(seat, a, lesson): &Step| {
            let mut v = serde_json::json!({"seat": seat, "action": WireAction::from(*a)});
            if let Some(l) = lesson {
                v["lesson"] = serde_json::json!(l);
            }
            v
        };
        let doc = serde_json::json!({
            "seed": seed.to_string(),
            "prefix": prefix.iter().map(line).collect::<Vec<_>>(),
            "lessons": steps.iter().map(line).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&doc).expect("json"));
        eprintln!(
            "seed {seed}: {} moves before the lessons, {} in them",
            prefix.len(),
            steps.len()
        );
        return;
    }
    eprintln!("no deal found in seeds {first}..{}", first + count);
    std::process::exit(1);
}
