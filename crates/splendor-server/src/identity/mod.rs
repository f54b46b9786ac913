//! Identity on every device (issue 23). A person is a session; each device
//! holds a token of its own (`/api/me/devices` lists them, each can be
//! revoked, which closes that device's connections on every node). A
//! device that holds the session shows a one-time link (valid ten minutes,
//! once) that mints a token for another device. A person may also protect
//! the session with a password (`password.rs`) or passkeys
//! (`passkeys.rs`); logging in with either mints a token for the device
//! too. Tokens stay the way for bots and scripts.
//!
//! Everything is in the store, so every node agrees; a server without a
//! database answers 404 `not_found` ("this server keeps no identities").

mod hasher;
mod passkeys;
mod password;
pub(crate) mod throttle;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post, put};
use serde::{Deserialize, Serialize};
use serde_json::json;
use splendor_store::{SessionId, SessionToken, Store, player_id, unix_millis_now};
use tracing::{info, warn};

use crate::AppState;
use crate::games::ApiError;

/// How long a device link works.
pub(crate) const LINK_TTL_MS: i64 = 10 * 60 * 1000;
/// How many links of one session may wait at once (the oldest go).
const LINKS_OPEN: u32 = 5;
/// The longest device label kept.
const LABEL_CHARS: usize = 60;

/// The routes of this module (counted per address like the rest of the API).
pub(crate) fn routes() -> axum::Router<AppState> {
    axum::Router::new()
        .route("/api/me/devices", get(devices))
        .route("/api/me/devices/{id}", delete(revoke))
        .route("/api/me/devices/link", post(make_link))
        .route("/api/devices/claim", post(claim_link))
        .route(
            "/api/me/password",
            put(password::set).delete(password::remove),
        )
        .route("/api/login", post(password::login))
        .route("/api/me/passkeys", post(passkeys::register_start))
        .route("/api/me/passkeys/finish", post(passkeys::register_finish))
        .route("/api/me/passkeys/{id}", delete(passkeys::remove))
        .route("/api/passkeys/login", post(passkeys::login_start))
        .route("/api/passkeys/login/finish", post(passkeys::login_finish))
}

/// The session of the request's bearer token, the token itself, and the
/// store.
pub(crate) async fn me(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<(splendor_lobby::Session, String, Store), ApiError> {
    let session = bearer_session(state, headers).await?;
    let token = crate::admin::bearer(headers).unwrap_or_default().to_owned();
    let store = store(state)?;
    // A banned session changes nothing of its ways in.
    let who = crate::sanctions::Who {
        session: Some(session.id.0),
        name: Some(&session.name),
        address: None,
    };
    if let Some(ban) = crate::sanctions::ban_for(state, &who).await {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "banned",
            format!("this session is banned: {}", ban.reason),
        ));
    }
    Ok((session, token, store))
}

/// Who may act on a device's token, or on what it added (issue 23): a
/// device on itself and on the devices added after it, freely; on an
/// older device only with the current password (`{"current":"..."}`,
/// counted like a try), and only a password set from a device at least as
/// old as that one. So the owner signs a thief's newer token out (and the
/// password it set goes with it), and a thief's newer token cannot shut the
/// owner's older devices out, with or without a password of its own; an
/// old token stolen as it is (the same token on two devices) is shut out
/// from a new device with a password set from the first device.
pub(crate) async fn may_act_on(
    store: &Store,
    id: SessionId,
    ip: Option<std::net::IpAddr>,
    bytes: &[u8],
    caller: &str,
    target: &str,
) -> Result<(), Response> {
    let devices = store
        .devices(id)
        .await
        .map_err(|e| ApiError::store(e).into_response())?;
    let age = |device: &str| devices.iter().position(|d| d.id == device);
    // An unknown target is answered as such by the caller.
    let (Some(mine), Some(its)) = (age(caller), age(target)) else {
        return Ok(());
    };
    if its >= mine {
        return Ok(());
    }
    let older = || {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "older_device",
            "a device signs out itself and the devices added after it; an older one only with \
             the password, set from a device at least as old as that one",
        )
        .into_response()
    };
    let password = store
        .password_of(id)
        .await
        .map_err(|e| ApiError::store(e).into_response())?;
    if password.is_none_or(|p| age(&p.set_by).is_none_or(|set| set > its)) {
        return Err(older());
    }
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Current {
        #[serde(default)]
        current: Option<String>,
    }
    let current = if bytes.is_empty() {
        None
    } else {
        body::<Current>(bytes, r#"{"current":"the password"}"#)
            .map_err(|e| e.into_response())?
            .current
    };
    password::check_current(store, id, ip, current)
        .await
        .map(drop)
}

