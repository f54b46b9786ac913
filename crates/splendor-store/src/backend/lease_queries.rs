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

/// The `expires_at` of a room held by a node's lease (issue 44): it lives
/// as long as the node's claim in `nodes` does, until released (0).
pub(crate) const HELD_BY_NODE: i64 = 253_402_300_799_999;

/// Whether the lease row `l` (an SQL alias of `room_leases`) is live now:
/// a per-room lease (no instance, a node of before) until its own expiry;
/// a node's (issue 44) while it is not released and its node's claim in
/// `nodes`, by the same process, is live.
pub(crate) fn live_lease(l: &str) -> String {
    format!(
        "({l}.expires_at >= {NOW_MS} AND ({l}.instance = '' OR EXISTS          (SELECT 1 FROM nodes n WHERE n.node_id = {l}.node_id           AND n.instance = {l}.instance AND n.expires_at >= {NOW_MS})))"
    )
}

/// How a node's renewal locks its lease rows: on PostgreSQL in room-code
/// order (see `renew_rooms`); SQLite has no row locks.
const LOCK_IN_ORDER: &str = match BACKEND {
    crate::backend::Backend::Postgres => " ORDER BY room_code FOR UPDATE",
    crate::backend::Backend::Sqlite => "",
};

/// Claims `code` for `node`: a new lease (epoch 1), or the next epoch of
/// one that is not live (expired, released, or its node's claim lapsed).
/// `None` while a live lease holds it. With an `instance` (a node's claim
/// in `nodes`, issue 44) the lease lives as long as that claim; without
/// one (`""`) for `ttl_ms`, renewed per room.
pub(crate) async fn claim_room(
    pool: &Pool<Db>,
    code: &str,
    (node, instance): (i32, &str),
    ttl_ms: i64,
) -> Result<Option<crate::RoomLease>, StoreError> {
    let live = live_lease("room_leases");
    // By a node's lease, only while that lease is live: a claim made
    // while the claimer's own claim has lapsed would be born an orphan
    // (and taken again by the next scan, fencing the room just restored).
    let (expires, claimer_live) = if instance.is_empty() {
        (format!("{NOW_MS} + $3"), "1 = 1".to_owned())
    } else {
        (
            HELD_BY_NODE.to_string(),
            format!(
                "EXISTS (SELECT 1 FROM nodes n WHERE n.node_id = $2 AND n.instance = $4 \
                 AND n.expires_at >= {NOW_MS})"
            ),
        )
    };
    let sql = format!(
        "INSERT INTO room_leases (room_code, node_id, epoch, expires_at, instance) \
         SELECT $1, $2, 1, {expires}, $4 WHERE {claimer_live} \
         ON CONFLICT (room_code) DO UPDATE \
         SET node_id = excluded.node_id, epoch = room_leases.epoch + 1, \
             expires_at = excluded.expires_at, instance = excluded.instance \
         WHERE NOT {live} AND {claimer_live} \
         RETURNING epoch, expires_at"
    );
    let row = sqlx::query(&sql)
        .bind(code)
        .bind(node)
        .bind(ttl_ms)
        .bind(instance)
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

/// A lease row's room code and epoch.
fn code_and_epoch(row: &DbRow) -> Result<(String, i64), StoreError> {
    let code: String = row.try_get("room_code").map_err(|e| classify(BACKEND, e))?;
    let epoch: i64 = row.try_get("epoch").map_err(|e| classify(BACKEND, e))?;
    Ok((code, epoch))
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
    rows.iter().map(code_and_epoch).collect()
}

/// Extends `instance`'s claim on node id `node` by `ttl_ms` from now,
/// only while it is live and that instance's (issue 44: this one row is a
/// node's whole renewal); false when it lapsed or another process holds
/// the id.
pub(crate) async fn renew_node(
    pool: &Pool<Db>,
    node: i32,
    instance: &str,
    ttl_ms: i64,
) -> Result<bool, StoreError> {
    let sql = format!(
        "UPDATE nodes SET expires_at = {NOW_MS} + $3 \
         WHERE node_id = $1 AND instance = $2 AND expires_at >= {NOW_MS}"
    );
    let done = sqlx::query(&sql)
        .bind(node)
        .bind(instance)
        .bind(ttl_ms)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(done.rows_affected() == 1)
}

/// The rooms (code and epoch) `instance` of node `node` holds by its node
/// lease and has not released.
pub(crate) async fn held_rooms(
    pool: &Pool<Db>,
    node: i32,
    instance: &str,
) -> Result<Vec<(String, i64)>, StoreError> {
    let rows = sqlx::query(
        "SELECT room_code, epoch FROM room_leases \
         WHERE node_id = $1 AND instance = $2 AND expires_at > 0",
    )
    .bind(node)
    .bind(instance)
    .fetch_all(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    rows.iter().map(code_and_epoch).collect()
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
        "SELECT l.room_code, l.node_id, l.epoch, l.expires_at FROM room_leases l \
         WHERE {} AND ($1 IS NULL OR l.room_code = $1) \
         ORDER BY l.room_code",
        live_lease("l")
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
                           WHERE l.room_code = g.room_code AND {}) \
           AND NOT EXISTS (SELECT 1 FROM parked_rooms p WHERE p.game_id = g.id) \
         ORDER BY g.created_at, g.id",
        live_lease("l")
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
