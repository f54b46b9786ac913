//! The room directory of several nodes (issue 21): leases in the shared
//! database, expiring by the database's clock, each claim of a code with a
//! larger epoch that the store checks on the room's every write.
//!
//! A node's directory ([`StoreDirectory::by_node`], issue 44) claims rooms
//! by the node's own lease (its claim on its node id): a round of renewals
//! is one row, whatever the number of rooms, and a node whose claim lapsed
//! takes stock of the rooms it still holds once it has the claim again.

use std::time::Duration;

use splendor_room::code::RoomCode;
use splendor_room::conn::NodeId;
use splendor_store::{RoomLease, Store, StoreError};

use super::{DirectoryError, Lease, OpenElsewhere, OpenRoom, RoomDirectory};
use crate::session::BoxFuture;

/// Leases in the database: claim, renew, release, look up, list.
#[derive(Clone, Debug)]
pub struct StoreDirectory {
    store: Store,
    ttl: Duration,
    /// The node id and the process's instance whose claim in `nodes` holds
    /// this directory's rooms; `None`: a lease per room.
    node: Option<(NodeId, String)>,
    /// Rooms closed whose lease could not be released (the database did
    /// not answer): a room held by the node's lease does not run out by
    /// itself, so each renewal round releases them again until it can.
    unreleased: std::sync::Arc<std::sync::Mutex<Vec<Lease>>>,
}

impl StoreDirectory {
    /// The directory in `store`, whose leases live `ttl` unless renewed,
    /// one lease per room.
    pub fn new(store: Store, ttl: Duration) -> StoreDirectory {
        StoreDirectory {
            store,
            ttl,
            node: None,
            unreleased: Default::default(),
        }
    }

    /// The directory of node `node`'s process `instance`, which holds its
    /// claim on the node id in `store` (issue 44): rooms are claimed by
    /// that claim and live as long as it does; renewing is renewing it.
    pub fn by_node(store: Store, ttl: Duration, node: NodeId, instance: String) -> StoreDirectory {
        StoreDirectory {
            store,
            ttl,
            node: Some((node, instance)),
            unreleased: Default::default(),
        }
    }

    /// Releases the leases of closed rooms whose release failed before
    /// (a node that gave its rooms up while cut off from the database):
    /// otherwise they would live on with the node's claim and their games
    /// would never be taken over. One statement each, only while any wait.
    async fn release_again(&self) {
        let waiting =
            std::mem::take(&mut *self.unreleased.lock().unwrap_or_else(|p| p.into_inner()));
        for lease in waiting {
            self.release(lease).await;
        }
    }

    /// One round of a node's renewal (issue 44): its claim on its id,
    /// extended while live. A claim that lapsed is taken again (or, held
    /// by another process now, every room is lost), and the rooms of
    /// `leases` that the node no longer holds (other nodes took them over
    /// meanwhile) are the ones lost.
    async fn renew_node(
        &self,
        node: NodeId,
        instance: &str,
        leases: Vec<Lease>,
    ) -> Result<Vec<Lease>, DirectoryError> {
        self.release_again().await;
        let renewed = self
            .store
            .renew_node(node.0, instance, self.ttl)
            .await
            .map_err(unavailable)?;
        if renewed {
            return Ok(Vec::new());
        }
        let again = self
            .store
            .claim_node(node.0, instance, self.ttl)
            .await
            .map_err(unavailable)?;
        if again.is_none() {
            tracing::warn!(%node, "another process holds this node's id: every room is lost");
            return Ok(leases);
        }
        // Held again: nobody can take a room of it from now on, so what it
        // holds now is exactly what it kept.
        let held: std::collections::HashSet<(String, u64)> = self
            .store
            .held_rooms(node.0, instance)
            .await
            .map_err(unavailable)?
            .into_iter()
            .collect();
        let lost: Vec<Lease> = leases
            .into_iter()
            .filter(|l| !held.contains(&(l.code.to_string(), l.epoch)))
            .collect();
        tracing::warn!(
            %node,
            kept = held.len(),
            lost = lost.len(),
            "the node's lease had lapsed: taken again; its rooms taken over meanwhile close"
        );
        Ok(lost)
    }
}

