//! Webhooks (issue 25): a session's notices posted as JSON to a URL it
//! gave, signed with a secret it was given once.
//!
//! A public server posts only over HTTPS to public addresses: a webhook
//! (or a push endpoint, [`super::push`]) whose host is (or resolves to) a
//! loopback, private, link-local or other special address is refused,
//! redirects are not followed, and a delivery gets 5 seconds.

use std::net::{IpAddr, SocketAddr};

use hmac::{Hmac, Mac};
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use serde::Serialize;
use sha2::Sha256;
use splendor_lobby::RoomCode;
use splendor_lobby::room::notices::{Notice, NoticeEvent};
use splendor_store::unix_millis_now;
use tracing::debug;

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
    allow_private: bool,
    (url, secret): (&str, &str),
    room: &RoomCode,
    notice: &Notice,
) {
    let event = notice.event.name();
    // Checked when set; checked again in case the rules changed since.
    if let Err(why) = check_url(url, allow_private, "webhook") {
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

/// Whether `url` may be posted to (`what`: a webhook, a push endpoint):
/// HTTPS (HTTP too where private addresses are allowed, in tests), no
/// credentials, and a host that is not a special address. Says why not.
pub(crate) fn check_url(url: &str, allow_private: bool, what: &str) -> Result<(), String> {
    if what == "webhook" && url.len() > MAX_URL {
        return Err(format!("a webhook's URL has at most {MAX_URL} characters"));
    }
    let parsed = reqwest::Url::parse(url).map_err(|_| format!("the {what} is not a URL"))?;
    match parsed.scheme() {
        "https" => {}
        "http" if allow_private => {}
        _ => return Err(format!("a {what}'s URL starts with https://")),
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(format!("a {what}'s URL has no user name or password in it"));
    }
    let host = parsed
        .host_str()
        .ok_or_else(|| format!("the {what}'s URL names no host"))?;
    let ip = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<IpAddr>()
        .ok();
    let name = host.trim_end_matches('.').to_ascii_lowercase();
    if ip.is_none() && !allow_private && (name == "localhost" || name.ends_with(".localhost")) {
        return Err(format!(
            "a {what}'s host is a public address, not this machine or a private network"
        ));
    }
    if let Some(ip) = ip
        && !allow_private
        && !is_public(ip)
    {
        return Err(format!(
            "a {what}'s host is a public address, not this machine or a private network"
        ));
    }
    Ok(())
}

/// An address anyone on the internet can reach: not loopback, private,
/// link-local, shared (CGNAT), unspecified, multicast, broadcast,
/// documentation or unique-local.
pub(crate) fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_multicast()
                || v4.is_broadcast()
                || v4.is_documentation()
                || a == 0
                || (a == 100 && (64..128).contains(&b))
                || (a == 198 && (b == 18 || b == 19))
                || (a == 192 && b == 0 && v4.octets()[2] == 0)
                || a >= 240)
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            let s = v6.segments();
            let first = s[0];
            // IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::/96) and 6to4
            // (2002::/16) addresses may reach any IPv4 address.
            let embeds_v4 = s[..6] == [0; 6]
                || (s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0; 4])
                || first == 0x2002;
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || embeds_v4
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
                || (first & 0xffc0) == 0xfec0
                || first == 0x2001 && s[1] == 0x0db8)
        }
    }
}

/// Resolves a webhook's (or push service's) host to its public addresses only: a name that
/// points at this machine or a private network is not posted to.
#[derive(Debug)]
pub(crate) struct PublicOnly {
    pub(crate) allow_private: bool,
}

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_private = self.allow_private;
        Box::pin(async move {
            let found: Vec<SocketAddr> = tokio::net::lookup_host((name.as_str(), 0))
                .await?
                .filter(|a| allow_private || is_public(a.ip()))
                .collect();
            if found.is_empty() {
                return Err("the host has no public address".into());
            }
            Ok(Box::new(found.into_iter()) as Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_public_https_webhooks_are_taken() {
        for ok in [
            "https://hooks.example.org/splendor",
            "https://93.184.216.34/x",
            "https://[2606:4700::1111]/x",
        ] {
            assert_eq!(check_url(ok, false, "webhook"), Ok(()), "{ok}");
        }
        for bad in [
            "http://hooks.example.org/x",
            "ftp://hooks.example.org/x",
            "https://user:pw@hooks.example.org/x",
            "https://localhost/x",
            "https://a.localhost./x",
            "https://127.0.0.1/x",
            "https://10.1.2.3/x",
            "https://192.168.0.1/x",
            "https://172.16.0.1/x",
            "https://169.254.169.254/latest/meta-data",
            "https://100.64.0.1/x",
            "https://0.0.0.0/x",
            "https://[::1]/x",
            "https://[fd00::1]/x",
            "https://[fe80::1]/x",
            "https://[::ffff:127.0.0.1]/x",
            "https://[::127.0.0.1]/x",
            "https://[64:ff9b::a00:1]/x",
            "https://[2002:a00:1::1]/x",
            "https://[fec0::1]/x",
            "https://192.0.0.8/x",
            "https://0x7f.1/x",
            "https://2130706433/x",
            "https://127.0.0.1./x",
            "not a url",
        ] {
            assert!(check_url(bad, false, "webhook").is_err(), "{bad}");
        }
        let long = format!("https://hooks.example.org/{}", "a".repeat(MAX_URL));
        assert!(check_url(&long, false, "webhook").is_err());
        // A test's own receiver on this machine, where allowed.
        assert_eq!(
            check_url("http://127.0.0.1:9/hook", true, "webhook"),
            Ok(())
        );
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
