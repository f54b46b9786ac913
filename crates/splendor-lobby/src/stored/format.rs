//! The stored forms of a game's options and result: types of their own,
//! not the rules crate's serde form, so that the rules can change (clocks
//! and bots will add options) and every stored log still reads, replays and
//! verifies. A test pins the text that older servers wrote.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use splendor_rules::{End, GameResult, Options, Rulings, Seat, Standing};

use crate::config::TurnClock;
use crate::room::clock::{ClockOptions, SeatClock};
use crate::room::effect::Mover;
use splendor_room::{MAX_PER_MOVE, OnDeadline};

/// A game's rules options as stored with its log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredOptions {
    /// R2.4: the seat that plays first; `None` when it was drawn from the
    /// seed.
    #[serde(default)]
    pub first_seat: Option<Seat>,
    /// The rulings the game is played by (shared/RULES.md); absent in
    /// every game stored before 2026-11-29, which are played by
    /// [`Rulings::FIRST`] (no R11.6, R13.2 before its amendment).
    #[serde(default = "Rulings::first", skip_serializing_if = "is_first")]
    pub rulings: Rulings,
}

fn is_first(rulings: &Rulings) -> bool {
    *rulings == Rulings::FIRST
}

impl From<Options> for StoredOptions {
    fn from(options: Options) -> StoredOptions {
        let Options {
            first_seat,
            rulings,
        } = options;
        StoredOptions {
            first_seat,
            rulings,
        }
    }
}

impl From<StoredOptions> for Options {
    fn from(stored: StoredOptions) -> Options {
        Options {
            first_seat: stored.first_seat,
            rulings: stored.rulings,
        }
    }
}

/// A finished game's result as stored (R10.3, R10.4, R11.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredResult {
    /// Seats best first.
    pub ranking: Vec<StoredStanding>,
    /// The seats that share the victory.
    pub winners: Vec<Seat>,
    /// True when the game ended by deadlock (R11.2).
    pub deadlock: bool,
    /// The seats that resigned, first to resign first (R13.1); absent
    /// when none did (every result stored before 2026-11-26).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resigned: Vec<Seat>,
    /// The server's operators ended the game before its end (issue 22),
    /// for this reason: the ranking is the standings it stopped at and
    /// there is no winner. Absent for a game played to its end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_by_operators: Option<String>,
    /// How the game ended; absent in every result stored before
    /// 2026-11-29 (then inferred: [`End::inferred`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<End>,
}

/// One seat's place in a stored result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredStanding {
    /// The seat.
    pub seat: Seat,
    /// Prestige points.
    pub points: u8,
    /// Purchased cards (the tie-break, R10.4).
    pub cards: u8,
    /// 1-based rank; equal ranks are shared.
    pub rank: u8,
}

impl From<&GameResult> for StoredResult {
    fn from(result: &GameResult) -> StoredResult {
        StoredResult {
            ranking: result
                .ranking
                .iter()
                .map(|s| StoredStanding {
                    seat: s.seat,
                    points: s.points,
                    cards: s.cards,
                    rank: s.rank,
                })
                .collect(),
            winners: result.winners.clone(),
            deadlock: result.deadlock,
            resigned: result.resigned.clone(),
            ended_by_operators: None,
            end: result.end,
        }
    }
}

impl From<StoredResult> for GameResult {
    fn from(stored: StoredResult) -> GameResult {
        GameResult {
            ranking: stored
                .ranking
                .into_iter()
                .map(|s| Standing {
                    seat: s.seat,
                    points: s.points,
                    cards: s.cards,
                    rank: s.rank,
                })
                .collect(),
            winners: stored.winners,
            deadlock: stored.deadlock,
            resigned: stored.resigned,
            end: stored.end.or_else(|| {
                // Before 2026-11-29: inferred, and the operators' ending
                // was recorded apart.
                stored.ended_by_operators.as_ref().map(|_| End::Operators)
            }),
        }
    }
}

