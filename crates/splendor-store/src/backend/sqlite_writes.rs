//! SQLite's writes, as its writer thread applies them inside one
//! transaction: the same statements and the same answers as PostgreSQL's
//! (`postgres_writes.rs`), through rusqlite's cached prepared statements
//! (`?N` parameters: numbered, so SQLite never looks a name up).
//!
//! Every write checks what it must in its own statements (an action's in
//! a check before its insert), so that a refused write (bad input) stores
//! nothing and leaves the transaction usable for the rest of the batch;
//! only when nothing was written is the reason looked up.

use rusqlite::{OptionalExtension, Transaction, params};
use uuid::Uuid;

use crate::backend::seed_to_db;
use crate::rating::RatedSeat;
use crate::writer::WriteOp;
use crate::{ActionRecord, NewGame, SessionId, StoreError, UnixMillis};

/// What one operation did inside a transaction: `Err` broke the transaction;
/// `Ok(Err)` is a refusal (bad input) that stored nothing and left the
/// transaction usable for the other operations of the batch.
pub(crate) type Applied = Result<Result<(), StoreError>, rusqlite::Error>;

/// An epoch as the database keeps it.
fn epoch_to_db(epoch: Option<u64>) -> Option<i64> {
    epoch.map(|e| i64::try_from(e).unwrap_or(i64::MAX))
}

/// The condition a fenced write adds, for the room given by `code` (an SQL
/// expression) and the epoch in parameter `epoch` (NULL: not fenced).
/// SQLite has one writer at a time: nothing to lock.
macro_rules! fence_holds {
    ($code:literal, $epoch:literal) => {
        concat!(
            "(",
            $epoch,
            " IS NULL OR EXISTS (SELECT 1 FROM room_leases l WHERE l.room_code = ",
            $code,
            " AND l.epoch = ",
            $epoch,
            "))"
        )
    };
}

/// Whether an action may be appended: its game is running and has its
/// seat, its number is the next one, and the fence (`?4`) holds.
const APPEND_CHECK: &str = concat!(
    "SELECT EXISTS (SELECT 1 FROM games WHERE id = ?1 AND finished_at IS NULL AND players > ?3) \
       AND ?2 = (SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE game_id = ?1) \
       AND ",
    fence_holds!("(SELECT fg.room_code FROM games fg WHERE fg.id = ?1)", "?4")
);

/// The append itself, once `APPEND_CHECK` said yes in the same
/// transaction. A plain `VALUES`: an `INSERT ... SELECT` that reads
/// `actions` makes SQLite copy the row through a temporary table first
/// (a tenth of the writer's time per action, issue 20).
const APPEND: &str = "INSERT INTO actions (game_id, seq, seat, action_json, at, meta_json) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (game_id, seq) DO NOTHING";

const CREATE_GAME: &str = concat!(
    "INSERT INTO games \
     (id, room_code, players, options_json, seed, salt, commitment, created_at, clock_json, \
      listed, rated) \
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11 WHERE ",
    fence_holds!("?2", "?12"),
    " ON CONFLICT (id) DO NOTHING"
);

/// Applies one write inside the batch's transaction.
pub(crate) fn apply(tx: &Transaction<'_>, op: &WriteOp) -> Applied {
    match op {
        WriteOp::CreateSession {
            id,
            token_hash,
            name,
            created_at,
            origin,
        } => {
            // Issue 45: the address's sessions of the last hour, counted in
            // the writer's transaction (the one writer: no race).
            if let Some(origin) = origin {
                let since = created_at - crate::SESSION_WINDOW_MS;
                let (made, oldest): (i64, Option<i64>) = tx
                    .prepare_cached(
                        "SELECT COUNT(*), MIN(created_at) FROM sessions \
                         WHERE created_from = ?1 AND created_at > ?2",
                    )?
                    .query_row(params![origin.client, since], |r| {
                        Ok((r.get(0)?, r.get(1)?))
                    })?;
                if made >= i64::from(origin.per_hour) {
                    return Ok(Err(crate::backend::too_many_sessions(
                        origin,
                        oldest,
                        *created_at,
                    )));
                }
            }
            tx.prepare_cached(
                "INSERT INTO sessions (id, token_hash, name, created_at, player_id, created_from) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![
                id.0,
                token_hash,
                name,
                created_at,
                crate::player_id(*id),
                origin.as_ref().map(|o| o.client.as_str())
            ])?;
            Ok(Ok(()))
        }
        WriteOp::RenameSession { id, name } => {
            let done = tx
                .prepare_cached("UPDATE sessions SET name = ?2 WHERE id = ?1")?
                .execute(params![id.0, name])?;
            Ok(known_session(done, *id))
        }
        WriteOp::TouchSessions { ids, at } => {
            let mut touch =
                tx.prepare_cached("UPDATE sessions SET last_seen = ?1 WHERE id = ?2")?;
            for id in ids {
                touch.execute(params![at, id.0])?;
            }
            Ok(Ok(()))
        }
        WriteOp::CreateGame(game, fence) => create_game(tx, game, *fence),
        WriteOp::Append(action, fence) => append(tx, action, *fence),
        WriteOp::Finish {
            game_id,
            result_json,
            finished_at,
            places,
            unrate,
        } => finish(tx, *game_id, result_json, *finished_at, (places, *unrate)),
        WriteOp::MarkBot { id } => {
            let done = tx
                .prepare_cached("UPDATE sessions SET bot = TRUE WHERE id = ?1")?
                .execute(params![id.0])?;
            Ok(known_session(done, *id))
        }
    }
}