fn unavailable(error: StoreError) -> DirectoryError {
    DirectoryError::Unavailable(error.to_string())
}

fn status_text(status: splendor_protocol::RoomStatus) -> &'static str {
    match status {
        splendor_protocol::RoomStatus::Waiting => "waiting",
        splendor_protocol::RoomStatus::Playing => "playing",
        splendor_protocol::RoomStatus::Finished => "finished",
    }
}

/// A stored open room as the lobby knows it; `None` for a row it cannot
/// read (not written by a lobby).
fn open_room_of(row: &splendor_store::OpenRoomRecord) -> Option<OpenRoom> {
    let status = match row.status.as_str() {
        "waiting" => splendor_protocol::RoomStatus::Waiting,
        "playing" => splendor_protocol::RoomStatus::Playing,
        "finished" => splendor_protocol::RoomStatus::Finished,
        _ => return None,
    };
    Some(OpenRoom {
        lease: Lease {
            code: RoomCode::parse(&row.room_code)?,
            node: NodeId(row.node),
            epoch: row.epoch,
        },
        summary: splendor_protocol::RoomSummary {
            code: row.room_code.clone(),
            host: row.host.clone(),
            seats: row.seats,
            players: row.players,
            programs: row.programs,
            status,
        },
        listed: row.listed,
        creator: row.creator.map(|s| splendor_room::session::SessionId(s.0)),
        client: row.client.clone().map(crate::ClientKey::new),
    })
}

/// A stored lease as the lobby knows it; `None` for a code that is not a
/// room code (no lobby claims one).
fn lease_of(stored: &RoomLease) -> Option<Lease> {
    Some(Lease {
        code: RoomCode::parse(&stored.room_code)?,
        node: NodeId(stored.node),
        epoch: stored.epoch,
    })
}

