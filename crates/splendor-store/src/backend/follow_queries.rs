// Follows (issue 50), included once per backend. `cargo fmt` does not
// reach an included file: after editing, run
// `rustfmt --edition 2024 crates/splendor-store/src/backend/follow_queries.rs`.

/// Neither of the sessions `a` and `b` (SQL expressions) blocks the other.
fn no_block_between(a: &str, b: &str) -> String {
    format!(
        "NOT EXISTS (SELECT 1 FROM blocks k WHERE (k.blocker = {a} AND k.blocked = {b}) \
         OR (k.blocker = {b} AND k.blocked = {a}))"
    )
}

/// `follower` follows `followed`, unless it follows `max` sessions
/// already; `Some(new)` when it follows now, `None` past the limit.
pub(crate) async fn follow(
    pool: &Pool<Db>,
    pair: (Uuid, Uuid),
    now: i64,
    max: i64,
) -> Result<Option<bool>, StoreError> {
    insert_pair_limited(pool, ("follows", "follower", "followed"), pair, now, max).await
}

/// `follower` no longer follows `followed`; whether it did.
pub(crate) async fn unfollow(
    pool: &Pool<Db>,
    follower: Uuid,
    followed: Uuid,
) -> Result<bool, StoreError> {
    let done = sqlx::query("DELETE FROM follows WHERE follower = $1 AND followed = $2")
        .bind(follower)
        .bind(followed)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(done.rows_affected() > 0)
}

/// The rows of a list of follows: `other` is the session listed, `me`
/// the one who asks (SQL expressions over `f`).
fn followed_rows(rows: &[<Db as sqlx::Database>::Row]) -> Result<Vec<crate::Followed>, StoreError> {
    rows.iter()
        .map(|row| {
            let get = |e| classify(BACKEND, e);
            let mutual: i64 = row.try_get("mutual").map_err(get)?;
            let mutual = mutual != 0;
            let last_seen: i64 = row.try_get("seen").map_err(get)?;
            let room: Option<String> = row.try_get("room").map_err(get)?;
            Ok(crate::Followed {
                session: crate::SessionId(row.try_get("other").map_err(get)?),
                player_id: row.try_get("player_id").map_err(get)?,
                name: row.try_get("name").map_err(get)?,
                since: row.try_get("created_at").map_err(get)?,
                mutual,
                last_seen: mutual.then_some(last_seen),
                room: room.filter(|_| mutual),
            })
        })
        .collect()
}

/// The columns of a list of follows: `other` is the session listed (an
/// SQL expression over `f`), `mutual` whether the two follow each other.
fn followed_columns(other: &str, mutual: &str) -> String {
    format!(
        "{other} AS other, f.created_at, s.name, COALESCE(s.player_id, '') AS player_id, \
         COALESCE(s.last_seen, s.created_at) AS seen, \
         CAST(CASE WHEN {mutual} THEN 1 ELSE 0 END AS BIGINT) AS mutual, \
         (SELECT g.room_code FROM games g JOIN seats st ON st.game_id = g.id \
         WHERE st.session_id = {other} AND g.finished_at IS NULL \
         ORDER BY g.created_at DESC LIMIT 1) AS room"
    )
}

/// The sessions `follower` follows, by name, without blocks either way.
pub(crate) async fn follows_of(
    pool: &Pool<Db>,
    follower: Uuid,
) -> Result<Vec<crate::Followed>, StoreError> {
    let sql = format!(
        "SELECT {} FROM follows f JOIN sessions s ON s.id = f.followed \
         WHERE f.follower = $1 AND {} ORDER BY s.name, f.followed",
        followed_columns(
            "f.followed",
            "EXISTS (SELECT 1 FROM follows b WHERE b.follower = f.followed AND b.followed = f.follower)"
        ),
        no_block_between("f.follower", "f.followed"),
    );
    let rows = sqlx::query(&sql)
        .bind(follower)
        .fetch_all(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    followed_rows(&rows)
}

/// The sessions that follow `followed` and that it does not follow back,
/// newest first, without blocks either way.
pub(crate) async fn followers_of(
    pool: &Pool<Db>,
    followed: Uuid,
    limit: i64,
) -> Result<Vec<crate::Followed>, StoreError> {
    let sql = format!(
        "SELECT {} FROM follows f JOIN sessions s ON s.id = f.follower \
         WHERE f.followed = $1 AND {} AND NOT EXISTS (SELECT 1 FROM follows m \
         WHERE m.follower = f.followed AND m.followed = f.follower) \
         ORDER BY f.created_at DESC, f.follower LIMIT $2",
        // Listed only when not followed back: never friends.
        followed_columns("f.follower", "1 = 0"),
        no_block_between("f.follower", "f.followed"),
    );
    let rows = sqlx::query(&sql)
        .bind(followed)
        .bind(limit)
        .fetch_all(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    followed_rows(&rows)
}

/// A seat's accuracy (`st.seat`) in a finished analysis (`a.body`), read
/// with the backend's own JSON functions: the bodies stay in the database.
const SEAT_ACCURACY: &str = match BACKEND {
    crate::backend::Backend::Postgres => {
        "CAST((CAST(a.body AS JSONB) -> 'figures' -> CAST(st.seat AS INTEGER) ->> 'accuracy') AS DOUBLE PRECISION)"
    }
    crate::backend::Backend::Sqlite => {
        "CAST(json_extract(a.body, '$.figures[' || st.seat || '].accuracy') AS REAL)"
    }
};

/// The rated player `player_id`'s mean accuracy over the finished analyses
/// of their newest `limit` analysed rated games.
pub(crate) async fn mean_accuracy(
    pool: &Pool<Db>,
    player_id: &str,
    limit: i64,
) -> Result<crate::MeanAccuracy, StoreError> {
    let sql = format!(
        "SELECT COUNT(acc) AS games, AVG(acc) AS mean FROM (SELECT {SEAT_ACCURACY} AS acc \
         FROM rated_results rr JOIN ratings r ON r.session_id = rr.session_id \
         JOIN seats st ON st.game_id = rr.game_id AND st.session_id = rr.session_id \
         JOIN analyses a ON a.game_id = rr.game_id AND a.status = 'done' \
         WHERE r.player_id = $1 ORDER BY rr.finished_at DESC, rr.game_id LIMIT $2) t"
    );
    let row = sqlx::query(&sql)
        .bind(player_id)
        .bind(limit)
        .fetch_one(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    let get = |e| classify(BACKEND, e);
    let games: i64 = row.try_get("games").map_err(get)?;
    let mean: Option<f64> = row.try_get("mean").map_err(get)?;
    Ok(crate::MeanAccuracy {
        games: u32::try_from(games).unwrap_or(0),
        mean: mean.filter(|_| games > 0),
    })
}
