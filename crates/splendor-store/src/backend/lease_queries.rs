// Room leases (issue 21), included once per backend beside queries.rs.
// The time is always the database's own (`NOW_MS`), never a node's.
// `cargo fmt` does not reach an included file: after editing, run
// `rustfmt --edition 2024 crates/splendor-store/src/backend/lease_queries.rs`.

/// The database's clock in Unix milliseconds.
const NOW_MS: &str = match BACKEND {
    crate::backend::Backend::Postgres => "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT",
    crate::backend::Backend::Sqlite => {
        "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)"
    }
};

/// How a node's renewal locks its lease rows: on PostgreSQL in room-code
/// order (see `renew_rooms`); SQLite has no row locks.
const LOCK_IN_ORDER: &str = match BACKEND {
    crate::backend::Backend::Postgres => " ORDER BY room_code FOR UPDATE",
    crate::backend::Backend::Sqlite => "",
};

/// Claims `code` for `node` for `ttl_ms`: a new lease (epoch 1), or the next
/// epoch of one that expired or was released. `None` while a live lease
/// holds it.
pub(crate) async fn claim_room(
    pool: &Pool<Db>,
    code: &str,
    node: i32,
    ttl_ms: i64,
) -> Result<Option<crate::RoomLease>, StoreError> {
    let sql = format!(
        "INSERT INTO room_leases (room_code, node_id, epoch, expires_at) \
         VALUES ($1, $2, 1, {NOW_MS} + $3) \
         ON CONFLICT (room_code) DO UPDATE \
         SET node_id = excluded.node_id, epoch = room_leases.epoch + 1, \
             expires_at = excluded.expires_at \
         WHERE room_leases.expires_at < {NOW_MS} \
         RETURNING epoch, expires_at"
    );
    let row = sqlx::query(&sql)
        .bind(code)
        .bind(node)
        .bind(ttl_ms)
        .fetch_optional(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    row.map(|row| lease_of(code, node, &row)).transpose()
}

fn lease_of(code: &str, node: i32, row: &DbRow) -> Result<crate::RoomLease, StoreError> {
    let epoch: i64 = row.try_get("epoch").map_err(|e| classify(BACKEND, e))?;
    let expires_at: i64 = row
        .try_get("expires_at")
        .map_err(|e| classify(BACKEND, e))?;
    Ok(crate::RoomLease {
        room_code: code.to_owned(),
        node: u16::try_from(node).unwrap_or_default(),
        epoch: u64::try_from(epoch).unwrap_or_default(),
        expires_at,
    })
}

/// Extends the lease `code`/`epoch` of `node` by `ttl_ms` from now; false
/// when it is no longer that node's (taken over or released).
pub(crate) async fn renew_room(
    pool: &Pool<Db>,
    code: &str,
    node: i32,
    epoch: i64,
    ttl_ms: i64,
) -> Result<bool, StoreError> {
    let sql = format!(
        "UPDATE room_leases SET expires_at = {NOW_MS} + $4 \
         WHERE room_code = $1 AND node_id = $2 AND epoch = $3 AND expires_at > 0"
    );
    let done = sqlx::query(&sql)
        .bind(code)
        .bind(node)
        .bind(epoch)
        .bind(ttl_ms)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(done.rows_affected() == 1)
}

/// Extends every lease of `leases` (code and epoch) that is still `node`'s
/// by `ttl_ms` from now, in one statement; returns the ones extended.
pub(crate) async fn renew_rooms(
    pool: &Pool<Db>,
    node: i32,
    leases: &[(String, i64)],
    ttl_ms: i64,
) -> Result<Vec<(String, i64)>, StoreError> {
    if leases.is_empty() {
        return Ok(Vec::new());
    }
    let pairs: Vec<String> = (0..leases.len())
        .map(|i| format!("(room_code = ${} AND epoch = ${})", 3 + 2 * i, 4 + 2 * i))
        .collect();
    // The rows are locked in room-code order (the subquery's), as a batch
    // of fenced writes locks them (queries.rs, `lock_leases_in_order`):
    // an UPDATE over many rows in another order deadlocks against it.
    let sql = format!(
        "UPDATE room_leases SET expires_at = {NOW_MS} + $2 \
         WHERE room_code IN (SELECT room_code FROM room_leases \
                             WHERE node_id = $1 AND expires_at > 0 AND ({}){LOCK_IN_ORDER}) \
         RETURNING room_code, epoch",
        pairs.join(" OR ")
    );
    let mut query = sqlx::query(&sql).bind(node).bind(ttl_ms);
    for (code, epoch) in leases {
        query = query.bind(code).bind(*epoch);
    }
    let rows = query
        .fetch_all(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    rows.iter()
        .map(|row| {
            let code: String = row.try_get("room_code").map_err(|e| classify(BACKEND, e))?;
            let epoch: i64 = row.try_get("epoch").map_err(|e| classify(BACKEND, e))?;
            Ok((code, epoch))
        })
        .collect()
}

/// Gives the lease `code`/`epoch` up (it stays, with its epoch, as
/// released); a lease that is no longer the code's changes nothing.
pub(crate) async fn release_room(
    pool: &Pool<Db>,
    code: &str,
    epoch: i64,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE room_leases SET expires_at = 0 WHERE room_code = $1 AND epoch = $2")
        .bind(code)
        .bind(epoch)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(())
}

/// The live leases: on `code` only, or all of them; by code.
pub(crate) async fn live_leases(
    pool: &Pool<Db>,
    code: Option<&str>,
) -> Result<Vec<crate::RoomLease>, StoreError> {
    let sql = format!(
        "SELECT room_code, node_id, epoch, expires_at FROM room_leases \
         WHERE expires_at >= {NOW_MS} AND ($1 IS NULL OR room_code = $1) \
         ORDER BY room_code"
    );
    let rows = sqlx::query(&sql)
        .bind(code)
        .fetch_all(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    rows.iter()
        .map(|row| {
            let code: String = row.try_get("room_code").map_err(|e| classify(BACKEND, e))?;
            let node: i32 = row.try_get("node_id").map_err(|e| classify(BACKEND, e))?;
            lease_of(&code, node, row)
        })
        .collect()
}

/// The database's clock now, in Unix milliseconds.
pub(crate) async fn database_now(pool: &Pool<Db>) -> Result<i64, StoreError> {
    sqlx::query_scalar(&format!("SELECT {NOW_MS}"))
        .fetch_one(pool)
        .await
        .map_err(|e| classify(BACKEND, e))
}

/// The unfinished games whose room no live lease holds: their owner died,
/// paused past its lease or was cut off from the database (or the room
/// closed without its game ending). A parked game (issue 25) is nobody's
/// orphan: it waits in the store. Oldest first.
pub(crate) async fn orphaned_games(pool: &Pool<Db>) -> Result<Vec<Uuid>, StoreError> {
    let sql = format!(
        "SELECT g.id FROM games g \
         WHERE g.finished_at IS NULL \
           AND NOT EXISTS (SELECT 1 FROM room_leases l \
                           WHERE l.room_code = g.room_code AND l.expires_at >= {NOW_MS}) \
           AND NOT EXISTS (SELECT 1 FROM parked_rooms p WHERE p.game_id = g.id) \
         ORDER BY g.created_at, g.id"
    );
    sqlx::query_scalar(&sql)
        .fetch_all(pool)
        .await
        .map_err(|e| classify(BACKEND, e))
}

/// The unfinished games in which `session` holds a seat, newest first, at
/// most `limit`.
pub(crate) async fn unfinished_games_of(
    pool: &Pool<Db>,
    session: Uuid,
    limit: i64,
) -> Result<Vec<Uuid>, StoreError> {
    sqlx::query_scalar(
        "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id \
         WHERE s.session_id = $1 AND g.finished_at IS NULL \
         ORDER BY g.created_at DESC LIMIT $2",
    )
    .bind(session)
    .bind(limit)
    .fetch_all(pool)
    .await
    .map_err(|e| classify(BACKEND, e))
}

/// The room of the newest unfinished game in which `session` holds a
/// seat, if any.
pub(crate) async fn seat_room(
    pool: &Pool<Db>,
    session: Uuid,
) -> Result<Option<String>, StoreError> {
    sqlx::query_scalar(
        "SELECT g.room_code FROM games g JOIN seats s ON s.game_id = g.id \
         WHERE s.session_id = $1 AND g.finished_at IS NULL \
         ORDER BY g.created_at DESC LIMIT 1",
    )
    .bind(session)
    .fetch_optional(pool)
    .await
    .map_err(|e| classify(BACKEND, e))
}
