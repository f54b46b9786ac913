//! The analysis judges moves as it should (issue 26): a thrown-away win is
//! the worst move of its game, a game of two strong players shows small
//! drops only, the same game gives the same analysis, and a move is judged
//! only on what its player could see.

use splendor_ai::{Budget, Level, choose};
use splendor_analysis::{BLUNDER, Mark, Plan, Settings};
use splendor_replay::{Commitment, GameHeader, LoggedAction, Replay, Salt, SeatName, Seed};
use splendor_rules::{Action, Game, Options, Seat, Viewer};

/// Few iterations: these tests run in debug builds.
const QUICK: Settings = Settings { iterations: 600 };

fn replay_of(seed: u64, log: &[LoggedAction], players: u8) -> Replay {
    let header = GameHeader {
        game: format!("test-{seed}"),
        room: "ABCDEF".into(),
        started_at: 0,
        options: Options::default(),
        seats: (0..players)
            .map(|seat| SeatName {
                seat,
                name: format!("P{seat}"),
                bot: None,
                program_bot: false,
            })
            .collect(),
        seed: Seed(seed),
        salt: Salt([7; 32]),
        commitment: Commitment::of(Seed(seed), &Salt([7; 32])),
    };
    Replay::build(header, log, 1).expect("a finished game")
}

/// Plays a game to its end, each move chosen by `pick`.
fn play(
    players: u8,
    seed: u64,
    mut pick: impl FnMut(&Game, Seat, usize) -> Action,
) -> Vec<LoggedAction> {
    let mut game = Game::new(players, Options::default(), seed).unwrap();
    let mut log = Vec::new();
    while let Some(seat) = game.to_act() {
        let action = pick(&game, seat, log.len());
        game.apply(seat, action).unwrap();
        log.push(LoggedAction {
            seq: log.len() as u32,
            seat,
            at: 0,
            action,
            by: None,
        });
        assert!(log.len() < 400, "the game ends");
    }
    log
}

fn bot(level: Level, game: &Game, seat: Seat, ply: usize, iterations: u32) -> Action {
    let budget = Budget {
        iterations,
        time_cap: None,
    };
    choose(
        level,
        &game.view(Viewer::Seat(seat)),
        seat,
        ply as u64,
        &budget,
    )
    .unwrap()
}

/// The actions that win the game for `seat` at once.
fn winning(game: &Game, seat: Seat) -> Vec<Action> {
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    legal
        .into_iter()
        .filter(|&a| {
            let mut after = *game;
            after.apply(seat, a).is_ok() && after.result().is_some_and(|r| r.winners == vec![seat])
        })
        .collect()
}

/// A two-player game of greedy players in which the last seat of a round,
/// able to win at once by buying, takes something else instead: the move
/// that throws a sure win away.
fn thrown_win() -> (Replay, u32) {
    for seed in 0..200u64 {
        let mut thrown = None;
        let log = play(2, seed, |game, seat, ply| {
            if thrown.is_none() && seat == 1 && !winning(game, seat).is_empty() {
                let mut legal = Vec::new();
                game.legal_actions(&mut legal);
                // Anything that neither wins nor buys: three tokens, say.
                if let Some(&other) = legal.iter().find(|a| {
                    matches!(a, Action::TakeDifferent(_)) && !winning(game, seat).contains(a)
                }) {
                    thrown = Some(ply as u32);
                    return other;
                }
            }
            bot(Level::GREEDY, game, seat, ply, 0)
        });
        if let Some(at) = thrown {
            return (replay_of(seed, &log, 2), at);
        }
    }
    panic!("no seed gave a win to throw away");
}

#[test]
fn throwing_a_sure_win_away_is_the_worst_move_of_the_game() {
    let (replay, thrown) = thrown_win();
    let plan = Plan::new(&replay).unwrap();
    let analysis = plan.analyse(&QUICK);
    assert_eq!(analysis.moves.len(), replay.actions.len());
    let worst = analysis
        .moves
        .iter()
        .max_by(|a, b| a.drop.total_cmp(&b.drop))
        .unwrap();
    assert_eq!(worst.seq, thrown, "{:#?}", analysis.moves[thrown as usize]);
    assert!(worst.drop >= BLUNDER, "{worst:#?}");
    assert_eq!(worst.mark, Mark::Blunder);
    // The judge preferred a move that wins at once.
    let best = Action::try_from(worst.best.as_ref().unwrap()).unwrap();
    let mut before = Game::new(2, Options::default(), replay.seed.0).unwrap();
    for step in &replay.actions[..thrown as usize] {
        before
            .apply(step.seat, Action::try_from(&step.action).unwrap())
            .unwrap();
    }
    assert!(winning(&before, 1).contains(&best), "{best:?}");
    assert!(worst.best_chance > 0.9, "{worst:#?}");
    // The thrower's figures count the blunder.
    assert!(analysis.figures[1].blunders >= 1);
    assert!(analysis.figures[1].accuracy.unwrap() < 100.0);
}

#[test]
fn a_game_of_two_strong_players_shows_small_drops_only() {
    let log = play(2, 11, |game, seat, ply| {
        bot(Level::STRONG, game, seat, ply, 1500)
    });
    let replay = replay_of(11, &log, 2);
    let analysis = Plan::new(&replay).unwrap().analyse(&QUICK);
    let blunders: Vec<_> = analysis
        .moves
        .iter()
        .filter(|m| m.mark == Mark::Blunder)
        .collect();
    assert!(blunders.is_empty(), "{blunders:#?}");
    for f in &analysis.figures {
        assert!(f.accuracy.unwrap() > 70.0, "{f:?}");
    }
}

#[test]
fn the_same_game_gives_the_same_analysis_and_chances_add_up() {
    let log = play(3, 5, |game, seat, ply| {
        bot(Level::GREEDY, game, seat, ply, 0)
    });
    let replay = replay_of(5, &log, 3);
    let plan = Plan::new(&replay).unwrap();
    let settings = Settings { iterations: 200 };
    let one = plan.analyse(&settings);
    let two = plan.analyse(&settings);
    assert_eq!(one, two);
    for m in &one.moves {
        let total: f64 = m.chances.iter().sum();
        assert!((total - 1.0).abs() < 0.01, "{m:?}");
        assert!(m.chances.iter().all(|c| (0.0..=1.0).contains(c)));
        assert!(m.drop >= 0.0);
        if m.mark != Mark::Forced && m.mark != Mark::Resigned {
            assert!(m.best.is_some());
        }
    }
    let winners = replay.result.winners.clone();
    for (seat, share) in one.final_chances.iter().enumerate() {
        assert_eq!(*share > 0.0, winners.contains(&(seat as u8)));
    }
    // Judging one position alone gives what the whole run gave.
    let i = one.moves.len() / 2;
    assert_eq!(plan.judge(i, &settings, one.moves.get(i - 1)), one.moves[i]);
}
