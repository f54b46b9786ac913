//! Web Push (issue 25, RFC 8030, 8291 and 8292): a session's notices
//! pushed to the browsers it subscribed, so a player is told with no tab
//! open.
//!
//! - The server's key pair (VAPID, P-256) is made by the first node that
//!   starts and kept in the store (`server_keys`), so every node signs with
//!   the same key and a browser's subscription survives restarts.
//!   `GET /api/push/key` gives the public half to the page, for
//!   `PushManager.subscribe`.
//! - `GET`, `PUT` and `DELETE /api/me/push` (the session's bearer token)
//!   list, add and remove the session's browsers: what
//!   `PushSubscription.toJSON()` gives, an `https` endpoint on a public
//!   address (as webhooks), at most `MAX_BROWSERS` per session
//!   ([`super::push_api`]).
//! - A push is encrypted for its browser alone (aes128gcm,
//!   `web-push-native`) and says little: the event, the room's code and a
//!   sentence in the browser's language, never anything of a game's hidden
//!   information. A push service that answers 404 or 410 has forgotten the
//!   browser, and so does the store.

use std::sync::Arc;
use std::time::Duration;

use base64ct::{Base64UrlUnpadded, Encoding};
use p256::ecdsa::signature::Signer;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use serde::Serialize;
use splendor_lobby::RoomCode;
use splendor_lobby::room::effect::NoticeEvent;
use splendor_store::{PushSubscription, Store, unix_millis_now};
use splendor_words::Words;
use tokio::sync::OnceCell;
use tracing::{debug, warn};

use crate::l10n::{Lang, word};
use crate::metrics::Metrics;

/// How long a push service keeps a push for a browser that is off.
const TTL: Duration = Duration::from_secs(24 * 60 * 60);
/// The store's name for the server's private key.
const KEY_NAME: &str = "vapid_p256_private";

/// The server's VAPID key pair and who to contact about its pushes.
pub(crate) struct Vapid {
    signing: p256::ecdsa::SigningKey,
    /// The public key, uncompressed, base64url: the page's
    /// `applicationServerKey` and the `k=` of every push.
    pub(super) public: String,
    /// The JWT's `sub`: a `mailto:` or `https:` address.
    contact: String,
}

impl std::fmt::Debug for Vapid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Vapid")
            .field("public", &self.public)
            .finish()
    }
}

impl Vapid {
    /// The key pair kept in the store, made now if none is.
    async fn load(store: &Store, contact: String) -> Result<Vapid, String> {
        let candidate = Base64UrlUnpadded::encode_string(&fresh_secret()?.to_bytes());
        let kept = store
            .server_key(KEY_NAME, &candidate, unix_millis_now())
            .await
            .map_err(|e| e.to_string())?;
        let bytes = Base64UrlUnpadded::decode_vec(&kept)
            .map_err(|_| "the stored VAPID key is not base64url".to_owned())?;
        let secret = p256::SecretKey::from_slice(&bytes)
            .map_err(|_| "the stored VAPID key is not a P-256 key".to_owned())?;
        let public = Base64UrlUnpadded::encode_string(
            secret.public_key().to_encoded_point(false).as_bytes(),
        );
        Ok(Vapid {
            signing: p256::ecdsa::SigningKey::from(secret),
            public,
            contact,
        })
    }

