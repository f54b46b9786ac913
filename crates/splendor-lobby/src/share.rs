//! The thinking time of tables with no person connected, as a share of the
//! pool (issue 45). The fair gate (`fair.rs`) lets a person's game go
//! first when moves wait for a thread, and each address's tables of bots
//! only think a few moves at a time (`bot_tables.rs`); but when nothing of
//! people's waits, tables of bots only took every thinking thread all the
//! time. A thread that searches without pause takes its core from the
//! rooms and the sockets beside it: in the hostile soak one address's
//! tables of strong bots alone raised the players' p99 from 4.8 ms to
//! 20.7 ms on two cores (docs/BENCHMARKS.md).
//!
//! So their thinking is a budget of time, refilled at a set share of the
//! pool's threads (a token bucket of thread-seconds): a move of such a
//! table thinks only while the bucket is not empty, and what it thought is
//! taken from it afterwards. A bucket holds a few seconds, so a handful of
//! such games (a test's, a host's) never waits; a flood of them plays on
//! at the share's pace. Games with a person connected, and hints, never
//! wait here.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::time::Instant;

/// The most thinking, in seconds per thread, that the bucket holds.
const BURST_SECONDS: f64 = 2.0;

/// The thinking-time budget of tables with no person connected.
#[derive(Debug)]
pub(crate) struct ThinkShare {
    /// Thread-seconds added per second.
    rate: f64,
    /// The most the bucket holds, in thread-seconds.
    capacity: f64,
    bucket: Mutex<Bucket>,
    /// Moves that waited for the share.
    waited: AtomicU64,
}

#[derive(Debug)]
struct Bucket {
    /// Thread-seconds left (negative: owed).
    left: f64,
    at: Instant,
}

impl ThinkShare {
    /// `percent` of `threads` threads' time; `None` when `percent` is 0
    /// or 100 or more (no budget).
    pub(crate) fn new(percent: u8, threads: usize) -> Option<ThinkShare> {
        if percent == 0 || percent >= 100 {
            return None;
        }
        let threads = threads.max(1) as f64;
        let capacity = BURST_SECONDS * threads;
        Some(ThinkShare {
            rate: f64::from(percent) / 100.0 * threads,
            capacity,
            bucket: Mutex::new(Bucket {
                left: capacity,
                at: Instant::now(),
            }),
            waited: AtomicU64::new(0),
        })
    }

    /// How long until the bucket holds something, refilled to now.
    fn wait_needed(&self) -> Duration {
        let mut bucket = self.bucket.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        bucket.left = (bucket.left + elapsed * self.rate).min(self.capacity);
        bucket.at = now;
        if bucket.left > 0.0 {
            Duration::ZERO
        } else {
            // A millisecond more than owed, so that the wake finds it paid.
            Duration::from_secs_f64(-bucket.left / self.rate) + Duration::from_millis(1)
        }
    }

    /// Waits until a move of a table with no person connected may think.
    pub(crate) async fn wait(&self) {
        let mut counted = false;
        loop {
            let wait = self.wait_needed();
            if wait.is_zero() {
                return;
            }
            if !counted {
                counted = true;
                self.waited.fetch_add(1, Ordering::Relaxed);
            }
            tokio::time::sleep(wait).await;
        }
    }

    /// A move thought for `spent`.
    pub(crate) fn spend(&self, spent: Duration) {
        let mut bucket = self.bucket.lock().unwrap_or_else(|p| p.into_inner());
        bucket.left -= spent.as_secs_f64();
    }

    /// Moves that waited for the share so far.
    pub(crate) fn waited(&self) -> u64 {
        self.waited.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_share_at_0_or_100_percent() {
        assert!(ThinkShare::new(0, 1).is_none());
        assert!(ThinkShare::new(100, 1).is_none());
        assert!(ThinkShare::new(25, 1).is_some());
    }

    /// A burst thinks at once; past it, moves think at the share's pace:
    /// a quarter of one thread refills a second of thinking in four.
    #[tokio::test(start_paused = true)]
    async fn past_the_burst_moves_think_at_the_shares_pace() {
        let share = ThinkShare::new(25, 1).unwrap();
        let start = Instant::now();
        // Two seconds of thinking in the bucket: two moves of a second
        // each go at once.
        for _ in 0..2 {
            share.wait().await;
            share.spend(Duration::from_secs(1));
        }
        assert_eq!(Instant::now(), start);
        assert_eq!(share.waited(), 0);
        // The third waits until the share has refilled a little.
        share.wait().await;
        share.spend(Duration::from_secs(1));
        let waited = Instant::now() - start;
        assert!(waited > Duration::ZERO && waited < Duration::from_millis(10));
        // The fourth owes the third's second: four seconds at a quarter.
        share.wait().await;
        let waited = Instant::now() - start;
        assert!(waited >= Duration::from_secs(4), "{waited:?}");
        assert!(waited < Duration::from_millis(4_020), "{waited:?}");
        assert_eq!(share.waited(), 2);
    }

    /// The bucket holds no more than its burst, however long it was idle.
    #[tokio::test(start_paused = true)]
    async fn an_idle_share_holds_no_more_than_its_burst() {
        let share = ThinkShare::new(50, 2).unwrap();
        tokio::time::sleep(Duration::from_secs(3600)).await;
        // Four thread-seconds of burst, then a wait.
        share.wait().await;
        share.spend(Duration::from_secs(4));
        let before = Instant::now();
        share.wait().await;
        assert!(Instant::now() > before);
    }
}
