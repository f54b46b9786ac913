//! The room directory: which node owns which room code, under a lease.
//!
//! This is the seam a second node plugs into (jamsocket/plane's keys: one
//! owner per key, the database's time, fencing tokens). Every room's code
//! is claimed before the room exists and released when it is gone; the
//! claim's `epoch` is the room's fencing token (a newer owner has a larger
//! one, and a store that knows it refuses the older owner's writes as
//! fenced). With one node the directory is [`LocalDirectory`], a map in
//! this process; with several it is [`StoreDirectory`], leases in the
//! shared database by the database's clock, whose epochs the store checks
//! on every write of the room (issue 21).

mod store;

pub use store::StoreDirectory;

use std::collections::HashMap;
use std::sync::Mutex;

use splendor_room::code::RoomCode;
use splendor_room::conn::NodeId;

use crate::session::BoxFuture;

/// A node's claim on a room code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lease {
    /// The room.
    pub code: RoomCode,
    /// The node that runs it.
    pub node: NodeId,
    /// The fencing token: larger for every new claim of the code.
    pub epoch: u64,
}

/// What an open room shows, for every node's listings, caps and the
/// operators' view (a directory in a shared database keeps it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenRoom {
    /// Its owner's lease.
    pub lease: Lease,
    /// What it shows in listings.
    pub summary: splendor_protocol::RoomSummary,
    /// Shown in the public listing.
    pub listed: bool,
    /// The session that made it.
    pub creator: Option<splendor_room::session::SessionId>,
    /// The client it was made from.
    pub client: Option<crate::ClientKey>,
}

/// The open rooms of other nodes that count against a session's and a
/// client's caps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenElsewhere {
    /// Unfinished rooms the session made.
    pub own: usize,
    /// Rooms made from the client that wait for players.
    pub waiting_from_client: usize,
    /// Rooms made from the client that have not finished (issue 45).
    pub unfinished_from_client: usize,
}

/// Why the directory said no.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DirectoryError {
    /// The code is held by a live lease (this one).
    #[error("room {} is held by node {} (epoch {})", .0.code, .0.node, .0.epoch)]
    Taken(Lease),
    /// The lease is no longer the code's: another claim replaced it, or it
    /// was released. Its holder must stop the room.
    #[error("the lease on room {} is lost", .0.code)]
    Lost(Lease),
    /// The directory cannot be reached now.
    #[error("the room directory is unavailable: {0}")]
    Unavailable(String),
}

/// Which node owns which room: claim, renew, release, look up, list.
pub trait RoomDirectory: Send + Sync + 'static {
    /// Claims `code` for `node`; refused while another live lease holds it.
    fn claim(&self, code: RoomCode, node: NodeId) -> BoxFuture<'_, Result<Lease, DirectoryError>>;

    /// Keeps `lease` alive (a shared directory lets leases that are not
    /// renewed expire); `Lost` when it is no longer the code's lease.
    fn renew(&self, lease: Lease) -> BoxFuture<'_, Result<(), DirectoryError>>;

    /// Keeps every lease of `leases` alive at once (one round of a node's
    /// renewals); returns the ones that are no longer their code's lease.
    /// By default one [`RoomDirectory::renew`] after another; a directory
    /// in a database does it in one statement.
    fn renew_all(&self, leases: Vec<Lease>) -> BoxFuture<'_, Result<Vec<Lease>, DirectoryError>> {
        Box::pin(async move {
            let mut lost = Vec::new();
            for lease in leases {
                match self.renew(lease).await {
                    Ok(()) => {}
                    Err(DirectoryError::Lost(lease)) => lost.push(lease),
                    Err(e) => return Err(e),
                }
            }
            Ok(lost)
        })
    }

    /// Gives `lease` up; a lease that is no longer the code's changes
    /// nothing.
    fn release(&self, lease: Lease) -> BoxFuture<'_, ()>;

    /// The live lease on `code`, if any.
    fn lookup(&self, code: RoomCode) -> BoxFuture<'_, Option<Lease>>;

    /// Every live lease.
    fn list(&self) -> BoxFuture<'_, Vec<Lease>>;

    /// Keeps what an open room shows where every node reads it; nothing for
    /// a directory in this process only (the lobby's own map is the truth).
    fn publish(&self, room: OpenRoom) -> BoxFuture<'_, ()> {
        let _ = room;
        Box::pin(async {})
    }

    /// Every node's open rooms under live leases, by code; `None` for a
    /// directory in this process only (the lobby lists its own).
    fn open_rooms(&self) -> BoxFuture<'_, Result<Option<Vec<OpenRoom>>, DirectoryError>> {
        Box::pin(async { Ok(None) })
    }

    /// The open rooms of nodes other than `node` that count against
    /// `creator`'s and `client`'s caps; none for a directory in this
    /// process only.
    fn open_elsewhere<'a>(
        &'a self,
        node: NodeId,
        creator: Option<splendor_room::session::SessionId>,
        client: Option<&'a crate::ClientKey>,
    ) -> BoxFuture<'a, Result<OpenElsewhere, DirectoryError>> {
        let _ = (node, creator, client);
        Box::pin(async { Ok(OpenElsewhere::default()) })
    }

    /// Whether the store checks this directory's epochs on every write of
    /// a room (a room's writes then name its lease's epoch). A directory
    /// in this process only does not.
    fn fences(&self) -> bool {
        false
    }

    /// How long a lease lives unless renewed; `None` when leases never
    /// expire. The lobby renews its rooms' leases well within it.
    fn lease_ttl(&self) -> Option<std::time::Duration> {
        None
    }
}

