//! Telling players who are away (issue 25): `GET`, `PUT` and `DELETE
//! /api/me/notifications` set which events a session wants told
//! (`your_turn`, `game_over`, `chat`) and the webhook they go to, with
//! the session's token (`Authorization: Bearer TOKEN`; 401 without).
//! The same events go to the session's browsers by Web Push ([`push`]:
//! `/api/me/push`). Turn-based rooms give the notices
//! ([`splendor_lobby::room::notices`]); [`delivery`] hands them to the
//! webhook (signed with a secret `PUT` gives once) and the browsers.

pub(crate) mod delivery;
pub(crate) mod outbound;
pub(crate) mod push;
pub(crate) mod push_api;
pub(crate) mod webhook;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use serde::{Deserialize, Serialize};
use splendor_lobby::Session;
use splendor_store::{NotifySettings, SessionId, Store, unix_millis_now};
use tracing::warn;

use crate::AppState;
use crate::games::ApiError;

/// The events a session may ask to be told of.
pub(crate) const EVENTS: [&str; 4] = ["your_turn", "game_over", "chat", "invitation"];

/// What `PUT` takes.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Settings {
    /// The events to be told of, among [`EVENTS`]; absent: as they were.
    #[serde(default)]
    events: Option<Vec<String>>,
    /// An `https://` URL to post them to; `null`: none; absent: as it was
    /// (with its secret).
    #[serde(default, deserialize_with = "present")]
    webhook: Option<Option<String>>,
}

/// A field that is present, `null` or not: `Some` of its value (serde's
/// `default` makes an absent one `None`).
fn present<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(d).map(Some)
}

/// What `GET` and `PUT` answer.
#[derive(Serialize)]
pub(crate) struct Answer {
    events: Vec<String>,
    webhook: Option<String>,
    /// Only in the answer to a `PUT` that set a webhook: the secret its
    /// deliveries are signed with (HMAC-SHA256 of the body, in
    /// `X-Splendor-Signature: sha256=HEX`). Shown once.
    #[serde(skip_serializing_if = "Option::is_none")]
    secret: Option<String>,
}

fn invalid(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "invalid_settings", message)
}

/// The session of the request's bearer token, and the store.
async fn session_and_store(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<(Session, Store), ApiError> {
    let session = crate::identity::bearer_session(state, headers).await?;
    let store = state.store().cloned().ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "this server keeps no settings",
        )
    })?;
    Ok((session, store))
}

/// `GET /api/me/notifications`.
pub(crate) async fn get(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<Answer>, ApiError> {
    let (session, store) = session_and_store(&state, &headers).await?;
    let settings = store
        .notify_settings(SessionId(session.id.0))
        .await
        .map_err(ApiError::store)?
        .unwrap_or_default();
    Ok(Json(Answer {
        events: settings.events,
        webhook: settings.webhook.map(|(url, _)| url),
        secret: None,
    }))
}

/// `PUT /api/me/notifications`: sets what it names (`events`, `webhook`)
/// and keeps the rest; a new webhook gets a new secret.
pub(crate) async fn put(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<Json<Answer>, ApiError> {
    let (session, store) = session_and_store(&state, &headers).await?;
    if body.len() > 2048 {
        return Err(invalid("the settings are at most 2048 bytes"));
    }
    let settings: Settings = serde_json::from_slice(&body).map_err(|e| {
        invalid(format!(
            "{e}; send {{\"events\":[\"your_turn\",\"game_over\",\"chat\",\"invitation\"],\"webhook\":\"https://...\"}}"
        ))
    })?;
    let before = store
        .notify_settings(SessionId(session.id.0))
        .await
        .map_err(ApiError::store)?
        .unwrap_or_default();
    let mut events = Vec::new();
    for event in settings.events.unwrap_or(before.events) {
        if !EVENTS.contains(&event.as_str()) {
            return Err(invalid(format!(
                "{event:?} is not an event: the events are your_turn, game_over, chat and invitation"
            )));
        }
        if !events.contains(&event) {
            events.push(event);
        }
    }
    let (webhook, fresh) = match settings.webhook {
        Some(Some(url)) => {
            let rules = outbound::Outbound::of(state.config());
            webhook::check_url(&url, &rules).map_err(invalid)?;
            rules
                .check_url_now(&url, "webhook")
                .await
                .map_err(invalid)?;
            (Some((url, secret()?)), true)
        }
        Some(None) => (None, false),
        None => (before.webhook, false),
    };
    let stored = NotifySettings {
        events: events.clone(),
        webhook: webhook.clone(),
    };
    store
        .put_notify_settings(SessionId(session.id.0), &stored, unix_millis_now())
        .await
        .map_err(ApiError::store)?;
    let (webhook, secret) = webhook.unzip();
    Ok(Json(Answer {
        events,
        webhook,
        // Shown once: only when this `PUT` made it.
        secret: secret.filter(|_| fresh),
    }))
}

/// `DELETE /api/me/notifications`: no events, no webhook.
pub(crate) async fn delete(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<StatusCode, ApiError> {
    let (session, store) = session_and_store(&state, &headers).await?;
    store
        .delete_notify_settings(SessionId(session.id.0))
        .await
        .map_err(ApiError::store)?;
    Ok(StatusCode::NO_CONTENT)
}

/// 32 random bytes in hexadecimal, from the operating system.
fn secret() -> Result<String, ApiError> {
    use rand::TryRngCore;
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.try_fill_bytes(&mut bytes).map_err(|e| {
        warn!(error = %e, "no random source for a webhook's secret");
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "internal",
            "no secret can be made right now; try again shortly",
        )
    })?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}
