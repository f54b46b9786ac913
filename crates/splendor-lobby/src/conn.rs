//! A connection as the lobby sees it: a bounded queue of server messages and
//! a way to close it.
//!
//! This is the one interface between a room and whoever occupies a seat. The
//! gateway drains the queue into a WebSocket; a server-side bot could drain
//! it into its own decision loop. Rooms only ever `try_send`: when a queue is
//! full the connection is closed as too slow, and the room carries on.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

pub use splendor_room::conn::{CloseReason, ConnId, NodeId, Outgoing, SharedFrame};
use tokio::sync::{mpsc, watch};

static NEXT_CONN_ID: AtomicU64 = AtomicU64::new(1);

/// Why a message could not be queued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendError {
    /// The queue was full; the connection has been closed as too slow.
    TooSlow,
    /// The connection is gone.
    Closed,
}

/// The sending side of a connection. Cheap to clone; all clones are the
/// same connection.
#[derive(Clone)]
pub struct Connection {
    id: ConnId,
    /// Bounded: a client that does not keep up fills it and is closed.
    messages: mpsc::Sender<Outgoing>,
    /// The close request; the first reason set wins.
    close: Arc<watch::Sender<Option<CloseReason>>>,
}

/// The receiving side, owned by whatever drives the connection.
pub struct ConnectionRx {
    /// The connection this is the receiving side of.
    pub id: ConnId,
    /// What the rooms and the gateway queued for the client, in order.
    pub messages: mpsc::Receiver<Outgoing>,
    /// Resolves when the connection is asked to close.
    pub close_signal: CloseSignal,
}

/// Resolves when a connection is asked to close.
pub struct CloseSignal(watch::Receiver<Option<CloseReason>>);

impl CloseSignal {
    /// Waits for the close request and returns its reason. Cancel-safe.
    pub async fn wait(&mut self) -> CloseReason {
        match self.0.wait_for(Option::is_some).await {
            Ok(reason) => reason.unwrap_or(CloseReason::Normal),
            // Every `Connection` clone is gone: nobody can send any more.
            Err(_) => CloseReason::Normal,
        }
    }
}

impl fmt::Debug for Connection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Connection({})", self.id)
    }
}

impl Connection {
    /// A new connection whose queue holds `queue` messages (at least 1).
    pub fn new(queue: usize) -> (Connection, ConnectionRx) {
        Connection::on_node(NodeId::default(), queue)
    }

    /// A new connection of `node` (see [`ConnId`]), whose queue holds
    /// `queue` messages (at least 1).
    pub fn on_node(node: NodeId, queue: usize) -> (Connection, ConnectionRx) {
        let id = ConnId::new(node, NEXT_CONN_ID.fetch_add(1, Ordering::Relaxed));
        Connection::with_id(id, queue)
    }

    /// A stand-in, on a room's node, for connection `id` whose socket
    /// another node holds (issue 21): what the room queues for it is
    /// forwarded to that node.
    pub fn proxy(id: ConnId, queue: usize) -> (Connection, ConnectionRx) {
        Connection::with_id(id, queue)
    }

    fn with_id(id: ConnId, queue: usize) -> (Connection, ConnectionRx) {
        let (tx, rx) = mpsc::channel(queue.max(1));
        let (close_tx, close_rx) = watch::channel(None);
        (
            Connection {
                id,
                messages: tx,
                close: Arc::new(close_tx),
            },
            ConnectionRx {
                id,
                messages: rx,
                close_signal: CloseSignal(close_rx),
            },
        )
    }

    /// The connection's number.
    pub fn id(&self) -> ConnId {
        self.id
    }

    /// Queues `message` without waiting. A full queue closes the connection
    /// as too slow.
    pub fn send(&self, message: impl Into<Outgoing>) -> Result<(), SendError> {
        if self.close_reason().is_some() {
            return Err(SendError::Closed);
        }
        match self.messages.try_send(message.into()) {
            Ok(()) => Ok(()),
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.close(CloseReason::TooSlow);
                Err(SendError::TooSlow)
            }
            Err(mpsc::error::TrySendError::Closed(_)) => Err(SendError::Closed),
        }
    }

    /// Asks the connection to close; the first reason given is kept.
    pub fn close(&self, reason: CloseReason) {
        self.close.send_if_modified(|current| {
            if current.is_none() {
                *current = Some(reason);
                true
            } else {
                false
            }
        });
    }

    /// Resolves when the connection is asked to close, with the reason.
    /// For the side that reads from the client, which holds a `Connection`.
    pub fn closed(&self) -> impl Future<Output = CloseReason> + Send + 'static {
        let mut signal = CloseSignal(self.close.subscribe());
        async move { signal.wait().await }
    }

    /// Why the connection was asked to close, if it was.
    pub fn close_reason(&self) -> Option<CloseReason> {
        *self.close.borrow()
    }
}

impl ConnectionRx {
    /// Resolves when the connection is asked to close, with the reason.
    /// Cancel-safe.
    pub async fn closed(&mut self) -> CloseReason {
        self.close_signal.wait().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use splendor_protocol::Pong;

    fn pong() -> splendor_protocol::ServerMessage {
        splendor_protocol::ServerMessage::Pong(Pong { id: None })
    }

    #[tokio::test]
    async fn a_full_queue_closes_the_connection_as_too_slow() {
        let (conn, mut rx) = Connection::new(2);
        assert_eq!(conn.send(pong()), Ok(()));
        assert_eq!(conn.send(pong()), Ok(()));
        assert_eq!(conn.send(pong()), Err(SendError::TooSlow));
        assert_eq!(rx.closed().await, CloseReason::TooSlow);
        // Once closed, nothing more is queued.
        assert_eq!(conn.send(pong()), Err(SendError::Closed));
        assert!(rx.messages.recv().await.is_some());
    }

    #[tokio::test]
    async fn the_first_close_reason_wins() {
        let (conn, mut rx) = Connection::new(1);
        conn.clone().close(CloseReason::Replaced);
        conn.close(CloseReason::TooSlow);
        assert_eq!(rx.closed().await, CloseReason::Replaced);
        assert_ne!(Connection::new(1).0.id(), conn.id());
    }
}
