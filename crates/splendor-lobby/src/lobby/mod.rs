//! The room manager: creates rooms, finds them by code, lists them.
//!
//! A plain map behind a mutex held only for lookups and inserts: rooms are
//! tasks of their own, the map only holds their handles. A room task ends
//! by returning why it closed and whose sessions it held; the lobby then
//! removes it from the map and clears those sessions' presence. The room
//! itself never touches the lobby.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use splendor_protocol::{RoomStatus, RoomSummary};
use tokio::sync::watch;

use crate::client::ClientKey;
use crate::code::RoomCode;
use crate::config::LobbyConfig;
use crate::directory::{Lease, LocalDirectory, RoomDirectory};
use crate::error::RoomError;
use crate::persist::Persistence;
use crate::presence::Presence;
use crate::room::{Closed, Occupancy, RoomHandle};
use crate::session::SessionId;
use crate::thinking::ThinkPool;

mod create;
mod leases;
mod matching;
mod park;
mod restore;
mod stats;

pub use create::{CreateRoom, RestoreError};
pub use restore::{RestoreSummary, restore, take_over_orphans};
pub(crate) use stats::Stats;
pub use stats::{LobbyStats, RoomCounts};

struct RoomEntry {
    handle: RoomHandle,
    /// The session that created the room (rooms per session count these);
    /// for a restored room, its first player.
    creator: Option<SessionId>,
    /// The client the room was created from (waiting rooms per address
    /// count these); `None` for a restored room or an unknown client.
    client: Option<ClientKey>,
    /// Which room this is, in case a later room reuses the code.
    instance: u64,
    /// Its claim in the room directory (the epoch is its fencing token).
    lease: Lease,
    listed: bool,
    /// The room's game counts for the ratings.
    rated: bool,
    /// A turn-based room (R12.5): counted apart from live rooms in the
    /// rooms a session may have.
    turn_based: bool,
    /// What the room currently shows in listings.
    summary: watch::Receiver<RoomSummary>,
    /// Who is in it, for the metrics.
    occupancy: Arc<Occupancy>,
}

/// A start let through the cap on tables of bots only
/// ([`Lobby::check_bot_table`]): the room counts as one of them until this
/// is dropped, by when its start has either made it a running game or
/// failed (so that starts sent at once cannot all pass the cap).
#[derive(Debug)]
pub struct BotTableStart(Arc<Occupancy>);

impl Drop for BotTableStart {
    fn drop(&mut self) {
        self.0.starting.store(false, Ordering::Relaxed);
    }
}

pub(crate) struct LobbyInner {
    rooms: Mutex<HashMap<RoomCode, RoomEntry>>,
    pub(crate) presence: Presence,
    config: LobbyConfig,
    persistence: Arc<dyn Persistence>,
    /// Which node owns which room code.
    directory: Arc<dyn RoomDirectory>,
    /// How rooms on other nodes are reached, once a cluster is set up.
    remote: std::sync::OnceLock<Arc<dyn crate::room::RemoteRooms>>,
    /// The database parked turn-based games wait in (issue 25), if any.
    pub(crate) parked: std::sync::OnceLock<splendor_store::Store>,
    /// One parked game loaded at a time (two joins of one code at once).
    pub(crate) unparking: tokio::sync::Mutex<()>,
    /// When this lobby started, Unix ms: a parked deadline that passed
    /// before it passed while no server ran (R12.5's grace).
    pub(crate) started_at: splendor_store::UnixMillis,
    /// Set when the lobby drains: the sweeper loads nothing more.
    pub(crate) stopping: std::sync::atomic::AtomicBool,
    next_instance: AtomicU64,
    /// The next of [`LobbyConfig::series_deals`] to deal.
    pub(crate) next_series_deal: std::sync::atomic::AtomicUsize,
    stats: Arc<Stats>,
    /// The connections waiting for games formed or agreed here.
    waiters: crate::waiters::Waiters,
}

