//! Presence: which connection currently speaks for a session, and which
//! room the session is in, so that a resumed session finds its seat again.
//!
//! A session has at most one live connection: claiming it for a new one
//! closes the old one as replaced.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use splendor_protocol::Role;

use crate::code::RoomCode;
use crate::conn::{CloseReason, ConnId, Connection};
use crate::session::SessionId;

/// The room a session is in, and as what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoomSeat {
    /// The room.
    pub code: RoomCode,
    /// Player or spectator.
    pub role: Role,
}

#[derive(Default)]
struct Entry {
    conn: Option<Connection>,
    room: Option<RoomSeat>,
    /// Rooms whose running game the session left while keeping its seat
    /// (`leave` keeps a player's seat once the game started): it is still
    /// a player there, though no longer "in" the room.
    held: Vec<RoomCode>,
    /// Running games in which the session resigned (R13.1): leaving one
    /// holds no seat, the stand-in plays it to the end.
    resigned: Vec<RoomCode>,
}

impl Entry {
    /// Whether the entry says nothing and can go.
    fn is_empty(&self) -> bool {
        self.conn.is_none()
            && self.room.is_none()
            && self.held.is_empty()
            && self.resigned.is_empty()
    }
}

/// The presence map of this server process.
#[derive(Default)]
pub struct Presence {
    sessions: Mutex<HashMap<SessionId, Entry>>,
    /// One turn at a time per session for claiming it and joining its room
    /// again ([`Presence::turn`]).
    turns: Mutex<HashMap<SessionId, std::sync::Arc<tokio::sync::Mutex<()>>>>,
}

/// A session's turn to claim its connection and rejoin its room; the next
/// claimant of the session waits until it is dropped.
pub struct ClaimTurn {
    _guard: tokio::sync::OwnedMutexGuard<()>,
}

impl Presence {
    fn lock(&self) -> MutexGuard<'_, HashMap<SessionId, Entry>> {
        // Every change is a single field assignment, so a poisoned map is consistent.
        self.sessions
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Waits for the session's turn to claim a connection and rejoin its
    /// room, and holds it until the returned turn is dropped. Claims and
    /// rejoins of one session then happen in the same order: without
    /// this, ten resumes of one token at once could leave the room holding
    /// an earlier claimant's connection (already closed as replaced) and
    /// closing the last one's, so that none stayed attached (issue 22).
    pub async fn turn(&self, session: SessionId) -> ClaimTurn {
        let gate = {
            let mut turns = self.turns.lock().unwrap_or_else(|p| p.into_inner());
            // Forget the gates nobody holds or waits for.
            turns.retain(|_, gate| std::sync::Arc::strong_count(gate) > 1);
            turns.entry(session).or_default().clone()
        };
        ClaimTurn {
            _guard: gate.lock_owned().await,
        }
    }

    /// Makes `conn` the session's connection, closing the previous one as
    /// replaced. Returns the room the session is in, to rejoin.
    pub fn claim(&self, session: SessionId, conn: &Connection) -> Option<RoomSeat> {
        let mut map = self.lock();
        let entry = map.entry(session).or_default();
        if let Some(old) = entry.conn.replace(conn.clone())
            && old.id() != conn.id()
        {
            old.close(CloseReason::Replaced);
        }
        entry.room
    }

    /// The sessions that have a live connection now, are in a room
    /// (seated while away, waiting for a game to start), or hold a seat
    /// they left (a turn-based room waiting for players is in no store
    /// yet: its session must not be pruned as unused).
    pub fn present_sessions(&self) -> Vec<SessionId> {
        self.lock()
            .iter()
            .filter(|(_, e)| e.conn.is_some() || e.room.is_some() || !e.held.is_empty())
            .map(|(&id, _)| id)
            .collect()
    }

    /// Records the room the session is in (`None`: in no room).
    pub fn set_room(&self, session: SessionId, room: Option<RoomSeat>) {
        let mut map = self.lock();
        match room {
            Some(room) => map.entry(session).or_default().room = Some(room),
            None => {
                if let Some(entry) = map.get_mut(&session) {
                    entry.room = None;
                    if entry.is_empty() {
                        map.remove(&session);
                    }
                }
            }
        }
    }

    /// Moves the session from room `from` to `to`, only if it is still in
    /// `from` (or in no room): a session that went elsewhere meanwhile
    /// stays there.
    pub fn move_room(&self, session: SessionId, from: RoomCode, to: RoomSeat) {
        let mut map = self.lock();
        let entry = map.entry(session).or_default();
        if entry.room.is_none_or(|r| r.code == from) {
            entry.room = Some(to);
        }
    }

