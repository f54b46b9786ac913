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

pub(crate) async fn server_key(
    pool: &Pool<Db>,
    name: &str,
    candidate: &str,
    now: i64,
) -> Result<String, StoreError> {
    sqlx::query(
        "INSERT INTO server_keys (name, value, created_at) VALUES ($1, $2, $3) \
         ON CONFLICT (name) DO NOTHING",
    )
    .bind(name)
    .bind(candidate)
    .bind(now)
    .execute(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    sqlx::query_scalar("SELECT value FROM server_keys WHERE name = $1")
        .bind(name)
        .fetch_one(pool)
        .await
        .map_err(|e| classify(BACKEND, e))
}

pub(crate) async fn push_subscriptions(
    pool: &Pool<Db>,
    session: Uuid,
) -> Result<Vec<crate::PushSubscription>, StoreError> {
    let rows = sqlx::query(
        "SELECT endpoint, p256dh, auth, lang, created_at FROM push_subscriptions \
         WHERE session_id = $1 ORDER BY created_at, endpoint",
    )
    .bind(session)
    .fetch_all(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    let get = |e| classify(BACKEND, e);
    rows.iter()
        .map(|row| {
            Ok(crate::PushSubscription {
                endpoint: row.try_get("endpoint").map_err(get)?,
                p256dh: row.try_get("p256dh").map_err(get)?,
                auth: row.try_get("auth").map_err(get)?,
                lang: row.try_get("lang").map_err(get)?,
                created_at: row.try_get("created_at").map_err(get)?,
            })
        })
        .collect()
}

pub(crate) async fn put_push_subscription(
    pool: &Pool<Db>,
    session: Uuid,
    subscription: &crate::PushSubscription,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "INSERT INTO push_subscriptions (endpoint, session_id, p256dh, auth, lang, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6) \
         ON CONFLICT (endpoint) DO UPDATE SET session_id = excluded.session_id, \
         p256dh = excluded.p256dh, auth = excluded.auth, lang = excluded.lang, \
         created_at = excluded.created_at \
         WHERE push_subscriptions.session_id = excluded.session_id \
            OR push_subscriptions.auth = excluded.auth",
    )
    .bind(&subscription.endpoint)
    .bind(session)
    .bind(&subscription.p256dh)
    .bind(&subscription.auth)
    .bind(&subscription.lang)
    .bind(subscription.created_at)
    .execute(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    Ok(done.rows_affected() > 0)
}

pub(crate) async fn delete_push_subscriptions(
    pool: &Pool<Db>,
    session: Option<Uuid>,
    endpoint: Option<&str>,
) -> Result<u64, StoreError> {
    let done = sqlx::query(
        "DELETE FROM push_subscriptions WHERE ($1 IS NULL OR session_id = $1) \
         AND ($2 IS NULL OR endpoint = $2)",
    )
    .bind(session)
    .bind(endpoint)
    .execute(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    Ok(done.rows_affected())
}
