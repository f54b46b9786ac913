//! The strategies play whole games in process against the real rules crate,
//! seeing exactly the `state` the server would send (built with the
//! protocol crate's own `state_info`), so no server is needed.

use splendor_bot::{Greedy, Random, Strategy};
use splendor_protocol::view::{StateContext, state_info};
use splendor_protocol::{StateInfo, WireAction};
use splendor_rules::{Action, Game, GameResult, Options, Viewer};

/// Far more actions than any game these strategies play takes.
const MAX_ACTIONS: u64 = 3_000;

/// The state seat `seat` receives when it must act.
fn state_for(game: &Game, seat: u8, version: u64, names: &[String]) -> StateInfo {
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    let view = game.view(Viewer::Seat(seat));
    state_info(
        &view,
        StateContext {
            room: "TESTS",
            game: "test",
            commitment: "",
            version,
            you: Some(seat),
            names,
            legal_actions: Some(legal.into_iter().map(WireAction::from).collect()),
            clocks: None,
        },
    )
}

/// Plays one game; every chosen action must come from the legal list.
fn play(seed: u64, players: &mut [Box<dyn Strategy>]) -> (GameResult, u64) {
    let names: Vec<String> = (0..players.len()).map(|i| format!("p{i}")).collect();
    let mut game = Game::new(players.len() as u8, Options::default(), seed).expect("setup");
    let mut version = 0;
    while let Some(seat) = game.to_act() {
        assert!(
            version < MAX_ACTIONS,
            "seed {seed}: no end after {version} actions"
        );
        let state = state_for(&game, seat, version, &names);
        let chosen = players[seat as usize].choose(&state);
        let legal = state.legal_actions.as_deref().unwrap_or_default();
        assert!(
            legal.contains(&chosen),
            "seed {seed}: {chosen:?} is not listed"
        );
        let action = Action::try_from(&chosen).expect("listed actions convert");
        game.apply(seat, action).expect("listed actions are legal");
        version += 1;
    }
    (
        game.result().expect("a finished game has a result"),
        version,
    )
}

#[test]
fn greedy_finishes_two_to_four_player_games_without_deadlock() {
    for players in 2..=4usize {
        for seed in 0..10 {
            let mut bots: Vec<Box<dyn Strategy>> = (0..players)
                .map(|_| Box::new(Greedy) as Box<dyn Strategy>)
                .collect();
            let (result, actions) = play(seed, &mut bots);
            assert!(!result.deadlock, "{players} players, seed {seed}");
            assert!(
                result.ranking[0].points >= 15,
                "{players} players, seed {seed}: {result:?}"
            );
            assert!(
                actions < 400,
                "{players} players, seed {seed}: {actions} actions"
            );
        }
    }
}

#[test]
fn greedy_beats_random_nearly_always() {
    let mut greedy_wins = 0;
    for seed in 0..20 {
        // Alternate who sits first in the seat list.
        let greedy_seat = (seed % 2) as u8;
        let mut bots: Vec<Box<dyn Strategy>> =
            vec![Box::new(Greedy), Box::new(Random::seeded(seed))];
        if greedy_seat == 1 {
            bots.swap(0, 1);
        }
        let (result, _) = play(seed, &mut bots);
        if result.winners == [greedy_seat] {
            greedy_wins += 1;
        }
    }
    assert!(greedy_wins >= 18, "greedy won only {greedy_wins} of 20");
}

#[test]
fn random_games_end_too_and_the_same_seed_replays_the_same_game() {
    let random = |seed| -> Vec<Box<dyn Strategy>> {
        vec![
            Box::new(Random::seeded(seed)),
            Box::new(Random::seeded(seed + 1)),
        ]
    };
    for seed in 0..3 {
        let first = play(seed, &mut random(seed));
        assert_eq!(play(seed, &mut random(seed)), first, "seed {seed}");
    }
}
