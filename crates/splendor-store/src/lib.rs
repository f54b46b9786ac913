//! Durable storage for Splendor: sessions, and games as an event log.
//!
//! The store knows nothing of the rules or of the server. A game is stored as
//! what it takes to rebuild it: its options, seed, salt, commitment and seats
//! when it starts, then every accepted action in order, then its result. An
//! action is kept as the opaque JSON text the server gives (its wire form),
//! byte for byte; a game's state is always the replay of its seed and actions
//! through the rules crate, so the log is the source of truth.
//!
//! # Backends
//!
//! [`Store::open`] takes a URL:
//! - `sqlite://path/to/file.db` (the embedded default): the file and its
//!   directory are created if missing; WAL journal, `synchronous=FULL`
//!   (anything else is refused at open, but for the power-loss test's
//!   negative control: [`UNSAFE_SYNCHRONOUS_OFF_VAR`]);
//! - `sqlite::memory:`, for tests: gone when the store is dropped (a
//!   private file in the temporary directory, never synced, because the
//!   writer thread and the readers are two connections);
//! - `postgres://user@host/database`: with `synchronous_commit=on` forced.
//!
//! The migrations in the repository's `migrations/sqlite/` and
//! `migrations/postgres/` are embedded at compile time and applied at open.
//!
//! # Schema
//!
//! | table      | key              | holds |
//! |------------|------------------|-------|
//! | `sessions` | `id`             | name, SHA-256 of the token (unique), created_at |
//! | `games`    | `id`             | room code, players, options JSON, seed (u64 bit-cast to i64), salt, commitment, created_at; finished_at and result JSON once finished |
//! | `seats`    | `(game_id, seat)`| session id, name at the start |
//! | `actions`  | `(game_id, seq)` | seat, action JSON, at |
//! | `ratings`  | `session_id`     | public player id, name, bot, Glicko-2 rating, deviation, volatility, games, wins |
//! | `rated_results` | `(game_id, session_id)` | place, rating before and after |
//! | `queue_entries` | `session_id` | name, game size, queued_at, away_since |
//!
//! Times are Unix milliseconds ([`UnixMillis`]) given by the caller: the
//! store never reads the clock ([`unix_millis_now`] is there for callers).
//!
//! # The durability contract
//!
//! **An action is acknowledged only after commit.** [`Store::append_action`]
//! returns `Ok` only once the action's transaction is committed, which with
//! SQLite (WAL, `synchronous=FULL`) and PostgreSQL (`synchronous_commit=on`)
//! means it is on disk and survives a crash of the process or of the host.
//! A caller must therefore apply the action in memory, and tell anyone about
//! it, only after `append_action` returned `Ok`; on `Err` nothing was stored.
//!
//! All writes go through one writer (a thread that owns its connection on
//! SQLite, a task on PostgreSQL) that commits whatever is queued in
//! one transaction (group commit; see [`StoreConfig::max_batch`]), so many
//! rooms share each fsync. The rules of the log:
//! - `seq` starts at 0 and has no gaps: an append must carry exactly the
//!   number of actions already stored ([`StoreError::OutOfOrder`]);
//! - a stored action is never overwritten ([`StoreError::DuplicateAction`]),
//!   but appending the very same action (seat and JSON) again answers `Ok`:
//!   that is how a caller whose commit failed ambiguously (connection lost
//!   during COMMIT) learns that it did in fact happen;
//! - a finished game accepts no more actions ([`StoreError::GameFinished`]).
//!
//! Tokens: [`Store::create_session`] returns a 256-bit random token; only its
//! SHA-256 is stored, so a copy of the database lets no one take over a seat.
#![forbid(unsafe_code)]

mod analysis;
mod backend;
mod blocks;
mod bots;
mod console;
mod devices;
mod error;
mod follows;
mod invitation;
mod lease;
mod model;
mod moderation;
mod node;
mod notify;
mod park;
mod queue;
mod rating;
mod reports;
#[cfg(feature = "testing")]
pub mod testing;
mod token;
mod writer;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