impl LobbyInner {
    fn rooms(&self) -> MutexGuard<'_, HashMap<RoomCode, RoomEntry>> {
        // Every change is a single insert or remove: a poisoned map is consistent.
        self.rooms
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A room task ended: the room leaves the map (unless a later room
    /// already reuses its code) and its sessions are in no room any more.
    /// Returns its lease to give back, if it was still the code's room.
    fn reap(&self, code: RoomCode, instance: u64, closed: &Closed) -> Option<Lease> {
        let lease = {
            let mut rooms = self.rooms();
            if rooms.get(&code).is_some_and(|e| e.instance == instance) {
                rooms.remove(&code).map(|e| e.lease)
            } else {
                None
            }
        };
        // A room that moved to another node (its lease lost, or handed off)
        // lives on there: its sessions stay in it, so that their
        // connections here join it where it lives now when told.
        // So does a game parked in the store (issue 25): a join loads it.
        if closed.why != splendor_room::effect::CLOSED_MOVED
            && closed.why != splendor_room::effect::CLOSED_PARKED
        {
            for &session in &closed.sessions {
                self.presence.forget_room(session, code);
            }
        }
        lease
    }
}

/// Where a room runs ([`Lobby::locate`]).
#[derive(Clone, Debug)]
pub enum Location {
    /// On this node.
    Here(RoomHandle),
    /// On another node, which holds this lease on its code.
    Elsewhere(Lease),
    /// No room has the code.
    Nowhere,
}

/// The lobby of one server process. Cheap to clone.
#[derive(Clone)]
pub struct Lobby {
    pub(crate) inner: Arc<LobbyInner>,
}

impl Lobby {
    /// A lobby with no rooms, whose rooms store games through `persistence`,
    /// on one node (its room directory is a map in this process).
    pub fn new(config: LobbyConfig, persistence: Arc<dyn Persistence>) -> Lobby {
        Lobby::with_directory(config, persistence, Arc::new(LocalDirectory::default()))
    }

    /// A lobby whose rooms' codes are claimed in `directory`.
    pub fn with_directory(
        config: LobbyConfig,
        persistence: Arc<dyn Persistence>,
        directory: Arc<dyn RoomDirectory>,
    ) -> Lobby {
        Lobby {
            inner: Arc::new(LobbyInner {
                rooms: Mutex::new(HashMap::new()),
                presence: Presence::default(),
                config: config.clone(),
                persistence,
                directory,
                remote: std::sync::OnceLock::new(),
                parked: std::sync::OnceLock::new(),
                unparking: tokio::sync::Mutex::new(()),
                started_at: splendor_store::unix_millis_now(),
                stopping: std::sync::atomic::AtomicBool::new(false),
                next_instance: AtomicU64::new(1),
                next_series_deal: std::sync::atomic::AtomicUsize::new(0),
                stats: Arc::new(Stats::new(
                    ThinkPool::new(config.think_threads, config.bot_budget)
                        .with_bots_share(config.bots_only_think_percent),
                    config.max_bot_tables_per_ip,
                )),
                waiters: crate::waiters::Waiters::default(),
            }),
        }
    }

    /// Where the rooms' notices go (issue 25); set once, before rooms
    /// have players away. Without one, notices are dropped.
    pub fn set_notifier(&self, notifier: Arc<dyn crate::notify::Notifier>) {
        let _ = self.inner.stats.notifier.set(notifier);
    }

    /// Hands `notice` of room `room` to the notifier (issue 25: an
    /// invitation is told from the gateway, not from a room); dropped
    /// without one.
    pub fn notify(&self, room: RoomCode, notice: crate::room::effect::Notice) {
        if let Some(notifier) = self.inner.stats.notifier.get() {
            notifier.notify(room, notice);
        }
    }

    /// Which connection and room each session has.
    pub fn presence(&self) -> &Presence {
        &self.inner.presence
    }

    /// The connections waiting for a quick-play game or a rematch.
    pub fn waiters(&self) -> &crate::waiters::Waiters {
        &self.inner.waiters
    }

    /// The limits and timers of this lobby's rooms.
    pub fn config(&self) -> &LobbyConfig {
        &self.inner.config
    }

    /// Where the room with this code runs: here (its handle), on another
    /// node (its lease: the seam a second node plugs into), or nowhere.
    pub async fn locate(&self, code: RoomCode) -> Location {
        if let Some(handle) = self.find_code(code) {
            return Location::Here(handle);
        }
        match self.inner.directory.lookup(code).await {
            Some(lease) if lease.node != self.inner.config.node => Location::Elsewhere(lease),
            _ => Location::Nowhere,
        }
    }

    /// Reaches rooms on other nodes through `rooms` from now on (once).
    pub fn set_remote_rooms(&self, rooms: Arc<dyn crate::room::RemoteRooms>) {
        let _ = self.inner.remote.set(rooms);
    }

