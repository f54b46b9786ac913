// Invitations (issue 25), included once per backend. `cargo fmt` does not
// reach an included file: after editing, run
// `rustfmt --edition 2024 crates/splendor-store/src/backend/invitation_queries.rs`.

fn invitation_from_row(
    row: &<Db as sqlx::Database>::Row,
) -> Result<crate::invitation::Invitation, StoreError> {
    let get = |e| classify(BACKEND, e);
    let epoch: i64 = row.try_get("room_epoch").map_err(get)?;
    Ok(crate::invitation::Invitation {
        id: row.try_get("id").map_err(get)?,
        room_code: row.try_get("room_code").map_err(get)?,
        room_epoch: u64::try_from(epoch).unwrap_or(0),
        from: crate::SessionId(row.try_get("from_session").map_err(get)?),
        from_name: row.try_get("from_name").map_err(get)?,
        to: crate::SessionId(row.try_get("to_session").map_err(get)?),
        created_at: row.try_get("created_at").map_err(get)?,
        terms_json: row.try_get("terms").map_err(get)?,
    })
}

pub(crate) async fn sessions_by_player_id(
    pool: &Pool<Db>,
    player_id: &str,
) -> Result<Vec<crate::invitation::Invitee>, StoreError> {
    let rows = sqlx::query("SELECT id, name FROM sessions WHERE player_id = $1 LIMIT 2")
        .bind(player_id)
        .fetch_all(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    rows.iter()
        .map(|row| {
            let get = |e| classify(BACKEND, e);
            Ok(crate::invitation::Invitee {
                session: crate::SessionId(row.try_get("id").map_err(get)?),
                name: row.try_get("name").map_err(get)?,
            })
        })
        .collect()
}

pub(crate) async fn sessions_without_player_id(
    pool: &Pool<Db>,
    limit: i64,
) -> Result<Vec<Uuid>, StoreError> {
    let rows = sqlx::query("SELECT id FROM sessions WHERE player_id IS NULL LIMIT $1")
        .bind(limit)
        .fetch_all(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    rows.iter()
        .map(|row| row.try_get("id").map_err(|e| classify(BACKEND, e)))
        .collect()
}

pub(crate) async fn set_player_ids(
    pool: &Pool<Db>,
    ids: &[(Uuid, String)],
) -> Result<(), StoreError> {
    // One transaction a batch: one commit (one fsync), not one a row.
    let mut tx = pool.begin().await.map_err(|e| classify(BACKEND, e))?;
    for (id, player_id) in ids {
        sqlx::query("UPDATE sessions SET player_id = $2 WHERE id = $1")
            .bind(*id)
            .bind(player_id.as_str())
            .execute(&mut *tx)
            .await
            .map_err(|e| classify(BACKEND, e))?;
    }
    tx.commit().await.map_err(|e| classify(BACKEND, e))
}

pub(crate) async fn invite(
    pool: &Pool<Db>,
    invitation: &crate::invitation::Invitation,
    since: i64,
    max: i64,
) -> Result<crate::invitation::Invited, StoreError> {
    use crate::invitation::Invited;
    let epoch = i64::try_from(invitation.room_epoch).unwrap_or(i64::MAX);
    // No transaction: two invitations racing past the count make the
    // limit one larger at worst, and the insert is one statement.
    let existing: Option<(Uuid, i64)> = sqlx::query_as(
        "SELECT id, room_epoch FROM invitations \
         WHERE to_session = $1 AND room_code = $2 AND from_session = $3",
    )
    .bind(invitation.to.0)
    .bind(invitation.room_code.as_str())
    .bind(invitation.from.0)
    .fetch_optional(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    if let Some((id, old_epoch)) = existing
        && old_epoch == epoch
    {
        return Ok(Invited::Already(id));
    }
    // Counted from what it made, declined or not (issue 24: a decline
    // deletes the invitation, and must not give the inviter one back).
    sqlx::query("DELETE FROM invitations_made WHERE from_session = $1 AND created_at < $2")
        .bind(invitation.from.0)
        .bind(since)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    let (count, oldest): (i64, Option<i64>) = sqlx::query_as(
        "SELECT COUNT(*), MIN(created_at) FROM invitations_made \
         WHERE from_session = $1 AND created_at >= $2",
    )
    .bind(invitation.from.0)
    .bind(since)
    .fetch_one(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    if count >= max {
        return Ok(Invited::Limited {
            oldest_at: oldest.unwrap_or(since),
        });
    }
    sqlx::query(
        "INSERT INTO invitations \
         (id, room_code, room_epoch, from_session, from_name, to_session, created_at, terms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
         ON CONFLICT (to_session, room_code, from_session) DO UPDATE SET \
         id = excluded.id, room_epoch = excluded.room_epoch, \
         from_name = excluded.from_name, created_at = excluded.created_at, \
         terms = excluded.terms",
    )
    .bind(invitation.id)
    .bind(invitation.room_code.as_str())
    .bind(epoch)
    .bind(invitation.from.0)
    .bind(invitation.from_name.as_str())
    .bind(invitation.to.0)
    .bind(invitation.created_at)
    .bind(invitation.terms_json.as_deref())
    .execute(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    sqlx::query("INSERT INTO invitations_made (from_session, created_at) VALUES ($1, $2)")
        .bind(invitation.from.0)
        .bind(invitation.created_at)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(Invited::Made(invitation.id))
}

pub(crate) async fn invitations_to(
    pool: &Pool<Db>,
    to: Uuid,
    limit: i64,
) -> Result<Vec<crate::invitation::Invitation>, StoreError> {
    let rows = sqlx::query(
        "SELECT id, room_code, room_epoch, from_session, from_name, to_session, created_at, \
                terms \
         FROM invitations WHERE to_session = $1 ORDER BY created_at DESC, id LIMIT $2",
    )
    .bind(to)
    .bind(limit)
    .fetch_all(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    rows.iter().map(invitation_from_row).collect()
}

pub(crate) async fn decline_invitation(
    pool: &Pool<Db>,
    id: Uuid,
    to: Uuid,
) -> Result<Option<crate::invitation::Invitation>, StoreError> {
    let row = sqlx::query(
        "DELETE FROM invitations WHERE id = $1 AND to_session = $2 \
         RETURNING id, room_code, room_epoch, from_session, from_name, to_session, created_at, \
                   terms",
    )
    .bind(id)
    .bind(to)
    .fetch_optional(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    row.as_ref().map(invitation_from_row).transpose()
}

pub(crate) async fn drop_invitations(
    pool: &Pool<Db>,
    to: Uuid,
    room: &str,
) -> Result<u64, StoreError> {
    // Every join of a player asks; almost none has an invitation. A read
    // first: on SQLite even a DELETE that matches nothing takes the write
    // lock from the writer (issue 20 found that of the queue's).
    let any: Option<i32> = sqlx::query_scalar(
        "SELECT 1 FROM invitations WHERE to_session = $1 AND room_code = $2 LIMIT 1",
    )
    .bind(to)
    .bind(room)
    .fetch_optional(pool)
    .await
    .map_err(|e| classify(BACKEND, e))?;
    if any.is_none() {
        return Ok(0);
    }
    let done = sqlx::query("DELETE FROM invitations WHERE to_session = $1 AND room_code = $2")
        .bind(to)
        .bind(room)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(done.rows_affected())
}

pub(crate) async fn drop_stale_invitations(
    pool: &Pool<Db>,
    ids: &[Uuid],
    before: i64,
) -> Result<u64, StoreError> {
    let mut total = 0;
    for id in ids {
        let done = sqlx::query("DELETE FROM invitations WHERE id = $1")
            .bind(*id)
            .execute(pool)
            .await
            .map_err(|e| classify(BACKEND, e))?;
        total += done.rows_affected();
    }
    let done = sqlx::query("DELETE FROM invitations WHERE created_at < $1")
        .bind(before)
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(total + done.rows_affected())
}