pub use analysis::AnalysisRecord;
pub use backend::{Backend, UNSAFE_SYNCHRONOUS_OFF_VAR};
pub use blocks::{BlockedSession, Blocking};
pub use bots::{LadderLoad, OnlineBot, ProgramQueued, bot_name_key, owner_digest};
pub use console::{LiveGame, LiveSeat, SessionRow};
pub use devices::{DeviceToken, LOGIN_WINDOW_MS, StoredPassword, device_id, device_id_of_token};
pub use error::{DbCause, StoreError};
pub use follows::{ACCURACY_GAMES, Followed, Following, MeanAccuracy};
pub use invitation::{FoundPlayer, Invitation, Invited, Invitee};
pub use lease::RoomLease;
pub use model::{
    ActionRecord, Finished, FinishedCursor, GameSummary, MAX_JSON_BYTES, MAX_NAME_CHARS, MAX_PAGE,
    MAX_ROOM_CODE_CHARS, NewGame, SeatRecord, Session, SessionId, SessionToken, StoredAction,
    StoredGame, UnixMillis, unix_millis_now,
};
pub(crate) use moderation::AuditNote;
pub use moderation::{AuditEntry, FORMER_PLAYER, MARK_SESSION, NewSanction, Sanction};
pub use node::{NodeClaim, OpenElsewhere, OpenRoomRecord};
pub use notify::{NotifySettings, PushSubscription};
pub use park::ParkedRoom;
pub use queue::{QueueEntry, QueuePool};
pub use rating::{
    BoardKind, BoardPage, GAIN_WINDOW_MS, MAX_BOARD_PAGE, MAX_GAIN_PER_OPPONENT, Opponent,
    PROVISIONAL_DEVIATION, PlayerRating, R13_4_OWN_MOVES, RECENT_GAMES, RatedGame, is_player_id,
    player_id,
};
pub use reports::{NewReport, REPORT_WINDOW_MS, Report, ReportCaps, ReportLine, Reporting};
pub use writer::WriterStats;

use backend::{DbPool, dispatch};
use writer::{Command, Counters, WriteOp};

/// How a store runs. `StoreConfig::default()` suits the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreConfig {
    /// The most writes committed in one transaction. 1 turns group commit off
    /// (one transaction, one fsync, per write), which only benchmarks want.
    pub max_batch: usize,
    /// How many writes may wait for the writer before callers wait to enqueue.
    pub queue_capacity: usize,
    /// The size of the connection pool (the writer uses one at a time; the
    /// rest serve reads).
    pub max_connections: u32,
    /// How long to wait for a connection before reporting the database unreachable.
    pub acquire_timeout: Duration,
    /// How long SQLite waits for a lock held by another process before giving up.
    pub busy_timeout: Duration,
    /// Group commit's wait on SQLite (issue 20), as PostgreSQL's own
    /// `commit_delay`: when the last transaction held at least
    /// `commit_siblings` writes (the store is busy), the writer waits after
    /// the next write arrives and commits whatever came meanwhile with it,
    /// one fsync for them all. The wait is this delay times the last
    /// transaction's writes over eight, at most this delay: the busier the
    /// store, the longer. A lone write on a quiet store never waits.
    /// `Duration::ZERO` turns it off. No write is answered before its
    /// commit either way.
    pub commit_delay: Duration,
    /// See `commit_delay`.
    pub commit_siblings: usize,
    /// On PostgreSQL, the longest any one call may take (issue 44): every
    /// statement, lock wait and open transaction of the pool's connections
    /// ends by it on the server's side, and the store stops waiting for an
    /// answer after it on ours (`Unavailable`), so that a link that went
    /// silent holds no caller and no lock for longer. A node of a cluster
    /// sets its lease; `None` waits as long as the network does. SQLite
    /// (no network) ignores it.
    pub bound: Option<Duration>,
}

