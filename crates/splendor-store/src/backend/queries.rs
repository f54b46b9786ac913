// The store's SQL, included once per backend by `backend/mod.rs`, where `Db`
// names the sqlx driver and `BACKEND` the matching `Backend`. Everything here
// must therefore compile, and run, on both SQLite and PostgreSQL.
// `cargo fmt` does not reach an included file: after editing, run
// `rustfmt --edition 2024 crates/splendor-store/src/backend/queries.rs`.

use std::collections::HashMap;

use sqlx::{Pool, Row};
use uuid::Uuid;

use crate::backend::{classify, seed_from_db, seed_to_db};
use crate::writer::WriteOp;
use crate::{
    ActionRecord, Finished, FinishedCursor, GameSummary, NewGame, SeatRecord, Session, SessionId,
    StoreError, StoredAction, StoredGame, UnixMillis,
};

type Conn = <Db as sqlx::Database>::Connection;
type DbRow = <Db as sqlx::Database>::Row;

/// What one operation did inside a transaction: `Err` broke the transaction;
/// `Ok(Err)` is a refusal (bad input) that stored nothing and left the
/// transaction usable for the other operations of the batch.
type Applied = Result<Result<(), StoreError>, sqlx::Error>;

/// On PostgreSQL, a batch's fenced writes share-lock their rooms' lease
/// rows (`fence_holds`); a node's renewal of its leases locks many rows at
/// once. Both take the rows in room-code order, so that neither waits for
/// the other in a cycle (a deadlock): the batch locks them all first, in
/// that order. SQLite has one writer at a time and no row locks.
async fn lock_leases_in_order(
    tx: &mut sqlx::Transaction<'_, Db>,
    ops: &[&WriteOp],
) -> Result<(), sqlx::Error> {
    if !matches!(BACKEND, crate::backend::Backend::Postgres) {
        return Ok(());
    }
    let mut games = Vec::new();
    let mut rooms = Vec::new();
    for op in ops {
        match op {
            WriteOp::Append(action, Some(_)) => games.push(action.game_id),
            WriteOp::CreateGame(game, Some(_)) => rooms.push(game.room_code.clone()),
            _ => {}
        }
    }
    if games.is_empty() && rooms.is_empty() {
        return Ok(());
    }
    let game_slots: Vec<String> = (1..=games.len()).map(|i| format!("${i}")).collect();
    let room_slots: Vec<String> = (games.len() + 1..=games.len() + rooms.len())
        .map(|i| format!("${i}"))
        .collect();
    let sql = format!(
        "SELECT 1 FROM room_leases l \
         WHERE l.room_code IN (SELECT g.room_code FROM games g WHERE g.id IN ({})) \
            OR l.room_code IN ({}) \
         ORDER BY l.room_code FOR SHARE OF l",
        if game_slots.is_empty() {
            "NULL".to_owned()
        } else {
            game_slots.join(", ")
        },
        if room_slots.is_empty() {
            "NULL".to_owned()
        } else {
            room_slots.join(", ")
        },
    );
    let mut query = sqlx::query(&sql);
    for game in games {
        query = query.bind(game);
    }
    for room in rooms {
        query = query.bind(room);
    }
    query.fetch_all(&mut **tx).await?;
    Ok(())
}

/// Writes a batch in one transaction; see `DbPool::try_write`.
///
/// Consecutive appends to different games (what a batch of many rooms is
/// made of: a room has one write in flight at a time) go in one multi-row
/// statement; every other operation, and every append that statement did
/// not insert, goes through its own statements, in order.
pub(crate) async fn write_batch(
    pool: &Pool<Db>,
    ops: &[&WriteOp],
) -> Result<Vec<Result<(), StoreError>>, sqlx::Error> {
    // SQLite: take the write lock at BEGIN (waiting through the busy
    // timeout), so that a batch that reads first cannot be overtaken by a
    // queue statement from the pool and fail with SQLITE_BUSY_SNAPSHOT.
    let mut tx = if matches!(BACKEND, crate::backend::Backend::Sqlite) {
        pool.begin_with("BEGIN IMMEDIATE").await?
    } else {
        pool.begin().await?
    };
    lock_leases_in_order(&mut tx, ops).await?;
    let mut answers = Vec::with_capacity(ops.len());
    let mut i = 0;
    while i < ops.len() {
        let run = append_run(&ops[i..]);
        let applied = if run.len() > 1 {
            append_many(&mut tx, &run).await
        } else {
            apply(&mut tx, ops[i]).await.map(|answer| vec![answer])
        };
        match applied {
            Ok(applied) => {
                i += applied.len().max(1);
                answers.extend(applied);
            }
            Err(err) => {
                // Best effort: the connection may be the thing that failed.
                let _ = tx.rollback().await;
                return Err(err);
            }
        }
    }
    tx.commit().await?;
    Ok(answers)
}

