// The SQL of ratings and quick-play queues (issue 13), included once per
// backend beside `queries.rs` (whose imports, `Db`, `Conn` and helpers it
// shares). The common subset of both dialects only: `$N` placeholders,
// `ON CONFLICT ... DO UPDATE SET ... = excluded....`, `DELETE ... RETURNING`.
// `cargo fmt` does not reach an included file: after editing, run
// `rustfmt --edition 2024 crates/splendor-store/src/backend/rating_queries.rs`.

use crate::queue::QueueEntry;
use crate::rating::{BoardPage, PlayerRating, RatedGame};

const RATING_COLUMNS: &str =
    "player_id, name, bot, rating, deviation, volatility, games, wins, last_played";

fn rating_from_row(row: &DbRow) -> Result<PlayerRating, StoreError> {
    Ok(PlayerRating {
        player_id: get(row, "player_id")?,
        name: get(row, "name")?,
        bot: get(row, "bot")?,
        rating: get(row, "rating")?,
        deviation: get(row, "deviation")?,
        volatility: get(row, "volatility")?,
        games: narrow("games", get::<i64>(row, "games")?)?,
        wins: narrow("wins", get::<i64>(row, "wins")?)?,
        last_played: get(row, "last_played")?,
    })
}

/// A rating row's session id as sanctions name it: 32 lowercase hex digits.
const SESSION_HEX: &str = match BACKEND {
    crate::backend::Backend::Postgres => "replace(ratings.session_id::text, '-', '')",
    crate::backend::Backend::Sqlite => "lower(hex(ratings.session_id))",
};

pub(crate) async fn leaderboard(
    pool: &Pool<Db>,
    bot: bool,
    offset: i64,
    limit: i64,
) -> Result<BoardPage, StoreError> {
    // Marked sessions (issue 22) stay off the board, in the count too.
    let unmarked = format!(
        "NOT EXISTS (SELECT 1 FROM sanctions m WHERE m.kind = '{}' \
         AND m.value = {SESSION_HEX} AND m.lifted_at IS NULL \
         AND (m.until_ms IS NULL OR m.until_ms > {NOW_MS}))",
        crate::MARK_SESSION
    );
    let total: i64 = sqlx::query_scalar(&format!(
        "SELECT COUNT(*) FROM ratings WHERE bot = $1 AND {unmarked}"
    ))
    .bind(bot)
    .fetch_one(pool)
    .await
    .map_err(read_error)?;
    let sql = format!(
        "SELECT {RATING_COLUMNS} FROM ratings WHERE bot = $1 AND {unmarked} \
         ORDER BY rating DESC, player_id LIMIT $2 OFFSET $3"
    );
    let rows = sqlx::query(&sql)
        .bind(bot)
        .bind(limit)
        .bind(offset)
        .fetch_all(pool)
        .await
        .map_err(read_error)?;
    Ok(BoardPage {
        total: narrow("count", total)?,
        players: rows.iter().map(rating_from_row).collect::<Result<_, _>>()?,
    })
}

pub(crate) async fn session_is_bot(
    pool: &Pool<Db>,
    session: SessionId,
) -> Result<bool, StoreError> {
    let bot: Option<bool> = sqlx::query_scalar("SELECT bot FROM sessions WHERE id = $1")
        .bind(session.0)
        .fetch_optional(pool)
        .await
        .map_err(read_error)?;
    Ok(bot.unwrap_or(false))
}

pub(crate) async fn player_by_id(
    pool: &Pool<Db>,
    player_id: &str,
) -> Result<Option<PlayerRating>, StoreError> {
    let sql = format!("SELECT {RATING_COLUMNS} FROM ratings WHERE player_id = $1");
    let row = sqlx::query(&sql)
        .bind(player_id)
        .fetch_optional(pool)
        .await
        .map_err(read_error)?;
    row.as_ref().map(rating_from_row).transpose()
}

pub(crate) async fn players_named(
    pool: &Pool<Db>,
    name: &str,
) -> Result<Vec<PlayerRating>, StoreError> {
    let sql = format!(
        "SELECT {RATING_COLUMNS} FROM ratings WHERE name = $1 \
         ORDER BY rating DESC, player_id LIMIT 20"
    );
    let rows = sqlx::query(&sql)
        .bind(name)
        .fetch_all(pool)
        .await
        .map_err(read_error)?;
    rows.iter().map(rating_from_row).collect()
}