impl Default for StoreConfig {
    fn default() -> StoreConfig {
        StoreConfig {
            max_batch: 256,
            queue_capacity: 4096,
            max_connections: 8,
            acquire_timeout: Duration::from_secs(5),
            busy_timeout: Duration::from_secs(5),
            // Measured (docs/BENCHMARKS.md): at 250 games in play, 1.5
            // writes per fsync without a wait, 6 with 1 ms, and 6-17% more
            // actions per CPU-second; 2 ms another 7%.
            commit_delay: Duration::from_millis(2),
            commit_siblings: 2,
            bound: None,
        }
    }
}

/// A handle to the store. Cheap to clone: every clone shares the same
/// connection pool and writer, which stop when the last clone is dropped.
#[derive(Clone, Debug)]
pub struct Store {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    /// Reads go straight to the pool; writes go through `commands`.
    pool: DbPool,
    /// The queue of the single writer (a thread on SQLite, a task on PostgreSQL).
    commands: mpsc::Sender<Command>,
    /// What the writer has done so far.
    counters: Arc<Counters>,
    /// A `sqlite::memory:` store's file, removed after the pool and the
    /// writer let go of it (fields drop in order).
    _temporary: Option<backend::TemporaryFile>,
}

/// Where a new session comes from, and what that address may make
/// (issue 45): sessions cost nothing to make, so one address may make
/// `per_hour` of them in an hour, counted in the database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionOrigin {
    /// The client's address, as the gateway keys it (IPv4, IPv6 /64).
    pub client: String,
    /// Sessions it may make in an hour (at least 1).
    pub per_hour: u32,
}

/// The window of [`SessionOrigin::per_hour`].
pub const SESSION_WINDOW_MS: i64 = 60 * 60 * 1000;

