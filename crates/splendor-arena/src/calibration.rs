//! `--calibrate DIR...` (issue 50): how far the analysis's chances to win
//! can be trusted. Every judged position of every analysed game in the
//! folders (`game-NNNN.json` and the `game-NNNN.analysis.json` that
//! `--analyse` wrote beside it) gives, for each seat, the chance the
//! analysis predicted and what happened (1 for a win, 1/k for a victory
//! shared by k, 0 otherwise). By tenths of predicted chance: how many
//! predictions, their mean, and how often they came true (a reliability
//! table); and the Brier score (the mean squared error; lower is better).
//!
//! Beside it, a baseline that sees only the score: each seat's chance is a
//! softmax of its prestige points and its cards (`a·points + b·cards`),
//! `a` and `b` fitted on the even-numbered games; both are scored on the
//! odd-numbered games, which the fit never saw.

use std::path::{Path, PathBuf};

use splendor_analysis::{Analysis, Mark};
use splendor_replay::Replay;
use splendor_rules::{Action, Game};

/// One seat at one judged position.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The game's number in the order read (even ones fit the baseline).
    pub game: usize,
    /// The analysis's chance for the seat.
    pub predicted: f64,
    /// What happened: 1, 1/k for a shared victory, or 0.
    pub outcome: f64,
    /// The position's index, to group a position's seats.
    pub position: usize,
    /// The seat's prestige points then (public).
    pub points: f64,
    /// The seat's cards then (its bonuses, public).
    pub cards: f64,
}

/// A tenth of the predicted chances.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bin {
    /// Predictions in it.
    pub n: u64,
    /// Their mean.
    pub predicted: f64,
    /// How often they came true (the outcomes' mean).
    pub observed: f64,
}

/// A reliability table and its Brier score.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// 0-0.1, 0.1-0.2, ..., 0.9-1.0.
    pub bins: [Bin; 10],
    /// The mean of (predicted - outcome)^2.
    pub brier: f64,
    /// Predictions in all.
    pub n: u64,
}

impl Table {
    /// The table of `(predicted, outcome)` pairs.
    pub fn of(pairs: impl IntoIterator<Item = (f64, f64)>) -> Table {
        let mut table = Table::default();
        let mut squares = 0.0;
        for (p, y) in pairs {
            let i = ((p * 10.0) as usize).min(9);
            let bin = &mut table.bins[i];
            bin.n += 1;
            bin.predicted += p;
            bin.observed += y;
            squares += (p - y) * (p - y);
            table.n += 1;
        }
        for bin in &mut table.bins {
            if bin.n > 0 {
                bin.predicted /= bin.n as f64;
                bin.observed /= bin.n as f64;
            }
        }
        if table.n > 0 {
            table.brier = squares / table.n as f64;
        }
        table
    }

    /// The tenths holding at least `min` predictions whose observed
    /// frequency is within `within` of their mean prediction, and those
    /// holding at least `min`.
    pub fn calibrated(&self, min: u64, within: f64) -> (usize, usize) {
        let big: Vec<&Bin> = self.bins.iter().filter(|b| b.n >= min).collect();
        let good = big
            .iter()
            .filter(|b| (b.observed - b.predicted).abs() <= within)
            .count();
        (good, big.len())
    }

    /// The table as text, one line per tenth.
    pub fn text(&self, title: &str) -> String {
        let mut out = format!(
            "{title}: Brier {:.4} over {} predictions\n  tenth      n   predicted  observed\n",
            self.brier, self.n
        );
        for (i, bin) in self.bins.iter().enumerate() {
            if bin.n == 0 {
                continue;
            }
            out.push_str(&format!(
                "  {:.1}-{:.1} {:>6}   {:>9.3} {:>9.3}\n",
                i as f64 / 10.0,
                (i + 1) as f64 / 10.0,
                bin.n,
                bin.predicted,
                bin.observed
            ));
        }
        out
    }
}

