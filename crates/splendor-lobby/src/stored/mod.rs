//! The database behind the lobby (splendor-store): [`StorePersistence`]
//! keeps games as event logs, [`StoreSessions`] keeps sessions with only
//! their token hashes, and [`restore`] puts every unfinished game back into
//! a room when the server starts.
//!
//! What is stored for a game: at the start its options, seed, salt,
//! commitment and seats; then each accepted action as its wire JSON
//! (`WireAction`, exactly what `act` sends); at the end the rules'
//! result as JSON. Options and results go through types of their own
//! ([`format`](mod@format)). A game's state is never stored: it is always the replay of
//! its seed and log through the rules crate.

pub mod action;
pub mod chat;
pub mod format;
pub mod glance;

pub use action::{action_json, parse_action};

use splendor_replay::{By, Commitment, GameHeader, LoggedAction, Replay, Salt, SeatName, Seed};
use splendor_rules::Options;
use splendor_store::{
    ActionRecord, NewGame, SeatRecord, Store, StoreError, StoredGame, UnixMillis, unix_millis_now,
};

use crate::persist::{GameId, GameRecord, PersistError, Persistence, Stored, Write};
use crate::room::effect::Mover;
use crate::session::{BoxFuture, Session, SessionError, SessionId, SessionStore, SessionToken};

/// How a store failure reaches a room: the database being away or full is
/// [`Unavailable`](crate::PersistErrorKind::Unavailable) (the client may
/// retry); a log that already holds the action's place (an earlier write
/// that was reported failed did commit) is
/// [`Diverged`](crate::PersistErrorKind::Diverged) (the room reloads). A log
/// *behind* the room (`OutOfOrder`: the store lost actions) is a plain
/// failure: reloading it would take the game back and show everyone cards
/// that went back on top of their decks (R6.4).
fn persist_error(error: StoreError) -> PersistError {
    match error {
        e if e.is_transient() => PersistError::unavailable(e.to_string()),
        // The store closes only when the server stops.
        StoreError::Closed => PersistError::unavailable(StoreError::Closed.to_string()),
        e @ StoreError::DuplicateAction { .. } => PersistError::diverged(e.to_string()),
        e @ StoreError::Fenced { .. } => PersistError::fenced(e.to_string()),
        e => PersistError::failed(e.to_string()),
    }
}

/// The log of a stored game as the rules take it.
pub fn logged_actions(game: &StoredGame) -> Result<Vec<LoggedAction>, String> {
    game.actions
        .iter()
        .map(|a| {
            Ok(LoggedAction {
                seq: a.seq,
                seat: a.seat,
                at: a.at,
                action: parse_action(&a.action_json).map_err(|e| format!("seq {}: {e}", a.seq))?,
                by: match format::parse_meta_json(a.meta_json.as_deref())
                    .map_err(|e| format!("seq {}: {e}", a.seq))?
                    .0
                {
                    Mover::Person => None,
                    Mover::Bot => Some(By::Bot),
                    Mover::StandIn => Some(By::StandIn),
                    Mover::Hinted => Some(By::Hint),
                },
            })
        })
        .collect()
}

/// When the turn of `to_act` in progress began, by the log: the time of
/// the last action, or the game's start, leaving out resignations of other
/// seats (R13.1 lets anyone resign out of turn; that does not start a turn,
/// and the clocks stored with it still show the seat's time as of its
/// turn's start). A turn-based deadline (R12.5) counts from it.
pub(crate) fn turn_began(game: &StoredGame, to_act: u8) -> UnixMillis {
    game.actions
        .iter()
        .rev()
        .find(|a| a.seat == to_act || a.action_json != "\"resign\"")
        .map_or(game.created_at, |a| a.at)
}

/// The rules options of a stored game.
pub fn parse_options(game: &StoredGame) -> Result<Options, String> {
    format::parse_options_json(&game.options_json)
}

/// The complete replay of a finished game, built by replaying its log
/// through the rules. `None` while the game runs: its replay would reveal
/// the seed and every hidden card.
pub fn replay_of(game: &StoredGame) -> Option<Result<Replay, String>> {
    let finished = game.finished.as_ref()?;
    Some(build_replay(game, finished.finished_at))
}

fn build_replay(game: &StoredGame, finished_at: UnixMillis) -> Result<Replay, String> {
    let commitment: Commitment = game
        .commitment
        .parse()
        .map_err(|e: splendor_replay::HexError| e.to_string())?;
    let header = GameHeader {
        game: GameId(game.id).to_string(),
        room: game.room_code.clone(),
        started_at: game.created_at,
        options: parse_options(game)?,
        seats: game
            .seats
            .iter()
            .map(|s| SeatName {
                seat: s.seat,
                name: s.name.clone(),
                bot: s.bot.clone(),
                program_bot: s.program,
            })
            .collect(),
        seed: Seed(game.seed),
        salt: Salt(game.salt),
        commitment,
    };
    let log = logged_actions(game)?;
    let stored = game.finished.as_ref().map(|f| f.result_json.as_str());
    let ended = stored.and_then(format::ended_by_operators);
    let deserted = stored.is_some_and(format::ended_deserted);
    match ended {
        Some(reason) => Replay::build_ended(header, &log, finished_at, reason),
        None if deserted => Replay::build_deserted(header, &log, finished_at),
        None => Replay::build(header, &log, finished_at),
    }
    .map_err(|e| e.to_string())
}

