// PostgreSQL's writes: the writer task's batches (`write_batch`), included
// in `backend::postgres` only beside queries.rs (whose imports, `Db`, `Conn`
// and helpers it shares). SQLite's writes are its writer thread's
// (`sqlite_writer`), through rusqlite.
// `cargo fmt` does not reach an included file: after editing, run
// `rustfmt --edition 2024 crates/splendor-store/src/backend/postgres_writes.rs`.

use crate::backend::seed_to_db;
use crate::rating::RatedSeat;
use crate::writer::WriteOp;
use crate::{ActionRecord, NewGame};

type Conn = <Db as sqlx::Database>::Connection;

/// How a fenced write locks the lease it checks: on PostgreSQL the lease
/// row is share-locked until the write commits, so a takeover (which
/// updates the row) waits for the write, and a write after a takeover sees
/// the new epoch. SQLite has one writer at a time and no row locks.
const LOCK_LEASE: &str = " FOR SHARE OF l";

/// The condition a fenced write adds: `epoch` (an SQL expression, NULL for
/// an unfenced write) is the current epoch of the lease on `code` (an SQL
/// expression for the room code).
fn fence_holds(code: &str, epoch: &str) -> String {
    format!(
        "({epoch} IS NULL OR EXISTS (SELECT 1 FROM room_leases l \
         WHERE l.room_code = {code} AND l.epoch = {epoch}{LOCK_LEASE}))"
    )
}

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
    let mut tx = pool.begin().await?;
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
            origin,
        } => {
            // Issue 45: the address's sessions of the last hour, counted
            // under a lock of the address's own for this transaction, so
            // that nodes making sessions at once count each other.
            if let Some(origin) = origin {
                sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 45))")
                    .bind(format!("sessions from {}", origin.client))
                    .execute(&mut *conn)
                    .await?;
                let (made, oldest): (i64, Option<i64>) = sqlx::query_as(
                    "SELECT COUNT(*), MIN(created_at) FROM sessions \
                     WHERE created_from = $1 AND created_at > $2",
                )
                .bind(origin.client.as_str())
                .bind(created_at - crate::SESSION_WINDOW_MS)
                .fetch_one(&mut *conn)
                .await?;
                if made >= i64::from(origin.per_hour) {
                    return Ok(Err(crate::backend::too_many_sessions(
                        origin,
                        oldest,
                        *created_at,
                    )));
                }
            }
            sqlx::query(
                "INSERT INTO sessions (id, token_hash, name, created_at, player_id, created_from) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(id.0)
            .bind(token_hash.as_slice())
            .bind(name.as_str())
            .bind(*created_at)
            .bind(crate::player_id(*id))
            .bind(origin.as_ref().map(|o| o.client.as_str()))
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
            unrate,
        } => finish(conn, *game_id, result_json, *finished_at, (places, *unrate)).await,
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
            "INSERT INTO seats (game_id, seat, session_id, name, bot, program) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(game.id)
        .bind(i32::from(seat.seat))
        .bind(seat.session_id.0)
        .bind(seat.name.as_str())
        .bind(seat.bot.as_deref())
        .bind(seat.program)
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
    (places, unrate): (&[u8], bool),
) -> Applied {
    let rated =
        sqlx::query("SELECT players, rated FROM games WHERE id = $1 AND finished_at IS NULL")
            .bind(game_id)
            .fetch_optional(&mut *conn)
            .await?;
    let rated = match rated {
        Some(row) if !unrate && row.try_get::<bool, _>("rated")? => {
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
        "UPDATE games SET result_json = $2, finished_at = $3, rated = (rated AND NOT $4) \
         WHERE id = $1 AND finished_at IS NULL",
    )
    .bind(game_id)
    .bind(result_json)
    .bind(finished_at)
    .bind(unrate)
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
