//! The analyses of finished games (issue 26): asked for through
//! `GET /api/games/{id}/analysis` (`api.rs`), made here in the background,
//! kept in the store.
//!
//! - **Once per game, on every node.** Before it starts, a node claims the
//!   game's analysis in the store (`Store::claim_analysis`); it writes its
//!   progress as it goes and the analysis at the end, and every node
//!   answers from the store. A claim that stops moving (its node died) is
//!   taken over by the next request after [`STALE_IN_CLUSTER`] (at once on
//!   a single node, where any claim but this process's is a dead one).
//! - **Never at a live game's cost.** One analysis at a time per node, one
//!   position at a time, each position a piece of background work of the
//!   thinking pool (`ThinkPool::background`): it gets a thread only when no
//!   bot or stand-in move of any game waits for one, on a thread of the
//!   lowest operating-system priority.
//! - **Bounded.** At most `--analysis-queue` analyses wait on a node, and
//!   one client address (or session) has at most `--analyses-per-client`
//!   waiting or running; beyond either the request is refused, not queued.

pub(crate) mod api;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use splendor_analysis::{Plan, Settings};
use splendor_lobby::ThinkPool;
use splendor_store::{AnalysisRecord, Store};
use tracing::{info, warn};
use uuid::Uuid;

/// In a cluster, a claim not written for this long is another node's that
/// died: taken over. Progress is written at least every [`PROGRESS_EVERY`].
pub(crate) const STALE_IN_CLUSTER: Duration = Duration::from_secs(60);
/// How often progress is written at most (and at least, while positions
/// are judged).
const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// Where an analysis stands, as a request is answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Standing {
    /// Finished: its JSON.
    Done(String),
    /// Waiting on this node, with this many before it.
    Queued { ahead: usize, total: u32 },
    /// Under way here or on another node.
    Running { done: u32, total: u32 },
}

/// Why an analysis is not started.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// This node's queue is full.
    QueueFull,
    /// This client (address or session) has its share waiting or running.
    TooMany { cap: u32 },
    /// Analyses are off (`--analysis-queue 0`).
    Off,
    /// The store failed.
    Store(splendor_store::StoreError),
    /// The stored game does not play back (logged).
    Broken,
}

struct Job {
    game: Uuid,
    /// The requesters' keys (`addr:...`, `session:...`), for the caps.
    keys: Vec<String>,
    total: u32,
    /// Positions judged (while running).
    done: u32,
}

#[derive(Default)]
struct Queue {
    waiting: VecDeque<Job>,
    running: Option<Job>,
}

/// The node's analyses. Cheap to clone.
#[derive(Clone)]
pub(crate) struct Analyses {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    pool: ThinkPool,
    settings: Settings,
    /// This process, as the store's claims name it.
    owner: String,
    stale_ms: i64,
    queue_cap: usize,
    per_client: u32,
    queue: Mutex<Queue>,
}

