//! A password on a session (issue 23): argon2id in PHC form, found by a
//! login unique among passwords (compared without case). Logging in mints
//! a token for the device. Changing or removing a password asks for the
//! current one (a stolen token cannot lock its owner out); those tries are
//! counted per session and per address, five a minute.
//!
//! Signing in (issue 46) is throttled so that nobody can lock another out
//! (OWASP's authentication guidance): counted in the store, so on every
//! node together,
//! - per address: an address that has itself failed [`TRIES_PER_MINUTE`]
//!   times this minute gets 429 with `Retry-After`, right password or not;
//! - per login: failures on one login from anywhere only slow that login's
//!   answers ([`slowdown`], at most 2 s), never refuse them, so an attack
//!   from many addresses cannot keep the owner out;
//! - per node: at most [`hasher::QUEUE`] tries wait for the hashing
//!   threads; past that `busy` (503) at once.
//!
//! A device the session already holds (its bearer token) is never slowed
//! or refused. An unknown login and a wrong password answer alike, in
//! content and in time: the same counters, the same slowdown, and a whole
//! verification against a hash nobody's password matches.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;
use splendor_store::{LOGIN_WINDOW_MS, SessionId, Store, unix_millis_now};
use tracing::{info, warn};

use super::hasher::{Busy, Lane, hasher};
use super::throttle::{InFlight, one_at_a_time, refuse_after_failures, slowdown};
use super::{SignedIn, body, device_label, invalid, me, read, store};
use crate::AppState;
use crate::games::ApiError;

/// Tries a minute per session and per address (changing a password), and
/// failed sign-ins a minute per address before 429, and per login before
/// its answers slow down.
pub(crate) const TRIES_PER_MINUTE: u32 = 5;
/// A login's length, in characters.
const LOGIN_CHARS: std::ops::RangeInclusive<usize> = 3..=32;
/// A password's length, in characters.
const PASSWORD_CHARS: std::ops::RangeInclusive<usize> = 8..=200;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SetPassword {
    login: String,
    password: String,
    #[serde(default)]
    current: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Current {
    current: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Login {
    login: String,
    password: String,
}

fn check_login(login: &str) -> Result<String, ApiError> {
    let login = login.trim();
    let chars = login.chars().count();
    let fine = LOGIN_CHARS.contains(&chars)
        && login
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '.' | '_' | '-'));
    if !fine {
        return Err(invalid(format!(
            "a login is {} to {} letters, digits, spaces, dots, dashes or underscores",
            LOGIN_CHARS.start(),
            LOGIN_CHARS.end()
        )));
    }
    Ok(login.to_owned())
}

fn check_password(password: &str) -> Result<(), ApiError> {
    let chars = password.chars().count();
    if !PASSWORD_CHARS.contains(&chars) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "weak_password",
            format!(
                "a password is {} to {} characters",
                PASSWORD_CHARS.start(),
                PASSWORD_CHARS.end()
            ),
        ));
    }
    Ok(())
}

/// Hashes a password on the hashing threads (asked by a device of the
/// session: its own lane).
async fn hash(password: String) -> Result<String, ApiError> {
    match hasher().hash(password, Lane::OwnDevice).await {
        Ok(Some(phc)) => Ok(phc),
        Ok(None) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "the password could not be hashed",
        )),
        Err(Busy) => Err(busy()),
    }
}

/// Too many tries wait for this node's hashing threads.
fn busy() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "busy",
        "too many password tries are waiting on this server; try again in a second",
    )
}

/// A hash nobody's password matches, verified against when a login is
/// unknown, so that an unknown login takes as long as a wrong password.
const NOBODY: &str = "$argon2id$v=19$m=19456,t=2,p=1$c3BsZW5kb3Jub2JvZHk$Wl0vKcMtY1H0ylZ0jyL3o2a/0Mh6ysz0qN3Rzv3Jd1A";

/// Whether `password` matches the PHC string `phc`.
async fn verify(password: String, phc: String, lane: Lane) -> Result<bool, ApiError> {
    hasher()
        .verify(password, phc, lane)
        .await
        .map_err(|Busy| busy())
}

/// Counts a try under each key; 429 with `Retry-After` past the limit.
async fn count_tries(store: &Store, keys: &[String]) -> Result<(), Response> {
    let now = unix_millis_now();
    let mut over = false;
    for key in keys {
        match store.count_login_try(key, now).await {
            Ok(n) => over |= n > TRIES_PER_MINUTE,
            Err(e) => return Err(ApiError::store(e).into_response()),
        }
    }
    if over {
        warn!(keys = ?keys, "too many password tries");
        let seconds = (LOGIN_WINDOW_MS / 1000).to_string();
        return Err((
            StatusCode::TOO_MANY_REQUESTS,
            [(header::RETRY_AFTER, seconds)],
            Json(json!({
                "error": "too_many_tries",
                "message": format!(
                    "at most {TRIES_PER_MINUTE} password tries a minute for a session and for an address; wait a minute"
                ),
            })),
        )
            .into_response());
    }
    Ok(())
}

