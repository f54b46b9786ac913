//! Checking a replay: the commitment, the deal, every action, the result.

use std::fmt;

use splendor_protocol::WireEvent;
use splendor_protocol::view::wire_event;
use splendor_rules::{Action, Game, GameResult, Layout, RuleError, Seat, SetupError};

use crate::commit::{Commitment, Seed};
use crate::replay::{FORMAT, Replay, SeatName, seats_in_order};

/// Why a replay is not a faithful record of a fair game. Each variant names
/// the first check that failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The document is of another format (or version).
    #[error("the format is {found:?}, this verifier reads {FORMAT:?}")]
    Format {
        /// The format the document names, cut to 80 characters.
        found: String,
    },
    /// The seats do not match the player count.
    #[error("the seats do not match {players} players numbered 0 to {}", players.saturating_sub(1))]
    Seats {
        /// The player count the replay states.
        players: u8,
    },
    /// The commitment in the replay is not the one the player was given at
    /// the start of the game.
    #[error(
        "the replay's commitment {recorded} is not the one given at the start of the game ({expected})"
    )]
    NotTheCommitmentGiven {
        /// The commitment in the replay.
        recorded: Commitment,
        /// The commitment the player was given at the start.
        expected: Commitment,
    },
    /// SHA-256 of the revealed salt and seed is not the commitment: the
    /// seed or the salt is not the one committed to.
    #[error(
        "SHA-256(salt || seed) is {computed}, but the commitment is {recorded}: \
         the revealed seed or salt is not the one committed to"
    )]
    CommitmentMismatch {
        /// The commitment in the replay.
        recorded: Commitment,
        /// SHA-256 of the revealed salt and seed.
        computed: Commitment,
    },
    /// The seed cannot set up a game with these options.
    #[error("the game cannot be set up: {0}")]
    Setup(SetupError),
    /// The layout in the replay is not the one the seed deals.
    #[error("the layout does not match the one dealt from the seed: {part} differs")]
    LayoutMismatch {
        /// The first part that differs, in words, e.g. "the level 2 deck".
        part: String,
    },
    /// The actions are not numbered 0, 1, 2, ...
    #[error("action number {index} has seq {seq}; actions must be numbered 0, 1, 2, ...")]
    Sequence {
        /// The action's position in the replay.
        index: usize,
        /// The seq the action carries instead of its position.
        seq: u32,
    },
    /// An action cannot even be read as a rules action.
    #[error("action {seq} is not a well-formed action: {reason}")]
    ActionSyntax {
        /// The action's seq.
        seq: u32,
        /// Why it cannot be read.
        reason: String,
    },
    /// The rules refuse one of the actions.
    #[error("action {seq} (seat {seat}: {action}) is illegal: {error}")]
    Rejected {
        /// The refused action's seq.
        seq: u32,
        /// The seat that played it.
        seat: Seat,
        /// The action refused.
        action: Action,
        /// Why the rules refuse it, naming the rule (R11.3).
        error: RuleError,
    },
    /// An action's recorded events are not what the rules say it did.
    #[error("the events of action {seq} differ: recorded {recorded}, replayed {replayed}")]
    EventsMismatch {
        /// The action's seq.
        seq: u32,
        /// The recorded events, as compact JSON.
        recorded: String,
        /// The events the rules produce, as compact JSON.
        replayed: String,
    },
    /// The actions stop before the game is over.
    #[error("the game is not over after its {actions} actions")]
    Unfinished {
        /// How many actions the replay holds.
        actions: usize,
    },
    /// The recorded result is not the one the actions lead to.
    #[error("the result differs: recorded {recorded}, replayed {replayed}")]
    ResultMismatch {
        /// The recorded result, as compact JSON.
        recorded: String,
        /// The result the actions lead to, as compact JSON.
        replayed: String,
    },
}

