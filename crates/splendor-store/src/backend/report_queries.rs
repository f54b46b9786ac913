// Players' reports (issue 22), included once per backend after
// moderation_queries.rs (whose `audit_in` it uses). `cargo fmt` does not
// reach an included file: after editing, run
// `rustfmt --edition 2024 crates/splendor-store/src/backend/report_queries.rs`.

/// Keeps a report (see `Store::report`).
pub(crate) async fn report(
    pool: &Pool<Db>,
    report: &crate::reports::NewReport,
    now: i64,
    caps: crate::reports::ReportCaps,
) -> Result<crate::reports::Reporting, StoreError> {
    use crate::reports::{REPORT_WINDOW_MS, Reporting};
    let error = |e| classify(BACKEND, e);
    let mut tx = pool.begin().await.map_err(error)?;
    if BACKEND == super::Backend::Postgres {
        // One reporter's (and one address's) reports are counted one at a
        // time, on every node.
        sqlx::query(
            "SELECT pg_advisory_xact_lock(hashtext('splendor report ' || $1)), \
                    pg_advisory_xact_lock(hashtext('splendor report address ' || $2))",
        )
        .bind(report.reporter.0.to_string())
        .bind(report.reporter_client.clone().unwrap_or_default())
        .execute(&mut *tx)
        .await
        .map_err(error)?;
    }
    let since = now - REPORT_WINDOW_MS;
    // The write comes first: on SQLite the transaction holds the write
    // lock from its first statement (no read-then-upgrade to fail busy).
    let made: Option<i64> = sqlx::query_scalar(
        "INSERT INTO reports (at, reporter, reporter_name, reporter_client, reported, reported_name, \
                              room, game, seat, line, reason) \
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11 \
         WHERE NOT EXISTS (SELECT 1 FROM sessions WHERE id = $5 AND player_id = '') \
           AND (SELECT COUNT(*) FROM reports WHERE reporter = $2 AND at > $12) < $13 \
           AND ($4 IS NULL OR (SELECT COUNT(*) FROM reports WHERE reporter_client = $4 AND at > $12) < $14) \
         ON CONFLICT (reporter, reported) WHERE resolved_at IS NULL DO NOTHING \
         RETURNING id",
    )
    .bind(now)
    .bind(report.reporter.0)
    .bind(&report.reporter_name)
    .bind(&report.reporter_client)
    .bind(report.reported.0)
    .bind(&report.reported_name)
    .bind(&report.room)
    .bind(&report.game)
    .bind(report.seat.map(i64::from))
    .bind(&report.line)
    .bind(&report.reason)
    .bind(since)
    .bind(i64::from(caps.per_session))
    .bind(i64::from(caps.per_address))
    .fetch_optional(&mut *tx)
    .await
    .map_err(error)?;
    let Some(id) = made else {
        // Why not: an open report, a forgotten session, or a cap.
        let open: Option<i64> = sqlx::query_scalar(
            "SELECT id FROM reports WHERE reporter = $1 AND reported = $2 AND resolved_at IS NULL",
        )
        .bind(report.reporter.0)
        .bind(report.reported.0)
        .fetch_optional(&mut *tx)
        .await
        .map_err(error)?;
        if let Some(id) = open {
            return Ok(Reporting::Already(id));
        }
        let forgotten: Option<i32> =
            sqlx::query_scalar("SELECT 1 FROM sessions WHERE id = $1 AND player_id = ''")
                .bind(report.reported.0)
                .fetch_optional(&mut *tx)
                .await
                .map_err(error)?;
        if forgotten.is_some() {
            return Ok(Reporting::Forgotten);
        }
        // The cap reached: the next report may be made once the oldest
        // report counted (the reporter's, or its address's) is a day old.
        let first: Option<i64> = sqlx::query_scalar(
            "SELECT MIN(at) FROM reports \
             WHERE (reporter = $1 OR ($2 IS NOT NULL AND reporter_client = $2)) AND at > $3",
        )
        .bind(report.reporter.0)
        .bind(&report.reporter_client)
        .bind(since)
        .fetch_one(&mut *tx)
        .await
        .map_err(error)?;
        let retry_after_ms = first.map_or(REPORT_WINDOW_MS, |t| t + REPORT_WINDOW_MS - now);
        return Ok(Reporting::TooMany {
            retry_after_ms: retry_after_ms.max(1),
        });
    };
    for (n, line) in report.chat.iter().enumerate() {
        // A forgotten player's lines are not kept again.
        sqlx::query(
            "INSERT INTO report_lines (report, n, session, name, seat, line, text) \
             SELECT $1, $2, $3, $4, $5, $6, $7 \
             WHERE NOT EXISTS (SELECT 1 FROM sessions WHERE id = $3 AND player_id = '')",
        )
        .bind(id)
        .bind(n as i64)
        .bind(line.session.map(|s| s.0))
        .bind(&line.name)
        .bind(line.seat.map(i64::from))
        .bind(i64::try_from(line.line).unwrap_or(i64::MAX))
        .bind(&line.text)
        .execute(&mut *tx)
        .await
        .map_err(error)?;
    }
    tx.commit().await.map_err(error)?;
    Ok(Reporting::Made(id))
}

