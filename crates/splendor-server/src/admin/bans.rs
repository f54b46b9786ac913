//! `/api/admin/bans` and `/api/admin/audit` (issue 22): bans of a session,
//! a name pattern or an address range, each with a reason the player is
//! shown and an optional length; lifting one; the audit of every change.
//!
//! A ban is in the store (with its audit row) before the call returns, so
//! every node's next `hello` is refused; the connections open now are told
//! on this node at once and on the others through NATS before the call
//! returns (`announced: false` when NATS could not take it: those nodes
//! then refuse only new `hello`s).

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;
use splendor_store::{NewSanction, Sanction};

use crate::AppState;
use crate::sanctions::{Ban, BanTarget};

/// The longest ban with a length: ten years, in minutes.
const MAX_MINUTES: u64 = 10 * 366 * 24 * 60;

/// The longest reason, in characters.
const MAX_REASON: usize = 200;

/// A refused operators' request, as its JSON answer.
pub(super) struct Refusal {
    status: StatusCode,
    error: &'static str,
    message: String,
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(json!({"error": self.error, "message": self.message})),
        )
            .into_response()
    }
}

pub(super) fn refuse(
    status: StatusCode,
    error: &'static str,
    message: impl Into<String>,
) -> Refusal {
    Refusal {
        status,
        error,
        message: message.into(),
    }
}

pub(super) fn invalid(message: impl Into<String>) -> Refusal {
    refuse(StatusCode::BAD_REQUEST, "invalid_request", message)
}

pub(super) fn store(state: &AppState) -> Result<&splendor_store::Store, Refusal> {
    state.store().ok_or_else(|| {
        refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "no_database",
            "bans are kept in the database, and this server runs without one",
        )
    })
}

pub(super) fn store_error(e: splendor_store::StoreError) -> Refusal {
    tracing::warn!(error = %e, "an operators' request could not reach the database");
    refuse(
        StatusCode::SERVICE_UNAVAILABLE,
        "database_unavailable",
        "the database cannot be reached now; nothing changed",
    )
}

/// A JSON body of `T`, with a clear answer for a body that is not one.
pub(super) fn body<T: for<'de> Deserialize<'de>>(bytes: &Bytes) -> Result<T, Refusal> {
    serde_json::from_slice(bytes)
        .map_err(|e| invalid(format!("the body is not what this route takes: {e}")))
}

/// A reason as an operator gives it: said to the player, so not empty,
/// not too long, and by the rule of names and chat.
pub(super) fn reason(text: &str) -> Result<String, Refusal> {
    let text = text.trim();
    if text.is_empty() {
        return Err(invalid("give a reason: the player is shown it"));
    }
    if text.chars().count() > MAX_REASON {
        return Err(invalid(format!(
            "a reason is at most {MAX_REASON} characters"
        )));
    }
    if let Some(problem) = splendor_lobby::text::text_problem(text) {
        return Err(invalid(format!(
            "the reason has a character players would not see as written ({problem:?})"
        )));
    }
    Ok(text.to_owned())
}

fn ban_json(s: &Sanction) -> serde_json::Value {
    json!({
        "id": s.id,
        "kind": s.kind.strip_prefix("ban_").unwrap_or(&s.kind),
        "value": s.value,
        "until": s.until_ms,
        "reason": s.reason,
        "created_at": s.created_at,
    })
}

/// Checks a sanction's reason and length and stores it (with its audit
/// row): what a ban and a mute share.
async fn make(
    state: &AppState,
    kind: &str,
    value: String,
    minutes: Option<u64>,
    why: &str,
) -> Result<Sanction, Refusal> {
    let reason = reason(why)?;
    if let Some(minutes) = minutes
        && !(1..=MAX_MINUTES).contains(&minutes)
    {
        return Err(invalid(format!(
            "minutes is 1 to {MAX_MINUTES} (leave it out for one until lifted)"
        )));
    }
    store(state)?
        .add_sanction(&NewSanction {
            kind: kind.to_owned(),
            value,
            until_in_ms: minutes.map(|m| i64::try_from(m * 60_000).unwrap_or(i64::MAX)),
            reason,
            actor: "operator".to_owned(),
        })
        .await
        .map_err(store_error)
}

