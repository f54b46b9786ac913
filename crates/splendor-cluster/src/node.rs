//! What server nodes say to each other (issue 21): the serialisable forms
//! of a room's requests, answers and deliveries, carried over NATS between
//! the node that holds a client's socket and the node that owns the room.
//!
//! Every message is an [`Envelope`] with the version [`NODE_VERSION`]. A
//! node reads the version first ([`read_version`]) and refuses a message of
//! another version with a clear log line rather than misreading it; a new
//! version is introduced by nodes that speak both before any sends it
//! (docs/design/nodes.md, "Node messages"). These are not the core's own types:
//! they are counterparts (rust-analyzer's rule: serialisable types impose
//! backward compatibility), converted in `convert.rs`. They live in the
//! cluster crate, apart from the client protocol bot authors read.

use serde::{Deserialize, Serialize};

use splendor_protocol::{RequestId, Role, SeatOrder, WireAction};

/// The version of the node messages this build speaks.
pub const NODE_VERSION: u16 = 1;

/// A node message: its version, then its body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Envelope<T> {
    /// [`NODE_VERSION`] of the sender.
    pub v: u16,
    /// The message.
    #[serde(flatten)]
    pub body: T,
}

impl<T: Serialize> Envelope<T> {
    /// `body` in this build's version, as JSON bytes.
    pub fn encode(body: T) -> Vec<u8> {
        // Plain data: serialising cannot fail.
        serde_json::to_vec(&Envelope {
            v: NODE_VERSION,
            body,
        })
        .unwrap_or_default()
    }
}

/// Why a node message could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NodeMessageError {
    /// Another version than this build's: not read at all.
    #[error("a node message of version {0}; this node speaks version {NODE_VERSION} only")]
    Version(u16),
    /// Not a node message of this version.
    #[error("a node message that does not parse: {0}")]
    Malformed(String),
}

/// Reads a node message: its version first, then (only when it is this
/// build's) its body.
pub fn decode<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Result<T, NodeMessageError> {
    let version = read_version(bytes)?;
    if version != NODE_VERSION {
        return Err(NodeMessageError::Version(version));
    }
    serde_json::from_slice::<Envelope<T>>(bytes)
        .map(|e| e.body)
        .map_err(|e| NodeMessageError::Malformed(e.to_string()))
}

/// The version of a node message, read without its body.
pub fn read_version(bytes: &[u8]) -> Result<u16, NodeMessageError> {
    #[derive(Deserialize)]
    struct Version {
        v: u16,
    }
    serde_json::from_slice::<Version>(bytes)
        .map(|v| v.v)
        .map_err(|e| NodeMessageError::Malformed(e.to_string()))
}

/// To the node that owns a room.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ToOwner {
    /// A request of a caller whose socket another node holds; answered on
    /// the NATS reply subject with a [`CallAnswer`].
    Call {
        /// The room's code.
        room: String,
        /// The lease the caller found the room under: an owner whose lease
        /// is another refuses (the room moved).
        epoch: u64,
        /// Who asks.
        caller: WireCaller,
        /// What.
        request: WireRequest,
    },
}

/// A caller, as [`splendor_room`'s `Caller`](crate) is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireCaller {
    /// The session's id (hexadecimal UUID).
    pub session: String,
    /// The connection's id: its node in the top 16 bits.
    pub conn: u64,
    /// The request id its answer echoes.
    pub request: Option<RequestId>,
}

/// A room request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "r", rename_all = "snake_case")]
pub enum WireRequest {
    /// Join (the caller's connection is on the caller's node).
    Join {
        /// The display name.
        name: String,
        /// A program plays for the session (issue 24).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        program: bool,
        /// Player or spectator.
        role: Role,
        /// Full states after every action.
        verbose: bool,
        /// The connection's claim on its seat when it follows a room that
        /// moved (issue 44); absent for a join the player made. Absent
        /// from a node of before: read as a join the player made.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        claim: Option<u64>,
    },
    /// Leave with a goodbye.
    Leave,
    /// Leave giving the seat up, before the start.
    GiveUp,
    /// The connection ended.
    Detach,
    /// Start the game.
    Start {
        /// The seat order.
        order: SeatOrder,
    },
    /// An action.
    Act {
        /// The action.
        action: WireAction,
        /// Apply only at this version.
        expect_version: Option<u64>,
    },
    /// Everything again.
    Sync,
    /// R13.1: the seated caller resigns.
    Resign,
    /// A practice hint for the seated caller (issue 26).
    Hint,
    /// Seat a built-in bot.
    AddBot {
        /// Its level's name.
        level: String,
    },
    /// Free a bot's seat.
    RemoveBot {
        /// The seat.
        seat: u8,
    },
    /// Leave a finished room.
    LeaveFinished,
    /// Chat.
    Chat {
        /// The text.
        text: String,
    },
    /// The host mutes or unmutes every spectator's chat.
    MuteSpectators {
        /// Mute or not.
        muted: bool,
    },
    /// The operators close the room (a game in play ends first).
    Close {
        /// Why, as the operators wrote it.
        reason: String,
    },
    /// The operators remove a session from the room.
    Remove {
        /// The session, as 32 hexadecimal digits.
        session: String,
        /// Why, as the operators wrote it.
        reason: String,
    },
    /// Mute or unmute a seat's chat.
    Mute {
        /// The seat.
        seat: u8,
        /// Mute or not.
        muted: bool,
    },
    /// Offer or accept a rematch.
    Rematch,
    /// The rematch room is made (or not).
    RematchReady {
        /// Its code.
        room: Option<String>,
    },
    /// Start a quick-play room.
    StartMatch,
    /// May the caller invite this session (a simple UUID)?
    Invite {
        /// The invitee.
        to: String,
    },
    /// Whom a seat or a chat line names (issue 22).
    Whois {
        /// A seat, or
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<u8>,
        /// a chat line.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        line: Option<u64>,
    },
    /// The sessions the caller blocked (issue 22), as 32 hex digits each.
    Blocks {
        /// The sessions blocked.
        blocked: Vec<String>,
    },
}

