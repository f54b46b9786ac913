//! The real server binary as a child process, on a database of its own, for
//! the tests that kill it (SIGKILL) and start it again.
//!
//! The binary is the root package's `splendor-server-e2e`, which is the
//! server's own `main` (`splendor_server::cli::main`), so `cargo test`
//! builds it; tests find it with `env!("CARGO_BIN_EXE_splendor-server-e2e")`.
//! Readiness is the `listening on ADDR` line the server prints once it has
//! restored its games and bound its port; nothing sleeps.

use std::net::SocketAddr;
use std::process::Stdio;

use splendor_store::testing::PgTestDatabase;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::SAFETY_TIMEOUT;

/// The environment variable that names a PostgreSQL server for tests; the
/// tests create a fresh database on it and drop it afterwards.
pub use splendor_store::testing::PG_URL_VAR;

/// One test's database: a fresh SQLite file, or a fresh PostgreSQL database.
pub struct TestDatabase {
    /// What the server is given as `--database-url`.
    pub url: String,
    /// "sqlite" or "postgres", for messages.
    pub kind: &'static str,
    _dir: Option<tempfile::TempDir>,
    _pg: Option<PgTestDatabase>,
}

impl TestDatabase {
    /// A fresh SQLite file in a directory of its own (which the server creates).
    pub fn sqlite() -> TestDatabase {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let url = format!("sqlite://{}/data/splendor.db", dir.path().display());
        TestDatabase {
            url,
            kind: "sqlite",
            _dir: Some(dir),
            _pg: None,
        }
    }

    /// A fresh PostgreSQL database when [`PG_URL_VAR`] is set; otherwise
    /// `None`, after a loud line on standard error naming `test`.
    pub async fn postgres(test: &str) -> Option<TestDatabase> {
        let pg = PgTestDatabase::create("splendor_e2e", &format!("run of {test}")).await?;
        Some(TestDatabase {
            url: pg.url.clone(),
            kind: "postgres",
            _dir: None,
            _pg: Some(pg),
        })
    }
}

/// The server binary, running.
pub struct ServerProcess {
    child: Child,
    addr: SocketAddr,
    /// Every line it wrote, stdout and stderr.
    log: tokio::sync::watch::Receiver<Vec<String>>,
}

impl ServerProcess {
    /// Starts `binary` on 127.0.0.1 port 0 over `database_url`, and returns
    /// once it printed the address it listens on (it has restored its games
    /// by then). Its output is drained in the background; lines go to this
    /// test's captured output with a `[server]` prefix.
    pub async fn start(binary: &str, database_url: &str) -> ServerProcess {
        ServerProcess::start_with_env(binary, database_url, &[]).await
    }

    /// [`ServerProcess::start`] with these environment variables set too
    /// (the power-loss test's negative control sets
    /// [`splendor_store::UNSAFE_SYNCHRONOUS_OFF_VAR`], which is otherwise
    /// removed).
    pub async fn start_with_env(
        binary: &str,
        database_url: &str,
        env: &[(&str, &str)],
    ) -> ServerProcess {
        ServerProcess::start_on("127.0.0.1:0", binary, database_url, env).await
    }

    /// [`ServerProcess::start_with_env`] listening on `listen` (a node
    /// restarted where the proxy in front of it expects it).
    pub async fn start_on(
        listen: &str,
        binary: &str,
        database_url: &str,
        env: &[(&str, &str)],
    ) -> ServerProcess {
        // Test clients play as fast as the server answers (see
        // `TestServer::start`), and poll the API (tests/hosting.rs tests
        // its limit).
        let lifted = [
            "--max-messages-per-second",
            "10000",
            "--message-burst",
            "10000",
            "--max-api-requests-per-ip-per-minute",
            "0",
        ];
        ServerProcess::spawn(listen, binary, database_url, &lifted, env).await
    }

