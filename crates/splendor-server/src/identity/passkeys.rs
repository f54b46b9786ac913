//! Passkeys (issue 23): WebAuthn through webauthn-rs. A session registers
//! passkeys from a device that holds it; any device then signs in with one
//! (usernameless: the authenticator names the session by its user handle,
//! the session's id) and gets a token of its own. The relying party is
//! `--public-url`'s host (HTTPS in production); a page opened at
//! `http://localhost:PORT` is its own (development and the browser suite;
//! a relying-party id cannot be an IP address). A
//! ceremony's state waits in the store for five minutes, so that any node
//! finishes it, and is used once.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rand::RngCore;
use serde::Deserialize;
use serde_json::json;
use splendor_store::{SessionId, Store, unix_millis_now};
use tracing::{info, warn};
use webauthn_rs::prelude::{
    Base64UrlSafeData, DiscoverableAuthentication, DiscoverableKey, Passkey, PasskeyRegistration,
    PublicKeyCredential, RegisterPublicKeyCredential, Url, Webauthn, WebauthnBuilder,
};

use super::{body, invalid, me, read, store};
use crate::AppState;
use crate::games::ApiError;

/// How long a ceremony may take.
const CEREMONY_MS: i64 = 5 * 60 * 1000;
/// Passkeys a session may keep.
const MAX_PASSKEYS: usize = 10;

fn unavailable(why: &str) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "passkeys_unavailable", why)
}

/// The relying party for this request: `--public-url`, or the page's own
/// origin when it is `http://localhost:PORT`.
fn webauthn(state: &AppState, headers: &HeaderMap) -> Result<Webauthn, ApiError> {
    // A page at http://localhost (development, the browser suite) is its
    // own relying party; any other page needs --public-url's.
    let local = headers
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok())
        .and_then(|o| Url::parse(o).ok())
        .filter(|o| o.host_str() == Some("localhost"));
    let origin = match (local, state.config().public_url.as_deref()) {
        (Some(local), _) => local,
        (None, Some(public)) => {
            Url::parse(public).map_err(|_| unavailable("the server's --public-url is not a URL"))?
        }
        (None, None) => {
            return Err(unavailable(
                "passkeys need the server's --public-url (an HTTPS address), \
                 or the page opened at http://localhost",
            ));
        }
    };
    let rp_id = origin
        .host_str()
        .filter(|h| h.parse::<std::net::IpAddr>().is_err() && !h.starts_with('['))
        .ok_or_else(|| unavailable("passkeys need a host name, not an IP address"))?
        .to_owned();
    WebauthnBuilder::new(&rp_id, &origin)
        .and_then(|b| b.rp_name("Splendor").build())
        .map_err(|e| {
            warn!(error = %e, "building the WebAuthn relying party");
            unavailable("passkeys cannot be used with this server's address")
        })
}

fn too_many_passkeys() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "too_many_passkeys",
        format!("a session keeps at most {MAX_PASSKEYS} passkeys; remove one first"),
    )
}

/// A credential id as the API shows it: base64url, as WebAuthn's JSON does.
pub(super) fn encode_id(id: &[u8]) -> String {
    serde_json::to_value(Base64UrlSafeData::from(id.to_vec()))
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

fn new_ceremony_id() -> [u8; 16] {
    let mut id = [0u8; 16];
    rand::rng().fill_bytes(&mut id);
    id
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if text.len() != 32 || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

fn failed(what: &str, e: impl std::fmt::Display) -> ApiError {
    warn!(error = %e, "{what}");
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "passkey_refused",
        format!("{what}: the authenticator's answer was refused"),
    )
}

fn ceremony_gone() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "ceremony_not_found",
        "this passkey request is unknown, was used, or is older than five minutes: start again",
    )
}

/// Takes a ceremony's state (once).
async fn take(store: &Store, id: &str) -> Result<(Option<SessionId>, String), ApiError> {
    let id =
        unhex(id).ok_or_else(|| invalid("\"ceremony\" is the 32 hex digits the start gave"))?;
    store
        .take_ceremony(&id, unix_millis_now())
        .await
        .map_err(ApiError::store)?
        .ok_or_else(ceremony_gone)
}

