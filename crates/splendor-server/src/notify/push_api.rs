//! The Web Push API (issue 25): the server's public key for the page, and
//! a session's browsers (`/api/me/push`), each checked before it is kept:
//! what `PushSubscription.toJSON()` gives, an `https` endpoint on a public
//! address (as webhooks), keys that are a P-256 point and 16 bytes, a
//! language of the server's, at most [`MAX_BROWSERS`] per session.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use base64ct::{Base64UrlUnpadded, Encoding};
use serde::{Deserialize, Serialize};
use splendor_store::{PushSubscription, SessionId, unix_millis_now};
use tracing::warn;

use super::outbound::Outbound;
use super::push::Push;
use crate::AppState;
use crate::games::ApiError;
use crate::l10n::Lang;

/// The browsers one session may have notices pushed to.
pub(crate) const MAX_BROWSERS: usize = 10;
/// The longest push endpoint taken (push services' are 100 to 400
/// characters).
pub(crate) const MAX_ENDPOINT: usize = 1024;

fn invalid(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "invalid_subscription", message)
}

fn push_of(state: &AppState) -> Result<&Push, ApiError> {
    state.push().ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "this server sends no pushes",
        )
    })
}

fn unavailable(why: String) -> ApiError {
    warn!(why, "Web Push's key is not available");
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "storage_unavailable",
        "the server's push key cannot be read right now; try again shortly",
    )
}

/// What `GET /api/push/key` answers.
#[derive(Serialize)]
pub(crate) struct KeyAnswer {
    /// The server's public key (P-256, uncompressed, base64url): the
    /// `applicationServerKey` of `PushManager.subscribe`.
    public_key: String,
}

/// `GET /api/push/key`: anyone may read it.
pub(crate) async fn key(State(state): State<AppState>) -> Result<Json<KeyAnswer>, ApiError> {
    let vapid = push_of(&state)?.vapid().await.map_err(unavailable)?;
    Ok(Json(KeyAnswer {
        public_key: vapid.public.clone(),
    }))
}

/// One browser, as `GET` lists it (its keys are not shown again).
#[derive(Serialize)]
pub(crate) struct Browser {
    endpoint: String,
    lang: String,
    created_at: i64,
}

/// What `GET` answers.
#[derive(Serialize)]
pub(crate) struct Browsers {
    browsers: Vec<Browser>,
}

/// `GET /api/me/push`: the session's browsers.
pub(crate) async fn list(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<Browsers>, ApiError> {
    let push = push_of(&state)?;
    let session = crate::identity::bearer_session(&state, &headers).await?;
    let browsers = push
        .store
        .push_subscriptions(SessionId(session.id.0))
        .await
        .map_err(ApiError::store)?;
    Ok(Json(Browsers {
        browsers: browsers
            .into_iter()
            .map(|b| Browser {
                endpoint: b.endpoint,
                lang: b.lang,
                created_at: b.created_at,
            })
            .collect(),
    }))
}

/// What `PUT` takes: `PushSubscription.toJSON()`, and the language.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Subscribe {
    endpoint: String,
    /// What browsers give; not used (a push service that expires a
    /// subscription answers 410, which forgets it).
    #[serde(default)]
    #[allow(dead_code)]
    expiration_time: Option<serde_json::Value>,
    keys: Keys,
    /// The language its pushes are worded in (`en`, `nl`, `fr`, `de`);
    /// English when absent.
    #[serde(default)]
    lang: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Keys {
    p256dh: String,
    auth: String,
}

/// Checks a subscription; the row to store, or why not.
pub(crate) fn check(body: &[u8], rules: &Outbound) -> Result<PushSubscription, String> {
    if body.len() > 4096 {
        return Err("a subscription is at most 4096 bytes".into());
    }
    let sub: Subscribe = serde_json::from_slice(body).map_err(|e| {
        format!(
            "{e}; send what PushSubscription.toJSON() gives: \
             {{\"endpoint\":\"https://...\",\"keys\":{{\"p256dh\":\"...\",\"auth\":\"...\"}}}}"
        )
    })?;
    if sub.endpoint.len() > MAX_ENDPOINT {
        return Err(format!(
            "a push endpoint has at most {MAX_ENDPOINT} characters"
        ));
    }
    rules.check_url(&sub.endpoint, "push endpoint")?;
    let p256dh = Base64UrlUnpadded::decode_vec(sub.keys.p256dh.trim_end_matches('='))
        .map_err(|_| "keys.p256dh is not base64url".to_owned())?;
    if p256dh.len() != 65 || p256::PublicKey::from_sec1_bytes(&p256dh).is_err() {
        return Err("keys.p256dh is not an uncompressed P-256 public key (65 bytes)".into());
    }
    let auth = Base64UrlUnpadded::decode_vec(sub.keys.auth.trim_end_matches('='))
        .map_err(|_| "keys.auth is not base64url".to_owned())?;
    if auth.len() != 16 {
        return Err("keys.auth is not 16 bytes".into());
    }
    let lang = match sub.lang.as_deref() {
        None => Lang::default(),
        Some(tag) => Lang::parse(tag)
            .map_err(|_| format!("{tag:?} is not a language of this server: en, nl, fr or de"))?,
    };
    Ok(PushSubscription {
        endpoint: sub.endpoint,
        p256dh: Base64UrlUnpadded::encode_string(&p256dh),
        auth: Base64UrlUnpadded::encode_string(&auth),
        lang: lang.code().to_owned(),
        created_at: unix_millis_now(),
    })
}

/// `PUT /api/me/push`: adds a browser (or moves it to this session).
pub(crate) async fn put(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<StatusCode, ApiError> {
    let push = push_of(&state)?;
    let session = crate::identity::bearer_session(&state, &headers).await?;
    let rules = Outbound::of(state.config());
    let browser = check(&body, &rules).map_err(invalid)?;
    rules
        .check_url_now(&browser.endpoint, "push endpoint")
        .await
        .map_err(invalid)?;
    let session = SessionId(session.id.0);
    let known = push
        .store
        .push_subscriptions(session)
        .await
        .map_err(ApiError::store)?;
    if known.len() >= MAX_BROWSERS && !known.iter().any(|b| b.endpoint == browser.endpoint) {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "too_many_browsers",
            format!(
                "a session has notices pushed to at most {MAX_BROWSERS} browsers: \
                 remove one first (DELETE /api/me/push with its endpoint)"
            ),
        ));
    }
    let kept = push
        .store
        .put_push_subscription(session, &browser)
        .await
        .map_err(ApiError::store)?;
    if !kept {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "endpoint_taken",
            "another session has that endpoint with other keys",
        ));
    }
    Ok(StatusCode::NO_CONTENT)
}

