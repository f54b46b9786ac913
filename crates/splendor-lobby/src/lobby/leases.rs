//! The leases of this lobby's rooms (issue 21): each room's writes name
//! its lease's epoch when the directory fences, and the lobby renews every
//! room's lease well within its time to live; a room whose lease is lost
//! (another node took it over) closes at once.

use std::time::Duration;

use tracing::{info, warn};

use super::{Lobby, Stats};
use crate::directory::Lease;

impl Lobby {
    /// The epoch a room's writes name: its lease's, when the directory is
    /// one the store checks.
    pub(super) fn fence(&self, lease: &Lease) -> Option<u64> {
        self.inner.directory.fences().then_some(lease.epoch)
    }

    /// Renews the lease of every room of this lobby once. A room whose
    /// lease is lost is told so and closes; a directory that cannot be
    /// reached now is tried again next round (the store refuses the room's
    /// writes if the lease expires meanwhile and another node claims it).
    /// Returns how many rooms lost their lease.
    pub async fn renew_leases(&self) -> usize {
        let rooms: std::collections::HashMap<Lease, crate::room::RoomHandle> = self
            .inner
            .rooms()
            .values()
            .filter(|e| !e.handle.is_closed())
            .map(|e| (e.lease, e.handle.clone()))
            .collect();
        if rooms.is_empty() {
            return 0;
        }
        // One round, one statement (per 250 rooms) for a database.
        let leases: Vec<Lease> = rooms.keys().copied().collect();
        match self.inner.directory.renew_all(leases).await {
            Ok(lost) => {
                for lease in &lost {
                    info!(room = %lease.code, epoch = lease.epoch, "the room's lease is lost; closing it");
                    if let Some(handle) = rooms.get(lease) {
                        handle.lease_lost().await;
                    }
                    Stats::add(&self.inner.stats.leases_lost);
                }
                lost.len()
            }
            Err(e) => {
                self.inner
                    .stats
                    .renewals_failed
                    .fetch_add(rooms.len() as u64, std::sync::atomic::Ordering::Relaxed);
                warn!(rooms = rooms.len(), error = %e, "renewing the rooms' leases");
                0
            }
        }
    }

    /// The leases of this lobby's open rooms.
    pub fn leases(&self) -> Vec<Lease> {
        self.inner
            .rooms()
            .values()
            .filter(|e| !e.handle.is_closed())
            .map(|e| e.lease)
            .collect()
    }

    /// This node is stopping (issue 21, a rolling restart): every room
    /// closes after the commands queued before (a game in progress with
    /// `closed-moved`, anything else with `closed-shutting-down`), and its
    /// lease is given up, so that another node takes a game in progress
    /// over now rather than when the lease would have run out. Returns how
    /// many rooms were handed off.
    pub async fn hand_off(&self) -> usize {
        let rooms: Vec<_> = self
            .inner
            .rooms()
            .values()
            .filter(|e| !e.handle.is_closed())
            .map(|e| (e.lease, e.handle.clone()))
            .collect();
        for (_, handle) in &rooms {
            handle.hand_off().await;
        }
        for (lease, handle) in &rooms {
            handle.closed().await;
            // The room's task gives its lease up as it ends, too; here it
            // is given up before the other nodes are told.
            self.inner.directory.release(*lease).await;
        }
        info!(rooms = rooms.len(), "rooms handed off");
        rooms.len()
    }

    /// When the directory's leases expire: a task that renews them every
    /// third of their time to live, for as long as the lobby lives.
    pub fn spawn_lease_renewal(&self) -> Option<tokio::task::JoinHandle<()>> {
        let every = self.inner.directory.lease_ttl()? / 3;
        let lobby = std::sync::Arc::downgrade(&self.inner);
        Some(tokio::spawn(async move {
            let mut tick = tokio::time::interval(every.max(Duration::from_millis(10)));
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(inner) = lobby.upgrade() else { return };
                Lobby { inner }.renew_leases().await;
            }
        }))
    }
}
