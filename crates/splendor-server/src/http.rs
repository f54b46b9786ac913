//! The plain HTTP endpoints.

use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use splendor_protocol::RoomList;
use tracing::warn;

use crate::AppState;

/// How long `/readyz` waits for the database.
const READY_PING_TIMEOUT: Duration = Duration::from_secs(2);

/// Liveness: answers 200 while the process serves HTTP at all.
pub(crate) async fn healthz() -> (StatusCode, &'static str) {
    (StatusCode::OK, "ok\n")
}

/// Readiness: 200 when the server takes new players: not shutting down,
/// and the database answers. A load balancer sends no one to a 503.
pub(crate) async fn readyz(State(state): State<AppState>) -> (StatusCode, &'static str) {
    readiness(&state).await
}

/// What `/readyz` answers, and why.
async fn readiness(state: &AppState) -> (StatusCode, &'static str) {
    if state.is_shutting_down() {
        return (StatusCode::SERVICE_UNAVAILABLE, "shutting down\n");
    }
    if let Some(storage) = state.storage() {
        match tokio::time::timeout(READY_PING_TIMEOUT, storage.ping()).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                // The reason may name hosts: it goes to the log, not to the client.
                warn!(error = %e, "readiness: the database does not answer");
                return (StatusCode::SERVICE_UNAVAILABLE, "database unreachable\n");
            }
            Err(_) => {
                warn!("readiness: the database did not answer in time");
                return (StatusCode::SERVICE_UNAVAILABLE, "database unreachable\n");
            }
        }
    }
    // Without NATS, rooms on this node play on and calls to other nodes'
    // rooms answer room_unavailable: still ready, but say so.
    if let Some(cluster) = state.cluster()
        && !cluster.nats_connected()
    {
        return (StatusCode::OK, "ready (degraded: nats)\n");
    }
    (StatusCode::OK, "ready\n")
}

/// The Prometheus figures.
pub(crate) async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    // Readiness as `/readyz` sees it now, for alerts on a lost database.
    let ready = readiness(&state).await.0 == StatusCode::OK;
    state.metrics().set_ready(ready);
    (
        [(header::CONTENT_TYPE, crate::metrics::CONTENT_TYPE)],
        state.metrics().render(),
    )
}

/// Every card and noble with its details, for clients of lean states
/// (protocol 2) that show or weigh cards by id. It never changes: clients
/// may keep it as long as they like.
pub(crate) async fn catalogue() -> impl IntoResponse {
    (
        [(header::CACHE_CONTROL, "public, max-age=86400")],
        Json(splendor_protocol::catalogue()),
    )
}

/// The listed rooms that are waiting for players and have a free seat.
pub(crate) async fn rooms(State(state): State<AppState>) -> Json<RoomList> {
    Json(RoomList {
        id: None,
        rooms: state.lobby().listed_rooms_everywhere().await,
    })
}
