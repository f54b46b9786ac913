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

/// The unfinished games, newest first, with their seats, when they started
/// and their last move (the live rooms' view, issue 22).
pub(crate) async fn live_games(
    pool: &Pool<Db>,
) -> Result<Vec<crate::console::LiveGame>, StoreError> {
    let error = |e| classify(BACKEND, e);
    let rows = sqlx::query(
        "SELECT g.id, g.room_code, g.created_at, g.clock_json, \
                (SELECT MAX(a.at) FROM actions a WHERE a.game_id = g.id) AS last_move \
         FROM games g WHERE g.finished_at IS NULL ORDER BY g.created_at DESC LIMIT 2000",
    )
    .fetch_all(pool)
    .await
    .map_err(error)?;
    let mut games = Vec::with_capacity(rows.len());
    let mut index = std::collections::HashMap::new();
    for row in &rows {
        let id: Uuid = row.try_get("id").map_err(error)?;
        index.insert(id, games.len());
        games.push(crate::console::LiveGame {
            room: row.try_get("room_code").map_err(error)?,
            started_at: row.try_get("created_at").map_err(error)?,
            last_move_at: row.try_get("last_move").map_err(error)?,
            clock_json: row.try_get("clock_json").map_err(error)?,
            seats: Vec::new(),
        });
    }
    let seats = sqlx::query(
        "SELECT s.game_id, s.seat, s.name, s.bot FROM seats s JOIN games g ON g.id = s.game_id \
         WHERE g.finished_at IS NULL ORDER BY s.game_id, s.seat",
    )
    .fetch_all(pool)
    .await
    .map_err(error)?;
    for row in &seats {
        let id: Uuid = row.try_get("game_id").map_err(error)?;
        let Some(&i) = index.get(&id) else { continue };
        let seat: i32 = row.try_get::<i32, _>("seat").map_err(error)?;
        games[i].seats.push(crate::console::LiveSeat {
            seat: u8::try_from(seat).unwrap_or(u8::MAX),
            name: row.try_get("name").map_err(error)?,
            bot: row.try_get("bot").map_err(error)?,
        });
    }
    Ok(games)
}
