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

use splendor_protocol::ServerMessage;
use splendor_protocol::error::close;
use tokio::sync::{mpsc, watch};

/// A process-unique connection number, for logs and for telling a stale
/// connection of a session from its current one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConnId(pub u64);

impl fmt::Display for ConnId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

static NEXT_CONN_ID: AtomicU64 = AtomicU64::new(1);

/// Why a connection is being closed; decides the WebSocket close code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CloseReason {
    /// The client left, or its socket ended.
    Normal,
    /// A newer connection resumed the same session.
    Replaced,
    /// The outbound queue was full: the client reads too slowly.
    TooSlow,
    /// A frame exceeded the hard size limit.
    MessageTooBig,
    /// The server is shutting down or restarting.
    ShuttingDown,
    /// The client kept sending past the message rate.
    RateLimited,
    /// The client sent nothing for too long while in no room.
    Idle,
    /// The client stopped answering pings.
    HeartbeatTimeout,
}

impl CloseReason {
    /// The WebSocket close code (docs/PROTOCOL.md lists them).
    pub fn code(self) -> u16 {
        match self {
            CloseReason::Normal => close::NORMAL,
            CloseReason::Replaced => close::REPLACED,
            CloseReason::TooSlow => close::TOO_SLOW,
            CloseReason::MessageTooBig => close::MESSAGE_TOO_BIG,
            CloseReason::ShuttingDown => close::SERVICE_RESTART,
            CloseReason::RateLimited => close::RATE_LIMITED,
            CloseReason::Idle => close::IDLE,
            CloseReason::HeartbeatTimeout => close::HEARTBEAT_TIMEOUT,
        }
    }

    /// The close frame's reason text.
    pub fn text(self) -> &'static str {
        match self {
            CloseReason::Normal => "bye",
            CloseReason::Replaced => "replaced by a newer connection of the same session",
            CloseReason::TooSlow => "too slow: the server's queue for this connection was full",
            CloseReason::MessageTooBig => "frame too large",
            CloseReason::ShuttingDown => "service restart: reconnect and resume with your token",
            CloseReason::RateLimited => "rate limit exceeded: too many messages per second",
            CloseReason::Idle => "idle: nothing sent for too long",
            CloseReason::HeartbeatTimeout => "no answer to pings",
        }
    }
}

/// What a connection's queue carries: a message, or a message serialised
/// once and shared by every connection that gets the same bytes (a room's
/// spectators all see the same state).
///
/// Boxed: a connection's queue allocates its slots in blocks of 32, and an
/// unboxed message (about 250 bytes) made each idle connection hold 8 KiB
/// of slots; the message's own contents are on the heap anyway.
#[derive(Clone, Debug, PartialEq)]
pub enum Outgoing {
    /// A message, serialised by whoever drains the queue.
    Message(Box<ServerMessage>),
    /// The JSON text of a message, serialised once.
    Shared(SharedFrame),
}

/// The JSON text of one server message, cheap to clone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedFrame(Arc<str>);

impl SharedFrame {
    /// Serialises `message` once.
    pub fn new(message: &ServerMessage) -> SharedFrame {
        SharedFrame(message.to_json().into())
    }

    /// Serialises a lean state once (protocol 2).
    pub fn from_lean(state: splendor_protocol::LeanStateInfo) -> SharedFrame {
        // Plain data: serialising cannot fail.
        SharedFrame(serde_json::to_string(&state).unwrap_or_default().into())
    }

    /// The JSON text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Outgoing {
    /// The JSON text sent on the wire.
    pub fn to_json(&self) -> String {
        match self {
            Outgoing::Message(message) => message.to_json(),
            Outgoing::Shared(frame) => frame.as_str().to_owned(),
        }
    }

    /// The message itself (a shared frame is parsed back): for clients in
    /// the same process, such as tests and bots, that read messages.
    pub fn into_message(self) -> Option<ServerMessage> {
        match self {
            Outgoing::Message(message) => Some(*message),
            Outgoing::Shared(frame) => serde_json::from_str(frame.as_str()).ok(),
        }
    }
}

impl From<ServerMessage> for Outgoing {
    fn from(message: ServerMessage) -> Outgoing {
        Outgoing::Message(Box::new(message))
    }
}

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
        let id = ConnId(NEXT_CONN_ID.fetch_add(1, Ordering::Relaxed));
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

    fn pong() -> ServerMessage {
        ServerMessage::Pong(Pong { id: None })
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
