//! One WebSocket connection: a reader that turns frames into requests, and a
//! writer that drains the connection's bounded queue into the socket.
//!
//! The reader is the only place a client's frames are interpreted: size
//! limit, then [`parse_client_frame`], then the connection's own checks
//! (identified? in a room?), then a call on the lobby or the room handle
//! with the session this connection proved with its token. Everything the
//! server says to the client goes through the queue, so the writer is the
//! only task writing to the socket. When either side ends, the other is
//! told through the connection's close signal.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use axum::Extension;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use splendor_lobby::{
    Caller, ClientKey, CloseReason, Connection, ConnectionRx, CreateRoom, LobbyError, Request,
    RoomHandle, RoomSeat, Session, SessionError,
};
use splendor_protocol::{
    Act, ClientFrame, ClientMessage, Create, ErrorCode, ErrorInfo, Hello, Join, Pong, RequestId,
    RoomList, ServerMessage, Welcome, parse_client_frame,
};
use splendor_rules::Action;
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::{Instant, MissedTickBehavior, sleep_until};
use tracing::{Instrument, Span, debug, info_span, warn};

use crate::AppState;
use crate::config::HARD_FRAME_LIMIT;
use crate::limits::per_ip::client_key;
use crate::limits::{IpGuard, MessageRate, Verdict};
use crate::metrics::Refusal;

/// How long a closing connection may take to send its close frame.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(1);

/// What a connection holds for as long as it is open: its slots under the
/// connection limits.
struct Slots {
    _server: OwnedSemaphorePermit,
    _per_ip: Option<IpGuard>,
}

/// `GET /ws`: checks the handshake against the limits, then upgrades to a
/// WebSocket speaking the game protocol.
///
/// Refusals are plain HTTP answers before the upgrade: 503 while shutting
/// down or when the server is full, 403 for a page of a site that is not
/// allowed, 429 when the client address holds too many connections.
pub(crate) async fn upgrade(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    headers: HeaderMap,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
) -> Response {
    let metrics = state.metrics();
    if state.is_shutting_down() {
        metrics.connection_refused(Refusal::ShuttingDown);
        return refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is restarting; retry shortly",
        );
    }
    let origin = headers
        .get(header::ORIGIN)
        .map(|v| v.to_str().unwrap_or("(not text)"));
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    if let Err(refused) = state.origins().check(origin, host) {
        debug!(origin = %refused.origin, "origin refused");
        metrics.connection_refused(Refusal::Origin);
        return refuse(StatusCode::FORBIDDEN, &refused.to_string());
    }
    let client_ip = client_ip(
        &state,
        &headers,
        peer.map(|Extension(ConnectInfo(addr))| addr),
    );
    if let Some(ip) = client_ip
        && !state.connect_rate().allow(ip, std::time::Instant::now())
    {
        debug!(%ip, "too many new connections from one address");
        metrics.connection_refused(Refusal::ConnectRate);
        return refuse(
            StatusCode::TOO_MANY_REQUESTS,
            "too many new connections from your address; retry in a minute",
        );
    }
    let per_ip = match client_ip {
        Some(ip) => match state.per_ip().try_acquire(ip) {
            Some(guard) => Some(guard),
            None => {
                debug!(%ip, "too many connections from one address");
                metrics.connection_refused(Refusal::PerIpLimit);
                return refuse(
                    StatusCode::TOO_MANY_REQUESTS,
                    "too many connections from your address",
                );
            }
        },
        None => None,
    };
    let Ok(server) = state.connection_slots().clone().try_acquire_owned() else {
        metrics.connection_refused(Refusal::ServerFull);
        return refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is full; retry later",
        );
    };
    let slots = Slots {
        _server: server,
        _per_ip: per_ip,
    };
    // Rooms are counted per client as connections are: IPv6 by its /64.
    let address = client_ip.map(|ip| ClientKey::new(client_key(ip).to_string()));
    let limit = HARD_FRAME_LIMIT.max(state.config().max_frame_bytes);
    ws.max_message_size(limit)
        .max_frame_size(limit)
        .on_upgrade(move |socket| serve_socket(socket, state, slots, address))
}

fn refuse(status: StatusCode, why: &str) -> Response {
    (status, format!("{why}\n")).into_response()
}

