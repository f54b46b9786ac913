//! The steps that span rooms: quick play's forming of games (issue 13)
//! and the rematch's making of the next room. Both end by telling the
//! sessions' waiting connections ([`Waiters`](crate::waiters::Waiters))
//! where their game is; a connection then seats itself like a resume.
//!
//! A game is formed by whichever request completes it (a `queue`, or the
//! resume of a queued session): it takes the oldest present entries out
//! of the database in one statement, makes the room (rated, unlisted, the
//! quick-play clock, the stand-in for the away), puts every session in it
//! (presence), starts its game and tells each waiting connection the
//! room's code. A session whose connection is gone meanwhile is in the
//! room when it resumes. With several nodes (issue 21) the queue is the
//! database's, so waiters on any node are matched together, each exactly
//! once (the entries are taken in one statement).

use std::time::Duration;

use splendor_store::{QueueEntry, QueuePool, Store, StoreError, unix_millis_now};
use tracing::{info, warn};

use super::Lobby;
use crate::client::ClientKey;
use crate::code::RoomCode;
use crate::conn::ConnId;
use crate::error::RoomError;
use crate::room::clock::ClockOptions;
use crate::room::{Caller, RematchPlan, Request, RoomHandle};
use crate::session::{Session, SessionId};
use crate::waiters::Match;

impl Lobby {
    /// Forms every game of `players` that the queue of `pool` can fill
    /// now, with `clock`, from the entries present within `away_ttl`;
    /// returns how many it formed. Errors are logged: the entries of a game
    /// that could not be made go back into the queue.
    pub async fn form_games(
        &self,
        store: &Store,
        players: u8,
        pool: QueuePool,
        clock: ClockOptions,
        away_ttl: Duration,
    ) -> usize {
        let mut formed = 0;
        loop {
            let cutoff = unix_millis_now()
                .saturating_sub(i64::try_from(away_ttl.as_millis()).unwrap_or(i64::MAX));
            let entries = match store.take_match((players, pool), cutoff).await {
                Ok(Some(entries)) => entries,
                Ok(None) => return formed,
                Err(e) => {
                    warn!(error = %e, "could not read the quick-play queue");
                    return formed;
                }
            };
            if !self.form_or_requeue(store, &entries, 0, clock).await {
                return formed;
            }
            formed += 1;
        }
    }

    /// Forms `session`'s game of `players` now, the seats no person fills
    /// going to bots (its wait for people ran out); true if one was
    /// formed. A session matched meanwhile forms nothing: that game's news
    /// is on its way.
    pub async fn form_with_bots(
        &self,
        store: &Store,
        session: SessionId,
        players: u8,
        clock: ClockOptions,
    ) -> bool {
        let id = splendor_store::SessionId(session.0);
        let entries = match store.take_with_bots(id, players).await {
            Ok(Some(entries)) => entries,
            Ok(None) => return false,
            Err(e) => {
                warn!(error = %e, "could not read the quick-play queue");
                return false;
            }
        };
        let bots = usize::from(players).saturating_sub(entries.len());
        self.form_or_requeue(store, &entries, bots, clock).await
    }

    async fn form_or_requeue(
        &self,
        store: &Store,
        entries: &[QueueEntry],
        bots: usize,
        clock: ClockOptions,
    ) -> bool {
        match self.form_one(entries, bots, clock).await {
            Ok(()) => true,
            Err(e) => {
                warn!(error = %e, bots, "could not make a quick-play room; the players wait on");
                requeue(store, entries).await;
                false
            }
        }
    }

    async fn form_one(
        &self,
        entries: &[QueueEntry],
        bots: usize,
        clock: ClockOptions,
    ) -> Result<(), RoomError> {
        let sessions: Vec<Session> = entries
            .iter()
            .map(|e| Session {
                id: SessionId(e.session.0),
                name: e.name.clone(),
                program: e.program,
            })
            .collect();
        let host = sessions
            .first()
            .map(|s| s.id)
            .ok_or(RoomError::InvalidSeats(0))?;
        // Issue 24: a game of the programs' pool with a person in it (who
        // chose to play programs) is not rated, nor (issue 22) one of
        // marked sessions; the rest are.
        let rated = entries.iter().all(|e| match e.pool {
            QueuePool::People => !e.program,
            QueuePool::Programs => e.program,
            QueuePool::Marked => false,
        });
        let handle = self.create_match(sessions, bots, clock, rated).await?;
        let caller = Caller {
            session: host,
            conn: ConnId(0),
            request: None,
        };
        if let Err(e) = handle.call(caller, Request::StartMatch).await {
            // The room stays, waiting, with its people in it: they are told
            // of it all the same and can leave it (only this start is lost).
            warn!(error = %e, room = %handle.code(), "a quick-play game did not start");
        }
        let players = u8::try_from(entries.len() + bots).unwrap_or(u8::MAX);
        info!(room = %handle.code(), players, bots, "quick-play game formed");
        let found = Match {
            room: handle.code(),
            players,
            rematch_of: None,
        };
        for e in entries {
            self.inner
                .waiters
                .notify(SessionId(e.session.0), found)
                .await;
        }
        Ok(())
    }

    /// The last acceptance of a rematch in the finished room `old`, by
    /// `host` on its connection `conn`: makes the new room by `plan`, tells the old room its code
    /// (everyone there sees it), moves every other player who accepted and
    /// is still at the old table into it (their waiting connections get
    /// `left`, `room` and `state`; issue 23, defect 1) and takes `host` out
    /// of the old room. The caller then seats `host`'s connection in the
    /// new room and starts it. If the room cannot be made, the offer
    /// starts over and the error says why.
    pub async fn agree_rematch(
        &self,
        host: Session,
        conn: ConnId,
        client: Option<ClientKey>,
        old: &RoomHandle,
        plan: RematchPlan,
    ) -> Result<RoomHandle, RoomError> {
        let quiet = Caller {
            session: host.id,
            conn,
            request: None,
        };
        let (people, players) = (plan.people(), plan.seats());
        let old_code: RoomCode = old.code();
        let new = match self.create_rematch(host, client, old_code, plan).await {
            Ok(new) => new,
            Err(e) => {
                let _ = old.call(quiet, Request::RematchReady { room: None }).await;
                return Err(e);
            }
        };
        let ready = Request::RematchReady {
            room: Some(new.code()),
        };
        let _ = old.call(quiet.clone(), ready).await;
        let found = Match {
            room: new.code(),
            players,
            rematch_of: Some(old_code),
        };
        for person in people {
            self.inner.waiters.notify(person, found).await;
        }
        let _ = old.call(quiet, Request::LeaveFinished).await;
        Ok(new)
    }
}

/// Puts the entries of a game that could not be made back into the queue.
async fn requeue(store: &Store, entries: &[QueueEntry]) {
    for e in entries {
        match store
            .enqueue(
                e.session,
                &e.name,
                (e.players, e.pool, e.program),
                (e.queued_at, e.bots_at),
            )
            .await
        {
            Ok(()) | Err(StoreError::AlreadyQueued(_)) => {}
            Err(err) => warn!(error = %err, "could not put a session back in the queue"),
        }
    }
}
