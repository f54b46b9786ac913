//! The replay document, and how one is built from a game's log.

use serde::{Deserialize, Serialize};
use splendor_protocol::view::wire_event;
use splendor_protocol::{WireAction, WireEvent};
use splendor_rules::{Action, Game, GameResult, Layout, Options, RuleError, Seat};

use crate::commit::{Commitment, Salt, Seed};

/// The value of [`Replay::format`] this crate writes and reads.
pub const FORMAT: &str = "splendor-replay/1";

/// A finished game, complete: everything needed to check it without the server.
///
/// Nothing in it is redacted (blind reserves show their card, the seed and
/// salt are revealed), so a server hands it out only once the game is over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    /// Always [`FORMAT`]; a later format would have another value.
    pub format: String,
    /// The game's id.
    pub game: String,
    /// The room code it was played in.
    pub room: String,
    /// When it started, in Unix milliseconds.
    pub started_at: i64,
    /// When it ended, in Unix milliseconds.
    pub finished_at: i64,
    /// The number of players (2 to 4, R2).
    pub players: u8,
    /// The rules options the game was set up with.
    pub options: Options,
    /// Who sat where, one entry per seat in seat order.
    pub seats: Vec<SeatName>,
    /// What every player received at the start: `SHA-256(salt || seed)`.
    pub commitment: Commitment,
    /// The seed of every shuffle (R2.5), revealed.
    pub seed: Seed,
    /// The salt of the commitment, revealed.
    pub salt: Salt,
    /// The starting position the seed gave: decks (top card first),
    /// face-up cards, nobles and first seat.
    pub layout: Layout,
    /// Every accepted action in order, with what it did.
    pub actions: Vec<Step>,
    /// The final ranking (R10.3, R10.4); for a game the operators ended,
    /// the standings it stopped at, with no winner.
    pub result: GameResult,
    /// The server's operators ended the game before its end, for this
    /// reason (issue 22): its last action is not a final one, and
    /// `result` is the standings of the position it stopped at, no
    /// winner. Absent for a game played to its end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_by_operators: Option<String>,
}

/// A seat and the name of the player in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatName {
    /// The seat number, in turn order.
    pub seat: Seat,
    /// The display name of the player in the seat.
    pub name: String,
    /// The level of the built-in bot that held the seat; absent for a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// True when a program played for the seat's player (issue 24: a
    /// session that said `"bot":true` in `hello`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub program_bot: bool,
}

/// One accepted action and its events, unredacted, in the wire forms of
/// docs/PROTOCOL.md (the action as `act` sends it, the events as `events`
/// messages carry them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The action's place in the log, from 0.
    pub seq: u32,
    /// The seat that played it.
    pub seat: Seat,
    /// When it was accepted, in Unix milliseconds.
    pub at: i64,
    /// The action as `act` sends it.
    pub action: WireAction,
    /// Who made it when not the seat's player alone: `bot` (the built-in
    /// bot that held the seat), `stand_in` (for a player out of time,
    /// R12.4) or `hint` (the player, after a practice hint, issue 26).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<By>,
    /// What it did, in order, as the rules reported it, nothing hidden.
    pub events: Vec<WireEvent>,
}

/// Who made an action that its seat's player did not make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum By {
    /// The built-in bot that held the seat.
    Bot,
    /// The stand-in of a player out of time or away (R12.2, R12.3).
    StandIn,
    /// The seat's player, after asking for a practice hint at that
    /// position (issue 26).
    Hint,
}

/// One entry of a game's log: what the server stores for each accepted action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoggedAction {
    /// The action's place in the log, from 0.
    pub seq: u32,
    /// The seat that played it.
    pub seat: Seat,
    /// When it was accepted, in Unix milliseconds.
    pub at: i64,
    /// The action, as the rules crate takes it.
    pub action: Action,
    /// Who made it, when not the seat's player (R12.4).
    pub by: Option<By>,
}

/// A log that does not play back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LogError {
    /// The game cannot be set up (a player count outside 2 to 4).
    #[error("the game cannot be set up: {0}")]
    Setup(#[from] splendor_rules::SetupError),
    /// The log skips or repeats a place.
    #[error("log entry {index} has seq {seq}; the log must number its actions 0, 1, 2, ...")]
    Sequence {
        /// The entry's position in the log.
        index: usize,
        /// The seq the entry carries instead of its position.
        seq: u32,
    },
    /// The rules refuse an action of the log.
    #[error("action {seq} ({action}, seat {seat}) is refused by the rules: {error}")]
    Rejected {
        /// The refused entry's place in the log.
        seq: u32,
        /// The seat that played it.
        seat: Seat,
        /// The action refused.
        action: Action,
        /// Why the rules refuse it, naming the rule (R11.3).
        error: RuleError,
    },
}

/// Plays `log` on `game` in order, calling `on_step` with each entry and the
/// events it caused. Stops at the first entry that does not play.
pub fn play_log<'a>(
    game: &mut Game,
    log: impl IntoIterator<Item = &'a LoggedAction>,
    mut on_step: impl FnMut(&LoggedAction, &splendor_rules::Events),
) -> Result<(), LogError> {
    for (index, entry) in log.into_iter().enumerate() {
        if usize::try_from(entry.seq).ok() != Some(index) {
            return Err(LogError::Sequence {
                index,
                seq: entry.seq,
            });
        }
        let events = game
            .apply(entry.seat, entry.action)
            .map_err(|error| LogError::Rejected {
                seq: entry.seq,
                seat: entry.seat,
                action: entry.action,
                error,
            })?;
        on_step(entry, &events);
    }
    Ok(())
}

