//! The two databases behind the store: opening them, applying migrations,
//! and telling their errors apart.
//!
//! The SQL itself lives in `queries.rs`, which is compiled twice, once per
//! backend (`sqlite` and `postgres` below), with `Db` naming the sqlx driver.
//! Its statements are written in the common subset of both dialects (`$N`
//! placeholders, `ON CONFLICT`, row values); only the migrations differ.

use std::str::FromStr;

use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use std::sync::Arc;

use crate::{StoreConfig, StoreError};

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/postgres");

/// Which database a store runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// SQLite: one file (or memory), the embedded default.
    Sqlite,
    /// PostgreSQL, chosen by a `postgres://` URL.
    Postgres,
}

/// A connection pool to one of the backends. PostgreSQL's carries the
/// bound of every call on it ([`StoreConfig::bound`]).
#[derive(Clone, Debug)]
pub(crate) enum DbPool {
    Sqlite(SqlitePool),
    Postgres(PgPool, Option<std::time::Duration>),
}

pub(crate) mod sqlite_writer;
mod sqlite_writes;

/// The SQL of the store, compiled for SQLite.
pub(crate) mod sqlite {
    type Db = sqlx::Sqlite;
    const BACKEND: super::Backend = super::Backend::Sqlite;
    include!("queries.rs");
    include!("rating_queries.rs");
    include!("lease_queries.rs");
    include!("node_queries.rs");
    include!("open_room_queries.rs");
    include!("moderation_queries.rs");
    include!("analysis_queries.rs");
    include!("notify_queries.rs");
    include!("park_queries.rs");
    include!("invitation_queries.rs");
    include!("bot_queries.rs");
    include!("block_queries.rs");
    include!("follow_queries.rs");
    include!("report_queries.rs");
    include!("console_queries.rs");
    include!("device_queries.rs");
}

/// The SQL of the store, compiled for PostgreSQL.
pub(crate) mod postgres {
    type Db = sqlx::Postgres;
    const BACKEND: super::Backend = super::Backend::Postgres;
    include!("queries.rs");
    include!("postgres_writes.rs");
    include!("postgres_rating_writes.rs");
    include!("rating_queries.rs");
    include!("lease_queries.rs");
    include!("node_queries.rs");
    include!("open_room_queries.rs");
    include!("moderation_queries.rs");
    include!("analysis_queries.rs");
    include!("notify_queries.rs");
    include!("park_queries.rs");
    include!("invitation_queries.rs");
    include!("bot_queries.rs");
    include!("block_queries.rs");
    include!("follow_queries.rs");
    include!("report_queries.rs");
    include!("console_queries.rs");
    include!("device_queries.rs");
}

/// Runs one expression with the pool of whichever backend is open; the
/// expression is compiled once per backend, with `$q` naming its queries module.
macro_rules! dispatch {
    ($db:expr, $pool:ident, $q:ident => $body:expr) => {
        match $db {
            $crate::backend::DbPool::Sqlite($pool) => {
                use $crate::backend::sqlite as $q;
                $body
            }
            $crate::backend::DbPool::Postgres($pool, bound) => {
                use $crate::backend::postgres as $q;
                $crate::backend::bounded(*bound, async { $body }).await
            }
        }
    };
}
pub(crate) use dispatch;

impl DbPool {
    /// Connects, checks the durability settings and applies the migrations.
    /// A SQLite database also says where its file is, for its writer thread.
    pub(crate) async fn open(
        url: &str,
        config: &StoreConfig,
    ) -> Result<(DbPool, Option<SqliteFile>), StoreError> {
        if url.starts_with("sqlite:") {
            let (pool, file) = open_sqlite(url, config).await?;
            Ok((pool, Some(file)))
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok((open_postgres(url, config).await?, None))
        } else {
            let scheme = url.split(':').next().unwrap_or_default();
            // Keep at most a few characters so that no secret can slip into the message.
            let scheme: String = scheme.chars().take(16).collect();
            Err(StoreError::UnsupportedUrl { scheme })
        }
    }

    pub(crate) fn backend(&self) -> Backend {
        match self {
            DbPool::Sqlite(_) => Backend::Sqlite,
            DbPool::Postgres(..) => Backend::Postgres,
        }
    }

    pub(crate) async fn close(&self) {
        match self {
            DbPool::Sqlite(pool) => pool.close().await,
            DbPool::Postgres(pool, _) => pool.close().await,
        }
    }
}