/// Games kept in the database; every write resolves once it is committed.
#[derive(Clone, Debug)]
pub struct StorePersistence {
    store: Store,
}

impl StorePersistence {
    /// Games kept in `store`.
    pub fn new(store: Store) -> StorePersistence {
        StorePersistence { store }
    }
}

impl Persistence for StorePersistence {
    fn write(&self, write: Write) -> BoxFuture<'_, Result<Stored, PersistError>> {
        Box::pin(self.perform(write, None))
    }

    fn write_fenced(
        &self,
        write: Write,
        epoch: u64,
    ) -> BoxFuture<'_, Result<Stored, PersistError>> {
        Box::pin(self.perform(write, Some(epoch)))
    }
}

impl StorePersistence {
    /// `write`, fenced by the room's lease `fence` when there is one: a new
    /// game and an action are refused unless it is the room's current
    /// lease. A finish is not fenced: it follows from the log alone, and a
    /// second finish with the same result changes nothing.
    async fn perform(&self, write: Write, fence: Option<u64>) -> Result<Stored, PersistError> {
        {
            match write {
                Write::GameStarted(record) => self.game_started(record, fence).await,
                Write::ActionApplied {
                    game,
                    index,
                    seat,
                    action,
                    by,
                    clocks,
                } => {
                    let seq = u32::try_from(index).map_err(|_| {
                        PersistError::failed(format!("action {index} is beyond the log"))
                    })?;
                    let record = ActionRecord {
                        game_id: game.0,
                        seq,
                        seat,
                        action_json: action_json(action),
                        at: unix_millis_now(),
                        meta_json: format::meta_json(by, clocks.as_deref()),
                    };
                    match fence {
                        Some(epoch) => self.store.append_action_fenced(record, epoch).await,
                        None => self.store.append_action(record).await,
                    }
                    .map_err(persist_error)
                }
                Write::GameFinished { game, result } => {
                    let json = format::result_json(&result);
                    let places = format::places(&result);
                    self.store
                        .finish_game(game.0, &json, unix_millis_now(), &places)
                        .await
                        .map_err(persist_error)
                }
                Write::GameDeserted { game, result } => {
                    // R12.6: unrated, rating nobody; its ranking kept.
                    let json = format::result_json(&result);
                    self.store
                        .finish_game_unrated(game.0, &json, unix_millis_now())
                        .await
                        .map_err(persist_error)
                }
                Write::GameEnded {
                    game,
                    standings,
                    reason,
                } => {
                    let json = format::ended_result_json(&standings, &reason);
                    self.store
                        .end_game_by_operators(game.0, &json, unix_millis_now())
                        .await
                        .map_err(persist_error)
                }
                Write::Park {
                    game,
                    room,
                    deadline,
                    chat,
                    origin,
                } => {
                    // The deadline as a wall-clock time (R12.5).
                    let now = unix_millis_now();
                    let left = deadline.saturating_duration_since(std::time::Instant::now());
                    let at =
                        now.saturating_add(i64::try_from(left.as_millis()).unwrap_or(i64::MAX));
                    // The room's chat goes along (issue 23).
                    let chat = chat::chat_json(&chat);
                    self.store
                        .park_room_with_chat(
                            room.as_str(),
                            game.0,
                            (at, now),
                            fence,
                            chat.as_deref(),
                            origin.as_deref(),
                        )
                        .await
                        .map_err(persist_error)
                }
                Write::LoadLog { game } => {
                    let stored = self
                        .store
                        .game(game.0)
                        .await
                        .map_err(persist_error)?
                        .ok_or_else(|| {
                            PersistError::failed(format!("game {game} is not stored"))
                        })?;
                    let log = logged_actions(&stored).map_err(PersistError::failed)?;
                    return Ok(Stored::Log(
                        log.into_iter().map(|a| (a.seat, a.action)).collect(),
                    ));
                }
            }
            .map(|()| Stored::Done)
        }
    }

    /// The game's record, as the store keeps it.
    async fn game_started(
        &self,
        record: GameRecord,
        fence: Option<u64>,
    ) -> Result<(), PersistError> {
        let options_json = format::options_json(record.options);
        let seats = record
            .players
            .iter()
            .zip(&record.names)
            .enumerate()
            .map(|(seat, (session, name))| SeatRecord {
                seat: seat as u8,
                session_id: splendor_store::SessionId(session.0),
                name: name.clone(),
                bot: record
                    .bots
                    .get(seat)
                    .copied()
                    .flatten()
                    .map(|level| level.name().to_owned()),
                program: record.programs.get(seat).copied().unwrap_or(false),
            })
            .collect();
        let game = NewGame {
            id: record.game.0,
            room_code: record.room.to_string(),
            players: record.players.len() as u8,
            options_json,
            seed: record.seed,
            salt: record.salt.0,
            commitment: record.commitment.to_string(),
            seats,
            created_at: unix_millis_now(),
            clock_json: record.clock.map(format::clock_json),
            listed: record.listed,
            rated: record.rated,
        };
        match fence {
            Some(epoch) => self.store.create_game_fenced(game, epoch).await,
            None => self.store.create_game(game).await,
        }
        .map_err(persist_error)
    }
}

