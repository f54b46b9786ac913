// The store's SQL, included once per backend by `backend/mod.rs`, where `Db`
// names the sqlx driver and `BACKEND` the matching `Backend`. Everything here
// must therefore compile, and run, on both SQLite and PostgreSQL.
// `cargo fmt` does not reach an included file: after editing, run
// `rustfmt --edition 2024 crates/splendor-store/src/backend/queries.rs`.

use std::collections::HashMap;

use sqlx::{Pool, Row};
use uuid::Uuid;

use crate::backend::{classify, seed_from_db};
use crate::{
    Finished, FinishedCursor, GameSummary, SeatRecord, Session, SessionId, StoreError,
    StoredAction, StoredGame, UnixMillis,
};

type DbRow = <Db as sqlx::Database>::Row;

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
    // The session's first token, or one carried to another device (issue 23).
    let row = sqlx::query(
        "SELECT id, name, created_at, bot FROM sessions WHERE token_hash = $1 \
         UNION ALL \
         SELECT s.id, s.name, s.created_at, s.bot FROM device_tokens d \
         JOIN sessions s ON s.id = d.session_id WHERE d.token_hash = $1",
    )
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
        program: get(row, "program")?,
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
        "SELECT seat, session_id, name, bot, program FROM seats WHERE game_id = $1 ORDER BY seat",
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
        "SELECT {GAME_COLUMNS} FROM games \
         WHERE (finished_at IS NULL OR finished_at >= $1) \
           AND NOT EXISTS (SELECT 1 FROM parked_rooms p WHERE p.game_id = games.id) \
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
        "SELECT s.game_id, s.seat, s.session_id, s.name, s.bot, s.program FROM seats s \
         JOIN games g ON g.id = s.game_id \
         WHERE (g.finished_at IS NULL OR g.finished_at >= $1) \
           AND NOT EXISTS (SELECT 1 FROM parked_rooms p WHERE p.game_id = g.id) \
         ORDER BY s.game_id, s.seat",
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
         WHERE (g.finished_at IS NULL OR g.finished_at >= $1) \
           AND NOT EXISTS (SELECT 1 FROM parked_rooms p WHERE p.game_id = g.id) \
         ORDER BY a.game_id, a.seq",
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
    player: Option<&str>,
) -> Result<Vec<GameSummary>, StoreError> {
    let columns = "id, room_code, players, created_at, finished_at, result_json, rated";
    // Issue 24: one player's games, by the player_id of a seat's session.
    let of_player = |n: usize| {
        if player.is_some() {
            format!(
                " AND id IN (SELECT s.game_id FROM seats s \
                 JOIN sessions p ON p.id = s.session_id WHERE p.player_id = ${n})"
            )
        } else {
            String::new()
        }
    };
    let rows = match before {
        None => {
            let sql = format!(
                "SELECT {columns} FROM games WHERE finished_at IS NOT NULL{} \
                 ORDER BY finished_at DESC, id DESC LIMIT $1",
                of_player(2)
            );
            let query = sqlx::query(&sql).bind(i64::from(limit));
            match player {
                Some(player) => query.bind(player).fetch_all(pool).await,
                None => query.fetch_all(pool).await,
            }
        }
        Some(cursor) => {
            let sql = format!(
                "SELECT {columns} FROM games \
                 WHERE finished_at IS NOT NULL AND (finished_at, id) < ($1, $2){} \
                 ORDER BY finished_at DESC, id DESC LIMIT $3",
                of_player(4)
            );
            let query = sqlx::query(&sql)
                .bind(cursor.finished_at)
                .bind(cursor.id)
                .bind(i64::from(limit));
            match player {
                Some(player) => query.bind(player).fetch_all(pool).await,
                None => query.fetch_all(pool).await,
            }
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
            rated: get(row, "rated")?,
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
        "SELECT game_id, seat, session_id, name, bot, program FROM seats WHERE game_id IN ({}) \
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
