//! Durations counted into fixed buckets, lock-free, for the metrics: how
//! long bots think, how long an action takes from the room receiving it to
//! its broadcast being queued.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// A histogram of durations with fixed upper bounds, in seconds.
#[derive(Debug)]
pub struct Timings {
    bounds: &'static [f64],
    /// Per bucket of `bounds` (not cumulative), then above the last.
    counts: Vec<AtomicU64>,
    micros: AtomicU64,
}

/// A snapshot of a timings histogram, as Prometheus reads one.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeHistogram {
    /// Cumulative counts per upper bound (seconds), the last one +Inf.
    pub buckets: Vec<(f64, u64)>,
    /// The sum of all durations, in seconds.
    pub sum: f64,
    /// How many durations.
    pub count: u64,
}

impl TimeHistogram {
    /// Each bucket's own count (not cumulative), the last one past every
    /// bound: what `prometheus_client`'s `encode_histogram` takes, since it
    /// adds them up itself (given the cumulative counts, it wrote every
    /// bucket but the first too high, and `+Inf` above `_count`).
    pub fn per_bucket(&self) -> Vec<(f64, u64)> {
        let mut below = 0;
        self.buckets
            .iter()
            .map(|&(bound, cumulative)| {
                let own = cumulative.saturating_sub(below);
                below = cumulative;
                (bound, own)
            })
            .collect()
    }
}

impl Timings {
    /// A histogram with these upper bounds (seconds, increasing).
    pub fn new(bounds: &'static [f64]) -> Timings {
        Timings {
            bounds,
            counts: (0..=bounds.len()).map(|_| AtomicU64::new(0)).collect(),
            micros: AtomicU64::new(0),
        }
    }

    /// Counts one duration.
    pub fn record(&self, took: Duration) {
        let secs = took.as_secs_f64();
        let i = self
            .bounds
            .iter()
            .position(|&b| secs <= b)
            .unwrap_or(self.bounds.len());
        self.counts[i].fetch_add(1, Ordering::Relaxed);
        self.micros.fetch_add(
            u64::try_from(took.as_micros()).unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
    }

    /// What was counted so far.
    pub fn snapshot(&self) -> TimeHistogram {
        let mut total = 0;
        let mut buckets = Vec::with_capacity(self.counts.len());
        for (i, bound) in self
            .bounds
            .iter()
            .copied()
            .chain([f64::INFINITY])
            .enumerate()
        {
            total += self.counts[i].load(Ordering::Relaxed);
            buckets.push((bound, total));
        }
        TimeHistogram {
            buckets,
            sum: self.micros.load(Ordering::Relaxed) as f64 / 1e6,
            count: total,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_land_in_cumulative_buckets() {
        let t = Timings::new(&[0.001, 0.01]);
        t.record(Duration::from_micros(500));
        t.record(Duration::from_millis(5));
        t.record(Duration::from_millis(50));
        let h = t.snapshot();
        assert_eq!(h.buckets, vec![(0.001, 1), (0.01, 2), (f64::INFINITY, 3)]);
        assert_eq!(
            h.per_bucket(),
            vec![(0.001, 1), (0.01, 1), (f64::INFINITY, 1)]
        );
        assert_eq!(h.count, 3);
        assert!((h.sum - 0.0555).abs() < 1e-9);
    }
}