/// `GET /api/admin/bans`: the bans in force, oldest first.
pub(super) async fn list(State(state): State<AppState>) -> Result<Response, Refusal> {
    let all = store(&state)?
        .active_sanctions()
        .await
        .map_err(store_error)?;
    let bans: Vec<_> = all
        .iter()
        .filter(|s| s.kind.starts_with("ban_"))
        .map(ban_json)
        .collect();
    Ok(Json(json!({ "bans": bans })).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewBan {
    /// `session`, `name` or `address`.
    kind: String,
    /// A session id, a name pattern, an address or range.
    value: String,
    /// How long; absent: for good.
    minutes: Option<u64>,
    /// Why (the player is shown it).
    reason: String,
    /// A session's ban only: the range its address belongs to (its /24,
    /// or /48 for IPv6) is banned too, for as long and for the same
    /// reason (issue 46: a banned player came back with a new session).
    #[serde(default)]
    address_range: bool,
}

/// The range a session's ban extends to: its address's /24 (IPv4) or /48
/// (IPv6), as the store recorded where the session was made.
async fn range_of_session(state: &AppState, target: &BanTarget) -> Result<BanTarget, Refusal> {
    let BanTarget::Session(id) = target else {
        return Err(invalid(
            "address_range extends a session's ban: give it with \"kind\":\"session\"",
        ));
    };
    let row = store(state)?
        .session_row(splendor_store::SessionId(*id))
        .await
        .map_err(store_error)?
        .ok_or_else(|| invalid(format!("no session {} is known here", id.simple())))?;
    let ip: std::net::IpAddr = row
        .client
        .as_deref()
        .and_then(|c| c.split('/').next())
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| {
            invalid("the session's address is not known: ban an address or range by hand")
        })?;
    let prefix = if ip.is_ipv4() { 24 } else { 48 };
    BanTarget::parse("address", &format!("{ip}/{prefix}")).map_err(invalid)
}

/// `POST /api/admin/bans`: bans a session, a name pattern or an address
/// range (with `address_range`, a session and its address's range).
pub(super) async fn create(
    State(state): State<AppState>,
    bytes: Bytes,
) -> Result<Response, Refusal> {
    let new: NewBan = body(&bytes)?;
    let target = BanTarget::parse(&new.kind, &new.value).map_err(invalid)?;
    // Found before anything is made: a refusal changes nothing.
    let range = match new.address_range {
        true => Some(range_of_session(&state, &target).await?),
        false => None,
    };
    let made = make(
        &state,
        target.kind(),
        target.value(),
        new.minutes,
        &new.reason,
    )
    .await?;
    let mut announced = announce(&state, &made).await;
    let range_made = match range {
        Some(range) => {
            let made = make(
                &state,
                range.kind(),
                range.value(),
                new.minutes,
                &new.reason,
            )
            .await?;
            announced &= announce(&state, &made).await;
            Some(ban_json(&made))
        }
        None => None,
    };
    let mut answer = json!({ "ban": ban_json(&made), "announced": announced });
    if let Some(range) = range_made {
        answer["range_ban"] = range;
    }
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

/// Puts a ban in force on this node and tells the others; whether they
/// were told.
async fn announce(state: &AppState, made: &Sanction) -> bool {
    tracing::info!(id = made.id, kind = %made.kind, value = %made.value, "ban made");
    if let Some(ban) = Ban::from_stored(made) {
        state.sanctions().tell(ban);
    }
    match state.cluster() {
        Some(cluster) => {
            cluster
                .announce_sanctioned(splendor_cluster::node::WireSanction {
                    id: made.id,
                    kind: made.kind.clone(),
                    value: made.value.clone(),
                    until_ms: made.until_ms,
                    reason: made.reason.clone(),
                })
                .await
        }
        None => true,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Lift {
    reason: String,
}

/// What a sanction of one session (a mute, a mark) is made from.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewSessionSanction {
    /// The session, as `welcome` names it.
    session: String,
    /// How long; absent: until lifted.
    minutes: Option<u64>,
    /// Why (a muted player is shown it; a marked one is not told).
    reason: String,
}

/// Makes a sanction of `kind` on the session the body names, answered as
/// `{label: sanction}` with 201.
async fn session_sanction(
    state: &AppState,
    bytes: &Bytes,
    kind: &'static str,
    label: &'static str,
) -> Result<Response, Refusal> {
    let new: NewSessionSanction = body(bytes)?;
    let session = uuid::Uuid::try_parse(new.session.trim()).map_err(|_| {
        invalid(format!(
            "{:?} is not a session id (32 hexadecimal digits)",
            new.session
        ))
    })?;
    let made = make(
        state,
        kind,
        session.simple().to_string(),
        new.minutes,
        &new.reason,
    )
    .await?;
    tracing::info!(id = made.id, session = %made.value, kind, "session sanctioned");
    Ok((
        StatusCode::CREATED,
        Json(json!({ label: sanction_json(&made) })),
    )
        .into_response())
}

/// The sanctions of `kind` in force, oldest first, as `{label: [...]}`.
async fn session_sanctions(
    state: &AppState,
    kind: &'static str,
    label: &'static str,
) -> Result<Response, Refusal> {
    let all = store(state)?
        .active_sanctions()
        .await
        .map_err(store_error)?;
    let list: Vec<_> = all
        .iter()
        .filter(|s| s.kind == kind)
        .map(sanction_json)
        .collect();
    Ok(Json(json!({ label: list })).into_response())
}

/// `POST /api/admin/mutes`: mutes a session's chat in every room, on every
/// node (its `chat` is refused `chat_muted`, with the reason).
pub(super) async fn mute(State(state): State<AppState>, bytes: Bytes) -> Result<Response, Refusal> {
    session_sanction(&state, &bytes, crate::sanctions::MUTE_SESSION, "mute").await
}

/// `GET /api/admin/mutes`: the chat mutes in force, oldest first.
pub(super) async fn mutes(State(state): State<AppState>) -> Result<Response, Refusal> {
    session_sanctions(&state, crate::sanctions::MUTE_SESSION, "mutes").await
}

/// `POST /api/admin/marks`: keeps a session off the leaderboards (issue
/// 22), without telling it: a farmer or a cheat whose rating should not
/// be shown. Audited like a ban.
pub(super) async fn mark(State(state): State<AppState>, bytes: Bytes) -> Result<Response, Refusal> {
    session_sanction(&state, &bytes, crate::sanctions::MARK_SESSION, "mark").await
}

/// `GET /api/admin/marks`: the marks in force, oldest first.
pub(super) async fn marks(State(state): State<AppState>) -> Result<Response, Refusal> {
    session_sanctions(&state, crate::sanctions::MARK_SESSION, "marks").await
}

fn sanction_json(s: &Sanction) -> serde_json::Value {
    json!({
        "id": s.id,
        "session": s.value,
        "until": s.until_ms,
        "reason": s.reason,
        "created_at": s.created_at,
    })
}

/// `POST /api/admin/bans/{id}/lift` (or `/mutes/{id}/lift`): ends a ban
/// or a mute now.
pub(super) async fn lift(
    State(state): State<AppState>,
    Path(id): Path<String>,
    bytes: Bytes,
) -> Result<Response, Refusal> {
    let Ok(id) = id.parse::<i64>() else {
        return Err(invalid(format!("{id:?} is not a ban's or a mute's number")));
    };
    let lift: Lift = body(&bytes)?;
    let reason = reason(&lift.reason)?;
    let lifted = store(&state)?
        .lift_sanction(id, "operator", &reason)
        .await
        .map_err(store_error)?
        .ok_or_else(|| {
            refuse(
                StatusCode::NOT_FOUND,
                "not_found",
                format!("no ban or mute {id} is in force"),
            )
        })?;
    tracing::info!(id, "ban lifted");
    Ok(Json(json!({ "lifted": ban_json(&lifted) })).into_response())
}

#[derive(Deserialize)]
pub(super) struct AuditQuery {
    limit: Option<u32>,
}

/// `GET /api/admin/audit?limit=N`: the newest entries of the audit log
/// (1 to 500, default 100), newest first. Nothing deletes them.
pub(super) async fn audit(
    State(state): State<AppState>,
    Query(query): Query<AuditQuery>,
) -> Result<Response, Refusal> {
    let limit = query.limit.unwrap_or(100);
    if !(1..=500).contains(&limit) {
        return Err(invalid("limit is 1 to 500"));
    }
    match store(&state)?.audit_entries(limit).await {
        Ok(entries) => {
            let entries: Vec<_> = entries
                .iter()
                .map(|e| {
                    json!({
                        "id": e.id, "at": e.at, "actor": e.actor,
                        "action": e.action, "target": e.target, "reason": e.reason,
                    })
                })
                .collect();
            Ok(Json(json!({ "entries": entries })).into_response())
        }
        Err(e) => Err(store_error(e)),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Forget {
    reason: String,
}

/// `POST /api/admin/players/{session}/forget`: forgets a player at their
/// request: the name becomes "a former player" wherever it is stored, the
/// token stops working, the session leaves the queue; games and replays
/// stay. Its connection on this node is closed.
pub(super) async fn forget(
    State(state): State<AppState>,
    Path(session): Path<String>,
    bytes: Bytes,
) -> Result<Response, Refusal> {
    let id = uuid::Uuid::try_parse(session.trim()).map_err(|_| {
        invalid(format!(
            "{session:?} is not a session id (32 hexadecimal digits)"
        ))
    })?;
    let forget: Forget = body(&bytes)?;
    let reason = reason(&forget.reason)?;
    let forgotten = store(&state)?
        .forget_session(splendor_store::SessionId(id), "operator", &reason)
        .await
        .map_err(store_error)?;
    if !forgotten {
        return Err(refuse(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no session {}", id.simple()),
        ));
    }
    tracing::info!(session = %id.simple(), "player forgotten");
    // Bodies made with the old name are made again.
    state.finished_bodies().clear();
    // Every device's connection (issue 23).
    for conn in state
        .lobby()
        .presence()
        .connections_of(splendor_lobby::SessionId(id))
    {
        conn.close(splendor_lobby::CloseReason::Normal);
    }
    Ok(Json(json!({ "forgotten": id.simple().to_string() })).into_response())
}
