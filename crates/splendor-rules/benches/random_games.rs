//! Complete random 4-player games on one thread: at each step the legal
//! actions are enumerated and one is picked at random, until the game ends.
//! Criterion reports the throughput as games/s ("games" group) and as
//! actions/s ("actions" group) over the same fixed set of games.
//!
//! `cargo bench -p splendor-rules --bench random_games`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_main};
use splendor_rules::{Action, Game, Options};

/// Games per iteration: seeds 0..GAMES, with a fixed agent stream, so that
/// every iteration plays exactly the same actions.
const GAMES: u64 = 100;

/// A tiny xorshift so that the agent costs next to nothing.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (((self.0 >> 32) * n as u64) >> 32) as usize
    }
}

/// Plays the fixed set of games; returns the number of actions applied.
fn play_games(actions: &mut Vec<Action>) -> u64 {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut steps = 0;
    for seed in 0..GAMES {
        let mut game = Game::new(4, Options::default(), seed).expect("4 players");
        while let Some(seat) = game.to_act() {
            game.legal_actions(actions);
            let action = actions[rng.below(actions.len())];
            let events = game.apply(seat, action).expect("a listed action is legal");
            black_box(events);
            steps += 1;
        }
        black_box(&game);
    }
    steps
}

fn random_games(c: &mut Criterion) {
    let mut actions = Vec::with_capacity(64);
    let steps = play_games(&mut actions);

    let mut group = c.benchmark_group("games");
    group.throughput(Throughput::Elements(GAMES));
    group.bench_function("random_4p", |b| b.iter(|| play_games(&mut actions)));
    group.finish();

    let mut group = c.benchmark_group("actions");
    group.throughput(Throughput::Elements(steps));
    group.bench_function("random_4p", |b| b.iter(|| play_games(&mut actions)));
    group.finish();
}

/// The benchmark group that `criterion_main!` runs: `random_games` with
/// Criterion's default configuration and the command-line arguments. Written
/// out because `criterion_group!` cannot carry a doc comment.
pub fn benches() {
    let mut criterion = Criterion::default().configure_from_args();
    random_games(&mut criterion);
}
criterion_main!(benches);
