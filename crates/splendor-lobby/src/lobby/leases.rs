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
        self.renew_round().await.unwrap_or(0)
    }

    /// One round of renewal: how many rooms lost their lease, or `Err`
    /// when the directory could not be asked (every room's lease then runs
    /// on from its last renewal).
    async fn renew_round(&self) -> Result<usize, ()> {
        let rooms: std::collections::HashMap<Lease, crate::room::RoomHandle> = self
            .inner
            .rooms()
            .values()
            .filter(|e| !e.handle.is_closed())
            .map(|e| (e.lease, e.handle.clone()))
            .collect();
        // One round, one statement for a node's lease (issue 44; its rooms
        // or none: the node itself is renewed), one per 250 rooms for
        // leases per room.
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
                Ok(lost.len())
            }
            Err(e) => {
                self.inner
                    .stats
                    .renewals_failed
                    .fetch_add(rooms.len() as u64, std::sync::atomic::Ordering::Relaxed);
                warn!(rooms = rooms.len(), error = %e, "renewing the rooms' leases");
                Err(())
            }
        }
    }

    /// Every room of this lobby closes as a room whose lease is lost
    /// (issue 44): the directory has not renewed their leases for a whole
    /// lease, so by its clock they may have run out and another node may
    /// be taking the rooms over. Their connections are told the room moved
    /// and look for it again. Returns how many rooms were given up.
    pub async fn give_up_rooms(&self) -> usize {
        let rooms: Vec<_> = self
            .inner
            .rooms()
            .values()
            .filter(|e| !e.handle.is_closed())
            .map(|e| e.handle.clone())
            .collect();
        for handle in &rooms {
            handle.lease_lost().await;
            Stats::add(&self.inner.stats.leases_lost);
        }
        rooms.len()
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
    ///
    /// Each round waits at most until the leases would run out, counted
    /// from the last round that succeeded (issue 44: a database link gone
    /// silent answers nothing, not an error; a busy one answers late, and
    /// that still counts). When no round has
    /// succeeded for a whole lease, counted from the start of the last one
    /// that did (the database's expiry is at least that late), the leases
    /// may have run out: every room is given up at once
    /// ([`Lobby::give_up_rooms`]) rather than played on where no write can
    /// be stored, and the next success starts the count again.
    pub fn spawn_lease_renewal(&self) -> Option<tokio::task::JoinHandle<()>> {
        let ttl = self.inner.directory.lease_ttl()?;
        let every = (ttl / 3).max(Duration::from_millis(10));
        let lobby = std::sync::Arc::downgrade(&self.inner);
        Some(tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut renewed = tokio::time::Instant::now();
            let mut given_up = false;
            loop {
                tick.tick().await;
                let Some(inner) = lobby.upgrade() else { return };
                let lobby = Lobby { inner };
                let started = tokio::time::Instant::now();
                // A slow round (a busy pool) still counts if it ends while
                // the leases live; a silent database is given up on then.
                let until = (renewed + ttl).max(started + every);
                match tokio::time::timeout_at(until, lobby.renew_round()).await {
                    Ok(Ok(_)) => {
                        renewed = started;
                        given_up = false;
                    }
                    _ if !given_up && renewed.elapsed() >= ttl => {
                        let rooms = lobby.give_up_rooms().await;
                        warn!(
                            rooms,
                            "no lease renewed for a whole lease: the rooms are given up to the nodes that can reach the database"
                        );
                        given_up = true;
                    }
                    _ => {}
                }
            }
        }))
    }
}