    /// The `Authorization` header of a push to `endpoint` (RFC 8292): a
    /// JWT (ES256) for the push service's origin, valid 12 hours.
    fn authorization(&self, endpoint: &reqwest::Url, now_s: u64) -> String {
        let audience = endpoint.origin().ascii_serialization();
        let header = Base64UrlUnpadded::encode_string(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = serde_json::json!({
            "aud": audience,
            "exp": now_s + 12 * 60 * 60,
            "sub": self.contact,
        });
        let claims = Base64UrlUnpadded::encode_string(claims.to_string().as_bytes());
        let signed = format!("{header}.{claims}");
        let signature: p256::ecdsa::Signature = self.signing.sign(signed.as_bytes());
        let signature = Base64UrlUnpadded::encode_string(&signature.to_bytes());
        format!("vapid t={signed}.{signature}, k={}", self.public)
    }
}

/// A new P-256 secret key from the operating system's randomness.
pub(super) fn fresh_secret() -> Result<p256::SecretKey, String> {
    use rand::TryRngCore;
    // A 32-byte string is a valid key unless it is 0 or past the group's
    // order (a chance of about 2^-32); draw again then.
    for _ in 0..8 {
        let mut bytes = [0u8; 32];
        rand::rngs::OsRng
            .try_fill_bytes(&mut bytes)
            .map_err(|e| format!("no random source: {e}"))?;
        if let Ok(secret) = p256::SecretKey::from_slice(&bytes) {
            return Ok(secret);
        }
    }
    Err("no P-256 key could be drawn".into())
}

/// Web Push for one server: the store, the key (loaded once, when first
/// needed) and the contact its pushes give.
#[derive(Debug)]
pub(crate) struct Push {
    pub(super) store: Store,
    contact: String,
    vapid: OnceCell<Arc<Vapid>>,
}

impl Push {
    /// Web Push over `store`; `contact` is the VAPID `sub`.
    pub(crate) fn new(store: Store, contact: String) -> Push {
        Push {
            store,
            contact,
            vapid: OnceCell::new(),
        }
    }

    /// The key pair: read from the store (or made there) on first use.
    pub(crate) async fn vapid(&self) -> Result<Arc<Vapid>, String> {
        self.vapid
            .get_or_try_init(|| async {
                Vapid::load(&self.store, self.contact.clone())
                    .await
                    .map(Arc::new)
            })
            .await
            .cloned()
    }
}

/// The contact a server's pushes give when the host names none: its public
/// URL if it has one (push services may write to whoever runs a server
/// that misbehaves).
pub(crate) fn default_contact(public_url: Option<&str>) -> String {
    match public_url {
        Some(url) if url.starts_with("https://") => url.trim_end_matches('/').to_owned(),
        _ => "mailto:splendor-server@localhost".to_owned(),
    }
}

/// What a push says, in the browser's language (JSON, encrypted): the
/// page's service worker shows `body` and opens `url` on a click.
#[derive(Serialize)]
struct Payload<'a> {
    event: &'static str,
    room: &'a str,
    title: &'static str,
    body: String,
    url: String,
}

/// The sentence a push shows for `event` in room `room`.
pub(crate) fn words(event: &NoticeEvent, room: &str) -> Words {
    match event {
        NoticeEvent::YourTurn { .. } => Words::new("push-your-turn"),
        NoticeEvent::GameOver => Words::new("push-game-over"),
        NoticeEvent::Chat { from } => Words::new("push-chat").text("name", from.clone()),
        NoticeEvent::Invitation { from } => {
            Words::new("push-invitation").text("name", from.clone())
        }
    }
    .text("room", room)
}

