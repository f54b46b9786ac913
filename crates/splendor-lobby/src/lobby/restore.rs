//! Games back into rooms from the database: at a start (every unfinished
//! game, and the finished ones still viewable), and in a cluster when a
//! node takes over the games whose owner is gone (issue 21).

use std::time::Duration;

use splendor_replay::{Commitment, Salt, Seed};
use splendor_store::{Store, StoreError, StoredGame, UnixMillis, unix_millis_now};
use tracing::{debug, error, info};

use splendor_replay::{By, play_log};

use crate::code::RoomCode;
use crate::lobby::Lobby;
use crate::persist::GameId;
use crate::room::RestoredGame;
use crate::room::clock::{ClockOptions, SeatClock};
use crate::room::effect::Mover;
use crate::session::{Session, SessionId};
use crate::stored::{format, logged_actions, parse_options};

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
        match restore_one(lobby, store, game, Reopening::at_start(abandoned)).await {
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
            Ok(Restored::Busy) => {
                error!(game = %id, room = %game.room_code, "cannot restore a game: its code is in use");
                summary.failed += 1;
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
        match restore_one(lobby, store, &game, Reopening::at_start(abandoned)).await {
            Ok(Restored::Room | Restored::Viewable) => {
                info!(game = %id, room = %game.room_code, actions = game.actions.len(), "took the game over");
                taken.extend(RoomCode::parse(&game.room_code));
            }
            // Another node was quicker, or its old room still closes here:
            // nothing to do now.
            Ok(Restored::Elsewhere | Restored::Busy) => {}
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

/// R12.5 after a restart: the deadline of the turn in progress is a wall-
/// clock time (when the last action was accepted, or the game started,
/// plus what was left of that seat's turn); what is left of it now is the
/// seat's bank. A deadline that passed while no server ran the game gives
/// the player one more hour from now (`grace`); one a running server saw
/// pass (a parked game's, issue 25) passes now.
fn per_move_deadline(
    options: ClockOptions,
    mut seats: Vec<SeatClock>,
    players: usize,
    to_act: usize,
    last_at: UnixMillis,
    now: UnixMillis,
    grace: bool,
) -> Vec<SeatClock> {
    let time = options.clock.bank();
    seats.resize(
        players,
        SeatClock {
            bank: time,
            stand_in: false,
        },
    );
    if let Some(seat) = seats.get_mut(to_act) {
        let left = i64::try_from(seat.bank.as_millis()).unwrap_or(i64::MAX);
        let deadline = last_at.saturating_add(left);
        seat.bank = if deadline > now {
            Duration::from_millis(u64::try_from(deadline - now).unwrap_or(0))
        } else if grace {
            RESTART_GRACE
        } else {
            Duration::ZERO
        };
    }
    seats
}

/// R12.5: one more hour for a deadline that passed while no server ran the
/// game.
pub(crate) const RESTART_GRACE: Duration = Duration::from_secs(60 * 60);

fn idle_longer_than(now: UnixMillis, since: UnixMillis, limit: Duration) -> bool {
    let limit = i64::try_from(limit.as_millis()).unwrap_or(i64::MAX);
    now.saturating_sub(since) > limit
}

pub(super) enum Restored {
    Room,
    Viewable,
    Finished,
    Abandoned,
    /// A finished game whose room code a newer game holds.
    Superseded,
    /// Another node of the cluster runs it.
    Elsewhere,
    /// Its code is still claimed here by a room that is closing (a parked
    /// game's own room, issue 25): try again in a moment.
    Busy,
}

/// How a stored game is reopened.
pub(super) struct Reopening {
    /// Its players were all away longer than the abandoned-game TTL: it is
    /// not reopened (a turn-based game always is, R12.5), but its result is
    /// still stored if it is over.
    pub(super) abandoned: bool,
    /// A deadline of a turn-based game that passed while no server ran it
    /// gives one more hour ([`RESTART_GRACE`]); one a running server saw
    /// pass (a parked game's) passes now.
    pub(super) grace: bool,
    /// The chat kept with a parked game, for the room to keep again.
    pub(super) chat: Vec<(SessionId, splendor_protocol::ChatInfo)>,
}

impl Reopening {
    /// At start-up, or when a node takes a game over.
    fn at_start(abandoned: bool) -> Reopening {
        Reopening {
            abandoned,
            grace: true,
            chat: Vec::new(),
        }
    }
}

/// Restores one game, or only stores its result when its log already ended
/// it. An abandoned game is not reopened, but its result is still stored
/// if it is over: a game whose result could not be stored when it ended
/// must not stay unfinished (and without a replay) just because the server
/// restarted long after.
pub(super) async fn restore_one(
    lobby: &Lobby,
    store: &Store,
    stored: &StoredGame,
    reopening: Reopening,
) -> Result<Restored, String> {
    let Reopening {
        abandoned,
        grace,
        chat,
    } = reopening;
    let code = RoomCode::parse(&stored.room_code)
        .ok_or_else(|| format!("{:?} is not a room code", stored.room_code))?;
    let options = parse_options(stored)?;
    let clock = stored
        .clock_json
        .as_deref()
        .map(format::parse_clock_json)
        .transpose()?;
    // R12.5: a turn-based game waits for its players as long as it takes.
    let abandoned = abandoned && !clock.is_some_and(|c| c.clock.is_per_move());
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
    let bots = splendor_rules::bot_mask(stored.seats.iter().map(|s| s.bot.is_some()));
    let mut game = splendor_rules::Game::new(stored.players, options, seed.0)
        .map_err(|e| e.to_string())?
        .with_bots(bots);
    let mut history = Vec::with_capacity(log.len());
    play_log(&mut game, &log, |entry, events| {
        let by = match entry.by {
            None => Mover::Person,
            Some(By::Bot) => Mover::Bot,
            Some(By::StandIn) => Mover::StandIn,
            Some(By::Hint) => Mover::Hinted,
        };
        history.push((by, *events));
    })
    .map_err(|e| e.to_string())?;
    let mut finished_ago = None;
    // A game the store has finished before its end by the rules (the
    // operators ended it, or it was deserted, R12.6): its room closed when
    // it ended; it is not played on.
    if game.result().is_none() && stored.finished.is_some() {
        return Ok(Restored::Finished);
    }
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
            program: s.program,
        })
        .collect();
    let bots = stored
        .seats
        .iter()
        .map(|s| s.bot.as_deref().map(str::parse).transpose())
        .collect::<Result<Vec<Option<splendor_ai::Level>>, _>>()
        .map_err(|e| format!("seat of a bot: {e}"))?;
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
    if let Some(options) = clock.filter(|c| c.clock.is_per_move())
        && let Some(seat) = game.to_act()
    {
        let last_at = crate::stored::turn_began(stored, seat);
        clocks = Some(per_move_deadline(
            options,
            clocks.unwrap_or_default(),
            stored.seats.len(),
            usize::from(seat),
            last_at,
            unix_millis_now(),
            grace,
        ));
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
        chat,
    };
    match lobby.restore(restored).await {
        Ok(_) => {}
        // Another node runs it under a live lease (a cluster, issue 21).
        Err(crate::RestoreError::CodeInUse(_)) => {
            return Ok(match lobby.locate(code).await {
                crate::Location::Elsewhere(_) => Restored::Elsewhere,
                _ if lobby.find_code(code).is_none() => Restored::Busy,
                _ => return Err(format!("room code {code} is in use here")),
            });
        }
        // The directory could not be asked, or this node's own lease had
        // lapsed (issue 44: it claims nothing then): another round.
        Err(crate::RestoreError::Directory(why)) => {
            tracing::warn!(room = %code, %why, "cannot claim the room now; trying again");
            return Ok(Restored::Busy);
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

    fn per_move(seconds: u64) -> ClockOptions {
        ClockOptions {
            clock: crate::config::TurnClock::per_move(
                Duration::from_secs(seconds),
                splendor_room::OnDeadline::StandIn,
            )
            .unwrap(),
            stand_in_when_away: false,
        }
    }

    #[test]
    fn r12_5_a_restored_turn_keeps_its_wall_clock_deadline() {
        let day = per_move(86_400);
        let full =
            |seats: &[SeatClock]| -> Vec<u64> { seats.iter().map(|s| s.bank.as_secs()).collect() };
        // The first turn of a game started an hour ago, no action stored.
        let seats = per_move_deadline(day, Vec::new(), 3, 0, 0, 3_600_000, true);
        assert_eq!(full(&seats), [82_800, 86_400, 86_400]);
        // Seat 1, marked, had 10 hours of its turn left after its last
        // action (a decision in its turn) stored at 5 h; now is 7 h.
        let stored = vec![
            SeatClock {
                bank: Duration::from_secs(86_400),
                stand_in: false,
            },
            SeatClock {
                bank: Duration::from_secs(36_000),
                stand_in: true,
            },
        ];
        let seats = per_move_deadline(day, stored, 2, 1, 5 * 3_600_000, 7 * 3_600_000, true);
        assert_eq!(full(&seats), [86_400, 28_800]);
        assert!(seats[1].stand_in, "the mark stays");
    }

    #[test]
    fn r12_5_a_deadline_passed_while_down_gives_one_more_hour() {
        let day = per_move(86_400);
        let seats = per_move_deadline(day, Vec::new(), 2, 1, 0, 86_400_000, true);
        assert_eq!(seats[1].bank, RESTART_GRACE, "exactly at the deadline");
        let seats = per_move_deadline(day, Vec::new(), 2, 1, 0, 30 * 86_400_000, true);
        assert_eq!(seats[1].bank, RESTART_GRACE);
        assert_eq!(seats[0].bank, Duration::from_secs(86_400));
    }

    #[test]
    fn r12_5_a_parked_deadline_a_server_saw_pass_passes_now() {
        // Issue 25: a parked game's deadline that passed while a server
        // ran gives no hour: its turn ends at once.
        let day = per_move(86_400);
        let seats = per_move_deadline(day, Vec::new(), 2, 1, 0, 2 * 86_400_000, false);
        assert_eq!(seats[1].bank, Duration::ZERO);
        // Before its deadline it keeps what is left.
        let seats = per_move_deadline(day, Vec::new(), 2, 1, 0, 3_600_000, false);
        assert_eq!(seats[1].bank, Duration::from_secs(82_800));
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
