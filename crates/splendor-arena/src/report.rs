//! The table of a series: each entrant's score, its confidence interval,
//! the Elo difference between two, move times; as text and as JSON lines.

use crate::{Entrant, GameRecord, SeriesConfig, Trouble, stats};

/// An entrant's line in the table.
#[derive(Clone, Debug)]
pub struct Standing {
    /// The entrant's name.
    pub name: String,
    /// Games played to the end.
    pub games: u64,
    /// Wins, shared victories counting 1/k.
    pub score: f64,
    /// The 95% interval of the mean score.
    pub interval: (f64, f64),
    /// Mean prestige points.
    pub mean_points: f64,
    /// Games it crashed in, or did not join.
    pub crashes: u32,
    /// Moves the stand-in made for it.
    pub stand_in_moves: u32,
    /// Actions the server refused (see [`Trouble::Refused`]).
    pub refused: u32,
    /// Moves the time cap stopped (see [`Trouble::TimeCapped`]).
    pub time_capped: u32,
    /// Time per move over the series, when it made any.
    pub move_time: Option<MoveTimes>,
    /// A program plays, not a built-in level.
    pub program: bool,
}

/// An entrant's time per move over a series.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveTimes {
    /// Moves timed.
    pub moves: u64,
    /// The median, in milliseconds.
    pub median_ms: f64,
    /// The 99th percentile, in milliseconds.
    pub p99_ms: f64,
    /// The longest, in milliseconds.
    pub max_ms: f64,
}

impl MoveTimes {
    /// The figures of these times (microseconds); `None` for none.
    pub fn of(mut us: Vec<u64>) -> Option<MoveTimes> {
        if us.is_empty() {
            return None;
        }
        us.sort_unstable();
        let at = |q: f64| {
            let i = ((us.len() as f64 * q).ceil() as usize).clamp(1, us.len()) - 1;
            us[i] as f64 / 1000.0
        };
        Some(MoveTimes {
            moves: us.len() as u64,
            median_ms: at(0.5),
            p99_ms: at(0.99),
            max_ms: us[us.len() - 1] as f64 / 1000.0,
        })
    }
}

/// The series' outcome.
#[derive(Clone, Debug)]
pub struct Report {
    /// Every game, in order.
    pub games: Vec<GameRecord>,
    /// One line per entrant, in the order they were given.
    pub standings: Vec<Standing>,
    /// Why the series stopped before its last game, if it did.
    pub stopped: Option<String>,
}

impl Report {
    /// The table of a series.
    pub fn new(entrants: &[Entrant], games: Vec<GameRecord>) -> Report {
        let standings = entrants
            .iter()
            .enumerate()
            .map(|(e, entrant)| {
                let played: Vec<&GameRecord> = games.iter().filter(|g| g.played()).collect();
                let score: f64 = played.iter().map(|g| g.score(e)).sum();
                let points: f64 = played
                    .iter()
                    .filter_map(|g| {
                        let seat = g.seats.iter().position(|&x| x == e)?;
                        g.points.get(seat).map(|&p| f64::from(p))
                    })
                    .sum();
                let n = played.len() as u64;
                let mut standing = Standing {
                    name: entrant.name.clone(),
                    games: n,
                    score,
                    interval: stats::wilson(score, n),
                    mean_points: if n == 0 { 0.0 } else { points / n as f64 },
                    crashes: 0,
                    stand_in_moves: 0,
                    refused: 0,
                    time_capped: 0,
                    program: entrant.is_program(),
                    move_time: MoveTimes::of(
                        games
                            .iter()
                            .flat_map(|g| {
                                g.seats
                                    .iter()
                                    .position(|&x| x == e)
                                    .and_then(|seat| g.move_us.get(seat))
                                    .into_iter()
                                    .flatten()
                                    .copied()
                            })
                            .collect(),
                    ),
                };
                for (who, trouble) in games.iter().flat_map(|g| g.troubles.iter()) {
                    if *who != e {
                        continue;
                    }
                    match trouble {
                        Trouble::Crashed(_) | Trouble::DidNotJoin => standing.crashes += 1,
                        Trouble::StandInMoves(n) => standing.stand_in_moves += n,
                        Trouble::Refused(n) => standing.refused += n,
                        Trouble::TimeCapped(n) => standing.time_capped += n,
                    }
                }
                standing
            })
            .collect();
        Report {
            games,
            standings,
            stopped: None,
        }
    }

