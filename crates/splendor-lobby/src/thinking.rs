//! Where built-in players think: off the room tasks and off tokio's
//! workers, on tokio's blocking threads, at most a fixed number at once (a
//! fair gate, `fair.rs`), so that a room full of `strong` bots cannot slow
//! other rooms. A move waits for a free thread, games with a person seated
//! before games of bots only, each in turn; its thinking is bounded by the
//! level's budget (an iteration count, capped in time).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use splendor_ai::Budget;

use crate::room::effect::Think;
use crate::room::input::DriverEvent;
use crate::timings::{TimeHistogram, Timings};

/// The upper bounds of the think-time histogram, in seconds.
pub const THINK_BUCKETS: [f64; 8] = [0.001, 0.005, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0];

/// The bounded pool of thinking threads. Cheap to clone.
#[derive(Clone, Debug)]
pub struct ThinkPool {
    permits: Arc<crate::fair::FairGate>,
    budget: Budget,
    times: Arc<Timings>,
    /// Moves whose search the time cap stopped.
    capped: Arc<AtomicU64>,
    /// The share of the pool's time that tables with no person connected
    /// may think for (`share.rs`); `None`: no limit.
    bots_share: Option<Arc<crate::share::ThinkShare>>,
}

impl ThinkPool {
    /// A pool of `threads` thinking threads (at least one); the search
    /// levels think within `budget` (the host's cap).
    pub fn new(threads: usize, budget: Budget) -> ThinkPool {
        ThinkPool {
            permits: crate::fair::FairGate::new(threads),
            budget,
            times: Arc::new(Timings::new(&THINK_BUCKETS)),
            capped: Arc::new(AtomicU64::new(0)),
            bots_share: None,
        }
    }

    /// The moves of tables with no person connected think for at most
    /// `percent` of the pool's time (`share.rs`); 0 or 100: no limit.
    pub fn with_bots_share(mut self, percent: u8) -> ThinkPool {
        let threads = self.permits.threads();
        self.bots_share = crate::share::ThinkShare::new(percent, threads).map(Arc::new);
        self
    }

    /// Moves of tables with no person connected that waited for their
    /// share of the pool's time.
    pub fn bots_share_waits(&self) -> u64 {
        self.bots_share.as_ref().map_or(0, |s| s.waited())
    }

    /// Moves whose search a level's time cap stopped early
    /// (their choice depended on the machine's load, not on the seed alone).
    pub fn time_capped(&self) -> u64 {
        self.capped.load(Ordering::Relaxed)
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
            for_people,
            hint,
        } = job;
        // The host's budget: the most iterations and time a move.
        let budget = self.budget;
        // A table with no person connected thinks within its share of the
        // pool's time (issue 45; `share.rs`); a hint is for a person.
        let share = match (&self.bots_share, for_people || hint.is_some()) {
            (Some(share), false) => Some(share.clone()),
            _ => None,
        };
        if let Some(share) = &share {
            share.wait().await;
        }
        let result = {
            // People's games first (issue 22; `fair.rs`).
            let permit = self
                .permits
                .acquire(if for_people {
                    crate::fair::Priority::People
                } else {
                    crate::fair::Priority::Bots
                })
                .await;
            {
                let times = self.times.clone();
                let capped = self.capped.clone();
                let thought = tokio::task::spawn_blocking(move || {
                    let _permit = permit;
                    let start = Instant::now();
                    let thought = splendor_ai::think(level, &view, seat, seed, &budget);
                    times.record(start.elapsed());
                    if let Some(share) = share {
                        share.spend(start.elapsed());
                    }
                    if thought.as_ref().is_ok_and(|t| t.capped) {
                        time_capped(&capped, budget);
                    }
                    thought.map(|t| t.action)
                })
                .await;
                match thought {
                    Ok(Ok(action)) => Ok(action),
                    Ok(Err(no_move)) => Err(no_move.to_string()),
                    Err(e) => Err(format!("the thinking thread failed: {e}")),
                }
            }
        };
        match hint {
            // A practice hint (issue 26): for the person who asked.
            Some(to) => DriverEvent::HintThought {
                seat,
                version,
                result,
                to,
            },
            None => DriverEvent::BotMoved {
                seat,
                version,
                result,
            },
        }
    }
}

