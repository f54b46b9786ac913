//! The analysis of a finished game (issue 26): every move judged by the
//! `strong` search, from what its player could see when they made it.
//!
//! A move is judged by what its player knew, not by the revealed deck: at
//! each position the judge gets the mover's view
//! (`Game::view(Viewer::Seat(mover))`) and samples whatever that view hides,
//! exactly as the `strong` player does when it plays
//! ([`splendor_ai::evaluate`]). It answers every seat's chance to win, the
//! move it prefers, and the mover's chance after that move and after the
//! move played; the difference is the move's *drop*.
//!
//! Marks name the drop as Lichess names its own (by the drop in the
//! chance to win): an [`Mark::Inaccuracy`] from 10 points of percentage,
//! a [`Mark::Mistake`] from 20, a [`Mark::Blunder`] from 30. A player's
//! accuracy is the mean over their own moves of Lichess's per-move
//! accuracy, `103.1668 * exp(-0.04354 * drop%) - 3.1669` clamped to 0..100
//! (a move without a drop scores 100).
//!
//! Everything is pure and deterministic: the same replay and [`Settings`]
//! give the same analysis (each position's search is seeded by its place
//! in the game and runs a fixed number of iterations, never cut by a
//! clock), so a result can be checked and cached. Positions are analysed
//! one at a time ([`Plan::judge`]), so a caller can schedule each on its
//! own, show progress and stop between two.
#![forbid(unsafe_code)]

use serde::{Deserialize, Serialize};
use splendor_protocol::WireAction;
use splendor_replay::{By, Replay};
use splendor_rules::{Action, Game, Seat, Viewer};

/// The value of [`Analysis::format`] this crate writes.
pub const FORMAT: &str = "splendor-analysis/1";

/// The drop (in chance to win, 0 to 1) from which a move is an inaccuracy.
pub const INACCURACY: f64 = 0.10;
/// The drop from which a move is a mistake.
pub const MISTAKE: f64 = 0.20;
/// The drop from which a move is a blunder.
pub const BLUNDER: f64 = 0.30;

/// How hard the judge thinks; part of the analysis it gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Search iterations per position (plus a quarter as many through the
    /// move played when it is not the preferred one).
    pub iterations: u32,
}

impl Settings {
    /// The server's default: the `strong` level's own budget per move.
    pub const DEFAULT: Settings = Settings {
        iterations: splendor_ai::strong::DEFAULT_ITERATIONS,
    };
}

impl Default for Settings {
    fn default() -> Settings {
        Settings::DEFAULT
    }
}

/// What a move was, by its drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// The move the judge prefers.
    Best,
    /// Another move, less than [`INACCURACY`] worse.
    Good,
    /// At least [`INACCURACY`] worse.
    Inaccuracy,
    /// At least [`MISTAKE`] worse.
    Mistake,
    /// At least [`BLUNDER`] worse.
    Blunder,
    /// The only legal move: nothing to judge.
    Forced,
    /// A resignation (R13): not a move to judge.
    Resigned,
}

impl Mark {
    /// The mark of a move with this drop (0 to 1).
    pub fn of_drop(drop: f64) -> Mark {
        if drop >= BLUNDER {
            Mark::Blunder
        } else if drop >= MISTAKE {
            Mark::Mistake
        } else if drop >= INACCURACY {
            Mark::Inaccuracy
        } else {
            Mark::Good
        }
    }
}

/// `By` of splendor-replay, as the schema shows it.
#[derive(schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)] // a schema's stand-in, never built
enum MadeBy {
    /// The built-in bot that held the seat.
    Bot,
    /// The stand-in of a player out of time or away (R12.2, R12.3).
    StandIn,
    /// The player, after a practice hint.
    Hint,
}

/// What `GET /api/games/{id}/analysis` answers while the analysis is not
/// made yet (status 202).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    /// `queued` (waiting on the node that will make it) or `running`.
    pub status: ProgressStatus,
    /// Positions judged.
    pub done: u32,
    /// Positions to judge (one per action of the game).
    pub total: u32,
    /// Analyses before this one on the node that will make it (queued only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ahead: Option<u32>,
}

/// Where an analysis not made yet stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProgressStatus {
    /// Waiting for its turn.
    Queued,
    /// Under way.
    Running,
}

/// The JSON Schema of what `GET /api/games/{id}/analysis` answers
/// (docs/analysis.schema.json): an [`Analysis`] (200) or a [`Progress`]
/// (202). A test checks the committed file against it
/// (`UPDATE_SCHEMA=1 cargo test -p splendor-analysis schema` rewrites it).
pub fn analysis_schema() -> serde_json::Value {
    #[derive(schemars::JsonSchema)]
    #[serde(untagged)]
    #[allow(dead_code)] // a schema's root, never built
    enum AnalysisAnswer {
        /// 200: the analysis, made.
        Done(Analysis),
        /// 202: not made yet.
        Pending(Progress),
    }
    let mut schema = schemars::schema_for!(AnalysisAnswer);
    schema.insert(
        "description".into(),
        "What GET /api/games/{id}/analysis answers: the analysis (200) or its progress (202). Generated from the Rust types of splendor-analysis: do not edit by hand.".into(),
    );
    schema.to_value()
}

