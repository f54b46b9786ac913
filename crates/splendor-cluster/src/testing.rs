//! Test support (feature `testing`): a `nats-server` of the test's own.

use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::time::timeout;

/// How long a `nats-server` may take to listen.
const START: Duration = Duration::from_secs(20);

/// A `nats-server` on a free loopback port, killed when dropped.
pub struct Nats {
    /// Where it listens (`nats://127.0.0.1:PORT`).
    pub url: String,
    child: Child,
}

impl Nats {
    /// Starts one (Debian's `nats-server`, or `SPLENDOR_NATS_SERVER`;
    /// `.ci/run` installs it).
    pub async fn start() -> Nats {
        let binary = std::env::var("SPLENDOR_NATS_SERVER").unwrap_or_else(|_| {
            ["/usr/sbin/nats-server", "/usr/bin/nats-server"]
                .into_iter()
                .find(|p| std::path::Path::new(p).exists())
                .unwrap_or("nats-server")
                .to_owned()
        });
        let mut child = Command::new(&binary)
            .args(["-a", "127.0.0.1", "-p", "-1", "--no_advertise"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot start {binary} (apt-get install nats-server; .ci/run does): {e}")
            });
        let stderr = child.stderr.take().expect("its log");
        let mut lines = BufReader::new(stderr).lines();
        let url = timeout(START, async {
            while let Some(line) = lines.next_line().await.expect("its log") {
                if let Some(at) = line.split("Listening for client connections on ").nth(1) {
                    return format!("nats://{}", at.trim());
                }
            }
            panic!("nats-server ended before it listened");
        })
        .await
        .expect("nats-server listens");
        // Keep reading its log so that it never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        Nats { url, child }
    }

    /// Publishes `payload` on `subject` as it is, from a client of the
    /// test's own (a node of another version, or no node at all), and
    /// returns once the server has it.
    pub async fn publish_raw(&self, subject: &str, payload: &[u8]) {
        let client = async_nats::connect(&self.url)
            .await
            .expect("connect to the test's nats-server");
        client
            .publish(subject.to_owned(), payload.to_vec().into())
            .await
            .expect("publish");
        client.flush().await.expect("flush");
    }

    /// Sends `payload` on `subject` as a request, as it is, and returns the
    /// answer's payload.
    pub async fn request_raw(&self, subject: &str, payload: &[u8]) -> Vec<u8> {
        let client = async_nats::connect(&self.url)
            .await
            .expect("connect to the test's nats-server");
        let answer = timeout(
            START,
            client.request(subject.to_owned(), payload.to_vec().into()),
        )
        .await
        .expect("an answer in time")
        .expect("an answer");
        answer.payload.to_vec()
    }

    /// Stops it at once (a cut link to NATS, as far as the nodes know).
    pub async fn kill(&mut self) {
        let _ = self.child.kill().await;
    }
}
