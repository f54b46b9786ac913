//! What a room says to a connection, as data: the connection's number, why
//! it is closed, and a message (or a frame serialised once and shared).
//! The queue that carries them is the driver's (splendor-lobby's
//! `Connection`); the room only names connections by [`ConnId`].

use std::fmt;
use std::sync::Arc;

use splendor_protocol::error::close;
use splendor_protocol::{RoomClosed, ServerMessage, Words};

/// A server node of a deployment (0 when there is one). A connection's id
/// names the node that holds its socket, so that a room on one node can
/// address connections on another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u16);

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A connection's number, unique across the nodes of a deployment: its
/// node in the top 16 bits, then a number the node counts up. For logs and
/// for telling a stale connection of a session from its current one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConnId(pub u64);

/// The bits of a [`ConnId`] that count a node's connections.
const SEQ_BITS: u32 = 48;

impl ConnId {
    /// The `seq`-th connection of `node` (`seq` below 2^48).
    pub fn new(node: NodeId, seq: u64) -> ConnId {
        ConnId((u64::from(node.0) << SEQ_BITS) | (seq & ((1 << SEQ_BITS) - 1)))
    }

    /// The node that holds the connection's socket.
    pub fn node(self) -> NodeId {
        NodeId((self.0 >> SEQ_BITS) as u16)
    }

    /// The connection's number on its node.
    pub fn seq(self) -> u64 {
        self.0 & ((1 << SEQ_BITS) - 1)
    }
}

impl fmt::Display for ConnId {
    /// `seq` on node 0, `node.seq` elsewhere.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.node() {
            NodeId(0) => self.seq().fmt(f),
            node => write!(f, "{node}.{}", self.seq()),
        }
    }
}

/// Why a connection is being closed; decides the WebSocket close code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CloseReason {
    /// The client left, or its socket ended.
    Normal,
    /// A newer connection resumed the same session with the same token.
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
    /// The server's operators banned the session, its name or its address.
    Banned,
    /// The connection's token was revoked from another device (issue 23).
    Revoked,
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
            CloseReason::Banned => close::BANNED,
            CloseReason::Revoked => close::REVOKED,
        }
    }

    /// The close frame's reason: words, worded in the connection's
    /// language (a close reason has at most 123 bytes; the code says it
    /// all anyway).
    pub fn words(self) -> Words {
        Words::new(match self {
            CloseReason::Normal => "close-normal",
            CloseReason::Replaced => "close-replaced",
            CloseReason::TooSlow => "close-too-slow",
            CloseReason::MessageTooBig => "close-too-big",
            CloseReason::ShuttingDown => "close-restart",
            CloseReason::RateLimited => "close-rate-limited",
            CloseReason::Idle => "close-idle",
            CloseReason::HeartbeatTimeout => "close-heartbeat",
            CloseReason::Banned => "close-banned",
            CloseReason::Revoked => "close-revoked",
        })
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
    /// A message that says something to people: worded in each
    /// connection's language by whoever drains the queue.
    Worded(Box<Worded>),
}

/// A message with words in it, before it is worded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Worded {
    /// `room_closed`: the room and why it closed (for this connection).
    RoomClosed {
        /// The room's code.
        room: String,
        /// Why it closed.
        reason: Words,
        /// The room goes on without this connection (it was removed, or
        /// its seat went to another device of its session): a holder on
        /// another node must not take the room for closed.
        room_goes_on: bool,
    },
}

impl Worded {
    /// The message, its words worded by `word`.
    pub fn to_message(&self, word: &dyn Fn(&Words) -> String) -> ServerMessage {
        match self {
            Worded::RoomClosed { room, reason, .. } => ServerMessage::RoomClosed(RoomClosed {
                room: room.clone(),
                reason: word(reason),
            }),
        }
    }
}

/// The JSON text of one server message, cheap to clone.
///
/// An `Arc<String>`, not an `Arc<str>`: a thin pointer keeps a queue's
/// slot at 16 bytes, and a frame made for one connection (a seat's state)
/// reaches the socket without a copy ([`Outgoing::into_json`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedFrame(Arc<String>);