/// A call to PostgreSQL within `bound` (issue 44): a link that went
/// silent (packets stop, the socket stays open) would otherwise hold the
/// caller until the kernel gives the socket up, minutes later. The
/// server's own timeouts (`statement_timeout` and the others, set per
/// connection in `open_postgres`) end the work on its side; this ends the
/// wait on ours, whether or not the server's answer can reach us. A call
/// cut short is `Unavailable`, as a lost connection is: its outcome is
/// unknown to the caller (a write may have committed), which the log's
/// rules already handle (the same action appended again answers `Ok`).
pub(crate) async fn bounded<T>(
    bound: Option<std::time::Duration>,
    work: impl std::future::Future<Output = Result<T, StoreError>>,
) -> Result<T, StoreError> {
    match bound {
        None => work.await,
        Some(limit) => tokio::time::timeout(limit, work)
            .await
            .unwrap_or_else(|_| Err(timed_out(limit))),
    }
}

/// What a call cut short by its bound answers.
pub(crate) fn timed_out(limit: std::time::Duration) -> StoreError {
    StoreError::Unavailable(Arc::new(sqlx::Error::Io(std::io::Error::new(
        std::io::ErrorKind::TimedOut,
        format!("the database did not answer within {limit:?}"),
    ))))
}

/// The environment variable of a test-only escape hatch: set to `1`, SQLite
/// files are opened with `synchronous=OFF` (no fsync at all) instead of
/// `FULL`, after a loud warning. It exists only so that the power-loss test
/// (`tests/power_loss.rs`, issue 12) can show, as its negative control, that
/// its harness detects acknowledged moves lost with the page cache. Never set
/// it on a server (docs/HOSTING.md); it is deliberately not a setting.
pub const UNSAFE_SYNCHRONOUS_OFF_VAR: &str = "SPLENDOR_UNSAFE_SQLITE_SYNCHRONOUS_OFF";

/// Whether [`UNSAFE_SYNCHRONOUS_OFF_VAR`] is set to exactly `1`.
fn unsafe_synchronous_off() -> bool {
    std::env::var_os(UNSAFE_SYNCHRONOUS_OFF_VAR).is_some_and(|value| value == "1")
}

/// A SQLite database's file, for its writer thread (`sqlite_writer`).
#[derive(Debug)]
pub(crate) struct SqliteFile {
    /// The database file.
    pub(crate) path: std::path::PathBuf,
    /// `synchronous=OFF`: a `sqlite::memory:` store, or the power-loss
    /// test's negative control. Otherwise `FULL`.
    pub(crate) synchronous_off: bool,
    pub(crate) busy_timeout: std::time::Duration,
    /// A `sqlite::memory:` store's private file, removed with the store.
    pub(crate) temporary: Option<TemporaryFile>,
}

/// The file behind a `sqlite::memory:` store: SQLite's writer thread and
/// sqlx's readers are two libraries' connections, and an in-memory database
/// cannot be shared between them, so "in memory" is a private file in the
/// temporary directory, never synced, deleted (with its `-wal` and `-shm`)
/// when the store is dropped.
#[derive(Debug)]
pub(crate) struct TemporaryFile(std::path::PathBuf);

impl TemporaryFile {
    fn new() -> TemporaryFile {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let name = format!(
            "splendor-memory-{}-{}-{nanos}.db",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        TemporaryFile(std::env::temp_dir().join(name))
    }
}

impl Drop for TemporaryFile {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let mut path = self.0.clone().into_os_string();
            path.push(suffix);
            // Best effort: a file that is not there is as removed as it gets.
            let _ = std::fs::remove_file(path);
        }
    }
}