/// A room's turn clock as stored with its game (R12.1, R12.3, R12.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredClock {
    /// Each player's bank at the start, in seconds; in a turn-based room
    /// the time of every turn.
    pub initial_s: u64,
    /// Added when each of a player's turns ends, in seconds.
    pub increment_s: u64,
    /// R12.3: a disconnected player's turn goes to the stand-in.
    #[serde(default)]
    pub stand_in_when_away: bool,
    /// A turn-based room (R12.5): what a passed deadline means.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_move: Option<OnDeadline>,
}

/// What is stored beside an action's move: who made it, when it was not
/// the seat's player (R12.4), and every seat's clock after it (R12).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredMeta {
    /// `bot` or `stand_in`; absent for the seat's player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// Every seat's clock after the action, in a room with a clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clocks: Option<Vec<StoredSeatClock>>,
}

/// One seat's clock after an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredSeatClock {
    /// What was left of the bank, in milliseconds.
    pub bank_ms: u64,
    /// The seat was played by the stand-in (R12.2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stand_in: bool,
}

/// The text a room's clock is stored as.
pub fn clock_json(options: ClockOptions) -> String {
    let stored = StoredClock {
        initial_s: options.clock.bank().as_secs(),
        increment_s: options.clock.increment().as_secs(),
        stand_in_when_away: options.stand_in_when_away,
        per_move: options.clock.on_deadline(),
    };
    // Plain data: serialising cannot fail.
    serde_json::to_string(&stored).unwrap_or_default()
}

/// Reads a stored clock, checked against R12.1 again.
pub fn parse_clock_json(json: &str) -> Result<ClockOptions, String> {
    let stored: StoredClock =
        serde_json::from_str(json).map_err(|e| format!("clock {json:?}: {e}"))?;
    let bank = Duration::from_secs(stored.initial_s);
    let clock = match stored.per_move {
        // R12.5; a time per move shorter than an hour was allowed by a
        // test's setting when the game was made (never longer than 14 days).
        Some(on_deadline) if (1..=MAX_PER_MOVE.as_secs()).contains(&stored.initial_s) => {
            TurnClock::per_move_unchecked(bank, on_deadline)
        }
        Some(_) => return Err(format!("clock {json:?}: not a time per move (R12.5)")),
        None => TurnClock::new(bank, Duration::from_secs(stored.increment_s))
            .map_err(|e| format!("clock {json:?}: {e}"))?,
    };
    Ok(ClockOptions {
        clock,
        stand_in_when_away: stored.stand_in_when_away,
    })
}

/// The text stored beside an action, or `None` when there is nothing to
/// say (a person's move in a room without a clock).
pub fn meta_json(by: Mover, clocks: Option<&[SeatClock]>) -> Option<String> {
    let meta = StoredMeta {
        by: match by {
            Mover::Person => None,
            Mover::Bot => Some("bot".to_owned()),
            Mover::StandIn => Some("stand_in".to_owned()),
            Mover::Hinted => Some("hint".to_owned()),
        },
        clocks: clocks.map(|seats| {
            seats
                .iter()
                .map(|c| StoredSeatClock {
                    bank_ms: u64::try_from(c.bank.as_millis()).unwrap_or(u64::MAX),
                    stand_in: c.stand_in,
                })
                .collect()
        }),
    };
    if meta == StoredMeta::default() {
        return None;
    }
    // Plain data: serialising cannot fail.
    serde_json::to_string(&meta).ok()
}

/// Reads what was stored beside an action: who made it and the clocks.
pub fn parse_meta_json(json: Option<&str>) -> Result<(Mover, Option<Vec<SeatClock>>), String> {
    let Some(json) = json else {
        return Ok((Mover::Person, None));
    };
    let meta: StoredMeta =
        serde_json::from_str(json).map_err(|e| format!("action meta {json:?}: {e}"))?;
    let by = match meta.by.as_deref() {
        None => Mover::Person,
        Some("bot") => Mover::Bot,
        Some("stand_in") => Mover::StandIn,
        Some("hint") => Mover::Hinted,
        Some(other) => return Err(format!("action meta: unknown mover {other:?}")),
    };
    let clocks = meta.clocks.map(|seats| {
        seats
            .iter()
            .map(|c| SeatClock {
                bank: Duration::from_millis(c.bank_ms),
                stand_in: c.stand_in,
            })
            .collect()
    });
    Ok((by, clocks))
}