/// Keeps a ceremony's state and answers its id with the options for the
/// browser.
async fn keep(
    store: &Store,
    session: Option<SessionId>,
    state: String,
    options: serde_json::Value,
) -> Result<Response, ApiError> {
    let id = new_ceremony_id();
    let now = unix_millis_now();
    store
        .put_ceremony(&id, session, &state, (now, now + CEREMONY_MS))
        .await
        .map_err(ApiError::store)?;
    Ok(Json(json!({ "ceremony": hex(&id), "options": options })).into_response())
}

fn passkeys(stored: &[(Vec<u8>, String, i64)]) -> Vec<Passkey> {
    stored
        .iter()
        .filter_map(|(_, json, _)| serde_json::from_str(json).ok())
        .collect()
}

/// `POST /api/me/passkeys`: starts registering a passkey of the session.
pub(super) async fn register_start(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (session, _, store) = me(&state, &headers).await?;
    let webauthn = webauthn(&state, &headers)?;
    let id = SessionId(session.id.0);
    let existing = store.passkeys_of(id).await.map_err(ApiError::store)?;
    if existing.len() >= MAX_PASSKEYS {
        return Err(too_many_passkeys());
    }
    let exclude = passkeys(&existing)
        .iter()
        .map(|p| p.cred_id().clone())
        .collect();
    let (options, registration) = webauthn
        .start_passkey_registration(session.id.0, &session.name, &session.name, Some(exclude))
        .map_err(|e| failed("starting a passkey registration", e))?;
    let kept = serde_json::to_string(&registration).map_err(|e| failed("keeping it", e))?;
    let options = serde_json::to_value(options).map_err(|e| failed("sending it", e))?;
    keep(&store, Some(id), kept, options).await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Finish<C> {
    ceremony: String,
    credential: C,
}

/// `POST /api/me/passkeys/finish` `{"ceremony":...,"credential":...}`.
pub(super) async fn register_finish(
    State(state): State<AppState>,
    request: axum::extract::Request,
) -> Result<Response, ApiError> {
    let (headers, _, bytes) = read(&state, request).await?;
    let (session, token, store) = me(&state, &headers).await?;
    let webauthn = webauthn(&state, &headers)?;
    let finish: Finish<RegisterPublicKeyCredential> = body(
        &bytes,
        r#"{"ceremony":"...","credential":{the answer of navigator.credentials.create}}"#,
    )?;
    let id = SessionId(session.id.0);
    let (owner, kept) = take(&store, &finish.ceremony).await?;
    if owner != Some(id) {
        return Err(ceremony_gone());
    }
    let registration: PasskeyRegistration =
        serde_json::from_str(&kept).map_err(|e| failed("reading the registration", e))?;
    let passkey = webauthn
        .finish_passkey_registration(&finish.credential, &registration)
        .map_err(|e| failed("registering the passkey", e))?;
    let json = serde_json::to_string(&passkey).map_err(|e| failed("keeping it", e))?;
    let now = unix_millis_now();
    // The passkey belongs to this device: signing it out removes it. The
    // cap is counted again by the insert (ceremonies started at once).
    let device = splendor_store::device_id_of_token(&token);
    let max = u32::try_from(MAX_PASSKEYS).unwrap_or(u32::MAX);
    let kept = store
        .add_passkey(id, (passkey.cred_id().as_ref(), &json), &device, (now, max))
        .await
        .map_err(ApiError::store)?;
    if !kept {
        return Err(too_many_passkeys());
    }
    info!(session = %session.id, "passkey registered");
    Ok(
        Json(json!({ "id": encode_id(passkey.cred_id().as_ref()), "created_at": now }))
            .into_response(),
    )
}

/// `DELETE /api/me/passkeys/{id}` (with `{"current":...}` when the
/// session has a password).
pub(super) async fn remove(
    State(state): State<AppState>,
    Path(passkey): Path<String>,
    request: axum::extract::Request,
) -> Result<Response, Response> {
    let (headers, ip, bytes) = read(&state, request).await.map_err(|e| e.into_response())?;
    let (session, token, store) = me(&state, &headers).await.map_err(|e| e.into_response())?;
    let id = SessionId(session.id.0);
    // A passkey is its device's: acted on as that device is.
    let cred = store
        .passkeys_of(id)
        .await
        .map_err(|e| ApiError::store(e).into_response())?
        .into_iter()
        .find(|(cred, _, _)| encode_id(cred) == passkey)
        .map(|(cred, _, _)| cred);
    if let Some(cred) = cred
        && let Some(added_by) = store
            .passkey_added_by(id, &cred)
            .await
            .map_err(|e| ApiError::store(e).into_response())?
    {
        let caller = splendor_store::device_id_of_token(&token);
        super::may_act_on(&store, id, ip, &bytes, &caller, &added_by).await?;
    }
    remove_passkey(&store, id, &passkey)
        .await
        .map_err(|e| e.into_response())
}

async fn remove_passkey(store: &Store, id: SessionId, passkey: &str) -> Result<Response, ApiError> {
    let stored = store.passkeys_of(id).await.map_err(ApiError::store)?;
    let Some((cred, _, _)) = stored
        .iter()
        .find(|(cred, _, _)| encode_id(cred) == passkey)
    else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "passkey_not_found",
            "this session has no such passkey (GET /api/me/devices lists them)",
        ));
    };
    store
        .remove_passkey(id, cred)
        .await
        .map_err(ApiError::store)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `POST /api/passkeys/login`: starts a sign-in with a passkey.