    /// [`ServerProcess::start_with_env`] with the server's own limits on
    /// messages and API requests, as a host runs it (the hostile soak).
    pub async fn start_as_hosted(
        binary: &str,
        database_url: &str,
        env: &[(&str, &str)],
    ) -> ServerProcess {
        ServerProcess::spawn("127.0.0.1:0", binary, database_url, &[], env).await
    }

    async fn spawn(
        listen: &str,
        binary: &str,
        database_url: &str,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> ServerProcess {
        let mut child = Command::new(binary)
            .args(["--listen", listen, "--database-url", database_url])
            .args(args)
            // Bots answer at once, on a small budget (behaviour, not strength).
            .env("SPLENDOR_BOT_DELAY_MS", "0")
            .env("SPLENDOR_BOT_MAX_ITERATIONS", "300")
            .env_remove("SPLENDOR_DATABASE_URL")
            .env_remove("SPLENDOR_DATA_DIR")
            .env_remove("SPLENDOR_LISTEN")
            .env_remove(splendor_store::UNSAFE_SYNCHRONOUS_OFF_VAR)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {binary}: {e}"));
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let (log_tx, log) = tokio::sync::watch::channel(Vec::new());
        let log_tx = std::sync::Arc::new(log_tx);
        let keep = log_tx.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                println!("[server stderr] {line}");
                keep.send_modify(|log| log.push(line));
            }
        });
        let mut lines = BufReader::new(stdout).lines();
        let addr = tokio::time::timeout(SAFETY_TIMEOUT, async {
            loop {
                let line = lines
                    .next_line()
                    .await
                    .expect("read the server's output")
                    .expect("the server exited before it listened");
                println!("[server] {line}");
                let addr = listening_address(&line);
                log_tx.send_modify(|log| log.push(line));
                if let Some(addr) = addr {
                    return addr;
                }
            }
        })
        .await
        .expect("the server listens within the safety timeout");
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                println!("[server] {line}");
                log_tx.send_modify(|log| log.push(line));
            }
        });
        ServerProcess { child, addr, log }
    }

    /// Where the server listens.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The process id, while it runs.
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// Waits until the server has written a line that `matches` (lines
    /// already written count), and returns it.
    pub async fn wait_for_line(&self, matches: impl Fn(&str) -> bool) -> String {
        let mut log = self.log.clone();
        let found = tokio::time::timeout(
            SAFETY_TIMEOUT,
            log.wait_for(|lines| lines.iter().any(|l| matches(l))),
        )
        .await
        .expect("the server writes the line within the safety timeout")
        .expect("the server's log is read");
        found
            .iter()
            .find(|l| matches(l))
            .cloned()
            .unwrap_or_default()
    }

    /// Waits until the server has written at least `n` lines that
    /// `matches` (lines already written count).
    pub async fn wait_for_lines(&self, matches: impl Fn(&str) -> bool, n: usize) {
        let mut log = self.log.clone();
        tokio::time::timeout(
            SAFETY_TIMEOUT,
            log.wait_for(|lines| lines.iter().filter(|l| matches(l)).count() >= n),
        )
        .await
        .expect("the server writes the lines within the safety timeout")
        .expect("the server's log is read");
    }

    /// Every line the server has written so far.
    pub fn log_lines(&self) -> Vec<String> {
        self.log.borrow().clone()
    }

    /// Kills the process with SIGKILL (no graceful stop of any kind) and
    /// waits until it is gone.
    pub async fn kill(mut self) {
        self.child.start_kill().expect("send SIGKILL");
        let status = tokio::time::timeout(SAFETY_TIMEOUT, self.child.wait())
            .await
            .expect("the killed server exits")
            .expect("wait for the server");
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            assert_eq!(status.signal(), Some(9), "killed by SIGKILL: {status}");
        }
    }
}