fn unauthorized(message: &str) -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
}

/// The session whose token the request carries (`Authorization: Bearer
/// TOKEN`): 401 without one or with a token that is not a session's, 503
/// when the sessions cannot be read. The `/api/me/...` routes share it.
pub(crate) async fn bearer_session(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<splendor_lobby::Session, ApiError> {
    let Some(token) = crate::admin::bearer(headers) else {
        return Err(unauthorized(
            "send the session's token as Authorization: Bearer TOKEN (hello gives it)",
        ));
    };
    match state.sessions().resume(token).await {
        Ok(Some(session)) => Ok(session),
        Ok(None) => Err(unauthorized("the token is not a session's")),
        Err(e) => {
            warn!(error = %e, "a session's API: sessions unavailable");
            Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "storage_unavailable",
                "the session cannot be checked right now; try again shortly",
            ))
        }
    }
}

/// The store, or 404 on a server that keeps nothing.
pub(crate) fn store(state: &AppState) -> Result<Store, ApiError> {
    state.store().cloned().ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "this server keeps no identities (it runs without a database)",
        )
    })
}

/// A request body that is not the JSON asked for.
pub(crate) fn invalid(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "invalid_request", message)
}

/// A request's headers, the client's address (behind a trusted proxy, the
/// one it names) and its body (at most 8 KiB).
pub(crate) async fn read(
    state: &AppState,
    request: axum::extract::Request,
) -> Result<(HeaderMap, Option<std::net::IpAddr>, axum::body::Bytes), ApiError> {
    let peer = request
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|axum::extract::ConnectInfo(addr)| *addr);
    let (parts, body) = request.into_parts();
    let ip = crate::ws::client_ip(state, &parts.headers, peer);
    let bytes = axum::body::to_bytes(body, 8192)
        .await
        .map_err(|_| invalid("the request body is at most 8192 bytes"))?;
    Ok((parts.headers, ip, bytes))
}

/// Parses a small JSON body (at most 8 KiB; a passkey's answer is the
/// largest), saying what was expected.
pub(crate) fn body<T: for<'de> Deserialize<'de>>(
    bytes: &[u8],
    example: &str,
) -> Result<T, ApiError> {
    if bytes.len() > 8192 {
        return Err(invalid("the request body is at most 8192 bytes"));
    }
    serde_json::from_slice(bytes).map_err(|e| invalid(format!("{e}; send {example}")))
}

/// What a sign-in on a new device answers: the session and the device's
/// own token (shown once), as `welcome` would.
#[derive(Serialize)]
pub(crate) struct SignedIn {
    session: String,
    token: String,
    name: String,
    player_id: String,
    device: String,
}

impl SignedIn {
    pub(crate) fn new(session: SessionId, name: String, token: &SessionToken) -> SignedIn {
        SignedIn {
            session: session.0.simple().to_string(),
            token: token.as_str().to_owned(),
            name,
            player_id: player_id(session),
            device: splendor_store::device_id_of_token(token.as_str()),
        }
    }
}

/// A short name for the device a request comes from, from its
/// `User-Agent` ("Firefox on Android"), or "a browser".
pub(crate) fn device_label(headers: &HeaderMap) -> String {
    let agent = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let browser = [
        ("Edg/", "Edge"),
        ("Firefox/", "Firefox"),
        ("Chromium/", "Chromium"),
        ("Chrome/", "Chrome"),
        ("Safari/", "Safari"),
    ]
    .iter()
    .find(|(mark, _)| agent.contains(mark))
    .map(|(_, name)| *name);
    let system = [
        ("Android", "Android"),
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("Windows", "Windows"),
        ("Mac OS", "macOS"),
        ("CrOS", "ChromeOS"),
        ("Linux", "Linux"),
    ]
    .iter()
    .find(|(mark, _)| agent.contains(mark))
    .map(|(_, name)| *name);
    match (browser, system) {
        (Some(b), Some(s)) => format!("{b} on {s}"),
        (Some(b), None) => b.to_owned(),
        (None, Some(s)) => s.to_owned(),
        (None, None) => "a browser".to_owned(),
    }
}

/// A label the person gave, or the request's device.
fn label_or(given: Option<String>, headers: &HeaderMap) -> Result<String, ApiError> {
    match given.map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ")) {
        Some(l) if l.is_empty() => Ok(device_label(headers)),
        Some(l) if l.chars().count() > LABEL_CHARS || l.chars().any(char::is_control) => {
            Err(invalid(format!(
                "a label is at most {LABEL_CHARS} characters of text"
            )))
        }
        Some(l) => Ok(l),
        None => Ok(device_label(headers)),
    }
}