/// The answer to a [`ToOwner::Call`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "a", rename_all = "snake_case")]
pub enum CallAnswer {
    /// A join succeeded.
    Joined {
        /// Player or spectator.
        role: Role,
        /// The seat, for a player.
        seat: Option<u8>,
        /// The claim the connection holds its place by (issue 44).
        #[serde(default)]
        claim: u64,
    },
    /// Any other request succeeded.
    Done,
    /// An invitation may go ahead: what the room offers (issue 24).
    Invitable {
        /// Seats, players, rated, clock.
        terms: splendor_protocol::social::RoomTerms,
    },
    /// The person a `Whois` named (issue 22).
    Person {
        /// Their session, as 32 hexadecimal digits.
        session: String,
        /// Their name in the room.
        name: String,
        /// A program plays for the session.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        program: bool,
        /// Their seat, if seated.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<u8>,
        /// The line named, when a line was.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        line: Option<splendor_protocol::ChatInfo>,
        /// The chat lines the room keeps.
        chat: Vec<splendor_protocol::ChatInfo>,
        /// Each line's author's session, as 32 hexadecimal digits.
        authors: Vec<String>,
        /// The room's game, as 32 hexadecimal digits.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<String>,
    },
    /// It failed; nothing changed.
    Refused {
        /// Why, as the room says it.
        error: WireError,
    },
    /// A rematch agreed by every player: what the new room is made of
    /// (the caller's node makes it).
    Rematch {
        /// The seats apart from the caller's, in order.
        others: Vec<WireMember>,
        /// The room's clock, if it has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<WireClock>,
        /// Whether the room is listed.
        listed: bool,
        /// Whether its game counts for the ratings.
        rated: bool,
    },
    /// This answer cannot cross nodes (an answer a newer node added):
    /// the caller refuses the request as an internal error.
    Unsupported {
        /// What.
        what: String,
    },
}

/// A seat of a rematch plan: a person, or a built-in bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireMember {
    /// The person's session (or the bot's own id), as 32 hex digits.
    pub session: String,
    /// The name shown.
    pub name: String,
    /// A bot's level (`random`, `greedy`, `strong`); none for a person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
    /// A program plays for the session (issue 24).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub program: bool,
}

/// A room's turn clock (R12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireClock {
    /// Each player's bank, in milliseconds.
    pub bank_ms: u64,
    /// Added at the end of each turn, in milliseconds.
    pub increment_ms: u64,
    /// R12.3: the stand-in plays for the away.
    pub stand_in_when_away: bool,
    /// A turn-based room (R12.5): `bank_ms` is the time per move, and
    /// this what a passed deadline means.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_move: Option<splendor_protocol::OnDeadline>,
}

/// A room's refusal: its variant and what it carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireError {
    /// The variant's name (`room_full`, `rule`, ...).
    pub kind: String,
    /// Its text payload (a code, a level), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Its numbers (a seat, versions, a count), if any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub numbers: Vec<u64>,
    /// Its words, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub words: Option<WireWords>,
    /// A rule error's code and rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<(String, String)>,
}

/// Words (an id and arguments), as `splendor_words::Words` are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireWords {
    /// The message id.
    pub id: String,
    /// Its arguments, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<(String, WireArg)>,
}

/// One argument of [`WireWords`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WireArg {
    /// A number.
    Number(i64),
    /// A colour word.
    Color(String),
    /// Counts of colours.
    Tokens(Vec<(u32, String)>),
    /// Verbatim text.
    Text(String),
    /// Nested words.
    Words(Box<WireWords>),
}