impl ServerProcess {
    /// Sends the process `signal` (`STOP`, `CONT`, ...) with `kill`.
    pub fn signal(&self, signal: &str) {
        let pid = self.child.id().expect("the server is running");
        let sent = std::process::Command::new("kill")
            .args([format!("-{signal}"), pid.to_string()])
            .status()
            .expect("run kill");
        assert!(sent.success(), "kill -{signal} {pid}: {sent}");
    }

    /// Stops the process as `docker stop` does, with SIGTERM, and waits until
    /// it is gone; returns its exit status and how long it took to exit.
    pub async fn terminate(mut self) -> (std::process::ExitStatus, std::time::Duration) {
        let pid = self.child.id().expect("the server is running");
        let started = std::time::Instant::now();
        // `kill` the program: std has no way to send SIGTERM without unsafe code.
        let sent = std::process::Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status()
            .expect("run kill");
        assert!(sent.success(), "kill -TERM {pid}: {sent}");
        let status = tokio::time::timeout(SAFETY_TIMEOUT, self.child.wait())
            .await
            .expect("the server exits after SIGTERM")
            .expect("wait for the server");
        (status, started.elapsed())
    }
}

/// The address in the server's `listening on ADDR` line, or in its JSON
/// log event `{"message":"listening","addr":ADDR,...}` (with
/// `SPLENDOR_LOG_FORMAT=json` every output line is JSON).
pub fn listening_address(line: &str) -> Option<SocketAddr> {
    if line.starts_with('{') {
        let event: serde_json::Value = serde_json::from_str(line).ok()?;
        if event["message"] != "listening" {
            return None;
        }
        return event["addr"].as_str()?.parse().ok();
    }
    let (_, rest) = line.split_once("listening on ")?;
    rest.split_whitespace().next()?.parse().ok()
}

/// A plain HTTP/1.1 GET to `addr`; returns the status code and the body.
pub async fn http_get(addr: SocketAddr, path: &str) -> (u16, String) {
    http_get_with(addr, path, &[]).await
}

/// [`http_get`] with these request headers too.
pub async fn http_get_with(
    addr: SocketAddr,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, String) {
    http_request(addr, "GET", path, headers, "").await
}

/// A POST of the JSON `body` to `path`, with these request headers too.
pub async fn http_post_with(
    addr: SocketAddr,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    http_request(addr, "POST", path, headers, body).await
}

/// One HTTP/1.1 request; the status and the body of its answer.
pub async fn http_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let mut extra: String = headers
        .iter()
        .map(|(name, value)| format!("{name}: {value}\r\n"))
        .collect();
    if method != "GET" {
        extra.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}Connection: close\r\n\r\n{body}"
    );
    // A server may answer (413) before it read a large body: a failed
    // write is not the test's concern, the answer is.
    let _ = stream.write_all(request.as_bytes()).await;
    let mut response = Vec::new();
    tokio::time::timeout(SAFETY_TIMEOUT, stream.read_to_end(&mut response))
        .await
        .expect("HTTP response in time")
        .expect("read");
    let response = String::from_utf8_lossy(&response).into_owned();
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("status line");
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_owned()
    };
    (status, body)
}

/// The body of a chunked HTTP/1.1 response.
fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use splendor_store::testing::with_database;

    #[test]
    fn the_listening_line_gives_the_address() {
        assert_eq!(
            listening_address("splendor-server listening on 127.0.0.1:4321"),
            Some("127.0.0.1:4321".parse().unwrap())
        );
        assert_eq!(listening_address("2026 INFO starting"), None);
        assert_eq!(
            listening_address(
                r#"{"timestamp":"t","level":"INFO","message":"listening","addr":"127.0.0.1:99","target":"x"}"#
            ),
            Some("127.0.0.1:99".parse().unwrap())
        );
        assert_eq!(
            listening_address(r#"{"message":"restored","addr":"127.0.0.1:99"}"#),
            None
        );
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
    }

    #[test]
    fn chunked_bodies_are_joined() {
        assert_eq!(dechunk("3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"), "abcde");
    }
}
