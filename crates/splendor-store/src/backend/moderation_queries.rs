// Operators' sanctions and their audit (issue 22), included once per
// backend beside lease_queries.rs (whose `NOW_MS` it uses).
// `cargo fmt` does not reach an included file: after editing, run
// `rustfmt --edition 2024 crates/splendor-store/src/backend/moderation_queries.rs`.

fn sanction_of(row: &DbRow) -> Result<crate::Sanction, StoreError> {
    let get = |e| classify(BACKEND, e);
    Ok(crate::Sanction {
        id: row.try_get("id").map_err(get)?,
        kind: row.try_get("kind").map_err(get)?,
        value: row.try_get("value").map_err(get)?,
        until_ms: row.try_get("until_ms").map_err(get)?,
        reason: row.try_get("reason").map_err(get)?,
        created_at: row.try_get("created_at").map_err(get)?,
        lifted_at: row.try_get("lifted_at").map_err(get)?,
    })
}

async fn audit_in(
    tx: &mut sqlx::Transaction<'_, Db>,
    entry: &crate::AuditNote<'_>,
) -> Result<(), StoreError> {
    let sql = format!(
        "INSERT INTO audit_log (at, actor, action, target, reason) VALUES ({NOW_MS}, $1, $2, $3, $4)"
    );
    sqlx::query(&sql)
        .bind(entry.actor)
        .bind(entry.action)
        .bind(entry.target)
        .bind(entry.reason)
        .execute(&mut **tx)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(())
}

/// An audit row of an action whose effect is not in the store (an
/// operator's removal of a player from a room, say), alone.
pub(crate) async fn audit(pool: &Pool<Db>, note: &crate::AuditNote<'_>) -> Result<(), StoreError> {
    let mut tx = pool.begin().await.map_err(|e| classify(BACKEND, e))?;
    audit_in(&mut tx, note).await?;
    tx.commit().await.map_err(|e| classify(BACKEND, e))
}

/// Adds a sanction and its audit row, in one transaction. `until_in_ms`:
/// how long from the database's now (None: for good).
pub(crate) async fn add_sanction(
    pool: &Pool<Db>,
    new: &crate::NewSanction,
) -> Result<crate::Sanction, StoreError> {
    let mut tx = pool.begin().await.map_err(|e| classify(BACKEND, e))?;
    let sql = format!(
        "INSERT INTO sanctions (kind, value, until_ms, reason, created_at) \
         VALUES ($1, $2, CASE WHEN $3 IS NULL THEN NULL ELSE {NOW_MS} + $3 END, $4, {NOW_MS}) \
         RETURNING id, kind, value, until_ms, reason, created_at, lifted_at"
    );
    let row = sqlx::query(&sql)
        .bind(&new.kind)
        .bind(&new.value)
        .bind(new.until_in_ms)
        .bind(&new.reason)
        .fetch_one(&mut *tx)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    let sanction = sanction_of(&row)?;
    let target = format!("{}:{}", sanction.kind, sanction.value);
    audit_in(
        &mut tx,
        &crate::AuditNote {
            actor: &new.actor,
            action: "sanction",
            target: &target,
            reason: &new.reason,
        },
    )
    .await?;
    tx.commit().await.map_err(|e| classify(BACKEND, e))?;
    Ok(sanction)
}

/// Lifts sanction `id` (if it is not lifted yet) and audits it, in one
/// transaction.
pub(crate) async fn lift_sanction(
    pool: &Pool<Db>,
    id: i64,
    actor: &str,
    reason: &str,
) -> Result<Option<crate::Sanction>, StoreError> {
    let mut tx = pool.begin().await.map_err(|e| classify(BACKEND, e))?;
    let sql = format!(
        "UPDATE sanctions SET lifted_at = {NOW_MS} WHERE id = $1 AND lifted_at IS NULL \
         RETURNING id, kind, value, until_ms, reason, created_at, lifted_at"
    );
    let row = sqlx::query(&sql)
        .bind(id)
        .fetch_optional(&mut *tx)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    let Some(row) = row else {
        return Ok(None);
    };
    let sanction = sanction_of(&row)?;
    let target = format!("{}:{}", sanction.kind, sanction.value);
    audit_in(
        &mut tx,
        &crate::AuditNote {
            actor,
            action: "lift",
            target: &target,
            reason,
        },
    )
    .await?;
    tx.commit().await.map_err(|e| classify(BACKEND, e))?;
    Ok(Some(sanction))
}

