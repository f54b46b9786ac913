//! What goes into a room core: plain data, no channels and no connections
//! (the payload a room on another node would receive).
//!
//! Every request comes in one envelope ([`Caller`] plus [`Request`]), so a
//! new feature is one new [`Request`] variant; what the driver did or
//! learned comes back as a [`DriverEvent`].

use splendor_protocol::{RequestId, Role, SeatOrder};
use splendor_rules::{Action, Seat};

use crate::conn::ConnId;
use crate::session::SessionId;
use crate::write::PersistError;

/// Who makes a request: a session, on one of its connections, with the
/// request id its answer echoes. The gateway fills it from what the
/// connection proved (never from what a message names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Caller {
    /// The session the connection proved with its token.
    pub session: SessionId,
    /// The connection the request arrived on; answers and updates go there.
    pub conn: ConnId,
    /// The client's request id, echoed by the message that answers it.
    pub request: Option<RequestId>,
}

/// What a caller asks of a room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Join as `role` under `name`; a session that holds a seat gets it
    /// back on this connection (a reconnect), whatever `role` says. The
    /// driver takes the connection itself beside the request.
    Join {
        /// The session's display name.
        name: String,
        /// A program plays for the session (issue 24).
        program: bool,
        /// Player or spectator.
        role: Role,
        /// Full states after every action, not lean ones (protocol 2).
        verbose: bool,
        /// The connection's claim on a seat (issue 44): `None` for a join
        /// the player made (the room's driver makes it the epoch of the
        /// room's lease now), or the claim of a connection that follows
        /// the room after it moved (`Joined::claim`, from its last join).
        claim: Option<u64>,
    },
    /// Leave the room with a goodbye (`left`). A player of a running game
    /// keeps the seat and may come back, and so does one of a turn-based
    /// room before its start (R12.5).
    Leave,
    /// Leave the room giving the seat up (`leave` with `give_up`): before
    /// the start only (a game in progress is given up by resigning, R13).
    GiveUp,
    /// The connection ended: its seat (if any) stays, disconnected. Has no
    /// answer.
    Detach,
    /// The host starts the game.
    Start {
        /// Random (R2.4, from the seed) or join order.
        order: SeatOrder,
    },
    /// A seated player's action, optionally only on a given state version.
    Act {
        /// The action, already parsed from its wire form.
        action: Action,
        /// Apply only if the state is at this version.
        expect_version: Option<u64>,
    },
    /// R13.1: the seated player resigns, whoever is to move; the game
    /// ends at once or the stand-in plays the seat to the end (R13.2).
    Resign,
    /// A practice hint for the seated player to move (issue 26): unrated
    /// games against built-in bots only. Answered `Done` at once; the
    /// hint itself follows as a `hint` message.
    Hint,
    /// The operators remove the session `session` from the room, for
    /// `reason` (shown to it in its language): a seat in a running game
    /// resigns (R13; the stand-in plays it to the end), a seat before the
    /// start is freed, a spectator goes; its connection is told and
    /// released, and it may not come back.
    Remove {
        /// Whom.
        session: SessionId,
        /// Why, as the operators wrote it.
        reason: String,
    },
    /// The operators close the room for `reason` (shown to everyone in
    /// it, in their language): a game in play ends first, stored with the
    /// standings it stopped at, no winner, unrated (issue 22).
    Close {
        /// Why, as the operators wrote it.
        reason: String,
    },
    /// The host mutes (or lets again) the chat of every spectator.
    MuteSpectators {
        /// Mute or not.
        muted: bool,
    },
    /// Send this connection the room, the state and the result again.
    Sync,
    /// The host seats a built-in bot in the first free seat.
    AddBot {
        /// The level's name, as sent (`random`, `greedy`, `strong`).
        level: String,
    },
    /// The host frees the seat a built-in bot holds.
    RemoveBot {
        /// The seat, as the `room` message numbers it.
        seat: u8,
    },
    /// Leave the room if its game is over (a finished room gives way to
    /// the room the caller joins or creates next); otherwise
    /// `already_in_room`.
    LeaveFinished,
    /// Say something to everyone in the room.
    Chat {
        /// The text, as sent.
        text: String,
    },
    /// The host mutes or unmutes the chat of the person in a seat.
    Mute {
        /// The seat, as the `room` message numbers it.
        seat: u8,
        /// Mute (true) or let chat again (false).
        muted: bool,
    },
    /// Offer or accept a rematch, after the end.
    Rematch,
    /// The gateway made the rematch room (or could not: `None`).
    RematchReady {
        /// The new room.
        room: Option<crate::code::RoomCode>,
    },
    /// May the caller invite the session `to` here (issue 25)? A seated
    /// player, before the start, with a seat free, and `to` not seated:
    /// answered `Done`, nothing changes (the gateway keeps the invitation
    /// in the store and tells the invitee).
    Invite {
        /// The invitee.
        to: SessionId,
    },
    /// The sessions the caller's session blocked (issue 22): their chat
    /// never reaches it in this room. The gateway says it before a join
    /// (so that `chat_history` leaves them out) and when they change.
    /// Answered `Done`.
    Blocks {
        /// The sessions blocked.
        blocked: Vec<SessionId>,
    },
    /// Whom a `report` or a `block` names here (issue 22): answered
    /// [`Answer::Person`](super::effect::Answer::Person); nothing changes.
    Whois {
        /// A seat or a chat line.
        whom: crate::whois::Whom,
    },
    /// The gateway starts a quick-play room the queue filled (seat order
    /// drawn from the seed). Refused in any other room.
    StartMatch,
}

