// What the operators' console reads (issue 22), included once per
// backend after rating_queries.rs (whose `entry_from_row` it uses).
// `cargo fmt` does not reach an included file: after editing, run
// `rustfmt --edition 2024 crates/splendor-store/src/backend/console_queries.rs`.

const SESSION_ROW: &str = "SELECT s.id, s.name, s.player_id, s.bot, s.client, s.created_at, s.last_seen, \
     r.games, r.rating FROM sessions s LEFT JOIN ratings r ON r.session_id = s.id";

fn session_row_of(row: &DbRow) -> Result<crate::console::SessionRow, StoreError> {
    let error = |e| classify(BACKEND, e);
    let bot: bool = row.try_get("bot").map_err(error)?;
    let games: Option<i64> = row.try_get("games").map_err(error)?;
    let player_id: Option<String> = row.try_get("player_id").map_err(error)?;
    Ok(crate::console::SessionRow {
        session: crate::SessionId(row.try_get("id").map_err(error)?),
        name: row.try_get("name").map_err(error)?,
        // A forgotten player's id is empty.
        player_id: player_id.filter(|p| !p.is_empty()),
        bot,
        client: row.try_get("client").map_err(error)?,
        created_at: row.try_get("created_at").map_err(error)?,
        last_seen: row.try_get("last_seen").map_err(error)?,
        rated_games: games.and_then(|g| u64::try_from(g).ok()).unwrap_or(0),
        rating: row.try_get("rating").map_err(error)?,
    })
}

/// Sessions by a lower-case needle (see `Store::find_sessions`): a
/// session id finds its session, anything else is looked for in names,
/// player ids and addresses.
pub(crate) async fn find_sessions(
    pool: &Pool<Db>,
    needle: &str,
    limit: i64,
) -> Result<Vec<crate::console::SessionRow>, StoreError> {
    let error = |e| classify(BACKEND, e);
    if let Ok(id) = Uuid::try_parse(needle) {
        return Ok(session_row(pool, id).await?.into_iter().collect());
    }
    let escaped: String = needle
        .chars()
        .flat_map(|c| match c {
            '%' | '_' | '\\' => vec!['\\', c],
            c => vec![c],
        })
        .collect();
    let pattern = format!("%{escaped}%");
    let sql = format!(
        "{SESSION_ROW} WHERE LOWER(s.name) LIKE $1 ESCAPE '\\' \
         OR COALESCE(s.player_id, '') LIKE $1 ESCAPE '\\' \
         OR LOWER(COALESCE(s.client, '')) LIKE $1 ESCAPE '\\' \
         ORDER BY COALESCE(s.last_seen, s.created_at) DESC LIMIT $2"
    );
    let rows = sqlx::query(&sql)
        .bind(pattern)
        .bind(limit)
        .fetch_all(pool)
        .await
        .map_err(error)?;
    rows.iter().map(session_row_of).collect()
}

/// One session, as the console shows it.
pub(crate) async fn session_row(
    pool: &Pool<Db>,
    id: Uuid,
) -> Result<Option<crate::console::SessionRow>, StoreError> {
    let sql = format!("{SESSION_ROW} WHERE s.id = $1");
    let row = sqlx::query(&sql)
        .bind(id)
        .fetch_optional(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    row.as_ref().map(session_row_of).transpose()
}

/// Everyone in the quick-play queue, oldest first.
pub(crate) async fn queue_entries(pool: &Pool<Db>) -> Result<Vec<QueueEntry>, StoreError> {
    let rows = sqlx::query(
        "SELECT session_id, name, players, queued_at, away_since, bots_at, pool, program, owner \
         FROM queue_entries ORDER BY queued_at, session_id LIMIT 1000",
    )
    .fetch_all(pool)
    .await
    .map_err(read_error)?;
    rows.iter().map(entry_from_row).collect()
}