impl VerifyError {
    /// A stable short name of the failed check, e.g. `commitment_mismatch`.
    pub fn code(&self) -> &'static str {
        match self {
            VerifyError::Format { .. } => "format",
            VerifyError::Seats { .. } => "seats",
            VerifyError::NotTheCommitmentGiven { .. } => "not_the_commitment_given",
            VerifyError::CommitmentMismatch { .. } => "commitment_mismatch",
            VerifyError::Setup(_) => "setup",
            VerifyError::LayoutMismatch { .. } => "layout_mismatch",
            VerifyError::Sequence { .. } => "sequence",
            VerifyError::ActionSyntax { .. } => "action_syntax",
            VerifyError::Rejected { .. } => "illegal_action",
            VerifyError::EventsMismatch { .. } => "events_mismatch",
            VerifyError::Unfinished { .. } => "unfinished",
            VerifyError::ResultMismatch { .. } => "result_mismatch",
        }
    }
}

/// What a successful verification checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The game's id.
    pub game: String,
    /// The number of players (R2).
    pub players: u8,
    /// Who sat where, one entry per seat in seat order.
    pub seats: Vec<SeatName>,
    /// The commitment that the revealed seed and salt hash to.
    pub commitment: Commitment,
    /// True when the commitment was also compared with one the caller
    /// received at the start of the game.
    pub commitment_given: bool,
    /// The revealed seed, which deals the recorded layout (R2.5).
    pub seed: Seed,
    /// How many actions were replayed, all of them legal.
    pub actions: usize,
    /// How many events were compared, all of them equal.
    pub events: usize,
    /// Turns completed in the replayed game.
    pub turns: u32,
    /// The result the actions lead to, equal to the recorded one (R10.3,
    /// R10.4).
    pub result: GameResult,
    /// Why the server's operators ended the game, if they did.
    pub ended_by_operators: Option<String>,
}

impl fmt::Display for Report {
    /// The checks, one per line, as the `verify` command prints them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "game {} ({} players)", self.game, self.players)?;
        if self.commitment_given {
            writeln!(
                f,
                "ok  the commitment is the one given at the start: {}",
                self.commitment
            )?;
        }
        writeln!(
            f,
            "ok  SHA-256(salt || seed) equals the commitment {}",
            self.commitment
        )?;
        writeln!(f, "ok  the layout is the one dealt from seed {}", self.seed)?;
        writeln!(
            f,
            "ok  all {} actions are legal and their {} events match ({} turns)",
            self.actions, self.events, self.turns
        )?;
        writeln!(f, "ok  the result matches:")?;
        for standing in &self.result.ranking {
            let name = self
                .seats
                .get(usize::from(standing.seat))
                .map_or("?", |s| s.name.as_str());
            writeln!(
                f,
                "    {}. seat {} {}: {} points, {} cards",
                standing.rank, standing.seat, name, standing.points, standing.cards
            )?;
        }
        match self.result.end() {
            splendor_rules::End::Deadlock => writeln!(f, "    (ended by deadlock, R11.2)")?,
            splendor_rules::End::NoProgress => {
                writeln!(f, "    (ended after 25 rounds without progress, R11.6)")?
            }
            splendor_rules::End::Resigned => writeln!(f, "    (ended by resignations, R13.2)")?,
            splendor_rules::End::Deserted => {
                writeln!(f, "    (ended deserted, nobody in play connected, R12.6)")?
            }
            splendor_rules::End::Points | splendor_rules::End::Operators => {}
        }
        if let Some(reason) = &self.ended_by_operators {
            writeln!(
                f,
                "    (ended by the server's operators before its end, no winner: {reason})"
            )?;
        }
        Ok(())
    }
}

/// Checks a replay from first principles: the commitment, the deal, every
/// action through the rules, every event, the result.
pub fn verify(replay: &Replay) -> Result<Report, VerifyError> {
    check(replay, None)
}

/// Like [`verify`], and also checks that the replay's commitment is
/// `expected`, the one the player received when the game started.
pub fn verify_with_commitment(
    replay: &Replay,
    expected: &Commitment,
) -> Result<Report, VerifyError> {
    check(replay, Some(expected))
}

