//! `--analyse` (issue 26): every game of a series analysed from its replay
//! file, as the server's replay page does, so that a bot author sees where
//! their bot went wrong: `game-0001.analysis.json` beside
//! `game-0001.json`, and each entrant's mean accuracy and marks.

use std::path::{Path, PathBuf};

use splendor_analysis::{Analysis, Plan, Settings};
use splendor_replay::Replay;

use crate::{ArenaError, Report};

/// One entrant's figures over the analysed games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EntrantFigures {
    /// Moves judged (not forced, not a stand-in's).
    pub moves: u32,
    /// The mean accuracy over those moves (0 to 100).
    pub accuracy: Option<f64>,
    /// Inaccuracies, mistakes and blunders in all.
    pub inaccuracies: u32,
    /// Mistakes.
    pub mistakes: u32,
    /// Blunders.
    pub blunders: u32,
}

/// Where the analysis of a replay file goes.
pub fn analysis_path(replay: &Path) -> PathBuf {
    replay.with_extension("analysis.json")
}

/// Analyses every game of `report` that has a replay file, writes each
/// analysis beside it, and sums the figures by entrant (in the order of
/// the report's standings). `progress` is told after each game.
pub fn analyse_series(
    report: &Report,
    settings: &Settings,
    mut progress: impl FnMut(u32, u32),
) -> Result<Vec<EntrantFigures>, ArenaError> {
    let mut sums = vec![(0.0f64, EntrantFigures::default()); report.standings.len()];
    let files: Vec<_> = report
        .games
        .iter()
        .filter_map(|g| g.replay.as_ref().map(|r| (g, r)))
        .collect();
    for (done, (game, file)) in files.iter().enumerate() {
        let analysis = analyse_file(file, settings)?;
        let out = analysis_path(file);
        let json = serde_json::to_string_pretty(&analysis).map_err(|e| ArenaError::Replays {
            path: out.clone(),
            error: std::io::Error::other(e),
        })?;
        std::fs::write(&out, json).map_err(|error| ArenaError::Replays {
            path: out.clone(),
            error,
        })?;
        for f in &analysis.figures {
            let Some(&entrant) = game.seats.get(usize::from(f.seat)) else {
                continue;
            };
            let (total, sum) = &mut sums[entrant];
            if let Some(accuracy) = f.accuracy {
                *total += accuracy * f64::from(f.moves);
            }
            sum.moves += f.moves;
            sum.inaccuracies += f.inaccuracies;
            sum.mistakes += f.mistakes;
            sum.blunders += f.blunders;
        }
        progress(done as u32 + 1, files.len() as u32);
    }
    Ok(sums
        .into_iter()
        .map(|(total, mut sum)| {
            if sum.moves > 0 {
                sum.accuracy = Some((total / f64::from(sum.moves) * 10.0).round() / 10.0);
            }
            sum
        })
        .collect())
}

fn analyse_file(file: &Path, settings: &Settings) -> Result<Analysis, ArenaError> {
    let bad = |why: String| ArenaError::Replays {
        path: file.to_path_buf(),
        error: std::io::Error::new(std::io::ErrorKind::InvalidData, why),
    };
    let text = std::fs::read_to_string(file).map_err(|error| ArenaError::Replays {
        path: file.to_path_buf(),
        error,
    })?;
    let replay = Replay::from_json(&text).map_err(|e| bad(e.to_string()))?;
    let plan = Plan::new(&replay).map_err(|e| bad(e.to_string()))?;
    Ok(plan.analyse(settings))
}