#[derive(Serialize)]
struct DeviceJson {
    id: String,
    label: String,
    created_at: i64,
    first: bool,
    /// The token this request was made with.
    this_device: bool,
    /// A connection of this token is open on the node that answered.
    connected: bool,
}

/// `GET /api/me/devices`: the session's tokens, its password's login (if
/// any) and its passkeys.
async fn devices(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    let (session, token, store) = me(&state, &headers).await?;
    let id = SessionId(session.id.0);
    let this = splendor_store::device_id_of_token(&token);
    let open: Vec<String> = state
        .lobby()
        .presence()
        .devices_of(session.id)
        .into_iter()
        .map(|key| format!("{key:016x}"))
        .collect();
    let devices: Vec<DeviceJson> = store
        .devices(id)
        .await
        .map_err(ApiError::store)?
        .into_iter()
        .map(|d| DeviceJson {
            this_device: d.id == this,
            connected: open.contains(&d.id),
            id: d.id,
            label: d.label,
            created_at: d.created_at,
            first: d.first,
        })
        .collect();
    let password = store.password_of(id).await.map_err(ApiError::store)?;
    let passkeys: Vec<_> = store
        .passkeys_of(id)
        .await
        .map_err(ApiError::store)?
        .into_iter()
        .map(|(cred, _, created_at)| json!({"id": passkeys::encode_id(&cred), "created_at": created_at}))
        .collect();
    Ok(Json(json!({
        "devices": devices,
        "password": password.map(|p| json!({"login": p.login})),
        "passkeys": passkeys,
    }))
    .into_response())
}

/// `DELETE /api/me/devices/{id}`: the token stops working, and its open
/// connections close (4007) on every node.
async fn revoke(
    State(state): State<AppState>,
    Path(device): Path<String>,
    request: axum::extract::Request,
) -> Result<Response, Response> {
    let (headers, ip, bytes) = read(&state, request).await.map_err(|e| e.into_response())?;
    let (session, token, store) = me(&state, &headers).await.map_err(|e| e.into_response())?;
    let caller = splendor_store::device_id_of_token(&token);
    may_act_on(
        &store,
        SessionId(session.id.0),
        ip,
        &bytes,
        &caller,
        &device,
    )
    .await?;
    revoke_checked(&state, &store, session.id, &device)
        .await
        .map_err(|e| e.into_response())
}

async fn revoke_checked(
    state: &AppState,
    store: &Store,
    session_id: splendor_lobby::SessionId,
    device: &str,
) -> Result<Response, ApiError> {
    let revoked = store
        .revoke_device(SessionId(session_id.0), device)
        .await
        .map_err(ApiError::store)?;
    if !revoked {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "device_not_found",
            format!("this session has no device {device:?} (GET /api/me/devices lists them)"),
        ));
    }
    info!(session = %session_id, device = %device, "device token revoked");
    close_revoked(state, session_id, device).await;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Ends the connections of a device whose token was just revoked: this
/// node's at once, the other nodes' through the cluster's announcement.
pub(crate) async fn close_revoked(
    state: &AppState,
    session_id: splendor_lobby::SessionId,
    device: &str,
) {
    close_device(state.lobby().presence(), session_id, device);
    if let Some(cluster) = state.cluster() {
        cluster
            .announce_sanctioned(splendor_cluster::node::WireSanction {
                id: 0,
                kind: REVOKED_DEVICE.to_owned(),
                value: format!("{}:{device}", session_id.0.simple()),
                until_ms: None,
                reason: String::new(),
            })
            .await;
    }
}

/// The kind of a cluster announcement that a device's token was revoked
/// (`value`: the session's id, `:`, the device's id): every node closes
/// that device's connections.
pub(crate) const REVOKED_DEVICE: &str = "revoked_device";

/// Closes this node's connections of a session's device (its token was
/// revoked here or on another node).
pub(crate) fn close_device(
    presence: &splendor_lobby::Presence,
    session: splendor_lobby::SessionId,
    device: &str,
) {
    let Ok(key) = u64::from_str_radix(device, 16) else {
        return;
    };
    presence.close_device(session, key, splendor_lobby::CloseReason::Revoked);
}

/// What another node announced: `session:device`.
pub(crate) fn revoked_elsewhere(presence: &splendor_lobby::Presence, value: &str) {
    let Some((session, device)) = value.split_once(':') else {
        return;
    };
    if let Ok(session) = uuid::Uuid::parse_str(session) {
        close_device(presence, splendor_lobby::SessionId(session), device);
    }
}

