//! `GET /api/games/{id}/analysis` (issue 26): the analysis of a finished
//! game. 200 with the analysis when it is made; otherwise it is started
//! (if nobody has) and the answer is 202 with where it stands:
//! `{"status": "queued" | "running", "done": N, "total": M, "ahead": K}`
//! (`splendor_analysis::Progress`) and a `Retry-After` of a couple of
//! seconds; docs/analysis.schema.json has both forms. A running game is 404
//! `game_not_finished`, as everywhere in the history API: nothing of a
//! game in play is analysed. `Authorization: Bearer TOKEN` is optional; it
//! makes the session's share count besides the address's (an unknown
//! token is 401).

use std::net::SocketAddr;

use axum::Json;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use splendor_analysis::{Progress, ProgressStatus};
use tracing::error;

use super::{Refusal, Standing};
use crate::AppState;
use crate::games::{ApiError, finished_game};
use crate::limits::per_ip::client_key;

/// `GET /api/games/{id}/analysis`.
pub(crate) async fn analysis(
    State(state): State<AppState>,
    Path(id): Path<String>,
    extensions: axum::http::Extensions,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let mut keys = Vec::new();
    if let Some(token) = crate::admin::bearer(&headers) {
        match state.sessions().resume(token).await {
            Ok(Some(session)) => keys.push(format!("session:{}", session.id.0.simple())),
            Ok(None) => {
                return Err(ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "unauthorized",
                    "the token is not a session's; send none, or the one hello gave",
                ));
            }
            Err(e) => {
                tracing::warn!(error = %e, "analysis request: sessions unavailable");
                return Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "storage_unavailable",
                    "the session cannot be checked right now; try again shortly",
                ));
            }
        }
    }
    let game = finished_game(&state, &id).await?;
    let Some(analyses) = state.analyses() else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "game_not_found",
            "this server keeps no game history",
        ));
    };
    let peer = extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| *addr);
    let ip = crate::ws::client_ip(&state, &headers, peer);
    if let Some(ip) = ip {
        keys.push(format!("addr:{}", client_key(ip)));
    }
    let plan = || match splendor_lobby::stored::replay_of(&game) {
        Some(Ok(replay)) => splendor_analysis::Plan::new(&replay)
            .inspect_err(|e| error!(game = %id, error = %e, "a stored game does not analyse"))
            .ok(),
        Some(Err(why)) => {
            error!(game = %id, error = %why, "a stored game does not replay");
            None
        }
        None => None,
    };
    let standing = analyses.ask(game.id, keys, plan).await;
    let pending = |status, done, total, ahead: Option<usize>| {
        (
            StatusCode::ACCEPTED,
            [(header::RETRY_AFTER, HeaderValue::from_static("2"))],
            Json(Progress {
                status,
                done,
                total,
                ahead: ahead.map(|a| a as u32),
            }),
        )
            .into_response()
    };
    match standing {
        Ok(Standing::Done(body)) => Ok((
            [
                (
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                ),
                // Made once, never changed.
                (
                    header::CACHE_CONTROL,
                    HeaderValue::from_static("public, max-age=86400, immutable"),
                ),
            ],
            body,
        )
            .into_response()),
        Ok(Standing::Queued { ahead, total }) => {
            Ok(pending(ProgressStatus::Queued, 0, total, Some(ahead)))
        }
        Ok(Standing::Running { done, total }) => {
            Ok(pending(ProgressStatus::Running, done, total, None))
        }
        Err(Refusal::QueueFull) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "analysis_queue_full",
            "the server is analysing as many games as it takes; ask again in a minute",
        )),
        Err(Refusal::TooMany { cap }) => Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_analyses",
            format!("you have {cap} analyses waiting or running; ask for another when one is done"),
        )),
        Err(Refusal::Off) => Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "analyses_off",
            "this server does not analyse games",
        )),
        Err(Refusal::Store(e)) => Err(ApiError::store(e)),
        Err(Refusal::Broken) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "internal error",
        )),
    }
}