/// The text a game's options are stored as.
pub fn options_json(options: Options) -> String {
    // Plain data: serialising cannot fail.
    serde_json::to_string(&StoredOptions::from(options)).unwrap_or_default()
}

/// Reads stored options.
pub fn parse_options_json(json: &str) -> Result<Options, String> {
    serde_json::from_str::<StoredOptions>(json)
        .map(Options::from)
        .map_err(|e| format!("options {json:?}: {e}"))
}

/// Each seat's final place, 1-based, in seat order (R10.3, R10.4; equal
/// places shared): what a rated game's ratings are computed from.
pub(crate) fn places(result: &GameResult) -> Vec<u8> {
    let mut places = vec![0; result.ranking.len()];
    for standing in &result.ranking {
        if let Some(place) = places.get_mut(usize::from(standing.seat)) {
            *place = standing.rank;
        }
    }
    places
}

/// The text a result is stored as.
pub fn result_json(result: &GameResult) -> String {
    // Plain data: serialising cannot fail.
    serde_json::to_string(&StoredResult::from(result)).unwrap_or_default()
}

/// The text the result of a game the operators ended is stored as (issue
/// 22): the standings `result` gives, no winner, and the reason.
pub fn ended_result_json(result: &GameResult, reason: &str) -> String {
    let mut stored = StoredResult::from(result);
    stored.winners.clear();
    stored.ended_by_operators = Some(reason.to_owned());
    serde_json::to_string(&stored).unwrap_or_default()
}

/// Why the operators ended the game whose stored result this is, if they
/// did (issue 22).
pub fn ended_by_operators(json: &str) -> Option<String> {
    serde_json::from_str::<StoredResult>(json)
        .ok()
        .and_then(|r| r.ended_by_operators)
}

/// Whether the game whose stored result this is ended deserted (R12.6).
pub fn ended_deserted(json: &str) -> bool {
    serde_json::from_str::<StoredResult>(json).is_ok_and(|r| r.end == Some(End::Deserted))
}

