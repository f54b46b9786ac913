//! The connections waiting for a game that a step spanning rooms makes for
//! their session: quick play's formed games (issue 13) and agreed
//! rematches. The queues themselves are the database's; this is the part
//! that lives in a process: which connection of this node waits for which
//! session, so that the news reaches it at once. With several nodes
//! (issue 21) a session waiting on another node is told through
//! [`RemoteWaiters`] (the cluster).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use tokio::sync::mpsc;

use crate::code::RoomCode;
use crate::conn::ConnId;
use crate::session::{BoxFuture, SessionId};

/// A game made for a waiting session, as its connection learns of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Match {
    /// The room the session is seated in.
    pub room: RoomCode,
    /// How many play.
    pub players: u8,
    /// For a rematch: the finished room the connection is moved out of
    /// (it gets `left`, then the new room's `room` and `state`; no
    /// `matched`, which is quick play's).
    pub rematch_of: Option<RoomCode>,
}

/// Waiting connections on other nodes, as the cluster reaches them.
pub trait RemoteWaiters: Send + Sync + 'static {
    /// Tells every node that `session`'s game is `found`; the node that
    /// holds the session's waiting connection passes it on
    /// ([`Waiters::notify_here`]).
    fn announce(&self, session: SessionId, found: Match) -> BoxFuture<'_, ()>;
}

type Waiting = HashMap<SessionId, (ConnId, mpsc::Sender<Match>)>;

/// The connections of this node waiting for their sessions' games (queued,
/// or having accepted a rematch).
#[derive(Default)]
pub struct Waiters {
    map: Mutex<Waiting>,
    /// In a cluster: the other nodes, told of a game whose session waits
    /// on none of this node's connections.
    remote: OnceLock<Arc<dyn RemoteWaiters>>,
}

impl Waiters {
    fn lock(&self) -> MutexGuard<'_, Waiting> {
        // Every change is one insert or remove: a poisoned map is consistent.
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// `conn` waits for `session`'s game from now on (replacing an older
    /// connection of the same session).
    pub fn watch(&self, session: SessionId, conn: ConnId) -> mpsc::Receiver<Match> {
        let (tx, rx) = mpsc::channel(1);
        self.lock().insert(session, (conn, tx));
        rx
    }

    /// `conn` no longer waits (it ended, or its session left the queue).
    pub fn forget(&self, session: SessionId, conn: ConnId) {
        let mut map = self.lock();
        if map.get(&session).is_some_and(|(c, _)| *c == conn) {
            map.remove(&session);
        }
    }

    /// Tells the other nodes of games whose sessions wait there.
    pub fn set_remote(&self, remote: Arc<dyn RemoteWaiters>) {
        let _ = self.remote.set(remote);
    }

    /// Tells `session`'s waiting connection of its game, if it is one of
    /// this node's; true if it was.
    pub fn notify_here(&self, session: SessionId, found: Match) -> bool {
        let Some((_, tx)) = self.lock().remove(&session) else {
            return false;
        };
        // A full or closed channel: the connection is going; the session
        // finds the room when it resumes.
        let _ = tx.try_send(found);
        true
    }

    /// Tells `session`'s waiting connection of its game: here, or in a
    /// cluster through the other nodes.
    pub async fn notify(&self, session: SessionId, found: Match) {
        if self.notify_here(session, found) {
            return;
        }
        if let Some(remote) = self.remote.get() {
            remote.announce(session, found).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code() -> RoomCode {
        RoomCode::parse("ABCDE").expect("a valid code")
    }

    #[tokio::test]
    async fn the_newest_connection_of_a_session_gets_its_game_once() {
        let waiters = Waiters::default();
        let session = SessionId(uuid::Uuid::new_v4());
        let mut old = waiters.watch(session, ConnId(1));
        let mut new = waiters.watch(session, ConnId(2));
        // The replaced connection's end does not unregister the newer one.
        waiters.forget(session, ConnId(1));
        let found = Match {
            room: code(),
            players: 2,
            rematch_of: None,
        };
        assert!(waiters.notify_here(session, found));
        assert_eq!(new.try_recv().ok(), Some(found));
        assert!(old.try_recv().is_err());
        // Told once: nobody waits any more.
        assert!(!waiters.notify_here(session, found));
    }
}
