// Identity on every device (issue 23), included once per backend. `cargo
// fmt` does not reach an included file: after editing, run
// `rustfmt --edition 2024 crates/splendor-store/src/backend/device_queries.rs`.

/// The session's tokens: the first, then the others by age.
pub(crate) async fn devices(
    pool: &Pool<Db>,
    session: Uuid,
) -> Result<Vec<crate::devices::DeviceToken>, StoreError> {
    let error = |e| classify(BACKEND, e);
    let mut out = Vec::new();
    if let Some(row) = sqlx::query("SELECT token_hash, created_at FROM sessions WHERE id = $1")
        .bind(session)
        .fetch_optional(pool)
        .await
        .map_err(error)?
    {
        let hash: Vec<u8> = row.try_get("token_hash").map_err(error)?;
        out.push(crate::devices::DeviceToken {
            id: crate::devices::device_id(&hash),
            label: String::new(),
            created_at: row.try_get("created_at").map_err(error)?,
            first: true,
        });
    }
    let rows = sqlx::query(
        "SELECT token_hash, label, created_at FROM device_tokens WHERE session_id = $1 \
         ORDER BY created_at, token_hash",
    )
    .bind(session)
    .fetch_all(pool)
    .await
    .map_err(error)?;
    for row in rows {
        let hash: Vec<u8> = row.try_get("token_hash").map_err(error)?;
        out.push(crate::devices::DeviceToken {
            id: crate::devices::device_id(&hash),
            label: row.try_get("label").map_err(error)?,
            created_at: row.try_get("created_at").map_err(error)?,
            first: false,
        });
    }
    Ok(out)
}

/// Keeps a new token of the session.
pub(crate) async fn add_device(
    pool: &Pool<Db>,
    session: Uuid,
    hash: &[u8],
    label: &str,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO device_tokens (token_hash, session_id, label, created_at) \
         VALUES ($1, $2, $3, $4)",
    )
    .bind(hash)
    .bind(session)
    .bind(label)
    .bind(now)
    .execute(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    Ok(())
}

/// Revokes the session's token with public id `device`; whether it had one.
pub(crate) async fn revoke_device(
    pool: &Pool<Db>,
    session: Uuid,
    device: &str,
    unusable: &[u8],
) -> Result<bool, StoreError> {
    let error = |e| classify(BACKEND, e);
    let first: Option<Vec<u8>> =
        sqlx::query_scalar("SELECT token_hash FROM sessions WHERE id = $1")
            .bind(session)
            .fetch_optional(pool)
            .await
            .map_err(error)?;
    if let Some(hash) = first
        && crate::devices::device_id(&hash) == device
    {
        drop_credentials_of(pool, session, device).await?;
        let done =
            sqlx::query("UPDATE sessions SET token_hash = $3 WHERE id = $1 AND token_hash = $2")
                .bind(session)
                .bind(hash)
                .bind(unusable)
                .execute(pool)
                .await
                .map_err(error)?;
        return Ok(done.rows_affected() > 0);
    }
    let hashes: Vec<Vec<u8>> =
        sqlx::query_scalar("SELECT token_hash FROM device_tokens WHERE session_id = $1")
            .bind(session)
            .fetch_all(pool)
            .await
            .map_err(error)?;
    let Some(hash) = hashes
        .into_iter()
        .find(|h| crate::devices::device_id(h) == device)
    else {
        return Ok(false);
    };
    drop_credentials_of(pool, session, device).await?;
    let done = sqlx::query("DELETE FROM device_tokens WHERE token_hash = $1 AND session_id = $2")
        .bind(hash)
        .bind(session)
        .execute(pool)
        .await
        .map_err(error)?;
    Ok(done.rows_affected() > 0)
}

/// The password and passkeys the device `device` added to the session.
async fn drop_credentials_of(
    pool: &Pool<Db>,
    session: Uuid,
    device: &str,
) -> Result<(), StoreError> {
    for sql in [
        "DELETE FROM passwords WHERE session_id = $1 AND set_by = $2",
        "DELETE FROM passkeys WHERE session_id = $1 AND added_by = $2",
    ] {
        sqlx::query(sql)
            .bind(session)
            .bind(device)
            .execute(pool)
            .await
            .map_err(|e| classify(BACKEND, e))?;
    }
    Ok(())
}