/// The client's address: from the configured proxy header if there is one
/// (its last entry, the one the proxy added), else the TCP peer.
fn client_ip(state: &AppState, headers: &HeaderMap, peer: Option<SocketAddr>) -> Option<IpAddr> {
    let from_header = state
        .config()
        .client_ip_header
        .as_deref()
        .and_then(|name| headers.get_all(name).iter().next_back())
        .and_then(|value| value.to_str().ok())
        .and_then(|list| list.rsplit(',').next())
        .and_then(|last| parse_ip(last.trim()));
    from_header.or(peer.map(|p| p.ip()))
}

/// An address as proxies write it: `ip`, `ip:port` or `[ipv6]:port`.
fn parse_ip(text: &str) -> Option<IpAddr> {
    text.parse::<IpAddr>()
        .ok()
        .or_else(|| text.parse::<SocketAddr>().ok().map(|a| a.ip()))
}

async fn serve_socket(
    socket: WebSocket,
    state: AppState,
    slots: Slots,
    address: Option<ClientKey>,
) {
    let _open = state.track_connection();
    let _counted = state.metrics().connection_opened();
    let (conn, rx) = Connection::new(state.config().outbound_queue);
    // The room a connection is in is not a field of this span: a span's
    // fields are written once per value, so a recorded room would outlive
    // a `leave` in the logs. Requests handled in a room run in a `room`
    // span under this one instead (see `Client::set_room`).
    let span = info_span!("conn", conn = %conn.id(), session = tracing::field::Empty);
    let conn_span = span.clone();
    async move {
        debug!("connected");
        let (sink, mut stream) = socket.split();
        let writer = tokio::spawn(write_loop(sink, rx, state.clone()).in_current_span());
        let now = Instant::now();
        let config = state.config();
        let mut client = Client {
            rate: MessageRate::new(
                config.max_messages_per_second,
                config.message_burst,
                now.into_std(),
            ),
            state,
            conn,
            address,
            session: None,
            room: None,
            conn_span,
            room_span: Span::none(),
        };
        client.read_loop(&mut stream).await;
        client.leave_quietly().await;
        client.conn.close(CloseReason::Normal);
        let _ = writer.await;
        let reason = client.conn.close_reason().unwrap_or(CloseReason::Normal);
        client.state.metrics().connection_closed(reason);
        // The closing handshake: our close frame is sent; read (and drop)
        // what the client still sends until its close frame, so that the
        // socket is not closed with unread data in it, which makes the
        // kernel reset the connection and can destroy our close frame
        // before the client reads it.
        let _ = tokio::time::timeout(CLOSE_TIMEOUT, async {
            while let Some(Ok(frame)) = stream.next().await {
                if matches!(frame, Message::Close(_)) {
                    break;
                }
            }
        })
        .await;
        drop(slots);
        debug!(?reason, "disconnected");
    }
    .instrument(span)
    .await
}

