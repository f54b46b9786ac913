//! Where built-in players think: off the room tasks and off tokio's
//! workers, on tokio's blocking threads, at most a fixed number at once (a
//! semaphore), so that a room full of `strong` bots cannot slow other
//! rooms. A move waits for a free thread in turn; its thinking is bounded
//! by the level's budget (an iteration count, capped in time).

use std::sync::Arc;
use std::time::Instant;

use splendor_ai::{Budget, Level};
use tokio::sync::Semaphore;

use crate::room::effect::Think;
use crate::room::input::DriverEvent;
use crate::timings::{TimeHistogram, Timings};

/// The upper bounds of the think-time histogram, in seconds.
pub const THINK_BUCKETS: [f64; 8] = [0.001, 0.005, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0];

/// The bounded pool of thinking threads. Cheap to clone.
#[derive(Clone, Debug)]
pub struct ThinkPool {
    permits: Arc<Semaphore>,
    strong: Budget,
    times: Arc<Timings>,
}

impl ThinkPool {
    /// A pool of `threads` thinking threads (at least one); the `strong`
    /// level thinks within `strong`.
    pub fn new(threads: usize, strong: Budget) -> ThinkPool {
        ThinkPool {
            permits: Arc::new(Semaphore::new(threads.max(1))),
            strong,
            times: Arc::new(Timings::new(&THINK_BUCKETS)),
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
    pub fn histogram(&self) -> TimeHistogram {
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
