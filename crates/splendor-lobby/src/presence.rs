//! Presence: which connection currently speaks for a session, and which
//! room the session is in, so that a resumed session finds its seat again.
//!
//! A session may be open on several devices at once (issue 23), each with
//! a token of its own: claiming the session for a new connection closes
//! the older connection of the same token only (replaced, 4001), so that
//! a phone and a laptop do not throw each other out. The seat in a room is
//! held by one connection at a time (the room tells the other it plays on
//! another device).

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

/// Which of a session's tokens a connection proved itself with: the first
/// eight bytes of the token's SHA-256 (a connection of the same device
/// replaces the older one; another device's does not).
pub type DeviceKey = u64;

/// The device key of a token (see [`DeviceKey`]); the store's public id
/// of the token (`splendor_store::device_id`) is the same eight bytes in hex.
pub fn device_key(token: &str) -> DeviceKey {
    let hash = crate::session::token_hash(token);
    let mut first = [0u8; 8];
    first.copy_from_slice(&hash[..8]);
    u64::from_be_bytes(first)
}

#[derive(Default)]
struct Entry {
    /// The session's open connections, one per device, the newest last.
    conns: Vec<(DeviceKey, Connection)>,
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
        self.conns.is_empty()
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

    /// Makes `conn` the session's newest connection, closing the previous
    /// one of the same `device` as replaced (other devices' stay open).
    /// Returns the room the session is in, to rejoin.
    pub fn claim(
        &self,
        session: SessionId,
        device: DeviceKey,
        conn: &Connection,
    ) -> Option<RoomSeat> {
        let mut map = self.lock();
        let entry = map.entry(session).or_default();
        entry.conns.retain(|(key, old)| {
            let same = *key == device || old.id() == conn.id();
            if same && old.id() != conn.id() {
                old.close(CloseReason::Replaced);
            }
            !same
        });
        entry.conns.push((device, conn.clone()));
        entry.room
    }

    /// Closes the session's open connections of `device` (its token was
    /// revoked) with `reason`; how many there were.
    pub fn close_device(
        &self,
        session: SessionId,
        device: DeviceKey,
        reason: CloseReason,
    ) -> usize {
        let map = self.lock();
        let Some(entry) = map.get(&session) else {
            return 0;
        };
        let mut closed = 0;
        for (_, conn) in entry.conns.iter().filter(|(key, _)| *key == device) {
            conn.close(reason);
            closed += 1;
        }
        closed
    }

    /// The devices the session has a connection of on this node.
    pub fn devices_of(&self, session: SessionId) -> Vec<DeviceKey> {
        self.lock()
            .get(&session)
            .map(|e| e.conns.iter().map(|(key, _)| *key).collect())
            .unwrap_or_default()
    }

    /// The sessions that have a live connection now, are in a room
    /// (seated while away, waiting for a game to start), or hold a seat
    /// they left (a turn-based room waiting for players is in no store
    /// yet: its session must not be pruned as unused).
    pub fn present_sessions(&self) -> Vec<SessionId> {
        self.lock()
            .iter()
            .filter(|(_, e)| !e.conns.is_empty() || e.room.is_some() || !e.held.is_empty())
            .map(|(&id, _)| id)
            .collect()
    }

    /// The sessions with an open connection here (issue 50: what tells
    /// their friends they are online).
    pub fn connected_sessions(&self) -> Vec<SessionId> {
        self.lock()
            .iter()
            .filter(|(_, e)| !e.conns.is_empty())
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
        if let Some(entry) = map.get_mut(&session) {
            entry.conns.retain(|(_, c)| c.id() != conn);
            if entry.is_empty() {
                map.remove(&session);
            }
        }
    }

    /// The session's newest connection on this node, if it has one.
    pub fn connection_of(&self, session: SessionId) -> Option<Connection> {
        self.lock()
            .get(&session)
            .and_then(|e| e.conns.last().map(|(_, c)| c.clone()))
    }

    /// Every open connection of the session on this node (one per device).
    pub fn connections_of(&self, session: SessionId) -> Vec<Connection> {
        self.lock()
            .get(&session)
            .map(|e| e.conns.iter().map(|(_, c)| c.clone()).collect())
            .unwrap_or_default()
    }

    /// The connections of the sessions that are in room `code` (a cluster
    /// tells them when it moved to another node).
    pub fn connections_in(&self, code: RoomCode) -> Vec<ConnId> {
        self.lock()
            .values()
            .filter(|e| e.room.is_some_and(|r| r.code == code))
            .flat_map(|e| e.conns.iter().map(|(_, c)| c.id()))
            .collect()
    }

    /// The room the session is in, if any (its seat may be waiting for
    /// this connection to take it: a quick-play game just formed).
    pub fn room_of(&self, session: SessionId) -> Option<RoomSeat> {
        self.lock().get(&session).and_then(|e| e.room)
    }

    /// Whether `conn` is the session's newest connection.
    pub fn is_current(&self, session: SessionId, conn: ConnId) -> bool {
        self.lock()
            .get(&session)
            .and_then(|e| e.conns.last())
            .is_some_and(|(_, c)| c.id() == conn)
    }

    /// Whether `conn` is still one of the session's open connections (not
    /// replaced by a newer one of its device, not ended).
    pub fn is_open(&self, session: SessionId, conn: ConnId) -> bool {
        self.lock()
            .get(&session)
            .is_some_and(|e| e.conns.iter().any(|(_, c)| c.id() == conn))
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
        assert_eq!(presence.claim(session, 1, &first), None);
        let seat = RoomSeat {
            code: RoomCode::parse("ABCDE").unwrap(),
            role: Role::Player,
        };
        presence.set_room(session, Some(seat));
        assert_eq!(presence.claim(session, 1, &second), Some(seat));
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

    #[tokio::test]
    async fn another_device_does_not_replace_and_revoking_closes_its_own() {
        let presence = Presence::default();
        let session = crate::session::random_session_id().unwrap();
        let (laptop, mut laptop_rx) = Connection::new(4);
        let (phone, mut phone_rx) = Connection::new(4);
        let (phone_again, _phone_again_rx) = Connection::new(4);
        presence.claim(session, 1, &laptop);
        presence.claim(session, 2, &phone);
        assert!(
            presence.is_open(session, laptop.id()),
            "another device stays"
        );
        assert!(presence.is_current(session, phone.id()));
        assert_eq!(presence.connections_of(session).len(), 2);
        // The same device again replaces its older connection only.
        presence.claim(session, 2, &phone_again);
        assert_eq!(phone_rx.closed().await, CloseReason::Replaced);
        assert!(presence.is_open(session, laptop.id()));
        assert!(!presence.is_open(session, phone.id()));
        assert_eq!(presence.devices_of(session), [1, 2]);
        // Revoking the laptop's token closes its connection, not the phone's.
        assert_eq!(presence.close_device(session, 1, CloseReason::Revoked), 1);
        assert_eq!(laptop_rx.closed().await, CloseReason::Revoked);
        presence.release(session, laptop.id());
        assert_eq!(presence.connections_of(session).len(), 1);
        assert_eq!(
            presence.connection_of(session).map(|c| c.id()),
            Some(phone_again.id())
        );
    }
}
