//! HTTP API requests per client address per minute (issue 22, defect 4):
//! `GET /api/games/{id}/positions` answers a quarter of a megabyte, and
//! four connections drawing it as fast as they could took more than a core
//! and doubled an unrelated game's p99. Each client key (IPv4 address,
//! IPv6 /64) gets a bucket of `per_minute` requests that refills
//! continuously ([`ConnectRate`]'s buckets); past it, 429 with
//! `Retry-After`. Only `/api/...` counts: the page's own files, `/ws`
//! (limited per connection), the probes and `/metrics` do not.

use std::net::SocketAddr;
use std::time::Instant;

use axum::Json;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use tracing::debug;

use crate::AppState;

/// The middleware: counts the request against its address's bucket.
pub(crate) async fn limit(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let Some(rate) = state.api_rate() else {
        return next.run(request).await;
    };
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| *addr);
    if let Some(ip) = crate::ws::budgeted_ip(&state, request.headers(), peer)
        && !rate.allow(ip, Instant::now())
    {
        debug!(%ip, path = %request.uri().path(), "too many API requests from one address");
        state.metrics().api_request_limited();
        state.slow_refusals().pause().await;
        return (
            StatusCode::TOO_MANY_REQUESTS,
            [(header::RETRY_AFTER, "10")],
            Json(json!({
                "error": "rate_limited",
                "message": "too many requests from your address; wait a few seconds"
            })),
        )
            .into_response();
    }
    next.run(request).await
}
