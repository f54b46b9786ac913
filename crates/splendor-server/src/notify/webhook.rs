//! Webhooks (issue 25): a session's notices posted as JSON to a URL it
//! gave, signed with a secret it was given once.
//!
//! A public server posts only over HTTPS to public addresses on port 443
//! ([`super::outbound`]: a host name is checked by what it resolves to
//! when the post is made), redirects are not followed, and a delivery
//! gets 5 seconds.

use hmac::{Hmac, Mac};
use serde::Serialize;
use sha2::Sha256;
use splendor_lobby::RoomCode;
use splendor_lobby::room::effect::{Notice, NoticeEvent};
use splendor_store::unix_millis_now;
use tracing::debug;

use super::outbound::Outbound;
use crate::metrics::Metrics;

/// What a webhook receives (JSON): the event, the room, and its detail.
#[derive(Serialize)]
struct Payload<'a> {
    event: &'static str,
    room: &'a str,
    /// When the notice was sent, in Unix ms.
    at: i64,
    /// `your_turn`: what is left of the turn (R12.5), in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    left_s: Option<u64>,
    /// `chat`: who wrote (the text is not kept, nor sent); `invitation`:
    /// who invites.
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<&'a str>,
}

/// Posts `notice` of `room` to the webhook `url`, signed with `secret`.
pub(crate) async fn post(
    client: &reqwest::Client,
    metrics: &Metrics,
    rules: &Outbound,
    url: &str,
    secret: &str,
    room: &RoomCode,
    notice: &Notice,
) {
    let event = notice.event.name();
    // Checked when set; checked again in case the rules changed since.
    if let Err(why) = check_url(url, rules) {
        debug!(why, "a webhook is not posted to");
        metrics.notice("failed");
        return;
    }
    let payload = Payload {
        event,
        room: room.as_str(),
        at: unix_millis_now(),
        left_s: match &notice.event {
            NoticeEvent::YourTurn { left } => Some(left.as_secs()),
            _ => None,
        },
        from: match &notice.event {
            NoticeEvent::Chat { from } | NoticeEvent::Invitation { from } => Some(from),
            _ => None,
        },
    };
    let body = serde_json::to_vec(&payload).unwrap_or_default();
    let signature = sign(secret, &body);
    let sent = client
        .post(url)
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .header("X-Splendor-Event", event)
        .header("X-Splendor-Signature", format!("sha256={signature}"))
        .body(body)
        .send()
        .await;
    match sent {
        Ok(response) if response.status().is_success() => metrics.notice("sent"),
        Ok(response) => {
            debug!(status = %response.status(), "a webhook refused a notice");
            metrics.notice("failed");
        }
        Err(e) => {
            debug!(error = %e, "a webhook could not be reached");
            metrics.notice("failed");
        }
    }
}

/// HMAC-SHA256 of `body` with `secret`, in lowercase hexadecimal.
pub(crate) fn sign(secret: &str, body: &[u8]) -> String {
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret.as_bytes()) else {
        return String::new();
    };
    mac.update(body);
    mac.finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The longest webhook URL taken.
pub(crate) const MAX_URL: usize = 512;

/// Whether `url` may be a webhook: at most [`MAX_URL`] characters, and
/// what [`Outbound::check_url`] asks of every outbound URL.
pub(crate) fn check_url(url: &str, rules: &Outbound) -> Result<(), String> {
    if url.len() > MAX_URL {
        return Err(format!("a webhook's URL has at most {MAX_URL} characters"));
    }
    rules.check_url(url, "webhook").map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_webhooks_url_is_an_outbound_url_of_at_most_512_characters() {
        let rules = Outbound {
            allow_private: false,
            ports: Vec::new(),
            names: None,
        };
        assert_eq!(
            check_url("https://hooks.example.org/splendor", &rules),
            Ok(())
        );
        assert!(check_url("https://127.0.0.1/x", &rules).is_err());
        let long = format!("https://hooks.example.org/{}", "a".repeat(MAX_URL));
        assert!(check_url(&long, &rules).is_err());
    }

    #[test]
    fn a_delivery_is_signed_with_hmac_sha256() {
        // RFC 4231, test case 2.
        assert_eq!(
            sign("Jefe", b"what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
