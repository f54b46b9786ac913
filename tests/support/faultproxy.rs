//! A fault-injecting TCP proxy on loopback, for the partition tests of
//! issues 21 and 44: a node reaches PostgreSQL or NATS through it, and the
//! test breaks the link and heals it, without touching the other nodes'
//! links. Two ways to break it:
//! - [`FaultProxy::cut`]: every open connection is dropped and every new
//!   one closed at once (a reset: both ends learn of it);
//! - [`FaultProxy::hold`]: bytes stop in both directions and every socket
//!   stays open, new connections are accepted and held too (a silent
//!   failure: a blackholed route, a half-open connection after a NAT's
//!   timeout). Nobody learns of it but by waiting; after
//!   [`FaultProxy::heal`] the bytes held flow again.

use std::net::SocketAddr;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// What the link does now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Link {
    Pass,
    Held,
    Cut,
}

/// A proxy to one address; stops when dropped.
pub struct FaultProxy {
    addr: SocketAddr,
    link: watch::Sender<Link>,
    task: JoinHandle<()>,
}

impl FaultProxy {
    /// A proxy on a free loopback port to `target`.
    pub async fn start(target: SocketAddr) -> FaultProxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let addr = listener.local_addr().expect("its address");
        let (link, watching) = watch::channel(Link::Pass);
        let task = tokio::spawn(async move {
            loop {
                let Ok((inbound, _)) = listener.accept().await else {
                    return;
                };
                if *watching.borrow() == Link::Cut {
                    // Cut: closed at once.
                    drop(inbound);
                    continue;
                }
                let watching = watching.clone();
                tokio::spawn(async move {
                    let Ok(outbound) = TcpStream::connect(target).await else {
                        return;
                    };
                    let (in_read, in_write) = inbound.into_split();
                    let (out_read, out_write) = outbound.into_split();
                    tokio::select! {
                        () = pump(in_read, out_write, watching.clone()) => {}
                        () = pump(out_read, in_write, watching) => {}
                    }
                    // Both ends dropped here: the link is gone.
                });
            }
        });
        FaultProxy { addr, link, task }
    }

    /// Where to connect instead of the target.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Drops every connection through the proxy and closes new ones.
    pub fn cut(&self) {
        self.link.send_replace(Link::Cut);
    }

    /// Stops every byte, both ways, on every connection (open or new),
    /// closing nothing.
    pub fn hold(&self) {
        self.link.send_replace(Link::Held);
    }

    /// Lets connections (and the bytes held) through again.
    pub fn heal(&self) {
        self.link.send_replace(Link::Pass);
    }
}

/// Copies one direction of a connection while the link passes; holds the
/// bytes read while it is held; returns when either end closes or the link
/// is cut.
async fn pump(mut from: OwnedReadHalf, mut to: OwnedWriteHalf, mut link: watch::Receiver<Link>) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let read = tokio::select! {
            read = from.read(&mut buf) => read,
            _ = link.wait_for(|l| *l == Link::Cut) => return,
        };
        let n = match read {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        // Held: these bytes wait here (and nothing more is read, so the
        // sender's buffers fill as behind a dead route) until the link
        // passes again or is cut.
        match link.wait_for(|l| *l != Link::Held).await.map(|l| *l) {
            Ok(Link::Pass) => {}
            _ => return,
        }
        if to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.task.abort();
        self.link.send_replace(Link::Cut);
    }
}