fn keys(session: Option<SessionId>, ip: Option<std::net::IpAddr>) -> Vec<String> {
    let mut keys = Vec::new();
    if let Some(session) = session {
        keys.push(format!("session:{}", session.0.simple()));
    }
    // By client key, as every other per-address limit (IPv6 per /64).
    if let Some(ip) = ip {
        keys.push(format!("address:{}", crate::limits::per_ip::client_key(ip)));
    }
    keys
}

fn wrong_current() -> Response {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "wrong_password",
        "the current password is wrong",
    )
    .into_response()
}

/// Checks the session's current password, if it has one.
pub(super) async fn check_current(
    store: &Store,
    id: SessionId,
    ip: Option<std::net::IpAddr>,
    current: Option<String>,
) -> Result<bool, Response> {
    let Some(stored) = store
        .password_of(id)
        .await
        .map_err(|e| ApiError::store(e).into_response())?
    else {
        return Ok(false);
    };
    let Some(current) = current else {
        return Err(invalid(
            "this session has a password: send the current one as \"current\" to change it",
        )
        .into_response());
    };
    count_tries(store, &keys(Some(id), ip)).await?;
    if !verify(current, stored.hash, Lane::OwnDevice)
        .await
        .map_err(IntoResponse::into_response)?
    {
        return Err(wrong_current());
    }
    Ok(true)
}

/// `PUT /api/me/password` `{"login":...,"password":...}` (with `"current"`
/// when it has one already).
pub(super) async fn set(
    State(state): State<AppState>,
    request: axum::extract::Request,
) -> Result<Response, Response> {
    let (headers, ip, bytes) = read(&state, request).await.map_err(|e| e.into_response())?;
    let (session, token, store) = me(&state, &headers).await.map_err(|e| e.into_response())?;
    let asked: SetPassword = body(
        &bytes,
        r#"{"login":"ann","password":"at least 8 characters"}"#,
    )
    .map_err(|e| e.into_response())?;
    let login = check_login(&asked.login).map_err(|e| e.into_response())?;
    check_password(&asked.password).map_err(|e| e.into_response())?;
    let id = SessionId(session.id.0);
    // Counted (and the current password checked) before anything is said
    // of the login (issue 46: whether a login is taken must not be asked
    // without end).
    if !check_current(&store, id, ip, asked.current).await? {
        // A first password is counted like a try (each costs a hash).
        count_tries(&store, &keys(Some(id), ip)).await?;
    }
    let taken = store
        .password_by_login(&login)
        .await
        .map_err(|e| ApiError::store(e).into_response())?;
    if taken.is_some_and(|p| p.session != id) {
        return Err(login_taken(&login));
    }
    let phc = hash(asked.password).await.map_err(|e| e.into_response())?;
    // The password belongs to this device: signing it out removes it.
    let device = splendor_store::device_id_of_token(&token);
    let set = store
        .set_password(id, &login, (&phc, &device), unix_millis_now())
        .await
        .map_err(|e| ApiError::store(e).into_response())?;
    if !set {
        return Err(login_taken(&login));
    }
    info!(session = %session.id, "password set");
    Ok(Json(json!({ "login": login })).into_response())
}

fn login_taken(login: &str) -> Response {
    ApiError::new(
        StatusCode::CONFLICT,
        "login_taken",
        format!("the login {login:?} is another player's; choose another"),
    )
    .into_response()
}

/// `DELETE /api/me/password` `{"current":...}`.
pub(super) async fn remove(
    State(state): State<AppState>,
    request: axum::extract::Request,
) -> Result<Response, Response> {
    let (headers, ip, bytes) = read(&state, request).await.map_err(|e| e.into_response())?;
    let (session, _, store) = me(&state, &headers).await.map_err(|e| e.into_response())?;
    let asked: Current =
        body(&bytes, r#"{"current":"the password"}"#).map_err(|e| e.into_response())?;
    let id = SessionId(session.id.0);
    if !check_current(&store, id, ip, Some(asked.current)).await? {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "no_password",
            "this session has no password",
        )
        .into_response());
    }
    store
        .remove_password(id)
        .await
        .map_err(|e| ApiError::store(e).into_response())?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `POST /api/login` `{"login":...,"password":...}`: a token of the