/// Tells a request's answer to its caller: the driver keeps the reply
/// channel under this number and the core answers with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ticket(pub u64);

/// Names a durable write the core asked for, so that its outcome finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WriteId(pub u64);

/// What the driver did or learned, fed back into the core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DriverEvent {
    /// A [`Write`](super::effect::Write) other than a log load finished.
    Written {
        /// The write's id.
        id: WriteId,
        /// Whether it is durable.
        outcome: Result<(), PersistError>,
    },
    /// A [`Write::LoadLog`](super::effect::Write::LoadLog) finished.
    LogLoaded {
        /// The write's id.
        id: WriteId,
        /// The game's whole stored log, in order.
        log: Result<Vec<(Seat, Action)>, PersistError>,
    },
    /// A connection could not take a message (its queue was full, and it
    /// was closed as too slow, or it is gone): the room detaches it.
    Undeliverable {
        /// The connection.
        conn: ConnId,
    },
    /// A bot's move for the [`Effect::Think`](super::effect::Effect::Think)
    /// with this seat and version (an error if its thinking failed).
    BotMoved {
        /// The seat the bot plays.
        seat: Seat,
        /// The state version it thought about; a stale answer is dropped.
        version: u64,
        /// The move, or why there is none.
        result: Result<Action, String>,
    },
    /// The answer to an [`Effect::Think`](super::effect::Effect::Think)
    /// that asked for a hint.
    HintThought {
        /// The seat of the asking player.
        seat: Seat,
        /// The state version it thought about; a stale answer is dropped.
        version: u64,
        /// The move the strong player suggests, or why there is none.
        result: Result<Action, String>,
        /// Who asked.
        to: HintFor,
    },
    /// Every handle to the room is gone: the server is shutting down.
    HandlesGone,
    /// The room's lease in the room directory is lost (another node took
    /// the room over, issue 21): the room closes at once, writing nothing,
    /// and its people find it where it lives now.
    LeaseLost,
    /// This node is stopping and hands the room to another node (issue 21,
    /// a rolling restart): the room closes as it is, its lease is given up
    /// and another node restores a game in progress from its log at once.
    /// A game over whose result is not stored yet stores it first.
    HandOff,
}

/// Who asked for a hint, and how its answer is addressed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HintFor {
    /// The asking session.
    pub session: crate::session::SessionId,
    /// Its connection.
    pub conn: ConnId,
    /// The request's id, echoed by the `hint` message.
    pub request: Option<splendor_protocol::RequestId>,
}