/// The sanctions in force now (not lifted, not run out), oldest first.
pub(crate) async fn active_sanctions(pool: &Pool<Db>) -> Result<Vec<crate::Sanction>, StoreError> {
    let sql = format!(
        "SELECT id, kind, value, until_ms, reason, created_at, lifted_at FROM sanctions \
         WHERE lifted_at IS NULL AND (until_ms IS NULL OR until_ms > {NOW_MS}) ORDER BY id"
    );
    let rows = sqlx::query(&sql)
        .fetch_all(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    rows.iter().map(sanction_of).collect()
}

/// The newest `limit` audit entries, newest first.
pub(crate) async fn audit_entries(
    pool: &Pool<Db>,
    limit: i64,
) -> Result<Vec<crate::AuditEntry>, StoreError> {
    let rows = sqlx::query(
        "SELECT id, at, actor, action, target, reason FROM audit_log ORDER BY id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    rows.iter()
        .map(|row| {
            let get = |e| classify(BACKEND, e);
            Ok(crate::AuditEntry {
                id: row.try_get("id").map_err(get)?,
                at: row.try_get("at").map_err(get)?,
                actor: row.try_get("actor").map_err(get)?,
                action: row.try_get("action").map_err(get)?,
                target: row.try_get("target").map_err(get)?,
                reason: row.try_get("reason").map_err(get)?,
            })
        })
        .collect()
}

/// Forgets a player (issue 22): the session's name becomes `replacement`
/// everywhere it is stored (its session, its seats, its rating, the rooms
/// it made), its token stops working (the stored hash is replaced by one
/// of nothing anyone holds), it leaves the quick-play queue; its games,
/// their logs and results stay. Audited in the same transaction. False when
/// there is no such session.
pub(crate) async fn forget_session(
    pool: &Pool<Db>,
    session: Uuid,
    replacement: &str,
    unusable_hash: &[u8],
    note: &crate::AuditNote<'_>,
) -> Result<bool, StoreError> {
    let mut tx = pool.begin().await.map_err(|e| classify(BACKEND, e))?;
    let found = sqlx::query("UPDATE sessions SET name = $2, token_hash = $3 WHERE id = $1")
        .bind(session)
        .bind(replacement)
        .bind(unusable_hash)
        .execute(&mut *tx)
        .await
        .map_err(|e| classify(BACKEND, e))?
        .rows_affected()
        > 0;
    if !found {
        return Ok(false);
    }
    for sql in [
        "UPDATE seats SET name = $2 WHERE session_id = $1",
        "UPDATE ratings SET name = $2 WHERE session_id = $1",
    ] {
        sqlx::query(sql)
            .bind(session)
            .bind(replacement)
            .execute(&mut *tx)
            .await
            .map_err(|e| classify(BACKEND, e))?;
    }
    sqlx::query("DELETE FROM queue_entries WHERE session_id = $1")
        .bind(session)
        .execute(&mut *tx)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    // Their lines in the chat kept with parked games (issue 23).
    let parked: Vec<(String, String)> =
        sqlx::query_as("SELECT room_code, chat FROM parked_rooms WHERE chat IS NOT NULL")
            .fetch_all(&mut *tx)
            .await
            .map_err(|e| classify(BACKEND, e))?;
    let author = session.to_string();
    for (room, chat) in parked {
        let Ok(serde_json::Value::Array(lines)) = serde_json::from_str(&chat) else {
            continue;
        };
        let kept: Vec<serde_json::Value> = lines
            .iter()
            .filter(|l| l.get("session").and_then(|s| s.as_str()) != Some(author.as_str()))
            .cloned()
            .collect();
        if kept.len() != lines.len() {
            sqlx::query("UPDATE parked_rooms SET chat = $2 WHERE room_code = $1")
                .bind(room)
                .bind(serde_json::Value::Array(kept).to_string())
                .execute(&mut *tx)
                .await
                .map_err(|e| classify(BACKEND, e))?;
        }
    }
    // Their tries at a password, counted under their session (issue 23).
    sqlx::query("DELETE FROM login_attempts WHERE key = $1")
        .bind(format!("session:{}", session.simple()))
        .execute(&mut *tx)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    // Every other device's token, links, password and passkeys (issue 23):
    // nothing opens the forgotten session any more.
    for sql in [
        "DELETE FROM device_tokens WHERE session_id = $1",
        "DELETE FROM device_links WHERE session_id = $1",
        "DELETE FROM passwords WHERE session_id = $1",
        "DELETE FROM passkeys WHERE session_id = $1",
        "DELETE FROM webauthn_ceremonies WHERE session_id = $1",
    ] {
        sqlx::query(sql)
            .bind(session)
            .execute(&mut *tx)
            .await
            .map_err(|e| classify(BACKEND, e))?;
    }
    // Where its notices went (issue 25): a webhook's address is the player's.
    sqlx::query("DELETE FROM notify_settings WHERE session_id = $1")
        .bind(session)
        .execute(&mut *tx)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    // The browsers it was pushed to: an endpoint names a device.
    sqlx::query("DELETE FROM push_subscriptions WHERE session_id = $1")
        .bind(session)
        .execute(&mut *tx)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    // Invitations it sent or got (issue 25), and the id it was found by
    // (empty, not NULL: NULL is what the backfill at open fills).
    sqlx::query("DELETE FROM invitations WHERE from_session = $1 OR to_session = $1")
        .bind(session)
        .execute(&mut *tx)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    // Its program name and its place among the programs online (issue 24).
    for sql in [
        "DELETE FROM bot_names WHERE session_id = $1",
        "DELETE FROM bots_online WHERE session_id = $1",
        // Its blocks, made and received (issue 22).
        "DELETE FROM blocks WHERE blocker = $1 OR blocked = $1",
        // Its follows, made and received (issue 50).
        "DELETE FROM follows WHERE follower = $1 OR followed = $1",
        // What its invitations counted against its hourly limit.
        "DELETE FROM invitations_made WHERE from_session = $1",
        // Reports it made or that name it, and its lines kept with others'
        // reports (issue 22).
        "DELETE FROM reports WHERE reporter = $1 OR reported = $1",
        "DELETE FROM report_lines WHERE session = $1",
    ] {
        sqlx::query(sql)
            .bind(session)
            .execute(&mut *tx)
            .await
            .map_err(|e| classify(BACKEND, e))?;
    }
    // Its id, and the address and owner it said hello with.
    sqlx::query("UPDATE sessions SET player_id = '', client = NULL, owner = NULL WHERE id = $1")
        .bind(session)
        .execute(&mut *tx)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    sqlx::query("UPDATE open_rooms SET host = $2 WHERE creator = $1")
        .bind(session.to_string())
        .bind(replacement)
        .execute(&mut *tx)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    audit_in(&mut tx, note).await?;
    tx.commit().await.map_err(|e| classify(BACKEND, e))?;
    Ok(true)
}

/// Deletes the unfinished games nobody played since `before` (Unix ms; the
/// last action's time, or the start) whose room no live lease holds: their
/// seats, actions and rows go (by the foreign keys' cascade). Finished
/// games stay. Returns how many went.
pub(crate) async fn prune_abandoned_games(pool: &Pool<Db>, before: i64) -> Result<u64, StoreError> {
    let sql = format!(
        "DELETE FROM games WHERE finished_at IS NULL \
           AND COALESCE((SELECT MAX(a.at) FROM actions a WHERE a.game_id = games.id), created_at) < $1 \
           AND NOT EXISTS (SELECT 1 FROM room_leases l \
                           WHERE l.room_code = games.room_code AND {})",
        live_lease("l")
    );
    let done = sqlx::query(&sql)
        .bind(before)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(done.rows_affected())
}
