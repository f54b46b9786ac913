//! The reading side of a connection: frames into requests on the lobby
//! and the room, with the session the connection proved.

use axum::extract::ws::{Message, WebSocket};
use futures_util::StreamExt;
use futures_util::stream::SplitStream;
use std::time::Duration;

use splendor_lobby::{
    ClientKey, CloseReason, Connection, RoomError, RoomHandle, Session, SessionError,
};
use splendor_protocol::{
    ErrorCode, ErrorInfo, RequestId, Role, ServerMessage, Words, peek_request_id,
};
use tokio::time::{Instant, sleep_until};
use tracing::{Instrument, Span, debug, info_span, warn};

use super::deadlines::{Due, earliest};
use crate::AppState;
use crate::l10n::{self, LangCell};
use crate::limits::{MessageRate, Verdict};

/// The reading side of one connection and what it knows about its client.
pub(super) struct Client {
    pub(super) state: AppState,
    pub(super) conn: Connection,
    /// The client's address as the limits count it, for the lobby's limit
    /// of waiting rooms per address (`None`: unknown, as for a router
    /// served without peer addresses).
    pub(super) address: Option<ClientKey>,
    /// The message rate was exceeded past its tolerance: the read loop
    /// closes the connection (4003) once that is audited.
    pub(super) flooded: bool,
    /// Set by `hello`; the only identity this connection acts with.
    pub(super) session: Option<Session>,
    /// Set by `hello`: full states after every action instead of lean ones.
    pub(super) verbose: bool,
    /// Set by `hello`: the language of what this connection is told
    /// (English until then); shared with the writer.
    pub(super) lang: LangCell,
    /// The room this connection is in; changed only by `set_room`.
    pub(super) room: Option<RoomHandle>,
    /// While its session is queued for quick play: where its game comes.
    pub(super) matches: Option<tokio::sync::mpsc::Receiver<splendor_lobby::Match>>,
    /// `matches` waits for a rematch this connection accepted, not for
    /// quick play: it ends when the connection leaves the finished room.
    pub(super) awaiting_rematch: bool,
    /// While queued with `bot_after_s`: when bots fill the free seats, and
    /// the game size.
    pub(super) bots_at: Option<(Instant, u8)>,
    /// Set by `hello`: the session is a program (`"bot":true`, now or
    /// before): it waits among programs in quick play (issue 24).
    pub(super) program: bool,
    /// Set by `hello`: a program that takes challenges, listed online
    /// while this connection is open (issue 24).
    pub(super) challenges: bool,
    /// Set by `hello`, changed by `block` and `unblock`: the sessions this
    /// session blocked (issue 22), told to every room it joins.
    pub(super) blocked: Vec<splendor_lobby::SessionId>,
    /// The connection's span, parent of `room_span`.
    pub(super) conn_span: Span,
    /// A `room` span naming the room this connection is in (a disabled span
    /// while in none): what the connection logs while handling a request
    /// carries the room it is in at that moment.
    pub(super) room_span: Span,
    /// Messages per second.
    pub(super) rate: MessageRate,
    /// Set by `hello`'s `liveness_s`: how long the client may be silent
    /// in a room before its seat counts as away (R12.3).
    pub(super) liveness: Option<Duration>,
    /// The client went silent past `liveness`: the room has it detached
    /// (away) while the socket stays open; its next message takes the seat
    /// back.
    pub(super) lapsed: bool,
    /// The claim on a seat this connection holds, by room (issue 44): the
    /// one its last join there was answered with (`Some`), or `None` while
    /// a join the player made waits for the room to have an owner again.
    /// Following the room to another node, the connection presents it; a
    /// newer connection of the session that took the seat meanwhile keeps
    /// it.
    pub(super) claim: Option<(splendor_lobby::RoomCode, Option<u64>)>,
    /// In a cluster: rooms this connection is in that moved to another
    /// node (it joins them again there).
    pub(super) moved: Option<tokio::sync::mpsc::UnboundedReceiver<splendor_lobby::RoomCode>>,
    /// In a cluster: a seat waits for its room's owner (the node that had
    /// it could not be reached), and looks again at this time, in case the
    /// announcement of the room's new owner came before the seat waited.
    pub(super) look_again: Option<(Instant, splendor_lobby::RoomCode)>,
    /// Set by `hello`: which of its session's tokens this connection
    /// proved itself with (issue 23: another device's connection does not
    /// replace it; revoking this token closes it).
    pub(super) device: splendor_lobby::DeviceKey,
}

