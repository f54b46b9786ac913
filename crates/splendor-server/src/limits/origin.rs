//! Which web pages may open a WebSocket to this server.
//!
//! A browser sends an `Origin` header with every WebSocket handshake and
//! lets any page connect anywhere; it is the server's job to refuse pages
//! of other sites, or such a page could drive the session of a player who
//! visits it. Clients that are not browsers (bots, websocat) send no
//! `Origin` and are not affected. The rules, in order:
//! 1. no `Origin` header: allowed;
//! 2. the allow-list contains `*`: allowed;
//! 3. the origin is in the allow-list: allowed;
//! 4. the origin is the server's own (same host and port as the `Host`
//!    header): allowed unless same-origin is switched off;
//! 5. anything else, including `null` (sandboxed frames, files): refused.

use std::fmt;
use std::str::FromStr;

/// An origin as browsers send it: scheme, host and port, normalised
/// (lower case, default port dropped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    scheme: String,
    /// `host` or `host:port`, without the scheme's default port.
    authority: String,
}

/// An origin that cannot be parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not an origin: write scheme://host[:port], like https://splendor.example.org")]
pub struct BadOrigin(pub String);

impl FromStr for Origin {
    type Err = BadOrigin;

    fn from_str(text: &str) -> Result<Origin, BadOrigin> {
        let bad = || BadOrigin(text.to_owned());
        let lower = text.trim().to_ascii_lowercase();
        let (scheme, rest) = lower.split_once("://").ok_or_else(bad)?;
        // A trailing slash is tolerated in configuration; a path is not.
        let rest = rest.strip_suffix('/').unwrap_or(rest);
        let scheme_ok = !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
        let authority_ok = !rest.is_empty()
            && !rest.contains(['/', '?', '#', '@', ' '])
            && rest
                .chars()
                .all(|c| c.is_ascii_graphic() && c != '\\' && c != '"');
        if !scheme_ok || !authority_ok {
            return Err(bad());
        }
        Ok(Origin {
            authority: strip_default_port(scheme, rest).to_owned(),
            scheme: scheme.to_owned(),
        })
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", self.scheme, self.authority)
    }
}

fn strip_default_port<'a>(scheme: &str, authority: &'a str) -> &'a str {
    let default = match scheme {
        "http" | "ws" => ":80",
        "https" | "wss" => ":443",
        _ => return authority,
    };
    authority.strip_suffix(default).unwrap_or(authority)
}

/// One entry of the allow-list: an origin, or `*` for any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AllowedOrigin {
    /// `*`: every origin.
    Any,
    /// One origin: scheme, host and port.
    Exactly(Origin),
}

impl FromStr for AllowedOrigin {
    type Err = BadOrigin;

    fn from_str(text: &str) -> Result<AllowedOrigin, BadOrigin> {
        if text.trim() == "*" {
            Ok(AllowedOrigin::Any)
        } else {
            text.parse().map(AllowedOrigin::Exactly)
        }
    }
}

impl fmt::Display for AllowedOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AllowedOrigin::Any => f.write_str("*"),
            AllowedOrigin::Exactly(origin) => origin.fmt(f),
        }
    }
}

/// Why a handshake was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the origin {origin:?} may not open a WebSocket to this server")]
pub struct OriginRefused {
    /// The refused `Origin` header.
    pub origin: String,
}

/// The allow-list and the same-origin switch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OriginPolicy {
    allowed: Vec<AllowedOrigin>,
    same_origin: bool,
}

impl OriginPolicy {
    /// A policy allowing `allowed`, and the server's own origin when `same_origin`.
    pub fn new(allowed: Vec<AllowedOrigin>, same_origin: bool) -> OriginPolicy {
        OriginPolicy {
            allowed,
            same_origin,
        }
    }

    /// Judges a handshake from its `Origin` and `Host` headers.
    pub fn check(&self, origin: Option<&str>, host: Option<&str>) -> Result<(), OriginRefused> {
        let Some(raw) = origin else {
            return Ok(());
        };
        if self.allowed.contains(&AllowedOrigin::Any) {
            return Ok(());
        }
        let refused = || OriginRefused {
            origin: raw.chars().take(200).collect(),
        };
        let origin: Origin = raw.parse().map_err(|_| refused())?;
        let listed = self
            .allowed
            .iter()
            .any(|a| matches!(a, AllowedOrigin::Exactly(o) if *o == origin));
        if listed || (self.same_origin && is_same_origin(&origin, host)) {
            Ok(())
        } else {
            Err(refused())
        }
    }
}