pub(crate) async fn recent_rated_games(
    pool: &Pool<Db>,
    player_id: &str,
    limit: i64,
) -> Result<Vec<RatedGame>, StoreError> {
    let rows = sqlx::query(
        "SELECT rr.game_id, rr.finished_at, rr.players, rr.place, rr.rating_before, \
                rr.rating_after \
         FROM rated_results rr JOIN ratings r ON r.session_id = rr.session_id \
         WHERE r.player_id = $1 ORDER BY rr.finished_at DESC, rr.game_id LIMIT $2",
    )
    .bind(player_id)
    .bind(limit)
    .fetch_all(pool)
    .await
    .map_err(read_error)?;
    let mut games: Vec<RatedGame> = rows
        .iter()
        .map(|row| {
            Ok(RatedGame {
                game_id: get(row, "game_id")?,
                finished_at: get(row, "finished_at")?,
                players: narrow("players", i64::from(get::<i32>(row, "players")?))?,
                place: narrow("place", i64::from(get::<i32>(row, "place")?))?,
                rating_before: get(row, "rating_before")?,
                rating_after: get(row, "rating_after")?,
                opponents: Vec::new(),
            })
        })
        .collect::<Result<_, StoreError>>()?;
    // The others at each table: one statement for all the games. Their
    // ids come from the sessions (a forgotten player's is blank, a bot has
    // no session), never computed from a seat's session id.
    if games.is_empty() {
        return Ok(games);
    }
    let placeholders: Vec<String> = (2..games.len() + 2).map(|n| format!("${n}")).collect();
    let sql = format!(
        "SELECT s.game_id, s.seat, s.name, s.bot, s.program, p.player_id FROM seats s \
         LEFT JOIN sessions p ON p.id = s.session_id \
         WHERE s.game_id IN ({}) AND (p.player_id IS NULL OR p.player_id <> $1) \
         ORDER BY s.game_id, s.seat",
        placeholders.join(", ")
    );
    let mut query = sqlx::query(&sql).bind(player_id);
    for game in &games {
        query = query.bind(game.game_id);
    }
    let seats = query.fetch_all(pool).await.map_err(read_error)?;
    let place: std::collections::HashMap<Uuid, usize> = games
        .iter()
        .enumerate()
        .map(|(i, g)| (g.game_id, i))
        .collect();
    for row in &seats {
        let game: Uuid = get(row, "game_id")?;
        let Some(&i) = place.get(&game) else {
            continue;
        };
        let id: Option<String> = get(row, "player_id")?;
        games[i].opponents.push(crate::rating::Opponent {
            name: get(row, "name")?,
            player_id: id.filter(|id| crate::is_player_id(id)),
            bot: get(row, "bot")?,
            program: get(row, "program")?,
        });
    }
    Ok(games)
}

// ---- quick-play queues ------------------------------------------------------

/// Single statements outside the writer: each is atomic on its own, and
/// SQLite's busy timeout orders them with the writer's transactions.
fn write_error(err: sqlx::Error) -> StoreError {
    classify(BACKEND, err)
}

fn entry_from_row(row: &DbRow) -> Result<QueueEntry, StoreError> {
    Ok(QueueEntry {
        session: SessionId(get(row, "session_id")?),
        name: get(row, "name")?,
        players: narrow("players", i64::from(get::<i32>(row, "players")?))?,
        queued_at: get(row, "queued_at")?,
        away_since: get(row, "away_since")?,
        bots_at: get(row, "bots_at")?,
        pool: crate::QueuePool::parse(&get::<String>(row, "pool")?)
            .ok_or_else(|| StoreError::invalid("pool", "an unknown quick-play pool"))?,
        program: get(row, "program")?,
        owner: get(row, "owner")?,
    })
}

pub(crate) async fn enqueue(
    pool: &Pool<Db>,
    session: SessionId,
    name: &str,
    (players, queue, program): (u8, crate::QueuePool, bool),
    (at, bots_at): (UnixMillis, Option<UnixMillis>),
) -> Result<(), StoreError> {
    let done = sqlx::query(
        "INSERT INTO queue_entries \
         (session_id, name, players, queued_at, bots_at, pool, program, owner) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, (SELECT owner FROM sessions WHERE id = $1)) \
         ON CONFLICT (session_id) DO NOTHING",
    )
    .bind(session.0)
    .bind(name)
    .bind(i32::from(players))
    .bind(at)
    .bind(bots_at)
    .bind(queue.as_str())
    .bind(program)
    .execute(pool)
    .await
    .map_err(write_error)?;
    if done.rows_affected() == 1 {
        return Ok(());
    }
    match queue_entry(pool, session).await? {
        Some(entry) => Err(StoreError::AlreadyQueued(entry.players)),
        // Taken out between the two statements: try once more.
        None => {
            Box::pin(enqueue(
                pool,
                session,
                name,
                (players, queue, program),
                (at, bots_at),
            ))
            .await
        }
    }
}

