//! The single writer and its group commit: a task on PostgreSQL (below), a
//! thread that owns its connection on SQLite (`backend::sqlite_writer`).
//!
//! Every write of the store (sessions, games, actions, results) is a
//! [`WriteOp`] sent to one task over a bounded queue with a oneshot for the
//! answer. The task takes whatever is queued, up to `max_batch` commands,
//! applies it in ONE transaction, commits, and only then answers each caller.
//! So a caller's `.await` returns `Ok` only once its write is durable, and the
//! cost of a commit (an fsync) is shared by every room that wrote meanwhile.
//!
//! Failure handling, in order:
//! - a refusal (bad input such as a duplicate seq) is detected by the
//!   statement itself and answered alone; the rest of the batch commits;
//! - if the transaction fails as a whole and the database is unreachable or
//!   full, every caller of the batch gets that error: nothing is stored and
//!   nothing is acknowledged;
//! - if it fails for another reason, each write is retried alone in its own
//!   transaction, so one bad write cannot fail its neighbours;
//! - the task keeps running either way: the next batch may succeed.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

use crate::backend::{Backend, classify, postgres};
use crate::{ActionRecord, NewGame, SessionId, StoreError, UnixMillis};

/// One write, as the writer task applies it.
#[derive(Debug)]
pub(crate) enum WriteOp {
    CreateSession {
        id: SessionId,
        /// SHA-256 of the token; the token itself never reaches the writer.
        token_hash: Vec<u8>,
        name: String,
        created_at: UnixMillis,
        /// The address it is made from and its budget (issue 45), counted
        /// with the insert.
        origin: Option<crate::SessionOrigin>,
    },
    RenameSession {
        id: SessionId,
        name: String,
    },
    /// The sessions were seen at `at` (a resume, or connected now).
    TouchSessions {
        ids: Vec<SessionId>,
        at: UnixMillis,
    },
    /// A new game; with the epoch of its room's lease when fenced (issue 21).
    CreateGame(Box<NewGame>, Option<u64>),
    /// An action; with the epoch of its room's lease when fenced.
    Append(ActionRecord, Option<u64>),
    /// A game's end; `places` (1-based, by seat) rate a rated game.
    /// `unrate`: the game counts for no rating (ended by the operators,
    /// issue 22) and is stored as unrated.
    Finish {
        game_id: Uuid,
        result_json: String,
        finished_at: UnixMillis,
        places: Vec<u8>,
        unrate: bool,
    },
    /// The session is played by a program (issue 13).
    MarkBot {
        id: SessionId,
    },
}

/// What the writer task receives.
#[derive(Debug)]
pub(crate) enum Command {
    /// Apply a write; answer once it is committed, or failed.
    Write(WriteOp, oneshot::Sender<Result<(), StoreError>>),
    /// Answer once every command sent before it has been answered, then
    /// stop: later writes fail with `StoreError::Closed`.
    Close(oneshot::Sender<()>),
}

/// Counters of the writer's work, for benchmarks, metrics and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriterStats {
    /// Transactions attempted for batches (retries of single writes excluded).
    pub batches: u64,
    /// Writes answered, successfully or not.
    pub writes: u64,
    /// Batches whose transaction failed as a whole.
    pub failed_batches: u64,
    /// Writes retried alone after their batch failed.
    pub retried_alone: u64,
    /// The most writes attempted in one transaction so far.
    pub largest_batch: u64,
}

/// The shared, lock-free form of [`WriterStats`].
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub(crate) batches: AtomicU64,
    pub(crate) writes: AtomicU64,
    pub(crate) failed_batches: AtomicU64,
    pub(crate) retried_alone: AtomicU64,
    pub(crate) largest_batch: AtomicU64,
}

impl Counters {
    pub(crate) fn snapshot(&self) -> WriterStats {
        WriterStats {
            batches: self.batches.load(Ordering::Relaxed),
            writes: self.writes.load(Ordering::Relaxed),
            failed_batches: self.failed_batches.load(Ordering::Relaxed),
            retried_alone: self.retried_alone.load(Ordering::Relaxed),
            largest_batch: self.largest_batch.load(Ordering::Relaxed),
        }
    }
}

/// PostgreSQL's writer task (SQLite's is a thread: `backend::sqlite_writer`):
/// runs until every sender of `commands` is dropped or a `Close` arrives.
pub(crate) async fn run(
    (pool, bound): (sqlx::PgPool, Option<std::time::Duration>),
    mut commands: mpsc::Receiver<Command>,
    max_batch: usize,
    counters: Arc<Counters>,
) {
    let mut received = Vec::with_capacity(max_batch);
    let mut writes = Vec::with_capacity(max_batch);
    while commands.recv_many(&mut received, max_batch).await > 0 {
        for command in received.drain(..) {
            match command {
                Command::Write(op, reply) => writes.push((op, reply)),
                Command::Close(done) => {
                    commit((&pool, bound), &mut writes, &counters).await;
                    commands.close();
                    let _ = done.send(());
                    return;
                }
            }
        }
        commit((&pool, bound), &mut writes, &counters).await;
    }
}

