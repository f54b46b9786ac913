//! `POST /api/admin/rooms/{code}/remove`: the operators remove a session
//! from a room (issue 22), on whichever node runs it. The player is told
//! why, in their language (`room_closed`), and released; a seat in a
//! running game resigns (RULES.md R13: the stand-in plays it to the end,
//! the player ranks last); a seat before the start is freed; a spectator
//! goes. The session may not join that room again. Audited.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;
use splendor_lobby::{Caller, ConnId, Request, RoomError, SessionId};

use super::bans::{Refusal, body, invalid, reason, refuse, store, store_error};
use crate::AppState;

/// What the route takes.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Remove {
    /// The session, as 32 hexadecimal digits (as `welcome` and
    /// `GET /api/admin/rooms` name sessions).
    session: String,
    /// Why: the player is shown it.
    reason: String,
}

pub(super) async fn remove(
    State(state): State<AppState>,
    Path(code): Path<String>,
    bytes: Bytes,
) -> Result<Response, Refusal> {
    let remove: Remove = body(&bytes)?;
    let session = uuid::Uuid::try_parse(remove.session.trim()).map_err(|_| {
        invalid(format!(
            "{:?} is not a session id (32 hexadecimal digits)",
            remove.session
        ))
    })?;
    let reason = reason(&remove.reason)?;
    // The audit needs the database: nothing is done without it.
    let store = store(&state)?.clone();
    let room = state
        .lobby()
        .find_anywhere(&code)
        .await
        .map_err(|e| lobby_refusal(e, &code))?;
    let who = SessionId(session);
    let caller = Caller {
        session: who,
        conn: ConnId(0),
        request: None,
    };
    let request = Request::Remove {
        session: who,
        reason: reason.clone(),
    };
    room.call(caller, request).await.map_err(|e| match e {
        RoomError::NotInRoom => refuse(
            StatusCode::NOT_FOUND,
            "not_found",
            format!(
                "session {} is not in room {}",
                session.simple(),
                room.code()
            ),
        ),
        other => lobby_refusal(other, &code),
    })?;
    // A resigned seat is not held by the session (R13).
    state.lobby().resigned(who, room.code());
    let target = format!("room:{} session:{}", room.code(), session.simple());
    store
        .audit("operator", "remove", &target, &reason)
        .await
        .map_err(store_error)?;
    tracing::info!(room = %room.code(), session = %session.simple(), "player removed by the operators");
    Ok(Json(json!({
        "removed": { "room": room.code().to_string(), "session": session.simple().to_string() }
    }))
    .into_response())
}

/// What `POST /api/admin/rooms/{code}/close` takes.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Close {
    /// Why: everyone in the room is shown it.
    reason: String,
}

/// `POST /api/admin/rooms/{code}/close`: the operators close a room
/// (issue 22), on whichever node runs it. A game in play ends first,
/// stored with the standings it stopped at, no winner, unrated (its replay
/// still verifies); everyone in the room is told why, in their language
/// (`room_closed`). Audited.
pub(super) async fn close(
    State(state): State<AppState>,
    Path(code): Path<String>,
    bytes: Bytes,
) -> Result<Response, Refusal> {
    let close: Close = body(&bytes)?;
    let reason = reason(&close.reason)?;
    let store = store(&state)?.clone();
    let room = state
        .lobby()
        .find_anywhere(&code)
        .await
        .map_err(|e| lobby_refusal(e, &code))?;
    let caller = Caller {
        session: SessionId(uuid::Uuid::nil()),
        conn: ConnId(0),
        request: None,
    };
    room.call(
        caller,
        Request::Close {
            reason: reason.clone(),
        },
    )
    .await
    .map_err(|e| lobby_refusal(e, &code))?;
    let target = format!("room:{}", room.code());
    store
        .audit("operator", "close", &target, &reason)
        .await
        .map_err(store_error)?;
    tracing::info!(room = %room.code(), "room closed by the operators");
    Ok(Json(json!({ "closed": room.code().to_string() })).into_response())
}

fn lobby_refusal(error: RoomError, code: &str) -> Refusal {
    match error {
        RoomError::RoomNotFound(_) | RoomError::MalformedCode(_) | RoomError::RoomClosed => refuse(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no live room {code:?}"),
        ),
        RoomError::RoomUnavailable | RoomError::StorageUnavailable | RoomError::Persistence => {
            refuse(
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                format!(
                    "room {code} cannot be reached or cannot store now; nothing changed ({error})"
                ),
            )
        }
        other => refuse(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            other.to_string(),
        ),
    }
}
