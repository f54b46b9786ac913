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
//! levels 1, 2 and 5, as clients, settings and stored games use them.

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

/// The ladder, weakest first. The Elo are the arena's (docs/levels.sh:
/// 200 mirrored two-player games a pair of adjacent levels, seed 51),
/// chained from level 2, `greedy`, the yardstick, set at 1000.
const LADDER: [Row; 6] = [
    Row {
        name: "random",
        play: Play::Random,
        elo: 400,
    },
    Row {
        name: "greedy",
        play: Play::Greedy,
        elo: 1000,
    },
    Row {
        name: "level-3",
        play: Play::Search { iterations: 400 },
        elo: 1130,
    },
    Row {
        name: "level-4",
        play: Play::Search { iterations: 1_800 },
        elo: 1260,
    },
    Row {
        name: "strong",
        play: Play::Search { iterations: 10_000 },
        elo: 1360,
    },
    Row {
        name: "level-6",
        play: Play::Search { iterations: 70_000 },
        elo: 1470,
    },
];

impl Level {
    /// Level 1: any legal move.
    pub const RANDOM: Level = Level(1);
    /// Level 2: the greedy yardstick (and the stand-in's way, R12).
    pub const GREEDY: Level = Level(2);
    /// Level 5, `strong`: the search the server's bots played before the
    /// ladder (10,000 iterations a move), the practice hints' player.
    pub const STRONG: Level = Level(5);
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
    /// `greedy`, `level-3`, `level-4`, `strong`, `level-6`).
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
        for pair in levels.windows(2) {
            assert!(pair[0].elo() + 100 <= pair[1].elo(), "{pair:?}");
        }
        let searches: Vec<u32> = levels
            .iter()
            .filter_map(|l| match l.play() {
                Play::Search { iterations } => Some(iterations),
                _ => None,
            })
            .collect();
        assert!(searches.windows(2).all(|w| w[0] < w[1]), "{searches:?}");
        assert_eq!(Level::STRONG.play(), Play::Search { iterations: 10_000 });
    }
}
