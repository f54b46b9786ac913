//! Quick measurement: plays complete random 4-player games for a few
//! seconds on one thread and prints games/s and actions/s.
//!
//! `cargo run --release -p splendor-rules --example speed -- [seconds]`
//! `cargo run --release -p splendor-rules --example speed -- --games N`
//! (exactly N games, e.g. under `valgrind --tool=callgrind`)

use std::time::{Duration, Instant};

use splendor_rules::{Action, Game, Options};

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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (seconds, max_games) = match args.as_slice() {
        [flag, n] if flag == "--games" => (f64::MAX, n.parse().expect("a number of games")),
        [s] => (s.parse().expect("a number of seconds"), u64::MAX),
        _ => (3.0, u64::MAX),
    };
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut actions: Vec<Action> = Vec::with_capacity(64);
    let (mut games, mut steps, mut longest, mut deadlocks) = (0u64, 0u64, 0u64, 0u64);
    let start = Instant::now();
    let budget = Duration::from_secs_f64(seconds.min(1e9));
    while start.elapsed() < budget && games < max_games {
        for _ in 0..1000.min(max_games) {
            let mut game = Game::new(4, Options::default(), games).expect("4 players");
            let mut n = 0;
            while let Some(seat) = game.to_act() {
                game.legal_actions(&mut actions);
                let action = actions[rng.below(actions.len())];
                game.apply(seat, action).expect("a listed action is legal");
                n += 1;
            }
            if game.result().is_some_and(|r| r.deadlock) {
                deadlocks += 1;
            }
            longest = longest.max(n);
            steps += n;
            games += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games in {secs:.2}s: {:.0} games/s, {:.0} actions/s, {:.1} actions/game, longest {longest}, {deadlocks} deadlocks",
        games as f64 / secs,
        steps as f64 / secs,
        steps as f64 / games as f64
    );
}
