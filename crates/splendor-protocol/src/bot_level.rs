//! The built-in players' levels, as the wire and the command line name
//! them (`add_bot`'s `level`). Here, below the room and the players
//! themselves (splendor-ai, which re-exports it), so that the room core
//! names a bot seat's level without taking in the search and its
//! randomness (issue 49).
//!
//! Issue 51: a ladder of levels, 1 (weakest) to [`Level::TOP`], as Lichess
//! offers its engine's. Each plays a fixed way: any legal move, the greedy
//! yardstick, or a search of a fixed number of iterations a move, so that
//! a level plays the same on a busy or a quiet machine and an arena's
//! series replays exactly. Each level's Elo was measured by the arena in a
//! round robin of adjacent levels on mirrored deals (docs/levels.sh, the
//! table in docs/BOTS.md); `random`, `greedy` and `strong` stay names of
//! levels 1, 2 and 4, as clients, settings and stored games use them.

use std::fmt;
use std::str::FromStr;

/// How a level chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Play {
    /// Any legal action, uniformly at random.
    Random,
    /// The example bot's greedy strategy (the yardstick).
    Greedy,
    /// Information-set Monte-Carlo tree search, this many iterations a move.
    Search {
        /// Sampled games searched per move.
        iterations: u32,
    },
    /// The same search whose rollouts play with a plan (buy what scores,
    /// else take the tokens the nearest card needs) and score nobles in
    /// reach: more per iteration, and each iteration dearer.
    Guided {
        /// Sampled games searched per move.
        iterations: u32,
    },
}

impl Play {
    /// The iterations a move of a search, `None` for the others.
    pub fn iterations(self) -> Option<u32> {
        match self {
            Play::Search { iterations } | Play::Guided { iterations } => Some(iterations),
            Play::Random | Play::Greedy => None,
        }
    }

    /// The same way of searching, `iterations` a move (`None` for a way
    /// that does not search).
    pub fn with_iterations(self, iterations: u32) -> Option<Play> {
        match self {
            Play::Search { .. } => Some(Play::Search { iterations }),
            Play::Guided { .. } => Some(Play::Guided { iterations }),
            Play::Random | Play::Greedy => None,
        }
    }
}

/// A level of the built-in players: 1 to [`Level::TOP`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

/// One row of the ladder.
struct Row {
    name: &'static str,
    play: Play,
    elo: i32,
}

/// Each level's Elo: the one below's plus the gap the arena measured
/// between the two (docs/levels.sh; docs/BOTS.md#levels).
const RANDOM_ELO: i32 = 1000 - 687;
const LEVEL_3_ELO: i32 = 1000 + 200;
const STRONG_ELO: i32 = LEVEL_3_ELO + GAP_3_4;
const LEVEL_5_ELO: i32 = STRONG_ELO + GAP_4_5;
const GAP_3_4: i32 = 220;
const GAP_4_5: i32 = 111;

/// The ladder, weakest first. The Elo are the arena's (docs/levels.sh:
/// 200 mirrored two-player games for each pair of adjacent levels, seed
/// 51, chained from level 2, `greedy`, the yardstick, set at 1000; level 1
/// lost all 200 games to it, so its figure is the 95% bound, 687 below).
/// A level between 400 and 10,000 iterations was tried and dropped: at
/// 1,000, 1,300 and 1,800 iterations one of its two gaps measured under
/// 100 Elo (docs/BENCHMARKS.md). The top level, first the same search at
/// 70,000 iterations (+63, 95%: +14 to +112, under the 100 issue 51
/// asks), is a guided search of 40,000 iterations (rollouts with a plan):
/// +111 (+61 to +162) over strong, 0.655 (0.587-0.717), in less time.
const LADDER: [Row; 5] = [
    Row {
        name: "random",
        play: Play::Random,
        elo: RANDOM_ELO,
    },
    Row {
        name: "greedy",
        play: Play::Greedy,
        elo: 1000,
    },
    Row {
        name: "level-3",
        play: Play::Search { iterations: 400 },
        elo: LEVEL_3_ELO,
    },
    Row {
        name: "strong",
        play: Play::Search { iterations: 10_000 },
        elo: STRONG_ELO,
    },
    Row {
        name: "level-5",
        play: Play::Guided { iterations: 40_000 },
        elo: LEVEL_5_ELO,
    },
];

