// Programs' names and the programs online (issue 24), included once per
// backend beside lease_queries.rs (whose `NOW_MS` it uses). `cargo fmt`
// does not reach an included file: after editing, run
// `rustfmt --edition 2024 crates/splendor-store/src/backend/bot_queries.rs`.

/// Who holds the program name `key`, if anyone.
pub(crate) async fn bot_name_holder(
    pool: &Pool<Db>,
    key: &str,
) -> Result<Option<Uuid>, StoreError> {
    sqlx::query_scalar("SELECT session_id FROM bot_names WHERE name_key = $1")
        .bind(key)
        .fetch_optional(pool)
        .await
        .map_err(|e| classify(BACKEND, e))
}

/// Claims `key` for `session` unless another session holds it; then
/// frees the session's other names. Whether the session holds it now.
/// Each statement stands alone: the primary key decides between two
/// claimants of one name, on any node.
pub(crate) async fn claim_bot_name(
    pool: &Pool<Db>,
    session: Uuid,
    key: &str,
    now: i64,
) -> Result<bool, StoreError> {
    let error = |e| classify(BACKEND, e);
    // One transaction: two hellos of one session renaming at once cannot
    // each free the other's new name and leave it with none.
    let mut tx = pool.begin().await.map_err(error)?;
    if matches!(BACKEND, super::Backend::Postgres) {
        // Two claims of one session wait for each other (on SQLite the
        // INSERT below takes the database's write lock at once).
        sqlx::query("SELECT id FROM sessions WHERE id = $1 FOR UPDATE")
            .bind(session)
            .fetch_optional(&mut *tx)
            .await
            .map_err(error)?;
    }
    sqlx::query(
        "INSERT INTO bot_names (name_key, session_id, claimed_at) VALUES ($1, $2, $3) \
         ON CONFLICT (name_key) DO NOTHING",
    )
    .bind(key)
    .bind(session)
    .bind(now)
    .execute(&mut *tx)
    .await
    .map_err(error)?;
    let holder: Option<Uuid> =
        sqlx::query_scalar("SELECT session_id FROM bot_names WHERE name_key = $1")
            .bind(key)
            .fetch_optional(&mut *tx)
            .await
            .map_err(error)?;
    if holder != Some(session) {
        tx.rollback().await.map_err(error)?;
        return Ok(false);
    }
    sqlx::query("DELETE FROM bot_names WHERE session_id = $1 AND name_key <> $2")
        .bind(session)
        .bind(key)
        .execute(&mut *tx)
        .await
        .map_err(error)?;
    tx.commit().await.map_err(error)?;
    Ok(true)
}

/// Frees every name `session` holds.
pub(crate) async fn free_bot_names(pool: &Pool<Db>, session: Uuid) -> Result<(), StoreError> {
    sqlx::query("DELETE FROM bot_names WHERE session_id = $1")
        .bind(session)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(())
}

/// `session` is online on connection `conn` of node `node` (replacing
/// its row of an older connection).
pub(crate) async fn bot_online(
    pool: &Pool<Db>,
    session: Uuid,
    (node, conn): (i32, i64),
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO bots_online (session_id, node_id, conn, since) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (session_id) DO UPDATE \
         SET node_id = excluded.node_id, conn = excluded.conn, since = excluded.since",
    )
    .bind(session)
    .bind(node)
    .bind(conn)
    .bind(now)
    .execute(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    Ok(())
}

/// Connection `conn` of `session` ended: its row goes, unless a newer
/// connection's replaced it.
pub(crate) async fn bot_offline(
    pool: &Pool<Db>,
    session: Uuid,
    conn: i64,
) -> Result<(), StoreError> {
    sqlx::query("DELETE FROM bots_online WHERE session_id = $1 AND conn = $2")
        .bind(session)
        .bind(conn)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(())
}

/// Deletes node `node`'s rows (it starts: none of its connections is
/// open); how many.
pub(crate) async fn clear_bots_online(pool: &Pool<Db>, node: i32) -> Result<u64, StoreError> {
    let done = sqlx::query("DELETE FROM bots_online WHERE node_id = $1")
        .bind(node)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(done.rows_affected())
}