/// One move, judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Judged {
    /// The action's place in the log, from 0.
    pub seq: u32,
    /// The seat that played it.
    pub seat: Seat,
    /// Who made it when not the seat's player (`bot`, `stand_in`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<MadeBy>")]
    pub by: Option<By>,
    /// The move played.
    pub played: WireAction,
    /// The move the judge prefers; absent for a resignation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<WireAction>,
    /// Every seat's chance to win before the move (after the preferred
    /// move, as the mover could see it), by seat; for a resignation the
    /// chances of the position before it.
    pub chances: Vec<f64>,
    /// The mover's chance after the preferred move.
    pub best_chance: f64,
    /// The mover's chance after the move played.
    pub played_chance: f64,
    /// `best_chance - played_chance`, never below 0.
    pub drop: f64,
    /// How many moves were legal.
    pub legal: u32,
    /// What the move was.
    pub mark: Mark,
}

/// A player's figures for the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerFigures {
    /// The seat.
    pub seat: Seat,
    /// The mean accuracy (0 to 100) of the seat's own judged moves (not
    /// forced, not a stand-in's); absent when there were none.
    pub accuracy: Option<f64>,
    /// How many of its own moves were judged.
    pub moves: u32,
    /// How many were inaccuracies.
    pub inaccuracies: u32,
    /// How many were mistakes.
    pub mistakes: u32,
    /// How many were blunders.
    pub blunders: u32,
}

/// The analysis of a finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Analysis {
    /// Always [`FORMAT`].
    pub format: String,
    /// The game's id.
    pub game: String,
    /// The number of players.
    pub players: u8,
    /// How it was made.
    pub settings: Settings,
    /// Every move in order, judged.
    pub moves: Vec<Judged>,
    /// Every seat's share of the win at the end (the winners share 1).
    pub final_chances: Vec<f64>,
    /// Each seat's figures, by seat.
    pub figures: Vec<PlayerFigures>,
}

/// A replay that cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The replay does not play back through the rules.
    #[error("the replay does not play back: {0}")]
    Replay(String),
}

/// One position to judge: the game before the move, and the move.
#[derive(Clone, Debug)]
struct Position {
    seq: u32,
    seat: Seat,
    by: Option<By>,
    before: Game,
    played: Action,
}

/// A finished game laid out position by position, ready to judge.
#[derive(Clone, Debug)]
pub struct Plan {
    game: String,
    players: u8,
    positions: Vec<Position>,
    final_chances: Vec<f64>,
}

impl Plan {
    /// The positions of `replay`, played back on the rules.
    pub fn new(replay: &Replay) -> Result<Plan, PlanError> {
        let bots = splendor_rules::bot_mask(replay.seats.iter().map(|s| s.bot.is_some()));
        let mut game = Game::new(replay.players, replay.options, replay.seed.0)
            .map_err(|e| PlanError::Replay(e.to_string()))?
            .with_bots(bots);
        let mut positions = Vec::with_capacity(replay.actions.len());
        for step in &replay.actions {
            let played = Action::try_from(&step.action)
                .map_err(|e| PlanError::Replay(format!("action {}: {e}", step.seq)))?;
            positions.push(Position {
                seq: step.seq,
                seat: step.seat,
                by: step.by,
                before: game,
                played,
            });
            game.apply(step.seat, played)
                .map_err(|e| PlanError::Replay(format!("action {}: {e}", step.seq)))?;
        }
        let result = game
            .result()
            .ok_or_else(|| PlanError::Replay("the game is not over".into()))?;
        let mut final_chances = vec![0.0; usize::from(replay.players)];
        let share = 1.0 / result.winners.len().max(1) as f64;
        for &w in &result.winners {
            if let Some(c) = final_chances.get_mut(usize::from(w)) {
                *c = share;
            }
        }
        Ok(Plan {
            game: replay.game.clone(),
            players: replay.players,
            positions,
            final_chances,
        })
    }

