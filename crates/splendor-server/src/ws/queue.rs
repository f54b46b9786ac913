//! Quick play on a connection (issue 13): `queue`, `unqueue`, the formed
//! game arriving, and the queue across reconnects. The queue itself is in
//! the database; the lobby forms the games (`Lobby::form_games`) and tells
//! the waiting connections (`Lobby::waiters`).

use splendor_lobby::room::clock::ClockOptions;
use splendor_lobby::{Match, Request, RoomCode, RoomSeat, Session, SessionId};
use std::time::Duration;

use splendor_protocol::{
    ErrorCode, Matched, Pool, Queue, Queued, RequestId, Role, RoomClock, ServerMessage, Unqueued,
    Words,
};
use splendor_store::{QueuePool, Store, StoreError, unix_millis_now};
use tokio::time::Instant;
use tracing::{debug, warn};

use super::client::Client;

/// The longest wait for people before bots (`bot_after_s`).
const MAX_BOT_WAIT_S: u32 = 600;

fn store_id(session: SessionId) -> splendor_store::SessionId {
    splendor_store::SessionId(session.0)
}

impl Client {
    /// The database, or an answer that quick play needs one.
    fn quick_play_store(&self, id: &Option<RequestId>) -> Option<Store> {
        let store = self.state.store().cloned();
        if store.is_none() {
            self.reply_error(
                ErrorCode::StorageUnavailable,
                Words::new("queue-no-database"),
                id.clone(),
            );
        }
        store
    }

    fn store_failed(&self, error: &StoreError, id: Option<RequestId>) {
        warn!(error = %error, "quick-play queue");
        if error.is_transient() {
            self.reply_error(
                ErrorCode::StorageUnavailable,
                Words::new("conn-database-away"),
                id,
            );
        } else {
            self.reply_error(ErrorCode::Internal, Words::new("conn-internal"), id);
        }
    }

