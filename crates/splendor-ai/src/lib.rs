//! Built-in Splendor players, for the server's bot seats and stand-ins
//! (RULES.md R12) and for the arena.
//!
//! A player sees exactly what its seat may see: it is given the seat's
//! [`View`] (`Game::view(Viewer::Seat(seat))`), never the `Game`. Whatever
//! it needs that the view hides (deck order, other seats' blind reserves) it
//! fills in with [`Sampler`], which deals the unseen cards at random.
//!
//! The levels (issue 51: a ladder, 1 to [`Level::TOP`], each playing one
//! way, [`Play`]) use three players, each in one module:
//! - [`random`]: any legal action, uniformly (level 1);
//! - [`greedy`]: the example bot's greedy strategy ([`strategy::Greedy`]),
//!   frozen as the yardstick the others are measured against (level 2);
//! - [`strong`]: information-set Monte-Carlo tree search over sampled
//!   games, with an iteration budget (and a time cap): each level from 3
//!   searches its own fixed number of iterations a move; levels 3 and 4
//!   with quick, noisy rollouts, the top level with rollouts that play
//!   with a plan (`plan`, [`Play::Guided`]).
//!
//! Everything is pure and seeded: the same view, seed and budget give the
//! same move (a time cap that fires is the one exception). No IO, no tokio;
//! the server runs [`choose`] on a blocking thread pool.
#![forbid(unsafe_code)]

pub mod greedy;
mod plan;
pub mod random;
pub mod strategy;
pub mod strong;

pub use splendor_protocol::bot_level::{Level, Play, UnknownLevel};

use std::fmt;
use std::time::Duration;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use splendor_rules::{Action, Game, Sampler, Seat, View};

/// How much a search player may think per move: at most `iterations`,
/// whatever its level's own (a host's cap on a small machine, the tests'
/// quick bots), and for at most `time_cap`. The iteration count decides (so
/// a seeded series is reproducible); the time cap only stops a search that
/// would run far longer than planned on a slow machine, and a move it
/// stopped depends on the machine's speed, not only on the seed
/// ([`Thought::capped`] says so; `None` turns the cap off).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The most search iterations a move (one sampled game each).
    pub iterations: u32,
    /// Stop early after this long, if set.
    pub time_cap: Option<Duration>,
}

impl Budget {
    /// Each level searches its own iterations, the top one (about 0.45 s
    /// a move at the median on one core of the reference machine,
    /// docs/BOTS.md) under the 1 s cap, which stops its longest searches.
    pub const DEFAULT: Budget = Budget {
        iterations: u32::MAX,
        time_cap: Some(Duration::from_millis(1000)),
    };
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::DEFAULT
    }
}

/// Why a player could not choose a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoMove {
    /// The view is not one the seat could have (see [`Sampler::new`]).
    BadView(String),
    /// The game does not wait for this seat.
    NotToAct,
    /// The move to evaluate is not legal in the position.
    NotLegal,
}

impl fmt::Display for NoMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoMove::BadView(why) => write!(f, "not a view of this seat: {why}"),
            NoMove::NotToAct => f.write_str("the game does not wait for this seat"),
            NoMove::NotLegal => f.write_str("the move is not legal in this position"),
        }
    }
}

impl std::error::Error for NoMove {}

/// The seat's move at `level`, from its view alone; `seed` makes the
/// choice reproducible. The action is always one of the legal actions of
/// the position (the server checks it again like any other).
pub fn choose(
    level: Level,
    view: &View,
    seat: Seat,
    seed: u64,
    budget: &Budget,
) -> Result<Action, NoMove> {
    think(level, view, seat, seed, budget).map(|t| t.action)
}

/// A player's move, and how it was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move.
    pub action: Action,
    /// The search stopped at the budget's time cap before its iterations:
    /// the same seed may choose another move on another machine or load.
    pub capped: bool,
}

/// [`choose`], saying whether the time cap stopped the search.
pub fn think(
    level: Level,
    view: &View,
    seat: Seat,
    seed: u64,
    budget: &Budget,
) -> Result<Thought, NoMove> {
    think_as(level.play(), view, seat, seed, budget)
}

/// [`think`] for a way of playing rather than a level: the arena's
/// `strong:N` searches N iterations (up to `budget.iterations`).
pub fn think_as(
    play: Play,
    view: &View,
    seat: Seat,
    seed: u64,
    budget: &Budget,
) -> Result<Thought, NoMove> {
    let sampler = Sampler::new(view, seat).map_err(|e| NoMove::BadView(e.to_string()))?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Any sample has the seat's legal actions: they depend only on its view.
    let game = sampler.sample(&mut rng);
    if game.to_act() != Some(seat) {
        return Err(NoMove::NotToAct);
    }
    let (action, capped) = match play {
        Play::Random => (random::choose(&game, &mut rng), false),
        Play::Greedy => (greedy::choose(view, seat, &game), false),
        Play::Search { iterations } | Play::Guided { iterations } => {
            let way = match play {
                Play::Guided { .. } => strong::Rollout::Guided,
                _ => strong::Rollout::Quick,
            };
            let budget = Budget {
                iterations: iterations.min(budget.iterations),
                time_cap: budget.time_cap,
            };
            strong::choose(&sampler, &mut rng, &budget, way)
        }
    };
    Ok(Thought { action, capped })
}

/// What the `strong` search makes of the seat's position and of the move
/// it played there (the analysis of a finished game, issue 26), from the
/// seat's view alone: `iterations` and `seed` decide the answer, no clock
/// does. `played` must be one of the position's legal actions.
pub fn evaluate(
    view: &View,
    seat: Seat,
    seed: u64,
    iterations: u32,
    played: Action,
) -> Result<strong::Evaluation, NoMove> {
    let sampler = Sampler::new(view, seat).map_err(|e| NoMove::BadView(e.to_string()))?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let game = sampler.sample(&mut rng);
    if game.to_act() != Some(seat) {
        return Err(NoMove::NotToAct);
    }
    if !legal(&game).contains(&played) {
        return Err(NoMove::NotLegal);
    }
    Ok(strong::evaluate(&sampler, &mut rng, iterations, played))
}

/// The legal actions of a game, in the rules' order.
fn legal(game: &Game) -> Vec<Action> {
    let mut out = Vec::new();
    game.legal_actions(&mut out);
    out
}