/// What woke the read loop besides a close.
enum Wake<F> {
    /// A frame, an error, or the end of the stream.
    Frame(F),
    /// The quick-play queue (or an agreed rematch) found this session's game.
    Matched(splendor_lobby::Match),
    /// The wait for people ran out: bots fill the free seats.
    Bots,
    /// Silent past the liveness the client promised.
    Lapse,
    /// A room this connection is in moved to another node (a cluster).
    Moved(splendor_lobby::RoomCode),
    /// The seat this connection waits to take again looks for its room.
    LookAgain(splendor_lobby::RoomCode),
}

impl Client {
    /// Reads the connection's frames and wakes until it ends.
    ///
    /// What a message sets off is awaited in a box of its own: an idle
    /// connection's task then holds only this loop's own state, not the
    /// largest of every handler's (creating a room, say, awaits the store
    /// and the directory), which was most of a held connection's memory
    /// (issue 20: about 5 KB of its task before, docs/BENCHMARKS.md).
    pub(super) async fn read_loop(&mut self, stream: &mut SplitStream<WebSocket>) {
        let closed = self.conn.closed();
        tokio::pin!(closed);
        let mut shutdown = self.state.shutdown_signal();
        let config = self.state.config();
        let (heartbeat_timeout, idle_timeout) = (config.heartbeat_timeout, config.idle_timeout);
        // Anything from the client, pongs included, proves it is there.
        let mut last_heard = Instant::now();
        // Only messages count as activity for the idle timeout.
        let mut last_message = last_heard;
        let mut was_in_room = false;
        // Bans made while this connection is open (here or on another
        // node): it closes itself if one names it.
        let mut bans = self.state.sanctions().subscribe();
        // Evicted (1012) when this node is cut off from the database.
        let mut evictions = self.state.evictions();
        evictions.borrow_and_update();
        // One timer for the earliest of the connection's deadlines, moved
        // as they move (issue 20: a timer each, made anew for every frame,
        // was a timer wheel's insert and removal per deadline per frame,
        // and their room in every held connection's task).
        let timer = sleep_until(last_heard + heartbeat_timeout);
        tokio::pin!(timer);
        loop {
            self.forget_closed_room();
            // The idle clock runs only outside rooms: a player waiting for
            // the others, or a spectator, sends nothing for long stretches.
            // It starts when the connection is out of its room (it left, or
            // the room closed by itself): a spectator quiet through a long
            // game is not closed the moment the room is gone.
            // A session waiting in a quick-play queue is not idle either,
            // nor a program waiting for challenges (issue 24).
            let in_room = self.in_room() || self.matches.is_some() || self.challenges;
            if was_in_room && !in_room {
                last_message = Instant::now();
            }
            was_in_room = in_room;
            let lapse_deadline = self
                .liveness
                .filter(|_| !self.lapsed && self.seated())
                .map(|silence| last_message + silence);
            let (due, at) = earliest(
                last_heard + heartbeat_timeout,
                [
                    (Due::Idle, (!in_room).then(|| last_message + idle_timeout)),
                    (Due::Lapse, lapse_deadline),
                    (Due::LookAgain, self.look_again.map(|(at, _)| at)),
                    (Due::Bots, self.bots_at.map(|(at, _)| at)),
                ],
            );
            if timer.deadline() != at {
                timer.as_mut().reset(at);
            }
            let frame = tokio::select! {
                _ = &mut closed => return,
                _ = shutdown.wait_for(|down| *down) => {
                    self.conn.close(CloseReason::ShuttingDown);
                    return;
                }
                () = &mut timer => match due {
                    Due::Heartbeat => {
                        self.room_span.in_scope(|| debug!("no answer to pings"));
                        self.conn.close(CloseReason::HeartbeatTimeout);
                        return;
                    }
                    Due::Idle => {
                        debug!("idle");
                        self.conn.close(CloseReason::Idle);
                        return;
                    }
                    Due::Lapse => Wake::Lapse,
                    Due::LookAgain => {
                        let (_, room) = self.look_again.take().expect("armed");
                        // Back in a room meanwhile (told where it lives now).
                        if self.in_room() {
                            continue;
                        }
                        Wake::LookAgain(room)
                    }
                    Due::Bots => Wake::Bots,
                },
                Some(found) = next_match(&mut self.matches) => Wake::Matched(found),
                Some(room) = next_move(&mut self.moved) => Wake::Moved(room),
                () = room_closed(&self.room) => {
                    self.room_closed_under_us();
                    continue;
                }
                Ok(()) = evictions.changed() => {
                    self.conn.close(CloseReason::ShuttingDown);
                    return;
                }
                Ok(ban) = bans.recv() => {
                    if ban.target.matches(&self.who()) {
                        self.refuse_banned(&ban, None);
                        return;
                    }
                    continue;
                }
                frame = stream.next() => Wake::Frame(frame),
            };
            let frame = match frame {
                Wake::Frame(frame) => frame,
                Wake::Matched(found) => {
                    Box::pin(self.matched(found)).await;
                    continue;
                }
                Wake::Bots => {
                    Box::pin(self.fill_with_bots()).await;
                    continue;
                }
                Wake::Lapse => {
                    Box::pin(self.lapse()).await;
                    continue;
                }
                Wake::Moved(room) => {
                    // The connection that holds the seat follows the room;
                    // another device's connection in the lobby stays there
                    // (issue 23).
                    let here = self.room.as_ref().map(RoomHandle::code) == Some(room)
                        || self.look_again.is_some_and(|(_, code)| code == room);
                    // Following it may wait on the cluster (the room's new
                    // owner to claim it): a node that drains or is cut off
                    // meanwhile closes the connection (1012) at once, so
                    // that its client reconnects to a node that serves it,
                    // rather than wait on a node that is going away.
                    if here
                        && stopped_while(
                            Box::pin(self.room_moved(room)),
                            &mut shutdown,
                            &mut evictions,
                        )
                        .await
                    {
                        self.conn.close(CloseReason::ShuttingDown);
                        return;
                    }
                    continue;
                }
                Wake::LookAgain(room) => {
                    let moved = Box::pin(self.room_moved(room));
                    if stopped_while(moved, &mut shutdown, &mut evictions).await {
                        self.conn.close(CloseReason::ShuttingDown);
                        return;
                    }
                    continue;
                }
            };
            last_heard = Instant::now();
            // The room may have closed while the frame was on its way.
            self.forget_closed_room();
            match frame {
                None | Some(Ok(Message::Close(_))) => return,
                Some(Err(e)) => {
                    let text = e.to_string();
                    debug!(error = %text, "socket error");
                    // tungstenite reports an over-long message as a
                    // capacity error ("Space limit exceeded: Message too long").
                    if text.contains("too long") || text.contains("Space limit") {
                        self.conn.close(CloseReason::MessageTooBig);
                    }
                    return;
                }
                Some(Ok(Message::Text(text))) => {
                    last_message = last_heard;
                    if self.lapsed {
                        Box::pin(self.back_from_lapse()).await;
                    }
                    let span = self.room_span.clone();
                    // A node that drains handles no new message (a resume
                    // into a room it is moving away, say): the connection
                    // closes with 1012 and its client reconnects to a node
                    // that serves it. A message already being handled when
                    // the drain begins is handled to its answer (a move is
                    // acknowledged or not played, tests/restart.rs).
                    if self.state.is_shutting_down() {
                        self.conn.close(CloseReason::ShuttingDown);
                        return;
                    }
                    if span.in_scope(|| self.admit(Some(text.as_str()))) {
                        // A node cut off from its database evicts its
                        // connections (issue 44) even while a message's
                        // handler waits on a room that waits on the
                        // database: the player is told at once, not when
                        // the write gives up.
                        let handled = Box::pin(self.on_text(text.as_str()).instrument(span));
                        let evicted = tokio::select! {
                            () = handled => false,
                            Ok(()) = evictions.changed() => true,
                        };
                        if evicted {
                            self.conn.close(CloseReason::ShuttingDown);
                            return;
                        }
                    }
                }
                Some(Ok(Message::Binary(_))) => {
                    last_message = last_heard;
                    let span = self.room_span.clone();
                    span.in_scope(|| {
                        if self.admit(None) {
                            self.reply_error(
                                ErrorCode::BadMessage,
                                Words::new("conn-binary"),
                                None,
                            );
                        }
                    });
                }
                // The WebSocket library answers pings itself.
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
            }
            if self.flooded {
                crate::auto_audit::audit(
                    &self.state,
                    crate::auto_audit::Automatic::FloodClosed,
                    self.address.as_ref().map(|a| a.as_str()),
                )
                .await;
                self.conn.close(CloseReason::RateLimited);
            }
            if self.conn.close_reason().is_some() {
                return;
            }
        }
    }