fn known_session(rows: usize, id: SessionId) -> Result<(), StoreError> {
    if rows == 0 {
        Err(StoreError::UnknownSession(id))
    } else {
        Ok(())
    }
}

fn create_game(tx: &Transaction<'_>, game: &NewGame, fence: Option<u64>) -> Applied {
    let done = tx.prepare_cached(CREATE_GAME)?.execute(params![
        game.id,
        game.room_code,
        i32::from(game.players),
        game.options_json,
        seed_to_db(game.seed),
        game.salt.as_slice(),
        game.commitment,
        game.created_at,
        game.clock_json,
        game.listed,
        game.rated,
        epoch_to_db(fence),
    ])?;
    if done == 0 {
        if let Some(epoch) = fence
            && !holds_lease(tx, &game.room_code, epoch)?
        {
            return Ok(Err(StoreError::Fenced {
                room: game.room_code.clone(),
                epoch,
            }));
        }
        return Ok(Err(StoreError::GameExists(game.id)));
    }
    let mut seat_insert = tx.prepare_cached(
        "INSERT INTO seats (game_id, seat, session_id, name, bot, program) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for seat in &game.seats {
        seat_insert.execute(params![
            game.id,
            i32::from(seat.seat),
            seat.session_id.0,
            seat.name,
            seat.bot,
            seat.program,
        ])?;
    }
    Ok(Ok(()))
}

/// Appends one action if, and only if, the game exists, is not finished, has
/// that seat, `seq` is the next free place in its log and the fence holds.
fn append(tx: &Transaction<'_>, action: &ActionRecord, fence: Option<u64>) -> Applied {
    let seq = i64::from(action.seq);
    let seat = i32::from(action.seat);
    // The check and the insert run in the batch's transaction, which holds
    // SQLite's one write lock: nothing comes between them.
    let may: bool = tx.prepare_cached(APPEND_CHECK)?.query_row(
        params![action.game_id, seq, seat, epoch_to_db(fence)],
        |row| row.get(0),
    )?;
    if may {
        let done = tx.prepare_cached(APPEND)?.execute(params![
            action.game_id,
            seq,
            seat,
            action.action_json,
            action.at,
            action.meta_json,
        ])?;
        if done == 1 {
            return Ok(Ok(()));
        }
    }

    let game = tx
        .prepare_cached("SELECT players, finished_at, room_code FROM games WHERE id = ?1")?
        .query_row(params![action.game_id], |row| {
            Ok((
                row.get::<_, i32>(0)?,
                row.get::<_, Option<i64>>(1)?,
                row.get::<_, String>(2)?,
            ))
        })
        .optional()?;
    let Some((players, finished_at, room)) = game else {
        return Ok(Err(StoreError::UnknownGame(action.game_id)));
    };
    if finished_at.is_some() {
        return Ok(Err(StoreError::GameFinished(action.game_id)));
    }
    if seat >= players {
        return Ok(Err(StoreError::InvalidSeat {
            game_id: action.game_id,
            seat: action.seat,
            players: u8::try_from(players).unwrap_or(u8::MAX),
        }));
    }
    let fenced = match fence {
        Some(epoch) if !holds_lease(tx, &room, epoch)? => Some(StoreError::Fenced { room, epoch }),
        _ => None,
    };
    let existing = tx
        .prepare_cached("SELECT seat, action_json FROM actions WHERE game_id = ?1 AND seq = ?2")?
        .query_row(params![action.game_id, seq], |row| {
            Ok((row.get::<_, i32>(0)?, row.get::<_, String>(1)?))
        })
        .optional()?;
    if let Some((stored_seat, stored_json)) = existing {
        // The very same action again: it is already durable, so say so. This
        // is how a caller recovers from a commit whose outcome it never learnt.
        if stored_seat == seat && stored_json == action.action_json {
            return Ok(Ok(()));
        }
        if let Some(fenced) = fenced {
            return Ok(Err(fenced));
        }
        return Ok(Err(StoreError::DuplicateAction {
            game_id: action.game_id,
            seq: action.seq,
        }));
    }
    if let Some(fenced) = fenced {
        return Ok(Err(fenced));
    }
    let expected: i64 = tx
        .prepare_cached("SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE game_id = ?1")?
        .query_row(params![action.game_id], |row| row.get(0))?;
    Ok(Err(StoreError::OutOfOrder {
        game_id: action.game_id,
        seq: action.seq,
        expected: u64::try_from(expected).unwrap_or_default(),
    }))
}

