// Where a session's notices go (issue 25), included once per backend.
// `cargo fmt` does not reach an included file: after editing, run
// `rustfmt --edition 2024 crates/splendor-store/src/backend/notify_queries.rs`.

pub(crate) async fn notify_settings(
    pool: &Pool<Db>,
    session: Uuid,
) -> Result<Option<crate::NotifySettings>, StoreError> {
    let Some(row) = sqlx::query(
        "SELECT events, webhook_url, webhook_secret FROM notify_settings WHERE session_id = $1",
    )
    .bind(session)
    .fetch_optional(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?
    else {
        return Ok(None);
    };
    let get = |e| classify(BACKEND, e);
    let events: String = row.try_get("events").map_err(get)?;
    let url: Option<String> = row.try_get("webhook_url").map_err(get)?;
    let secret: Option<String> = row.try_get("webhook_secret").map_err(get)?;
    Ok(Some(crate::NotifySettings {
        events: events
            .split(',')
            .filter(|e| !e.is_empty())
            .map(str::to_owned)
            .collect(),
        webhook: url.zip(secret),
    }))
}

pub(crate) async fn put_notify_settings(
    pool: &Pool<Db>,
    session: Uuid,
    settings: &crate::NotifySettings,
    now: i64,
) -> Result<(), StoreError> {
    let (url, secret) = settings.webhook.clone().unzip();
    sqlx::query(
        "INSERT INTO notify_settings (session_id, events, webhook_url, webhook_secret, updated_at) \
         VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (session_id) DO UPDATE SET events = excluded.events, \
         webhook_url = excluded.webhook_url, webhook_secret = excluded.webhook_secret, \
         updated_at = excluded.updated_at",
    )
    .bind(session)
    .bind(settings.events.join(","))
    .bind(url)
    .bind(secret)
    .bind(now)
    .execute(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    Ok(())
}

pub(crate) async fn delete_notify_settings(
    pool: &Pool<Db>,
    session: Uuid,
) -> Result<(), StoreError> {
    sqlx::query("DELETE FROM notify_settings WHERE session_id = $1")
        .bind(session)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(())
}