/// The most rows in one multi-row insert: 5 parameters a row stays far
/// below both databases' limits on parameters.
const MAX_ROWS: usize = 200;

/// The appends at the start of `ops` that can share one statement: each to
/// a game no earlier one in the run appends to (so that their order within
/// a game never depends on the statement's).
fn append_run<'a>(ops: &[&'a WriteOp]) -> Vec<(&'a ActionRecord, Option<u64>)> {
    let mut run: Vec<(&ActionRecord, Option<u64>)> = Vec::new();
    for op in ops.iter().take(MAX_ROWS) {
        match op {
            WriteOp::Append(action, fence)
                if run.iter().all(|(a, _)| a.game_id != action.game_id) =>
            {
                run.push((action, *fence))
            }
            _ => break,
        }
    }
    run
}

/// An epoch as the database keeps it.
fn epoch_to_db(epoch: Option<u64>) -> Option<i64> {
    epoch.map(|e| i64::try_from(e).unwrap_or(i64::MAX))
}

/// Appends `actions` (each to a different game) with one statement that
/// checks every row as `append` does; a row it did not insert is looked at
/// alone by `append`, which says why (or that it was already stored).
async fn append_many(
    conn: &mut Conn,
    actions: &[(&ActionRecord, Option<u64>)],
) -> Result<Vec<Result<(), StoreError>>, sqlx::Error> {
    let mut sql =
        String::from("WITH v (game_id, seq, seat, action_json, at, meta_json, epoch) AS (VALUES ");
    for i in 0..actions.len() {
        let p = i * 7;
        if i > 0 {
            sql.push_str(", ");
        }
        sql.push_str(&format!(
            "(${}, ${}, ${}, ${}, ${}, ${}, ${})",
            p + 1,
            p + 2,
            p + 3,
            p + 4,
            p + 5,
            p + 6,
            p + 7
        ));
    }
    sql.push_str(&format!(
        ") INSERT INTO actions (game_id, seq, seat, action_json, at, meta_json) \
         SELECT v.game_id, v.seq, v.seat, v.action_json, v.at, v.meta_json FROM v \
         WHERE EXISTS (SELECT 1 FROM games g \
                       WHERE g.id = v.game_id AND g.finished_at IS NULL AND g.players > v.seat) \
           AND v.seq = (SELECT COALESCE(MAX(a.seq) + 1, 0) FROM actions a \
                        WHERE a.game_id = v.game_id) \
           AND {} \
         ON CONFLICT (game_id, seq) DO NOTHING \
         RETURNING game_id",
        fence_holds(
            "(SELECT fg.room_code FROM games fg WHERE fg.id = v.game_id)",
            "v.epoch"
        )
    ));
    let mut query = sqlx::query(&sql);
    for (action, fence) in actions {
        query = query
            .bind(action.game_id)
            .bind(i64::from(action.seq))
            .bind(i32::from(action.seat))
            .bind(action.action_json.as_str())
            .bind(action.at)
            .bind(action.meta_json.as_deref())
            .bind(epoch_to_db(*fence));
    }
    let inserted: Vec<Uuid> = query
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(|row| row.try_get("game_id"))
        .collect::<Result<_, _>>()?;
    let mut answers = Vec::with_capacity(actions.len());
    for (action, fence) in actions {
        if inserted.contains(&action.game_id) {
            answers.push(Ok(()));
        } else {
            answers.push(append(conn, action, *fence).await?);
        }
    }
    Ok(answers)
}