/// Whether `epoch` is the current lease of room `code`.
fn holds_lease(tx: &Transaction<'_>, code: &str, epoch: u64) -> Result<bool, rusqlite::Error> {
    let current: Option<i64> = tx
        .prepare_cached("SELECT epoch FROM room_leases WHERE room_code = ?1")?
        .query_row(params![code], |row| row.get(0))
        .optional()?;
    Ok(current == epoch_to_db(Some(epoch)))
}

fn finish(
    tx: &Transaction<'_>,
    game_id: Uuid,
    result_json: &str,
    finished_at: UnixMillis,
    (places, unrate): (&[u8], bool),
) -> Applied {
    let game = tx
        .prepare_cached("SELECT players, rated FROM games WHERE id = ?1 AND finished_at IS NULL")?
        .query_row(params![game_id], |row| {
            Ok((row.get::<_, i32>(0)?, row.get::<_, bool>(1)?))
        })
        .optional()?;
    let rated = match game {
        Some((players, true)) if !unrate => {
            if places.len() != usize::try_from(players).unwrap_or_default()
                || places.iter().any(|&p| p == 0 || i32::from(p) > players)
            {
                return Ok(Err(StoreError::invalid(
                    "places",
                    format!("a rated game of {players} needs a place from 1 to {players} per seat"),
                )));
            }
            true
        }
        _ => false,
    };
    let done = tx
        .prepare_cached(
            "UPDATE games SET result_json = ?2, finished_at = ?3, rated = (rated AND NOT ?4) \
             WHERE id = ?1 AND finished_at IS NULL",
        )?
        .execute(params![game_id, result_json, finished_at, unrate])?;
    if done == 1 {
        if rated {
            rate_game(tx, game_id, places, finished_at)?;
        }
        return Ok(Ok(()));
    }
    let stored: Option<Option<String>> = tx
        .prepare_cached("SELECT result_json FROM games WHERE id = ?1")?
        .query_row(params![game_id], |row| row.get(0))
        .optional()?;
    match stored {
        None => Ok(Err(StoreError::UnknownGame(game_id))),
        // The same result again is already durable (see `append`).
        Some(Some(stored)) if stored == result_json => Ok(Ok(())),
        Some(_) => Ok(Err(StoreError::GameFinished(game_id))),
    }
}