async fn open_sqlite(url: &str, config: &StoreConfig) -> Result<(DbPool, SqliteFile), StoreError> {
    let in_memory = url.starts_with("sqlite::memory:") || url.contains("mode=memory");
    let temporary = in_memory.then(TemporaryFile::new);
    let mut options = match &temporary {
        Some(file) => SqliteConnectOptions::new().filename(&file.0),
        None => SqliteConnectOptions::from_str(url)
            .map_err(|err| StoreError::InvalidUrl(Arc::new(err)))?,
    }
    .create_if_missing(true)
    .foreign_keys(true)
    .busy_timeout(config.busy_timeout)
    .journal_mode(SqliteJournalMode::Wal);
    let pool = SqlitePoolOptions::new()
        .max_connections(config.max_connections)
        .acquire_timeout(config.acquire_timeout);
    // The durability contract: the write-ahead log, synced on every commit.
    let synchronous_off = in_memory || unsafe_synchronous_off();
    if unsafe_synchronous_off() && !in_memory {
        tracing::warn!(
            "{UNSAFE_SYNCHRONOUS_OFF_VAR} is set: SQLite runs with synchronous=OFF and \
             never syncs; acknowledged moves WILL BE LOST if the host loses power. \
             This exists only for the power-loss test's negative control: never set it"
        );
    }
    options = options.synchronous(if synchronous_off {
        SqliteSynchronous::Off
    } else {
        SqliteSynchronous::Full
    });
    let path = options.get_filename().to_path_buf();
    if let Some(dir) = path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|err| StoreError::CreateDir {
            path: dir.to_path_buf(),
            source: Arc::new(err),
        })?;
    }
    let pool = pool
        .connect_with(options)
        .await
        .map_err(|err| classify(Backend::Sqlite, err))?;

    if !in_memory {
        let journal: String = sqlx::query_scalar("PRAGMA journal_mode")
            .fetch_one(&pool)
            .await
            .map_err(|err| classify(Backend::Sqlite, err))?;
        let synchronous: i64 = sqlx::query_scalar("PRAGMA synchronous")
            .fetch_one(&pool)
            .await
            .map_err(|err| classify(Backend::Sqlite, err))?;
        // 2 is FULL: the log is synced to disk on every commit (0, OFF, only
        // through the test-only escape hatch).
        let wanted = if synchronous_off { 0 } else { 2 };
        if !journal.eq_ignore_ascii_case("wal") || synchronous != wanted {
            return Err(StoreError::Durability(format!(
                "SQLite runs with journal_mode={journal} and synchronous={synchronous}, \
                 not journal_mode=wal and synchronous={wanted}"
            )));
        }
    }
    SQLITE_MIGRATIONS
        .run(&pool)
        .await
        .map_err(|err| StoreError::Migrate(Arc::new(err)))?;
    let file = SqliteFile {
        path,
        synchronous_off,
        busy_timeout: config.busy_timeout,
        temporary,
    };
    Ok((DbPool::Sqlite(pool), file))
}

async fn open_postgres(url: &str, config: &StoreConfig) -> Result<DbPool, StoreError> {
    use sqlx::Connection;
    let plain = PgConnectOptions::from_str(url)
        .map_err(|err| StoreError::InvalidUrl(Arc::new(err)))?
        .application_name("splendor")
        // The durability contract: COMMIT returns only once the WAL is flushed,
        // whatever the server's default says.
        .options([("synchronous_commit", "on")]);
    // The migrations and the checks on a connection of their own, without
    // the bound: a migration may take longer than a lease.
    let mut first = sqlx::PgConnection::connect_with(&plain)
        .await
        .map_err(|err| classify(Backend::Postgres, err))?;
    let fsync: String = sqlx::query_scalar("SHOW fsync")
        .fetch_one(&mut first)
        .await
        .map_err(|err| classify(Backend::Postgres, err))?;
    if fsync != "on" {
        // The server's operator chose this; the store cannot override it.
        tracing::warn!(
            "PostgreSQL runs with fsync={fsync}: commits may be lost if the host crashes"
        );
    }
    POSTGRES_MIGRATIONS
        .run(&mut first)
        .await
        .map_err(|err| StoreError::Migrate(Arc::new(err)))?;
    // Best effort: the pool's connections are the ones that matter.
    let _ = first.close().await;
    let options = match config.bound {
        Some(bound) => plain.options(bounded_session(bound)),
        None => plain,
    };
    let pool = PgPoolOptions::new()
        .max_connections(config.max_connections)
        .acquire_timeout(config.acquire_timeout)
        .connect_with(options)
        .await
        .map_err(|err| classify(Backend::Postgres, err))?;
    Ok(DbPool::Postgres(pool, config.bound))
}

