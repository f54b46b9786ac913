//! The API of a room: a cloneable [`RoomHandle`], over a bounded command
//! channel to the room's task on this node (each call with a `oneshot`
//! for its answer), or over [`RemoteRooms`] to the room's owner on another
//! node (issue 21).

use std::fmt;
use std::sync::Arc;

use splendor_protocol::Role;
use splendor_room::{Joined, RoomProbe};
use tokio::sync::{mpsc, oneshot};

use super::effect::Answer;
use super::input::{Caller, Request};
use crate::code::RoomCode;
use crate::conn::Connection;
use crate::directory::Lease;
use crate::error::RoomError;
use crate::session::BoxFuture;

/// Rooms on other nodes, as the cluster reaches them (issue 21).
pub trait RemoteRooms: Send + Sync + 'static {
    /// `request` of `caller` to the room `lease` names, on its owner. A
    /// join brings the caller's connection: the room's messages for it
    /// arrive there from then on.
    fn call(
        &self,
        lease: Lease,
        caller: Caller,
        request: Request,
        conn: Option<Connection>,
    ) -> BoxFuture<'_, Result<Answer, RoomError>>;

    /// Whether the room under `lease` is known to have closed.
    fn is_closed(&self, lease: Lease) -> bool;

    /// Resolves once the room under `lease` is known to have closed.
    fn closed(&self, lease: Lease) -> BoxFuture<'_, ()>;
}

/// A request in its envelope.
pub(crate) struct Call {
    pub(crate) caller: Caller,
    pub(crate) request: Request,
    /// The caller's connection, for a join: the room sends to it from
    /// then on.
    pub(crate) conn: Option<Connection>,
    /// Where the answer goes; `None` when nobody waits for it.
    pub(crate) reply: Option<oneshot::Sender<Result<Answer, RoomError>>>,
}

/// What a room task is asked to do.
pub(crate) enum Command {
    /// A request in its envelope; boxed, so that the room's queue, which
    /// allocates its slots 32 at a time, holds 16 bytes a slot rather than
    /// 128 (issue 20: 3 KB of every room).
    Call(Box<Call>),
    /// A summary, answered after every command queued before it.
    Probe { reply: oneshot::Sender<RoomProbe> },
    /// The room's lease is lost: it closes (issue 21).
    LeaseLost,
    /// This node is stopping: the room closes and its lease is given up
    /// for another node to take a game in progress over (issue 21).
    HandOff,
}

/// A cloneable handle to a room: its task on this node, or its owner on
/// another.
#[derive(Clone)]
pub struct RoomHandle {
    code: RoomCode,
    target: Target,
}

#[derive(Clone)]
enum Target {
    Local(mpsc::Sender<Command>),
    Remote {
        lease: Lease,
        rooms: Arc<dyn RemoteRooms>,
    },
}

impl fmt::Debug for RoomHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.target {
            Target::Local(_) => write!(f, "RoomHandle({})", self.code),
            Target::Remote { lease, .. } => {
                write!(f, "RoomHandle({} on node {})", self.code, lease.node)
            }
        }
    }
}

/// How a connection joins a room ([`RoomHandle::join`]).
#[derive(Clone, Debug)]
pub struct JoinAs {
    /// The session's display name.
    pub name: String,
    /// A program plays for the session (issue 24).
    pub program: bool,
    /// Player or spectator.
    pub role: Role,
    /// Full states after every action, not lean ones.
    pub verbose: bool,
    /// `None` for a join the player made, or the claim of the connection's
    /// last join when it follows a room that moved (issue 44: an older
    /// claim than the seat's newest is refused,
    /// `RoomError::SeatClaimedElsewhere`).
    pub claim: Option<u64>,
}

impl RoomHandle {
    pub(crate) fn new(code: RoomCode, commands: mpsc::Sender<Command>) -> Self {
        RoomHandle {
            code,
            target: Target::Local(commands),
        }
    }

    /// The room `lease` names, on its owner (another node).
    pub fn remote(lease: Lease, rooms: Arc<dyn RemoteRooms>) -> Self {
        RoomHandle {
            code: lease.code,
            target: Target::Remote { lease, rooms },
        }
    }

    /// The room's code.
    pub fn code(&self) -> RoomCode {
        self.code
    }

