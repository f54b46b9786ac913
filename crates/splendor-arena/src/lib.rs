//! A local arena for Splendor bots (issue 13): a seeded series of games
//! between entrants, seats rotated so that the first player's advantage
//! cancels, with each entrant's score, its 95% confidence interval and,
//! between two entrants, the Elo difference.
//!
//! Entrants are the built-in levels (`random`, `greedy`, `strong`, from
//! `splendor-ai`) or bot programs given as commands. A series of built-in
//! levels only is played in process on the rules ([`local`]); a series
//! with a program is played on the real server, embedded on a loopback
//! port ([`hosted`]): each program is started per game with the server's
//! URL and the room's code in its environment ([`ENV_URL`], [`ENV_ROOM`],
//! [`ENV_NAME`]), and plays like any client. A program that crashes, does
//! not join, runs out of time or sends illegal moves is recorded as such;
//! the stand-in (R12.2, R12.3) plays its seat and the series goes on.
//!
//! Every game's replay is written as a file that `splendor-server verify`
//! checks; `--seed` makes the series reproducible (the deals, the seats
//! and the built-in players' choices; a program's own choices are its
//! own business).

pub mod analyse;
pub mod calibration;
pub mod hosted;
pub mod local;
pub mod refusals;
mod report;
pub mod stats;

pub use report::{MoveTimes, Report, Standing};

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use splendor_ai::{Budget, Level};

/// The server's WebSocket URL, for a bot program.
pub const ENV_URL: &str = "SPLENDOR_URL";
/// The code of the room to join as a player, for a bot program.
pub const ENV_ROOM: &str = "SPLENDOR_ROOM";
/// The name to play under, for a bot program.
pub const ENV_NAME: &str = "SPLENDOR_BOT_NAME";

/// Who plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntrantKind {
    /// A built-in level, played in process.
    BuiltIn(Level),
    /// A program, run with `sh -c` for each game.
    Program(String),
}

/// One entrant of a series, named in the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// The name shown in the table (and the program's player name).
    pub name: String,
    /// What plays.
    pub kind: EntrantKind,
    /// A search of its own, this many iterations a move (`strong:2500`),
    /// instead of its level's: two budgets measured against each other
    /// (how issue 51's levels were chosen). Between built-in levels only.
    pub iterations: Option<u32>,
}

impl Entrant {
    /// A built-in level by number or name (`1` to the top level, `random`,
    /// `greedy`, `level-3`, `strong`), or `NAME=LEVEL` to name it (two
    /// entrants of one level told apart); `LEVEL:N`, for a searching level,
    /// searches N iterations a move (1 to 1,000,000) instead of its own.
    pub fn built_in(spec: &str) -> Result<Entrant, String> {
        let (name, level) = match spec.split_once('=') {
            Some((name, level)) if !name.trim().is_empty() => (Some(name.trim()), level),
            Some(_) => return Err(format!("{spec:?}: the name before = is empty")),
            None => (None, spec),
        };
        let (level_name, iterations) = match level.trim().split_once(':') {
            Some((level, n)) => {
                let n: u32 = n
                    .parse()
                    .ok()
                    .filter(|n| (1..=1_000_000).contains(n))
                    .ok_or_else(|| {
                        format!("{spec:?}: iterations are a number from 1 to 1000000, not {n:?}")
                    })?;
                (level, Some(n))
            }
            None => (level.trim(), None),
        };
        let level = Level::from_str(level_name).map_err(|e| e.to_string())?;
        if iterations.is_some() && level.play().iterations().is_none() {
            return Err(format!(
                "{spec:?}: only the searching levels (3 and up) take iterations: {} does not search",
                level.name()
            ));
        }
        let default_name = match iterations {
            Some(n) => format!("{}:{n}", level.name()),
            None => level.name().to_owned(),
        };
        Ok(Entrant {
            name: name.map_or(default_name, |n| n.chars().take(24).collect()),
            kind: EntrantKind::BuiltIn(level),
            iterations,
        })
    }

    /// Whether a program plays (not a built-in level).
    pub fn is_program(&self) -> bool {
        matches!(self.kind, EntrantKind::Program(_))
    }
}