pub(crate) async fn dequeue(pool: &Pool<Db>, session: SessionId) -> Result<Option<u8>, StoreError> {
    let players: Option<i32> =
        sqlx::query_scalar("DELETE FROM queue_entries WHERE session_id = $1 RETURNING players")
            .bind(session.0)
            .fetch_optional(pool)
            .await
            .map_err(write_error)?;
    players.map(|p| narrow("players", i64::from(p))).transpose()
}

pub(crate) async fn queue_entry(
    pool: &Pool<Db>,
    session: SessionId,
) -> Result<Option<QueueEntry>, StoreError> {
    let row = sqlx::query(
        "SELECT session_id, name, players, queued_at, away_since, bots_at, pool, program, owner \
         FROM queue_entries WHERE session_id = $1",
    )
    .bind(session.0)
    .fetch_optional(pool)
    .await
    .map_err(read_error)?;
    row.as_ref().map(entry_from_row).transpose()
}

pub(crate) async fn set_queue_away(
    pool: &Pool<Db>,
    session: SessionId,
    since: Option<UnixMillis>,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE queue_entries SET away_since = $2 WHERE session_id = $1")
        .bind(session.0)
        .bind(since)
        .execute(pool)
        .await
        .map_err(write_error)?;
    Ok(())
}

pub(crate) async fn queue_length(
    pool: &Pool<Db>,
    players: u8,
    queue: crate::QueuePool,
) -> Result<u64, StoreError> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM queue_entries \
         WHERE players = $1 AND pool = $2 AND away_since IS NULL",
    )
    .bind(i32::from(players))
    .bind(queue.as_str())
    .fetch_one(pool)
    .await
    .map_err(read_error)?;
    narrow("count", n)
}

pub(crate) async fn take_match(
    pool: &Pool<Db>,
    (players, queue): (u8, crate::QueuePool),
    away_before: UnixMillis,
) -> Result<Option<Vec<QueueEntry>>, StoreError> {
    sqlx::query("DELETE FROM queue_entries WHERE away_since < $1")
        .bind(away_before)
        .execute(pool)
        .await
        .map_err(write_error)?;
    // A race lost to another node is tried again: the entries left may
    // still make a table (nothing else would form it before the next
    // queue or resume).
    for _ in 0..3 {
        if let Ok(found) = take_match_once(pool, (players, queue)).await? {
            return Ok(found);
        }
    }
    Ok(None)
}

/// One try of [`take_match`]'s choice: `Err(())` when another node took
/// some of the chosen entries meanwhile (the rest went back).
async fn take_match_once(
    pool: &Pool<Db>,
    (players, queue): (u8, crate::QueuePool),
) -> Result<Result<Option<Vec<QueueEntry>>, ()>, StoreError> {
    // The oldest present entries, skipping any whose owner is already at
    // the table (issue 24: one owner's programs never play each other),
    // then those taken out in one statement; another node that took some
    // of them meanwhile leaves this one too few, and the rest go back.
    let candidates: Vec<(Uuid, Option<String>)> = sqlx::query_as(
        "SELECT session_id, owner FROM queue_entries \
         WHERE players = $1 AND pool = $2 AND away_since IS NULL \
         ORDER BY queued_at, session_id LIMIT 200",
    )
    .bind(i32::from(players))
    .bind(queue.as_str())
    .fetch_all(pool)
    .await
    .map_err(write_error)?;
    let Some(mut entries) = take_table(pool, candidates, players, true).await? else {
        return Ok(Ok(None));
    };
    if entries.is_empty() {
        return Ok(Err(()));
    }
    if entries.len() < usize::from(players) {
        // Another server took some of them at the same moment: put these
        // back where they were.
        for e in &entries {
            put_back(pool, e).await?;
        }
        return Ok(Err(()));
    }
    entries.sort_by_key(|e| (e.queued_at, e.session));
    Ok(Ok(Some(entries)))
}

