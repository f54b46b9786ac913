//! The operators' console reads and the reports (issue 22):
//! `GET /api/admin/reports` (open ones, or all), `POST
//! /api/admin/reports/{id}/resolve` (the action taken, audited),
//! `GET /api/admin/sessions?q=` (sessions by name, id, player id or
//! address), `GET /api/admin/sessions/{session}` (one session's history:
//! reports about it, its rating, the sanctions in force on it) and
//! `GET /api/admin/queue` (who waits in quick play). All read the store,
//! so they hold on every node.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};
use splendor_store::{Report, SessionId, SessionRow, player_id};

use super::bans::{Refusal, body, invalid, reason, refuse, store, store_error};
use crate::AppState;

/// The most rows one list answers.
const MAX_ROWS: u32 = 200;

/// What an operator may record as done about a report.
pub(crate) const ACTIONS: [&str; 7] = [
    "dismissed",
    "warned",
    "muted",
    "removed",
    "banned",
    "marked",
    "other",
];

fn hex(session: SessionId) -> String {
    session.0.simple().to_string()
}

fn report_json(report: &Report) -> Value {
    let made = &report.made;
    let chat: Vec<Value> = made
        .chat
        .iter()
        .map(|line| {
            json!({
                "line": line.line,
                "from": line.name,
                "seat": line.seat,
                "text": line.text,
                "session": line.session.map(hex),
                // The reported person's lines, for the console to mark.
                "reported": line.session == Some(made.reported),
            })
        })
        .collect();
    json!({
        "id": report.id,
        "at": report.at,
        "reporter": {
            "session": hex(made.reporter),
            "name": made.reporter_name,
            "player_id": player_id(made.reporter),
        },
        "reported": {
            "session": hex(made.reported),
            "name": made.reported_name,
            "player_id": player_id(made.reported),
        },
        "room": made.room,
        "game": made.game,
        "replay": made.game.as_ref().map(|g| format!("/games/{g}")),
        "seat": made.seat,
        "line": made.line,
        "reason": made.reason,
        "chat": chat,
        "resolved_at": report.resolved_at,
        "action": report.action,
        "note": report.note,
    })
}

fn session_json(row: &SessionRow) -> Value {
    json!({
        "session": hex(row.session),
        "name": row.name,
        "player_id": row.player_id,
        "bot": row.bot,
        "address": row.client,
        "created_at": row.created_at,
        "last_seen": row.last_seen,
        "rated_games": row.rated_games,
        "rating": row.rating.map(f64::round),
    })
}

/// What `GET /api/admin/reports` may be asked.
#[derive(Debug, Deserialize)]
pub(super) struct ReportsQuery {
    /// `open` (the default) or `all`.
    status: Option<String>,
}