/// The built-in levels, one a line, weakest first: number, name, Elo and
/// how each plays (`--list-levels`; docs/levels.sh reads the last line's
/// number as the top level).
pub fn levels_table() -> String {
    Level::all()
        .map(|level| {
            let play = match level.play() {
                splendor_ai::Play::Random => "any legal move".to_owned(),
                splendor_ai::Play::Greedy => "greedy".to_owned(),
                splendor_ai::Play::Search { iterations } => {
                    format!("search, {iterations} iterations a move")
                }
                splendor_ai::Play::Guided { iterations } => {
                    format!("guided search, {iterations} iterations a move")
                }
            };
            format!(
                "{} {} elo {} {play}\n",
                level.number(),
                level.name(),
                level.elo()
            )
        })
        .collect()
}

/// Gives entrants of one name distinct names, as given otherwise: the
/// second `greedy` becomes `greedy#2`, the third `greedy#3`.
pub fn distinct_names(entrants: &mut [Entrant]) {
    let mut seen: Vec<String> = Vec::new();
    for entrant in entrants.iter_mut() {
        let base = entrant.name.clone();
        let mut n = 1;
        while seen.contains(&entrant.name) {
            n += 1;
            entrant.name = format!("{base}#{n}");
        }
        seen.push(entrant.name.clone());
    }
}

impl Entrant {
    /// A program: `NAME=COMMAND`, or a bare command (named after its first
    /// word's file name).
    pub fn program(spec: &str) -> Result<Entrant, String> {
        let spec = spec.trim();
        if spec.is_empty() {
            return Err("--bot needs a command".into());
        }
        let (name, command) = match spec.split_once('=') {
            Some((name, command)) if !name.is_empty() && !name.contains(char::is_whitespace) => {
                (name.to_owned(), command.trim().to_owned())
            }
            _ => {
                let first = spec
                    .split_whitespace()
                    .rfind(|w| !w.starts_with('-'))
                    .unwrap_or(spec);
                let base = first.rsplit('/').next().unwrap_or(first);
                (base.chars().take(24).collect(), spec.to_owned())
            }
        };
        if command.is_empty() {
            return Err(format!("--bot {spec:?}: the command is empty"));
        }
        Ok(Entrant {
            name,
            kind: EntrantKind::Program(command),
            iterations: None,
        })
    }
}

/// A series to play.
#[derive(Clone, Debug)]
pub struct SeriesConfig {
    /// 2 to 4 entrants; every game seats them all (R1: 2 to 4 players).
    pub entrants: Vec<Entrant>,
    /// How many games.
    pub games: u32,
    /// The series' seed: the same seed plays the same series.
    pub seed: u64,
    /// The most the searching levels spend a move (iterations, time).
    pub budget: Budget,
    /// A program's time per move: its clock's bank and increment (R12.1);
    /// out of time, the stand-in makes its move (R12.2).
    pub move_limit: Duration,
    /// Where each game's replay is written (`game-0001.json`, ...).
    pub replays: Option<PathBuf>,
    /// Mirrored deals: each deal is played once per rotation of the seats
    /// (twice for two entrants, seats swapped), so that no entrant is
    /// favoured by the cards it was dealt.
    pub mirror: bool,
    /// Games played at once: threads for built-in levels, games on the
    /// embedded server for programs (each game starts its own programs);
    /// the same seed gives the same deals and seats whatever the number.
    pub jobs: usize,
    /// The series stops when a program crashed (or did not join) in this
    /// many games in a row; 0: never.
    pub max_crashes: u32,
}

/// Something that went wrong with an entrant in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trouble {
    /// The program ended with an error status (or a signal) before the end.
    Crashed(String),
    /// The program did not take its seat in time.
    DidNotJoin,
    /// Moves the stand-in made for the entrant: out of time, or away
    /// after a crash (R12.4).
    StandInMoves(u32),
    /// Actions the server refused the entrant during the game (each is in
    /// [`GameRecord::refusals`]).
    Refused(u32),
    /// Moves of a built-in `strong` entrant whose search the time cap
    /// stopped: they depend on the machine's load, so the series is not
    /// reproducible from its seed (`--strong-time-cap-ms 0` turns it off).
    TimeCapped(u32),
}

