//! Room leases (issue 21): which node owns which room, with a fencing
//! number.
//!
//! One row per room code, kept for good, so the epoch only ever grows: a
//! claim of a code whose lease expired (its owner died, paused or was cut
//! off from the database) or was released takes the next epoch. Expiry is
//! the database's clock, never a node's. The fenced writes
//! ([`Store::append_action_fenced`], [`Store::create_game_fenced`]) name
//! their lease's epoch and are refused in their own transaction unless it
//! is the room's current one; on PostgreSQL they share-lock the lease row
//! until they commit, so a takeover waits for a write in flight and then
//! reads it in the log.

use crate::backend::dispatch;
use crate::{Store, StoreError};

/// A node's claim on a room code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomLease {
    /// The room's code.
    pub room_code: String,
    /// The node that owns it.
    pub node: u16,
    /// The fencing number: larger for every new claim of the code.
    pub epoch: u64,
    /// When it expires unless renewed, in Unix ms by the database's clock.
    pub expires_at: i64,
}

/// A lease's length in milliseconds, as the database adds it.
fn ttl_ms(ttl: std::time::Duration) -> i64 {
    i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX / 2)
}

fn epoch_db(epoch: u64) -> i64 {
    i64::try_from(epoch).unwrap_or(i64::MAX)
}

impl Store {
    /// Claims `code` for `node` for `ttl`: `None` while another live lease
    /// holds it (whoever holds it, this node included).
    pub async fn claim_room(
        &self,
        code: &str,
        node: u16,
        ttl: std::time::Duration,
    ) -> Result<Option<RoomLease>, StoreError> {
        let node = i32::from(node);
        dispatch!(&self.inner.pool, pool, q => q::claim_room(pool, code, (node, ""), ttl_ms(ttl)).await)
    }

    /// Claims `code` for `node`'s process `instance` by the node's lease
    /// (issue 44): the room lives as long as that process's claim on its
    /// node id (`claim_node`, renewed by [`Store::renew_node`]), and needs
    /// no renewal of its own. `None` while a live lease holds it.
    pub async fn claim_room_by_node(
        &self,
        code: &str,
        node: u16,
        instance: &str,
    ) -> Result<Option<RoomLease>, StoreError> {
        let node = i32::from(node);
        dispatch!(&self.inner.pool, pool, q => q::claim_room(pool, code, (node, instance), 0).await)
    }

    /// Renews `instance`'s claim on node id `node` for `ttl`, and with it
    /// every room it holds by that claim: one row, whatever the number of
    /// rooms (issue 44). False when the claim had lapsed (other nodes may
    /// have taken some of its rooms meanwhile: see [`Store::held_rooms`])
    /// or another process holds the id; nothing is extended then.
    pub async fn renew_node(
        &self,
        node: u16,
        instance: &str,
        ttl: std::time::Duration,
    ) -> Result<bool, StoreError> {
        let (node, ttl) = (i32::from(node), ttl_ms(ttl));
        dispatch!(&self.inner.pool, pool, q => q::renew_node(pool, node, instance, ttl).await)
    }

    /// The rooms (code and epoch) that `instance` of node `node` holds by
    /// its node lease and has not released, by no order.
    pub async fn held_rooms(
        &self,
        node: u16,
        instance: &str,
    ) -> Result<Vec<(String, u64)>, StoreError> {
        let node = i32::from(node);
        let rows =
            dispatch!(&self.inner.pool, pool, q => q::held_rooms(pool, node, instance).await)?;
        Ok(rows
            .into_iter()
            .map(|(code, epoch)| (code, u64::try_from(epoch).unwrap_or_default()))
            .collect())
    }

    /// Extends `lease` by `ttl` from now (the database's now); false when it
    /// is no longer the code's lease (taken over or released).
    pub async fn renew_room(
        &self,
        lease: &RoomLease,
        ttl: std::time::Duration,
    ) -> Result<bool, StoreError> {
        let (code, node, epoch) = (
            &lease.room_code,
            i32::from(lease.node),
            epoch_db(lease.epoch),
        );
        dispatch!(&self.inner.pool, pool, q => q::renew_room(pool, code, node, epoch, ttl_ms(ttl)).await)
    }

    /// Extends every lease of `leases` (all `node`'s) by `ttl` from now,
    /// in one statement per 250 leases; returns those that are no longer
    /// their code's lease (taken over or released), which were not
    /// extended.
    pub async fn renew_rooms(
        &self,
        node: u16,
        leases: &[RoomLease],
        ttl: std::time::Duration,
    ) -> Result<Vec<RoomLease>, StoreError> {
        let mut lost = Vec::new();
        for chunk in leases.chunks(250) {
            let asked: Vec<(String, i64)> = chunk
                .iter()
                .map(|l| (l.room_code.clone(), epoch_db(l.epoch)))
                .collect();
            let node = i32::from(node);
            let renewed: std::collections::HashSet<(String, i64)> = dispatch!(
                &self.inner.pool, pool, q => q::renew_rooms(pool, node, &asked, ttl_ms(ttl)).await
            )?
            .into_iter()
            .collect();
            lost.extend(
                chunk
                    .iter()
                    .zip(&asked)
                    .filter(|(_, key)| !renewed.contains(*key))
                    .map(|(lease, _)| lease.clone()),
            );
        }
        Ok(lost)
    }

    /// Gives `lease` up: the code may be claimed at once, with the next
    /// epoch. A lease that is no longer the code's changes nothing.
    pub async fn release_room(&self, lease: &RoomLease) -> Result<(), StoreError> {
        let (code, epoch) = (&lease.room_code, epoch_db(lease.epoch));
        dispatch!(&self.inner.pool, pool, q => q::release_room(pool, code, epoch).await)
    }

    /// The live lease on `code`, if any.
    pub async fn room_lease(&self, code: &str) -> Result<Option<RoomLease>, StoreError> {
        let leases =
            dispatch!(&self.inner.pool, pool, q => q::live_leases(pool, Some(code)).await)?;
        Ok(leases.into_iter().next())
    }

    /// Every live lease, by code.
    pub async fn room_leases(&self) -> Result<Vec<RoomLease>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::live_leases(pool, None).await)
    }

    /// The unfinished games whose room no live lease holds (their owner
    /// died, paused past its lease or was cut off): what another node
    /// takes over. Oldest first.
    pub async fn orphaned_games(&self) -> Result<Vec<uuid::Uuid>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::orphaned_games(pool).await)
    }

    /// The room of the newest unfinished game in which `session` holds a
    /// seat: where a session that reconnects to any node belongs.
    pub async fn seat_room(&self, session: crate::SessionId) -> Result<Option<String>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::seat_room(pool, session.0).await)
    }

    /// The unfinished games in which `session` holds a seat, newest first,
    /// at most `limit`, each with its seats and whole log: a player's
    /// games in play (issue 25). The seeds and salts are in them: a caller
    /// must not reveal them.
    pub async fn unfinished_games_of(
        &self,
        session: crate::SessionId,
        limit: u32,
    ) -> Result<Vec<crate::StoredGame>, StoreError> {
        let ids: Vec<uuid::Uuid> = dispatch!(&self.inner.pool, pool, q => {
            q::unfinished_games_of(pool, session.0, i64::from(limit)).await
        })?;
        let mut games = Vec::with_capacity(ids.len());
        for id in ids {
            // A game that finished meanwhile is still given, finished.
            if let Some(game) = self.game(id).await? {
                games.push(game);
            }
        }
        Ok(games)
    }

    /// The database's clock now, in Unix ms (what leases expire by).
    pub async fn database_now(&self) -> Result<i64, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::database_now(pool).await)
    }
}