/// Keeps a link code's hash; drops expired links and the session's oldest
/// past `max_open`.
pub(crate) async fn make_device_link(
    pool: &Pool<Db>,
    session: Uuid,
    hash: &[u8],
    (now, expires_at): (i64, i64),
    max_open: i64,
) -> Result<(), StoreError> {
    let error = |e| classify(BACKEND, e);
    let mut tx = pool.begin().await.map_err(error)?;
    sqlx::query("DELETE FROM device_links WHERE expires_at <= $1")
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(error)?;
    sqlx::query(
        "DELETE FROM device_links WHERE session_id = $1 AND code_hash NOT IN \
         (SELECT code_hash FROM device_links WHERE session_id = $1 \
          ORDER BY expires_at DESC, code_hash LIMIT $2)",
    )
    .bind(session)
    .bind(max_open - 1)
    .execute(&mut *tx)
    .await
    .map_err(error)?;
    sqlx::query("INSERT INTO device_links (code_hash, session_id, expires_at) VALUES ($1, $2, $3)")
        .bind(hash)
        .bind(session)
        .bind(expires_at)
        .execute(&mut *tx)
        .await
        .map_err(error)?;
    tx.commit().await.map_err(error)
}

/// Uses a link: deletes it and keeps the new token in one transaction.
pub(crate) async fn claim_device_link(
    pool: &Pool<Db>,
    code_hash: &[u8],
    (token_hash, label): (&[u8], &str),
    now: i64,
) -> Result<Option<crate::Session>, StoreError> {
    let error = |e| classify(BACKEND, e);
    let mut tx = pool.begin().await.map_err(error)?;
    let session: Option<Uuid> = sqlx::query_scalar(
        "DELETE FROM device_links WHERE code_hash = $1 AND expires_at > $2 RETURNING session_id",
    )
    .bind(code_hash)
    .bind(now)
    .fetch_optional(&mut *tx)
    .await
    .map_err(error)?;
    let Some(session) = session else {
        return Ok(None);
    };
    sqlx::query(
        "INSERT INTO device_tokens (token_hash, session_id, label, created_at) \
         VALUES ($1, $2, $3, $4)",
    )
    .bind(token_hash)
    .bind(session)
    .bind(label)
    .bind(now)
    .execute(&mut *tx)
    .await
    .map_err(error)?;
    let row = sqlx::query("SELECT id, name, created_at, bot FROM sessions WHERE id = $1")
        .bind(session)
        .fetch_one(&mut *tx)
        .await
        .map_err(error)?;
    let found = Session {
        id: SessionId(get(&row, "id")?),
        name: get(&row, "name")?,
        created_at: get(&row, "created_at")?,
        bot: get(&row, "bot")?,
    };
    tx.commit().await.map_err(error)?;
    Ok(Some(found))
}

/// Sets the session's password unless its login is another's; whether set.
pub(crate) async fn set_password(
    pool: &Pool<Db>,
    session: Uuid,
    (login, login_key): (&str, &str),
    (hash, device): (&str, &str),
    now: i64,
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "INSERT INTO passwords (session_id, login, login_key, hash, set_at, set_by) \
         VALUES ($1, $2, $3, $4, $5, $6) \
         ON CONFLICT (session_id) DO UPDATE SET login = $2, login_key = $3, hash = $4, \
         set_at = $5, set_by = $6",
    )
    .bind(session)
    .bind(login)
    .bind(login_key)
    .bind(hash)
    .bind(now)
    .bind(device)
    .execute(pool)
    .await;
    match done {
        Ok(_) => Ok(true),
        // The login is another session's.
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(false),
        Err(e) => Err(classify(BACKEND, e)),
    }
}