/// Updates the ratings of a rated game's seats, inside the transaction that
/// records its result. Seats of built-in bots are not rated; fewer than two
/// rated seats rate nobody.
fn rate_game(
    tx: &Transaction<'_>,
    game_id: Uuid,
    places: &[u8],
    finished_at: UnixMillis,
) -> Result<(), rusqlite::Error> {
    // R13.4: a seat of a person or program with fewer than 5 moves of its
    // own (the stand-in's not counted; a move is a turn's action: R8's
    // returns, R9's choice of a noble and a resignation are not moves)
    // makes the game unrated.
    let short: i64 = tx
        .prepare_cached(
            "SELECT COUNT(*) FROM seats s WHERE s.game_id = ?1 AND s.bot IS NULL AND \
         (SELECT COUNT(*) FROM actions a WHERE a.game_id = s.game_id AND a.seat = s.seat \
          AND (a.meta_json IS NULL OR a.meta_json NOT LIKE '%\"by\":\"stand_in\"%') \
          AND a.action_json <> '\"resign\"' AND a.action_json NOT LIKE '{\"return\"%' \
          AND a.action_json NOT LIKE '{\"noble\"%') < ?2",
        )?
        .query_row(params![game_id, crate::rating::R13_4_OWN_MOVES], |row| {
            row.get(0)
        })?;
    if short > 0 {
        tx.prepare_cached("UPDATE games SET rated = FALSE WHERE id = ?1")?
            .execute(params![game_id])?;
        return Ok(());
    }
    let rows: Vec<(i32, Uuid, String, Option<String>, bool)> = tx
        .prepare_cached(
            "SELECT s.seat, s.session_id, s.name, se.name AS session_name, \
                    COALESCE(se.bot, FALSE) AS session_bot \
             FROM seats s LEFT JOIN sessions se ON se.id = s.session_id \
             WHERE s.game_id = ?1 AND s.bot IS NULL ORDER BY s.seat",
        )?
        .query_map(params![game_id], |row| {
            Ok((
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
            ))
        })?
        .collect::<Result<_, _>>()?;
    let mut seats = Vec::with_capacity(rows.len());
    for (seat, session, seat_name, name, bot) in rows {
        let Some(&place) = usize::try_from(seat).ok().and_then(|s| places.get(s)) else {
            continue;
        };
        let current = tx
            .prepare_cached(
                "SELECT rating, deviation, volatility, games, wins FROM ratings \
                 WHERE session_id = ?1",
            )?
            .query_row(params![session], |r| {
                Ok((
                    skillratings::glicko2::Glicko2Rating {
                        rating: r.get(0)?,
                        deviation: r.get(1)?,
                        volatility: r.get(2)?,
                    },
                    r.get::<_, i64>(3)?,
                    r.get::<_, i64>(4)?,
                ))
            })
            .optional()?;
        let (before, games, wins) = current.unwrap_or((crate::rating::initial(), 0, 0));
        seats.push(RatedSeat {
            seat: u8::try_from(seat).unwrap_or_default(),
            session,
            name: name.unwrap_or(seat_name),
            bot,
            place,
            before,
            games,
            wins,
        });
    }
    if seats.len() < 2 {
        return Ok(());
    }
    let players = i32::try_from(places.len()).unwrap_or_default();
    for mut update in crate::rating::rate(seats) {
        // Issue 46: what this seat gained from any of these opponents in
        // the last day cuts its gain now.
        let gained: (f64, f64) = tx
            .prepare_cached(
                "SELECT COALESCE(MAX(gained), 0.0), COALESCE(MAX(lost), 0.0) FROM ( \
           SELECT b.session_id, SUM(CASE WHEN a.rating_after > a.rating_before \
                    THEN a.rating_after - a.rating_before ELSE 0 END) AS gained, \
                  SUM(CASE WHEN a.rating_after < a.rating_before \
                    THEN a.rating_before - a.rating_after ELSE 0 END) AS lost \
           FROM rated_results a JOIN rated_results b ON b.game_id = a.game_id \
           WHERE a.session_id = ?1 AND a.finished_at > ?2 AND b.session_id <> a.session_id \
             AND b.session_id IN (SELECT session_id FROM seats WHERE game_id = ?3 AND session_id IS NOT NULL) \
           GROUP BY b.session_id) per_opponent",
            )?
            .query_row(
                params![
                    update.seat.session,
                    finished_at - crate::rating::GAIN_WINDOW_MS,
                    game_id
                ],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )?;
        if !update.seat.bot {
            crate::rating::cap_change(&mut update, gained);
        }
        let seat = &update.seat;
        let won = i64::from(seat.place == 1);
        let player_id = crate::rating::player_id(SessionId(seat.session));
        tx.prepare_cached(
            "INSERT INTO ratings (session_id, player_id, name, bot, rating, deviation, \
                                  volatility, games, wins, last_played) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) \
             ON CONFLICT (session_id) DO UPDATE SET name = excluded.name, bot = excluded.bot, \
               rating = excluded.rating, deviation = excluded.deviation, \
               volatility = excluded.volatility, games = excluded.games, wins = excluded.wins, \
               last_played = excluded.last_played",
        )?
        .execute(params![
            seat.session,
            player_id,
            seat.name,
            seat.bot,
            update.after.rating,
            update.after.deviation,
            update.after.volatility,
            seat.games + 1,
            seat.wins + won,
            finished_at,
        ])?;
        tx.prepare_cached(
            "INSERT INTO rated_results (game_id, session_id, seat, players, place, \
                                        rating_before, rating_after, deviation_after, finished_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )?
        .execute(params![
            game_id,
            seat.session,
            i32::from(seat.seat),
            players,
            i32::from(seat.place),
            seat.before.rating,
            update.after.rating,
            update.after.deviation,
            finished_at,
        ])?;
    }
    Ok(())
}