/// Whether `origin` names the host the request was sent to. The scheme is
/// not compared: behind a TLS-terminating proxy the page is https while the
/// server hears plain http.
fn is_same_origin(origin: &Origin, host: Option<&str>) -> bool {
    let Some(host) = host else {
        return false;
    };
    let host = host.trim().to_ascii_lowercase();
    let host = strip_default_port(&origin.scheme, &host);
    !host.is_empty() && host == origin.authority
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(allowed: &[&str], same_origin: bool) -> OriginPolicy {
        OriginPolicy::new(
            allowed.iter().map(|a| a.parse().unwrap()).collect(),
            same_origin,
        )
    }

    #[test]
    fn origins_parse_and_normalise() {
        let o: Origin = "HTTPS://Splendor.Example.org:443/".parse().unwrap();
        assert_eq!(o.to_string(), "https://splendor.example.org");
        let o: Origin = "http://localhost:8080".parse().unwrap();
        assert_eq!(o.to_string(), "http://localhost:8080");
        let o: Origin = "http://[::1]:80".parse().unwrap();
        assert_eq!(o.to_string(), "http://[::1]");
        for bad in [
            "",
            "example.org",
            "https://",
            "https://example.org/path",
            "https://user@example.org",
            "https://exa mple.org",
            "://example.org",
        ] {
            assert!(bad.parse::<Origin>().is_err(), "{bad:?} parsed");
        }
        assert_eq!("*".parse::<AllowedOrigin>(), Ok(AllowedOrigin::Any));
    }

    #[test]
    fn clients_without_an_origin_are_always_allowed() {
        assert!(policy(&[], false).check(None, Some("x.org")).is_ok());
        assert!(policy(&[], false).check(None, None).is_ok());
    }

    #[test]
    fn listed_origins_are_allowed_and_others_refused() {
        let p = policy(&["https://play.example.org"], false);
        assert!(p.check(Some("https://play.example.org"), None).is_ok());
        assert!(p.check(Some("https://PLAY.example.org:443"), None).is_ok());
        let refused = p
            .check(Some("https://evil.example.com"), Some("play.example.org"))
            .unwrap_err();
        assert_eq!(refused.origin, "https://evil.example.com");
        // Another scheme or port is another origin.
        assert!(p.check(Some("http://play.example.org"), None).is_err());
        assert!(
            p.check(Some("https://play.example.org:8443"), None)
                .is_err()
        );
        // A look-alike suffix is not the same host.
        assert!(
            p.check(Some("https://play.example.org.evil.com"), None)
                .is_err()
        );
        assert!(p.check(Some("null"), None).is_err());
        assert!(p.check(Some("garbage"), None).is_err());
    }

    #[test]
    fn same_origin_follows_the_host_header_when_on() {
        let on = policy(&[], true);
        assert!(
            on.check(Some("http://localhost:8080"), Some("localhost:8080"))
                .is_ok()
        );
        assert!(
            on.check(
                Some("https://splendor.example.org"),
                Some("Splendor.example.org")
            )
            .is_ok()
        );
        assert!(
            on.check(
                Some("https://splendor.example.org"),
                Some("splendor.example.org:443")
            )
            .is_ok()
        );
        assert!(
            on.check(Some("http://localhost:3000"), Some("localhost:8080"))
                .is_err()
        );
        assert!(on.check(Some("http://localhost:8080"), None).is_err());
        let off = policy(&[], false);
        assert!(
            off.check(Some("http://localhost:8080"), Some("localhost:8080"))
                .is_err()
        );
    }

    #[test]
    fn a_star_allows_every_origin() {
        let p = policy(&["*"], false);
        assert!(p.check(Some("https://anything.example"), None).is_ok());
        assert!(p.check(Some("null"), None).is_ok());
    }

    #[test]
    fn a_refused_origin_is_quoted_short() {
        let long = format!("https://{}.org", "a".repeat(1000));
        let refused = policy(&[], false).check(Some(&long), None).unwrap_err();
        assert_eq!(refused.origin.chars().count(), 200);
    }
}