    /// Counts a message and applies the message rate: true if it is to be
    /// handled. A refused message is not handled; its answer echoes its
    /// `id` (read without parsing the rest) and says how long to wait.
    fn admit(&mut self, text: Option<&str>) -> bool {
        self.state.metrics().message_received();
        match self.rate.check(Instant::now().into_std()) {
            Verdict::Allow => true,
            Verdict::Refuse { retry_after } => {
                let config = self.state.config();
                let words = Words::new("conn-rate-limited")
                    .num("rate", config.max_messages_per_second)
                    .num("burst", config.message_burst);
                let id = text
                    .filter(|text| text.len() <= config.max_frame_bytes)
                    .and_then(peek_request_id);
                let mut info = ErrorInfo::new(ErrorCode::RateLimited, self.word(&words), id);
                // Rounded up, so that waiting what is said is enough.
                let wait_ms = retry_after.as_nanos().div_ceil(1_000_000);
                info.retry_after_ms = Some(u64::try_from(wait_ms).unwrap_or(u64::MAX));
                self.state.metrics().intent_rejected(&info.code);
                self.send(ServerMessage::Error(info));
                false
            }
            Verdict::Drop => false,
            Verdict::Close => {
                debug!("rate limit exceeded");
                // Closed by the read loop, once the sanction is audited.
                self.flooded = true;
                false
            }
        }
    }

