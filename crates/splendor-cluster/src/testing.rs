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

    /// Stops it at once (a cut link to NATS, as far as the nodes know).
    pub async fn kill(&mut self) {
        let _ = self.child.kill().await;
    }
}
