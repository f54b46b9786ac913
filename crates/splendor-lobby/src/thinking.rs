//! Where built-in players think: off the room tasks and off tokio's
//! workers, on tokio's blocking threads, at most a fixed number at once (a
//! semaphore), so that a room full of `strong` bots cannot slow other
//! rooms. A move waits for a free thread in turn; its thinking is bounded
//! by the level's budget (an iteration count, capped in time).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use splendor_ai::{Budget, Level};
use tokio::sync::Semaphore;

use crate::room::effect::Think;
use crate::room::input::DriverEvent;

/// The upper bounds of the think-time histogram, in seconds.
pub const THINK_BUCKETS: [f64; 8] = [0.001, 0.005, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0];

/// The bounded pool of thinking threads. Cheap to clone.
#[derive(Clone, Debug)]
pub struct ThinkPool {
    permits: Arc<Semaphore>,
    strong: Budget,
    times: Arc<ThinkTimes>,
}

/// How long moves took to think, as a histogram.
#[derive(Debug, Default)]
pub(crate) struct ThinkTimes {
    /// Moves per bucket of [`THINK_BUCKETS`] (not cumulative), and above.
    buckets: [AtomicU64; THINK_BUCKETS.len() + 1],
    micros: AtomicU64,
}

/// A snapshot of the think-time histogram.
#[derive(Clone, Debug, PartialEq)]
pub struct ThinkHistogram {
    /// Cumulative counts per upper bound of [`THINK_BUCKETS`], then +Inf.
    pub buckets: Vec<(f64, u64)>,
    /// The sum of all think times, in seconds.
    pub sum: f64,
    /// The number of moves.
    pub count: u64,
}

impl ThinkTimes {
    fn record(&self, took: Duration) {
        let secs = took.as_secs_f64();
        let i = THINK_BUCKETS
            .iter()
            .position(|&b| secs <= b)
            .unwrap_or(THINK_BUCKETS.len());
        self.buckets[i].fetch_add(1, Ordering::Relaxed);
        self.micros.fetch_add(
            u64::try_from(took.as_micros()).unwrap_or(u64::MAX),
            Ordering::Relaxed,
        );
    }

    fn snapshot(&self) -> ThinkHistogram {
        let mut total = 0;
        let mut buckets = Vec::with_capacity(THINK_BUCKETS.len() + 1);
        for (i, bound) in THINK_BUCKETS
            .iter()
            .copied()
            .chain([f64::INFINITY])
            .enumerate()
        {
            total += self.buckets[i].load(Ordering::Relaxed);
            buckets.push((bound, total));
        }
        ThinkHistogram {
            buckets,
            sum: self.micros.load(Ordering::Relaxed) as f64 / 1e6,
            count: total,
        }
    }
}

impl ThinkPool {
    /// A pool of `threads` thinking threads (at least one); the `strong`
    /// level thinks within `strong`.
    pub fn new(threads: usize, strong: Budget) -> ThinkPool {
        ThinkPool {
            permits: Arc::new(Semaphore::new(threads.max(1))),
            strong,
            times: Arc::default(),
        }
    }

    /// One thread fewer than the machine has cores (at least one): the
    /// rest serve the rooms and the sockets.
    pub fn default_threads() -> usize {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get().saturating_sub(1))
            .max(1)
    }

    /// The think-time histogram so far.
    pub fn histogram(&self) -> ThinkHistogram {
        self.times.snapshot()
    }

    /// Thinks about `job` on the pool; the answer as the room takes it.
    pub(crate) async fn think(&self, job: Think) -> DriverEvent {
        let Think {
            seat,
            version,
            level,
            view,
            seed,
        } = job;
        // Only the search player has a budget to spend.
        let budget = match level {
            Level::Strong => self.strong,
            Level::Random | Level::Greedy => Budget::STRONG,
        };
        let result = match self.permits.clone().acquire_owned().await {
            Err(_) => Err("the thinking pool is closed".to_owned()),
            Ok(permit) => {
                let times = self.times.clone();
                let thought = tokio::task::spawn_blocking(move || {
                    let _permit = permit;
                    let start = Instant::now();
                    let action = splendor_ai::choose(level, &view, seat, seed, &budget);
                    times.record(start.elapsed());
                    action
                })
                .await;
                match thought {
                    Ok(Ok(action)) => Ok(action),
                    Ok(Err(no_move)) => Err(no_move.to_string()),
                    Err(e) => Err(format!("the thinking thread failed: {e}")),
                }
            }
        };
        DriverEvent::BotMoved {
            seat,
            version,
            result,
        }
    }
}