/// One game of the series.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// From 0.
    pub index: u32,
    /// The entrant in each seat (turn order).
    pub seats: Vec<usize>,
    /// The seats that won (a shared victory lists several, R10.4); empty
    /// when the game could not be played.
    pub winners: Vec<u8>,
    /// Each seat's prestige points at the end.
    pub points: Vec<u8>,
    /// Actions in the game.
    pub moves: u32,
    /// What went wrong, by entrant.
    pub troubles: Vec<(usize, Trouble)>,
    /// The replay file, when written.
    pub replay: Option<PathBuf>,
    /// The game's deal (the seed of its shuffles, R2.5), when known.
    pub deal: Option<u64>,
    /// How long each seat took for each of its moves, in microseconds
    /// (built-in entrants: the search itself; programs: from the action
    /// before to theirs, as the server recorded it, in whole ms).
    pub move_us: Vec<Vec<u64>>,
    /// How the game ended (R10, R11.2, R11.6, R13.2, R12.6), once it did.
    pub end: Option<splendor_protocol::GameEnd>,
    /// Every move the server refused, by seat (programs' games).
    pub refusals: Vec<refusals::RefusedMove>,
}

impl GameRecord {
    /// What entrant `e` scored: 1 for a win, 1/k for a victory shared by k.
    pub fn score(&self, e: usize) -> f64 {
        let won = self
            .winners
            .iter()
            .filter(|&&s| self.seats.get(usize::from(s)) == Some(&e))
            .count();
        if won == 0 || self.winners.is_empty() {
            0.0
        } else {
            won as f64 / self.winners.len() as f64
        }
    }

    /// Whether the game was played to its end.
    pub fn played(&self) -> bool {
        !self.winners.is_empty()
    }
}

/// Why a series cannot run at all.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// Fewer than 2 or more than 4 entrants (R1).
    #[error("a game seats 2 to 4 players: give 2 to 4 entrants, not {0}")]
    Entrants(usize),
    /// Zero games.
    #[error("--games must be at least 1")]
    NoGames,
    /// The replay folder cannot be written.
    #[error("cannot write replays to {path}: {error}")]
    Replays {
        /// The folder.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The embedded server could not start.
    #[error("cannot start the embedded server: {0}")]
    Server(String),
    /// `strong:N` beside a program: the embedded server's levels search
    /// their own iterations.
    #[error(
        "{0}: a budget of its own plays between built-in levels only; beside a program each level searches its own iterations"
    )]
    BudgetWithProgram(String),
}

/// Plays a series: in process when every entrant is built in, on the
/// embedded server otherwise. `progress(done, total)` is called after each
/// game.
pub async fn run_series(
    config: &SeriesConfig,
    progress: impl FnMut(u32, u32) + Send,
) -> Result<Report, ArenaError> {
    let n = config.entrants.len();
    if !(2..=4).contains(&n) {
        return Err(ArenaError::Entrants(n));
    }
    if config.games == 0 {
        return Err(ArenaError::NoGames);
    }
    if let Some(path) = &config.replays {
        std::fs::create_dir_all(path).map_err(|error| ArenaError::Replays {
            path: path.clone(),
            error,
        })?;
    }
    let all_built_in = config
        .entrants
        .iter()
        .all(|e| matches!(e.kind, EntrantKind::BuiltIn(_)));
    if !all_built_in && let Some(e) = config.entrants.iter().find(|e| e.iterations.is_some()) {
        return Err(ArenaError::BudgetWithProgram(e.name.clone()));
    }
    let (games, stopped) = if all_built_in {
        let config = config.clone();
        let mut progress = progress;
        (local::play_series(&config, &mut progress)?, None)
    } else {
        hosted::play_series(config, progress).await?
    };
    let mut report = Report::new(&config.entrants, games);
    report.stopped = stopped;
    Ok(report)
}

/// What game `index` is dealt, drawn from the series' stream before any
/// game is played: the same series whatever the order games end in, and
/// the same deals whether programs play (on the embedded server, which
/// deals them in its rooms' order) or built-in levels only.
pub(crate) struct Deal {
    /// R2.5's seed of the game's shuffles.
    pub(crate) deal: u64,
    /// The replay's commitment salt (a local series').
    pub(crate) salt: splendor_replay::Salt,
    /// The game's id (a local series').
    pub(crate) id: [u8; 16],
}

