// The nodes of a cluster (issue 21), included once per backend beside
// lease_queries.rs (whose `NOW_MS` it uses).
// `cargo fmt` does not reach an included file: after editing, run
// `rustfmt --edition 2024 crates/splendor-store/src/backend/node_queries.rs`.

/// Claims (or renews) node id `node` for `instance` for `ttl_ms`: taken when
/// it is free, expired, or already this instance's. `None` while another
/// instance's claim is live.
pub(crate) async fn claim_node(
    pool: &Pool<Db>,
    node: i32,
    instance: &str,
    ttl_ms: i64,
) -> Result<Option<crate::NodeClaim>, StoreError> {
    let sql = format!(
        "INSERT INTO nodes (node_id, instance, started_at, expires_at) \
         VALUES ($1, $2, {NOW_MS}, {NOW_MS} + $3) \
         ON CONFLICT (node_id) DO UPDATE \
         SET instance = excluded.instance, \
             started_at = CASE WHEN nodes.instance = excluded.instance \
                 THEN nodes.started_at ELSE excluded.started_at END, \
             expires_at = excluded.expires_at \
         WHERE nodes.instance = excluded.instance OR nodes.expires_at < {NOW_MS} \
         RETURNING node_id, instance, started_at, expires_at"
    );
    let row = sqlx::query(&sql)
        .bind(node)
        .bind(instance)
        .bind(ttl_ms)
        .fetch_optional(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    row.as_ref().map(node_claim_of).transpose()
}

fn node_claim_of(row: &DbRow) -> Result<crate::NodeClaim, StoreError> {
    let node: i32 = row.try_get("node_id").map_err(|e| classify(BACKEND, e))?;
    Ok(crate::NodeClaim {
        node: u16::try_from(node).unwrap_or_default(),
        instance: row.try_get("instance").map_err(|e| classify(BACKEND, e))?,
        started_at: row
            .try_get("started_at")
            .map_err(|e| classify(BACKEND, e))?,
        expires_at: row
            .try_get("expires_at")
            .map_err(|e| classify(BACKEND, e))?,
    })
}

/// Gives `instance`'s claim on `node` up (a clean stop): the id may be
/// claimed at once. Another instance's claim is left alone.
pub(crate) async fn release_node(
    pool: &Pool<Db>,
    node: i32,
    instance: &str,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE nodes SET expires_at = 0 WHERE node_id = $1 AND instance = $2")
        .bind(node)
        .bind(instance)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(())
}

/// The live claims, or only `node`'s, by node id.
pub(crate) async fn live_nodes(
    pool: &Pool<Db>,
    node: Option<i32>,
) -> Result<Vec<crate::NodeClaim>, StoreError> {
    let sql = format!(
        "SELECT node_id, instance, started_at, expires_at FROM nodes \
         WHERE expires_at >= {NOW_MS} AND ($1 IS NULL OR node_id = $1) \
         ORDER BY node_id"
    );
    let rows = sqlx::query(&sql)
        .bind(node)
        .fetch_all(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    rows.iter().map(node_claim_of).collect()
}
