//! Every TCP connection is bounded, before and after its upgrade to a
//! WebSocket (issue 12: a client that sends half a request head must not
//! hold a descriptor forever).
//!
//! - [`GuardedListener`] counts every accepted connection, HTTP, pending
//!   handshake or WebSocket alike, per TCP peer (IPv6: per /64) and in all.
//!   Past either cap a new connection is closed at once, never held open.
//!   Before the upgrade only the TCP peer is known: behind a reverse proxy
//!   that is the proxy, whose own per-client limits must do that job
//!   (docs/HOSTING.md).
//! - [`Guarded`], the connection's IO, gives a client a deadline to send a
//!   whole request head (up to its blank line): past it, reads fail and
//!   hyper closes the connection. While the handler runs there is no
//!   deadline; after an answer, the client has the same time to send its
//!   next request (or to read the answer): an idle kept-alive connection
//!   is closed too. The deadline is lifted for good once the server
//!   answers `101 Switching Protocols`: a WebSocket has its own idle and
//!   heartbeat timers.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{Instant, Sleep, sleep_until};
use tracing::{debug, warn};

use crate::limits::{IpGuard, IpLimiter};
use crate::metrics::{Metrics, Refusal};

/// The limits on TCP connections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TcpLimits {
    /// A client must send a whole request within this (none: no deadline).
    pub request_deadline: Option<Duration>,
    /// Connections from one TCP peer at once (0: no limit).
    pub per_peer: usize,
    /// Connections at once in all.
    pub total: usize,
}

/// A listener that refuses connections past the caps and gives each
/// accepted one a request deadline.
pub struct GuardedListener {
    inner: TcpListener,
    limits: TcpLimits,
    per_peer: IpLimiter,
    open: Arc<AtomicUsize>,
    metrics: Metrics,
}

impl GuardedListener {
    /// Guards `inner` with `limits`; refusals and timeouts are counted in
    /// `metrics`.
    pub fn new(inner: TcpListener, limits: TcpLimits, metrics: Metrics) -> GuardedListener {
        GuardedListener {
            inner,
            limits,
            per_peer: IpLimiter::new(limits.per_peer.max(1)),
            open: Arc::new(AtomicUsize::new(0)),
            metrics,
        }
    }

    /// Counts a new connection from `peer`, or says why it is refused.
    fn admit(&self, peer: SocketAddr) -> Result<Slot, Refusal> {
        let peer_guard = match self.limits.per_peer {
            0 => None,
            _ => Some(
                self.per_peer
                    .try_acquire(peer.ip())
                    .ok_or(Refusal::TcpPerPeer)?,
            ),
        };
        let before = self.open.fetch_add(1, Ordering::AcqRel);
        let slot = Slot {
            open: self.open.clone(),
            _peer: peer_guard,
        };
        if before >= self.limits.total {
            // Dropping the slot uncounts it again.
            return Err(Refusal::TcpFull);
        }
        Ok(slot)
    }
}

/// One counted connection; dropping it (the connection ended) uncounts it.
struct Slot {
    open: Arc<AtomicUsize>,
    _peer: Option<IpGuard>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.open.fetch_sub(1, Ordering::AcqRel);
    }
}