    /// How many positions there are to judge (one per action).
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// True for a game without actions.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Judges position `index` (the one before action `index`): a pure,
    /// seeded search from the mover's view. `previous` is the judgement of
    /// the position before, whose chances a resignation keeps.
    ///
    /// # Panics
    /// When `index` is not below [`Plan::len`].
    pub fn judge(&self, index: usize, settings: &Settings, previous: Option<&Judged>) -> Judged {
        let p = &self.positions[index];
        let played = WireAction::from(p.played);
        let even = || vec![1.0 / f64::from(self.players); usize::from(self.players)];
        let resigned = |chances: Vec<f64>| Judged {
            seq: p.seq,
            seat: p.seat,
            by: p.by,
            played: played.clone(),
            best: None,
            chances,
            best_chance: 0.0,
            played_chance: 0.0,
            drop: 0.0,
            legal: 0,
            mark: Mark::Resigned,
        };
        if p.played == Action::Resign || p.before.to_act() != Some(p.seat) {
            // R13.1: a resignation may come at any moment, whoever is to
            // move; there is no choice of moves to judge.
            return resigned(previous.map_or_else(even, |j| j.chances.clone()));
        }
        let view = p.before.view(Viewer::Seat(p.seat));
        let Ok(eval) =
            splendor_ai::evaluate(&view, p.seat, seed_of(index), settings.iterations, p.played)
        else {
            // Every logged move was legal for its seat (the replay played
            // back): there is no other way here.
            return resigned(previous.map_or_else(even, |j| j.chances.clone()));
        };
        let chances = normalised(&eval.chances[..usize::from(self.players)]);
        let drop = (eval.best_chance - eval.played_chance).max(0.0);
        let mark = if eval.legal <= 1 {
            Mark::Forced
        } else if eval.best == p.played {
            Mark::Best
        } else {
            Mark::of_drop(drop)
        };
        Judged {
            seq: p.seq,
            seat: p.seat,
            by: p.by,
            played,
            best: Some(WireAction::from(eval.best)),
            chances,
            best_chance: round(eval.best_chance),
            played_chance: round(eval.played_chance),
            drop: round(drop),
            legal: eval.legal as u32,
            mark,
        }
    }

    /// The whole analysis, from every position's judgement in order.
    pub fn conclude(&self, settings: &Settings, moves: Vec<Judged>) -> Analysis {
        let figures = (0..self.players)
            .map(|seat| figures(seat, &moves))
            .collect();
        Analysis {
            format: FORMAT.to_owned(),
            game: self.game.clone(),
            players: self.players,
            settings: *settings,
            moves,
            final_chances: self.final_chances.clone(),
            figures,
        }
    }

    /// Judges every position in order and concludes: the whole analysis in
    /// one call (the arena's way; a server schedules [`Plan::judge`] itself).
    pub fn analyse(&self, settings: &Settings) -> Analysis {
        let mut moves: Vec<Judged> = Vec::with_capacity(self.len());
        for i in 0..self.len() {
            let judged = self.judge(i, settings, moves.last());
            moves.push(judged);
        }
        self.conclude(settings, moves)
    }
}

/// Lichess's accuracy of one move from its drop in chance (0 to 1).
pub fn move_accuracy(drop: f64) -> f64 {
    let percent = (drop * 100.0).max(0.0);
    (103.1668 * (-0.04354 * percent).exp() - 3.1669).clamp(0.0, 100.0)
}

fn figures(seat: Seat, moves: &[Judged]) -> PlayerFigures {
    let bot_seat = moves
        .iter()
        .any(|m| m.seat == seat && m.by == Some(By::Bot));
    let own = moves.iter().filter(|m| {
        m.seat == seat
            && !matches!(m.mark, Mark::Forced | Mark::Resigned)
            // A stand-in's moves are not the player's (R12.4); a bot's are
            // the bot's own.
            && (m.by.is_none() || bot_seat && m.by == Some(By::Bot))
    });
    let mut figures = PlayerFigures {
        seat,
        accuracy: None,
        moves: 0,
        inaccuracies: 0,
        mistakes: 0,
        blunders: 0,
    };
    let mut total = 0.0;
    for m in own {
        figures.moves += 1;
        total += move_accuracy(m.drop);
        match m.mark {
            Mark::Inaccuracy => figures.inaccuracies += 1,
            Mark::Mistake => figures.mistakes += 1,
            Mark::Blunder => figures.blunders += 1,
            _ => {}
        }
    }
    if figures.moves > 0 {
        figures.accuracy = Some((total / f64::from(figures.moves) * 10.0).round() / 10.0);
    }
    figures
}

/// Each position's own seed: the same game is judged the same way.
fn seed_of(index: usize) -> u64 {
    0x5eed_a11a_1515_0026u64.wrapping_add((index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// Three decimals: what a chart can show, and a shorter document.
fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

fn normalised(chances: &[f64]) -> Vec<f64> {
    let total: f64 = chances.iter().sum();
    if total <= 0.0 {
        return vec![1.0 / chances.len() as f64; chances.len()];
    }
    chances.iter().map(|c| round(c / total)).collect()
}

#[cfg(test)]
mod tests {
    /// The committed schema is the one the types give.
    #[test]
    fn the_committed_schema_is_up_to_date() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../docs/analysis.schema.json"
        );
        let fresh = serde_json::to_string_pretty(&super::analysis_schema()).unwrap() + "\n";
        if std::env::var_os("UPDATE_SCHEMA").is_some() {
            std::fs::write(path, &fresh).unwrap();
        }
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == fresh,
            "docs/analysis.schema.json is out of date: run UPDATE_SCHEMA=1 cargo test -p splendor-analysis schema"
        );
    }
}