    /// Forgets that the session is in room `code`, or holds a seat there
    /// (the room closed).
    pub fn forget_room(&self, session: SessionId, code: RoomCode) {
        // Checked and changed under one lock: a session that joins another
        // room meanwhile keeps that room.
        let mut map = self.lock();
        if let Some(entry) = map.get_mut(&session) {
            if entry.room.is_some_and(|r| r.code == code) {
                entry.room = None;
            }
            entry.held.retain(|&held| held != code);
            if entry.is_empty() {
                map.remove(&session);
            }
        }
    }

    /// Records that the session left room `code` but keeps its seat in the
    /// game running there.
    pub fn hold(&self, session: SessionId, code: RoomCode) {
        let mut map = self.lock();
        let entry = map.entry(session).or_default();
        if !entry.held.contains(&code) {
            entry.held.push(code);
        }
    }

    /// The rooms where the session left a seat in a running game (some may
    /// have finished or closed since: [`crate::Lobby::held_seat`] checks).
    pub fn held(&self, session: SessionId) -> Vec<RoomCode> {
        self.lock()
            .get(&session)
            .map(|e| e.held.clone())
            .unwrap_or_default()
    }

    /// Records that the session resigned the game in room `code` (R13.1):
    /// it holds no seat there any more, even once it leaves.
    pub fn resign(&self, session: SessionId, code: RoomCode) {
        let mut map = self.lock();
        let entry = map.entry(session).or_default();
        entry.held.retain(|&held| held != code);
        if !entry.resigned.contains(&code) {
            entry.resigned.push(code);
        }
    }

    /// Whether the session resigned the game in room `code`; forgets it
    /// (asked once, when the session leaves that room).
    pub fn take_resigned(&self, session: SessionId, code: RoomCode) -> bool {
        let mut map = self.lock();
        let Some(entry) = map.get_mut(&session) else {
            return false;
        };
        let before = entry.resigned.len();
        entry.resigned.retain(|&r| r != code);
        let was = entry.resigned.len() != before;
        if entry.is_empty() {
            map.remove(&session);
        }
        was
    }

    /// Forgets a held seat whose game is over.
    pub fn unhold(&self, session: SessionId, code: RoomCode) {
        let mut map = self.lock();
        if let Some(entry) = map.get_mut(&session) {
            entry.held.retain(|&held| held != code);
            if entry.is_empty() {
                map.remove(&session);
            }
        }
    }

    /// The connection `conn` ended. The room is remembered for a later resume.
    pub fn release(&self, session: SessionId, conn: ConnId) {
        let mut map = self.lock();
        if let Some(entry) = map.get_mut(&session)
            && entry.conn.as_ref().is_some_and(|c| c.id() == conn)
        {
            entry.conn = None;
            if entry.is_empty() {
                map.remove(&session);
            }
        }
    }

    /// The session's connection now, if it has one on this node.
    pub fn connection_of(&self, session: SessionId) -> Option<Connection> {
        self.lock().get(&session).and_then(|e| e.conn.clone())
    }

    /// The connections of the sessions that are in room `code` (a cluster
    /// tells them when it moved to another node).
    pub fn connections_in(&self, code: RoomCode) -> Vec<ConnId> {
        self.lock()
            .values()
            .filter(|e| e.room.is_some_and(|r| r.code == code))
            .filter_map(|e| e.conn.as_ref().map(Connection::id))
            .collect()
    }

    /// The room the session is in, if any (its seat may be waiting for
    /// this connection to take it: a quick-play game just formed).
    pub fn room_of(&self, session: SessionId) -> Option<RoomSeat> {
        self.lock().get(&session).and_then(|e| e.room)
    }

    /// Whether `conn` is the session's current connection.
    pub fn is_current(&self, session: SessionId, conn: ConnId) -> bool {
        self.lock()
            .get(&session)
            .and_then(|e| e.conn.as_ref())
            .is_some_and(|c| c.id() == conn)
    }

    /// The number of sessions with a connection or a room.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// True when no session has a connection or a room.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn claiming_replaces_the_old_connection_and_keeps_the_room() {
        let presence = Presence::default();
        let session = crate::session::random_session_id().unwrap();
        let (first, mut first_rx) = Connection::new(4);
        let (second, _second_rx) = Connection::new(4);
        assert_eq!(presence.claim(session, &first), None);
        let seat = RoomSeat {
            code: RoomCode::parse("ABCDE").unwrap(),
            role: Role::Player,
        };
        presence.set_room(session, Some(seat));
        assert_eq!(presence.claim(session, &second), Some(seat));
        assert_eq!(first_rx.closed().await, CloseReason::Replaced);
        assert!(presence.is_current(session, second.id()));
        // The replaced connection ending does not release the new one.
        presence.release(session, first.id());
        assert!(presence.is_current(session, second.id()));
        presence.release(session, second.id());
        assert!(!presence.is_current(session, second.id()));
        // The room is kept for a later resume, until it is forgotten.
        assert_eq!(presence.len(), 1);
        presence.forget_room(session, seat.code);
        assert!(presence.is_empty());
    }
}
