//! The in-process API of a room: a cloneable [`RoomHandle`] over a bounded
//! command channel, each call with a `oneshot` for its answer.

use splendor_protocol::Role;
use splendor_room::{Joined, RoomProbe};
use tokio::sync::{mpsc, oneshot};

use super::effect::Answer;
use super::input::{Caller, Request};
use crate::code::RoomCode;
use crate::conn::Connection;
use crate::error::LobbyError;

/// What a room task is asked to do.
pub(crate) enum Command {
    /// A request in its envelope.
    Call {
        caller: Caller,
        request: Request,
        /// The caller's connection, for a join: the room sends to it from
        /// then on.
        conn: Option<Connection>,
        /// Where the answer goes; `None` when nobody waits for it.
        reply: Option<oneshot::Sender<Result<Answer, LobbyError>>>,
    },
    /// A summary, answered after every command queued before it.
    Probe { reply: oneshot::Sender<RoomProbe> },
    /// The room's lease is lost: it closes (issue 21).
    LeaseLost,
}

/// A cloneable handle to a room task.
#[derive(Clone, Debug)]
pub struct RoomHandle {
    code: RoomCode,
    commands: mpsc::Sender<Command>,
}

impl RoomHandle {
    pub(crate) fn new(code: RoomCode, commands: mpsc::Sender<Command>) -> Self {
        RoomHandle { code, commands }
    }

    /// The room's code.
    pub fn code(&self) -> RoomCode {
        self.code
    }

    /// True once the room has closed; every request then fails with
    /// [`LobbyError::RoomClosed`].
    pub fn is_closed(&self) -> bool {
        self.commands.is_closed()
    }

    /// Resolves once the room has closed.
    pub async fn closed(&self) {
        self.commands.closed().await;
    }

    /// Makes a request and waits for its answer. A join must go through
    /// [`RoomHandle::join`], which brings the connection along.
    pub async fn call(&self, caller: Caller, request: Request) -> Result<Answer, LobbyError> {
        self.send_call(caller, request, None).await
    }

    /// Joins as `role` on `conn`; a session that already holds a seat gets
    /// it back with `conn` as its connection (reconnect), whatever `role`
    /// says. `verbose`: full states after every action, not lean ones.
    pub async fn join(
        &self,
        caller: Caller,
        (name, role, verbose): (String, Role, bool),
        conn: Connection,
    ) -> Result<Joined, LobbyError> {
        let request = Request::Join {
            name,
            role,
            verbose,
        };
        match self.send_call(caller, request, Some(conn)).await? {
            Answer::Joined(joined) => Ok(joined),
            Answer::Done | Answer::Rematch(_) => {
                Err(LobbyError::internal("a join answered without a seat"))
            }
        }
    }

    /// Tells the room that the caller's connection ended. Never fails: a
    /// closed room has nothing to detach. Does not wait for the room.
    pub async fn detach(&self, caller: Caller) {
        let _ = self
            .commands
            .send(Command::Call {
                caller,
                request: Request::Detach,
                conn: None,
                reply: None,
            })
            .await;
    }

    /// Tells the room its lease in the room directory is lost: it closes
    /// at once and writes nothing more (a room already closed is left as
    /// it is).
    pub async fn lease_lost(&self) {
        let _ = self.commands.send(Command::LeaseLost).await;
    }

    /// A summary of the room, after every command queued before this one.
    pub async fn probe(&self) -> Result<RoomProbe, LobbyError> {
        let (reply, rx) = oneshot::channel();
        self.commands
            .send(Command::Probe { reply })
            .await
            .map_err(|_| LobbyError::RoomClosed)?;
        rx.await.map_err(|_| LobbyError::RoomClosed)
    }

    async fn send_call(
        &self,
        caller: Caller,
        request: Request,
        conn: Option<Connection>,
    ) -> Result<Answer, LobbyError> {
        let (tx, rx) = oneshot::channel();
        self.commands
            .send(Command::Call {
                caller,
                request,
                conn,
                reply: Some(tx),
            })
            .await
            .map_err(|_| LobbyError::RoomClosed)?;
        rx.await.map_err(|_| LobbyError::RoomClosed)?
    }
}
