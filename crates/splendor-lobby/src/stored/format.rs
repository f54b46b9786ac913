//! The stored forms of a game's options and result: types of their own,
//! not the rules crate's serde form, so that the rules can change (clocks
//! and bots will add options) and every stored log still reads, replays and
//! verifies. A test pins the text that older servers wrote.

use serde::{Deserialize, Serialize};
use splendor_rules::{GameResult, Options, Seat, Standing};

/// A game's rules options as stored with its log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StoredOptions {
    /// R2.4: the seat that plays first; `None` when it was drawn from the
    /// seed.
    #[serde(default)]
    pub first_seat: Option<Seat>,
}

impl From<Options> for StoredOptions {
    fn from(options: Options) -> StoredOptions {
        let Options { first_seat } = options;
        StoredOptions { first_seat }
    }
}

impl From<StoredOptions> for Options {
    fn from(stored: StoredOptions) -> Options {
        Options {
            first_seat: stored.first_seat,
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
        }
    }
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

/// The text a result is stored as.
pub fn result_json(result: &GameResult) -> String {
    // Plain data: serialising cannot fail.
    serde_json::to_string(&StoredResult::from(result)).unwrap_or_default()
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
            Ok(Options { first_seat: None })
        );
        assert_eq!(
            parse_options_json(r#"{"first_seat":0}"#),
            Ok(Options {
                first_seat: Some(0)
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
        };
        assert_eq!(options_json(options), r#"{"first_seat":2}"#);
        assert_eq!(parse_options_json(&options_json(options)), Ok(options));
        let result = GameResult {
            ranking: vec![Standing {
                seat: 0,
                points: 15,
                cards: 9,
                rank: 1,
            }],
            winners: vec![0],
            deadlock: true,
        };
        let json = result_json(&result);
        assert_eq!(
            json,
            r#"{"ranking":[{"seat":0,"points":15,"cards":9,"rank":1}],"winners":[0],"deadlock":true}"#
        );
        assert_eq!(parse_result_json(&json), Ok(result));
    }

    #[test]
    fn options_this_server_does_not_know_are_refused_not_ignored() {
        // A game set up with a rule this server cannot play must not be
        // replayed as if the rule did not exist.
        assert!(parse_options_json(r#"{"first_seat":null,"clock":"5m+10s"}"#).is_err());
        assert!(parse_options_json("5").is_err());
    }
}