pub(crate) async fn take_with_bots(
    pool: &Pool<Db>,
    session: SessionId,
    players: u8,
) -> Result<Option<Vec<QueueEntry>>, StoreError> {
    // The session's entry first, then the oldest present entries of its
    // pool, skipping any whose owner already has a seat (issue 24: one
    // owner's programs never play each other, bots or not); taken out in
    // one statement, the session's entry only if still present.
    let candidates: Vec<(Uuid, Option<String>)> = sqlx::query_as(
        "SELECT session_id, owner FROM queue_entries \
         WHERE players = $1 AND away_since IS NULL \
           AND pool = (SELECT pool FROM queue_entries WHERE session_id = $2) \
         ORDER BY CASE WHEN session_id = $2 THEN 0 ELSE 1 END, queued_at, session_id \
         LIMIT 200",
    )
    .bind(i32::from(players))
    .bind(session.0)
    .fetch_all(pool)
    .await
    .map_err(write_error)?;
    if candidates.first().map(|(s, _)| *s) != Some(session.0) {
        return Ok(None);
    }
    let Some(mut entries) = take_table(pool, candidates, players, false).await? else {
        return Ok(None);
    };
    if !entries.iter().any(|e| e.session == session) {
        // Matched by someone else meanwhile; whatever this took goes back.
        for e in &entries {
            put_back(pool, e).await?;
        }
        return Ok(None);
    }
    entries.sort_by_key(|e| (e.session != session, e.queued_at, e.session));
    Ok(Some(entries))
}

/// Chooses one table among `candidates` ([`choose_table`]) and takes its
/// present entries out of the queue in one statement; `None`, taking
/// nothing, when `full` asks for a whole table and there is none.
async fn take_table(
    pool: &Pool<Db>,
    candidates: Vec<(Uuid, Option<String>)>,
    players: u8,
    full: bool,
) -> Result<Option<Vec<QueueEntry>>, StoreError> {
    let ids: Vec<Uuid> = candidates.iter().map(|(id, _)| *id).collect();
    let blocks = blocks_among(pool, &ids).await?;
    let chosen = choose_table(candidates, &blocks, players);
    if full && chosen.len() < usize::from(players) {
        return Ok(None);
    }
    let placeholders: Vec<String> = (1..=chosen.len()).map(|n| format!("${n}")).collect();
    let sql = format!(
        "DELETE FROM queue_entries WHERE session_id IN ({}) AND away_since IS NULL \
         RETURNING session_id, name, players, queued_at, away_since, bots_at, pool, program, owner",
        placeholders.join(", ")
    );
    let mut query = sqlx::query(&sql);
    for session in &chosen {
        query = query.bind(*session);
    }
    let rows = query.fetch_all(pool).await.map_err(write_error)?;
    let entries = rows.iter().map(entry_from_row).collect::<Result<_, _>>()?;
    Ok(Some(entries))
}

/// The entries of one table among `candidates` (in the order given, the
/// first first): at most `players`, skipping an entry whose owner already
/// has a seat (issue 24: one owner's programs never play each other) or
/// that blocked, or was blocked by, one already seated (issue 22).
fn choose_table(
    candidates: Vec<(Uuid, Option<String>)>,
    blocks: &[(Uuid, Uuid)],
    players: u8,
) -> Vec<Uuid> {
    let mut chosen: Vec<Uuid> = Vec::new();
    let mut owners: Vec<String> = Vec::new();
    for (candidate, owner) in candidates {
        let blocked = chosen.iter().any(|&seated| {
            blocks.contains(&(seated, candidate)) || blocks.contains(&(candidate, seated))
        });
        if blocked || owner.as_ref().is_some_and(|o| owners.contains(o)) {
            continue;
        }
        owners.extend(owner);
        chosen.push(candidate);
        if chosen.len() == usize::from(players) {
            break;
        }
    }
    chosen
}

/// Puts an entry taken out back where it was (another server took some of
/// its game's entries at the same moment).
async fn put_back(pool: &Pool<Db>, e: &QueueEntry) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO queue_entries \
         (session_id, name, players, queued_at, bots_at, pool, program, owner) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (session_id) DO NOTHING",
    )
    .bind(e.session.0)
    .bind(e.name.as_str())
    .bind(i32::from(e.players))
    .bind(e.queued_at)
    .bind(e.bots_at)
    .bind(e.pool.as_str())
    .bind(e.program)
    .bind(e.owner.as_deref())
    .execute(pool)
    .await
    .map_err(write_error)?;
    Ok(())
}

pub(crate) async fn clear_queues(pool: &Pool<Db>) -> Result<u64, StoreError> {
    let done = sqlx::query("DELETE FROM queue_entries")
        .execute(pool)
        .await
        .map_err(write_error)?;
    Ok(done.rows_affected())
}