impl axum::serve::Listener for GuardedListener {
    type Io = Guarded;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Guarded, SocketAddr) {
        loop {
            let (stream, peer) = match self.inner.accept().await {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors (EMFILE) or a connection reset
                    // before it was accepted: wait a moment, go on.
                    warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            match self.admit(peer) {
                Ok(slot) => {
                    if let Err(e) = stream.set_nodelay(true) {
                        debug!(error = %e, "could not set TCP_NODELAY");
                    }
                    return (
                        Guarded::new(stream, slot, self.limits, self.metrics.clone()),
                        peer,
                    );
                }
                Err(why) => {
                    // Closed at once: dropping the stream sends the FIN.
                    self.metrics.connection_refused(why);
                    debug!(%peer, ?why, "connection refused");
                    drop(stream);
                }
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// Where a connection is in its life, for the request deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Reading a request head: the deadline runs from its first byte (or
    /// from the accept).
    Head,
    /// The head is in (its blank line was read): the handler runs, and
    /// hyper may read meanwhile only to notice a close. No deadline.
    Handling,
    /// The server has answered: the deadline runs from its last write,
    /// until the client sends its next request (a kept-alive connection
    /// idle, or a client that stopped reading, is closed).
    Answered,
    /// A WebSocket now: no deadline ever again.
    Upgraded,
}

/// A connection's IO with the request deadline (see the module docs).
pub struct Guarded {
    inner: TcpStream,
    _slot: Slot,
    phase: Phase,
    deadline: Option<Duration>,
    /// The request deadline's timer; gone once the connection is a
    /// WebSocket. Polled by hyper's connection task, it held that task's
    /// waker, and so the task's memory (about 1.4 KB), for as long as the
    /// WebSocket lived (issue 20: memory per held connection).
    timer: Option<Pin<Box<Sleep>>>,
    /// The last bytes of the head read so far, to find its end across reads.
    tail: [u8; 3],
    metrics: Metrics,
}

impl Guarded {
    fn new(inner: TcpStream, slot: Slot, limits: TcpLimits, metrics: Metrics) -> Guarded {
        let first = limits.request_deadline.unwrap_or(Duration::ZERO);
        Guarded {
            inner,
            _slot: slot,
            phase: Phase::Head,
            deadline: limits.request_deadline,
            timer: Some(Box::pin(sleep_until(Instant::now() + first))),
            tail: [0; 3],
            metrics,
        }
    }

    fn restart_timer(&mut self) {
        if let (Some(deadline), Some(timer)) = (self.deadline, self.timer.as_mut()) {
            timer.as_mut().reset(Instant::now() + deadline);
        }
    }

    /// The client sent `bytes`.
    fn received(&mut self, bytes: &[u8]) {
        if bytes.is_empty() || self.phase == Phase::Upgraded {
            return;
        }
        if self.phase != Phase::Head {
            // The next request begins: it has the whole deadline.
            self.phase = Phase::Head;
            self.tail = [0; 3];
            self.restart_timer();
        }
        // The head ends at its first blank line.
        let mut seen = self.tail.to_vec();
        seen.extend_from_slice(&bytes[..bytes.len().min(4096)]);
        if seen.windows(4).any(|w| w == b"\r\n\r\n") {
            self.phase = Phase::Handling;
        }
        let keep = seen.len().min(3);
        self.tail = [0; 3];
        self.tail[3 - keep..].copy_from_slice(&seen[seen.len() - keep..]);
    }

    /// The server wrote `first` (the start of what it wrote).
    fn answered(&mut self, first: &[u8]) {
        if self.phase == Phase::Upgraded || first.is_empty() {
            return;
        }
        if self.phase != Phase::Answered && first.starts_with(b"HTTP/1.1 101 ") {
            self.phase = Phase::Upgraded;
            self.timer = None;
            return;
        }
        self.phase = Phase::Answered;
        self.restart_timer();
    }
}

impl AsyncRead for Guarded {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.deadline.is_some()
            && matches!(this.phase, Phase::Head | Phase::Answered)
            && let Some(timer) = this.timer.as_mut()
            && timer.as_mut().poll(cx).is_ready()
        {
            this.metrics.request_deadline_passed();
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "no complete request within the deadline",
            )));
        }
        let before = buf.filled().len();
        ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
        let filled = buf.filled();
        this.received(&filled[before..]);
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        let written = ready!(Pin::new(&mut this.inner).poll_write(cx, buf))?;
        this.answered(&buf[..written]);
        Poll::Ready(Ok(written))
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        let written = ready!(Pin::new(&mut this.inner).poll_write_vectored(cx, bufs))?;
        if written > 0
            && let Some(first) = bufs.iter().find(|b| !b.is_empty())
        {
            this.answered(&first[..written.min(first.len())]);
        }
        Poll::Ready(Ok(written))
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// Descriptors kept for the database, the metrics listener, logs and an
/// operator's tools when the connection cap is sized from the file limit.
pub const RESERVED_DESCRIPTORS: u64 = 64;

/// The default cap on TCP connections: the file limit less the reserve
/// (a limit of 20,000 allows 19,936), or 10,000 when the limit is unknown.
pub fn default_total(file_limit: Option<u64>) -> usize {
    match file_limit {
        Some(limit) => usize::try_from(limit.saturating_sub(RESERVED_DESCRIPTORS))
            .unwrap_or(usize::MAX)
            .max(1),
        None => 10_000,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_cap_leaves_a_reserve_below_the_file_limit() {
        assert_eq!(default_total(Some(20_000)), 19_936);
        assert!(default_total(Some(20_000)) >= 19_900);
        assert_eq!(default_total(Some(10)), 1);
        assert_eq!(default_total(None), 10_000);
        assert!(crate::metrics::open_file_limit().is_some_and(|n| n > 0));
    }
}