/// The directory of one node: leases in a map, epochs counted in this
/// process. Leases never expire here: the process that holds them is the
/// only one.
#[derive(Default)]
pub struct LocalDirectory {
    state: Mutex<Local>,
}

#[derive(Default)]
struct Local {
    leases: HashMap<RoomCode, Lease>,
    last_epoch: u64,
}

impl LocalDirectory {
    fn lock(&self) -> std::sync::MutexGuard<'_, Local> {
        // Every change is one insert or remove: a poisoned map is consistent.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The claim, at once (what the async interface wraps).
    fn claim_now(&self, code: RoomCode, node: NodeId) -> Result<Lease, DirectoryError> {
        let mut state = self.lock();
        if let Some(&held) = state.leases.get(&code) {
            return Err(DirectoryError::Taken(held));
        }
        state.last_epoch += 1;
        let lease = Lease {
            code,
            node,
            epoch: state.last_epoch,
        };
        state.leases.insert(code, lease);
        Ok(lease)
    }
}

impl RoomDirectory for LocalDirectory {
    fn claim(&self, code: RoomCode, node: NodeId) -> BoxFuture<'_, Result<Lease, DirectoryError>> {
        let claimed = self.claim_now(code, node);
        Box::pin(async move { claimed })
    }

    fn renew(&self, lease: Lease) -> BoxFuture<'_, Result<(), DirectoryError>> {
        let current = self.lock().leases.get(&lease.code) == Some(&lease);
        Box::pin(async move {
            if current {
                Ok(())
            } else {
                Err(DirectoryError::Lost(lease))
            }
        })
    }

    fn release(&self, lease: Lease) -> BoxFuture<'_, ()> {
        let mut state = self.lock();
        if state.leases.get(&lease.code) == Some(&lease) {
            state.leases.remove(&lease.code);
        }
        Box::pin(async {})
    }

    fn lookup(&self, code: RoomCode) -> BoxFuture<'_, Option<Lease>> {
        let lease = self.lock().leases.get(&code).copied();
        Box::pin(async move { lease })
    }

    fn list(&self) -> BoxFuture<'_, Vec<Lease>> {
        let mut leases: Vec<Lease> = self.lock().leases.values().copied().collect();
        leases.sort_by_key(|l| l.code);
        Box::pin(async move { leases })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(text: &str) -> RoomCode {
        RoomCode::parse(text).unwrap()
    }

    #[tokio::test]
    async fn one_owner_per_code_and_every_claim_a_larger_epoch() {
        let dir = LocalDirectory::default();
        let a = dir.claim(code("KHPQZ"), NodeId(0)).await.unwrap();
        assert_eq!(
            dir.claim(code("KHPQZ"), NodeId(1)).await,
            Err(DirectoryError::Taken(a))
        );
        let b = dir.claim(code("ABCDE"), NodeId(1)).await.unwrap();
        assert!(b.epoch > a.epoch);
        assert_eq!(dir.lookup(code("KHPQZ")).await, Some(a));
        assert_eq!(dir.list().await, [b, a]);
        assert_eq!(dir.renew(a).await, Ok(()));
        // Released, the code can be claimed again, with a larger epoch;
        // the old lease is lost for good and releasing it changes nothing.
        dir.release(a).await;
        assert_eq!(dir.lookup(code("KHPQZ")).await, None);
        let c = dir.claim(code("KHPQZ"), NodeId(2)).await.unwrap();
        assert!(c.epoch > b.epoch);
        assert_eq!(dir.renew(a).await, Err(DirectoryError::Lost(a)));
        dir.release(a).await;
        assert_eq!(dir.lookup(code("KHPQZ")).await, Some(c));
    }
}
