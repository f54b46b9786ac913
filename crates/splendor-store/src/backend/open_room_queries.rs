// What every open room shows (issue 21), included once per backend beside
// lease_queries.rs (whose `NOW_MS` it uses).
// `cargo fmt` does not reach an included file: after editing, run
// `rustfmt --edition 2024 crates/splendor-store/src/backend/open_room_queries.rs`.

/// Writes what room `room.room_code` shows now, unless a newer lease's
/// owner wrote it already.
pub(crate) async fn publish_open_room(
    pool: &Pool<Db>,
    room: &crate::OpenRoomRecord,
) -> Result<(), StoreError> {
    let sql = format!(
        "INSERT INTO open_rooms (room_code, node_id, epoch, listed, status, seats, players, \
             host, creator, client, programs, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, {NOW_MS}) \
         ON CONFLICT (room_code) DO UPDATE \
         SET node_id = excluded.node_id, epoch = excluded.epoch, listed = excluded.listed, \
             status = excluded.status, seats = excluded.seats, players = excluded.players, \
             host = excluded.host, creator = excluded.creator, client = excluded.client, \
             programs = excluded.programs, updated_at = excluded.updated_at \
         WHERE open_rooms.epoch <= excluded.epoch"
    );
    sqlx::query(&sql)
        .bind(&room.room_code)
        .bind(i32::from(room.node))
        .bind(i64::try_from(room.epoch).unwrap_or(i64::MAX))
        .bind(room.listed)
        .bind(&room.status)
        .bind(i32::from(room.seats))
        .bind(i32::from(room.players))
        .bind(&room.host)
        .bind(room.creator.map(|s| s.0.to_string()))
        .bind(room.client.as_deref())
        .bind(i32::from(room.programs))
        .execute(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    Ok(())
}

/// Every open room whose owner's lease is live, by code.
pub(crate) async fn open_rooms(pool: &Pool<Db>) -> Result<Vec<crate::OpenRoomRecord>, StoreError> {
    let sql = format!(
        "SELECT o.room_code, o.node_id, o.epoch, o.listed, o.status, o.seats, o.players, \
             o.host, o.creator, o.client, o.programs \
         FROM open_rooms o JOIN room_leases l \
           ON l.room_code = o.room_code AND l.epoch = o.epoch AND l.node_id = o.node_id \
         WHERE {} \
         ORDER BY o.room_code",
        live_lease("l")
    );
    let rows = sqlx::query(&sql)
        .fetch_all(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    rows.iter().map(open_room_of).collect()
}

/// How many open rooms on nodes other than `node` (live leases) `creator`
/// made that have not finished, and how many rooms made from `client` are
/// waiting for players.
pub(crate) async fn open_rooms_elsewhere(
    pool: &Pool<Db>,
    node: i32,
    creator: Option<Uuid>,
    client: Option<&str>,
) -> Result<(u64, u64, u64), StoreError> {
    let sql = format!(
        "SELECT \
           COALESCE(SUM(CASE WHEN o.creator = $2 AND o.status <> 'finished' THEN 1 ELSE 0 END), 0) AS own, \
           COALESCE(SUM(CASE WHEN o.client = $3 AND o.status = 'waiting' THEN 1 ELSE 0 END), 0) AS waiting, \
           COALESCE(SUM(CASE WHEN o.client = $3 AND o.status <> 'finished' THEN 1 ELSE 0 END), 0) AS unfinished \
         FROM open_rooms o JOIN room_leases l \
           ON l.room_code = o.room_code AND l.epoch = o.epoch AND l.node_id = o.node_id \
         WHERE {} AND o.node_id <> $1",
        live_lease("l")
    );
    let row = sqlx::query(&sql)
        .bind(node)
        .bind(creator.map(|c| c.to_string()))
        .bind(client)
        .fetch_one(pool)
        .await
        .map_err(|e| classify(BACKEND, e))?;
    let own: i64 = row.try_get("own").map_err(|e| classify(BACKEND, e))?;
    let waiting: i64 = row.try_get("waiting").map_err(|e| classify(BACKEND, e))?;
    let unfinished: i64 = row
        .try_get("unfinished")
        .map_err(|e| classify(BACKEND, e))?;
    Ok((
        u64::try_from(own).unwrap_or_default(),
        u64::try_from(waiting).unwrap_or_default(),
        u64::try_from(unfinished).unwrap_or_default(),
    ))
}

fn open_room_of(row: &DbRow) -> Result<crate::OpenRoomRecord, StoreError> {
    let get_i32 = |name: &str| -> Result<i32, StoreError> {
        row.try_get(name).map_err(|e| classify(BACKEND, e))
    };
    let epoch: i64 = row.try_get("epoch").map_err(|e| classify(BACKEND, e))?;
    let creator: Option<String> = row.try_get("creator").map_err(|e| classify(BACKEND, e))?;
    Ok(crate::OpenRoomRecord {
        room_code: row.try_get("room_code").map_err(|e| classify(BACKEND, e))?,
        node: u16::try_from(get_i32("node_id")?).unwrap_or_default(),
        epoch: u64::try_from(epoch).unwrap_or_default(),
        listed: row.try_get("listed").map_err(|e| classify(BACKEND, e))?,
        status: row.try_get("status").map_err(|e| classify(BACKEND, e))?,
        seats: u8::try_from(get_i32("seats")?).unwrap_or_default(),
        players: u8::try_from(get_i32("players")?).unwrap_or_default(),
        host: row.try_get("host").map_err(|e| classify(BACKEND, e))?,
        creator: creator
            .and_then(|c| Uuid::parse_str(&c).ok())
            .map(crate::SessionId),
        client: row.try_get("client").map_err(|e| classify(BACKEND, e))?,
        programs: u8::try_from(get_i32("programs")?).unwrap_or_default(),
    })
}
