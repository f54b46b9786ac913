//! What this node sent to and got from the others (issue 21's per-node
//! metrics): counted as it happens, read by the gateway's `/metrics` at
//! each scrape.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use splendor_lobby::{TimeHistogram, Timings};

/// The upper bounds (seconds) of the call latency buckets: 0.25 ms to
/// 4 s.
const CALL_BUCKETS: [f64; 12] = [
    0.000_25, 0.000_5, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 4.0,
];

/// The node's counters. Shared by every task of the cluster.
pub(crate) struct Counters {
    calls_out: AtomicU64,
    calls_failed: AtomicU64,
    calls_in: AtomicU64,
    delivered_out: AtomicU64,
    delivered_in: AtomicU64,
    call_time: Timings,
}

impl Default for Counters {
    fn default() -> Counters {
        Counters {
            calls_out: AtomicU64::new(0),
            calls_failed: AtomicU64::new(0),
            calls_in: AtomicU64::new(0),
            delivered_out: AtomicU64::new(0),
            delivered_in: AtomicU64::new(0),
            call_time: Timings::new(&CALL_BUCKETS),
        }
    }
}

impl Counters {
    /// A call to another node answered (or not) after `took`.
    pub(crate) fn call_out(&self, took: Duration, answered: bool) {
        self.calls_out.fetch_add(1, Ordering::Relaxed);
        if !answered {
            self.calls_failed.fetch_add(1, Ordering::Relaxed);
        }
        self.call_time.record(took);
    }

    pub(crate) fn call_in(&self) {
        self.calls_in.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn delivered_out(&self, items: usize) {
        self.delivered_out
            .fetch_add(items as u64, Ordering::Relaxed);
    }

    pub(crate) fn delivered_in(&self, items: usize) {
        self.delivered_in.fetch_add(items as u64, Ordering::Relaxed);
    }

    pub(crate) fn snapshot(&self) -> ClusterStats {
        let read = |a: &AtomicU64| a.load(Ordering::Relaxed);
        ClusterStats {
            calls_out: read(&self.calls_out),
            calls_failed: read(&self.calls_failed),
            calls_in: read(&self.calls_in),
            delivered_out: read(&self.delivered_out),
            delivered_in: read(&self.delivered_in),
            call_time: self.call_time.snapshot(),
        }
    }
}

/// A reading of the node's counters.
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterStats {
    /// Room requests this node forwarded to a room's owner.
    pub calls_out: u64,
    /// Of those, the ones that got no answer (no owner there, NATS down,
    /// timed out): answered `room_unavailable`.
    pub calls_failed: u64,
    /// Room requests other nodes forwarded to this node's rooms.
    pub calls_in: u64,
    /// Messages this node's rooms sent to connections other nodes hold.
    pub delivered_out: u64,
    /// Messages other nodes' rooms sent to this node's connections.
    pub delivered_in: u64,
    /// How long the forwarded calls took, answer included.
    pub call_time: TimeHistogram,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_are_counted_and_timed() {
        let counters = Counters::default();
        counters.call_out(Duration::from_micros(100), true);
        counters.call_out(Duration::from_millis(3), true);
        counters.call_out(Duration::from_secs(60), false);
        counters.delivered_out(4);
        let stats = counters.snapshot();
        assert_eq!((stats.calls_out, stats.calls_failed), (3, 1));
        assert_eq!(stats.delivered_out, 4);
        assert_eq!(stats.call_time.count, 3);
        // Cumulative: one within 0.25 ms, two within 5 ms, all by +Inf.
        assert_eq!(stats.call_time.buckets[0], (0.000_25, 1));
        assert_eq!(stats.call_time.buckets[4], (0.005, 2));
        assert_eq!(stats.call_time.buckets.last(), Some(&(f64::INFINITY, 3)));
    }
}