impl RoomDirectory for StoreDirectory {
    fn publish(&self, room: OpenRoom) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let record = splendor_store::OpenRoomRecord {
                room_code: room.lease.code.to_string(),
                node: room.lease.node.0,
                epoch: room.lease.epoch,
                listed: room.listed,
                status: status_text(room.summary.status).to_owned(),
                seats: room.summary.seats,
                players: room.summary.players,
                host: room.summary.host,
                creator: room.creator.map(|s| splendor_store::SessionId(s.0)),
                client: room.client.map(|c| c.as_str().to_owned()),
                programs: room.summary.programs,
            };
            // A room whose summary could not be written shows its last one
            // until the next change; the write is retried then.
            if let Err(e) = self.store.publish_open_room(&record).await {
                tracing::warn!(room = %room.lease.code, error = %e, "writing what the room shows");
            }
        })
    }

    fn open_rooms(&self) -> BoxFuture<'_, Result<Option<Vec<OpenRoom>>, DirectoryError>> {
        Box::pin(async move {
            let rows = self.store.open_rooms().await.map_err(unavailable)?;
            Ok(Some(rows.iter().filter_map(open_room_of).collect()))
        })
    }

    fn open_elsewhere<'a>(
        &'a self,
        node: NodeId,
        creator: Option<splendor_room::session::SessionId>,
        client: Option<&'a crate::ClientKey>,
    ) -> BoxFuture<'a, Result<OpenElsewhere, DirectoryError>> {
        Box::pin(async move {
            let seen = self
                .store
                .open_rooms_elsewhere(
                    node.0,
                    creator.map(|s| splendor_store::SessionId(s.0)),
                    client.map(crate::ClientKey::as_str),
                )
                .await
                .map_err(unavailable)?;
            Ok(OpenElsewhere {
                own: usize::try_from(seen.own).unwrap_or(usize::MAX),
                waiting_from_client: usize::try_from(seen.waiting_from_client)
                    .unwrap_or(usize::MAX),
                unfinished_from_client: usize::try_from(seen.unfinished_from_client)
                    .unwrap_or(usize::MAX),
            })
        })
    }

    fn claim(&self, code: RoomCode, node: NodeId) -> BoxFuture<'_, Result<Lease, DirectoryError>> {
        Box::pin(async move {
            // A lease that expires between the refused claim and the look
            // up is claimed on the next round.
            for _ in 0..3 {
                let claimed = match &self.node {
                    Some((_, instance)) => {
                        self.store
                            .claim_room_by_node(code.as_str(), node.0, instance)
                            .await
                    }
                    None => self.store.claim_room(code.as_str(), node.0, self.ttl).await,
                };
                if let Some(stored) = claimed.map_err(unavailable)? {
                    return Ok(Lease {
                        code,
                        node,
                        epoch: stored.epoch,
                    });
                }
                let held = self
                    .store
                    .room_lease(code.as_str())
                    .await
                    .map_err(unavailable)?;
                if let Some(held) = held.as_ref().and_then(lease_of) {
                    return Err(DirectoryError::Taken(held));
                }
            }
            Err(DirectoryError::Unavailable(format!(
                "room {code}: the lease neither holds nor can be claimed"
            )))
        })
    }

    fn renew(&self, lease: Lease) -> BoxFuture<'_, Result<(), DirectoryError>> {
        Box::pin(async move {
            if self.node.is_some() {
                return match self.renew_all(vec![lease]).await?.is_empty() {
                    true => Ok(()),
                    false => Err(DirectoryError::Lost(lease)),
                };
            }
            let stored = stored_of(lease);
            match self.store.renew_room(&stored, self.ttl).await {
                Ok(true) => Ok(()),
                Ok(false) => Err(DirectoryError::Lost(lease)),
                Err(e) => Err(unavailable(e)),
            }
        })
    }

    fn renew_all(&self, leases: Vec<Lease>) -> BoxFuture<'_, Result<Vec<Lease>, DirectoryError>> {
        Box::pin(async move {
            if let Some((node, instance)) = &self.node {
                return self.renew_node(*node, instance, leases).await;
            }
            let Some(node) = leases.first().map(|l| l.node) else {
                return Ok(Vec::new());
            };
            let stored: Vec<RoomLease> = leases.iter().copied().map(stored_of).collect();
            let lost = self
                .store
                .renew_rooms(node.0, &stored, self.ttl)
                .await
                .map_err(unavailable)?;
            Ok(lost.iter().filter_map(lease_of).collect())
        })
    }

    fn release(&self, lease: Lease) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            if let Err(e) = self.store.release_room(&stored_of(lease)).await {
                tracing::warn!(room = %lease.code, error = %e, "releasing a room's lease");
                if self.node.is_some() {
                    // Held by the node's lease, it would not run out by
                    // itself: released again at the next renewal.
                    self.unreleased
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .push(lease);
                }
                // A lease per room runs out by itself; the code is free then.
            }
        })
    }

    fn lookup(&self, code: RoomCode) -> BoxFuture<'_, Option<Lease>> {
        Box::pin(async move {
            match self.store.room_lease(code.as_str()).await {
                Ok(lease) => lease.as_ref().and_then(lease_of),
                Err(e) => {
                    tracing::warn!(room = %code, error = %e, "looking up a room's lease");
                    None
                }
            }
        })
    }

    fn list(&self) -> BoxFuture<'_, Vec<Lease>> {
        Box::pin(async move {
            match self.store.room_leases().await {
                Ok(leases) => leases.iter().filter_map(lease_of).collect(),
                Err(e) => {
                    tracing::warn!(error = %e, "listing the room leases");
                    Vec::new()
                }
            }
        })
    }

    fn fences(&self) -> bool {
        true
    }

    fn lease_ttl(&self) -> Option<Duration> {
        Some(self.ttl)
    }
}

/// The lease as the store names it (its expiry does not matter there).
fn stored_of(lease: Lease) -> RoomLease {
    RoomLease {
        room_code: lease.code.to_string(),
        node: lease.node.0,
        epoch: lease.epoch,
        expires_at: 0,
    }
}