/// `GET /api/admin/reports`: the open reports (or all), newest first.
pub(super) async fn list(
    State(state): State<AppState>,
    Query(query): Query<ReportsQuery>,
) -> Result<Response, Refusal> {
    let open_only = match query.status.as_deref() {
        None | Some("open") => true,
        Some("all") => false,
        Some(other) => {
            return Err(invalid(format!("status is `open` or `all`, not {other:?}")));
        }
    };
    let reports = store(&state)?
        .reports(open_only, MAX_ROWS)
        .await
        .map_err(store_error)?;
    let reports: Vec<Value> = reports.iter().map(report_json).collect();
    Ok(Json(json!({ "reports": reports })).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Resolve {
    /// One of [`ACTIONS`].
    action: String,
    /// What the operator says about it (kept, and audited).
    note: String,
}

/// `POST /api/admin/reports/{id}/resolve`: records what was done.
pub(super) async fn resolve(
    State(state): State<AppState>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Response, Refusal> {
    let number: i64 = id
        .trim()
        .parse()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| invalid(format!("{id:?} is not a report number")))?;
    let resolve: Resolve = body(&bytes)?;
    if !ACTIONS.contains(&resolve.action.as_str()) {
        return Err(invalid(format!(
            "action is one of {}, not {:?}",
            ACTIONS.join(", "),
            resolve.action
        )));
    }
    let note = reason(&resolve.note)?;
    let resolved = store(&state)?
        .resolve_report(number, &resolve.action, &note)
        .await
        .map_err(store_error)?;
    match resolved {
        Some(report) => {
            tracing::info!(report = number, action = %resolve.action, "report resolved");
            Ok(Json(json!({ "resolved": report_json(&report) })).into_response())
        }
        None => Err(refuse(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no open report {number}"),
        )),
    }
}

/// What `GET /api/admin/sessions` may be asked.
#[derive(Debug, Deserialize)]
pub(super) struct SessionsQuery {
    /// A name, session id, player id or address, or part of one.
    q: Option<String>,
}

/// `GET /api/admin/sessions?q=`: sessions found, most recently seen
/// first; those connected to this node say so.
pub(super) async fn sessions(
    State(state): State<AppState>,
    Query(query): Query<SessionsQuery>,
) -> Result<Response, Refusal> {
    let needle = query.q.unwrap_or_default();
    if needle.chars().count() > 100 {
        return Err(invalid("q is at most 100 characters"));
    }
    let rows = store(&state)?
        .find_sessions(&needle, MAX_ROWS)
        .await
        .map_err(store_error)?;
    let presence = state.lobby().presence();
    let sessions: Vec<Value> = rows
        .iter()
        .map(|row| {
            let mut value = session_json(row);
            let id = splendor_lobby::SessionId(row.session.0);
            value["connected_here"] = json!(presence.connection_of(id).is_some());
            value
        })
        .collect();
    Ok(Json(json!({ "sessions": sessions })).into_response())
}

/// `GET /api/admin/sessions/{session}`: one session and its history.
pub(super) async fn session(
    State(state): State<AppState>,
    Path(raw): Path<String>,
) -> Result<Response, Refusal> {
    let id = uuid::Uuid::try_parse(raw.trim()).map_err(|_| {
        invalid(format!(
            "{raw:?} is not a session id (32 hexadecimal digits)"
        ))
    })?;
    let store = store(&state)?;
    let session = SessionId(id);
    let Some(row) = store.session_row(session).await.map_err(store_error)? else {
        return Err(refuse(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no session {}", id.simple()),
        ));
    };
    let reports = store
        .reports_about(session, MAX_ROWS)
        .await
        .map_err(store_error)?;
    let simple = id.simple().to_string();
    let sanctions: Vec<Value> = store
        .active_sanctions()
        .await
        .map_err(store_error)?
        .iter()
        .filter(|s| s.value == simple)
        .map(|s| {
            json!({
                "id": s.id, "kind": s.kind, "until": s.until_ms,
                "reason": s.reason, "created_at": s.created_at,
            })
        })
        .collect();
    let seat_room = store.seat_room(session).await.map_err(store_error)?;
    let mut value = session_json(&row);
    value["connected_here"] = json!(
        state
            .lobby()
            .presence()
            .connection_of(splendor_lobby::SessionId(id))
            .is_some()
    );
    value["playing_in"] = json!(seat_room);
    value["reports"] = json!(reports.iter().map(report_json).collect::<Vec<_>>());
    value["sanctions"] = json!(sanctions);
    Ok(Json(value).into_response())
}

/// `GET /api/admin/queue`: everyone waiting in quick play, oldest first.
pub(super) async fn queue(State(state): State<AppState>) -> Result<Response, Refusal> {
    let entries = store(&state)?.queue_entries().await.map_err(store_error)?;
    let entries: Vec<Value> = entries
        .iter()
        .map(|e| {
            json!({
                "session": hex(e.session),
                "name": e.name,
                "players": e.players,
                "pool": e.pool.as_str(),
                "program": e.program,
                "queued_at": e.queued_at,
                "away_since": e.away_since,
            })
        })
        .collect();
    Ok(Json(json!({ "queue": entries })).into_response())
}