impl Level {
    /// Level 1: any legal move.
    pub const RANDOM: Level = Level(1);
    /// Level 2: the greedy yardstick (and the stand-in's way, R12).
    pub const GREEDY: Level = Level(2);
    /// Level 4, `strong`: the search the server's bots played before the
    /// ladder (10,000 iterations a move), the practice hints' player.
    pub const STRONG: Level = Level(4);
    /// The strongest level.
    pub const TOP: Level = Level(LADDER.len() as u8);

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (1..=LADDER.len() as u8).map(Level)
    }

    /// The level numbered `n` (1 to [`Level::TOP`]).
    pub fn from_number(n: u8) -> Option<Level> {
        (1..=LADDER.len() as u8).contains(&n).then_some(Level(n))
    }

    fn row(self) -> &'static Row {
        &LADDER[usize::from(self.0) - 1]
    }

    /// The level's number, 1 (weakest) to [`Level::TOP`].
    pub fn number(self) -> u8 {
        self.0
    }

    /// The level's name on the wire and on the command line (`random`,
    /// `greedy`, `level-3`, `strong`, `level-5`).
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// How the level chooses its moves.
    pub fn play(self) -> Play {
        self.row().play
    }

    /// The level's measured Elo (greedy, level 2, at 1000).
    pub fn elo(self) -> i32 {
        self.row().elo
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level name that is none of the ladder's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLevel(pub String);

impl fmt::Display for UnknownLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown bot level {:?}: expected a level from 1 to {} (or random, greedy, strong)",
            self.0,
            LADDER.len()
        )
    }
}

impl std::error::Error for UnknownLevel {}

impl FromStr for Level {
    type Err = UnknownLevel;
    /// A level's number (`"3"`), its name (`"level-3"`, `"strong"`).
    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        let number = s.strip_prefix("level-").unwrap_or(s);
        if let Some(level) = number
            .parse::<u8>()
            .ok()
            .filter(|_| number.bytes().all(|b| b.is_ascii_digit()))
            .and_then(Level::from_number)
        {
            return Ok(level);
        }
        Level::all()
            .find(|l| l.name() == s)
            .ok_or_else(|| UnknownLevel(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_is_named_by_its_number_and_its_name() {
        for level in Level::all() {
            assert_eq!(level.name().parse::<Level>(), Ok(level));
            assert_eq!(level.number().to_string().parse::<Level>(), Ok(level));
            assert_eq!(format!("level-{}", level.number()).parse(), Ok(level));
        }
        assert_eq!("strong".parse(), Ok(Level::STRONG));
        assert_eq!("random".parse(), Ok(Level::RANDOM));
        assert_eq!("greedy".parse(), Ok(Level::GREEDY));
        for bad in [
            "0", "7", "+3", "03x", "level-", "level-0", "Strong", "", "-1",
        ] {
            assert!(bad.parse::<Level>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn the_ladder_climbs() {
        let levels: Vec<Level> = Level::all().collect();
        assert_eq!(levels.len(), usize::from(Level::TOP.number()));
        // Issue 51 asks 100 Elo a step: the arena's round robin measured
        // +687 (at least), +200, +220 and +111 (docs/BENCHMARKS.md).
        for pair in levels.windows(2) {
            assert!(pair[0].elo() + 100 <= pair[1].elo(), "{pair:?}");
        }
        let searches: Vec<u32> = levels
            .iter()
            .filter_map(|l| l.play().iterations())
            .collect();
        assert!(searches.windows(2).all(|w| w[0] < w[1]), "{searches:?}");
        assert_eq!(Level::STRONG.play(), Play::Search { iterations: 10_000 });
        // The top level searches with a plan; the way survives a change
        // of budget (the arena's `5:N`, a host's cap).
        assert_eq!(Level::TOP.play(), Play::Guided { iterations: 40_000 });
        assert_eq!(
            Level::TOP.play().with_iterations(300),
            Some(Play::Guided { iterations: 300 })
        );
        assert_eq!(Level::GREEDY.play().with_iterations(300), None);
    }
}