/// The settings of a pool connection whose work `bound` limits (issue 44),
/// on the server's side: no statement runs past it; a lock is waited for
/// half of it (a takeover's claim waits on a fenced write's lock no
/// longer); a transaction left open (its client fell silent between two
/// statements, holding a lease row's lock) is ended after half of it, its
/// locks released; data the client does not acknowledge is given up on
/// after it (`tcp_user_timeout`, the server's socket).
fn bounded_session(bound: std::time::Duration) -> [(&'static str, String); 4] {
    let ms = |d: std::time::Duration| d.as_millis().max(1).to_string();
    [
        ("statement_timeout", ms(bound)),
        ("lock_timeout", ms(bound / 2)),
        ("idle_in_transaction_session_timeout", ms(bound / 2)),
        ("tcp_user_timeout", ms(bound)),
    ]
}

/// Sorts a database error into the store's kinds: unreachable, full, closed,
/// or unexpected.
pub(crate) fn classify(backend: Backend, err: sqlx::Error) -> StoreError {
    let kind = match &err {
        sqlx::Error::PoolClosed => return StoreError::Closed,
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::WorkerCrashed => Kind::Unavailable,
        sqlx::Error::Database(db) => match db.code() {
            Some(code) => match backend {
                Backend::Sqlite => code.parse().map_or(Kind::Other, sqlite_kind),
                Backend::Postgres => postgres_kind(&code),
            },
            None => Kind::Other,
        },
        _ => Kind::Other,
    };
    let err: crate::error::DbCause = Arc::new(err);
    match kind {
        Kind::Unavailable => StoreError::Unavailable(err),
        Kind::Full => StoreError::Full(err),
        Kind::Other => StoreError::Database(err),
    }
}

enum Kind {
    Unavailable,
    Full,
    Other,
}

/// Sorts an error of SQLite's writer thread (rusqlite) like [`classify`].
pub(crate) fn classify_sqlite(err: rusqlite::Error) -> StoreError {
    let kind = match &err {
        rusqlite::Error::SqliteFailure(failure, _) => sqlite_kind(failure.extended_code),
        _ => Kind::Other,
    };
    let err: crate::error::DbCause = Arc::new(err);
    match kind {
        Kind::Unavailable => StoreError::Unavailable(err),
        Kind::Full => StoreError::Full(err),
        Kind::Other => StoreError::Database(err),
    }
}

/// SQLite reports extended result codes; the primary code is the low byte.
fn sqlite_kind(code: i32) -> Kind {
    match code & 0xff {
        // SQLITE_FULL.
        13 => Kind::Full,
        // SQLITE_BUSY, SQLITE_LOCKED, SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN.
        5 | 6 | 8 | 10 | 14 => Kind::Unavailable,
        _ => Kind::Other,
    }
}

/// PostgreSQL reports SQLSTATE codes.
fn postgres_kind(code: &str) -> Kind {
    match code {
        // disk_full.
        "53100" => Kind::Full,
        // Connection exceptions, insufficient resources, operator intervention
        // (shutdown, cannot connect now), a read-only standby, a database that
        // does not exist or does not accept connections.
        _ if code.starts_with("08") || code.starts_with("53") || code.starts_with("57P") => {
            Kind::Unavailable
        }
        "25006" | "3D000" | "55000" => Kind::Unavailable,
        // The bounds of a node's connections (issue 44): a statement
        // cancelled by statement_timeout, a lock not granted within
        // lock_timeout, a transaction ended by
        // idle_in_transaction_session_timeout. The database is there but
        // did not serve in time: a retry may succeed, as after a lost
        // connection.
        "57014" | "55P03" | "25P03" => Kind::Unavailable,
        _ => Kind::Other,
    }
}

/// The u64 seed stored bit for bit in a signed 64-bit column.
/// Issue 45: `origin` made its hour's sessions; the oldest of them
/// (`oldest`, Unix ms) leaves the hour first.
pub(crate) fn too_many_sessions(
    origin: &crate::SessionOrigin,
    oldest: Option<i64>,
    now: i64,
) -> StoreError {
    let free_at = oldest.map_or(now + crate::SESSION_WINDOW_MS, |o| {
        o + crate::SESSION_WINDOW_MS
    });
    StoreError::TooManySessions {
        cap: origin.per_hour,
        retry_after_ms: u64::try_from(free_at - now).unwrap_or(0).max(1),
    }
}

pub(crate) fn seed_to_db(seed: u64) -> i64 {
    i64::from_ne_bytes(seed.to_ne_bytes())
}

/// The inverse of [`seed_to_db`].
pub(crate) fn seed_from_db(stored: i64) -> u64 {
    u64::from_ne_bytes(stored.to_ne_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_round_trip_bit_for_bit() {
        for seed in [0, 1, u64::MAX, 1 << 63, 0x0123_4567_89ab_cdef] {
            assert_eq!(seed_from_db(seed_to_db(seed)), seed);
        }
        assert_eq!(seed_to_db(u64::MAX), -1);
    }

    #[test]
    fn database_codes_sort_into_kinds() {
        assert!(matches!(sqlite_kind(13), Kind::Full));
        // SQLITE_IOERR_FSYNC is 1034 = 10 | (4 << 8).
        assert!(matches!(sqlite_kind(1034), Kind::Unavailable));
        assert!(matches!(sqlite_kind(2067), Kind::Other));
        assert!(matches!(postgres_kind("53100"), Kind::Full));
        assert!(matches!(postgres_kind("08006"), Kind::Unavailable));
        assert!(matches!(postgres_kind("57P01"), Kind::Unavailable));
        assert!(matches!(postgres_kind("23505"), Kind::Other));
        // The bounds of a node's connections (issue 44): statement_timeout,
        // lock_timeout, idle_in_transaction_session_timeout.
        for code in ["57014", "55P03", "25P03"] {
            assert!(matches!(postgres_kind(code), Kind::Unavailable), "{code}");
        }
    }
}