impl Analyses {
    pub(crate) fn new(
        store: Store,
        pool: ThinkPool,
        options: &crate::config::AnalysisOptions,
        cluster: bool,
    ) -> Analyses {
        // Fresh at every start: a claim of an earlier process is not ours.
        let owner = format!("process-{}", Uuid::from_u128(rand::random()).simple());
        let stale = if cluster {
            STALE_IN_CLUSTER
        } else {
            Duration::ZERO
        };
        Analyses {
            inner: Arc::new(Inner {
                store,
                pool,
                settings: Settings {
                    iterations: options.analysis_iterations,
                },
                owner,
                stale_ms: stale.as_millis() as i64,
                queue_cap: options.analysis_queue,
                per_client: options.analyses_per_client,
                queue: Mutex::new(Queue::default()),
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Queue> {
        // Every change is a push, a pop or a count: consistent if poisoned.
        self.inner.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Where the analysis of finished `game` stands; starts it (queued
    /// under `keys`) when nobody has. `plan` makes the game's plan, only
    /// when it is needed.
    pub(crate) async fn ask(
        &self,
        game: Uuid,
        keys: Vec<String>,
        plan: impl FnOnce() -> Option<Plan>,
    ) -> Result<Standing, Refusal> {
        let stored = self
            .inner
            .store
            .analysis(game)
            .await
            .map_err(Refusal::Store)?;
        match stored {
            Some(AnalysisRecord::Done(body)) => return Ok(Standing::Done(body)),
            Some(AnalysisRecord::Running {
                done,
                total,
                owner,
                idle_ms,
            }) if owner != self.inner.owner && idle_ms < self.inner.stale_ms => {
                return Ok(Standing::Running { done, total });
            }
            _ => {}
        }
        // Here already?
        if let Some(standing) = self.standing(game) {
            return Ok(standing);
        }
        if self.inner.queue_cap == 0 {
            return Err(Refusal::Off);
        }
        let plan = plan().ok_or(Refusal::Broken)?;
        let total = plan.len() as u32;
        let start_worker = {
            let mut queue = self.lock();
            // Looked again under the lock: two requests at once queue one job.
            if let Some(standing) = standing_in(&queue, game) {
                return Ok(standing);
            }
            let cap = self.inner.per_client;
            let busy = |key: &String| {
                queue
                    .waiting
                    .iter()
                    .chain(queue.running.iter())
                    .filter(|job| job.keys.contains(key))
                    .count()
            };
            if keys.iter().any(|key| busy(key) >= cap as usize) {
                return Err(Refusal::TooMany { cap });
            }
            if queue.waiting.len() >= self.inner.queue_cap {
                return Err(Refusal::QueueFull);
            }
            queue.waiting.push_back(Job {
                game,
                keys,
                total,
                done: 0,
            });
            let idle = queue.running.is_none() && queue.waiting.len() == 1;
            if idle {
                // The worker takes it at once: it runs while jobs wait.
                queue.running = queue.waiting.pop_front();
            }
            idle
        };
        if start_worker {
            let this = self.clone();
            tokio::spawn(async move { this.work(game, Arc::new(plan)).await });
        }
        Ok(self
            .standing(game)
            .unwrap_or(Standing::Queued { ahead: 0, total }))
    }

    fn standing(&self, game: Uuid) -> Option<Standing> {
        standing_in(&self.lock(), game)
    }

    /// Analyses `first`, then every job that waits, then stops.
    async fn work(self, first: Uuid, plan: Arc<Plan>) {
        let mut next = Some((first, Some(plan)));
        while let Some((game, plan)) = next {
            if let Err(why) = self.analyse(game, plan).await {
                warn!(game = %game, error = %why, "an analysis stopped");
                // The next request starts it again (a claim another node
                // took over is not ours to give up: nothing is deleted).
                let _ = self
                    .inner
                    .store
                    .release_analysis(game, &self.inner.owner)
                    .await;
            }
            let mut queue = self.lock();
            queue.running = queue.waiting.pop_front();
            next = queue.running.as_ref().map(|job| (job.game, None));
        }
    }

    /// One game's analysis: claim, judge each position, store.
    async fn analyse(&self, game: Uuid, plan: Option<Arc<Plan>>) -> Result<(), String> {
        let store = &self.inner.store;
        let plan = match plan {
            Some(plan) => plan,
            None => Arc::new(load_plan(store, game).await?),
        };
        let owner = &self.inner.owner;
        let total = plan.len() as u32;
        if !store
            .claim_analysis(game, owner, total, self.inner.stale_ms)
            .await
            .map_err(|e| e.to_string())?
        {
            // Another node's, or finished meanwhile: the store answers.
            return Ok(());
        }
        let started = Instant::now();
        let settings = self.inner.settings;
        let mut moves = Vec::with_capacity(plan.len());
        let mut written = Instant::now();
        for i in 0..plan.len() {
            let previous = moves.last().cloned();
            let job = plan.clone();
            let judged = self
                .inner
                .pool
                .background(move || job.judge(i, &settings, previous.as_ref()))
                .await;
            let Some(judged) = judged else {
                let _ = store.release_analysis(game, owner).await;
                return Err(format!("position {i} could not be judged"));
            };
            moves.push(judged);
            let done = moves.len() as u32;
            if let Some(job) = self.lock().running.as_mut() {
                job.done = done;
            }
            if written.elapsed() >= PROGRESS_EVERY {
                written = Instant::now();
                match store.analysis_progress(game, owner, done).await {
                    Ok(true) => {}
                    Ok(false) => return Err("another node took the analysis over".into()),
                    // A passing failure: the next write tries again.
                    Err(e) => warn!(game = %game, error = %e, "writing an analysis's progress"),
                }
            }
        }
        let analysis = plan.conclude(&settings, moves);
        let body = serde_json::to_string(&analysis).map_err(|e| e.to_string())?;
        if !store
            .finish_analysis(game, owner, &body)
            .await
            .map_err(|e| e.to_string())?
        {
            return Err("another node took the analysis over".into());
        }
        info!(
            game = %game,
            positions = total,
            seconds = started.elapsed().as_secs_f64(),
            "analysis stored"
        );
        Ok(())
    }
}

fn standing_in(queue: &Queue, game: Uuid) -> Option<Standing> {
    if let Some(job) = queue.running.as_ref().filter(|j| j.game == game) {
        return Some(Standing::Running {
            done: job.done,
            total: job.total,
        });
    }
    queue
        .waiting
        .iter()
        .position(|j| j.game == game)
        .map(|ahead| Standing::Queued {
            ahead: ahead + usize::from(queue.running.is_some()),
            total: queue.waiting[ahead].total,
        })
}

/// The plan of a finished stored game.
async fn load_plan(store: &Store, game: Uuid) -> Result<Plan, String> {
    let stored = store
        .game(game)
        .await
        .map_err(|e| e.to_string())?
        .ok_or("the game is gone")?;
    let replay = splendor_lobby::stored::replay_of(&stored).ok_or("the game is not finished")??;
    Plan::new(&replay).map_err(|e| e.to_string())
}
