//! SQLite's writer: one thread that owns one connection (issue 20).
//!
//! sqlx runs each SQLite connection on a worker thread of its own and hands
//! every statement to it over a channel, and its multi-row insert made a new
//! statement text for every batch size, whose numbered parameters SQLite
//! resolved by name one by one. Here the thread that takes the batch is the
//! one that runs it: `BEGIN IMMEDIATE`, one cached prepared statement per
//! kind of write executed once per write, `COMMIT` (the fsync), then the
//! answers. Writes sent meanwhile wait in the queue and make the next batch,
//! so every fsync is shared by every room that wrote while the last one ran
//! (group commit, as before).
//!
//! Under load the writer also waits a little before it commits (as
//! PostgreSQL's `commit_delay`, [`crate::StoreConfig::commit_delay`]): on a
//! fast disk an fsync is over before the rooms have made their next
//! writes, and each commit carried one or two of them. The wait grows
//! with the last commit's size, up to 2 ms from eight writes on: a
//! millisecond's wait gathered about six, two about nine.
//!
//! The durability contract is unchanged: WAL, `synchronous=FULL` (checked
//! at open), and no caller hears `Ok` before the commit returned. Reads stay
//! on sqlx's pool; WAL lets them run beside the writer.

use std::sync::Arc;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, TransactionBehavior};
use tokio::sync::mpsc;

use crate::StoreError;
use crate::backend::{SqliteFile, classify_sqlite, sqlite_writes};
use crate::writer::{Batch, Command, Counters, Pending, WriteOp, answer};

/// How many prepared statements the connection keeps: every kind of write
/// and its fallbacks fit.
const STATEMENT_CACHE: usize = 32;

/// Opens the writer's connection (after the pool applied the migrations)
/// and starts its thread, which runs until every sender of `commands` is
/// dropped or a `Close` arrives.
pub(crate) fn start(
    file: &SqliteFile,
    commands: mpsc::Receiver<Command>,
    gather: Gather,
    counters: Arc<Counters>,
) -> Result<(), StoreError> {
    let conn = open(file)?;
    std::thread::Builder::new()
        .name("sqlite-writer".into())
        .spawn(move || run(conn, commands, gather, &counters))
        .map_err(|err| StoreError::Unavailable(Arc::new(err)))?;
    Ok(())
}

fn open(file: &SqliteFile) -> Result<Connection, StoreError> {
    open_connection(file).map_err(classify_sqlite)?.check(file)
}

fn open_connection(file: &SqliteFile) -> Result<Opened, rusqlite::Error> {
    let conn = Connection::open_with_flags(
        &file.path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(file.busy_timeout)?;
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    conn.pragma_update(None, "foreign_keys", true)?;
    // The file is in WAL mode already (the pool set it, and it is kept in
    // the file); `synchronous` is per connection.
    let synchronous = if file.synchronous_off { "OFF" } else { "FULL" };
    conn.pragma_update(None, "synchronous", synchronous)?;
    let journal: String = conn.pragma_query_value(None, "journal_mode", |row| row.get(0))?;
    let synchronous: i64 = conn.pragma_query_value(None, "synchronous", |row| row.get(0))?;
    Ok(Opened {
        conn,
        journal,
        synchronous,
    })
}

/// The writer's connection and the settings it reports.
struct Opened {
    conn: Connection,
    journal: String,
    synchronous: i64,
}

impl Opened {
    /// The durability contract, as the pool's connections are checked.
    fn check(self, file: &SqliteFile) -> Result<Connection, StoreError> {
        let wanted = if file.synchronous_off { 0 } else { 2 };
        if !self.journal.eq_ignore_ascii_case("wal") || self.synchronous != wanted {
            return Err(StoreError::Durability(format!(
                "SQLite's writer runs with journal_mode={} and synchronous={}, \
                 not journal_mode=wal and synchronous={wanted}",
                self.journal, self.synchronous
            )));
        }
        Ok(self.conn)
    }
}

/// How the writer gathers a batch: at most `max_batch` writes; and when
/// the last batch held at least `siblings` writes, it waits after the
/// first of the next before it commits: a share of `delay` that grows
/// with the last batch, all of it from `FULL_WAIT_AT` writes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Gather {
    pub(crate) max_batch: usize,
    pub(crate) delay: Duration,
    pub(crate) siblings: usize,
}

impl Gather {
    pub(crate) fn of(config: &crate::StoreConfig) -> Gather {
        Gather {
            max_batch: config.max_batch,
            delay: config.commit_delay,
            siblings: config.commit_siblings,
        }
    }

