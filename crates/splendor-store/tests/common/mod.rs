//! The test databases: a fresh SQLite file in a temporary directory, or a
//! fresh PostgreSQL database when `SPLENDOR_TEST_DATABASE_URL` is set.
//!
//! Each test gets its own database, so tests never see each other's rows,
//! and a side connection (`Raw`) that reads and alters the tables directly,
//! as an attacker with a copy of the database or a failing disk would.

use std::io::Write;
use std::str::FromStr;
use std::time::Duration;

use splendor_store::{Store, StoreConfig};
use sqlx::postgres::PgConnection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{ConnectOptions, Connection};

/// The environment variable that names the PostgreSQL server for tests.
pub const PG_URL_VAR: &str = "SPLENDOR_TEST_DATABASE_URL";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Sqlite,
    Postgres,
}

/// One test's database; dropped (PostgreSQL) or deleted (SQLite) after the test.
pub struct TestDb {
    pub kind: Kind,
    /// The URL to open the store with.
    pub url: String,
    /// The SQLite file's directory, deleted on drop.
    dir: Option<tempfile::TempDir>,
    /// The PostgreSQL database, dropped on drop.
    pg: Option<PgDatabase>,
}

impl TestDb {
    /// A fresh SQLite file, in a directory that does not exist yet (the store
    /// must create it).
    pub fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let url = format!("sqlite://{}/data/store.db", dir.path().display());
        TestDb {
            kind: Kind::Sqlite,
            url,
            dir: Some(dir),
            pg: None,
        }
    }

    /// A fresh PostgreSQL database, or `None` (after saying so loudly) when
    /// no server is configured.
    pub async fn postgres(test: &str) -> Option<TestDb> {
        let Ok(admin_url) = std::env::var(PG_URL_VAR) else {
            // Written straight to stderr, past the test harness's capture, so
            // that the skip shows up in every run.
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED: PostgreSQL store test {test}: set {PG_URL_VAR}=postgres://USER@HOST/DB to run it"
            );
            return None;
        };
        let name = format!("splendor_test_{}", uuid::Uuid::new_v4().simple());
        let mut admin = PgConnection::connect(&admin_url)
            .await
            .unwrap_or_else(|err| panic!("{PG_URL_VAR} is set but unreachable: {err}"));
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&mut admin)
            .await
            .expect("CREATE DATABASE for the test");
        let _ = admin.close().await;
        let url = with_database(&admin_url, &name);
        Some(TestDb {
            kind: Kind::Postgres,
            url,
            dir: None,
            pg: Some(PgDatabase { admin_url, name }),
        })
    }

    pub async fn open(&self) -> Store {
        self.open_with(StoreConfig::default()).await
    }

    pub async fn open_with(&self, config: StoreConfig) -> Store {
        Store::open_with(&self.url, config)
            .await
            .unwrap_or_else(|err| panic!("open {:?}: {err}", self.kind))
    }

    /// A connection of its own to the same database, outside the store.
    pub async fn raw(&self) -> Raw {
        match self.kind {
            Kind::Sqlite => {
                let options = SqliteConnectOptions::from_str(&self.url).expect("the test URL");
                Raw::Sqlite(options.connect().await.expect("a raw SQLite connection"))
            }
            Kind::Postgres => Raw::Postgres(
                PgConnection::connect(&self.url)
                    .await
                    .expect("a raw PostgreSQL connection"),
            ),
        }
    }

    /// The SQLite file's path.
    pub fn sqlite_path(&self) -> std::path::PathBuf {
        self.dir
            .as_ref()
            .expect("an SQLite test database")
            .path()
            .join("data/store.db")
    }

    /// Connects to the PostgreSQL server's administrative database, to act on
    /// the test database from outside (refuse its connections, for example).
    pub async fn pg_admin(&self) -> (PgConnection, String) {
        let pg = self.pg.as_ref().expect("a PostgreSQL test database");
        let admin = PgConnection::connect(&pg.admin_url)
            .await
            .expect("an admin connection");
        (admin, pg.name.clone())
    }
}

/// A side connection to a test database.
pub enum Raw {
    Sqlite(SqliteConnection),
    Postgres(PgConnection),
}

impl Raw {
    /// Runs one statement, written for each dialect.
    pub async fn execute(&mut self, sqlite: &str, postgres: &str) {
        let result = match self {
            Raw::Sqlite(conn) => sqlx::raw_sql(sqlite).execute(conn).await.map(|_| ()),
            Raw::Postgres(conn) => sqlx::raw_sql(postgres).execute(conn).await.map(|_| ()),
        };
        result.unwrap_or_else(|err| panic!("raw SQL failed: {err}"));
    }

    /// The session table's token hashes.
    pub async fn token_hashes(&mut self) -> Vec<Vec<u8>> {
        let sql = "SELECT token_hash FROM sessions";
        match self {
            Raw::Sqlite(conn) => sqlx::query_scalar(sql).fetch_all(conn).await,
            Raw::Postgres(conn) => sqlx::query_scalar(sql).fetch_all(conn).await,
        }
        .expect("read token hashes")
    }

    /// How many actions the log holds for all games.
    pub async fn action_count(&mut self) -> i64 {
        let sql = "SELECT COUNT(*) FROM actions";
        match self {
            Raw::Sqlite(conn) => sqlx::query_scalar(sql).fetch_one(conn).await,
            Raw::Postgres(conn) => sqlx::query_scalar(sql).fetch_one(conn).await,
        }
        .expect("count actions")
    }

    /// Every session row, every column, as text (PostgreSQL only).
    pub async fn pg_sessions_as_text(&mut self) -> String {
        let Raw::Postgres(conn) = self else {
            panic!("pg_sessions_as_text on SQLite");
        };
        let rows: Vec<String> = sqlx::query_scalar("SELECT row_to_json(s)::text FROM sessions s")
            .fetch_all(conn)
            .await
            .expect("read sessions");
        rows.join("\n")
    }
}

/// A PostgreSQL test database, dropped when the test ends, even by a panic.
struct PgDatabase {
    admin_url: String,
    name: String,
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        let admin_url = self.admin_url.clone();
        let name = self.name.clone();
        // Drop runs outside any async context we could borrow, so use a
        // thread with a runtime of its own.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            runtime.block_on(async {
                let mut admin = PgConnection::connect(&admin_url).await?;
                sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                    .execute(&mut admin)
                    .await?;
                admin.close().await
            })
        })
        .join();
        if !matches!(dropped, Ok(Ok(()))) {
            let _ = writeln!(
                std::io::stderr(),
                "could not drop the test database {}",
                self.name
            );
        }
    }
}

/// The same server URL with another database name.
fn with_database(url: &str, database: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let authority_start = base.find("://").map_or(0, |i| i + 3);
    let path_start = base[authority_start..]
        .find('/')
        .map_or(base.len(), |i| authority_start + i);
    let mut out = format!("{}/{}", &base[..path_start], database);
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    out
}

/// Waits until `condition` holds, checking often; fails the test after 10 s.
/// This waits for a state, never for a guessed duration.
pub async fn wait_until(what: &str, mut condition: impl FnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !condition() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting until {what}"
        );
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

#[test]
fn database_names_are_replaced_in_urls() {
    assert_eq!(
        with_database("postgres://postgres@127.0.0.1:5432/postgres", "t"),
        "postgres://postgres@127.0.0.1:5432/t"
    );
    assert_eq!(
        with_database("postgres://u:p@h/db?sslmode=disable", "t"),
        "postgres://u:p@h/t?sslmode=disable"
    );
    assert_eq!(with_database("postgres://h", "t"), "postgres://h/t");
}
