//! The built-in players: each level plays only legal actions, the same
//! view and seed give the same move, and a move never depends on what the
//! seat cannot see (R6.4).

use proptest::prelude::*;
use splendor_ai::{Budget, Level, NoMove, choose, evaluate};
use splendor_rules::{Action, Game, Options, Sampler, Viewer};

/// A small budget: these tests check behaviour, not strength.
const QUICK: Budget = Budget {
    iterations: 200,
    time_cap: None,
};

/// A position reached by `steps` moves of the greedy level from `seed`.
fn position(players: u8, seed: u64, steps: usize) -> Game {
    let mut game = Game::new(players, Options::default(), seed).unwrap();
    for i in 0..steps {
        let Some(seat) = game.to_act() else { break };
        let level = if i % 3 == 0 {
            Level::RANDOM
        } else {
            Level::GREEDY
        };
        let action = choose(
            level,
            &game.view(Viewer::Seat(seat)),
            seat,
            i as u64,
            &QUICK,
        )
        .unwrap();
        game.apply(seat, action).unwrap();
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every level's move is legal for the seat to act, and a move is a
    /// function of the view and the seed: a second sample of the hidden
    /// cards (another game with the very same view) gets the same move.
    #[test]
    fn moves_are_legal_and_never_depend_on_hidden_cards(
        players in 2u8..=4,
        seed in any::<u64>(),
        steps in 0usize..80,
    ) {
        let game = position(players, seed, steps);
        let Some(seat) = game.to_act() else { return Ok(()) };
        let view = game.view(Viewer::Seat(seat));
        let other = Sampler::new(&view, seat).unwrap().sample(&mut rand_chacha_rng(seed));
        prop_assert_eq!(other.view(Viewer::Seat(seat)), view.clone());
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        for level in Level::all() {
            let action = choose(level, &view, seat, seed, &QUICK).unwrap();
            prop_assert!(legal.contains(&action), "{level}: {action:?} not in {legal:?}");
            let again = choose(level, &other.view(Viewer::Seat(seat)), seat, seed, &QUICK).unwrap();
            prop_assert_eq!(action, again, "{} changed with hidden cards only", level);
        }
    }

    /// Issue 26: the analysis's judge answers from the mover's view alone
    /// (a move is judged by what its player knew): another game with the
    /// same view gets the very same evaluation; the chances are shares of
    /// the win, and the move played is judged no better than the preferred.
    #[test]
    fn an_evaluation_never_depends_on_hidden_cards(
        players in 2u8..=4,
        seed in any::<u64>(),
        steps in 0usize..60,
        pick in any::<usize>(),
    ) {
        let game = position(players, seed, steps);
        let Some(seat) = game.to_act() else { return Ok(()) };
        let view = game.view(Viewer::Seat(seat));
        let other = Sampler::new(&view, seat).unwrap().sample(&mut rand_chacha_rng(seed));
        let mut legal = Vec::new();
        game.legal_actions(&mut legal);
        let played = legal[pick % legal.len()];
        let one = evaluate(&view, seat, seed, 100, played).unwrap();
        let two = evaluate(&other.view(Viewer::Seat(seat)), seat, seed, 100, played).unwrap();
        prop_assert_eq!(one, two);
        prop_assert!(legal.contains(&one.best));
        prop_assert_eq!(one.legal, legal.len());
        prop_assert!(one.played_chance <= one.best_chance);
        let total: f64 = one.chances[..usize::from(players)].iter().sum();
        prop_assert!((total - 1.0).abs() < 1e-9, "{:?}", one.chances);
    }
}

fn rand_chacha_rng(seed: u64) -> impl rand::RngCore {
    use rand::SeedableRng;
    rand::rngs::StdRng::seed_from_u64(seed)
}

#[test]
fn a_seat_that_is_not_to_act_or_a_foreign_view_gets_no_move() {
    let game = Game::new(2, Options::default(), 5).unwrap();
    let seat = game.to_act().unwrap();
    let idle = 1 - seat;
    let view = game.view(Viewer::Seat(idle));
    assert_eq!(
        choose(Level::GREEDY, &view, idle, 0, &QUICK),
        Err(NoMove::NotToAct)
    );
    assert!(matches!(
        choose(Level::STRONG, &view, 3, 0, &QUICK),
        Err(NoMove::BadView(_))
    ));
    // The judge of an analysis likewise, and a move that is not legal
    // there is not judged.
    let own = game.view(Viewer::Seat(seat));
    assert_eq!(
        evaluate(&view, idle, 0, 10, Action::Pass),
        Err(NoMove::NotToAct)
    );
    assert_eq!(
        evaluate(&own, seat, 0, 10, Action::Resign),
        Err(NoMove::NotLegal)
    );
}

#[test]
fn level_names_round_trip_and_unknown_ones_are_refused() {
    for level in Level::all() {
        assert_eq!(level.name().parse::<Level>(), Ok(level));
    }
    let err = "grandmaster".parse::<Level>().unwrap_err();
    assert!(
        err.to_string()
            .contains("a level from 1 to 5 (or random, greedy, strong)"),
        "{err}"
    );
}

/// The strong level beats the greedy yardstick in a handful of seeded
/// games even on a tiny budget (the real measurement is the `strength`
/// example, docs/BENCHMARKS.md). Seeded: this is not a flaky test, and it
/// fails if the search stops searching (e.g. picks its first child).
#[test]
fn strong_outscores_greedy_on_a_small_seeded_series() {
    let budget = Budget {
        iterations: 300,
        time_cap: None,
    };
    let mut strong = 0.0;
    for seed in 0..6u64 {
        for strong_seat in 0..2u8 {
            let mut game = Game::new(2, Options::default(), seed).unwrap();
            let mut n = 0u64;
            while let Some(seat) = game.to_act() {
                let level = if seat == strong_seat {
                    Level::STRONG
                } else {
                    Level::GREEDY
                };
                let action =
                    choose(level, &game.view(Viewer::Seat(seat)), seat, n, &budget).unwrap();
                game.apply(seat, action).unwrap();
                n += 1;
            }
            let result = game.result().unwrap();
            if result.winners.contains(&strong_seat) {
                strong += 1.0 / result.winners.len() as f64;
            }
        }
    }
    assert!(strong >= 8.0, "strong scored {strong} of 12 against greedy");
}

/// Issue 24, defect 4: a search the time cap stops says so (its move
/// depends on the machine, not only on the seed); without a cap the same
/// seed gives the same move and nothing is capped.
#[test]
fn a_search_stopped_by_the_time_cap_says_so_and_without_one_the_seed_decides() {
    let game = position(3, 11, 12);
    let seat = game.to_act().expect("the game runs");
    let view = game.view(Viewer::Seat(seat));
    let tiny = Budget {
        iterations: 1_000_000,
        time_cap: Some(std::time::Duration::from_nanos(1)),
    };
    let capped = splendor_ai::think(Level::STRONG, &view, seat, 3, &tiny).unwrap();
    assert!(capped.capped);
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    assert!(legal.contains(&capped.action));
    // A zero cap still thinks once before it looks at the time.
    let zero = Budget {
        time_cap: Some(std::time::Duration::ZERO),
        ..tiny
    };
    assert!(
        splendor_ai::think(Level::STRONG, &view, seat, 3, &zero)
            .unwrap()
            .capped
    );
    let a = splendor_ai::think(Level::STRONG, &view, seat, 3, &QUICK).unwrap();
    let b = splendor_ai::think(Level::STRONG, &view, seat, 3, &QUICK).unwrap();
    assert_eq!(a, b);
    assert!(!a.capped);
}