/// The programs online, longest online first, at most `limit`; with
/// `live_nodes`, only those on a node whose claim is live (a cluster).
pub(crate) async fn bots_online(
    pool: &Pool<Db>,
    live_nodes: bool,
    limit: i64,
) -> Result<Vec<crate::bots::OnlineBot>, StoreError> {
    let sql = format!(
        "SELECT b.session_id, b.node_id, b.since, s.name, s.player_id, \
                r.rating, r.deviation, r.games \
         FROM bots_online b JOIN sessions s ON s.id = b.session_id \
         LEFT JOIN ratings r ON r.session_id = b.session_id \
         WHERE s.bot AND ($1 = 0 OR EXISTS (SELECT 1 FROM nodes n \
                 WHERE n.node_id = b.node_id AND n.expires_at >= {NOW_MS})) \
         ORDER BY b.since, b.session_id LIMIT $2"
    );
    let rows = sqlx::query(&sql)
        .bind(i32::from(live_nodes))
        .bind(limit)
        .fetch_all(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    rows.iter()
        .map(|row| {
            let get = |e| classify(BACKEND, e);
            let node: i32 = row.try_get("node_id").map_err(get)?;
            let games: Option<i64> = row.try_get("games").map_err(get)?;
            let player_id: Option<String> = row.try_get("player_id").map_err(get)?;
            Ok(crate::bots::OnlineBot {
                session: crate::SessionId(row.try_get("session_id").map_err(get)?),
                name: row.try_get("name").map_err(get)?,
                player_id: player_id.filter(|id| crate::is_player_id(id)),
                rating: row.try_get("rating").map_err(get)?,
                deviation: row.try_get("deviation").map_err(get)?,
                rated_games: games.map_or(0, |g| u64::try_from(g).unwrap_or(0)),
                since: row.try_get("since").map_err(get)?,
                node: u16::try_from(node).unwrap_or_default(),
            })
        })
        .collect()
}

/// A program's owner (a digest, or none) and the address it said hello
/// from, as of this hello.
pub(crate) async fn set_program_owner(
    pool: &Pool<Db>,
    session: Uuid,
    owner: Option<&str>,
    client: Option<&str>,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE sessions SET owner = $2, client = $3 WHERE id = $1")
        .bind(session)
        .bind(owner)
        .bind(client)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(())
}

/// A program's owner digest, if it has one (and the session exists).
pub(crate) async fn program_owner(
    pool: &Pool<Db>,
    session: Uuid,
) -> Result<Option<String>, StoreError> {
    let owner: Option<Option<String>> =
        sqlx::query_scalar("SELECT owner FROM sessions WHERE id = $1")
            .bind(session)
            .fetch_optional(pool)
            .await
            .map_err(|e| classify(BACKEND, e))?;
    Ok(owner.flatten())
}

/// The rated games programs play now, or wait in the queue for, that
/// count against `session`'s caps: those of its owner (or of the session
/// alone, without one), and those of programs from its address.
pub(crate) async fn ladder_load(pool: &Pool<Db>, session: Uuid) -> Result<(i64, i64), StoreError> {
    let sql = format!(
        "SELECT {LOAD_BY_OWNER} AS by_owner, {LOAD_BY_ADDRESS} AS by_client \
         FROM sessions me WHERE me.id = $1"
    );
    let row = sqlx::query(&sql)
        .bind(session)
        .fetch_optional(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    let Some(row) = row else {
        return Ok((0, 0));
    };
    let get = |e| classify(BACKEND, e);
    Ok((
        row.try_get("by_owner").map_err(get)?,
        row.try_get("by_client").map_err(get)?,
    ))
}

/// The rated program games counted against a program's owner (`me`'s),
/// and against its address, as SQL over `me` (a row of `sessions`).
const LOAD_BY_OWNER: &str = "(SELECT COUNT(DISTINCT g.id) FROM games g \
      JOIN seats s ON s.game_id = g.id JOIN sessions o ON o.id = s.session_id \
    WHERE g.finished_at IS NULL AND g.rated AND s.program \
      AND (o.id = me.id OR (me.owner IS NOT NULL AND o.owner = me.owner))) \
 + (SELECT COUNT(*) FROM queue_entries q \
    WHERE q.session_id <> me.id AND me.owner IS NOT NULL AND q.owner = me.owner)";
const LOAD_BY_ADDRESS: &str = "(SELECT COUNT(DISTINCT g.id) FROM games g \
      JOIN seats s ON s.game_id = g.id JOIN sessions o ON o.id = s.session_id \
    WHERE g.finished_at IS NULL AND g.rated AND s.program \
      AND (o.id = me.id OR (me.client IS NOT NULL AND o.client = me.client))) \
 + (SELECT COUNT(*) FROM queue_entries q JOIN sessions o ON o.id = q.session_id \
    WHERE q.session_id <> me.id AND q.program \
      AND me.client IS NOT NULL AND o.client = me.client)";

/// Puts program `session` in the programs' queue only if its owner's and
/// its address's loads are under `caps`, in one statement (on
/// PostgreSQL after taking the owner's and the address's advisory locks,
/// so that two nodes queueing one owner's programs at once count each
/// other). `Ok(true)`: queued; `Ok(false)`: not (capped, or queued
/// already: the caller tells them apart).
pub(crate) async fn enqueue_program(
    pool: &Pool<Db>,
    session: Uuid,
    (name, players): (&str, i32),
    (at, bots_at): (i64, Option<i64>),
    (per_owner, per_address): (i64, i64),
) -> Result<bool, StoreError> {
    let error = |e| classify(BACKEND, e);
    let sql = format!(
        "INSERT INTO queue_entries \
           (session_id, name, players, queued_at, bots_at, pool, program, owner) \
         SELECT me.id, $2, $3, $4, $5, 'programs', TRUE, me.owner FROM sessions me \
         WHERE me.id = $1 AND {LOAD_BY_OWNER} < $6 AND {LOAD_BY_ADDRESS} < $7 \
         ON CONFLICT (session_id) DO NOTHING"
    );
    let mut tx = pool.begin().await.map_err(error)?;
    if matches!(BACKEND, super::Backend::Postgres) {
        sqlx::query(
            "SELECT pg_advisory_xact_lock(hashtext('splendor ladder owner ' || \
               COALESCE(owner, CAST(id AS TEXT)))), \
             pg_advisory_xact_lock(hashtext('splendor ladder address ' || COALESCE(client, ''))) \
             FROM sessions WHERE id = $1",
        )
        .bind(session)
        .fetch_optional(&mut *tx)
        .await
        .map_err(error)?;
    }
    let done = sqlx::query(&sql)
        .bind(session)
        .bind(name)
        .bind(players)
        .bind(at)
        .bind(bots_at)
        .bind(per_owner)
        .bind(per_address)
        .execute(&mut *tx)
        .await
        .map_err(error)?;
    tx.commit().await.map_err(error)?;
    Ok(done.rows_affected() == 1)
}

/// Every claimed name's key and holder, oldest claim first.
pub(crate) async fn bot_name_keys(pool: &Pool<Db>) -> Result<Vec<(String, Uuid)>, StoreError> {
    sqlx::query_as("SELECT name_key, session_id FROM bot_names ORDER BY claimed_at, name_key")
        .fetch_all(pool)
        .await
        .map_err(|e| classify(BACKEND, e))
}

/// Moves `session`'s claim from `old` to `new` (dropped when another
/// holds `new` already).
pub(crate) async fn rekey_bot_name(
    pool: &Pool<Db>,
    old: &str,
    new: &str,
    session: Uuid,
) -> Result<(), StoreError> {
    let error = |e| classify(BACKEND, e);
    let mut tx = pool.begin().await.map_err(error)?;
    sqlx::query(
        "INSERT INTO bot_names (name_key, session_id, claimed_at) \
         SELECT $2, session_id, claimed_at FROM bot_names WHERE name_key = $1 AND session_id = $3 \
         ON CONFLICT (name_key) DO NOTHING",
    )
    .bind(old)
    .bind(new)
    .bind(session)
    .execute(&mut *tx)
    .await
    .map_err(error)?;
    sqlx::query("DELETE FROM bot_names WHERE name_key = $1 AND session_id = $2")
        .bind(old)
        .bind(session)
        .execute(&mut *tx)
        .await
        .map_err(error)?;
    tx.commit().await.map_err(error)
}