/// Every game's deal: mirrored, one deal per rotation of the seats (each
/// entrant is dealt the same cards from each seat).
pub(crate) fn series_deals(config: &SeriesConfig) -> Vec<Deal> {
    use rand_core::{RngCore, SeedableRng};
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(config.seed);
    let per_deal = if config.mirror {
        config.entrants.len() as u32
    } else {
        1
    };
    let mut deals: Vec<Deal> = Vec::with_capacity(config.games as usize);
    for index in 0..config.games {
        // Every game draws the same amount from the series' stream, so
        // game k is the same whatever happened in the games before it.
        let deal = rng.next_u64();
        let mut salt = [0u8; 32];
        rng.fill_bytes(&mut salt);
        let mut id = [0u8; 16];
        rng.fill_bytes(&mut id);
        let deal = if index % per_deal == 0 {
            deal
        } else {
            deals[(index - index % per_deal) as usize].deal
        };
        deals.push(Deal {
            deal,
            salt: splendor_replay::Salt(salt),
            id,
        });
    }
    deals
}

/// Who sits where in game `index`: the entrants rotated by the game's
/// number, so that each takes each seat (and plays first) in turn.
pub fn seating(entrants: usize, index: u32) -> Vec<usize> {
    (0..entrants)
        .map(|seat| (seat + index as usize) % entrants)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entrants_parse_from_the_command_line() {
        assert_eq!(
            Entrant::built_in("greedy").unwrap().kind,
            EntrantKind::BuiltIn(Level::GREEDY)
        );
        assert!(Entrant::built_in("grandmaster").is_err());
        let bot = Entrant::program("mine=python3 my_bot.py --fast").unwrap();
        assert_eq!(bot.name, "mine");
        assert_eq!(
            bot.kind,
            EntrantKind::Program("python3 my_bot.py --fast".into())
        );
        let bare = Entrant::program("python3 bots/my_bot.py").unwrap();
        assert_eq!(bare.name, "my_bot.py");
        assert!(Entrant::program("  ").is_err());
        assert!(Entrant::program("x=").is_err());
    }

    /// Issue 51's levels: two budgets of the strong level measured against
    /// each other (`strong:N`).
    #[test]
    fn a_strong_entrant_may_search_a_budget_of_its_own() {
        let e = Entrant::built_in("strong:2500").unwrap();
        assert_eq!(e.name, "strong:2500");
        assert_eq!(e.iterations, Some(2500));
        let e = Entrant::built_in("deep=strong:40000").unwrap();
        assert_eq!((e.name.as_str(), e.iterations), ("deep", Some(40000)));
        assert_eq!(Entrant::built_in("strong").unwrap().iterations, None);
        for bad in ["greedy:100", "strong:0", "strong:many", "strong:2000000"] {
            assert!(Entrant::built_in(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn seats_rotate_so_that_everyone_plays_first_in_turn() {
        assert_eq!(seating(2, 0), vec![0, 1]);
        assert_eq!(seating(2, 1), vec![1, 0]);
        assert_eq!(seating(3, 4), vec![1, 2, 0]);
    }

    #[test]
    fn shared_victories_score_a_fraction_and_the_table_sums_them() {
        let game = |seats: Vec<usize>, winners: Vec<u8>| GameRecord {
            index: 0,
            seats,
            winners,
            points: vec![15, 15],
            moves: 50,
            troubles: vec![(1, Trouble::StandInMoves(3))],
            replay: None,
            deal: None,
            move_us: vec![vec![1500, 500], vec![2000]],
            end: Some(splendor_protocol::GameEnd::Points),
            refusals: Vec::new(),
        };
        let games = vec![
            game(vec![0, 1], vec![0]),
            game(vec![1, 0], vec![0, 1]),
            game(vec![0, 1], vec![1]),
        ];
        let entrants = vec![
            Entrant::built_in("greedy").unwrap(),
            Entrant::built_in("random").unwrap(),
        ];
        let report = Report::new(&entrants, games);
        assert_eq!(report.standings[0].score, 1.5);
        assert_eq!(report.standings[1].score, 1.5);
        assert_eq!(report.standings[1].stand_in_moves, 9);
        assert!(
            report
                .table()
                .contains("Elo difference, greedy minus random: +0")
        );
        // All on points: no line of endings. A game that ended for no
        // progress (R11.6) is counted apart.
        assert!(!report.table().contains("endings:"));
        let mut games = vec![game(vec![0, 1], vec![0]), game(vec![1, 0], vec![0, 1])];
        games[1].end = Some(splendor_protocol::GameEnd::NoProgress);
        let report = Report::new(&entrants, games);
        assert!(
            report.table().contains("endings: 1 points, 1 no_progress"),
            "{}",
            report.table()
        );
    }
}