/// Writes queued for the next batch, each with its caller's answer.
pub(crate) type Pending = Vec<(WriteOp, oneshot::Sender<Result<(), StoreError>>)>;

/// Commits the pending writes and answers their callers.
async fn commit(
    (pool, bound): (&sqlx::PgPool, Option<std::time::Duration>),
    writes: &mut Pending,
    counters: &Counters,
) {
    if writes.is_empty() {
        return;
    }
    let ops: Vec<&WriteOp> = writes.iter().map(|(op, _)| op).collect();
    let mut batch = Batch::new(ops.len(), counters);
    let answers = match write_bounded((pool, bound), &ops).await {
        Ok(answers) => answers,
        Err(err) => match batch.failed(err) {
            Some(answers) => answers,
            None => {
                for op in &ops {
                    let alone = write_bounded((pool, bound), &[*op]).await;
                    if !batch.alone(alone) {
                        break;
                    }
                }
                batch.answers()
            }
        },
    };
    answer(writes, answers, counters);
}

/// One transaction within the store's bound (issue 44): a silent link
/// fails the batch (`Unavailable`, not retried write by write) instead of
/// holding every room's next write behind it.
async fn write_bounded(
    (pool, bound): (&sqlx::PgPool, Option<std::time::Duration>),
    ops: &[&WriteOp],
) -> Result<Vec<Result<(), StoreError>>, StoreError> {
    crate::backend::bounded(bound, async {
        postgres::write_batch(pool, ops)
            .await
            .map_err(|e| classify(Backend::Postgres, e))
    })
    .await
}

/// Answers each pending write's caller with its outcome, in order.
pub(crate) fn answer(
    writes: &mut Pending,
    answers: Vec<Result<(), StoreError>>,
    counters: &Counters,
) {
    counters
        .writes
        .fetch_add(answers.len() as u64, Ordering::Relaxed);
    for ((_, reply), answer) in writes.drain(..).zip(answers) {
        // A caller that stopped waiting (its future was dropped) still had
        // its write applied; nobody is left to tell.
        let _ = reply.send(answer);
    }
}

/// The policy both writers share when a batch's one transaction fails:
/// if the database is unreachable (or the batch is one write), every write
/// gets the error; otherwise each write is retried alone, in its own
/// transaction, until the database turns out to be gone.
pub(crate) struct Batch<'a> {
    size: usize,
    answers: Vec<Result<(), StoreError>>,
    counters: &'a Counters,
}

impl<'a> Batch<'a> {
    /// A batch of `size` writes about to be tried in one transaction.
    pub(crate) fn new(size: usize, counters: &'a Counters) -> Batch<'a> {
        counters.batches.fetch_add(1, Ordering::Relaxed);
        counters
            .largest_batch
            .fetch_max(size as u64, Ordering::Relaxed);
        Batch {
            size,
            answers: Vec::with_capacity(size),
            counters,
        }
    }

    /// The batch's transaction failed with `err`: every write's answer, or
    /// `None` when each write is to be retried alone ([`Batch::alone`]).
    pub(crate) fn failed(&mut self, err: StoreError) -> Option<Vec<Result<(), StoreError>>> {
        self.counters.failed_batches.fetch_add(1, Ordering::Relaxed);
        if self.size == 1 || !worth_retrying_alone(&err) {
            log_failure(&err, self.size);
            return Some(vec![Err(err); self.size]);
        }
        tracing::warn!(
            "a batch of {} writes failed ({err}); retrying each write in its own transaction",
            self.size
        );
        None
    }

    /// The outcome of the next write retried alone; false when the rest
    /// need not be tried (the database went away: they got its error).
    pub(crate) fn alone(
        &mut self,
        outcome: Result<Vec<Result<(), StoreError>>, StoreError>,
    ) -> bool {
        self.counters.retried_alone.fetch_add(1, Ordering::Relaxed);
        match outcome {
            Ok(mut alone) => self.answers.push(alone.pop().unwrap_or(Ok(()))),
            Err(err) if !worth_retrying_alone(&err) => {
                // The rest would fail the same way.
                let rest = self.size - self.answers.len();
                log_failure(&err, rest);
                self.answers.extend(std::iter::repeat_n(Err(err), rest));
                return false;
            }
            Err(err) => {
                log_failure(&err, 1);
                self.answers.push(Err(err));
            }
        }
        true
    }

    /// One answer per write, in order.
    pub(crate) fn answers(self) -> Vec<Result<(), StoreError>> {
        self.answers
    }
}

/// A failure that concerns the database as a whole fails every write alike;
/// retrying them one by one would only multiply the waiting.
fn worth_retrying_alone(err: &StoreError) -> bool {
    !(err.is_transient() || matches!(err, StoreError::Closed))
}

fn log_failure(err: &StoreError, writes: usize) {
    if err.is_transient() || matches!(err, StoreError::Closed) {
        tracing::warn!("{writes} writes were not stored: {err}");
    } else {
        tracing::error!("{writes} writes were not stored: {err}");
    }
}