    /// The series as JSON lines: one object per game (`"type":"game"`:
    /// its index from 1, its deal's seed in hexadecimal, the entrant in
    /// each seat, the winners' seats, how it ended (`end`: `points`,
    /// `deadlock`, `no_progress`, ...), each seat's points, moves, troubles,
    /// every move the server refused (`refused`: the entrant, its seat, the
    /// action and the error's code), each seat's time per move in
    /// microseconds (`move_us`), the replay file), then one for the series (`"type":"series"`: its
    /// seed, games, and each entrant's standing with its time per move).
    pub fn json_lines(&self, config: &SeriesConfig) -> String {
        use serde_json::json;
        let name = |e: usize| config.entrants.get(e).map_or("?", |x| x.name.as_str());
        let mut out = String::new();
        for g in &self.games {
            let troubles: Vec<_> = g
                .troubles
                .iter()
                .map(|(e, t)| json!({"entrant": name(*e), "trouble": format!("{t:?}")}))
                .collect();
            let line = json!({
                "type": "game",
                "game": g.index + 1,
                "deal": g.deal.map(|d| format!("{d:016x}")),
                "seats": g.seats.iter().map(|&e| name(e)).collect::<Vec<_>>(),
                "winners": g.winners,
                "end": g.end,
                "points": g.points,
                "moves": g.moves,
                "troubles": troubles,
                "refused": g.refusals.iter().map(|r| json!({
                    "entrant": g.seats.get(usize::from(r.seat)).map_or("?", |&e| name(e)),
                    "seat": r.seat, "action": r.action, "code": r.code,
                })).collect::<Vec<_>>(),
                "move_us": g.move_us,
                "replay": g.replay.as_ref().map(|p| p.display().to_string()),
            });
            out.push_str(&line.to_string());
            out.push('\n');
        }
        let standings: Vec<_> = self
            .standings
            .iter()
            .map(|s| {
                json!({
                    "entrant": s.name,
                    "program": s.program,
                    "games": s.games,
                    "score": s.score,
                    "interval": [s.interval.0, s.interval.1],
                    "mean_points": s.mean_points,
                    "crashes": s.crashes,
                    "stand_in_moves": s.stand_in_moves,
                    "refused": s.refused,
                    "time_capped": s.time_capped,
                    "ms_per_move": s.move_time.map(|t| json!({
                        "median": t.median_ms, "p99": t.p99_ms, "max": t.max_ms, "moves": t.moves,
                    })),
                })
            })
            .collect();
        let series = json!({
            "type": "series",
            "seed": config.seed,
            "games": self.games.len(),
            "mirror": config.mirror,
            "standings": standings,
        });
        out.push_str(&series.to_string());
        out.push('\n');
        out
    }

    /// The table as text: score with its interval, mean points, troubles,
    /// between two entrants the Elo difference of the first, and how the
    /// games ended when not all on points.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let width = self
            .standings
            .iter()
            .map(|s| s.name.chars().count())
            .max()
            .unwrap_or(4)
            .max(7);
        out.push_str(&format!(
            "{:<width$}  {:>5}  {:>6}  {:>6}  {:>15}  {:>6}  {:>7}  {:>8}  {:>7}\n",
            "entrant",
            "games",
            "wins",
            "score",
            "95% interval",
            "points",
            "crashes",
            "stand-in",
            "refused"
        ));
        for s in &self.standings {
            let rate = if s.games == 0 {
                0.0
            } else {
                s.score / s.games as f64
            };
            out.push_str(&format!(
                "{:<width$}  {:>5}  {:>6.1}  {:>6.3}  {:>15}  {:>6.2}  {:>7}  {:>8}  {:>7}\n",
                s.name,
                s.games,
                s.score,
                rate,
                format!("{:.3}–{:.3}", s.interval.0, s.interval.1),
                s.mean_points,
                s.crashes,
                s.stand_in_moves,
                s.refused
            ));
        }
        out.push_str(&format!(
            "{:<width$}  {:>9}  {:>9}  {:>9}  {:>7}\n",
            "ms/move", "median", "p99", "max", "moves"
        ));
        for s in &self.standings {
            if let Some(t) = s.move_time {
                out.push_str(&format!(
                    "{:<width$}  {:>9.3}  {:>9.3}  {:>9.3}  {:>7}\n",
                    s.name, t.median_ms, t.p99_ms, t.max_ms, t.moves
                ));
            }
        }
        // Between two, the Elo difference of a program (mine) over the
        // other (theirs), else of the first over the second.
        let pair = match &self.standings[..] {
            [a, b] if b.program && !a.program => Some((b, a)),
            [a, b] => Some((a, b)),
            _ => None,
        };
        if let Some((a, b)) = pair
            && a.games > 0
        {
            let p = a.score / a.games as f64;
            out.push_str(&format!(
                "Elo difference, {} minus {}: {} (95%: {} to {})\n",
                a.name,
                b.name,
                stats::elo_text(stats::elo(p)),
                stats::elo_text(stats::elo(a.interval.0)),
                stats::elo_text(stats::elo(a.interval.1)),
            ));
        }
        // How the games ended, when not all on points (R11.2 deadlocks,
        // R11.6's games without progress, R13.2's resignations, R12.6).
        let mut endings: Vec<(String, usize)> = Vec::new();
        for end in self.games.iter().filter_map(|g| g.end) {
            let name = serde_json::to_value(end)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            match endings.iter_mut().find(|(n, _)| *n == name) {
                Some((_, count)) => *count += 1,
                None => endings.push((name, 1)),
            }
        }
        if endings.iter().any(|(name, _)| name != "points") {
            let text: Vec<String> = endings.iter().map(|(n, c)| format!("{c} {n}")).collect();
            out.push_str(&format!("endings: {}\n", text.join(", ")));
        }
        // Each move the server refused (the first ten; --json has all).
        let refusals: Vec<String> = self
            .games
            .iter()
            .flat_map(|g| {
                g.refusals.iter().map(move |r| {
                    let who = g
                        .seats
                        .get(usize::from(r.seat))
                        .and_then(|&e| self.standings.get(e))
                        .map_or("?", |s| s.name.as_str());
                    format!(
                        "  game {}, {who} (seat {}): {}: {}",
                        g.index + 1,
                        r.seat,
                        r.action,
                        r.code
                    )
                })
            })
            .collect();
        if !refusals.is_empty() {
            out.push_str(&format!("refused moves ({}):\n", refusals.len()));
            for line in refusals.iter().take(10) {
                out.push_str(line);
                out.push('\n');
            }
            if refusals.len() > 10 {
                out.push_str("  ... (--json lists every one)\n");
            }
        }
        if let Some(why) = &self.stopped {
            out.push_str(&format!("the series stopped: {why}\n"));
        }
        let unplayed = self.games.iter().filter(|g| !g.played()).count();
        if unplayed > 0 {
            out.push_str(&format!(
                "{unplayed} game(s) could not be played (see the troubles above)\n"
            ));
        }
        out
    }
}
