//! The operators' API (issue 22): `/api/admin/...`, behind the operators'
//! token (`Authorization: Bearer TOKEN`). Without a token configured the
//! routes do not exist. Without the right token every admin path answers
//! the same 401, whatever it names (it reveals nothing, not even whether a
//! room exists); an address that sent [`MAX_WRONG`] wrong tokens within a
//! minute is refused (429) until the minute is over, right token or not.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::Json;
use axum::Router;
use axum::extract::{ConnectInfo, Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use serde::{Deserialize, Serialize};
use serde_json::json;
use tracing::warn;

use crate::AppState;
use crate::config::AdminToken;

mod bans;
mod remove;
mod reports;

/// The largest body an admin route reads.
const MAX_BODY: usize = 16 * 1024;

/// Wrong tokens one address may send per minute.
pub(crate) const MAX_WRONG: u32 = 10;

const WINDOW: Duration = Duration::from_secs(60);

/// The token and the count of wrong ones per address.
pub(crate) struct AdminGate {
    token: AdminToken,
    wrong: Mutex<HashMap<IpAddr, (u32, Instant)>>,
}

impl AdminGate {
    pub(crate) fn new(token: AdminToken) -> AdminGate {
        AdminGate {
            token,
            wrong: Mutex::new(HashMap::new()),
        }
    }

    fn wrong(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, (u32, Instant)>> {
        self.wrong.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether `ip` used up its wrong tokens for this minute.
    fn blocked(&self, ip: IpAddr, now: Instant) -> bool {
        let mut wrong = self.wrong();
        wrong.retain(|_, (_, since)| now.saturating_duration_since(*since) < WINDOW);
        wrong.get(&ip).is_some_and(|(n, _)| *n >= MAX_WRONG)
    }

    fn count_wrong(&self, ip: IpAddr, now: Instant) {
        self.wrong().entry(ip).or_insert((0, now)).0 += 1;
    }
}

/// The admin routes, if a token is configured.
pub(crate) fn routes(state: &AppState) -> Option<Router<AppState>> {
    state.admin_gate()?;
    Some(
        Router::new()
            .route("/api/admin/rooms", get(rooms))
            .route(
                "/api/admin/rooms/{code}/remove",
                axum::routing::post(remove::remove),
            )
            .route(
                "/api/admin/rooms/{code}/close",
                axum::routing::post(remove::close),
            )
            .route("/api/admin/bans", get(bans::list).post(bans::create))
            .route("/api/admin/bans/{id}/lift", axum::routing::post(bans::lift))
            .route("/api/admin/mutes", get(bans::mutes).post(bans::mute))
            .route(
                "/api/admin/mutes/{id}/lift",
                axum::routing::post(bans::lift),
            )
            .route("/api/admin/marks", get(bans::marks).post(bans::mark))
            .route(
                "/api/admin/marks/{id}/lift",
                axum::routing::post(bans::lift),
            )
            .route("/api/admin/audit", get(bans::audit))
            .route("/api/admin/reports", get(reports::list))
            .route(
                "/api/admin/reports/{id}/resolve",
                axum::routing::post(reports::resolve),
            )
            .route("/api/admin/sessions", get(reports::sessions))
            .route("/api/admin/sessions/{session}", get(reports::session))
            .route("/api/admin/queue", get(reports::queue))
            .route(
                "/api/admin/players/{session}/forget",
                axum::routing::post(bans::forget),
            )
            .route("/api/admin", any(unknown))
            .route("/api/admin/{*rest}", any(unknown))
            .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
            .route_layer(middleware::from_fn_with_state(state.clone(), authorize)),
    )
}

fn unauthorized() -> Response {
    (
        StatusCode::UNAUTHORIZED,
        [(header::WWW_AUTHENTICATE, "Bearer")],
        Json(json!({
            "error": "unauthorized",
            "message": "the operators' API needs the operators' token: Authorization: Bearer TOKEN"
        })),
    )
        .into_response()
}

async fn authorize(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let Some(gate) = state.admin_gate() else {
        return unauthorized();
    };
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| *addr);
    let ip = crate::ws::client_ip(&state, request.headers(), peer);
    let now = Instant::now();
    if let Some(ip) = ip
        && gate.blocked(ip, now)
    {
        return (
            StatusCode::TOO_MANY_REQUESTS,
            [(header::RETRY_AFTER, "60")],
            Json(json!({
                "error": "too_many_attempts",
                "message": "too many wrong operator tokens from this address; wait a minute"
            })),
        )
            .into_response();
    }
    match bearer(request.headers()) {
        Some(presented) if gate.token.matches(presented) => next.run(request).await,
        Some(_) => {
            if let Some(ip) = ip {
                gate.count_wrong(ip, now);
                if gate.blocked(ip, now) {
                    let key = crate::limits::per_ip::client_key(ip).to_string();
                    crate::auto_audit::audit(
                        &state,
                        crate::auto_audit::Automatic::TokenGuessing,
                        Some(&key),
                    )
                    .await;
                }
            }
            warn!(client = ?ip, path = %request.uri().path(), "a wrong operator token");
            unauthorized()
        }
        None => unauthorized(),
    }
}

pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

async fn unknown() -> Response {
    (
        StatusCode::NOT_FOUND,
        Json(json!({"error": "not_found", "message": "no such operators' route"})),
    )
        .into_response()
}

/// What `GET /api/admin/rooms` may be asked.
#[derive(Debug, Deserialize)]
struct RoomsQuery {
    /// Rooms whose code, host or client address contains this (any case).
    q: Option<String>,
}

/// One live room, as the operators see it.
#[derive(Debug, Serialize)]
struct AdminRoom {
    code: String,
    /// The node that runs it (its owner), and its lease.
    node: u16,
    epoch: u64,
    status: splendor_protocol::RoomStatus,
    seats: u8,
    players: u8,
    host: String,
    listed: bool,
    /// The session that made it.
    creator: Option<String>,
    /// The address it was made from (IPv6 by its /64).
    client: Option<String>,
    /// Its game in play, if any: who sits where, when it started, its last
    /// move and its clock (from the store, so on every node alike).
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<AdminGame>,
}

/// The game in play of a live room, as the operators see it.
#[derive(Debug, Serialize)]
struct AdminGame {
    /// Who sits where: names, and a built-in bot's level.
    players: Vec<serde_json::Value>,
    started_at: i64,
    last_move_at: Option<i64>,
    /// The turn clock as `create` gave it (R12), if any.
    clock: Option<serde_json::Value>,
}

async fn rooms(State(state): State<AppState>, Query(query): Query<RoomsQuery>) -> Response {
    let rooms = match state.lobby().open_rooms_everywhere().await {
        Ok(rooms) => rooms,
        Err(e) => {
            return (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({"error": "unavailable", "message": e.to_string()})),
            )
                .into_response();
        }
    };
    let needle = query.q.as_deref().map(str::to_lowercase);
    // The games in play, newest first: each live room's is the newest of
    // its code. Without a store, none.
    let mut games: HashMap<String, splendor_store::LiveGame> = HashMap::new();
    if let Some(store) = state.store() {
        match store.live_games().await {
            Ok(list) => {
                for game in list {
                    games.entry(game.room.clone()).or_insert(game);
                }
            }
            Err(e) => warn!(error = %e, "the games in play cannot be read for the operators"),
        }
    }
    let rooms: Vec<AdminRoom> = rooms
        .into_iter()
        .map(|r| AdminRoom {
            code: r.summary.code,
            node: r.lease.node.0,
            epoch: r.lease.epoch,
            status: r.summary.status,
            seats: r.summary.seats,
            players: r.summary.players,
            host: r.summary.host,
            listed: r.listed,
            // As `welcome` names sessions.
            creator: r.creator.map(|s| s.0.simple().to_string()),
            client: r.client.map(|c| c.as_str().to_owned()),
            game: None,
        })
        .map(|mut room| {
            if room.status != splendor_protocol::RoomStatus::Waiting
                && let Some(game) = games.remove(&room.code)
            {
                room.game = Some(AdminGame {
                    players: game
                        .seats
                        .iter()
                        .map(|s| json!({"seat": s.seat, "name": s.name, "bot": s.bot}))
                        .collect(),
                    started_at: game.started_at,
                    last_move_at: game.last_move_at,
                    clock: game
                        .clock_json
                        .as_deref()
                        .and_then(|c| serde_json::from_str(c).ok()),
                });
            }
            room
        })
        .filter(|r| {
            needle.as_deref().is_none_or(|n| {
                [Some(&r.code), Some(&r.host), r.client.as_ref()]
                    .into_iter()
                    .flatten()
                    .any(|field| field.to_lowercase().contains(n))
            })
        })
        .collect();
    Json(json!({ "rooms": rooms })).into_response()
}