    /// Whether the connection holds a seat in the room it is in.
    fn seated(&self) -> bool {
        let Some(session) = &self.session else {
            return false;
        };
        self.in_room()
            && self
                .state
                .lobby()
                .presence()
                .room_of(session.id)
                .is_some_and(|seat| seat.role == Role::Player)
    }

    /// The client kept silent past its promised liveness: its seat counts
    /// as away (R12.3) as if the socket had ended, but the socket stays.
    async fn lapse(&mut self) {
        let (Some(session), Some(room)) = (&self.session, self.room.clone()) else {
            return;
        };
        self.room_span
            .in_scope(|| debug!("silent past its liveness: away"));
        self.lapsed = true;
        room.detach(self.caller(session, None)).await;
    }

    /// A lapsed client speaks again: back in its seat (`room` and the
    /// state), before its message is handled.
    async fn back_from_lapse(&mut self) {
        self.lapsed = false;
        let Some(session) = self.session.clone() else {
            return;
        };
        let seat = self.state.lobby().presence().room_of(session.id);
        self.set_room(None);
        if let Some(seat) = seat {
            self.rejoin(session, seat, false).await;
        }
    }

    /// Whether the connection is in a room that is still open.
    pub(super) fn in_room(&self) -> bool {
        self.room.as_ref().is_some_and(|room| !room.is_closed())
    }

    /// Remembers the room this connection is now in, or that it is in
    /// none, and gives it the matching `room` span (a child of the
    /// connection's, whatever span is current), so that log lines follow
    /// the connection from room to room.
    pub(super) fn set_room(&mut self, room: Option<RoomHandle>) {
        if self.awaiting_rematch && room.is_none() {
            self.awaiting_rematch = false;
            self.matches = None;
            if let Some(session) = &self.session {
                self.state
                    .lobby()
                    .waiters()
                    .forget(session.id, self.conn.id());
            }
        }
        self.room_span = match &room {
            Some(handle) => info_span!(parent: &self.conn_span, "room", room = %handle.code()),
            None => Span::none(),
        };
        self.room = room;
    }

    /// The room closed while this connection was in it. A room that moved
    /// to another node keeps its sessions in it (presence): the connection
    /// looks for it again shortly, in case the announcement of its new
    /// owner cannot reach this node (it was cut off when it was made).
    /// Any other room is simply forgotten.
    fn room_closed_under_us(&mut self) {
        let Some(code) = self.room.as_ref().map(RoomHandle::code) else {
            return;
        };
        self.set_room(None);
        let still_there = self.session.as_ref().is_some_and(|s| {
            self.state
                .lobby()
                .presence()
                .room_of(s.id)
                .is_some_and(|seat| seat.code == code)
        });
        if still_there && self.state.cluster().is_some() && self.look_again.is_none() {
            self.look_again = Some((Instant::now() + MOVED_LOOK_AGAIN, code));
        }
    }

    /// Forgets a room that closed by itself (expired), so that the idle
    /// clock runs and log lines no longer name it.
    pub(super) fn forget_closed_room(&mut self) {
        if self.room.as_ref().is_some_and(RoomHandle::is_closed) {
            self.room_closed_under_us();
        }
    }

    pub(super) fn require_session(&self, id: &Option<RequestId>) -> Option<Session> {
        if self.session.is_none() {
            self.reply_error(
                ErrorCode::NotIdentified,
                Words::new("conn-not-identified").text("example", HELLO_EXAMPLE),
                id.clone(),
            );
        }
        self.session.clone()
    }

    /// The code of the room this connection is in, forgetting a room that closed.
    pub(super) fn current_room_code(&mut self) -> Option<String> {
        self.forget_closed_room();
        self.room.as_ref().map(|r| r.code().to_string())
    }