    /// The room with this code, as a person typed it: on this node, or,
    /// in a cluster, on the node that owns it.
    pub async fn find_anywhere(&self, code: &str) -> Result<RoomHandle, RoomError> {
        let parsed = RoomCode::parse(code)
            .ok_or_else(|| RoomError::MalformedCode(RoomCode::why_not(code)))?;
        if let Some(handle) = self.find_code(parsed) {
            return Ok(handle);
        }
        match self.locate(parsed).await {
            Location::Here(handle) => return Ok(handle),
            Location::Elsewhere(lease) => {
                if let Some(remote) = self.inner.remote.get() {
                    return Ok(RoomHandle::remote(lease, remote.clone()));
                }
            }
            Location::Nowhere => {
                // A turn-based game parked in the store comes back (issue 25).
                if let Some(handle) = self.unpark(parsed).await {
                    return Ok(handle);
                }
            }
        }
        Err(RoomError::RoomNotFound(parsed.to_string()))
    }

    /// This lobby's lease on `code`, for a room it runs.
    pub fn lease_of(&self, code: RoomCode) -> Option<Lease> {
        self.inner
            .rooms()
            .get(&code)
            .filter(|e| !e.handle.is_closed())
            .map(|e| e.lease)
    }

    /// The room with this code, as a person typed it.
    pub fn find(&self, code: &str) -> Result<RoomHandle, RoomError> {
        let parsed = RoomCode::parse(code)
            .ok_or_else(|| RoomError::MalformedCode(RoomCode::why_not(code)))?;
        self.find_code(parsed)
            .ok_or_else(|| RoomError::RoomNotFound(parsed.to_string()))
    }

    /// The status of the open room with this code and whether it is rated,
    /// as the room last published them.
    pub(crate) fn room_status(&self, code: RoomCode) -> Option<(RoomStatus, bool)> {
        self.inner
            .rooms()
            .get(&code)
            .filter(|e| !e.handle.is_closed())
            .map(|e| (e.summary.borrow().status, e.rated))
    }

    /// Whether the room `code` of this node is turn-based (R12.5).
    pub fn is_turn_based(&self, code: RoomCode) -> bool {
        self.inner
            .rooms()
            .get(&code)
            .is_some_and(|e| e.turn_based && !e.handle.is_closed())
    }

    /// Before the room `code` starts: when no person connected sits in
    /// it, only bots, the running games of bots only made from the same
    /// client address must be fewer than
    /// [`LobbyConfig::max_bot_tables_per_ip`] (issue 22: one address
    /// started 60 tables of four `strong` bots in 0.3 s, and a person's bot
    /// elsewhere thought six times slower). A table whose people all left
    /// counts as bots only (the stand-in plays their seats); a room from
    /// no known address (a restored room), or on another node, is not
    /// counted here. A start let through holds its place until the
    /// returned [`BotTableStart`] is dropped (after the start): counted and
    /// reserved under the rooms' lock, so starts sent at once cannot all
    /// pass.
    pub fn check_bot_table(&self, code: RoomCode) -> Result<Option<BotTableStart>, RoomError> {
        let rooms = self.inner.rooms();
        let bots_only = |e: &RoomEntry| {
            // `connected` counts the people seated with a connection.
            e.occupancy.connected.load(Ordering::Relaxed) == 0
                && e.occupancy.bots.load(Ordering::Relaxed) > 0
        };
        let Some(entry) = rooms.get(&code) else {
            return Ok(None);
        };
        let Some(client) = entry.client.as_ref().filter(|_| bots_only(entry)) else {
            return Ok(None);
        };
        let limit = self.inner.config.max_bot_tables_per_ip;
        let running = rooms
            .iter()
            .filter(|(c, e)| **c != code && e.client.as_ref() == Some(client))
            .filter(|(_, e)| !e.handle.is_closed())
            .filter(|(_, e)| {
                e.occupancy.starting.load(Ordering::Relaxed)
                    || e.summary.borrow().status == RoomStatus::Playing
            })
            .filter(|(_, e)| bots_only(e))
            .count();
        if running >= limit {
            return Err(RoomError::TooManyBotTables(limit));
        }
        entry.occupancy.starting.store(true, Ordering::Relaxed);
        Ok(Some(BotTableStart(entry.occupancy.clone())))
    }

    /// The open room with this code. A room that has closed but is not
    /// reaped yet is not found.
    pub fn find_code(&self, code: RoomCode) -> Option<RoomHandle> {
        self.inner
            .rooms()
            .get(&code)
            .map(|e| e.handle.clone())
            .filter(|h| !h.is_closed())
    }

    /// The listed rooms that are waiting for players and have a free seat,
    /// by code.
    pub fn listed_rooms(&self) -> Vec<RoomSummary> {
        let mut list: Vec<RoomSummary> = self
            .inner
            .rooms()
            .values()
            .filter(|e| e.listed)
            .map(|e| e.summary.borrow().clone())
            .filter(|s| s.status == RoomStatus::Waiting && s.players < s.seats)
            .collect();
        list.sort_by(|a, b| a.code.cmp(&b.code));
        list
    }

