//! Test support (feature `testing`): a fresh PostgreSQL database per test.
//!
//! The store's own tests and the end-to-end tests both run against
//! PostgreSQL when [`PG_URL_VAR`] names a server. Each test gets a database
//! of its own, created here and dropped when the test ends, even by a panic.
//! Without the variable the test says loudly that it skips PostgreSQL.

use std::io::Write;

use sqlx::Connection;
use sqlx::postgres::PgConnection;

/// The environment variable that names the PostgreSQL server for tests.
pub const PG_URL_VAR: &str = "SPLENDOR_TEST_DATABASE_URL";

/// A PostgreSQL database of one test's own, dropped on drop.
pub struct PgTestDatabase {
    /// The URL of the new database.
    pub url: String,
    admin_url: String,
    name: String,
}

impl PgTestDatabase {
    /// Creates `<prefix>_<uuid>` on the server [`PG_URL_VAR`] names, or
    /// returns `None` after a `SKIPPED: PostgreSQL <what>` line on standard
    /// error when the variable is unset. Panics when the server is set but
    /// unreachable: a configured PostgreSQL run must not pass silently.
    pub async fn create(prefix: &str, what: &str) -> Option<PgTestDatabase> {
        let Ok(admin_url) = std::env::var(PG_URL_VAR) else {
            // Straight to stderr, past the test harness's capture, so that
            // the skip shows up in every run.
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED: PostgreSQL {what}: set {PG_URL_VAR}=postgres://USER@HOST/DB to run it"
            );
            return None;
        };
        let name = format!("{prefix}_{}", uuid::Uuid::new_v4().simple());
        let mut admin = PgConnection::connect(&admin_url)
            .await
            .unwrap_or_else(|err| panic!("{PG_URL_VAR} is set but unreachable: {err}"));
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&mut admin)
            .await
            .expect("CREATE DATABASE for the test");
        let _ = admin.close().await;
        Some(PgTestDatabase {
            url: with_database(&admin_url, &name),
            admin_url,
            name,
        })
    }
}

impl PgTestDatabase {
    /// The server's administrative URL, to act on this database from outside
    /// (refuse its connections, for example).
    pub fn admin_url(&self) -> &str {
        &self.admin_url
    }

    /// The database's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl Drop for PgTestDatabase {
    fn drop(&mut self) {
        let admin_url = self.admin_url.clone();
        let name = self.name.clone();
        // Drop cannot await: a thread with a runtime of its own does it.
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

/// The same server URL with another database name (the query string kept).
pub fn with_database(url: &str, database: &str) -> String {
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

/// Where any of `needles` occurs in the SQLite database at `url`
/// (`sqlite://PATH`): `table.column` of every value, text or blob, that
/// contains one, over every table. For the tests that check a forgotten
/// player left no trace.
pub async fn sqlite_find(url: &str, needles: &[&[u8]]) -> Vec<String> {
    use sqlx::{Column, Row};
    let options: sqlx::sqlite::SqliteConnectOptions = url.parse().expect("a SQLite URL");
    let mut conn = sqlx::SqliteConnection::connect_with(&options.read_only(true))
        .await
        .expect("open the SQLite file");
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .fetch_all(&mut conn)
    .await
    .expect("the tables");
    let mut found = Vec::new();
    for table in tables {
        let rows = sqlx::query(&format!("SELECT * FROM \"{table}\""))
            .fetch_all(&mut conn)
            .await
            .expect("a table's rows");
        for row in rows {
            for (i, column) in row.columns().iter().enumerate() {
                let Ok(Some(bytes)) = row.try_get_unchecked::<Option<Vec<u8>>, _>(i) else {
                    continue;
                };
                if needles
                    .iter()
                    .any(|n| !n.is_empty() && bytes.windows(n.len()).any(|w| w == *n))
                {
                    found.push(format!("{table}.{}", column.name()));
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// What the store keeps of a session token: its SHA-256.
pub fn token_hash(token: &str) -> Vec<u8> {
    crate::token::hash(token)
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn with_database_replaces_only_the_database_name() {
        assert_eq!(
            with_database("postgres://u@h:5432/postgres?sslmode=disable", "t1"),
            "postgres://u@h:5432/t1?sslmode=disable"
        );
        assert_eq!(with_database("postgres://u@h", "t2"), "postgres://u@h/t2");
    }
}
