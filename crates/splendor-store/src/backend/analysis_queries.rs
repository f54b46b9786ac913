// The analyses of finished games (issue 26), included once per backend
// beside lease_queries.rs (whose `NOW_MS` it uses).
// `cargo fmt` does not reach an included file: after editing, run
// `rustfmt --edition 2024 crates/splendor-store/src/backend/analysis_queries.rs`.

pub(crate) async fn analysis(
    pool: &Pool<Db>,
    game: Uuid,
) -> Result<Option<crate::AnalysisRecord>, StoreError> {
    let sql = format!(
        "SELECT status, owner, done, total, body, {NOW_MS} - updated_at AS idle_ms \
         FROM analyses WHERE game_id = $1"
    );
    let Some(row) = sqlx::query(&sql)
        .bind(game)
        .fetch_optional(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?
    else {
        return Ok(None);
    };
    let get = |e| classify(BACKEND, e);
    let status: String = row.try_get("status").map_err(get)?;
    if status == "done" {
        let body: Option<String> = row.try_get("body").map_err(get)?;
        return Ok(Some(crate::AnalysisRecord::Done(body.unwrap_or_default())));
    }
    let done: i64 = row.try_get("done").map_err(get)?;
    let total: i64 = row.try_get("total").map_err(get)?;
    Ok(Some(crate::AnalysisRecord::Running {
        done: u32::try_from(done).unwrap_or(0),
        total: u32::try_from(total).unwrap_or(0),
        owner: row.try_get("owner").map_err(get)?,
        idle_ms: row.try_get("idle_ms").map_err(get)?,
    }))
}

pub(crate) async fn claim_analysis(
    pool: &Pool<Db>,
    game: Uuid,
    owner: &str,
    total: u32,
    stale_ms: i64,
) -> Result<bool, StoreError> {
    // One statement: a new claim, or the takeover of a claim gone quiet.
    let sql = format!(
        "INSERT INTO analyses (game_id, status, owner, done, total, body, updated_at) \
         VALUES ($1, 'running', $2, 0, $3, NULL, {NOW_MS}) \
         ON CONFLICT (game_id) DO UPDATE SET owner = excluded.owner, done = 0, \
         total = excluded.total, updated_at = excluded.updated_at \
         WHERE analyses.status = 'running' \
         AND (analyses.owner = excluded.owner OR analyses.updated_at <= {NOW_MS} - $4) \
         RETURNING owner"
    );
    let claimed = sqlx::query(&sql)
        .bind(game)
        .bind(owner)
        .bind(i64::from(total))
        .bind(stale_ms)
        .fetch_optional(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(claimed.is_some())
}

pub(crate) async fn analysis_progress(
    pool: &Pool<Db>,
    game: Uuid,
    owner: &str,
    done: u32,
) -> Result<bool, StoreError> {
    let sql = format!(
        "UPDATE analyses SET done = $3, updated_at = {NOW_MS} \
         WHERE game_id = $1 AND owner = $2 AND status = 'running'"
    );
    let updated = sqlx::query(&sql)
        .bind(game)
        .bind(owner)
        .bind(i64::from(done))
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(updated.rows_affected() == 1)
}

pub(crate) async fn finish_analysis(
    pool: &Pool<Db>,
    game: Uuid,
    owner: &str,
    body: &str,
) -> Result<bool, StoreError> {
    let sql = format!(
        "UPDATE analyses SET status = 'done', done = total, body = $3, updated_at = {NOW_MS} \
         WHERE game_id = $1 AND owner = $2 AND status = 'running'"
    );
    let updated = sqlx::query(&sql)
        .bind(game)
        .bind(owner)
        .bind(body)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(updated.rows_affected() == 1)
}

pub(crate) async fn release_analysis(
    pool: &Pool<Db>,
    game: Uuid,
    owner: &str,
) -> Result<(), StoreError> {
    sqlx::query("DELETE FROM analyses WHERE game_id = $1 AND owner = $2 AND status = 'running'")
        .bind(game)
        .bind(owner)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(())
}