    /// The listed rooms waiting for players with a free seat on every
    /// node, by code: from the shared directory when there is one (so a
    /// room is listed exactly while its owner's lease lives), else
    /// [`Lobby::listed_rooms`]. A directory that cannot be read now leaves
    /// this node's own.
    pub async fn listed_rooms_everywhere(&self) -> Vec<RoomSummary> {
        match self.inner.directory.open_rooms().await {
            Ok(Some(rooms)) => rooms
                .into_iter()
                .filter(|r| r.listed)
                .map(|r| r.summary)
                .filter(|s| s.status == RoomStatus::Waiting && s.players < s.seats)
                .collect(),
            Ok(None) => self.listed_rooms(),
            Err(e) => {
                tracing::warn!(error = %e, "listing the rooms of every node; listing this node's");
                self.listed_rooms()
            }
        }
    }

    /// Every open room of every node, by code (the operators' view): from
    /// the shared directory when there is one, else this lobby's own.
    pub async fn open_rooms_everywhere(
        &self,
    ) -> Result<Vec<crate::OpenRoom>, crate::DirectoryError> {
        match self.inner.directory.open_rooms().await? {
            Some(rooms) => Ok(rooms),
            None => Ok(self.open_rooms_here()),
        }
    }

    /// This lobby's open rooms, by code.
    pub fn open_rooms_here(&self) -> Vec<crate::OpenRoom> {
        let mut rooms: Vec<crate::OpenRoom> = self
            .inner
            .rooms()
            .values()
            .map(|e| crate::OpenRoom {
                lease: e.lease,
                summary: e.summary.borrow().clone(),
                listed: e.listed,
                creator: e.creator,
                client: e.client.clone(),
            })
            .collect();
        rooms.sort_by(|a, b| a.summary.code.cmp(&b.summary.code));
        rooms
    }

    /// The number of open rooms.
    pub fn room_count(&self) -> usize {
        self.inner.rooms().len()
    }

    /// Open rooms by status.
    pub fn room_counts(&self) -> RoomCounts {
        let mut counts = RoomCounts::default();
        for entry in self.inner.rooms().values() {
            match entry.summary.borrow().status {
                RoomStatus::Waiting => counts.waiting += 1,
                RoomStatus::Playing => counts.playing += 1,
                RoomStatus::Finished => counts.finished += 1,
            }
            let o = &entry.occupancy;
            counts.players_seated += o.seated.load(Ordering::Relaxed);
            counts.players_connected += o.connected.load(Ordering::Relaxed);
            counts.bots += o.bots.load(Ordering::Relaxed);
            counts.spectators += o.spectators.load(Ordering::Relaxed);
        }
        counts
    }

    /// Where bots think, and analyses run when no bot waits (issue 26).
    pub fn think_pool(&self) -> &ThinkPool {
        &self.inner.stats.pool
    }

    /// What the rooms have done since the lobby was created.
    pub fn stats(&self) -> LobbyStats {
        let stats = &self.inner.stats;
        LobbyStats {
            games_started: stats.games_started.load(Ordering::Relaxed),
            games_finished: stats.games_finished.load(Ordering::Relaxed),
            actions_applied: stats.actions_applied.load(Ordering::Relaxed),
            bot_actions: stats.bot_actions.load(Ordering::Relaxed),
            stand_in_actions: stats.stand_in_actions.load(Ordering::Relaxed),
            clock_timeouts: stats.clock_timeouts.load(Ordering::Relaxed),
            bot_table_waits: stats.bot_tables.waited(),
            bots_share_waits: stats.pool.bots_share_waits(),
            lease_renewals_failed: stats.renewals_failed.load(Ordering::Relaxed),
            leases_lost: stats.leases_lost.load(Ordering::Relaxed),
            think_time: stats.pool.histogram(),
            action_latency: stats.action_latency.snapshot(),
        }
    }

    /// Waits until every room has handled the commands queued so far, so
    /// that an action in progress is durable (or refused) before the
    /// process stops. Rooms stay open.
    pub async fn drain(&self) {
        // No parked game is loaded from now on (issue 25).
        self.inner
            .stopping
            .store(true, std::sync::atomic::Ordering::Relaxed);
        let handles: Vec<RoomHandle> = self
            .inner
            .rooms()
            .values()
            .map(|e| e.handle.clone())
            .collect();
        // A room answers a snapshot only after the commands before it; the
        // rooms are waited for side by side.
        let mut waits = tokio::task::JoinSet::new();
        for handle in handles {
            waits.spawn(async move { handle.probe().await });
        }
        while waits.join_next().await.is_some() {}
    }
}