/// Drains the queue into the socket and pings the client every heartbeat
/// interval, until the connection is closed; then sends a close frame that
/// says why.
async fn write_loop(mut sink: SplitSink<WebSocket, Message>, rx: ConnectionRx, state: AppState) {
    let ConnectionRx {
        mut messages,
        close_signal: mut closed,
        ..
    } = rx;
    let every = state.config().heartbeat_interval;
    let mut heartbeat = tokio::time::interval_at(Instant::now() + every, every);
    heartbeat.set_missed_tick_behavior(MissedTickBehavior::Delay);
    // A message taken from the queue that the socket had not accepted yet
    // when a close request came: it is sent first if the queue is flushed.
    let mut in_hand: Option<Message> = None;
    let reason = loop {
        let (frame, is_message) = tokio::select! {
            biased;
            reason = closed.wait() => break reason,
            message = messages.recv() => {
                let Some(message) = message else { break CloseReason::Normal };
                (Message::Text(message.to_json().into()), true)
            }
            _ = heartbeat.tick() => (Message::Ping(Default::default()), false),
        };
        // A client that does not read must not hold the writer: a close
        // request interrupts the wait for the socket. The frame is handed
        // over only once the socket can take it, so it is never lost half-way.
        let ready = tokio::select! {
            biased;
            reason = closed.wait() => Err(reason),
            ready = std::future::poll_fn(|cx| sink.poll_ready_unpin(cx)) => Ok(ready),
        };
        match ready {
            Err(reason) => {
                in_hand = is_message.then_some(frame);
                break reason;
            }
            Ok(Err(_)) => return,
            Ok(Ok(())) => {}
        }
        if sink.start_send_unpin(frame).is_err() {
            return;
        }
        if is_message {
            state.metrics().message_sent();
        }
        tokio::select! {
            biased;
            // What was handed over goes out with the close frame.
            reason = closed.wait() => break reason,
            flushed = std::future::poll_fn(|cx| sink.poll_flush_unpin(cx)) => {
                if flushed.is_err() {
                    return;
                }
            }
        }
    };
    if reason != CloseReason::Normal {
        debug!(?reason, "closing");
    }
    // A client that is told why it is closed (rate limit, idle, restart,
    // replaced) first gets what was already queued for it, such as the
    // `rate_limited` error; one that does not read, or is gone, does not.
    let flush = matches!(
        reason,
        CloseReason::RateLimited
            | CloseReason::Idle
            | CloseReason::ShuttingDown
            | CloseReason::Replaced
    );
    let frame = CloseFrame {
        code: reason.code(),
        reason: reason.text().into(),
    };
    let _ = tokio::time::timeout(CLOSE_TIMEOUT, async {
        if flush && let Some(frame) = in_hand.take() {
            if sink.send(frame).await.is_err() {
                return;
            }
            state.metrics().message_sent();
        }
        while flush && let Ok(message) = messages.try_recv() {
            if sink
                .send(Message::Text(message.to_json().into()))
                .await
                .is_err()
            {
                return;
            }
            state.metrics().message_sent();
        }
        let _ = sink.send(Message::Close(Some(frame))).await;
        let _ = sink.close().await;
    })
    .await;
}

/// The reading side of one connection and what it knows about its client.
struct Client {
    state: AppState,
    conn: Connection,
    /// The client's address as the limits count it, for the lobby's limit
    /// of waiting rooms per address (`None`: unknown, as for a router
    /// served without peer addresses).
    address: Option<ClientKey>,
    /// Set by `hello`; the only identity this connection acts with.
    session: Option<Session>,
    /// The room this connection is in; changed only by `set_room`.
    room: Option<RoomHandle>,
    /// The connection's span, parent of `room_span`.
    conn_span: Span,
    /// A `room` span naming the room this connection is in (a disabled span
    /// while in none): what the connection logs while handling a request
    /// carries the room it is in at that moment.
    room_span: Span,
    /// Messages per second.
    rate: MessageRate,
}