    /// `queue`: waits for a rated game of `players`.
    pub(super) async fn queue(&mut self, queue: Queue, id: Option<RequestId>) {
        let Some(session) = self.require_session(&id) else {
            return;
        };
        let players = queue.players;
        if !(2..=4).contains(&players) {
            let words = Words::new("queue-invalid-players").num("players", players);
            return self.reply_error(ErrorCode::InvalidPlayers, words, id);
        }
        if let Some(wait) = queue.bot_after_s
            && !(1..=MAX_BOT_WAIT_S).contains(&wait)
        {
            let words = Words::new("queue-bot-after")
                .num("max", MAX_BOT_WAIT_S)
                .num("value", wait);
            return self.reply_error(ErrorCode::InvalidField, words, id);
        }
        // Issue 24: people and programs wait apart; a person may choose to
        // play programs (unrated), a program may not wait among people.
        let pool = match (queue.pool, self.program) {
            (None | Some(Pool::People), false) => QueuePool::People,
            (None | Some(Pool::Programs), true) | (Some(Pool::Programs), false) => {
                QueuePool::Programs
            }
            (Some(Pool::People), true) => {
                let words = Words::new("queue-programs-among-people");
                return self.reply_error(ErrorCode::InvalidField, words, id);
            }
        };
        // Issue 22: a session the operators marked waits apart, with other
        // marked ones only, unrated, and is not told (`queued` names the
        // pool it asked for).
        let told = pool;
        let pool = if crate::sanctions::is_marked(&self.state, session.id.0).await {
            QueuePool::Marked
        } else {
            pool
        };
        let Some(store) = self.quick_play_store(&id) else {
            return;
        };
        // The ladder's caps on rated program games at once (issue 24),
        // before anything changes.
        if pool == QueuePool::Programs
            && self.program
            && !self.program_may_queue(session.id, &id).await
        {
            return;
        }
        // A finished table gives way; a room still waiting or playing is
        // `already_in_room` (a session seated in a running game cannot queue).
        if !self.leave_finished_room(&session, &id).await {
            return;
        }
        // Seated by a game the queue just formed, whose news this
        // connection has not read yet: that game is this session's.
        if let Some(seat) = self.state.lobby().presence().room_of(session.id)
            && self.state.lobby().find_code(seat.code).is_some()
        {
            if let Some(found) = self.matches.as_mut().and_then(|rx| rx.try_recv().ok()) {
                self.matched(found).await;
            }
            let words = Words::new("room-already-in").text("code", seat.code.to_string());
            return self.reply_error(ErrorCode::AlreadyInRoom, words, id);
        }
        // A seat kept in a running game it left: that game first (issue 22).
        if let Err(e) = self.state.lobby().check_free_for_quick_play(session.id) {
            return self.reply_lobby_error(e, id);
        }
        let now = unix_millis_now();
        let bots_at = queue
            .bot_after_s
            .map(|s| now.saturating_add(i64::from(s) * 1000));
        let queued = if pool == QueuePool::Programs && self.program {
            // The ladder's caps, counted with the insert (issue 24): two
            // programs of one owner queueing at once count each other.
            let config = self.state.config();
            let caps = (
                config.ladder_games_per_owner,
                config.ladder_games_per_address,
            );
            match store
                .enqueue_program(
                    store_id(session.id),
                    (&session.name, players),
                    (now, bots_at),
                    caps,
                )
                .await
            {
                Ok(splendor_store::ProgramQueued::Queued) => Ok(()),
                Ok(splendor_store::ProgramQueued::Capped(load)) => {
                    return self.refuse_too_many_games(load, &id);
                }
                Err(e) => Err(e),
            }
        } else {
            store
                .enqueue(
                    store_id(session.id),
                    &session.name,
                    (players, pool, self.program),
                    (now, bots_at),
                )
                .await
        };
        match queued {
            Ok(()) => {}
            Err(StoreError::AlreadyQueued(queued)) => {
                let words = Words::new("queue-already")
                    .num("players", queued)
                    .text("example", r#"{"type":"unqueue"}"#);
                return self.reply_error(ErrorCode::AlreadyQueued, words, id);
            }
            Err(e) => return self.store_failed(&e, id),
        }
        debug!(players, "queued");
        self.state.metrics().session_queued();
        self.matches = Some(
            self.state
                .lobby()
                .waiters()
                .watch(session.id, self.conn.id()),
        );
        self.bots_at = queue
            .bot_after_s
            .map(|s| (Instant::now() + Duration::from_secs(u64::from(s)), players));
        self.announce_queued(&store, players, pool, told, id).await;
        self.form(&store, players, pool).await;
    }

    /// `unqueue`: leaves the queue.
    pub(super) async fn unqueue(&mut self, id: Option<RequestId>) {
        let Some(session) = self.require_session(&id) else {
            return;
        };
        let Some(store) = self.quick_play_store(&id) else {
            return;
        };
        match store.dequeue(store_id(session.id)).await {
            Ok(Some(players)) => {
                self.stop_waiting(session.id);
                self.send(ServerMessage::Unqueued(Unqueued { id, players }));
            }
            Ok(None) => self.reply_error(
                ErrorCode::NotQueued,
                Words::new("queue-not-queued").text("example", r#"{"type":"queue","players":2}"#),
                id,
            ),
            Err(e) => self.store_failed(&e, id),
        }
    }

    /// The queue formed this session's game: into its seat, like a resume.
    pub(super) async fn matched(&mut self, found: Match) {
        self.matches = None;
        self.awaiting_rematch = false;
        self.bots_at = None;
        let Some(session) = self.session.clone() else {
            return;
        };
        if let Some(old) = found.rematch_of {
            return self.moved_to_rematch(session, old, found.room).await;
        }
        self.send(ServerMessage::Matched(Matched {
            room: found.room.to_string(),
            players: found.players,
        }));
        // Joined another table at the very moment the game was formed: the
        // seat waits there (the stand-in plays it, R12.3), and the game
        // counts all the same; `join` with the code takes it.
        if self
            .room
            .as_ref()
            .is_some_and(|r| !r.is_closed() && r.code() != found.room)
        {
            return;
        }
        let seat = RoomSeat {
            code: found.room,
            role: Role::Player,
        };
        self.rejoin(session, seat, false).await;
    }

    /// The rematch this connection accepted is made: out of the finished
    /// room (`left`) and into the new one (`room`, then `state`), unless
    /// the connection went elsewhere meanwhile (its seat then waits, and a
    /// `join` of the code takes it).
    async fn moved_to_rematch(&mut self, session: Session, old: RoomCode, new: RoomCode) {
        let Some(room) = self.room.clone().filter(|r| r.code() == old) else {
            return;
        };
        let _ = room
            .call(self.caller(&session, None), Request::LeaveFinished)
            .await;
        self.set_room(None);
        let seat = RoomSeat {
            code: new,
            role: Role::Player,
        };
        self.rejoin(session, seat, false).await;
    }

    /// After a resume: a session still queued is present again, waits on
    /// this connection, and is told so.
    pub(super) async fn resume_queue(&mut self, session: &Session) {
        let Some(store) = self.state.store().cloned() else {
            return;
        };
        let entry = match store.queue_entry(store_id(session.id)).await {
            Ok(Some(entry)) => entry,
            Ok(None) => return,
            Err(e) => return warn!(error = %e, "could not read the quick-play queue"),
        };
        if let Err(e) = store.set_queue_away(store_id(session.id), None).await {
            warn!(error = %e, "could not mark a queued session present");
        }
        self.matches = Some(
            self.state
                .lobby()
                .waiters()
                .watch(session.id, self.conn.id()),
        );
        self.bots_at = entry.bots_at.map(|at| {
            let left = u64::try_from(at.saturating_sub(unix_millis_now())).unwrap_or(0);
            (Instant::now() + Duration::from_millis(left), entry.players)
        });
        // A marked session is told the pool its kind would have.
        let told = match entry.pool {
            QueuePool::Marked if self.program => QueuePool::Programs,
            QueuePool::Marked => QueuePool::People,
            pool => pool,
        };
        self.announce_queued(&store, entry.players, entry.pool, told, None)
            .await;
        self.form(&store, entry.players, entry.pool).await;
    }

    /// The wait for people ran out: this session's game starts with the
    /// people queued now and built-in bots in the seats left.
    pub(super) async fn fill_with_bots(&mut self) {
        let Some((_, players)) = self.bots_at.take() else {
            return;
        };
        let (Some(session), Some(store)) = (self.session.clone(), self.state.store().cloned())
        else {
            return;
        };
        let clock = quick_play_clock(self.state.config().quick_play_clock);
        let lobby = self.state.lobby();
        if lobby
            .form_with_bots(&store, session.id, players, clock)
            .await
        {
            self.state.metrics().quick_play_game();
        }
    }

    /// Before a `join` or `create`: the session leaves its queue (it chose
    /// a table), told by `unqueued`. Whether it is queued is known here:
    /// this connection queued it, or read the store once when it resumed
    /// (issue 20: a `join` or `create` of a session that is not queued, the
    /// common case, costs no statement).
    pub(super) async fn leave_queue_quietly(&mut self, session: &Session) {
        if self.matches.is_none() || self.awaiting_rematch {
            return;
        }
        let Some(store) = self.state.store().cloned() else {
            return;
        };
        match store.dequeue(store_id(session.id)).await {
            Ok(Some(players)) => {
                self.stop_waiting(session.id);
                self.send(ServerMessage::Unqueued(Unqueued { id: None, players }));
            }
            Ok(None) => {}
            Err(e) => warn!(error = %e, "could not take a session out of the queue"),
        }
    }

    /// The connection ended: a queued session is away (not matched) until
    /// it resumes, and leaves the queue after the away time.
    pub(super) async fn queue_away(&mut self, session: SessionId) {
        self.bots_at = None;
        if self.matches.take().is_none() {
            return;
        }
        self.state.lobby().waiters().forget(session, self.conn.id());
        // The session's turn (`Presence::turn`): a newer connection's hello
        // claims the session and marks it present in its turn, so this
        // check and this write are both before it or both after it (a
        // reload could otherwise mark the new connection's wait away, and
        // it was never matched).
        let presence = self.state.lobby().presence();
        let _turn = presence.turn(session).await;
        // Replaced by a newer connection of the session (a second tab, a
        // quick reconnect), or open on another device too (issue 23): that
        // one waits now, present.
        if self
            .state
            .lobby()
            .presence()
            .connections_of(session)
            .iter()
            .any(|c| c.id() != self.conn.id())
        {
            return;
        }
        if let Some(store) = self.state.store()
            && let Err(e) = store
                .set_queue_away(store_id(session), Some(unix_millis_now()))
                .await
        {
            warn!(error = %e, "could not mark a queued session away");
        }
    }

    /// Whether the session is a bot: marks it one when `hello` says so.
    /// A resumed session's mark came with it from the store.
    pub(super) async fn session_is_bot(&self, session: &Session, says_bot: bool) -> bool {
        if session.program {
            return true;
        }
        let Some(store) = self.state.store() else {
            return says_bot;
        };
        if says_bot {
            if let Err(e) = store.mark_bot(store_id(session.id)).await {
                warn!(error = %e, "could not mark a session as a bot");
            }
            return true;
        }
        false
    }

    fn stop_waiting(&mut self, session: SessionId) {
        self.matches = None;
        self.bots_at = None;
        self.state.lobby().waiters().forget(session, self.conn.id());
    }

    async fn announce_queued(
        &self,
        store: &Store,
        players: u8,
        pool: QueuePool,
        told: QueuePool,
        id: Option<RequestId>,
    ) {
        let waiting = store.queue_length(players, pool).await.unwrap_or(1);
        let clock = room_clock(quick_play_clock(self.state.config().quick_play_clock));
        let bot_after_s = self.bots_at.map(|(at, _)| {
            let left = at.saturating_duration_since(Instant::now());
            u32::try_from(left.as_millis().div_ceil(1000)).unwrap_or(u32::MAX)
        });
        self.send(ServerMessage::Queued(Queued {
            id,
            players,
            pool: match told {
                QueuePool::Programs => Pool::Programs,
                QueuePool::People | QueuePool::Marked => Pool::People,
            },
            waiting,
            clock,
            bot_after_s,
        }));
    }

    async fn form(&self, store: &Store, players: u8, pool: QueuePool) {
        let config = self.state.config();
        let clock = quick_play_clock(config.quick_play_clock);
        let formed = self
            .state
            .lobby()
            .form_games(store, players, pool, clock, config.queue_away_ttl)
            .await;
        for _ in 0..formed {
            self.state.metrics().quick_play_game();
        }
    }
}

/// The clock of quick-play games: the server's, with the stand-in for the
/// away (R12.3).
pub(super) fn quick_play_clock(clock: splendor_lobby::TurnClock) -> ClockOptions {
    ClockOptions {
        clock,
        stand_in_when_away: true,
    }
}

/// The clock as `queued` shows it.
fn room_clock(options: ClockOptions) -> RoomClock {
    RoomClock {
        initial_s: options.clock.bank().as_secs(),
        increment_s: options.clock.increment().as_secs(),
        stand_in_when_away: options.stand_in_when_away,
    }
}