/// Why the folders cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum CalibrationError {
    /// A folder or file that does not read.
    #[error("{path}: {why}")]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// No analysed game at all.
    #[error("no analysed game in {0} (run a series with --analyse first)")]
    Empty(String),
}

/// Every analysed game in `dirs`, in file name order: (replay, analysis).
pub fn read_games(dirs: &[PathBuf]) -> Result<Vec<(Replay, Analysis)>, CalibrationError> {
    let mut games = Vec::new();
    for dir in dirs {
        let bad = |path: &Path, why: String| CalibrationError::File {
            path: path.to_path_buf(),
            why,
        };
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| bad(dir, e.to_string()))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().is_some_and(|x| x == "json")
                    && !p.to_string_lossy().ends_with(".analysis.json")
            })
            .collect();
        files.sort();
        for replay_path in files {
            let analysis_path = crate::analyse::analysis_path(&replay_path);
            if !analysis_path.exists() {
                continue;
            }
            let read = |p: &Path| std::fs::read_to_string(p).map_err(|e| bad(p, e.to_string()));
            let replay = Replay::from_json(&read(&replay_path)?)
                .map_err(|e| bad(&replay_path, e.to_string()))?;
            let analysis: Analysis = serde_json::from_str(&read(&analysis_path)?)
                .map_err(|e| bad(&analysis_path, e.to_string()))?;
            games.push((replay, analysis));
        }
    }
    if games.is_empty() {
        let names: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        return Err(CalibrationError::Empty(names.join(", ")));
    }
    Ok(games)
}

/// The points of game number `game`: every seat at every position the
/// analysis judged (resignations carry no judgement of their own).
pub fn points(game: usize, replay: &Replay, analysis: &Analysis) -> Vec<Point> {
    let mut out = Vec::new();
    let Ok(mut state) = Game::new(replay.players, replay.options, replay.seed.0) else {
        return out;
    };
    for (i, (step, judged)) in replay.actions.iter().zip(&analysis.moves).enumerate() {
        if judged.mark != Mark::Resigned {
            for seat in 0..replay.players {
                let s = usize::from(seat);
                let (Some(&predicted), Some(&outcome)) =
                    (judged.chances.get(s), analysis.final_chances.get(s))
                else {
                    continue;
                };
                out.push(Point {
                    game,
                    predicted,
                    outcome,
                    position: i,
                    points: f64::from(state.points(seat).unwrap_or(0)),
                    cards: state
                        .bonuses(seat)
                        .map_or(0.0, |b| b.iter().map(|&n| f64::from(n)).sum()),
                });
            }
        }
        let Ok(action) = Action::try_from(&step.action) else {
            break;
        };
        if state.apply(step.seat, action).is_err() {
            break;
        }
    }
    out
}

/// The baseline's chances at one position: a softmax over its seats.
fn baseline(seats: &[&Point], (a, b): (f64, f64)) -> Vec<f64> {
    let scores: Vec<f64> = seats.iter().map(|p| a * p.points + b * p.cards).collect();
    let top = scores.iter().copied().fold(f64::MIN, f64::max);
    let exps: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
    let sum: f64 = exps.iter().sum();
    exps.iter().map(|e| e / sum).collect()
}

/// Every position's seats together, in order.
fn positions(points: &[Point]) -> Vec<Vec<&Point>> {
    let mut out: Vec<Vec<&Point>> = Vec::new();
    for p in points {
        match out.last_mut() {
            Some(last) if last[0].game == p.game && last[0].position == p.position => last.push(p),
            _ => out.push(vec![p]),
        }
    }
    out
}

