// Blocks (issue 22), included once per backend. `cargo fmt` does not
// reach an included file: after editing, run
// `rustfmt --edition 2024 crates/splendor-store/src/backend/block_queries.rs`.

/// `blocker` blocks `blocked`, unless it blocks `max` sessions already;
/// `Some(new)` when it is blocked now, `None` past the limit.
pub(crate) async fn block(
    pool: &Pool<Db>,
    pair: (Uuid, Uuid),
    now: i64,
    max: i64,
) -> Result<Option<bool>, StoreError> {
    insert_pair_limited(pool, ("blocks", "blocker", "blocked"), pair, now, max).await
}

/// Inserts the row (`a`, `b`, `now`) into `table` (its two session
/// columns named), unless `a` has `max` rows there already: `Some(true)`
/// when inserted, `Some(false)` when it was there, `None` past the limit.
/// What blocks and follows (issue 50) share.
pub(crate) async fn insert_pair_limited(
    pool: &Pool<Db>,
    (table, first, second): (&'static str, &'static str, &'static str),
    (a, b): (Uuid, Uuid),
    now: i64,
    max: i64,
) -> Result<Option<bool>, StoreError> {
    let error = |e| classify(BACKEND, e);
    let insert = format!(
        "INSERT INTO {table} ({first}, {second}, created_at) \
         SELECT $1, $2, $3 WHERE (SELECT COUNT(*) FROM {table} WHERE {first} = $1) < $4 \
         ON CONFLICT ({first}, {second}) DO NOTHING"
    );
    let done = sqlx::query(&insert)
        .bind(a)
        .bind(b)
        .bind(now)
        .bind(max)
        .execute(pool)
        .await
        .map_err(error)?;
    if done.rows_affected() == 1 {
        return Ok(Some(true));
    }
    let exists = format!("SELECT 1 FROM {table} WHERE {first} = $1 AND {second} = $2");
    let already: Option<i32> = sqlx::query_scalar(&exists)
        .bind(a)
        .bind(b)
        .fetch_optional(pool)
        .await
        .map_err(error)?;
    Ok(already.map(|_| false))
}

/// `blocker` no longer blocks `blocked`; whether it did.
pub(crate) async fn unblock(
    pool: &Pool<Db>,
    blocker: Uuid,
    blocked: Uuid,
) -> Result<bool, StoreError> {
    let done = sqlx::query("DELETE FROM blocks WHERE blocker = $1 AND blocked = $2")
        .bind(blocker)
        .bind(blocked)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(done.rows_affected() > 0)
}

/// The sessions `blocker` blocked, newest first, with their names.
pub(crate) async fn blocks_of(
    pool: &Pool<Db>,
    blocker: Uuid,
) -> Result<Vec<crate::blocks::BlockedSession>, StoreError> {
    let rows = sqlx::query(
        "SELECT b.blocked, b.created_at, s.name FROM blocks b JOIN sessions s ON s.id = b.blocked \
         WHERE b.blocker = $1 ORDER BY b.created_at DESC, b.blocked",
    )
    .bind(blocker)
    .fetch_all(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    rows.iter()
        .map(|row| {
            let get = |e| classify(BACKEND, e);
            Ok(crate::blocks::BlockedSession {
                session: crate::SessionId(row.try_get("blocked").map_err(get)?),
                name: row.try_get("name").map_err(get)?,
                at: row.try_get("created_at").map_err(get)?,
            })
        })
        .collect()
}

/// The blocks between any two of `sessions`, as (blocker, blocked).
pub(crate) async fn blocks_among(
    pool: &Pool<Db>,
    sessions: &[Uuid],
) -> Result<Vec<(Uuid, Uuid)>, StoreError> {
    if sessions.len() < 2 {
        return Ok(Vec::new());
    }
    let n = sessions.len();
    let first: Vec<String> = (1..=n).map(|i| format!("${i}")).collect();
    let second: Vec<String> = (n + 1..=2 * n).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT blocker, blocked FROM blocks WHERE blocker IN ({}) AND blocked IN ({})",
        first.join(", "),
        second.join(", ")
    );
    let mut query = sqlx::query_as(&sql);
    for session in sessions.iter().chain(sessions) {
        query = query.bind(*session);
    }
    query
        .fetch_all(pool)
        .await
        .map_err(|e| classify(BACKEND, e))
}