    /// How long to wait for more writes before committing `received`, the
    /// last batch having held `last` writes: nothing on a quiet store, for
    /// a full batch or for a `Close`; else `delay` times `last` over
    /// `FULL_WAIT_AT`, at most `delay`. The wait follows the load: two
    /// rooms that moved together wait a quarter of it, a busy server all
    /// of it, and a longer wait gathers a larger batch.
    fn wait(&self, last: usize, received: &[Command]) -> Option<Duration> {
        let waits = !self.delay.is_zero()
            && last >= self.siblings.max(1)
            && received.len() < self.max_batch
            && received.iter().all(|c| matches!(c, Command::Write(..)));
        waits.then(|| {
            let share = u32::try_from(last.min(FULL_WAIT_AT)).unwrap_or(1);
            self.delay * share / FULL_WAIT_AT as u32
        })
    }
}

/// From how many writes in the last batch the writer waits the whole
/// `delay`: where one fsync is shared enough that a longer wait saves
/// little more (docs/BENCHMARKS.md).
const FULL_WAIT_AT: usize = 8;

fn run(
    mut conn: Connection,
    mut commands: mpsc::Receiver<Command>,
    gather: Gather,
    counters: &Counters,
) {
    let max_batch = gather.max_batch;
    let mut received = Vec::with_capacity(max_batch);
    let mut writes: Pending = Vec::with_capacity(max_batch);
    let mut last = 0;
    while commands.blocking_recv_many(&mut received, max_batch) > 0 {
        if let Some(wait) = gather.wait(last, &received) {
            std::thread::sleep(wait);
            while received.len() < max_batch {
                match commands.try_recv() {
                    Ok(command) => received.push(command),
                    Err(_) => break,
                }
            }
        }
        last = received.len();
        for command in received.drain(..) {
            match command {
                Command::Write(op, reply) => writes.push((op, reply)),
                Command::Close(done) => {
                    commit(&mut conn, &mut writes, counters);
                    // Later writes find the queue closed: `StoreError::Closed`.
                    commands.close();
                    drop(conn);
                    let _ = done.send(());
                    return;
                }
            }
        }
        commit(&mut conn, &mut writes, counters);
    }
}

/// Commits the pending writes and answers their callers.
fn commit(conn: &mut Connection, writes: &mut Pending, counters: &Counters) {
    if writes.is_empty() {
        return;
    }
    let ops: Vec<&WriteOp> = writes.iter().map(|(op, _)| op).collect();
    let mut batch = Batch::new(ops.len(), counters);
    let answers = match try_write(conn, &ops) {
        Ok(answers) => answers,
        Err(err) => match batch.failed(classify_sqlite(err)) {
            Some(answers) => answers,
            None => {
                for op in &ops {
                    if !batch.alone(try_write(conn, &[*op]).map_err(classify_sqlite)) {
                        break;
                    }
                }
                batch.answers()
            }
        },
    };
    answer(writes, answers, counters);
}

/// Writes the operations in one transaction (`BEGIN IMMEDIATE`: the write
/// lock is taken at the start, waiting through the busy timeout). `Err`:
/// the transaction failed as a whole and was rolled back.
fn try_write(
    conn: &mut Connection,
    ops: &[&WriteOp],
) -> Result<Vec<Result<(), StoreError>>, rusqlite::Error> {
    // Dropped without a commit, the transaction rolls back.
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let answers = ops
        .iter()
        .map(|op| sqlite_writes::apply(&tx, op))
        .collect::<Result<Vec<_>, _>>()?;
    tx.commit()?;
    Ok(answers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_writer_waits_only_when_busy_and_longer_the_busier() {
        let ms = Duration::from_millis;
        let gather = Gather {
            max_batch: 4,
            delay: ms(2),
            siblings: 2,
        };
        let (tx, _rx) = tokio::sync::oneshot::channel();
        let close = vec![Command::Close(tx)];
        // A quiet store: the last batch held one write, or none.
        assert_eq!(gather.wait(0, &[]), None);
        assert_eq!(gather.wait(1, &[]), None);
        // A busy one: a share of the delay that grows with the last batch.
        assert_eq!(gather.wait(2, &[]), Some(ms(2) / 4));
        assert_eq!(gather.wait(4, &[]), Some(ms(1)));
        assert_eq!(gather.wait(FULL_WAIT_AT, &[]), Some(ms(2)));
        assert_eq!(gather.wait(200, &[]), Some(ms(2)));
        // Closing never waits.
        assert_eq!(gather.wait(5, &close), None);
        // Nor does a full batch: nothing more could join it.
        let write = || {
            let (reply, _) = tokio::sync::oneshot::channel();
            let id = crate::SessionId(uuid::Uuid::nil());
            Command::Write(crate::writer::WriteOp::MarkBot { id }, reply)
        };
        assert_eq!(gather.wait(8, &[write(), write(), write()]), Some(ms(2)));
        assert_eq!(gather.wait(8, &[write(), write(), write(), write()]), None);
        // Off.
        let off = Gather {
            delay: Duration::ZERO,
            ..gather
        };
        assert_eq!(off.wait(9, &[]), None);
    }
}
