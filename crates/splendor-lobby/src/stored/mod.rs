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
pub mod format;

pub use action::{action_json, parse_action};

use std::time::Duration;

use splendor_replay::{
    By, Commitment, GameHeader, LoggedAction, Replay, Salt, SeatName, Seed, play_log,
};
use splendor_rules::Options;
use splendor_store::{
    ActionRecord, NewGame, SeatRecord, Store, StoreError, StoredGame, UnixMillis, unix_millis_now,
};
use tracing::{debug, error, info};

use crate::code::RoomCode;
use crate::lobby::Lobby;
use crate::persist::{GameId, GameRecord, PersistError, Persistence, Stored, Write};
use crate::room::RestoredGame;
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
                },
            })
        })
        .collect()
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
            })
            .collect(),
        seed: Seed(game.seed),
        salt: Salt(game.salt),
        commitment,
    };
    Replay::build(header, &logged_actions(game)?, finished_at).map_err(|e| e.to_string())
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
    if error.is_transient() || matches!(error, StoreError::Closed) {
        SessionError::Unavailable(error.to_string())
    } else {
        SessionError::Store(error.to_string())
    }
}

impl SessionStore for StoreSessions {
    fn create<'a>(
        &'a self,
        name: &'a str,
    ) -> BoxFuture<'a, Result<(Session, SessionToken), SessionError>> {
        Box::pin(async move {
            let (id, token) = self
                .store
                .create_session(name, unix_millis_now())
                .await
                .map_err(session_error)?;
            let session = Session {
                id: SessionId(id.0),
                name: name.to_owned(),
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

/// What [`restore`] did with the games it found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RestoreSummary {
    /// Games put back into rooms.
    pub restored: usize,
    /// Finished games put back into rooms for the rest of their viewing
    /// time: their players get the room, the final state and the result.
    pub viewable: usize,
    /// Games whose log already ended the game (only the result was
    /// missing) too long ago to be viewed: their result was stored, no
    /// room was opened.
    pub finished: usize,
    /// Games nobody played for longer than the abandoned-game time: left
    /// as they are in the database, not reopened.
    pub abandoned: usize,
    /// Games that could not be restored (logged as errors).
    pub failed: usize,
    /// Games another node of the cluster runs (issue 21): left to it.
    pub elsewhere: usize,
}

/// Puts every unfinished game of `store` back into a room of `lobby`, by
/// replaying its log through the rules, and every game that finished less
/// than the finished-room viewing time ago into a finished room for the
/// rest of that time. Newest first, so that if two games share a room code
/// the newer one gets it. A game that cannot be restored is logged and
/// skipped; only failing to read the database is an error.
pub async fn restore(lobby: &Lobby, store: &Store) -> Result<RestoreSummary, StoreError> {
    let now = unix_millis_now();
    let viewing = i64::try_from(lobby.config().finished_room_ttl.as_millis()).unwrap_or(i64::MAX);
    let games = store.games_to_restore(now.saturating_sub(viewing)).await?;
    let abandoned_after = lobby.config().abandoned_game_ttl;
    let mut summary = RestoreSummary::default();
    for game in games.iter().rev() {
        let id = GameId(game.id);
        let last_activity = game.actions.last().map_or(game.created_at, |a| a.at);
        let abandoned = idle_longer_than(now, last_activity, abandoned_after);
        match restore_one(lobby, store, game, abandoned).await {
            Ok(Restored::Abandoned) => {
                info!(game = %id, room = %game.room_code, "not restoring an abandoned game");
                summary.abandoned += 1;
            }
            Ok(Restored::Room) => {
                info!(game = %id, room = %game.room_code, actions = game.actions.len(), "game restored");
                summary.restored += 1;
            }
            Ok(Restored::Finished) => {
                info!(game = %id, "game was over; its result is now stored");
                summary.finished += 1;
            }
            Ok(Restored::Viewable) => {
                info!(game = %id, room = %game.room_code, "finished game restored for viewing");
                summary.viewable += 1;
            }
            Ok(Restored::Elsewhere) => {
                debug!(game = %id, room = %game.room_code, "another node runs this game");
                summary.elsewhere += 1;
            }
            Ok(Restored::Superseded) => {
                info!(game = %id, room = %game.room_code, "finished game not restored: a newer game has its room code");
            }
            Err(why) => {
                error!(game = %id, room = %game.room_code, error = %why, "cannot restore a game");
                summary.failed += 1;
            }
        }
    }
    Ok(summary)
}

/// Takes over the unfinished games no live lease holds (issue 21): their
/// owner died, paused past its lease or was cut off from the database.
/// Each is restored into a room of `lobby` exactly as at a start (the log
/// replayed, the clocks from the banks the last stored action left); the
/// claim of its code decides which node gets it when several try at once.
/// Games that are not to be reopened (abandoned, or their result stored
/// now) are remembered in `settled` and not looked at again. Returns the
/// codes of the rooms this lobby runs now.
pub async fn take_over_orphans(
    lobby: &Lobby,
    store: &Store,
    settled: &mut std::collections::HashSet<uuid::Uuid>,
) -> Result<Vec<RoomCode>, StoreError> {
    let now = unix_millis_now();
    let abandoned_after = lobby.config().abandoned_game_ttl;
    let mut taken = Vec::new();
    for id in store.orphaned_games().await? {
        if settled.contains(&id) {
            continue;
        }
        let Some(game) = store.game(id).await? else {
            continue;
        };
        let last_activity = game.actions.last().map_or(game.created_at, |a| a.at);
        let abandoned = idle_longer_than(now, last_activity, abandoned_after);
        match restore_one(lobby, store, &game, abandoned).await {
            Ok(Restored::Room | Restored::Viewable) => {
                info!(game = %id, room = %game.room_code, actions = game.actions.len(), "took the game over");
                taken.extend(RoomCode::parse(&game.room_code));
            }
            // Another node was quicker: nothing to do.
            Ok(Restored::Elsewhere) => {}
            Ok(Restored::Abandoned | Restored::Finished | Restored::Superseded) => {
                settled.insert(id);
            }
            Err(why) => {
                error!(game = %id, room = %game.room_code, error = %why, "cannot take a game over");
                settled.insert(id);
            }
        }
    }
    Ok(taken)
}

fn idle_longer_than(now: UnixMillis, since: UnixMillis, limit: Duration) -> bool {
    let limit = i64::try_from(limit.as_millis()).unwrap_or(i64::MAX);
    now.saturating_sub(since) > limit
}

enum Restored {
    Room,
    Viewable,
    Finished,
    Abandoned,
    /// A finished game whose room code a newer game holds.
    Superseded,
    /// Another node of the cluster runs it.
    Elsewhere,
}

/// Restores one game, or only stores its result when its log already ended
/// it. An `abandoned` game is not reopened, but its result is still stored
/// if it is over: a game whose result could not be stored when it ended
/// must not stay unfinished (and without a replay) just because the server
/// restarted long after.
async fn restore_one(
    lobby: &Lobby,
    store: &Store,
    stored: &StoredGame,
    abandoned: bool,
) -> Result<Restored, String> {
    let code = RoomCode::parse(&stored.room_code)
        .ok_or_else(|| format!("{:?} is not a room code", stored.room_code))?;
    let options = parse_options(stored)?;
    let log = logged_actions(stored)?;
    let salt = Salt(stored.salt);
    let seed = Seed(stored.seed);
    let commitment = Commitment::of(seed, &salt);
    if commitment.to_string() != stored.commitment {
        return Err(format!(
            "the stored commitment {} is not SHA-256(salt || seed) = {commitment}",
            stored.commitment
        ));
    }
    if !stored
        .seats
        .iter()
        .enumerate()
        .all(|(i, s)| usize::from(s.seat) == i)
    {
        return Err("the seats are not numbered 0 to players - 1".into());
    }
    // The game and every action's events (the `history` joiners get).
    let mut game =
        splendor_rules::Game::new(stored.players, options, seed.0).map_err(|e| e.to_string())?;
    let mut history = Vec::with_capacity(log.len());
    play_log(&mut game, &log, |entry, events| {
        let by = match entry.by {
            None => Mover::Person,
            Some(By::Bot) => Mover::Bot,
            Some(By::StandIn) => Mover::StandIn,
        };
        history.push((by, *events));
    })
    .map_err(|e| e.to_string())?;
    let mut finished_ago = None;
    if let Some(result) = game.result() {
        let finished_at = match &stored.finished {
            Some(finished) => finished.finished_at,
            None => {
                let json = format::result_json(&result);
                let finished_at = log.last().map_or(stored.created_at, |a| a.at);
                store
                    .finish_game(stored.id, &json, finished_at, &format::places(&result))
                    .await
                    .map_err(|e| format!("storing its result: {e}"))?;
                finished_at
            }
        };
        // Viewable for the rest of its viewing time (PROTOCOL.md `result`).
        let ago = Duration::from_millis(
            u64::try_from(unix_millis_now().saturating_sub(finished_at)).unwrap_or(0),
        );
        if ago >= lobby.config().finished_room_ttl {
            return Ok(Restored::Finished);
        }
        if lobby.find(&stored.room_code).is_ok() {
            return Ok(Restored::Superseded);
        }
        finished_ago = Some(ago);
    } else if abandoned {
        return Ok(Restored::Abandoned);
    }
    let players = stored
        .seats
        .iter()
        .map(|s| Session {
            id: SessionId(s.session_id.0),
            name: s.name.clone(),
        })
        .collect();
    let bots = stored
        .seats
        .iter()
        .map(|s| s.bot.as_deref().map(str::parse).transpose())
        .collect::<Result<Vec<Option<splendor_ai::Level>>, _>>()
        .map_err(|e| format!("seat of a bot: {e}"))?;
    let clock = stored
        .clock_json
        .as_deref()
        .map(format::parse_clock_json)
        .transpose()?;
    let mut clocks = None;
    let mut stand_in_actions = Vec::new();
    for (index, action) in stored.actions.iter().enumerate() {
        let (by, after) = format::parse_meta_json(action.meta_json.as_deref())?;
        if by == Mover::StandIn {
            stand_in_actions.push(index as u64);
        }
        if after.is_some() {
            clocks = after;
        }
    }
    let restored = RestoredGame {
        id: GameId(stored.id),
        code,
        seed: stored.seed,
        salt,
        options,
        players,
        bots,
        clock,
        clocks,
        stand_in_actions,
        finished_ago,
        listed: stored.listed,
        rated: stored.rated,
        history,
        game,
        version: log.len() as u64,
    };
    match lobby.restore(restored).await {
        Ok(_) => {}
        // Another node runs it under a live lease (a cluster, issue 21).
        Err(crate::RestoreError::CodeInUse(_))
            if matches!(lobby.locate(code).await, crate::Location::Elsewhere(_)) =>
        {
            return Ok(Restored::Elsewhere);
        }
        Err(e) => return Err(e.to_string()),
    }
    Ok(if finished_ago.is_some() {
        Restored::Viewable
    } else {
        Restored::Room
    })
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

    #[test]
    fn idleness_is_measured_in_milliseconds_without_overflow() {
        let hour = Duration::from_secs(3600);
        assert!(!idle_longer_than(10_000_000, 10_000_000 - 3_600_000, hour));
        assert!(idle_longer_than(10_000_000, 10_000_000 - 3_600_001, hour));
        assert!(!idle_longer_than(i64::MIN, i64::MAX, hour));
        assert!(!idle_longer_than(i64::MAX, i64::MIN, Duration::MAX));
    }
}