async fn apply(conn: &mut Conn, op: &WriteOp) -> Applied {
    match op {
        WriteOp::CreateSession {
            id,
            token_hash,
            name,
            created_at,
        } => {
            sqlx::query(
                "INSERT INTO sessions (id, token_hash, name, created_at) VALUES ($1, $2, $3, $4)",
            )
            .bind(id.0)
            .bind(token_hash.as_slice())
            .bind(name.as_str())
            .bind(*created_at)
            .execute(&mut *conn)
            .await?;
            Ok(Ok(()))
        }
        WriteOp::RenameSession { id, name } => {
            let done = sqlx::query("UPDATE sessions SET name = $2 WHERE id = $1")
                .bind(id.0)
                .bind(name.as_str())
                .execute(&mut *conn)
                .await?;
            if done.rows_affected() == 0 {
                return Ok(Err(StoreError::UnknownSession(*id)));
            }
            Ok(Ok(()))
        }
        WriteOp::TouchSessions { ids, at } => {
            for chunk in ids.chunks(500) {
                let placeholders: Vec<String> =
                    (2..chunk.len() + 2).map(|n| format!("${n}")).collect();
                let sql = format!(
                    "UPDATE sessions SET last_seen = $1 WHERE id IN ({})",
                    placeholders.join(", ")
                );
                let mut query = sqlx::query(&sql).bind(*at);
                for id in chunk {
                    query = query.bind(id.0);
                }
                query.execute(&mut *conn).await?;
            }
            Ok(Ok(()))
        }
        WriteOp::CreateGame(game, fence) => create_game(conn, game, *fence).await,
        WriteOp::Append(action, fence) => append(conn, action, *fence).await,
        WriteOp::Finish {
            game_id,
            result_json,
            finished_at,
            places,
        } => finish(conn, *game_id, result_json, *finished_at, places).await,
        WriteOp::MarkBot { id } => {
            let done = sqlx::query("UPDATE sessions SET bot = TRUE WHERE id = $1")
                .bind(id.0)
                .execute(&mut *conn)
                .await?;
            if done.rows_affected() == 0 {
                return Ok(Err(StoreError::UnknownSession(*id)));
            }
            Ok(Ok(()))
        }
    }
}