/// `POST /api/me/devices/link`: a one-time link for another device.
async fn make_link(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (session, _, store) = me(&state, &headers).await?;
    let now = unix_millis_now();
    let expires_at = now + LINK_TTL_MS;
    let code = store
        .make_device_link(SessionId(session.id.0), now, expires_at, LINKS_OPEN)
        .await
        .map_err(ApiError::store)?;
    // The host's public address; without one, the page's own (a browser
    // says it in `Origin`), so a phone on the same network can scan it.
    let base = state
        .config()
        .public_url
        .as_deref()
        .map(|u| u.trim_end_matches('/').to_owned())
        .or_else(|| {
            headers
                .get(header::ORIGIN)
                .and_then(|v| v.to_str().ok())
                .and_then(|o| webauthn_rs::prelude::Url::parse(o).ok())
                .filter(|o| matches!(o.scheme(), "http" | "https") && o.host_str().is_some())
                .map(|o| o.origin().ascii_serialization())
        });
    let path = format!("/link#{code}");
    let url = base.map(|b| format!("{b}{path}"));
    // The QR code of the whole link, when the server knows its address
    // (a phone's camera opens it); the page draws its modules.
    let qr = url.as_deref().and_then(qr_rows);
    Ok(Json(json!({
        "code": code,
        "path": path,
        "url": url,
        "qr": qr,
        "expires_at": expires_at,
    }))
    .into_response())
}

/// The modules of `text`'s QR code, a row a string of `1` (dark) and `0`.
fn qr_rows(text: &str) -> Option<Vec<String>> {
    let code = qrcode::QrCode::new(text.as_bytes()).ok()?;
    let width = code.width();
    let colors = code.to_colors();
    Some(
        colors
            .chunks(width)
            .map(|row| {
                row.iter()
                    .map(|c| if *c == qrcode::Color::Dark { '1' } else { '0' })
                    .collect()
            })
            .collect(),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Claim {
    code: String,
    #[serde(default)]
    label: Option<String>,
}

/// `POST /api/devices/claim` `{"code":...}`: uses a link (once, within ten
/// minutes) and answers a token of the session for this device.
async fn claim_link(
    State(state): State<AppState>,
    request: axum::extract::Request,
) -> Result<Response, ApiError> {
    let store = store(&state)?;
    let (headers, ip, bytes) = read(&state, request).await?;
    let claim: Claim = body(&bytes, r#"{"code":"THE LINK'S CODE"}"#)?;
    let label = label_or(claim.label, &headers)?;
    let claimed = store
        .claim_device_link(claim.code.trim(), &label, unix_millis_now())
        .await
        .map_err(ApiError::store)?;
    let Some((session, token)) = claimed else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "link_not_found",
            "this link is unknown, was used already, or is older than ten minutes: \
             make a new one on the device that holds the session",
        ));
    };
    if let Some(ban) = banned(&state, &session, ip).await {
        return Err(ban);
    }
    info!(session = %session.id, "device link used");
    Ok(Json(SignedIn::new(session.id, session.name, &token)).into_response())
}

/// A banned session gets no new device (it could not play with it).
pub(crate) async fn banned(
    state: &AppState,
    session: &splendor_store::Session,
    address: Option<std::net::IpAddr>,
) -> Option<ApiError> {
    let who = crate::sanctions::Who {
        session: Some(session.id.0),
        name: Some(&session.name),
        address,
    };
    let ban = crate::sanctions::ban_for(state, &who).await?;
    warn!(session = %session.id, "a banned session signed in on a new device: refused");
    Some(ApiError::new(
        StatusCode::FORBIDDEN,
        "banned",
        format!("this session is banned: {}", ban.reason),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_is_drawn_as_a_square_qr_code() {
        let rows = qr_rows("https://splendor.example.org/link#0123").unwrap();
        assert!(rows.len() >= 21, "{}", rows.len());
        assert!(rows.iter().all(|r| r.len() == rows.len()));
        // The finder pattern's top row in the top-left corner.
        assert!(rows[0].starts_with("1111111"), "{}", rows[0]);
    }

    #[test]
    fn a_device_is_named_by_its_browser_and_system() {
        let mut headers = HeaderMap::new();
        assert_eq!(device_label(&headers), "a browser");
        headers.insert(
            header::USER_AGENT,
            "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36"
                .parse()
                .unwrap(),
        );
        assert_eq!(device_label(&headers), "Chrome on Android");
        assert_eq!(
            label_or(Some("  my   phone ".into()), &headers).unwrap(),
            "my phone"
        );
        assert_eq!(
            label_or(Some(" ".into()), &headers).unwrap(),
            "Chrome on Android"
        );
        assert!(label_or(Some("x".repeat(61)), &headers).is_err());
    }
}
