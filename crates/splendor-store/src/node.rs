//! The nodes of a cluster (issue 21): which process runs as which node id.
//!
//! A node id names the owner of room leases, so two processes running as
//! one id would renew each other's leases and both believe they own the
//! same rooms (the fencing number would still refuse the older one's
//! writes, but its players would be sent back and forth). Each process
//! claims its id for an instance of its own (a fresh id at every start),
//! for a lease renewed by the database's clock, and gives it up when it
//! stops cleanly; a second process asking for a live claim is refused.

use crate::backend::dispatch;
use crate::{Store, StoreError};

/// A process's claim on a node id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeClaim {
    /// The node id.
    pub node: u16,
    /// The process that holds it (fresh at every start).
    pub instance: String,
    /// When that process first claimed it, in Unix ms by the database's
    /// clock.
    pub started_at: i64,
    /// When the claim runs out unless renewed, in Unix ms by the
    /// database's clock.
    pub expires_at: i64,
}

fn ttl_ms(ttl: std::time::Duration) -> i64 {
    i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX / 2)
}

impl Store {
    /// Claims node id `node` for `instance` for `ttl`, or renews the claim
    /// `instance` holds; `None` while another instance's claim is live.
    pub async fn claim_node(
        &self,
        node: u16,
        instance: &str,
        ttl: std::time::Duration,
    ) -> Result<Option<NodeClaim>, StoreError> {
        let node = i32::from(node);
        dispatch!(&self.inner.pool, pool, q => q::claim_node(pool, node, instance, ttl_ms(ttl)).await)
    }

    /// Gives `instance`'s claim on `node` up, so that a node restarted with
    /// the same id starts at once.
    pub async fn release_node(&self, node: u16, instance: &str) -> Result<(), StoreError> {
        let node = i32::from(node);
        dispatch!(&self.inner.pool, pool, q => q::release_node(pool, node, instance).await)
    }

    /// The live claim on `node`, if any.
    pub async fn node_claim(&self, node: u16) -> Result<Option<NodeClaim>, StoreError> {
        let node = Some(i32::from(node));
        let claims = dispatch!(&self.inner.pool, pool, q => q::live_nodes(pool, node).await)?;
        Ok(claims.into_iter().next())
    }

    /// Every live node, by id.
    pub async fn nodes(&self) -> Result<Vec<NodeClaim>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::live_nodes(pool, None).await)
    }
}

/// What an open room shows, as its owner last wrote it (issue 21).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenRoomRecord {
    /// The room's code.
    pub room_code: String,
    /// Its owner.
    pub node: u16,
    /// The owner's lease (a row counts only while it is live).
    pub epoch: u64,
    /// Shown in the public listing.
    pub listed: bool,
    /// `waiting`, `playing` or `finished`.
    pub status: String,
    /// Its seats.
    pub seats: u8,
    /// Its seated players.
    pub players: u8,
    /// The host's name.
    pub host: String,
    /// The session that made it.
    pub creator: Option<crate::SessionId>,
    /// The client address it was made from (the gateway's text form).
    pub client: Option<String>,
    /// How many seats programs hold (issue 24).
    pub programs: u8,
}

/// How many open rooms on other nodes count against a session's and an
/// address's caps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenElsewhere {
    /// Rooms the session made that have not finished.
    pub own: u64,
    /// Rooms made from the address that wait for players.
    pub waiting_from_client: u64,
    /// Rooms made from the address that have not finished (issue 45).
    pub unfinished_from_client: u64,
}

impl Store {
    /// Writes what `room` shows now (its owner does, whenever it changes);
    /// a row of an older lease never overwrites a newer one.
    pub async fn publish_open_room(&self, room: &OpenRoomRecord) -> Result<(), StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::publish_open_room(pool, room).await)
    }

    /// Every open room whose owner's lease is live, by code: what every
    /// node lists.
    pub async fn open_rooms(&self) -> Result<Vec<OpenRoomRecord>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::open_rooms(pool).await)
    }

    /// The open rooms on nodes other than `node` that count against
    /// `creator`'s and `client`'s caps.
    pub async fn open_rooms_elsewhere(
        &self,
        node: u16,
        creator: Option<crate::SessionId>,
        client: Option<&str>,
    ) -> Result<OpenElsewhere, StoreError> {
        let node = i32::from(node);
        let creator = creator.map(|c| c.0);
        let (own, waiting_from_client, unfinished_from_client) = dispatch!(&self.inner.pool, pool, q => q::open_rooms_elsewhere(pool, node, creator, client).await)?;
        Ok(OpenElsewhere {
            own,
            waiting_from_client,
            unfinished_from_client,
        })
    }
}