pub(super) async fn login_start(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let store = store(&state)?;
    let webauthn = webauthn(&state, &headers)?;
    let (options, authentication) = webauthn
        .start_discoverable_authentication()
        .map_err(|e| failed("starting a passkey sign-in", e))?;
    let kept = serde_json::to_string(&authentication).map_err(|e| failed("keeping it", e))?;
    let options = serde_json::to_value(options).map_err(|e| failed("sending it", e))?;
    keep(&store, None, kept, options).await
}

/// `POST /api/passkeys/login/finish` `{"ceremony":...,"credential":...}`:
/// a token of the passkey's session for this device.
pub(super) async fn login_finish(
    State(state): State<AppState>,
    request: axum::extract::Request,
) -> Result<Response, ApiError> {
    let store = store(&state)?;
    let (headers, ip, bytes) = read(&state, request).await?;
    let webauthn = webauthn(&state, &headers)?;
    let finish: Finish<PublicKeyCredential> = body(
        &bytes,
        r#"{"ceremony":"...","credential":{the answer of navigator.credentials.get}}"#,
    )?;
    let (_, kept) = take(&store, &finish.ceremony).await?;
    let authentication: DiscoverableAuthentication =
        serde_json::from_str(&kept).map_err(|e| failed("reading the sign-in", e))?;
    let (user, cred_id) = webauthn
        .identify_discoverable_authentication(&finish.credential)
        .map_err(|e| failed("reading the passkey", e))?;
    let unknown = || {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "passkey_unknown",
            "this passkey opens no session here (it may have been removed)",
        )
    };
    let (session, json) = store
        .passkey_by_credential(cred_id)
        .await
        .map_err(ApiError::store)?
        .ok_or_else(unknown)?;
    if session.0 != user {
        return Err(unknown());
    }
    let mut passkey: Passkey = serde_json::from_str(&json).map_err(|e| failed("reading it", e))?;
    let result = webauthn
        .finish_discoverable_authentication(
            &finish.credential,
            authentication,
            &[DiscoverableKey::from(&passkey)],
        )
        .map_err(|e| failed("checking the passkey", e))?;
    if passkey.update_credential(&result) == Some(true)
        && let Ok(json) = serde_json::to_string(&passkey)
    {
        store
            .update_passkey(passkey.cred_id().as_ref(), &json)
            .await
            .map_err(ApiError::store)?;
    }
    super::password::sign_in(&state, &store, session, &headers, ip).await
}