/// To every node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ToAll {
    /// A node took a room over (its owner died, paused past its lease or
    /// was cut off): the connections in it find it where it lives now.
    Moved {
        /// The room's code.
        room: String,
        /// Its owner now.
        node: u16,
        /// The owner's lease.
        epoch: u64,
    },
    /// The owner of a room is back on NATS after a cut: what it sent the
    /// room's connections on other nodes meanwhile was lost, so those
    /// connections join the room again (same owner, same lease).
    Reattach {
        /// The room's code.
        room: String,
        /// Its owner.
        node: u16,
        /// The owner's lease.
        epoch: u64,
    },
    /// A stopping node gave its rooms up (a rolling restart): the other
    /// nodes look for games to take over now rather than at their next
    /// round.
    HandedOff {
        /// The node that stopped.
        node: u16,
        /// How many rooms it gave up.
        rooms: u32,
    },
    /// A session's game was formed (quick play), or the rematch it accepted
    /// was made, on another node than the one holding its waiting
    /// connection: that node seats the connection in `room`.
    Matched {
        /// The session, as 32 hex digits.
        session: String,
        /// The new room's code.
        room: String,
        /// How many play.
        players: u8,
        /// For a rematch: the finished room the connection leaves.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rematch_of: Option<String>,
    },
    /// The operators made a sanction (a ban): every node closes its own
    /// connections that it names (new `hello`s find it in the database).
    Sanctioned(WireSanction),
    /// A message for a session's open connections, wherever they are
    /// (issue 24: `challenge`, `challenge_declined`): the node holding one
    /// sends it as it is. A message with words in it never crosses this
    /// way (it is worded by the connection's node).
    Tell {
        /// The node that tells (it sent to its own connections already).
        from: u16,
        /// The session, as 32 hex digits.
        session: String,
        /// The server message's JSON text.
        message: String,
    },
}

/// A sanction as it crosses between nodes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireSanction {
    /// Its number in the database.
    pub id: i64,
    /// `ban_session`, `ban_name` or `ban_address`; or `revoked_device`
    /// (issue 23: not a sanction, but told the same way), whose `value` is
    /// the session's id, `:`, the revoked token's device id.
    pub kind: String,
    /// Whom it names.
    pub value: String,
    /// When it ends (Unix ms), if it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_ms: Option<i64>,
    /// Why, as the operators said it.
    pub reason: String,
}

/// To the node that holds some connections' sockets: what their rooms send
/// them, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ToHolder {
    /// Messages for connections of this node, in the order sent.
    Deliver {
        /// The items.
        items: Vec<Delivery>,
    },
}

/// One thing for one connection.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "d", rename_all = "snake_case")]
pub enum Delivery {
    /// A server message, as the JSON text the client gets.
    Frame {
        /// The connection.
        conn: u64,
        /// The message.
        json: String,
    },
    /// `room_closed`, worded by the holder in the connection's language.
    RoomClosed {
        /// The connection.
        conn: u64,
        /// The room.
        room: String,
        /// The lease the room ran under.
        epoch: u64,
        /// Why.
        reason: WireWords,
        /// The room goes on without this connection (removed, or its seat
        /// taken from another device, issue 23): not a close of the room.
        #[serde(default)]
        room_goes_on: bool,
    },
    /// The room will send the connection nothing more (it left, or the
    /// room let it go): the holder forgets it was in that room.
    Released {
        /// The connection.
        conn: u64,
        /// The room.
        room: String,
        /// The lease the room ran under.
        epoch: u64,
    },
    /// Close the connection (the room asks: it was replaced).
    Close {
        /// The connection.
        conn: u64,
        /// The WebSocket close code the reason maps to.
        code: u16,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_round_trips_in_its_version() {
        let call = ToOwner::Call {
            room: "KHPQZ".into(),
            epoch: 3,
            caller: WireCaller {
                session: "00ff".into(),
                conn: (2 << 48) | 7,
                request: Some(RequestId::String("m1".into())),
            },
            request: WireRequest::Act {
                action: WireAction::Pass,
                expect_version: Some(4),
            },
        };
        let bytes = Envelope::encode(call.clone());
        assert_eq!(read_version(&bytes), Ok(NODE_VERSION));
        assert_eq!(decode::<ToOwner>(&bytes), Ok(call));
    }

    #[test]
    fn another_version_is_refused_unread() {
        let future = br#"{"v":2,"t":"call","whatever":"new shape"}"#;
        assert_eq!(decode::<ToOwner>(future), Err(NodeMessageError::Version(2)));
        let garbage = br#"{"t":"call"}"#;
        assert!(matches!(
            decode::<ToOwner>(garbage),
            Err(NodeMessageError::Malformed(_))
        ));
        let wrong = br#"{"v":1,"t":"dance"}"#;
        assert!(matches!(
            decode::<ToOwner>(wrong),
            Err(NodeMessageError::Malformed(_))
        ));
    }
}
