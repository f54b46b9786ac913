// PostgreSQL's rating of a finished rated game, inside the writer's
// transaction that stores its result (`finish` in postgres_writes.rs),
// included in `backend::postgres` beside it. SQLite's is in
// sqlite_writes.rs.
// `cargo fmt` does not reach an included file: after editing, run
// `rustfmt --edition 2024 crates/splendor-store/src/backend/postgres_rating_writes.rs`.

/// Updates the ratings of a rated game's seats, inside the transaction that
/// records its result. Seats of built-in bots are not rated; fewer than two
/// rated seats rate nobody.
async fn rate_game(
    conn: &mut Conn,
    game_id: Uuid,
    places: &[u8],
    finished_at: UnixMillis,
) -> Result<(), sqlx::Error> {
    // R13.4: a seat of a person or program with fewer than 5 moves of its
    // own (the stand-in's not counted; a move is a turn's action: R8's
    // returns, R9's choice of a noble and a resignation are not moves)
    // makes the game unrated.
    let short: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM seats s WHERE s.game_id = $1 AND s.bot IS NULL AND \
         (SELECT COUNT(*) FROM actions a WHERE a.game_id = s.game_id AND a.seat = s.seat \
          AND (a.meta_json IS NULL OR a.meta_json NOT LIKE '%\"by\":\"stand_in\"%') \
          AND a.action_json <> '\"resign\"' AND a.action_json NOT LIKE '{\"return\"%' \
          AND a.action_json NOT LIKE '{\"noble\"%') < $2",
    )
    .bind(game_id)
    .bind(crate::rating::R13_4_OWN_MOVES)
    .fetch_one(&mut *conn)
    .await?;
    if short > 0 {
        sqlx::query("UPDATE games SET rated = FALSE WHERE id = $1")
            .bind(game_id)
            .execute(&mut *conn)
            .await?;
        return Ok(());
    }
    let rows = sqlx::query(
        "SELECT s.seat, s.session_id, s.name, se.name AS session_name, \
                COALESCE(se.bot, FALSE) AS session_bot \
         FROM seats s LEFT JOIN sessions se ON se.id = s.session_id \
         WHERE s.game_id = $1 AND s.bot IS NULL ORDER BY s.seat",
    )
    .bind(game_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut seats = Vec::with_capacity(rows.len());
    for row in &rows {
        let seat: i32 = row.try_get("seat")?;
        let session: Uuid = row.try_get("session_id")?;
        let seat_name: String = row.try_get("name")?;
        let name: Option<String> = row.try_get("session_name")?;
        let bot: bool = row.try_get("session_bot")?;
        let Some(&place) = usize::try_from(seat).ok().and_then(|s| places.get(s)) else {
            continue;
        };
        let current = sqlx::query(
            "SELECT rating, deviation, volatility, games, wins FROM ratings WHERE session_id = $1",
        )
        .bind(session)
        .fetch_optional(&mut *conn)
        .await?;
        let (before, games, wins) = match current {
            Some(r) => (
                skillratings::glicko2::Glicko2Rating {
                    rating: r.try_get("rating")?,
                    deviation: r.try_get("deviation")?,
                    volatility: r.try_get("volatility")?,
                },
                r.try_get::<i64, _>("games")?,
                r.try_get::<i64, _>("wins")?,
            ),
            None => (crate::rating::initial(), 0, 0),
        };
        seats.push(RatedSeat {
            seat: u8::try_from(seat).unwrap_or_default(),
            session,
            name: name.unwrap_or(seat_name),
            bot,
            place,
            before,
            games,
            wins,
        });
    }
    if seats.len() < 2 {
        return Ok(());
    }
    let players = i32::try_from(places.len()).unwrap_or_default();
    for mut update in crate::rating::rate(seats) {
        // Issue 46: what this seat gained from any of these opponents in
        // the last day cuts its gain now.
        let gained: (f64, f64) = sqlx::query_as(
            "SELECT COALESCE(MAX(gained), 0.0), COALESCE(MAX(lost), 0.0) FROM ( \
           SELECT b.session_id, SUM(CASE WHEN a.rating_after > a.rating_before \
                    THEN a.rating_after - a.rating_before ELSE 0 END) AS gained, \
                  SUM(CASE WHEN a.rating_after < a.rating_before \
                    THEN a.rating_before - a.rating_after ELSE 0 END) AS lost \
           FROM rated_results a JOIN rated_results b ON b.game_id = a.game_id \
           WHERE a.session_id = $1 AND a.finished_at > $2 AND b.session_id <> a.session_id \
             AND b.session_id IN (SELECT session_id FROM seats WHERE game_id = $3 AND session_id IS NOT NULL) \
           GROUP BY b.session_id) per_opponent",
        )
        .bind(update.seat.session)
        .bind(finished_at - crate::rating::GAIN_WINDOW_MS)
        .bind(game_id)
        .fetch_one(&mut *conn)
        .await?;
        if !update.seat.bot {
            crate::rating::cap_change(&mut update, gained);
        }
        let seat = &update.seat;
        let won = i64::from(seat.place == 1);
        let player_id = crate::rating::player_id(crate::SessionId(seat.session));
        sqlx::query(
            "INSERT INTO ratings (session_id, player_id, name, bot, rating, deviation, \
                                  volatility, games, wins, last_played) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
             ON CONFLICT (session_id) DO UPDATE SET name = excluded.name, bot = excluded.bot, \
               rating = excluded.rating, deviation = excluded.deviation, \
               volatility = excluded.volatility, games = excluded.games, wins = excluded.wins, \
               last_played = excluded.last_played",
        )
        .bind(seat.session)
        .bind(player_id.as_str())
        .bind(seat.name.as_str())
        .bind(seat.bot)
        .bind(update.after.rating)
        .bind(update.after.deviation)
        .bind(update.after.volatility)
        .bind(seat.games + 1)
        .bind(seat.wins + won)
        .bind(finished_at)
        .execute(&mut *conn)
        .await?;
        sqlx::query(
            "INSERT INTO rated_results (game_id, session_id, seat, players, place, \
                                        rating_before, rating_after, deviation_after, finished_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(game_id)
        .bind(seat.session)
        .bind(i32::from(seat.seat))
        .bind(players)
        .bind(i32::from(seat.place))
        .bind(seat.before.rating)
        .bind(update.after.rating)
        .bind(update.after.deviation)
        .bind(finished_at)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}
