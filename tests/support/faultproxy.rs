//! A fault-injecting TCP proxy on loopback, for the partition tests of
//! issue 21: a node reaches PostgreSQL or NATS through it, and the test cuts
//! the link (every open connection dropped, every new one closed at once)
//! and heals it, without touching the other nodes' links.

use std::net::SocketAddr;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// A proxy to one address; stops when dropped.
pub struct FaultProxy {
    addr: SocketAddr,
    cut: watch::Sender<bool>,
    task: JoinHandle<()>,
}

impl FaultProxy {
    /// A proxy on a free loopback port to `target`.
    pub async fn start(target: SocketAddr) -> FaultProxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let addr = listener.local_addr().expect("its address");
        let (cut, watching) = watch::channel(false);
        let task = tokio::spawn(async move {
            loop {
                let Ok((inbound, _)) = listener.accept().await else {
                    return;
                };
                if *watching.borrow() {
                    // Cut: closed at once.
                    drop(inbound);
                    continue;
                }
                let mut watching = watching.clone();
                tokio::spawn(async move {
                    let Ok(mut outbound) = TcpStream::connect(target).await else {
                        return;
                    };
                    let mut inbound = inbound;
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                        _ = watching.wait_for(|cut| *cut) => {}
                    }
                    // Both ends dropped here: the link is gone.
                });
            }
        });
        FaultProxy { addr, cut, task }
    }

    /// Where to connect instead of the target.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Drops every connection through the proxy and closes new ones.
    pub fn cut(&self) {
        self.cut.send_replace(true);
    }

    /// Lets connections through again.
    pub fn heal(&self) {
        self.cut.send_replace(false);
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.task.abort();
        self.cut.send_replace(true);
    }
}