impl ThinkPool {
    /// Runs `work` (one position of an analysis, issue 26) on a thread of
    /// its own at the operating system's lowest priority, once the gate
    /// gives it a thinking thread: only when no move of any game waits for
    /// one, so live games are served first and an analysis delays a move
    /// by at most one piece of work. `None` if the thread could not start
    /// or `work` panicked.
    pub async fn background<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let pass = self
            .permits
            .acquire(crate::fair::Priority::Background)
            .await;
        let (tx, rx) = tokio::sync::oneshot::channel();
        std::thread::Builder::new()
            .name("analysis".into())
            .spawn(move || {
                let _pass = pass;
                lowest_priority();
                let _ = tx.send(work());
            })
            .ok()?;
        rx.await.ok()
    }
}

/// This thread yields to every other (Linux: niceness is per thread).
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    {
        // An error (a sandbox that forbids it) leaves the thread as it was.
        let _ = rustix::process::setpriority_process(None, 19);
    }
}

/// A search stopped at the time cap: counted, and said in the log (the
/// first time, then every hundredth) so that a host sees the machine is
/// slower than the budget planned for.
fn time_capped(capped: &AtomicU64, budget: Budget) {
    let n = capped.fetch_add(1, Ordering::Relaxed) + 1;
    if n == 1 || n.is_multiple_of(100) {
        tracing::warn!(
            moves = n,
            iterations = budget.iterations,
            cap_ms = budget.time_cap.map(|c| c.as_millis() as u64),
            "a search level's time cap stopped its search before its iterations: the machine is slower than its budget (SPLENDOR_STRONG_TIME_CAP_MS, SPLENDOR_BOT_MAX_ITERATIONS)"
        );
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    /// An analysis's thread runs at the lowest niceness, and the thread
    /// that started it is left as it was.
    #[test]
    fn a_background_thread_runs_at_the_lowest_priority() {
        let nice = std::thread::spawn(|| {
            super::lowest_priority();
            rustix::process::getpriority_process(None)
        })
        .join()
        .expect("the thread");
        assert_eq!(nice.ok(), Some(19));
        assert_eq!(rustix::process::getpriority_process(None).ok(), Some(0));
    }
}

#[cfg(test)]
mod share_tests {
    use std::time::Duration;

    use splendor_ai::Budget;
    use splendor_rules::{Game, Options, Viewer};

    use super::ThinkPool;
    use crate::room::effect::Think;

    fn job(for_people: bool) -> Think {
        let game = Game::new(2, Options::default(), 7).expect("a game");
        Think {
            seat: 0,
            version: 0,
            level: splendor_ai::Level::RANDOM,
            view: game.view(Viewer::Seat(0)),
            seed: 1,
            for_people,
            hint: None,
        }
    }

    /// Issue 45: past their share of the pool's time, the moves of tables
    /// with no person connected wait for it; a game with a person
    /// connected never does.
    #[tokio::test(start_paused = true)]
    async fn past_their_share_tables_of_bots_only_wait_and_games_with_people_do_not() {
        let pool = ThinkPool::new(1, Budget::DEFAULT).with_bots_share(25);
        // Ten seconds thought: the two seconds of burst, and eight owed,
        // which a quarter of a thread pays back in 32 s.
        pool.bots_share
            .as_ref()
            .expect("a share")
            .spend(Duration::from_secs(10));
        let start = tokio::time::Instant::now();
        pool.think(job(true)).await;
        assert!(start.elapsed() < Duration::from_secs(1));
        assert_eq!(pool.bots_share_waits(), 0);
        pool.think(job(false)).await;
        assert!(
            start.elapsed() >= Duration::from_secs(32),
            "{:?}",
            start.elapsed()
        );
        assert_eq!(pool.bots_share_waits(), 1);
        // With no share, nothing waits.
        let free = ThinkPool::new(1, Budget::DEFAULT).with_bots_share(100);
        assert!(free.bots_share.is_none());
    }
}
