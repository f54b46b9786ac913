// Turn-based games parked in the store (issue 25), included once per
// backend. `cargo fmt` does not reach an included file: after editing, run
// `rustfmt --edition 2024 crates/splendor-store/src/backend/park_queries.rs`.

fn parked_from_row(row: &<Db as sqlx::Database>::Row) -> Result<crate::ParkedRoom, StoreError> {
    let get = |e| classify(BACKEND, e);
    Ok(crate::ParkedRoom {
        room_code: row.try_get("room_code").map_err(get)?,
        game: row.try_get("game_id").map_err(get)?,
        deadline_at: row.try_get("deadline_at").map_err(get)?,
        parked_at: row.try_get("parked_at").map_err(get)?,
        swept_at: row.try_get("swept_at").map_err(get)?,
        chat: row.try_get("chat").map_err(get)?,
    })
}

pub(crate) async fn park_room(
    pool: &Pool<Db>,
    code: &str,
    game: Uuid,
    (deadline_at, now): (i64, i64),
    epoch: Option<i64>,
    (chat, client): (Option<&str>, Option<&str>),
) -> Result<(), StoreError> {
    // Fenced (several nodes): only while the room's lease is this epoch,
    // in the statement itself, as an append is.
    let done = sqlx::query(
        "INSERT INTO parked_rooms (room_code, game_id, deadline_at, parked_at, swept_at, chat, client) \
         SELECT $1, $2, $3, $4, NULL, $6, $7 \
         WHERE $5 IS NULL OR EXISTS (SELECT 1 FROM room_leases l \
                                     WHERE l.room_code = $1 AND l.epoch = $5) \
         ON CONFLICT (room_code) DO UPDATE SET game_id = excluded.game_id, \
         deadline_at = excluded.deadline_at, parked_at = excluded.parked_at, swept_at = NULL, \
         chat = excluded.chat, client = excluded.client",
    )
    .bind(code)
    .bind(game)
    .bind(deadline_at)
    .bind(now)
    .bind(epoch)
    .bind(chat)
    .bind(client)
    .execute(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    if done.rows_affected() == 0 {
        return Err(StoreError::Fenced {
            room: code.to_owned(),
            epoch: epoch.and_then(|e| u64::try_from(e).ok()).unwrap_or(0),
        });
    }
    Ok(())
}

pub(crate) async fn parked_from(pool: &Pool<Db>, client: &str) -> Result<u64, StoreError> {
    let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM parked_rooms WHERE client = $1")
        .bind(client)
        .fetch_one(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(u64::try_from(n).unwrap_or(0))
}

pub(crate) async fn postpone_parked(
    pool: &Pool<Db>,
    code: &str,
    game: Uuid,
    until: i64,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE parked_rooms SET deadline_at = $3 WHERE room_code = $1 AND game_id = $2")
        .bind(code)
        .bind(game)
        .bind(until)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(())
}

pub(crate) async fn parked_room(
    pool: &Pool<Db>,
    code: &str,
) -> Result<Option<crate::ParkedRoom>, StoreError> {
    let row = sqlx::query(
        "SELECT room_code, game_id, deadline_at, parked_at, swept_at, chat FROM parked_rooms \
         WHERE room_code = $1",
    )
    .bind(code)
    .fetch_optional(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    row.as_ref().map(parked_from_row).transpose()
}

pub(crate) async fn unpark_room(
    pool: &Pool<Db>,
    code: &str,
    game: Uuid,
) -> Result<bool, StoreError> {
    let done = sqlx::query("DELETE FROM parked_rooms WHERE room_code = $1 AND game_id = $2")
        .bind(code)
        .bind(game)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(done.rows_affected() > 0)
}

pub(crate) async fn due_parked_rooms(
    pool: &Pool<Db>,
    now: i64,
    limit: i64,
) -> Result<Vec<crate::ParkedRoom>, StoreError> {
    let rows = sqlx::query(
        "SELECT room_code, game_id, deadline_at, parked_at, swept_at, chat FROM parked_rooms \
         WHERE deadline_at <= $1 ORDER BY deadline_at, room_code LIMIT $2",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    let due = rows
        .iter()
        .map(parked_from_row)
        .collect::<Result<Vec<_>, _>>()?;
    if !due.is_empty() {
        sqlx::query(
            "UPDATE parked_rooms SET swept_at = $1 WHERE deadline_at <= $1 AND swept_at IS NULL",
        )
        .bind(now)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    }
    Ok(due)
}

pub(crate) async fn parked_seats_of(pool: &Pool<Db>, session: Uuid) -> Result<i64, StoreError> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM parked_rooms p JOIN seats s ON s.game_id = p.game_id \
         WHERE s.session_id = $1",
    )
    .bind(session)
    .fetch_one(pool)
    .await
    .map_err(|e| classify(BACKEND, e))
}

pub(crate) async fn parked_count(pool: &Pool<Db>) -> Result<i64, StoreError> {
    sqlx::query_scalar("SELECT COUNT(*) FROM parked_rooms")
        .fetch_one(pool)
        .await
        .map_err(|e| classify(BACKEND, e))
}
