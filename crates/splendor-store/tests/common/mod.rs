//! The test databases: a fresh SQLite file in a temporary directory, or a
//! fresh PostgreSQL database when `SPLENDOR_TEST_DATABASE_URL` is set.
//!
//! Each test gets its own database, so tests never see each other's rows,
//! and a side connection (`Raw`) that reads and alters the tables directly,
//! as an attacker with a copy of the database or a failing disk would.

use std::str::FromStr;
use std::time::Duration;

use splendor_store::testing::{PgTestDatabase, with_database};
use splendor_store::{Store, StoreConfig};
use sqlx::postgres::PgConnection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{ConnectOptions, Connection};

/// Runs each listed test function against both backends.
#[allow(unused_macros)]
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test]
                async fn $name() {
                    super::$name(super::TestDb::sqlite()).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test]
                async fn $name() {
                    if let Some(db) = super::TestDb::postgres(stringify!($name)).await {
                        super::$name(db).await;
                    }
                }
            )*
        }
    };
}
#[allow(unused_imports)]
pub(crate) use on_both_backends;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Sqlite,
    Postgres,
}

/// One test's database; dropped (PostgreSQL) or deleted (SQLite) after the test.
pub(crate) struct TestDb {
    pub kind: Kind,
    /// The URL to open the store with.
    pub url: String,
    /// The SQLite file's directory, deleted on drop.
    dir: Option<tempfile::TempDir>,
    /// The PostgreSQL database, dropped on drop.
    pg: Option<PgTestDatabase>,
}

impl TestDb {
    /// A fresh SQLite file, in a directory that does not exist yet (the store
    /// must create it).
    pub(crate) fn sqlite() -> TestDb {
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
    pub(crate) async fn postgres(test: &str) -> Option<TestDb> {
        let pg = PgTestDatabase::create("splendor_test", &format!("store test {test}")).await?;
        Some(TestDb {
            kind: Kind::Postgres,
            url: pg.url.clone(),
            dir: None,
            pg: Some(pg),
        })
    }

    pub(crate) async fn open(&self) -> Store {
        self.open_with(StoreConfig::default()).await
    }

    pub(crate) async fn open_with(&self, config: StoreConfig) -> Store {
        Store::open_with(&self.url, config)
            .await
            .unwrap_or_else(|err| panic!("open {:?}: {err}", self.kind))
    }

    /// A connection of its own to the same database, outside the store.
    pub(crate) async fn raw(&self) -> Raw {
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
    pub(crate) fn sqlite_path(&self) -> std::path::PathBuf {
        self.dir
            .as_ref()
            .expect("an SQLite test database")
            .path()
            .join("data/store.db")
    }

    /// Connects to the PostgreSQL server's administrative database, to act on
    /// the test database from outside (refuse its connections, for example).
    pub(crate) async fn pg_admin(&self) -> (PgConnection, String) {
        let pg = self.pg.as_ref().expect("a PostgreSQL test database");
        let admin = PgConnection::connect(pg.admin_url())
            .await
            .expect("an admin connection");
        (admin, pg.name().to_owned())
    }
}

/// A side connection to a test database.
pub(crate) enum Raw {
    Sqlite(SqliteConnection),
    Postgres(PgConnection),
}

impl Raw {
    /// Runs one statement, written for each dialect.
    pub(crate) async fn execute(&mut self, sqlite: &str, postgres: &str) {
        let result = match self {
            Raw::Sqlite(conn) => sqlx::raw_sql(sqlite).execute(conn).await.map(|_| ()),
            Raw::Postgres(conn) => sqlx::raw_sql(postgres).execute(conn).await.map(|_| ()),
        };
        result.unwrap_or_else(|err| panic!("raw SQL failed: {err}"));
    }

    /// The session table's token hashes.
    pub(crate) async fn token_hashes(&mut self) -> Vec<Vec<u8>> {
        let sql = "SELECT token_hash FROM sessions";
        match self {
            Raw::Sqlite(conn) => sqlx::query_scalar(sql).fetch_all(conn).await,
            Raw::Postgres(conn) => sqlx::query_scalar(sql).fetch_all(conn).await,
        }
        .expect("read token hashes")
    }

    /// How many actions the log holds for all games.
    pub(crate) async fn action_count(&mut self) -> i64 {
        let sql = "SELECT COUNT(*) FROM actions";
        match self {
            Raw::Sqlite(conn) => sqlx::query_scalar(sql).fetch_one(conn).await,
            Raw::Postgres(conn) => sqlx::query_scalar(sql).fetch_one(conn).await,
        }
        .expect("count actions")
    }

    /// Every session row, every column, as text (PostgreSQL only).
    pub(crate) async fn pg_sessions_as_text(&mut self) -> String {
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

/// Waits until `condition` holds, checking often; fails the test after 10 s.
/// This waits for a state, never for a guessed duration.
pub(crate) async fn wait_until(what: &str, mut condition: impl FnMut() -> bool) {
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