impl SharedFrame {
    /// Serialises `message` once.
    pub fn new(message: &ServerMessage) -> SharedFrame {
        SharedFrame(Arc::new(message.to_json()))
    }

    /// A message's JSON text, serialised elsewhere (by a room on another
    /// node).
    pub fn from_text(text: String) -> SharedFrame {
        SharedFrame(Arc::new(text))
    }

    /// Serialises a lean state once (protocol 2).
    pub fn from_lean(state: splendor_protocol::LeanStateInfo) -> SharedFrame {
        // Plain data: serialising cannot fail.
        SharedFrame(Arc::new(serde_json::to_string(&state).unwrap_or_default()))
    }

    /// The JSON text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The JSON text, taken without a copy when no other connection
    /// shares it.
    pub fn into_string(self) -> String {
        Arc::try_unwrap(self.0).unwrap_or_else(|shared| shared.as_str().to_owned())
    }
}

impl Outgoing {
    /// The JSON text sent on the wire, its words worded by `word` (in the
    /// connection's language).
    pub fn to_json(&self, word: &dyn Fn(&Words) -> String) -> String {
        match self {
            Outgoing::Message(message) => message.to_json(),
            Outgoing::Shared(frame) => frame.as_str().to_owned(),
            Outgoing::Worded(worded) => worded.to_message(word).to_json(),
        }
    }

    /// [`Outgoing::to_json`], taking the message: a frame no other
    /// connection shares is not copied (issue 20).
    pub fn into_json(self, word: &dyn Fn(&Words) -> String) -> String {
        match self {
            Outgoing::Shared(frame) => frame.into_string(),
            other => other.to_json(word),
        }
    }

    /// The message itself (a shared frame is parsed back): for clients in
    /// the same process, such as tests and bots, that read messages. Words
    /// are given as their id and arguments.
    pub fn into_message(self) -> Option<ServerMessage> {
        match self {
            Outgoing::Message(message) => Some(*message),
            Outgoing::Shared(frame) => serde_json::from_str(frame.as_str()).ok(),
            Outgoing::Worded(worded) => Some(worded.to_message(&|w| w.to_string())),
        }
    }
}

impl From<ServerMessage> for Outgoing {
    fn from(message: ServerMessage) -> Outgoing {
        Outgoing::Message(Box::new(message))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_is_taken_whole_when_it_is_not_shared() {
        let word = |w: &Words| w.to_string();
        let own = SharedFrame::from_text("{\"type\":\"pong\"}".into());
        let pointer = own.as_str().as_ptr();
        let text = Outgoing::Shared(own).into_json(&word);
        assert_eq!(
            text.as_ptr(),
            pointer,
            "the connection's own frame is not copied"
        );
        let shared = SharedFrame::from_text("{\"type\":\"pong\"}".into());
        let other = Outgoing::Shared(shared.clone());
        assert_eq!(
            other.into_json(&word),
            shared.as_str(),
            "a shared frame is copied"
        );
        assert_eq!(std::mem::size_of::<Outgoing>(), 16, "a queue slot");
    }

    #[test]
    fn a_connection_id_names_its_node() {
        let a = ConnId::new(NodeId(0), 7);
        let b = ConnId::new(NodeId(3), 7);
        assert_ne!(a, b, "the same number on two nodes is two connections");
        assert_eq!((a.node(), a.seq()), (NodeId(0), 7));
        assert_eq!((b.node(), b.seq()), (NodeId(3), 7));
        assert_eq!(a, ConnId(7), "node 0's ids are its plain numbers");
        assert_eq!((a.to_string(), b.to_string()), ("7".into(), "3.7".into()));
        let last = ConnId::new(NodeId(u16::MAX), (1 << 48) - 1);
        assert_eq!((last.node(), last.seq()), (NodeId(u16::MAX), (1 << 48) - 1));
    }
}