/// session for this device.
pub(super) async fn login(
    State(state): State<AppState>,
    request: axum::extract::Request,
) -> Result<Response, Response> {
    let store = store(&state).map_err(|e| e.into_response())?;
    let (headers, ip, bytes) = read(&state, request).await.map_err(|e| e.into_response())?;
    let asked: Login =
        body(&bytes, r#"{"login":"ann","password":"..."}"#).map_err(|e| e.into_response())?;
    let login = asked.login.trim();
    // The bearer, when there is one, is looked up whatever the login: the
    // time taken says nothing of whether the login exists.
    let bearer = match crate::admin::bearer(&headers) {
        Some(_) => super::bearer_session(&state, &headers).await.ok(),
        None => None,
    };
    let found = store
        .password_by_login(login)
        .await
        .map_err(|e| ApiError::store(e).into_response())?;
    // A device of the session itself is never slowed nor refused for
    // others' failures; its own are counted per device token.
    let own_device = match (&found, &bearer) {
        (Some(found), Some(session)) => session.id.0 == found.session.0,
        _ => false,
    };
    // One try at a time per address, a few per range, on this node: a
    // crowd of tries sent at once cannot pass the counters before they
    // count, nor fill the hashing queue.
    let _in_flight = match (own_device, ip) {
        (false, Some(ip)) => {
            Some(InFlight::take(state.sign_in_tries(), ip).ok_or_else(one_at_a_time)?)
        }
        _ => None,
    };
    let mut failure_keys = Vec::new();
    if own_device {
        let token = crate::admin::bearer(&headers).unwrap_or_default();
        let device = format!(
            "signin-device:{}",
            splendor_store::device_id_of_token(token)
        );
        refuse_after_failures(&store, &device, "from this device").await?;
        failure_keys.push(device);
    } else {
        if let Some(ip) = ip {
            let address = format!("signin-address:{}", crate::limits::per_ip::client_key(ip));
            refuse_after_failures(&store, &address, "from this address").await?;
            failure_keys.push(address);
        }
        // Keyed by what was typed (at most 64 characters), so an unknown
        // login is counted, slowed and answered as a known one is.
        let login_key: String = format!("signin-login:{}", login.to_lowercase())
            .chars()
            .take(64)
            .collect();
        let failures = store
            .login_tries(&login_key, unix_millis_now())
            .await
            .map_err(|e| ApiError::store(e).into_response())?;
        let wait = slowdown(failures);
        if !wait.is_zero() {
            info!(
                failures,
                wait_ms = wait.as_millis() as u64,
                "a login under attack is slowed"
            );
            tokio::time::sleep(wait).await;
        }
        failure_keys.push(login_key);
    }
    let phc = found.as_ref().map_or(NOBODY.to_owned(), |f| f.hash.clone());
    let lane = if own_device {
        Lane::OwnDevice
    } else {
        Lane::Anyone
    };
    let right = verify(asked.password, phc, lane)
        .await
        .map_err(IntoResponse::into_response)?;
    let Some(found) = found.filter(|_| right) else {
        // Only a failure counts: under the address and the login, or the
        // device's own token.
        let now = unix_millis_now();
        for key in &failure_keys {
            store
                .count_login_try(key, now)
                .await
                .map_err(|e| ApiError::store(e).into_response())?;
        }
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "wrong_login",
            "the login or the password is wrong",
        )
        .into_response());
    };
    sign_in(&state, &store, found.session, &headers, ip)
        .await
        .map_err(|e| e.into_response())
}

/// A session proved itself on this device: a token for it.
pub(super) async fn sign_in(
    state: &AppState,
    store: &Store,
    session: SessionId,
    headers: &HeaderMap,
    ip: Option<std::net::IpAddr>,
) -> Result<Response, ApiError> {
    let Some(found) = store.session(session).await.map_err(ApiError::store)? else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "wrong_login",
            "the login or the password is wrong",
        ));
    };
    if let Some(ban) = super::banned(state, &found, ip).await {
        return Err(ban);
    }
    let token = store
        .add_device(session, &device_label(headers), unix_millis_now())
        .await
        .map_err(ApiError::store)?;
    info!(session = %session, "signed in on a new device");
    Ok(Json(SignedIn::new(session, found.name, &token)).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_of_nobody_parses_so_an_unknown_login_costs_a_whole_verification() {
        use argon2::password_hash::{PasswordHash, PasswordVerifier};
        let parsed = PasswordHash::new(NOBODY).expect("a PHC string");
        assert_eq!(parsed.algorithm.as_str(), "argon2id");
        // The same cost as every hash this server makes.
        assert!(NOBODY.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(
            argon2::Argon2::default()
                .verify_password(b"anything", &parsed)
                .is_err()
        );
    }

    #[test]
    fn logins_are_words_and_passwords_have_a_length() {
        assert_eq!(check_login("  Ann B ").ok().as_deref(), Some("Ann B"));
        assert!(check_login("an").is_err());
        assert!(check_login("ann/../x").is_err());
        assert!(check_login(&"a".repeat(33)).is_err());
        assert!(check_password("1234567").is_err());
        assert!(check_password("12345678").is_ok());
        assert!(check_password(&"x".repeat(201)).is_err());
    }
}