const REPORT_COLUMNS: &str = "id, at, reporter, reporter_name, reporter_client, reported, reported_name, room, game, \
     seat, line, reason, resolved_at, action, note";

async fn report_of<'e, E>(executor: E, row: &DbRow) -> Result<crate::reports::Report, StoreError>
where
    E: sqlx::Executor<'e, Database = Db>,
{
    let error = |e| classify(BACKEND, e);
    let id: i64 = row.try_get("id").map_err(error)?;
    let seat = |value: Option<i64>| value.and_then(|s| u8::try_from(s).ok());
    let lines = sqlx::query(
        "SELECT session, name, seat, line, text FROM report_lines WHERE report = $1 ORDER BY n",
    )
    .bind(id)
    .fetch_all(executor)
    .await
    .map_err(error)?;
    let chat = lines
        .iter()
        .map(|line| {
            let session: Option<Uuid> = line.try_get("session").map_err(error)?;
            let number: i64 = line.try_get("line").map_err(error)?;
            Ok(crate::reports::ReportLine {
                session: session.map(crate::SessionId),
                name: line.try_get("name").map_err(error)?,
                seat: seat(line.try_get("seat").map_err(error)?),
                line: u64::try_from(number).unwrap_or(0),
                text: line.try_get("text").map_err(error)?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    Ok(crate::reports::Report {
        id,
        at: row.try_get("at").map_err(error)?,
        made: crate::reports::NewReport {
            reporter: crate::SessionId(row.try_get("reporter").map_err(error)?),
            reporter_name: row.try_get("reporter_name").map_err(error)?,
            reporter_client: row.try_get("reporter_client").map_err(error)?,
            reported: crate::SessionId(row.try_get("reported").map_err(error)?),
            reported_name: row.try_get("reported_name").map_err(error)?,
            room: row.try_get("room").map_err(error)?,
            game: row.try_get("game").map_err(error)?,
            seat: seat(row.try_get("seat").map_err(error)?),
            line: row.try_get("line").map_err(error)?,
            reason: row.try_get("reason").map_err(error)?,
            chat,
        },
        resolved_at: row.try_get("resolved_at").map_err(error)?,
        action: row.try_get("action").map_err(error)?,
        note: row.try_get("note").map_err(error)?,
    })
}

/// Reports, newest first: about `reported` only (if given), open only
/// (if asked).
pub(crate) async fn reports(
    pool: &Pool<Db>,
    reported: Option<Uuid>,
    open_only: bool,
    limit: i64,
) -> Result<Vec<crate::reports::Report>, StoreError> {
    let sql = format!(
        "SELECT {REPORT_COLUMNS} FROM reports \
         WHERE ($1 OR reported = $2) AND ($3 = FALSE OR resolved_at IS NULL) \
         ORDER BY id DESC LIMIT $4"
    );
    let rows = sqlx::query(&sql)
        .bind(reported.is_none())
        .bind(reported.unwrap_or_default())
        .bind(open_only)
        .bind(limit)
        .fetch_all(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    let mut out = Vec::with_capacity(rows.len());
    for row in &rows {
        out.push(report_of(pool, row).await?);
    }
    Ok(out)
}

/// Resolves open report `id`, audited in the same transaction.
pub(crate) async fn resolve_report(
    pool: &Pool<Db>,
    id: i64,
    action: &str,
    note: &str,
    audit: &crate::AuditNote<'_>,
) -> Result<Option<crate::reports::Report>, StoreError> {
    let error = |e| classify(BACKEND, e);
    let mut tx = pool.begin().await.map_err(error)?;
    let sql = format!(
        "UPDATE reports SET resolved_at = {NOW_MS}, action = $2, note = $3 \
         WHERE id = $1 AND resolved_at IS NULL RETURNING {REPORT_COLUMNS}"
    );
    let row = sqlx::query(&sql)
        .bind(id)
        .bind(action)
        .bind(note)
        .fetch_optional(&mut *tx)
        .await
        .map_err(error)?;
    let Some(row) = row else {
        return Ok(None);
    };
    let report = report_of(&mut *tx, &row).await?;
    audit_in(&mut tx, audit).await?;
    tx.commit().await.map_err(error)?;
    Ok(Some(report))
}
