//! What a lobby counts: its rooms' work (`Stats`, counted by the rooms
//! themselves) and what it reports (`LobbyStats`, `RoomCounts`).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::thinking::ThinkPool;
use crate::timings::{TimeHistogram, Timings};

/// What the rooms of a lobby have done, counted by the rooms themselves.
#[derive(Debug)]
pub(crate) struct Stats {
    pub(crate) games_started: AtomicU64,
    pub(crate) games_finished: AtomicU64,
    pub(crate) actions_applied: AtomicU64,
    pub(crate) bot_actions: AtomicU64,
    pub(crate) stand_in_actions: AtomicU64,
    pub(crate) clock_timeouts: AtomicU64,
    /// Lease renewals the directory could not carry out (issue 21).
    pub(crate) renewals_failed: AtomicU64,
    /// Rooms whose lease was found lost (another node took them over).
    pub(crate) leases_lost: AtomicU64,
    /// Where the rooms' bots think.
    pub(crate) pool: ThinkPool,
    /// From an `act` reaching its room to its broadcast being queued.
    pub(crate) action_latency: Timings,
    /// Where the rooms' notices go, once the server set it (issue 25).
    pub(crate) notifier: std::sync::OnceLock<Arc<dyn crate::notify::Notifier>>,
    /// The tables of bots only of each address (issue 45).
    pub(crate) bot_tables: Arc<crate::bot_tables::BotTables>,
}

/// Upper bounds of the action latency histogram, in seconds.
const ACTION_LATENCY_BUCKETS: [f64; 10] = [
    0.000_5, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0,
];

impl Default for Stats {
    fn default() -> Stats {
        Stats::new(ThinkPool::new(1, splendor_ai::Budget::DEFAULT), 0)
    }
}

impl Stats {
    pub(crate) fn new(pool: ThinkPool, bot_tables_per_client: usize) -> Stats {
        Stats {
            games_started: AtomicU64::new(0),
            games_finished: AtomicU64::new(0),
            actions_applied: AtomicU64::new(0),
            bot_actions: AtomicU64::new(0),
            stand_in_actions: AtomicU64::new(0),
            clock_timeouts: AtomicU64::new(0),
            renewals_failed: AtomicU64::new(0),
            leases_lost: AtomicU64::new(0),
            pool,
            action_latency: Timings::new(&ACTION_LATENCY_BUCKETS),
            notifier: std::sync::OnceLock::new(),
            bot_tables: crate::bot_tables::BotTables::new(bot_tables_per_client),
        }
    }
}

impl Stats {
    pub(crate) fn add(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

/// Totals since the lobby was created, for metrics.
#[derive(Clone, Debug, PartialEq)]
pub struct LobbyStats {
    /// Games started in this process (restored games are not counted).
    pub games_started: u64,
    /// Games that reached their end in this process.
    pub games_finished: u64,
    /// Actions applied (durable and broadcast) in this process.
    pub actions_applied: u64,
    /// Of those, actions made by built-in bots.
    pub bot_actions: u64,
    /// Of those, actions made by stand-ins (R12.2).
    pub stand_in_actions: u64,
    /// Turn clocks that ran out (R12.2).
    pub clock_timeouts: u64,
    /// Moves of tables of bots only that waited for their address's turn
    /// to think (issue 45).
    pub bot_table_waits: u64,
    /// Moves of tables with no person connected that waited for their
    /// share of the thinking threads' time (issue 45).
    pub bots_share_waits: u64,
    /// In a cluster: lease renewals that failed (the database could not be
    /// reached); the room plays on and is renewed next round, unless its
    /// lease ran out meanwhile.
    pub lease_renewals_failed: u64,
    /// In a cluster: rooms closed because their lease was lost.
    pub leases_lost: u64,
    /// How long built-in bots thought per move.
    pub think_time: TimeHistogram,
    /// How long actions took from reaching their room to their broadcast
    /// being queued (their commit included).
    pub action_latency: TimeHistogram,
}

/// Open rooms by what they are doing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoomCounts {
    /// Rooms whose game has not started.
    pub waiting: usize,
    /// Rooms with a game running.
    pub playing: usize,
    /// Rooms whose game is over, still viewable.
    pub finished: usize,
    /// People seated in rooms (bots not counted).
    pub players_seated: usize,
    /// Of those, the ones connected now.
    pub players_connected: usize,
    /// Built-in bots seated in rooms.
    pub bots: usize,
    /// Spectators in rooms.
    pub spectators: usize,
}