    pub(super) fn require_room(&mut self, id: &Option<RequestId>) -> Option<(Session, RoomHandle)> {
        let session = self.require_session(id)?;
        self.current_room_code();
        match &self.room {
            Some(room) => Some((session, room.clone())),
            None => {
                self.reply_lobby_error(RoomError::NotInRoom, id.clone());
                None
            }
        }
    }

    pub(super) fn send(&self, message: ServerMessage) {
        // A failed send has already closed the connection (too slow or gone).
        let _ = self.conn.send(message);
    }

    /// Bad input is answered, not logged as an error. The message in the
    /// connection's language.
    pub(super) fn reply_error(&self, code: ErrorCode, words: Words, id: Option<RequestId>) {
        let info = ErrorInfo::new(code, self.word(&words), id);
        debug!(code = %info.code, "request rejected");
        self.state.metrics().intent_rejected(&info.code);
        self.send(ServerMessage::Error(info));
    }

    /// A session store failure: the database being away is said as such
    /// (the client may retry); anything else is internal.
    pub(super) fn reply_session_error(&self, error: &SessionError, id: Option<RequestId>) {
        match error {
            SessionError::TooMany { cap, retry_after } => {
                let wait_ms = u64::try_from(retry_after.as_millis())
                    .unwrap_or(u64::MAX)
                    .max(1);
                let words = Words::new("conn-too-many-sessions")
                    .count("max", *cap)
                    .count("minutes", wait_ms.div_ceil(60_000));
                let mut error = ErrorInfo::new(ErrorCode::TooManySessions, self.word(&words), id);
                error.retry_after_ms = Some(wait_ms);
                self.state.metrics().intent_rejected(&error.code);
                self.send(ServerMessage::Error(error));
            }
            SessionError::Unavailable(_) => self.reply_error(
                ErrorCode::StorageUnavailable,
                Words::new("conn-database-away"),
                id,
            ),
            _ => self.reply_error(ErrorCode::Internal, Words::new("conn-internal"), id),
        }
    }

    /// A refused request is answered, and logged only when it is the
    /// server's fault: an internal error, once, with its cause.
    pub(super) fn reply_lobby_error(&mut self, error: RoomError, id: Option<RequestId>) {
        match error.internal_cause() {
            Some(cause) => warn!(%cause, "internal error"),
            None => debug!(code = error.code(), "request rejected"),
        }
        self.state.metrics().intent_rejected(error.code());
        if error == RoomError::RoomClosed {
            // The room is gone; this connection is in no room any more.
            self.set_room(None);
            if let Some(session) = &self.session {
                self.state.lobby().presence().set_room(session.id, None);
            }
        }
        self.send(ServerMessage::Error(ErrorInfo {
            id,
            code: error.code().to_owned(),
            message: self.word(&error.words()),
            rule: error.rule().map(str::to_owned),
            retry_after_ms: None,
            until: None,
        }));
    }

    /// `words` in the connection's language.
    pub(super) fn word(&self, words: &Words) -> String {
        l10n::word(self.lang.get(), words)
    }
}

/// How long after its room moved away a connection looks for it by itself
/// (the new owner's announcement usually comes first).
const MOVED_LOOK_AGAIN: std::time::Duration = std::time::Duration::from_secs(1);

/// How a session begins, as the errors show it.
pub(super) const HELLO_EXAMPLE: &str = r#"{"type":"hello","name":...}"#;

/// Resolves when the room this connection is in closes; never without one.
async fn room_closed(room: &Option<RoomHandle>) {
    match room {
        Some(room) => room.closed().await,
        None => std::future::pending().await,
    }
}

/// The next room of this connection that moved; never outside a cluster.
async fn next_move(
    moved: &mut Option<tokio::sync::mpsc::UnboundedReceiver<splendor_lobby::RoomCode>>,
) -> Option<splendor_lobby::RoomCode> {
    match moved {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

/// The next formed game of a queued session; never while not queued.
async fn next_match(
    matches: &mut Option<tokio::sync::mpsc::Receiver<splendor_lobby::Match>>,
) -> Option<splendor_lobby::Match> {
    match matches {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

/// Runs `work` to its end unless the server starts shutting down or evicts
/// its connections first: true if it stopped (`work` is dropped, and the
/// connection is to close with 1012).
async fn stopped_while(
    work: impl std::future::Future<Output = ()>,
    shutdown: &mut tokio::sync::watch::Receiver<bool>,
    evictions: &mut tokio::sync::watch::Receiver<u64>,
) -> bool {
    tokio::select! {
        () = work => false,
        _ = shutdown.wait_for(|down| *down) => true,
        Ok(()) = evictions.changed() => true,
    }
}