/// Reads a stored result.
pub fn parse_result_json(json: &str) -> Result<GameResult, String> {
    serde_json::from_str::<StoredResult>(json)
        .map(GameResult::from)
        .map_err(|e| format!("result {json:?}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What servers before these types wrote (the rules crate's serde
    /// form): every stored game must still read.
    #[test]
    fn the_texts_older_servers_stored_still_read() {
        assert_eq!(
            parse_options_json(r#"{"first_seat":null}"#),
            Ok(Options {
                first_seat: None,
                rulings: Rulings::FIRST
            })
        );
        assert_eq!(
            parse_options_json(r#"{"first_seat":0}"#),
            Ok(Options {
                first_seat: Some(0),
                rulings: Rulings::FIRST
            })
        );
        let result = parse_result_json(
            r#"{"ranking":[{"seat":1,"points":16,"cards":12,"rank":1},{"seat":0,"points":9,"cards":10,"rank":2}],"winners":[1],"deadlock":false}"#,
        )
        .unwrap();
        assert_eq!(result.winners, [1]);
        assert_eq!(result.ranking[1].points, 9);
        assert!(!result.deadlock);
    }

    #[test]
    fn options_and_results_round_trip_in_the_same_text_as_before() {
        let options = Options {
            first_seat: Some(2),
            rulings: Rulings::FIRST,
        };
        assert_eq!(options_json(options), r#"{"first_seat":2}"#);
        assert_eq!(parse_options_json(&options_json(options)), Ok(options));
        // A game of today's rulings says so; of before, nothing.
        let today = Options {
            rulings: Rulings::CURRENT,
            ..options
        };
        assert_eq!(options_json(today), r#"{"first_seat":2,"rulings":2}"#);
        assert_eq!(parse_options_json(&options_json(today)), Ok(today));
        let result = GameResult {
            ranking: vec![Standing {
                seat: 0,
                points: 15,
                cards: 9,
                rank: 1,
            }],
            winners: vec![0],
            deadlock: true,
            resigned: Vec::new(),
            end: None,
        };
        let json = result_json(&result);
        assert_eq!(
            json,
            r#"{"ranking":[{"seat":0,"points":15,"cards":9,"rank":1}],"winners":[0],"deadlock":true}"#
        );
        assert_eq!(parse_result_json(&json), Ok(result.clone()));
        // R13.1: who resigned is stored only when someone did.
        let resigned = GameResult {
            resigned: vec![1],
            ..result.clone()
        };
        let json = result_json(&resigned);
        assert!(json.ends_with(r#","resigned":[1]}"#), "{json}");
        assert_eq!(parse_result_json(&json), Ok(resigned));
        // How it ended is stored from 2026-11-29 on (R11.6's ending).
        let no_progress = GameResult {
            deadlock: false,
            end: Some(End::NoProgress),
            ..result
        };
        let json = result_json(&no_progress);
        assert!(json.ends_with(r#","end":"no_progress"}"#), "{json}");
        assert_eq!(parse_result_json(&json), Ok(no_progress));
    }

    #[test]
    fn clocks_and_action_metadata_round_trip_and_bad_ones_are_refused() {
        let options = ClockOptions {
            clock: "5m+10s".parse().unwrap(),
            stand_in_when_away: true,
        };
        let json = clock_json(options);
        assert_eq!(
            json,
            r#"{"initial_s":300,"increment_s":10,"stand_in_when_away":true}"#
        );
        assert_eq!(parse_clock_json(&json), Ok(options));
        assert!(parse_clock_json(r#"{"initial_s":0,"increment_s":10}"#).is_err());
        assert!(parse_clock_json(r#"{"initial_s":60,"increment_s":1,"x":1}"#).is_err());

        // R12.5: a turn-based room's time per move and what its deadline means.
        let turn_based = ClockOptions {
            clock: TurnClock::per_move(Duration::from_secs(86_400), OnDeadline::Resign).unwrap(),
            stand_in_when_away: false,
        };
        let json = clock_json(turn_based);
        assert_eq!(
            json,
            r#"{"initial_s":86400,"increment_s":0,"stand_in_when_away":false,"per_move":"resign"}"#
        );
        assert_eq!(parse_clock_json(&json), Ok(turn_based));
        // A test's short time per move reads back; nothing past 14 days does.
        let short = parse_clock_json(r#"{"initial_s":2,"increment_s":0,"per_move":"stand_in"}"#);
        assert_eq!(short.map(|c| c.clock.bank()), Ok(Duration::from_secs(2)));
        assert!(
            parse_clock_json(r#"{"initial_s":1209601,"increment_s":0,"per_move":"resign"}"#)
                .is_err()
        );
        assert!(
            parse_clock_json(r#"{"initial_s":0,"increment_s":0,"per_move":"resign"}"#).is_err()
        );
        assert!(
            parse_clock_json(r#"{"initial_s":60,"increment_s":0,"per_move":"never"}"#).is_err()
        );

        assert_eq!(meta_json(Mover::Person, None), None);
        assert_eq!(parse_meta_json(None), Ok((Mover::Person, None)));
        let clocks = [
            SeatClock {
                bank: Duration::from_millis(1500),
                stand_in: false,
            },
            SeatClock {
                bank: Duration::ZERO,
                stand_in: true,
            },
        ];
        let json = meta_json(Mover::StandIn, Some(&clocks)).unwrap();
        assert_eq!(
            json,
            r#"{"by":"stand_in","clocks":[{"bank_ms":1500},{"bank_ms":0,"stand_in":true}]}"#
        );
        assert_eq!(
            parse_meta_json(Some(&json)),
            Ok((Mover::StandIn, Some(clocks.to_vec())))
        );
        assert_eq!(
            parse_meta_json(Some(r#"{"by":"bot"}"#)),
            Ok((Mover::Bot, None))
        );
        assert!(parse_meta_json(Some(r#"{"by":"ghost"}"#)).is_err());
    }

    #[test]
    fn options_this_server_does_not_know_are_refused_not_ignored() {
        // A game set up with a rule this server cannot play must not be
        // replayed as if the rule did not exist.
        assert!(parse_options_json(r#"{"first_seat":null,"clock":"5m+10s"}"#).is_err());
        assert!(parse_options_json("5").is_err());
    }
}