impl Client {
    async fn read_loop(&mut self, stream: &mut SplitStream<WebSocket>) {
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
        loop {
            self.forget_closed_room();
            // The idle clock runs only outside rooms: a player waiting for
            // the others, or a spectator, sends nothing for long stretches.
            // It starts when the connection is out of its room (it left, or
            // the room closed by itself): a spectator quiet through a long
            // game is not closed the moment the room is gone.
            let in_room = self.in_room();
            if was_in_room && !in_room {
                last_message = Instant::now();
            }
            was_in_room = in_room;
            let idle_deadline = (!in_room).then(|| last_message + idle_timeout);
            let frame = tokio::select! {
                _ = &mut closed => return,
                _ = shutdown.wait_for(|down| *down) => {
                    self.conn.close(CloseReason::ShuttingDown);
                    return;
                }
                () = sleep_until(last_heard + heartbeat_timeout) => {
                    self.room_span.in_scope(|| debug!("no answer to pings"));
                    self.conn.close(CloseReason::HeartbeatTimeout);
                    return;
                }
                () = sleep_until_or_never(idle_deadline) => {
                    debug!("idle");
                    self.conn.close(CloseReason::Idle);
                    return;
                }
                frame = stream.next() => frame,
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
                    let span = self.room_span.clone();
                    if span.in_scope(|| self.admit()) {
                        self.on_text(text.as_str()).instrument(span).await;
                    }
                }
                Some(Ok(Message::Binary(_))) => {
                    last_message = last_heard;
                    let span = self.room_span.clone();
                    span.in_scope(|| {
                        if self.admit() {
                            self.reply_error(
                                ErrorCode::BadMessage,
                                "binary frames are not supported; send JSON text frames",
                                None,
                            );
                        }
                    });
                }
                // The WebSocket library answers pings itself.
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
            }
            if self.conn.close_reason().is_some() {
                return;
            }
        }
    }

    /// Counts a message and applies the message rate: true if it is to be
    /// handled. Refused messages are not parsed at all.
    fn admit(&mut self) -> bool {
        self.state.metrics().message_received();
        match self.rate.check(Instant::now().into_std()) {
            Verdict::Allow => true,
            Verdict::Refuse => {
                let config = self.state.config();
                let message = format!(
                    "too many messages: at most {} per second (bursts of {}); this one was not \
                     handled, and sending on before slowing down closes the connection",
                    config.max_messages_per_second, config.message_burst
                );
                self.reply_error(ErrorCode::RateLimited, message, None);
                false
            }
            Verdict::Drop => false,
            Verdict::Close => {
                debug!("rate limit exceeded");
                self.conn.close(CloseReason::RateLimited);
                false
            }
        }
    }

    /// Whether the connection is in a room that is still open.
    fn in_room(&self) -> bool {
        self.room.as_ref().is_some_and(|room| !room.is_closed())
    }

    async fn on_text(&mut self, text: &str) {
        let limit = self.state.config().max_frame_bytes;
        if text.len() > limit {
            self.reply_error(
                ErrorCode::FrameTooLarge,
                format!(
                    "frames are limited to {limit} bytes, this one has {}",
                    text.len()
                ),
                None,
            );
            return;
        }
        match parse_client_frame(text) {
            Ok(ClientFrame { id, message }) => self.dispatch(message, id).await,
            Err(e) => self.reply_error(e.code, e.message, e.id),
        }
    }

    async fn dispatch(&mut self, message: ClientMessage, id: Option<RequestId>) {
        match message {
            ClientMessage::Hello(hello) => self.hello(hello, id).await,
            ClientMessage::Ping => self.send(ServerMessage::Pong(Pong { id })),
            ClientMessage::ListRooms => self.send(ServerMessage::Rooms(RoomList {
                id,
                rooms: self.state.lobby().listed_rooms(),
            })),
            ClientMessage::Create(create) => self.create(create, id),
            ClientMessage::Join(join) => self.join(join, id).await,
            ClientMessage::Leave => self.leave(id).await,
            ClientMessage::Start(start) => {
                let order = start.seat_order;
                self.call_room(Request::Start { order }, id).await;
            }
            ClientMessage::Act(act) => self.act(act, id).await,
            ClientMessage::Sync => {
                self.call_room(Request::Sync, id).await;
            }
        }
    }

    // ---- identity -------------------------------------------------------

    async fn hello(&mut self, hello: Hello, id: Option<RequestId>) {
        if let Some(session) = &self.session {
            let message = format!("this connection is already {:?}", session.name);
            return self.reply_error(ErrorCode::AlreadyIdentified, message, id);
        }
        let names = *self.state.names();
        let name = match hello.name.as_deref().map(|n| names.check(n)).transpose() {
            Ok(name) => name,
            Err(why) => return self.reply_error(ErrorCode::InvalidName, why, id),
        };
        let sessions = self.state.sessions();
        let (session, token, resumed) = match (hello.token, name) {
            (Some(token), name) => match sessions.resume(&token).await {
                Ok(Some(mut session)) => {
                    if let Some(name) = name
                        && name != session.name
                    {
                        if let Err(e) = sessions.rename(session.id, &name).await {
                            warn!(error = %e, "session rename failed");
                            return self.reply_session_error(&e, id);
                        }
                        session.name = name;
                    }
                    (session, token, true)
                }
                Ok(None) => {
                    return self.reply_error(
                        ErrorCode::InvalidToken,
                        "unknown session token; send {\"type\":\"hello\",\"name\":...} for a new session",
                        id,
                    );
                }
                Err(e) => {
                    warn!(error = %e, "session lookup failed");
                    return self.reply_session_error(&e, id);
                }
            },
            (None, Some(name)) => match sessions.create(&name).await {
                Ok((session, token)) => (session, token.expose().to_owned(), false),
                Err(e) => {
                    warn!(error = %e, "session creation failed");
                    return self.reply_session_error(&e, id);
                }
            },
            (None, None) => {
                return self.reply_error(
                    ErrorCode::MissingField,
                    "hello: needs a \"name\" (new session) or a \"token\" (resume)",
                    id,
                );
            }
        };
        self.conn_span
            .record("session", tracing::field::display(session.id));
        debug!(resumed, "identified");
        // A newer connection for the same session replaces the old one.
        let room = self.state.lobby().presence().claim(session.id, &self.conn);
        self.send(ServerMessage::Welcome(Welcome {
            id,
            session: session.id.to_string(),
            token,
            name: session.name.clone(),
            resumed,
        }));
        self.session = Some(session.clone());
        // Back into the room the session was in: its seat and the current state at once.
        if let Some(seat) = room {
            self.rejoin(session, seat).await;
        }
    }

    async fn rejoin(&mut self, session: Session, seat: RoomSeat) {
        let presence = self.state.lobby().presence();
        let Some(handle) = self.state.lobby().find_code(seat.code) else {
            presence.forget_room(session.id, seat.code);
            return;
        };
        match handle
            .join(
                self.caller(&session, None),
                session.name.clone(),
                seat.role,
                self.conn.clone(),
            )
            .await
        {
            Ok(joined) => {
                presence.set_room(
                    session.id,
                    Some(RoomSeat {
                        code: seat.code,
                        role: joined.role,
                    }),
                );
                self.set_room(Some(handle));
            }
            Err(e) => {
                debug!(error = %e, "could not rejoin");
                presence.forget_room(session.id, seat.code);
            }
        }
    }

    // ---- rooms ----------------------------------------------------------

    fn create(&mut self, create: Create, id: Option<RequestId>) {
        let Some(session) = self.require_session(&id) else {
            return;
        };
        if let Some(code) = self.current_room_code() {
            return self.reply_lobby_error(LobbyError::AlreadyInRoom(code), id);
        }
        let created = self.state.lobby().create_room(CreateRoom {
            seats: create.seats,
            listed: create.listed,
            host: session.clone(),
            conn: self.conn.clone(),
            request: id.clone(),
            client: self.address.clone(),
        });
        match created {
            Ok(handle) => {
                self.state.lobby().presence().set_room(
                    session.id,
                    Some(RoomSeat {
                        code: handle.code(),
                        role: splendor_protocol::Role::Player,
                    }),
                );
                self.set_room(Some(handle));
            }
            Err(e) => self.reply_lobby_error(e, id),
        }
    }

    async fn join(&mut self, join: Join, id: Option<RequestId>) {
        let Some(session) = self.require_session(&id) else {
            return;
        };
        if let Some(code) = self.current_room_code() {
            return self.reply_lobby_error(LobbyError::AlreadyInRoom(code), id);
        }
        let handle = match self.state.lobby().find(&join.code) {
            Ok(handle) => handle,
            Err(e) => return self.reply_lobby_error(e, id),
        };
        match handle
            .join(
                self.caller(&session, id.clone()),
                session.name.clone(),
                join.role,
                self.conn.clone(),
            )
            .await
        {
            Ok(joined) => {
                self.state.lobby().presence().set_room(
                    session.id,
                    Some(RoomSeat {
                        code: handle.code(),
                        role: joined.role,
                    }),
                );
                self.set_room(Some(handle));
            }
            Err(e) => self.reply_lobby_error(e, id),
        }
    }

    async fn leave(&mut self, id: Option<RequestId>) {
        let Some(session) = self.call_room(Request::Leave, id).await else {
            return;
        };
        self.set_room(None);
        self.state.lobby().presence().set_room(session.id, None);
    }

    async fn act(&mut self, act: Act, id: Option<RequestId>) {
        // Shape first: an action that cannot be expressed is refused whoever sends it.
        let action = match Action::try_from(&act.action) {
            Ok(action) => action,
            Err(e) => return self.reply_error(ErrorCode::InvalidAction, e.to_string(), id),
        };
        let request = Request::Act {
            action,
            expect_version: act.expect_version,
        };
        self.call_room(request, id).await;
    }

    /// Sends `request` to the room this connection is in, as this
    /// connection's session; an error is answered here. The session, if
    /// the room did it.
    async fn call_room(&mut self, request: Request, id: Option<RequestId>) -> Option<Session> {
        let (session, room) = self.require_room(&id)?;
        match room.call(self.caller(&session, id.clone()), request).await {
            Ok(_) => Some(session),
            Err(e) => {
                self.reply_lobby_error(e, id);
                None
            }
        }
    }

    /// Who this connection is, for the room.
    fn caller(&self, session: &Session, request: Option<RequestId>) -> Caller {
        Caller {
            session: session.id,
            conn: self.conn.id(),
            request,
        }
    }

    /// Leaves the room without a goodbye: the connection ended.
    async fn leave_quietly(&mut self) {
        let Some(session) = self.session.as_ref().map(|s| s.id) else {
            return;
        };
        if let Some(room) = self.room.clone() {
            self.set_room(None);
            room.detach(Caller {
                session,
                conn: self.conn.id(),
                request: None,
            })
            .await;
        }
        self.state
            .lobby()
            .presence()
            .release(session, self.conn.id());
    }

    // ---- helpers --------------------------------------------------------

    /// Remembers the room this connection is now in, or that it is in
    /// none, and gives it the matching `room` span (a child of the
    /// connection's, whatever span is current), so that log lines follow
    /// the connection from room to room.
    fn set_room(&mut self, room: Option<RoomHandle>) {
        self.room_span = match &room {
            Some(handle) => info_span!(parent: &self.conn_span, "room", room = %handle.code()),
            None => Span::none(),
        };
        self.room = room;
    }

    /// Forgets a room that closed by itself (expired), so that the idle
    /// clock runs and log lines no longer name it.
    fn forget_closed_room(&mut self) {
        if self.room.as_ref().is_some_and(RoomHandle::is_closed) {
            self.set_room(None);
        }
    }

    fn require_session(&self, id: &Option<RequestId>) -> Option<Session> {
        if self.session.is_none() {
            self.reply_error(
                ErrorCode::NotIdentified,
                "send {\"type\":\"hello\",\"name\":...} first",
                id.clone(),
            );
        }
        self.session.clone()
    }

    /// The code of the room this connection is in, forgetting a room that closed.
    fn current_room_code(&mut self) -> Option<String> {
        self.forget_closed_room();
        self.room.as_ref().map(|r| r.code().to_string())
    }

    fn require_room(&mut self, id: &Option<RequestId>) -> Option<(Session, RoomHandle)> {
        let session = self.require_session(id)?;
        self.current_room_code();
        match &self.room {
            Some(room) => Some((session, room.clone())),
            None => {
                self.reply_lobby_error(LobbyError::NotInRoom, id.clone());
                None
            }
        }
    }

    fn send(&self, message: ServerMessage) {
        // A failed send has already closed the connection (too slow or gone).
        let _ = self.conn.send(message);
    }

    /// Bad input is answered, not logged as an error.
    fn reply_error(&self, code: ErrorCode, message: impl Into<String>, id: Option<RequestId>) {
        let info = ErrorInfo::new(code, message, id);
        debug!(code = %info.code, "request rejected");
        self.state.metrics().intent_rejected(&info.code);
        self.send(ServerMessage::Error(info));
    }

    /// A session store failure: the database being away is said as such
    /// (the client may retry); anything else is internal.
    fn reply_session_error(&self, error: &SessionError, id: Option<RequestId>) {
        match error {
            SessionError::Unavailable(_) => self.reply_error(
                ErrorCode::StorageUnavailable,
                "the server cannot reach its database right now; try again shortly",
                id,
            ),
            _ => self.reply_error(ErrorCode::Internal, "internal error", id),
        }
    }

    /// A refused request is answered, and logged only when it is the
    /// server's fault: an internal error, once, with its cause.
    fn reply_lobby_error(&mut self, error: LobbyError, id: Option<RequestId>) {
        match error.internal_cause() {
            Some(cause) => warn!(%cause, "internal error"),
            None => debug!(code = error.code(), "request rejected"),
        }
        self.state.metrics().intent_rejected(error.code());
        if error == LobbyError::RoomClosed {
            // The room is gone; this connection is in no room any more.
            self.set_room(None);
            if let Some(session) = &self.session {
                self.state.lobby().presence().set_room(session.id, None);
            }
        }
        self.send(ServerMessage::Error(error.to_error_info(id)));
    }
}

async fn sleep_until_or_never(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}