/// Sessions kept in the database, tokens only as their SHA-256.
#[derive(Clone, Debug)]
pub struct StoreSessions {
    store: Store,
}

impl StoreSessions {
    /// Sessions kept in `store`.
    pub fn new(store: Store) -> StoreSessions {
        StoreSessions { store }
    }
}

fn session_error(error: StoreError) -> SessionError {
    if let StoreError::TooManySessions {
        cap,
        retry_after_ms,
    } = error
    {
        return SessionError::TooMany {
            cap,
            retry_after: std::time::Duration::from_millis(retry_after_ms),
        };
    }
    if error.is_transient() || matches!(error, StoreError::Closed) {
        SessionError::Unavailable(error.to_string())
    } else {
        SessionError::Store(error.to_string())
    }
}

impl SessionStore for StoreSessions {
    fn create_from<'a>(
        &'a self,
        name: &'a str,
        origin: Option<&'a crate::session::SessionOrigin>,
    ) -> BoxFuture<'a, Result<(Session, SessionToken), SessionError>> {
        Box::pin(async move {
            let origin = origin.map(|o| splendor_store::SessionOrigin {
                client: o.client.clone(),
                per_hour: o.per_hour,
            });
            let (id, token) = self
                .store
                .create_session_from(name, unix_millis_now(), origin.as_ref())
                .await
                .map_err(session_error)?;
            let session = Session {
                id: SessionId(id.0),
                name: name.to_owned(),
                program: false,
            };
            Ok((session, SessionToken::issued(token.into_string())))
        })
    }

    fn resume<'a>(
        &'a self,
        token: &'a str,
    ) -> BoxFuture<'a, Result<Option<Session>, SessionError>> {
        Box::pin(async move {
            let found = self
                .store
                .session_by_token(token)
                .await
                .map_err(session_error)?;
            if let Some(session) = &found {
                // Seen now: its lifetime starts again (a failure here only
                // shortens it, so it does not refuse the resume).
                if let Err(e) = self
                    .store
                    .touch_sessions(vec![session.id], unix_millis_now())
                    .await
                {
                    tracing::warn!(error = %e, "could not record a resumed session as seen");
                }
            }
            Ok(found.map(|s| Session {
                id: SessionId(s.id.0),
                name: s.name,
                program: s.bot,
            }))
        })
    }

    fn rename<'a>(
        &'a self,
        id: SessionId,
        name: &'a str,
    ) -> BoxFuture<'a, Result<(), SessionError>> {
        Box::pin(async move {
            self.store
                .rename_session(splendor_store::SessionId(id.0), name)
                .await
                .map_err(session_error)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use splendor_rules::Action;

    #[test]
    fn stored_actions_are_their_wire_json_and_read_back() {
        let action = Action::Buy {
            card: splendor_rules::CardId(17),
            gold: None,
        };
        let json = action_json(action);
        assert_eq!(json, r#"{"buy":17}"#);
        assert_eq!(parse_action(&json), Ok(action));
        assert!(parse_action(r#"{"steal":1}"#).is_err());
        assert!(
            parse_action(r#"{"take":["red","red"]}"#)
                .unwrap_err()
                .contains("twice")
        );
    }
}

#[cfg(test)]
mod turn_tests {
    use super::*;
    use splendor_store::{StoredAction, StoredGame};

    fn action(seq: u32, seat: u8, json: &str, at: i64) -> StoredAction {
        StoredAction {
            seq,
            seat,
            action_json: json.to_owned(),
            at,
            meta_json: None,
        }
    }

    /// R12.5 with R13.1: a resignation out of turn starts no turn.
    #[test]
    fn a_turn_begins_at_the_last_action_but_another_seats_resignation() {
        let mut game = StoredGame {
            id: uuid::Uuid::nil(),
            room_code: "ABCDE".into(),
            players: 3,
            options_json: "{}".into(),
            seed: 1,
            salt: [0; 32],
            commitment: String::new(),
            created_at: 1_000,
            clock_json: None,
            listed: false,
            rated: false,
            seats: Vec::new(),
            actions: Vec::new(),
            finished: None,
        };
        assert_eq!(turn_began(&game, 0), 1_000, "the start");
        game.actions = vec![
            action(0, 0, r#"{"take":["red","blue","green"]}"#, 5_000),
            action(1, 2, r#""resign""#, 9_000),
        ];
        assert_eq!(
            turn_began(&game, 1),
            5_000,
            "seat 2 resigned during seat 1's turn"
        );
        game.actions.push(action(2, 1, r#""resign""#, 12_000));
        assert_eq!(turn_began(&game, 1), 12_000, "its own resignation counts");
    }
}
