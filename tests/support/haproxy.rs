//! A real HAProxy in front of server nodes, on loopback, for the cluster
//! tests (issue 21). It runs on the very file the cluster's compose recipe
//! mounts (`docker/haproxy.cfg`), whose addresses come from the environment:
//! the test points them at its nodes.

use std::net::SocketAddr;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::SAFETY_TIMEOUT;
use crate::process::http_get;

/// The proxy's configuration: the recipe's own file.
pub const CONFIG: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docker/haproxy.cfg");

/// A running `haproxy`, killed when dropped.
pub struct Haproxy {
    child: Child,
    addr: SocketAddr,
}

impl Haproxy {
    /// Starts haproxy on a free loopback port in front of `nodes` (one to
    /// three; the file names three, so a missing one repeats the last), and
    /// returns once a request through it reaches a ready node.
    pub async fn start(nodes: &[SocketAddr]) -> Haproxy {
        assert!((1..=3).contains(&nodes.len()), "one to three nodes");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let addr: SocketAddr = ([127, 0, 0, 1], port).into();
        let node = |i: usize| nodes[i.min(nodes.len() - 1)].to_string();
        let binary = ["/usr/sbin/haproxy", "/usr/local/sbin/haproxy"]
            .into_iter()
            .find(|p| std::path::Path::new(p).exists())
            .unwrap_or("haproxy");
        let mut child = Command::new(binary)
            // -db: in the foreground, logging to standard output.
            .args(["-db", "-f", CONFIG])
            .env("SPLENDOR_PROXY_BIND", addr.to_string())
            .env("SPLENDOR_NODE_1", node(0))
            .env("SPLENDOR_NODE_2", node(1))
            .env("SPLENDOR_NODE_3", node(2))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| {
                panic!("cannot start haproxy ({e}): install it (Debian: apt-get install haproxy)")
            });
        for output in [
            child
                .stdout
                .take()
                .map(|o| Box::new(o) as Box<dyn tokio::io::AsyncRead + Send + Unpin>),
            child
                .stderr
                .take()
                .map(|o| Box::new(o) as Box<dyn tokio::io::AsyncRead + Send + Unpin>),
        ]
        .into_iter()
        .flatten()
        {
            tokio::spawn(async move {
                let mut lines = BufReader::new(output).lines();
                while let Ok(Some(line)) = lines.next_line().await {
                    println!("[haproxy] {line}");
                }
            });
        }
        let mut proxy = Haproxy { child, addr };
        proxy.wait_ready().await;
        proxy
    }

    /// Where players connect.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Waits until `/readyz` through the proxy answers 200 (the proxy
    /// listens and reaches a ready node).
    pub async fn wait_ready(&mut self) {
        let deadline = tokio::time::Instant::now() + SAFETY_TIMEOUT;
        let mut tick = tokio::time::interval(Duration::from_millis(20));
        loop {
            tick.tick().await;
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("haproxy exited at start ({status}): see its [haproxy] lines");
            }
            if tokio::net::TcpStream::connect(self.addr).await.is_ok()
                && http_get(self.addr, "/readyz").await.0 == 200
            {
                return;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "haproxy at {} never reached a ready node",
                self.addr
            );
        }
    }
}

impl Drop for Haproxy {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
    }
}