/// The baseline's (predicted, outcome) pairs over `points` with `params`.
fn baseline_pairs(points: &[Point], params: (f64, f64)) -> Vec<(f64, f64)> {
    positions(points)
        .into_iter()
        .flat_map(|seats| {
            let chances = baseline(&seats, params);
            seats
                .into_iter()
                .zip(chances)
                .map(|(p, c)| (c, p.outcome))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The baseline's `(a, b)` with the lowest Brier score on `points`, by a
/// grid search (a from 0 to 2, b from -1 to 1, steps of 0.05).
pub fn fit_baseline(points: &[Point]) -> (f64, f64) {
    let mut best = ((0.0, 0.0), f64::MAX);
    for i in 0..=40 {
        for j in 0..=40 {
            let params = (f64::from(i) * 0.05, f64::from(j) * 0.05 - 1.0);
            let brier = Table::of(baseline_pairs(points, params)).brier;
            if brier < best.1 {
                best = (params, brier);
            }
        }
    }
    best.0
}

/// What `--calibrate` prints.
pub struct Calibration {
    /// Games read.
    pub games: usize,
    /// The analysis on every game.
    pub analysis: Table,
    /// The analysis on the odd-numbered games.
    pub analysis_held_out: Table,
    /// The baseline, fitted on the even-numbered games, on the odd ones.
    pub baseline_held_out: Table,
    /// The baseline's fitted `(a, b)`.
    pub baseline_params: (f64, f64),
}

/// The calibration of the analysed games.
pub fn calibrate(games: &[(Replay, Analysis)]) -> Calibration {
    let all: Vec<Point> = games
        .iter()
        .enumerate()
        .flat_map(|(i, (r, a))| points(i, r, a))
        .collect();
    let (train, test): (Vec<Point>, Vec<Point>) =
        all.iter().cloned().partition(|p| p.game % 2 == 0);
    let params = fit_baseline(&train);
    Calibration {
        games: games.len(),
        analysis: Table::of(all.iter().map(|p| (p.predicted, p.outcome))),
        analysis_held_out: Table::of(test.iter().map(|p| (p.predicted, p.outcome))),
        baseline_held_out: Table::of(baseline_pairs(&test, params)),
        baseline_params: params,
    }
}

impl Calibration {
    /// The report as text.
    pub fn text(&self) -> String {
        let (good, big) = self.analysis.calibrated(30, 0.1);
        format!(
            "{} analysed games\n{}{}{}baseline: a = {:.2} (points), b = {:.2} (cards), fitted on the even-numbered games\n\
             tenths with at least 30 predictions within 0.1 of what happened: {good} of {big}\n",
            self.games,
            self.analysis.text("the analysis, every game"),
            self.analysis_held_out
                .text("the analysis, odd-numbered games"),
            self.baseline_held_out
                .text("the baseline (score and cards), odd-numbered games"),
            self.baseline_params.0,
            self.baseline_params.1,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_bins_by_tenths_and_scores_brier() {
        let table = Table::of([
            (0.05, 0.0),
            (0.05, 0.0),
            (0.95, 1.0),
            (0.55, 1.0),
            (0.55, 0.0),
        ]);
        assert_eq!(table.n, 5);
        assert_eq!(table.bins[0].n, 2);
        assert_eq!(table.bins[5].n, 2);
        assert!((table.bins[5].observed - 0.5).abs() < 1e-9);
        assert!((table.bins[9].predicted - 0.95).abs() < 1e-9);
        let brier = (0.0025 * 2.0 + 0.0025 + 0.2025 + 0.3025) / 5.0;
        assert!((table.brier - brier).abs() < 1e-9);
        // A chance of exactly 1 falls in the last tenth.
        assert_eq!(Table::of([(1.0, 1.0)]).bins[9].n, 1);
        assert_eq!(table.calibrated(2, 0.1), (2, 2));
    }

    #[test]
    fn the_baseline_is_a_softmax_of_points_and_cards() {
        let p = |points: f64, cards: f64| Point {
            game: 0,
            predicted: 0.5,
            outcome: 0.0,
            position: 0,
            points,
            cards,
        };
        let (a, b) = (p(10.0, 8.0), p(2.0, 3.0));
        let chances = baseline(&[&a, &b], (0.5, 0.0));
        assert!((chances.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(chances[0] > 0.95, "{chances:?}");
        let even = baseline(&[&a, &b], (0.0, 0.0));
        assert_eq!(even, vec![0.5, 0.5]);
    }
}