/// The game that `log` leads to from the seeded setup, `bots` (a bit per
/// seat, [`splendor_rules::bot_mask`]) held by built-in bots (R13.2): how
/// a server restores a game after a restart (the log is the source of
/// truth).
pub fn rebuild(
    players: u8,
    bots: u8,
    options: Options,
    seed: Seed,
    log: &[LoggedAction],
) -> Result<Game, LogError> {
    let mut game = Game::new(players, options, seed.0)?.with_bots(bots);
    play_log(&mut game, log, |_, _| {})?;
    Ok(game)
}

/// What a replay is built from, besides the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameHeader {
    /// The game's id.
    pub game: String,
    /// The room code it was played in.
    pub room: String,
    /// When it started, in Unix milliseconds.
    pub started_at: i64,
    /// The rules options the game was set up with.
    pub options: Options,
    /// One per player, in seat order.
    pub seats: Vec<SeatName>,
    /// The seed of every shuffle (R2.5).
    pub seed: Seed,
    /// The salt of the commitment.
    pub salt: Salt,
    /// The commitment the players received at the start, as recorded. The
    /// replay carries this one, not one computed here, so that
    /// [`verify`](crate::verify) checks what the players were actually given.
    pub commitment: Commitment,
}

/// A replay that cannot be built from a log.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// The seats are not numbered 0, 1, ... in order.
    #[error("the seats must be numbered 0 to players - 1 in order")]
    Seats,
    /// The log does not play back.
    #[error(transparent)]
    Log(#[from] LogError),
    /// The log stops before the game is over: there is no replay of a
    /// running game.
    #[error("the game is not over after its {actions} actions")]
    Unfinished {
        /// How many actions the log holds.
        actions: usize,
    },
}

impl Replay {
    /// The replay of a finished game, from its header and its whole log:
    /// the layout, events and result are computed by the rules.
    pub fn build(
        header: GameHeader,
        log: &[LoggedAction],
        finished_at: i64,
    ) -> Result<Replay, BuildError> {
        Replay::build_with(header, log, finished_at, Ending::Played)
    }

    /// The replay of a game the server's operators ended before its end
    /// (issue 22), for `reason`: its result is the standings its log
    /// leads to, with no winner.
    pub fn build_ended(
        header: GameHeader,
        log: &[LoggedAction],
        finished_at: i64,
        reason: String,
    ) -> Result<Replay, BuildError> {
        Replay::build_with(header, log, finished_at, Ending::Operators(reason))
    }

    /// The replay of a game that ended deserted (R12.6: nobody in play
    /// connected for 2 minutes): its result is the ranking where its log
    /// stops, `"end":"deserted"`.
    pub fn build_deserted(
        header: GameHeader,
        log: &[LoggedAction],
        finished_at: i64,
    ) -> Result<Replay, BuildError> {
        Replay::build_with(header, log, finished_at, Ending::Deserted)
    }

    fn build_with(
        header: GameHeader,
        log: &[LoggedAction],
        finished_at: i64,
        ending: Ending,
    ) -> Result<Replay, BuildError> {
        if !seats_in_order(&header.seats) {
            return Err(BuildError::Seats);
        }
        let players = u8::try_from(header.seats.len()).map_err(|_| BuildError::Seats)?;
        let bots = splendor_rules::bot_mask(header.seats.iter().map(|s| s.bot.is_some()));
        let mut game = Game::new(players, header.options, header.seed.0)
            .map_err(LogError::from)?
            .with_bots(bots);
        let layout = game.initial_layout();
        let mut actions = Vec::with_capacity(log.len());
        play_log(&mut game, log, |entry, events| {
            actions.push(Step {
                seq: entry.seq,
                seat: entry.seat,
                at: entry.at,
                action: WireAction::from(entry.action),
                by: entry.by,
                events: events.iter().map(wire_event).collect(),
            });
        })?;
        let (result, ended_by_operators) = match ending {
            Ending::Played => (
                game.result()
                    .ok_or(BuildError::Unfinished { actions: log.len() })?,
                None,
            ),
            Ending::Operators(reason) => (ended_standings(&game), Some(reason)),
            // R12.6: where the log stops (a game over by then ended so).
            Ending::Deserted => (game.result().unwrap_or_else(|| game.deserted()), None),
        };
        Ok(Replay {
            format: FORMAT.to_owned(),
            game: header.game,
            room: header.room,
            started_at: header.started_at,
            finished_at,
            players,
            options: header.options,
            seats: header.seats,
            commitment: header.commitment,
            seed: header.seed,
            salt: header.salt,
            layout,
            actions,
            result,
            ended_by_operators,
        })
    }

    /// Reads a replay from its JSON text.
    pub fn from_json(text: &str) -> Result<Replay, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The replay as indented JSON text.
    pub fn to_json_pretty(&self) -> String {
        // Plain data with string keys: serialising cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// How a game whose replay is built ended.
enum Ending {
    /// By the rules.
    Played,
    /// The operators ended it, for this reason.
    Operators(String),
    /// Deserted (R12.6).
    Deserted,
}

/// The result of a game the operators ended where `game` stands: its
/// standings (R10.3, R10.4, R13.1), no winner.
pub(crate) fn ended_standings(game: &Game) -> GameResult {
    let mut result = game.standings();
    result.winners.clear();
    result.end = Some(splendor_rules::End::Operators);
    result
}

/// True when the seats are numbered 0, 1, 2, ... in order.
pub(crate) fn seats_in_order(seats: &[SeatName]) -> bool {
    seats
        .iter()
        .enumerate()
        .all(|(i, s)| usize::from(s.seat) == i)
}