    /// The owner's lease, for a room on another node.
    pub fn remote_lease(&self) -> Option<Lease> {
        match &self.target {
            Target::Local(_) => None,
            Target::Remote { lease, .. } => Some(*lease),
        }
    }

    /// True once the room has closed; every request then fails with
    /// [`RoomError::RoomClosed`].
    pub fn is_closed(&self) -> bool {
        match &self.target {
            Target::Local(commands) => commands.is_closed(),
            Target::Remote { lease, rooms } => rooms.is_closed(*lease),
        }
    }

    /// Resolves once the room has closed.
    pub async fn closed(&self) {
        match &self.target {
            Target::Local(commands) => commands.closed().await,
            Target::Remote { lease, rooms } => rooms.closed(*lease).await,
        }
    }

    /// Makes a request and waits for its answer. A join must go through
    /// [`RoomHandle::join`], which brings the connection along.
    pub async fn call(&self, caller: Caller, request: Request) -> Result<Answer, RoomError> {
        self.send_call(caller, request, None).await
    }

    /// Joins as `join` says on `conn`; a session that already holds a seat
    /// gets it back with `conn` as its connection (reconnect), whatever
    /// the role asked.
    pub async fn join(
        &self,
        caller: Caller,
        join: JoinAs,
        conn: Connection,
    ) -> Result<Joined, RoomError> {
        let JoinAs {
            name,
            program,
            role,
            verbose,
            claim,
        } = join;
        let request = Request::Join {
            name,
            program,
            role,
            verbose,
            claim,
        };
        match self.send_call(caller, request, Some(conn)).await? {
            Answer::Joined(joined) => Ok(joined),
            Answer::Done | Answer::Rematch(_) | Answer::Invitable(_) | Answer::Person(_) => {
                Err(RoomError::internal("a join answered without a seat"))
            }
        }
    }

    /// Tells the room that the caller's connection ended. Never fails: a
    /// closed room has nothing to detach. Does not wait for the room.
    pub async fn detach(&self, caller: Caller) {
        match &self.target {
            Target::Local(commands) => {
                let _ = commands
                    .send(Command::Call(Box::new(Call {
                        caller,
                        request: Request::Detach,
                        conn: None,
                        reply: None,
                    })))
                    .await;
            }
            Target::Remote { lease, rooms } => {
                let (lease, rooms) = (*lease, rooms.clone());
                tokio::spawn(async move {
                    let _ = rooms.call(lease, caller, Request::Detach, None).await;
                });
            }
        }
    }

    /// Tells the room its lease in the room directory is lost: it closes
    /// at once and writes nothing more (a room already closed is left as
    /// it is). Only the owner's lobby does this.
    pub async fn lease_lost(&self) {
        if let Target::Local(commands) = &self.target {
            let _ = commands.send(Command::LeaseLost).await;
        }
    }

    /// This node is stopping: the room closes after the commands queued
    /// before this one, and its task gives its lease up as it ends (issue
    /// 21, a rolling restart). Only the owner's lobby does this.
    pub async fn hand_off(&self) {
        if let Target::Local(commands) = &self.target {
            let _ = commands.send(Command::HandOff).await;
        }
    }

    /// A summary of the room, after every command queued before this one
    /// (on this node only).
    pub async fn probe(&self) -> Result<RoomProbe, RoomError> {
        let Target::Local(commands) = &self.target else {
            return Err(RoomError::internal("a probe of a room on another node"));
        };
        let (reply, rx) = oneshot::channel();
        commands
            .send(Command::Probe { reply })
            .await
            .map_err(|_| RoomError::RoomClosed)?;
        rx.await.map_err(|_| RoomError::RoomClosed)
    }

    async fn send_call(
        &self,
        caller: Caller,
        request: Request,
        conn: Option<Connection>,
    ) -> Result<Answer, RoomError> {
        let commands = match &self.target {
            Target::Local(commands) => commands,
            Target::Remote { lease, rooms } => {
                return rooms.call(*lease, caller, request, conn).await;
            }
        };
        let (tx, rx) = oneshot::channel();
        commands
            .send(Command::Call(Box::new(Call {
                caller,
                request,
                conn,
                reply: Some(tx),
            })))
            .await
            .map_err(|_| RoomError::RoomClosed)?;
        rx.await.map_err(|_| RoomError::RoomClosed)?
    }
}
