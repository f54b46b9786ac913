//! Quick play (issue 13): the queues live in the database
//! ([`splendor_store::Store::take_match`]); this is the part of them that
//! lives in a process: which connection waits for which queued session, so
//! that a formed game reaches it at once, and the forming itself.
//!
//! A game is formed by whichever connection's request completes it (a
//! `queue`, or a resume of a queued session): it takes the oldest present
//! entries out of the database in one statement, makes the room through
//! the lobby (rated, unlisted, the quick-play clock, the stand-in for the
//! away), puts every session in it (presence), starts its game and tells
//! each waiting connection the room's code; that connection then seats
//! itself like a resume. A session whose connection is gone meanwhile is
//! in the room when it resumes. With several server nodes (issue 21), the
//! queue is the database's, so waiters on any node are matched together,
//! each exactly once (the entries are taken in one statement); a waiting
//! connection on another node is told through NATS (`Matched`), and so is
//! one moved into a rematch made on another node.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use splendor_lobby::room::clock::ClockOptions;
use splendor_lobby::{Caller, ConnId, Lobby, Request, RoomCode, Session, SessionId};
use splendor_protocol::RoomClock;
use splendor_store::{QueueEntry, Store, StoreError, unix_millis_now};
use tokio::sync::mpsc;
use tracing::{info, warn};

/// A formed game, as a waiting connection learns of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Match {
    /// The room the session is seated in.
    pub(crate) room: RoomCode,
    /// How many play.
    pub(crate) players: u8,
    /// For a rematch: the finished room the connection is moved out of
    /// (it gets `left`, then the new room's `room` and `state`; no
    /// `matched`, which is quick play's).
    pub(crate) rematch_of: Option<RoomCode>,
}

/// The connections waiting for their queued sessions' games (or for the
/// rematch they accepted).
#[derive(Default)]
pub(crate) struct Waiters {
    map: Mutex<HashMap<SessionId, (ConnId, mpsc::Sender<Match>)>>,
    /// In a cluster: the other nodes, told of a game whose session waits
    /// on none of this node's connections.
    cluster: std::sync::OnceLock<splendor_cluster::Cluster>,
}

impl Waiters {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<SessionId, (ConnId, mpsc::Sender<Match>)>> {
        // Every change is one insert or remove: a poisoned map is consistent.
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// `conn` waits for `session`'s game from now on (replacing an older
    /// connection of the same session).
    pub(crate) fn watch(&self, session: SessionId, conn: ConnId) -> mpsc::Receiver<Match> {
        let (tx, rx) = mpsc::channel(1);
        self.lock().insert(session, (conn, tx));
        rx
    }

    /// `conn` no longer waits (it ended, or its session left the queue).
    pub(crate) fn forget(&self, session: SessionId, conn: ConnId) {
        let mut map = self.lock();
        if map.get(&session).is_some_and(|(c, _)| *c == conn) {
            map.remove(&session);
        }
    }

    /// Tells the other nodes of games whose sessions wait there.
    pub(crate) fn set_cluster(&self, cluster: splendor_cluster::Cluster) {
        let _ = self.cluster.set(cluster);
    }

    /// Tells `session`'s waiting connection of its game, if it is one of
    /// this node's; true if it was.
    pub(crate) fn notify_here(&self, session: SessionId, found: Match) -> bool {
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
    pub(crate) async fn notify(&self, session: SessionId, found: Match) {
        if self.notify_here(session, found) {
            return;
        }
        if let Some(cluster) = self.cluster.get() {
            cluster
                .announce_matched(session, found.room, found.players, found.rematch_of)
                .await;
        }
    }
}

/// The clock of quick-play games: the server's, with the stand-in for the
/// away (R12.3).
pub(crate) fn quick_play_clock(clock: splendor_lobby::TurnClock) -> ClockOptions {
    ClockOptions {
        clock,
        stand_in_when_away: true,
    }
}

/// The clock as `queued` shows it.
pub(crate) fn room_clock(options: ClockOptions) -> RoomClock {
    RoomClock {
        initial_s: options.clock.bank().as_secs(),
        increment_s: options.clock.increment().as_secs(),
        stand_in_when_away: options.stand_in_when_away,
    }
}

/// Forms every game of `players` that the queue can fill now. Errors are
/// logged: the entries of a game that could not be made go back.
pub(crate) async fn form_games(
    (store, lobby, metrics): (&Store, &Lobby, &crate::metrics::Metrics),
    waiters: &Waiters,
    (players, clock, away_ttl): (u8, ClockOptions, Duration),
) {
    loop {
        let cutoff = unix_millis_now()
            .saturating_sub(i64::try_from(away_ttl.as_millis()).unwrap_or(i64::MAX));
        let entries = match store.take_match(players, cutoff).await {
            Ok(Some(entries)) => entries,
            Ok(None) => return,
            Err(e) => {
                warn!(error = %e, "could not read the quick-play queue");
                return;
            }
        };
        if let Err(e) = form_one(lobby, waiters, (&entries, 0), clock).await {
            warn!(error = %e, players, "could not make a quick-play room; the players wait on");
            requeue(store, &entries).await;
            return;
        }
        metrics.quick_play_game();
    }
}

pub(crate) async fn form_one(
    lobby: &Lobby,
    waiters: &Waiters,
    (entries, bots): (&[QueueEntry], usize),
    clock: ClockOptions,
) -> Result<(), String> {
    let sessions: Vec<Session> = entries
        .iter()
        .map(|e| Session {
            id: SessionId(e.session.0),
            name: e.name.clone(),
        })
        .collect();
    let host = sessions[0].id;
    let handle = lobby
        .create_match(sessions, bots, clock)
        .await
        .map_err(|e| e.to_string())?;
    let caller = Caller {
        session: host,
        conn: ConnId(0),
        request: None,
    };
    if let Err(e) = handle.call(caller, Request::StartMatch).await {
        // The room stays, waiting, with its people in it: they are told of
        // it all the same and can leave it (only this game's start is lost).
        warn!(error = %e, room = %handle.code(), "a quick-play game did not start");
    }
    let players = (entries.len() + bots) as u8;
    info!(room = %handle.code(), players, bots, "quick-play game formed");
    for e in entries {
        let found = Match {
            room: handle.code(),
            players,
            rematch_of: None,
        };
        waiters.notify(SessionId(e.session.0), found).await;
    }
    Ok(())
}

/// Puts the entries of a game that could not be made back into the queue.
pub(crate) async fn requeue(store: &Store, entries: &[QueueEntry]) {
    for e in entries {
        match store
            .enqueue(e.session, &e.name, e.players, (e.queued_at, e.bots_at))
            .await
        {
            Ok(()) | Err(StoreError::AlreadyQueued(_)) => {}
            Err(err) => warn!(error = %err, "could not put a session back in the queue"),
        }
    }
}