/// Removes the session's password; whether it had one.
pub(crate) async fn remove_password(pool: &Pool<Db>, session: Uuid) -> Result<bool, StoreError> {
    let done = sqlx::query("DELETE FROM passwords WHERE session_id = $1")
        .bind(session)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(done.rows_affected() > 0)
}

fn stored_password(row: &DbRow) -> Result<crate::devices::StoredPassword, StoreError> {
    Ok(crate::devices::StoredPassword {
        session: SessionId(get(row, "session_id")?),
        login: get(row, "login")?,
        hash: get(row, "hash")?,
        set_by: get(row, "set_by")?,
    })
}

/// The password found by its login's key.
pub(crate) async fn password_by_login(
    pool: &Pool<Db>,
    login_key: &str,
) -> Result<Option<crate::devices::StoredPassword>, StoreError> {
    sqlx::query("SELECT session_id, login, hash, set_by FROM passwords WHERE login_key = $1")
        .bind(login_key)
        .fetch_optional(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?
        .as_ref()
        .map(stored_password)
        .transpose()
}

/// The session's password.
pub(crate) async fn password_of(
    pool: &Pool<Db>,
    session: Uuid,
) -> Result<Option<crate::devices::StoredPassword>, StoreError> {
    sqlx::query("SELECT session_id, login, hash, set_by FROM passwords WHERE session_id = $1")
        .bind(session)
        .fetch_optional(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?
        .as_ref()
        .map(stored_password)
        .transpose()
}

/// Counts a try under `key` in its window; the tries in it now.
pub(crate) async fn count_login_try(
    pool: &Pool<Db>,
    key: &str,
    now: i64,
    window: i64,
) -> Result<i64, StoreError> {
    let error = |e| classify(BACKEND, e);
    // Windows long gone say nothing: forgotten as tries come.
    sqlx::query("DELETE FROM login_attempts WHERE window_start <= $1")
        .bind(now - 10 * window)
        .execute(pool)
        .await
        .map_err(error)?;
    sqlx::query_scalar(
        "INSERT INTO login_attempts (key, window_start, count) VALUES ($1, $2, 1) \
         ON CONFLICT (key) DO UPDATE SET \
           count = CASE WHEN login_attempts.window_start > $3 \
                        THEN login_attempts.count + 1 ELSE 1 END, \
           window_start = CASE WHEN login_attempts.window_start > $3 \
                        THEN login_attempts.window_start ELSE $2 END \
         RETURNING count",
    )
    .bind(key)
    .bind(now)
    .bind(now - window)
    .fetch_one(pool)
    .await
    .map_err(error)
}

/// The tries under `key` in its window now, none counted.
pub(crate) async fn login_tries(
    pool: &Pool<Db>,
    key: &str,
    now: i64,
    window: i64,
) -> Result<i64, StoreError> {
    sqlx::query_scalar::<_, i64>(
        "SELECT count FROM login_attempts WHERE key = $1 AND window_start > $2",
    )
    .bind(key)
    .bind(now - window)
    .fetch_optional(pool)
    .await
    .map(Option::unwrap_or_default)
    .map_err(|e| classify(BACKEND, e))
}

/// Keeps a passkey unless the session has `max` already; whether kept.
pub(crate) async fn add_passkey(
    pool: &Pool<Db>,
    session: Uuid,
    (credential_id, passkey): (&[u8], &str),
    device: &str,
    (now, max): (i64, i64),
) -> Result<bool, StoreError> {
    let done = sqlx::query(
        "INSERT INTO passkeys (credential_id, session_id, passkey, created_at, added_by) \
         SELECT $1, $2, $3, $4, $5 \
         WHERE (SELECT COUNT(*) FROM passkeys WHERE session_id = $2) < $6",
    )
    .bind(credential_id)
    .bind(session)
    .bind(passkey)
    .bind(now)
    .bind(device)
    .bind(max)
    .execute(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    Ok(done.rows_affected() == 1)
}

/// The session's passkeys, oldest first.
pub(crate) async fn passkeys_of(
    pool: &Pool<Db>,
    session: Uuid,
) -> Result<Vec<(Vec<u8>, String, i64)>, StoreError> {
    sqlx::query_as(
        "SELECT credential_id, passkey, created_at FROM passkeys WHERE session_id = $1 \
         ORDER BY created_at, credential_id",
    )
    .bind(session)
    .fetch_all(pool)
    .await
    .map_err(|e| classify(BACKEND, e))
}

/// The session and passkey of a credential.
pub(crate) async fn passkey_by_credential(
    pool: &Pool<Db>,
    credential_id: &[u8],
) -> Result<Option<(SessionId, String)>, StoreError> {
    let row: Option<(Uuid, String)> =
        sqlx::query_as("SELECT session_id, passkey FROM passkeys WHERE credential_id = $1")
            .bind(credential_id)
            .fetch_optional(pool)
            .await
            .map_err(|e| classify(BACKEND, e))?;
    Ok(row.map(|(session, passkey)| (SessionId(session), passkey)))
}

/// Replaces a credential's passkey.
pub(crate) async fn update_passkey(
    pool: &Pool<Db>,
    credential_id: &[u8],
    passkey: &str,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE passkeys SET passkey = $2 WHERE credential_id = $1")
        .bind(credential_id)
        .bind(passkey)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(())
}

/// Deletes one of the session's passkeys; whether there was one.
pub(crate) async fn remove_passkey(
    pool: &Pool<Db>,
    session: Uuid,
    credential_id: &[u8],
) -> Result<bool, StoreError> {
    let done = sqlx::query("DELETE FROM passkeys WHERE session_id = $1 AND credential_id = $2")
        .bind(session)
        .bind(credential_id)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(done.rows_affected() > 0)
}

/// Keeps a ceremony's state; drops expired ones.
pub(crate) async fn put_ceremony(
    pool: &Pool<Db>,
    id: &[u8],
    session: Option<Uuid>,
    state: &str,
    (now, expires_at): (i64, i64),
) -> Result<(), StoreError> {
    let error = |e| classify(BACKEND, e);
    sqlx::query("DELETE FROM webauthn_ceremonies WHERE expires_at <= $1")
        .bind(now)
        .execute(pool)
        .await
        .map_err(error)?;
    sqlx::query(
        "INSERT INTO webauthn_ceremonies (id, session_id, state, expires_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(id)
    .bind(session)
    .bind(state)
    .bind(expires_at)
    .execute(pool)
    .await
    .map_err(error)?;
    Ok(())
}

/// Takes a ceremony's state, once, if it has not expired.
pub(crate) async fn take_ceremony(
    pool: &Pool<Db>,
    id: &[u8],
    now: i64,
) -> Result<Option<(Option<SessionId>, String)>, StoreError> {
    let row: Option<(Option<Uuid>, String)> = sqlx::query_as(
        "DELETE FROM webauthn_ceremonies WHERE id = $1 AND expires_at > $2 \
         RETURNING session_id, state",
    )
    .bind(id)
    .bind(now)
    .fetch_optional(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    Ok(row.map(|(session, state)| (session.map(SessionId), state)))
}

/// The session with this id.
pub(crate) async fn session_by_id(
    pool: &Pool<Db>,
    id: Uuid,
) -> Result<Option<Session>, StoreError> {
    let row = sqlx::query("SELECT id, name, created_at, bot FROM sessions WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    row.map(|row| {
        Ok(Session {
            id: SessionId(get(&row, "id")?),
            name: get(&row, "name")?,
            created_at: get(&row, "created_at")?,
            bot: get(&row, "bot")?,
        })
    })
    .transpose()
}

/// The device that added one of the session's passkeys.
pub(crate) async fn passkey_added_by(
    pool: &Pool<Db>,
    session: Uuid,
    credential_id: &[u8],
) -> Result<Option<String>, StoreError> {
    sqlx::query_scalar("SELECT added_by FROM passkeys WHERE session_id = $1 AND credential_id = $2")
        .bind(session)
        .bind(credential_id)
        .fetch_optional(pool)
        .await
        .map_err(|e| classify(BACKEND, e))
}