async fn create_game(conn: &mut Conn, game: &NewGame, fence: Option<u64>) -> Applied {
    let sql = format!(
        "INSERT INTO games \
         (id, room_code, players, options_json, seed, salt, commitment, created_at, clock_json, \
          listed, rated) \
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11 WHERE {} \
         ON CONFLICT (id) DO NOTHING",
        fence_holds("$2", "$12")
    );
    let done = sqlx::query(&sql)
        .bind(game.id)
        .bind(game.room_code.as_str())
        .bind(i32::from(game.players))
        .bind(game.options_json.as_str())
        .bind(seed_to_db(game.seed))
        .bind(game.salt.as_slice())
        .bind(game.commitment.as_str())
        .bind(game.created_at)
        .bind(game.clock_json.as_deref())
        .bind(game.listed)
        .bind(game.rated)
        .bind(epoch_to_db(fence))
        .execute(&mut *conn)
        .await?;
    if done.rows_affected() == 0 {
        if let Some(epoch) = fence
            && !holds_lease(conn, &game.room_code, epoch).await?
        {
            return Ok(Err(StoreError::Fenced {
                room: game.room_code.clone(),
                epoch,
            }));
        }
        return Ok(Err(StoreError::GameExists(game.id)));
    }
    for seat in &game.seats {
        sqlx::query(
            "INSERT INTO seats (game_id, seat, session_id, name, bot) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(game.id)
        .bind(i32::from(seat.seat))
        .bind(seat.session_id.0)
        .bind(seat.name.as_str())
        .bind(seat.bot.as_deref())
        .execute(&mut *conn)
        .await?;
    }
    Ok(Ok(()))
}

/// Appends one action if, and only if, the game exists, is not finished, has
/// that seat, and `seq` is the next free place in its log. The checks are in
/// the statement itself so that a refusal never aborts the transaction; only
/// when nothing was inserted do we look at why.
async fn append(conn: &mut Conn, action: &ActionRecord, fence: Option<u64>) -> Applied {
    let seq = i64::from(action.seq);
    let seat = i32::from(action.seat);
    let sql = format!(
        "INSERT INTO actions (game_id, seq, seat, action_json, at, meta_json) \
         SELECT $1, $2, $3, $4, $5, $6 \
         WHERE EXISTS (SELECT 1 FROM games \
                       WHERE id = $1 AND finished_at IS NULL AND players > $3) \
           AND $2 = (SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE game_id = $1) \
           AND {} \
         ON CONFLICT (game_id, seq) DO NOTHING",
        fence_holds("(SELECT fg.room_code FROM games fg WHERE fg.id = $1)", "$7")
    );
    let done = sqlx::query(&sql)
        .bind(action.game_id)
        .bind(seq)
        .bind(seat)
        .bind(action.action_json.as_str())
        .bind(action.at)
        .bind(action.meta_json.as_deref())
        .bind(epoch_to_db(fence))
        .execute(&mut *conn)
        .await?;
    if done.rows_affected() == 1 {
        return Ok(Ok(()));
    }

    let game = sqlx::query("SELECT players, finished_at, room_code FROM games WHERE id = $1")
        .bind(action.game_id)
        .fetch_optional(&mut *conn)
        .await?;
    let Some(game) = game else {
        return Ok(Err(StoreError::UnknownGame(action.game_id)));
    };
    let finished_at: Option<i64> = game.try_get("finished_at")?;
    if finished_at.is_some() {
        return Ok(Err(StoreError::GameFinished(action.game_id)));
    }
    let players: i32 = game.try_get("players")?;
    if seat >= players {
        return Ok(Err(StoreError::InvalidSeat {
            game_id: action.game_id,
            seat: action.seat,
            players: u8::try_from(players).unwrap_or(u8::MAX),
        }));
    }
    let room: String = game.try_get("room_code")?;
    let fenced = match fence {
        Some(epoch) if !holds_lease(conn, &room, epoch).await? => {
            Some(StoreError::Fenced { room, epoch })
        }
        _ => None,
    };
    let existing =
        sqlx::query("SELECT seat, action_json FROM actions WHERE game_id = $1 AND seq = $2")
            .bind(action.game_id)
            .bind(seq)
            .fetch_optional(&mut *conn)
            .await?;
    if let Some(existing) = existing {
        let stored_seat: i32 = existing.try_get("seat")?;
        let stored_json: String = existing.try_get("action_json")?;
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
    let expected: i64 =
        sqlx::query_scalar("SELECT COALESCE(MAX(seq) + 1, 0) FROM actions WHERE game_id = $1")
            .bind(action.game_id)
            .fetch_one(&mut *conn)
            .await?;
    Ok(Err(StoreError::OutOfOrder {
        game_id: action.game_id,
        seq: action.seq,
        expected: u64::try_from(expected).unwrap_or_default(),
    }))
}

/// Whether `epoch` is the current lease of room `code`.
async fn holds_lease(conn: &mut Conn, code: &str, epoch: u64) -> Result<bool, sqlx::Error> {
    let current: Option<i64> =
        sqlx::query_scalar("SELECT epoch FROM room_leases WHERE room_code = $1")
            .bind(code)
            .fetch_optional(&mut *conn)
            .await?;
    Ok(current == epoch_to_db(Some(epoch)))
}

async fn finish(
    conn: &mut Conn,
    game_id: Uuid,
    result_json: &str,
    finished_at: UnixMillis,
    places: &[u8],
) -> Applied {
    let rated =
        sqlx::query("SELECT players, rated FROM games WHERE id = $1 AND finished_at IS NULL")
            .bind(game_id)
            .fetch_optional(&mut *conn)
            .await?;
    let rated = match rated {
        Some(row) if row.try_get::<bool, _>("rated")? => {
            let players: i32 = row.try_get("players")?;
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
    let done = sqlx::query(
        "UPDATE games SET result_json = $2, finished_at = $3 WHERE id = $1 AND finished_at IS NULL",
    )
    .bind(game_id)
    .bind(result_json)
    .bind(finished_at)
    .execute(&mut *conn)
    .await?;
    if done.rows_affected() == 1 {
        if rated {
            rate_game(conn, game_id, places, finished_at).await?;
        }
        return Ok(Ok(()));
    }
    let stored: Option<Option<String>> =
        sqlx::query_scalar("SELECT result_json FROM games WHERE id = $1")
            .bind(game_id)
            .fetch_optional(&mut *conn)
            .await?;
    match stored {
        None => Ok(Err(StoreError::UnknownGame(game_id))),
        // The same result again is already durable (see `append`).
        Some(Some(stored)) if stored == result_json => Ok(Ok(())),
        Some(_) => Ok(Err(StoreError::GameFinished(game_id))),
    }
}

/// Maps a read's database error to the store's error.
fn read_error(err: sqlx::Error) -> StoreError {
    classify(BACKEND, err)
}

pub(crate) async fn ping(pool: &Pool<Db>) -> Result<(), StoreError> {
    let one: i32 = sqlx::query_scalar("SELECT 1")
        .fetch_one(pool)
        .await
        .map_err(read_error)?;
    if one != 1 {
        return Err(StoreError::Corrupt(format!("SELECT 1 returned {one}")));
    }
    Ok(())
}

pub(crate) async fn session_by_hash(
    pool: &Pool<Db>,
    token_hash: &[u8],
) -> Result<Option<Session>, StoreError> {
    let row = sqlx::query("SELECT id, name, created_at, bot FROM sessions WHERE token_hash = $1")
        .bind(token_hash)
        .fetch_optional(pool)
        .await
        .map_err(read_error)?;
    let Some(row) = row else {
        return Ok(None);
    };
    Ok(Some(Session {
        id: SessionId(get(&row, "id")?),
        name: get(&row, "name")?,
        created_at: get(&row, "created_at")?,
        bot: get(&row, "bot")?,
    }))
}

/// Deletes the sessions past their lifetime (see `Store::prune_sessions`);
/// returns how many.
pub(crate) async fn prune_sessions(
    pool: &Pool<Db>,
    idle_before: i64,
    unused_before: i64,
) -> Result<u64, StoreError> {
    let done = sqlx::query(
        "DELETE FROM sessions WHERE \
           (COALESCE(last_seen, created_at) < $2 \
            AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.session_id = sessions.id)) \
           OR (COALESCE(last_seen, created_at) < $1 \
            AND NOT EXISTS (SELECT 1 FROM seats s JOIN games g ON g.id = s.game_id \
                            WHERE s.session_id = sessions.id AND g.finished_at IS NULL) \
            AND NOT EXISTS (SELECT 1 FROM ratings r WHERE r.session_id = sessions.id))",
    )
    .bind(idle_before)
    .bind(unused_before)
    .execute(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    Ok(done.rows_affected())
}

/// Reads one column, calling a decoding failure corruption.
fn get<'r, T>(row: &'r DbRow, column: &str) -> Result<T, StoreError>
where
    T: sqlx::Decode<'r, Db> + sqlx::Type<Db>,
{
    row.try_get(column)
        .map_err(|err| StoreError::Corrupt(format!("column {column}: {err}")))
}

/// Narrows a stored integer to the type the store hands out.
fn narrow<T: TryFrom<i64>>(column: &str, value: i64) -> Result<T, StoreError> {
    T::try_from(value)
        .map_err(|_| StoreError::Corrupt(format!("column {column} holds {value}, out of range")))
}

const GAME_COLUMNS: &str = "id, room_code, players, options_json, seed, salt, commitment, \
                            created_at, finished_at, result_json, clock_json, listed, rated";

/// A game's own row, without its seats and actions.
fn game_from_row(row: &DbRow) -> Result<StoredGame, StoreError> {
    let salt: Vec<u8> = get(row, "salt")?;
    let salt = <[u8; 32]>::try_from(salt.as_slice()).map_err(|_| {
        StoreError::Corrupt(format!("column salt holds {} bytes, not 32", salt.len()))
    })?;
    let finished_at: Option<i64> = get(row, "finished_at")?;
    let result_json: Option<String> = get(row, "result_json")?;
    let finished = match (finished_at, result_json) {
        (Some(finished_at), Some(result_json)) => Some(Finished {
            result_json,
            finished_at,
        }),
        (None, None) => None,
        _ => {
            return Err(StoreError::Corrupt(
                "a game has only one of finished_at and result_json".to_owned(),
            ));
        }
    };
    Ok(StoredGame {
        id: get(row, "id")?,
        room_code: get(row, "room_code")?,
        players: narrow("players", i64::from(get::<i32>(row, "players")?))?,
        options_json: get(row, "options_json")?,
        seed: seed_from_db(get(row, "seed")?),
        salt,
        commitment: get(row, "commitment")?,
        created_at: get(row, "created_at")?,
        clock_json: get(row, "clock_json")?,
        listed: get(row, "listed")?,
        rated: get(row, "rated")?,
        seats: Vec::new(),
        actions: Vec::new(),
        finished,
    })
}

fn seat_from_row(row: &DbRow) -> Result<SeatRecord, StoreError> {
    Ok(SeatRecord {
        seat: narrow("seat", i64::from(get::<i32>(row, "seat")?))?,
        session_id: SessionId(get(row, "session_id")?),
        name: get(row, "name")?,
        bot: get(row, "bot")?,
    })
}

fn action_from_row(row: &DbRow) -> Result<StoredAction, StoreError> {
    Ok(StoredAction {
        seq: narrow("seq", get::<i64>(row, "seq")?)?,
        seat: narrow("seat", i64::from(get::<i32>(row, "seat")?))?,
        action_json: get(row, "action_json")?,
        at: get(row, "at")?,
        meta_json: get(row, "meta_json")?,
    })
}

/// Checks the log has no gap: the store appends only at the next seq.
fn check_log(game: &StoredGame) -> Result<(), StoreError> {
    for (index, action) in game.actions.iter().enumerate() {
        if usize::try_from(action.seq).ok() != Some(index) {
            return Err(StoreError::Corrupt(format!(
                "the log of game {} has seq {} at place {index}",
                game.id, action.seq
            )));
        }
    }
    Ok(())
}

/// Starts a read-only transaction in which every statement sees the same
/// snapshot, so that a game's row, seats and log agree with each other.
async fn begin_snapshot(pool: &Pool<Db>) -> Result<sqlx::Transaction<'static, Db>, StoreError> {
    let mut tx = pool.begin().await.map_err(read_error)?;
    if BACKEND == super::Backend::Postgres {
        // SQLite transactions are snapshots already (WAL); PostgreSQL's
        // default, READ COMMITTED, takes a new snapshot per statement.
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .execute(&mut *tx)
            .await
            .map_err(read_error)?;
    }
    Ok(tx)
}

pub(crate) async fn game(pool: &Pool<Db>, id: Uuid) -> Result<Option<StoredGame>, StoreError> {
    let mut tx = begin_snapshot(pool).await?;
    let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
        .bind(id)
        .fetch_optional(&mut *tx)
        .await
        .map_err(read_error)?;
    let Some(row) = row else {
        return Ok(None);
    };
    let mut game = game_from_row(&row)?;
    let seats = sqlx::query(
        "SELECT seat, session_id, name, bot FROM seats WHERE game_id = $1 ORDER BY seat",
    )
    .bind(id)
    .fetch_all(&mut *tx)
    .await
    .map_err(read_error)?;
    game.seats = seats.iter().map(seat_from_row).collect::<Result<_, _>>()?;
    let actions = sqlx::query(
        "SELECT seq, seat, action_json, at, meta_json FROM actions WHERE game_id = $1 ORDER BY seq",
    )
    .bind(id)
    .fetch_all(&mut *tx)
    .await
    .map_err(read_error)?;
    game.actions = actions
        .iter()
        .map(action_from_row)
        .collect::<Result<_, _>>()?;
    tx.commit().await.map_err(read_error)?;
    check_log(&game)?;
    Ok(Some(game))
}

/// Every unfinished game, and the finished ones that ended at or after
/// `finished_since`, with seats and logs.
pub(crate) async fn games_to_restore(
    pool: &Pool<Db>,
    finished_since: i64,
) -> Result<Vec<StoredGame>, StoreError> {
    let mut tx = begin_snapshot(pool).await?;
    let rows = sqlx::query(&format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE finished_at IS NULL OR finished_at >= $1 \
         ORDER BY created_at, id"
    ))
    .bind(finished_since)
    .fetch_all(&mut *tx)
    .await
    .map_err(read_error)?;
    let mut games = rows
        .iter()
        .map(game_from_row)
        .collect::<Result<Vec<_>, _>>()?;
    let place: HashMap<Uuid, usize> = games.iter().enumerate().map(|(i, g)| (g.id, i)).collect();

    let seats = sqlx::query(
        "SELECT s.game_id, s.seat, s.session_id, s.name, s.bot FROM seats s \
         JOIN games g ON g.id = s.game_id \
         WHERE g.finished_at IS NULL OR g.finished_at >= $1 ORDER BY s.game_id, s.seat",
    )
    .bind(finished_since)
    .fetch_all(&mut *tx)
    .await
    .map_err(read_error)?;
    for row in &seats {
        let game_id: Uuid = get(row, "game_id")?;
        if let Some(&i) = place.get(&game_id) {
            games[i].seats.push(seat_from_row(row)?);
        }
    }

    let actions = sqlx::query(
        "SELECT a.game_id, a.seq, a.seat, a.action_json, a.at, a.meta_json FROM actions a \
         JOIN games g ON g.id = a.game_id \
         WHERE g.finished_at IS NULL OR g.finished_at >= $1 ORDER BY a.game_id, a.seq",
    )
    .bind(finished_since)
    .fetch_all(&mut *tx)
    .await
    .map_err(read_error)?;
    for row in &actions {
        let game_id: Uuid = get(row, "game_id")?;
        if let Some(&i) = place.get(&game_id) {
            games[i].actions.push(action_from_row(row)?);
        }
    }
    tx.commit().await.map_err(read_error)?;
    for game in &games {
        check_log(game)?;
    }
    Ok(games)
}

pub(crate) async fn list_finished(
    pool: &Pool<Db>,
    before: Option<FinishedCursor>,
    limit: u32,
) -> Result<Vec<GameSummary>, StoreError> {
    let columns = "id, room_code, players, created_at, finished_at, result_json";
    let rows = match before {
        None => {
            sqlx::query(&format!(
                "SELECT {columns} FROM games WHERE finished_at IS NOT NULL \
                 ORDER BY finished_at DESC, id DESC LIMIT $1"
            ))
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await
        }
        Some(cursor) => {
            sqlx::query(&format!(
                "SELECT {columns} FROM games \
                 WHERE finished_at IS NOT NULL AND (finished_at, id) < ($1, $2) \
                 ORDER BY finished_at DESC, id DESC LIMIT $3"
            ))
            .bind(cursor.finished_at)
            .bind(cursor.id)
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await
        }
    }
    .map_err(read_error)?;

    let mut summaries = Vec::with_capacity(rows.len());
    for row in &rows {
        summaries.push(GameSummary {
            id: get(row, "id")?,
            room_code: get(row, "room_code")?,
            players: narrow("players", i64::from(get::<i32>(row, "players")?))?,
            seats: Vec::new(),
            created_at: get(row, "created_at")?,
            finished_at: get(row, "finished_at")?,
            result_json: get(row, "result_json")?,
        });
    }
    if summaries.is_empty() {
        return Ok(summaries);
    }

    let place: HashMap<Uuid, usize> = summaries
        .iter()
        .enumerate()
        .map(|(i, g)| (g.id, i))
        .collect();
    let placeholders: Vec<String> = (1..=summaries.len()).map(|n| format!("${n}")).collect();
    let sql = format!(
        "SELECT game_id, seat, session_id, name, bot FROM seats WHERE game_id IN ({}) \
         ORDER BY game_id, seat",
        placeholders.join(", ")
    );
    let mut query = sqlx::query(&sql);
    for summary in &summaries {
        query = query.bind(summary.id);
    }
    let seats = query.fetch_all(pool).await.map_err(read_error)?;
    for row in &seats {
        let game_id: Uuid = get(row, "game_id")?;
        if let Some(&i) = place.get(&game_id) {
            summaries[i].seats.push(seat_from_row(row)?);
        }
    }
    Ok(summaries)
}