/// What `DELETE` takes: one browser's endpoint, or `all`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Unsubscribe {
    #[serde(default)]
    endpoint: Option<String>,
    #[serde(default)]
    all: bool,
}

/// `DELETE /api/me/push`: forgets one browser (`{"endpoint":...}`) or
/// all of the session's (`{"all":true}`).
pub(crate) async fn delete(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> Result<StatusCode, ApiError> {
    let push = push_of(&state)?;
    let session = crate::identity::bearer_session(&state, &headers).await?;
    if body.len() > 4096 {
        return Err(invalid("the body is at most 4096 bytes"));
    }
    let usage = "send {\"endpoint\":\"https://...\"} for one browser, or {\"all\":true}";
    let asked: Unsubscribe =
        serde_json::from_slice(&body).map_err(|e| invalid(format!("{e}; {usage}")))?;
    let endpoint = match asked {
        Unsubscribe {
            endpoint: Some(endpoint),
            all: false,
        } => Some(endpoint),
        Unsubscribe {
            endpoint: None,
            all: true,
        } => None,
        _ => return Err(invalid(usage)),
    };
    let forgotten = push
        .store
        .delete_push_subscriptions(SessionId(session.id.0), endpoint.as_deref())
        .await
        .map_err(ApiError::store)?;
    if endpoint.is_some() && forgotten == 0 {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "this session has no browser with that endpoint",
        ));
    }
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    use p256::elliptic_curve::sec1::ToEncodedPoint;

    use super::*;

    fn browser_keys() -> (String, String) {
        let secret = super::super::push::fresh_secret().unwrap();
        (
            Base64UrlUnpadded::encode_string(
                secret.public_key().to_encoded_point(false).as_bytes(),
            ),
            Base64UrlUnpadded::encode_string(&[7u8; 16]),
        )
    }

    #[test]
    fn a_subscription_is_checked_before_it_is_kept() {
        let (p256dh, auth) = browser_keys();
        let good = |endpoint: &str| {
            format!(
                r#"{{"endpoint":"{endpoint}","expirationTime":null,"keys":{{"p256dh":"{p256dh}","auth":"{auth}"}},"lang":"nl"}}"#
            )
        };
        let public = Outbound {
            allow_private: false,
            ports: Vec::new(),
            names: None,
        };
        let tests = Outbound {
            allow_private: true,
            ..public.clone()
        };
        let kept = check(
            good("https://fcm.googleapis.com/fcm/send/abc").as_bytes(),
            &public,
        )
        .expect("a browser's subscription");
        assert_eq!(kept.lang, "nl");
        assert_eq!(kept.p256dh, p256dh);
        for (body, why) in [
            (good("http://push.example.org/x"), "https"),
            (good("https://127.0.0.1/x"), "public"),
            (good("https://10.0.0.7/x"), "public"),
            (good("https://localhost/x"), "public"),
            (good("https://push.example.org:6379/x"), "port 443"),
            (good("not a url"), "not a URL"),
            (
                good(&format!(
                    "https://push.example.org/{}",
                    "a".repeat(MAX_ENDPOINT)
                )),
                "at most",
            ),
            (
                good("https://push.example.org/x").replace(&p256dh, "AAAA"),
                "p256dh",
            ),
            (
                good("https://push.example.org/x").replace(&auth, "c2hvcnQ"),
                "keys.auth",
            ),
            (
                good("https://push.example.org/x").replace("\"nl\"", "\"xx\""),
                "language",
            ),
            (
                good("https://push.example.org/x").replace("\"keys\"", "\"extra\":1,\"keys\""),
                "unknown field",
            ),
            ("{}".to_owned(), "missing field"),
            ("x".repeat(5000), "4096"),
        ] {
            let err = check(body.as_bytes(), &public).expect_err(&body);
            assert!(err.contains(why), "{body}: {err}");
        }
        // A test's push service on this machine, where allowed.
        assert!(check(good("http://127.0.0.1:9/push").as_bytes(), &tests).is_ok());
    }
}