impl Store {
    /// Opens the database at `url` with the default configuration, creating
    /// and migrating it as needed, and starts the writer.
    ///
    /// Must be called within a Tokio runtime.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        Store::open_with(url, StoreConfig::default()).await
    }

    /// Like [`Store::open`], with a configuration.
    pub async fn open_with(url: &str, config: StoreConfig) -> Result<Store, StoreError> {
        if config.max_batch == 0 {
            return Err(StoreError::invalid(
                "configuration",
                "max_batch must be at least 1",
            ));
        }
        if config.queue_capacity == 0 {
            return Err(StoreError::invalid(
                "configuration",
                "queue_capacity must be at least 1",
            ));
        }
        if config.max_connections == 0 {
            return Err(StoreError::invalid(
                "configuration",
                "max_connections must be at least 1",
            ));
        }
        let (pool, sqlite) = DbPool::open(url, &config).await?;
        let (commands, receiver) = mpsc::channel(config.queue_capacity);
        let counters = Arc::new(Counters::default());
        let temporary = match sqlite {
            Some(file) => {
                backend::sqlite_writer::start(
                    &file,
                    receiver,
                    backend::sqlite_writer::Gather::of(&config),
                    Arc::clone(&counters),
                )?;
                file.temporary
            }
            None => {
                let backend::DbPool::Postgres(pg, bound) = &pool else {
                    return Err(StoreError::invalid(
                        "database",
                        "no writer for this database",
                    ));
                };
                tokio::spawn(writer::run(
                    (pg.clone(), *bound),
                    receiver,
                    config.max_batch,
                    Arc::clone(&counters),
                ));
                None
            }
        };
        let store = Store {
            inner: Arc::new(Inner {
                pool,
                commands,
                counters,
                _temporary: temporary,
            }),
        };
        // Sessions from before migration 0016 get their player_id, which
        // invitations look them up by.
        store.backfill_player_ids().await?;
        // Programs' names claimed before issue 46 were keyed in lower case
        // only: keyed again by their folded form.
        store.rekey_bot_names().await?;
        Ok(store)
    }

    /// Which database this store runs on.
    pub fn backend(&self) -> Backend {
        self.inner.pool.backend()
    }

    /// Checks that the database answers and the writer runs, for readiness probes.
    pub async fn ping(&self) -> Result<(), StoreError> {
        if self.inner.commands.is_closed() {
            return Err(StoreError::Closed);
        }
        dispatch!(&self.inner.pool, pool, q => q::ping(pool).await)
    }

    /// Creates a session for a player called `name`, and returns its id and
    /// its secret token. The token is shown here once; only its SHA-256 is stored.
    pub async fn create_session(
        &self,
        name: &str,
        created_at: UnixMillis,
    ) -> Result<(SessionId, SessionToken), StoreError> {
        self.create_session_from(name, created_at, None).await
    }

    /// [`Store::create_session`] from `origin`'s address, unless it made
    /// `origin.per_hour` sessions in the hour before `created_at`
    /// ([`StoreError::TooManySessions`], nothing written): counted and
    /// written in one transaction, on every node together (issue 45).
    pub async fn create_session_from(
        &self,
        name: &str,
        created_at: UnixMillis,
        origin: Option<&SessionOrigin>,
    ) -> Result<(SessionId, SessionToken), StoreError> {
        model::check_name("session name", name)?;
        if let Some(origin) = origin {
            model::check_name("session origin", &origin.client)?;
        }
        let (id, token) = token::generate()?;
        self.write(WriteOp::CreateSession {
            id,
            token_hash: token::hash(token.as_str()),
            name: name.to_owned(),
            created_at,
            origin: origin.cloned(),
        })
        .await?;
        Ok((id, token))
    }

    /// The session a token belongs to, or `None` for an unknown or malformed token.
    pub async fn session_by_token(&self, token: &str) -> Result<Option<Session>, StoreError> {
        if !token::well_formed(token) {
            return Ok(None);
        }
        let hash = token::hash(token);
        dispatch!(&self.inner.pool, pool, q => q::session_by_hash(pool, &hash).await)
    }

    /// Changes a session's display name (seats of games already started keep theirs).
    pub async fn rename_session(&self, id: SessionId, name: &str) -> Result<(), StoreError> {
        model::check_name("session name", name)?;
        self.write(WriteOp::RenameSession {
            id,
            name: name.to_owned(),
        })
        .await
    }

    /// Records that these sessions were seen at `at` (a resume, or a
    /// connection open now): their lifetime starts again.
    pub async fn touch_sessions(
        &self,
        ids: Vec<SessionId>,
        at: UnixMillis,
    ) -> Result<(), StoreError> {
        if ids.is_empty() {
            return Ok(());
        }
        self.write(WriteOp::TouchSessions { ids, at }).await
    }

    /// Deletes the sessions past their lifetime: those not seen since
    /// `unused_before` that never held a seat in any game, and those not
    /// seen since `idle_before` that hold no seat in an unfinished game.
    /// Their tokens stop working. Returns how many were deleted.
    pub async fn prune_sessions(
        &self,
        idle_before: UnixMillis,
        unused_before: UnixMillis,
    ) -> Result<u64, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::prune_sessions(pool, idle_before, unused_before).await)
    }

    /// Stores a game as it starts: its options, seed, salt, commitment and seats.
    pub async fn create_game(&self, game: NewGame) -> Result<(), StoreError> {
        game.check()?;
        self.write(WriteOp::CreateGame(Box::new(game), None)).await
    }

    /// [`Store::create_game`] by the holder of the lease `epoch` on the
    /// game's room: refused as [`StoreError::Fenced`] unless that is the
    /// room's current lease, checked in the write's own transaction.
    pub async fn create_game_fenced(&self, game: NewGame, epoch: u64) -> Result<(), StoreError> {
        game.check()?;
        self.write(WriteOp::CreateGame(Box::new(game), Some(epoch)))
            .await
    }

    /// Appends an accepted action to its game's log, and returns once it is
    /// durably committed. See the crate doc for the rules of the log.
    pub async fn append_action(&self, action: ActionRecord) -> Result<(), StoreError> {
        action.check()?;
        self.write(WriteOp::Append(action, None)).await
    }

    /// [`Store::append_action`] by the holder of the lease `epoch` on the
    /// game's room: refused as [`StoreError::Fenced`] unless that is the
    /// room's current lease, checked in the append's own transaction (on
    /// PostgreSQL the lease row is share-locked until the commit, so a
    /// takeover waits for the append and sees it in the log).
    pub async fn append_action_fenced(
        &self,
        action: ActionRecord,
        epoch: u64,
    ) -> Result<(), StoreError> {
        action.check()?;
        self.write(WriteOp::Append(action, Some(epoch))).await
    }

    /// Records a game's end and result; the log is closed from then on.
    /// Finishing again with the same result answers `Ok`; with another, `GameFinished`.
    ///
    /// `places` gives each seat's final place, 1-based, in seat order
    /// (equal places are shared). A rated game (`NewGame::rated`) updates
    /// its players' ratings in the same transaction, exactly once: a game
    /// finished again changes nothing. A rated game needs one place per
    /// seat; an unrated one ignores them.
    pub async fn finish_game(
        &self,
        game_id: Uuid,
        result_json: &str,
        finished_at: UnixMillis,
        places: &[u8],
    ) -> Result<(), StoreError> {
        model::check_json("result JSON", result_json)?;
        self.write(WriteOp::Finish {
            game_id,
            result_json: result_json.to_owned(),
            finished_at,
            places: places.to_vec(),
            unrate: false,
        })
        .await
    }

    /// Ends a game the server's operators closed before its end (issue
    /// 22): its result (the standings it stopped at, no winner) is stored
    /// like a finished game's, the game becomes unrated and rates nobody.
    /// Its log stays, so its replay verifies.
    pub async fn end_game_by_operators(
        &self,
        game_id: Uuid,
        result_json: &str,
        finished_at: UnixMillis,
    ) -> Result<(), StoreError> {
        self.finish_game_unrated(game_id, result_json, finished_at)
            .await
    }

    /// Finishes a game as unrated whatever its room said: it rates nobody
    /// and counts toward no rating (a game the operators ended, or one
    /// that ended deserted, R12.6). Its log stays, so its replay verifies.
    pub async fn finish_game_unrated(
        &self,
        game_id: Uuid,
        result_json: &str,
        finished_at: UnixMillis,
    ) -> Result<(), StoreError> {
        model::check_json("result JSON", result_json)?;
        self.write(WriteOp::Finish {
            game_id,
            result_json: result_json.to_owned(),
            finished_at,
            places: Vec::new(),
            unrate: true,
        })
        .await
    }

    /// One game, finished or not, with its seats and whole log.
    ///
    /// The result includes the seed and salt: a caller must not reveal them
    /// while `finished` is `None`.
    pub async fn game(&self, id: Uuid) -> Result<Option<StoredGame>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::game(pool, id).await)
    }

    /// Every unfinished game, oldest first, with its seats and whole log, to
    /// restore the rooms at start-up.
    pub async fn unfinished_games(&self) -> Result<Vec<StoredGame>, StoreError> {
        self.games_to_restore(UnixMillis::MAX).await
    }

    /// Every unfinished game, and every game that finished at or after
    /// `finished_since` (still viewable), oldest first, with its seats and
    /// whole log: what a server restores at start-up.
    pub async fn games_to_restore(
        &self,
        finished_since: UnixMillis,
    ) -> Result<Vec<StoredGame>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::games_to_restore(pool, finished_since).await)
    }

    /// Finished games, most recent first, at most `limit` (1 to [`MAX_PAGE`]);
    /// pass the [`GameSummary::cursor`] of the last one seen to get the next page.
    pub async fn list_finished(
        &self,
        before: Option<FinishedCursor>,
        limit: u32,
    ) -> Result<Vec<GameSummary>, StoreError> {
        if limit == 0 || limit > MAX_PAGE {
            return Err(StoreError::invalid(
                "page size",
                format!("it must be from 1 to {MAX_PAGE}, not {limit}"),
            ));
        }
        dispatch!(&self.inner.pool, pool, q => q::list_finished(pool, before, limit, None).await)
    }

    /// [`Store::list_finished`], only the games in which the player with
    /// `player_id` ([`player_id`]) held a seat. A text that is not a
    /// player id finds none.
    pub async fn list_finished_of(
        &self,
        player_id: &str,
        before: Option<FinishedCursor>,
        limit: u32,
    ) -> Result<Vec<GameSummary>, StoreError> {
        if limit == 0 || limit > MAX_PAGE {
            return Err(StoreError::invalid(
                "page size",
                format!("it must be from 1 to {MAX_PAGE}, not {limit}"),
            ));
        }
        if !is_player_id(player_id) {
            return Ok(Vec::new());
        }
        let player = Some(player_id);
        dispatch!(&self.inner.pool, pool, q => q::list_finished(pool, before, limit, player).await)
    }

    /// What the writer has done so far.
    pub fn writer_stats(&self) -> WriterStats {
        self.inner.counters.snapshot()
    }

    /// How many writes wait in the queue, not counting those being committed.
    pub fn queued_writes(&self) -> usize {
        self.inner.commands.max_capacity() - self.inner.commands.capacity()
    }

    /// Writes a consistent copy of the whole database to `to` while it
    /// is in use (SQLite's `VACUUM INTO`: one read transaction, so every
    /// game is as of one moment, and the copy is compact). `to` must not
    /// exist. PostgreSQL has `pg_dump` for this (docs/HOSTING.md).
    pub async fn backup_to(&self, to: &std::path::Path) -> Result<(), StoreError> {
        if to.exists() {
            return Err(StoreError::Invalid {
                what: "backup file",
                reason: format!(
                    "{} exists already: a backup never overwrites a file",
                    to.display()
                ),
            });
        }
        let target = to
            .to_str()
            .ok_or_else(|| StoreError::Invalid {
                what: "backup file",
                reason: format!("{} is not a UTF-8 path", to.display()),
            })?
            .to_owned();
        match &self.inner.pool {
            backend::DbPool::Sqlite(pool) => {
                sqlx::query("VACUUM INTO $1")
                    .bind(target)
                    .execute(pool)
                    .await
                    .map_err(|e| backend::classify(Backend::Sqlite, e))?;
                Ok(())
            }
            backend::DbPool::Postgres(..) => Err(StoreError::Invalid {
                what: "database",
                reason:
                    "a PostgreSQL database is backed up with pg_dump (docs/HOSTING.md, Backups)"
                        .into(),
            }),
        }
    }

    /// Waits until every write sent before this call has been answered, then
    /// closes the connections. Later calls on any clone fail with
    /// [`StoreError::Closed`].
    pub async fn close(&self) {
        let (done, flushed) = oneshot::channel();
        if self.inner.commands.send(Command::Close(done)).await.is_ok() {
            // An error means the writer is gone, which is as flushed as it gets.
            let _ = flushed.await;
        }
        self.inner.pool.close().await;
    }

    /// Sends a write to the writer and waits for its commit.
    async fn write(&self, op: WriteOp) -> Result<(), StoreError> {
        let (reply, answer) = oneshot::channel();
        self.inner
            .commands
            .send(Command::Write(op, reply))
            .await
            .map_err(|_| StoreError::Closed)?;
        // The writer answers every write it receives; no answer means it stopped.
        answer.await.unwrap_or(Err(StoreError::Closed))
    }
}