/// Pushes `event` of `room` to one browser. Never waits on anything but
/// the push service, and that for at most the client's timeout.
pub(crate) async fn push(
    client: &reqwest::Client,
    vapid: &Vapid,
    store: &Store,
    metrics: &Metrics,
    browser: &PushSubscription,
    room: &RoomCode,
    event: &NoticeEvent,
) {
    let Ok(url) = reqwest::Url::parse(&browser.endpoint) else {
        metrics.notice("push_failed");
        return;
    };
    let lang = Lang::parse(&browser.lang).unwrap_or_default();
    let payload = Payload {
        event: event.name(),
        room: room.as_str(),
        title: "Splendor",
        body: word(lang, &words(event, room.as_str())),
        url: format!("/#{}", room.as_str()),
    };
    let keys = Base64UrlUnpadded::decode_vec(&browser.p256dh)
        .ok()
        .and_then(|k| p256::PublicKey::from_sec1_bytes(&k).ok())
        .zip(
            Base64UrlUnpadded::decode_vec(&browser.auth)
                .ok()
                .filter(|a| a.len() == 16),
        );
    let Some((public, auth)) = keys else {
        metrics.notice("push_failed");
        return;
    };
    let body = serde_json::to_vec(&payload).unwrap_or_default();
    let auth = web_push_native::Auth::clone_from_slice(&auth);
    let encrypted = match web_push_native::encrypt(body, &public, &auth) {
        Ok(encrypted) => encrypted,
        Err(e) => {
            warn!(error = %e, "a push could not be encrypted");
            metrics.notice("push_failed");
            return;
        }
    };
    let now_s = u64::try_from(unix_millis_now() / 1000).unwrap_or(0);
    let sent = client
        .post(url.clone())
        .header("TTL", TTL.as_secs())
        .header("Urgency", "normal")
        // A later push of the same event and room replaces one not yet
        // delivered.
        .header("Topic", format!("{}-{}", event.name(), room.as_str()))
        .header(reqwest::header::CONTENT_ENCODING, "aes128gcm")
        .header(reqwest::header::CONTENT_TYPE, "application/octet-stream")
        .header(
            reqwest::header::AUTHORIZATION,
            vapid.authorization(&url, now_s),
        )
        .body(encrypted)
        .send()
        .await;
    match sent {
        Ok(response) if response.status().is_success() => metrics.notice("pushed"),
        Ok(response) if matches!(response.status().as_u16(), 404 | 410) => {
            // The browser unsubscribed, or its subscription expired: it is
            // forgotten first and counted after, so that whoever sees the
            // count finds it gone.
            if let Err(e) = store.drop_push_endpoint(&browser.endpoint).await {
                debug!(error = %e, "a gone push endpoint stays for now");
            }
            metrics.notice("push_gone");
        }
        Ok(response) => {
            debug!(status = %response.status(), "a push service refused a push");
            metrics.notice("push_failed");
        }
        Err(e) => {
            debug!(error = %e, "a push service could not be reached");
            metrics.notice("push_failed");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_push_is_signed_for_its_service_origin() {
        use p256::ecdsa::signature::Verifier;
        let secret = fresh_secret().unwrap();
        let vapid = Vapid {
            public: Base64UrlUnpadded::encode_string(
                secret.public_key().to_encoded_point(false).as_bytes(),
            ),
            signing: p256::ecdsa::SigningKey::from(secret.clone()),
            contact: "mailto:host@example.org".into(),
        };
        let url = reqwest::Url::parse("https://push.example.org:8443/send/abc?x=1").unwrap();
        let header = vapid.authorization(&url, 1_000);
        let (t, k) = header
            .strip_prefix("vapid t=")
            .and_then(|rest| rest.split_once(", k="))
            .expect("vapid t=..., k=...");
        assert_eq!(k, vapid.public);
        let mut parts = t.split('.');
        let (h, c, s) = (
            parts.next().unwrap(),
            parts.next().unwrap(),
            parts.next().unwrap(),
        );
        let claims: serde_json::Value =
            serde_json::from_slice(&Base64UrlUnpadded::decode_vec(c).unwrap()).unwrap();
        assert_eq!(claims["aud"], "https://push.example.org:8443");
        assert_eq!(claims["exp"], 1_000 + 12 * 3600);
        assert_eq!(claims["sub"], "mailto:host@example.org");
        let signature =
            p256::ecdsa::Signature::from_slice(&Base64UrlUnpadded::decode_vec(s).unwrap()).unwrap();
        let verifying = p256::ecdsa::VerifyingKey::from(secret.public_key());
        assert!(
            verifying
                .verify(format!("{h}.{c}").as_bytes(), &signature)
                .is_ok()
        );
    }
}
