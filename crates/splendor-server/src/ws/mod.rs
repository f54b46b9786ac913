//! One WebSocket connection: a reader that turns frames into requests, and a
//! writer that drains the connection's bounded queue into the socket.
//!
//! The reader is the only place a client's frames are interpreted: size
//! limit, then [`splendor_protocol::parse_client_frame`], then the connection's own checks
//! (identified? in a room?), then a call on the lobby or the room handle
//! with the session this connection proved with its token. Everything the
//! server says to the client goes through the queue, so the writer is the
//! only task writing to the socket. When either side ends, the other is
//! told through the connection's close signal.
//!
//! - this module: the handshake (limits, origin) and the connection's life;
//! - `client`: the reader, which turns frames into requests;
//! - `writer`: the writer, which drains the queue into the socket.

mod blocks;
mod client;
mod deadlines;
mod dispatch;
mod identity;
mod invite;
mod programs;
mod queue;
mod report;
mod rooms;
mod writer;

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use axum::Extension;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use futures_util::stream::{SplitSink, SplitStream};
use splendor_lobby::{ClientKey, CloseReason, Connection, ConnectionRx};
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::Instant;
use tracing::{Instrument, Span, debug, info_span};

use crate::AppState;
use crate::config::HARD_FRAME_LIMIT;
use crate::limits::per_ip::client_key;
use crate::limits::{IpGuard, MessageRate};
use crate::metrics::Refusal;
use client::Client;
use writer::write_loop;

/// The socket's read buffer. Client frames are small (a few hundred bytes;
/// at most `max_frame_bytes`, and a larger frame still reads, in several
/// reads). The library's default of 128 KiB was most of an idle
/// connection's memory, and it zero-filled that much on every read.
const READ_BUFFER_BYTES: usize = 1024;

/// Bytes gathered before a write reaches the socket. The writer flushes
/// after every message anyway; this only keeps the buffer small.
const WRITE_BUFFER_BYTES: usize = 4 * 1024;

/// The most a connection's write buffer may hold (it grows past
/// `WRITE_BUFFER_BYTES` only while writes to the socket fail): a bound on
/// what one connection can cost, well above the largest message.
const MAX_WRITE_BUFFER_BYTES: usize = 256 * 1024;

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
    let budgeted = client_ip.filter(|ip| !unlimited(&state, *ip));
    if let Some(ip) = budgeted
        && !state.connect_rate().allow(ip, std::time::Instant::now())
    {
        debug!(%ip, "too many new connections from one address");
        metrics.connection_refused(Refusal::ConnectRate);
        let key = crate::limits::per_ip::client_key(ip).to_string();
        crate::auto_audit::audit(
            &state,
            crate::auto_audit::Automatic::ConnectRate,
            Some(&key),
        )
        .await;
        state.slow_refusals().pause().await;
        return refuse(
            StatusCode::TOO_MANY_REQUESTS,
            "too many new connections from your address; retry in a minute",
        );
    }
    let per_ip = match budgeted {
        Some(ip) => match state.per_ip().try_acquire(ip) {
            Some(guard) => Some(guard),
            None => {
                debug!(%ip, "too many connections from one address");
                metrics.connection_refused(Refusal::PerIpLimit);
                let key = crate::limits::per_ip::client_key(ip).to_string();
                crate::auto_audit::audit(
                    &state,
                    crate::auto_audit::Automatic::PerAddress,
                    Some(&key),
                )
                .await;
                state.slow_refusals().pause().await;
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
        .read_buffer_size(READ_BUFFER_BYTES)
        .write_buffer_size(WRITE_BUFFER_BYTES)
        .max_write_buffer_size(MAX_WRITE_BUFFER_BYTES)
        .on_upgrade(move |socket| {
            // The connection's own task holds only its halves: the upgrade's
            // task ends here, and with it what it kept of the handshake.
            let (sink, stream) = socket.split();
            let node = state.lobby().config().node;
            let conn = Connection::on_node(node, state.config().outbound_queue);
            // The room a connection is in is not a field of this span: a
            // span's fields are written once per value, so a recorded room
            // would outlive a `leave` in the logs. Requests handled in a room
            // run in a `room` span under this one instead (see
            // `Client::set_room`).
            let span = info_span!("conn", conn = %conn.0.id(), session = tracing::field::Empty);
            // Instrumented here rather than inside: a task that awaits an
            // inner future holds what it moved into it twice (issue 20).
            let serve = serve_socket((sink, stream), state, slots, address, conn, span.clone());
            tokio::spawn(serve.instrument(span));
            std::future::ready(())
        })
}

fn refuse(status: StatusCode, why: &str) -> Response {
    (status, format!("{why}\n")).into_response()
}

/// The client's address: from the configured proxy header if there is one
/// (its last entry, the one the proxy added), else the TCP peer.
pub(crate) fn client_ip(
    state: &AppState,
    headers: &HeaderMap,
    peer: Option<SocketAddr>,
) -> Option<IpAddr> {
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

/// Whether the host lifted the per-address budgets for `ip`
/// (`SPLENDOR_UNLIMITED_ADDRESSES`).
pub(crate) fn unlimited(state: &AppState, ip: IpAddr) -> bool {
    crate::limits::unlimited::is_unlimited(&state.config().unlimited_addresses, ip)
}

/// The client's address as the per-address budgets count it: none for an
/// address the host lifted them for.
pub(crate) fn budgeted_ip(
    state: &AppState,
    headers: &HeaderMap,
    peer: Option<SocketAddr>,
) -> Option<IpAddr> {
    client_ip(state, headers, peer).filter(|ip| !unlimited(state, *ip))
}

/// An address as proxies write it: `ip`, `ip:port` or `[ipv6]:port`.
fn parse_ip(text: &str) -> Option<IpAddr> {
    text.parse::<IpAddr>()
        .ok()
        .or_else(|| text.parse::<SocketAddr>().ok().map(|a| a.ip()))
}

async fn serve_socket(
    (sink, mut stream): (SplitSink<WebSocket, Message>, SplitStream<WebSocket>),
    state: AppState,
    slots: Slots,
    address: Option<ClientKey>,
    (conn, rx): (Connection, ConnectionRx),
    conn_span: Span,
) {
    let _open = state.track_connection();
    let _counted = state.metrics().connection_opened();
    debug!("connected");
    let lang = crate::l10n::LangCell::default();
    let writer = tokio::spawn(write_loop(sink, rx, state.clone(), lang.clone()).in_current_span());
    let now = Instant::now();
    let moved = state.nudges().map(|n| n.register(conn.id()));
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
        flooded: false,
        session: None,
        verbose: false,
        lang,
        room: None,
        matches: None,
        awaiting_rematch: false,
        bots_at: None,
        program: false,
        challenges: false,
        blocked: Vec::new(),
        look_again: None,
        claim: None,
        device: 0,
        conn_span,
        room_span: Span::none(),
        liveness: None,
        lapsed: false,
        moved,
    };
    client.read_loop(&mut stream).await;
    if let Some(nudges) = client.state.nudges() {
        nudges.forget(client.conn.id());
    }
    Box::pin(client.leave_quietly()).await;
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