fn check(replay: &Replay, expected: Option<&Commitment>) -> Result<Report, VerifyError> {
    if replay.format != FORMAT {
        return Err(VerifyError::Format {
            found: replay.format.chars().take(80).collect(),
        });
    }
    if replay.seats.len() != usize::from(replay.players) || !seats_in_order(&replay.seats) {
        return Err(VerifyError::Seats {
            players: replay.players,
        });
    }
    if let Some(expected) = expected
        && *expected != replay.commitment
    {
        return Err(VerifyError::NotTheCommitmentGiven {
            recorded: replay.commitment,
            expected: *expected,
        });
    }
    let computed = Commitment::of(replay.seed, &replay.salt);
    if computed != replay.commitment {
        return Err(VerifyError::CommitmentMismatch {
            recorded: replay.commitment,
            computed,
        });
    }
    let bots = splendor_rules::bot_mask(replay.seats.iter().map(|s| s.bot.is_some()));
    let mut game = Game::new(replay.players, replay.options, replay.seed.0)
        .map_err(VerifyError::Setup)?
        .with_bots(bots);
    if let Some(part) = layout_difference(&replay.layout, &game.initial_layout()) {
        return Err(VerifyError::LayoutMismatch { part });
    }
    let mut events = 0;
    for (index, step) in replay.actions.iter().enumerate() {
        if usize::try_from(step.seq).ok() != Some(index) {
            return Err(VerifyError::Sequence {
                index,
                seq: step.seq,
            });
        }
        let action =
            Action::try_from(&step.action).map_err(|reason| VerifyError::ActionSyntax {
                seq: step.seq,
                reason: reason.0.to_string(),
            })?;
        let replayed: Vec<WireEvent> = game
            .apply(step.seat, action)
            .map_err(|error| VerifyError::Rejected {
                seq: step.seq,
                seat: step.seat,
                action,
                error,
            })?
            .iter()
            .map(wire_event)
            .collect();
        if replayed != step.events {
            return Err(VerifyError::EventsMismatch {
                seq: step.seq,
                recorded: json(&step.events),
                replayed: json(&replayed),
            });
        }
        events += step.events.len();
    }
    let result = match (&replay.ended_by_operators, replay.result.end()) {
        // Issue 22: the operators ended it; its standings, no winner.
        (Some(_), _) => crate::replay::ended_standings(&game),
        // R12.6: deserted where it stood (the server's ruling on time).
        (None, splendor_rules::End::Deserted) if !game.is_over() => game.deserted(),
        (None, _) => game.result().ok_or(VerifyError::Unfinished {
            actions: replay.actions.len(),
        })?,
    };
    // A result recorded before endings were says how it ended by what it
    // holds: judged as that.
    if !result.same_as(&replay.result) {
        return Err(VerifyError::ResultMismatch {
            recorded: json(&replay.result),
            replayed: json(&result),
        });
    }
    Ok(Report {
        game: replay.game.clone(),
        players: replay.players,
        seats: replay.seats.clone(),
        commitment: replay.commitment,
        commitment_given: expected.is_some(),
        seed: replay.seed,
        actions: replay.actions.len(),
        events,
        turns: game.turn(),
        result,
        ended_by_operators: replay.ended_by_operators.clone(),
    })
}

/// Which part of `recorded` is not as `dealt`, in words; `None` when equal.
fn layout_difference(recorded: &Layout, dealt: &Layout) -> Option<String> {
    if recorded.players != dealt.players {
        return Some("the player count".into());
    }
    for level in 0..3 {
        if recorded.decks[level] != dealt.decks[level] {
            return Some(format!("the level {} deck", level + 1));
        }
        if recorded.face_up[level] != dealt.face_up[level] {
            return Some(format!("the face-up cards of level {}", level + 1));
        }
    }
    if recorded.nobles != dealt.nobles {
        return Some("the nobles".into());
    }
    if recorded.first_seat != dealt.first_seat {
        return Some("the first seat".into());
    }
    None
}

/// Compact JSON of events or a result, for messages.
fn json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
