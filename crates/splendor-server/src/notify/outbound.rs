//! Where webhooks and pushes may go (issue 46): the rules a URL must meet
//! before a player's settings keep it, and the resolver every delivery
//! goes through, so that a stranger cannot make the server post to this
//! machine, a private network or a cloud's metadata service (SSRF).
//!
//! - A URL is `https://`, names no user or password, and its port is 443
//!   unless the host allows others (`--webhook-ports`).
//! - A literal address must be public ([`is_public`]). A host name is
//!   resolved when the settings are saved (a name that only points at
//!   special addresses is refused with a clear answer) and again for each
//!   delivery, by [`PublicOnly`]: every address it resolves to is checked,
//!   and the HTTP client connects to the addresses it returned, never
//!   looking the name up a second time (no DNS rebinding between the check
//!   and the connection). Redirects are not followed, proxies not used.
//! - Tests give a resolver of their own ([`TestNames`]): the names it holds
//!   resolve as the test says, through the same checks.

use std::collections::HashMap;
use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// How long the settings' look-up of a host name may take; past it the
/// URL is kept, and each delivery checks it again.
const SETTINGS_LOOKUP: Duration = Duration::from_secs(2);

/// The port every webhook and push may use.
pub(crate) const HTTPS_PORT: u16 = 443;

/// Names a test resolves as it likes (in-process tests only; the command
/// line has no such setting). Shared, so a test can change an answer
/// between the settings' check and a delivery, as a rebinding DNS would.
#[derive(Clone, Default)]
pub struct TestNames(Arc<Mutex<HashMap<String, Vec<IpAddr>>>>);

impl TestNames {
    /// `name` resolves to `addresses` from now on.
    pub fn set(&self, name: &str, addresses: Vec<IpAddr>) {
        if let Ok(mut names) = self.0.lock() {
            names.insert(name.to_ascii_lowercase(), addresses);
        }
    }

    fn get(&self, name: &str) -> Option<Vec<IpAddr>> {
        let names = self.0.lock().ok()?;
        names
            .get(name.trim_end_matches('.').to_ascii_lowercase().as_str())
            .cloned()
    }
}

impl fmt::Debug for TestNames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TestNames")
    }
}

impl PartialEq for TestNames {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for TestNames {}

/// The rules of outbound posts, from the configuration.
#[derive(Clone, Debug)]
pub(crate) struct Outbound {
    /// Plain HTTP, any port, and this machine or a private network allowed
    /// (tests only).
    pub(crate) allow_private: bool,
    /// Ports allowed besides 443.
    pub(crate) ports: Vec<u16>,
    /// A test's resolver, asked before the system's.
    pub(crate) names: Option<TestNames>,
}

impl Outbound {
    /// The rules of `config`.
    pub(crate) fn of(config: &crate::Config) -> Outbound {
        Outbound {
            allow_private: config.webhook_allow_private,
            ports: config.webhook_ports.clone(),
            names: config.test_names.clone(),
        }
    }

    /// Whether `url` may be posted to (`what`: a webhook, a push endpoint),
    /// without looking its host up: says why not.
    pub(crate) fn check_url(&self, url: &str, what: &str) -> Result<reqwest::Url, String> {
        let parsed = reqwest::Url::parse(url).map_err(|_| format!("the {what} is not a URL"))?;
        match parsed.scheme() {
            "https" => {}
            "http" if self.allow_private => {}
            _ => return Err(format!("a {what}'s URL starts with https://")),
        }
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err(format!("a {what}'s URL has no user name or password in it"));
        }
        let host = parsed
            .host_str()
            .ok_or_else(|| format!("the {what}'s URL names no host"))?;
        let port = parsed.port_or_known_default().unwrap_or(0);
        if !self.allow_private && port != HTTPS_PORT && !self.ports.contains(&port) {
            return Err(format!(
                "a {what}'s URL uses port {HTTPS_PORT} (https), not {port}: this server posts to no other port"
            ));
        }
        let ip = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .ok();
        let name = host.trim_end_matches('.').to_ascii_lowercase();
        let local_name = name == "localhost" || name.ends_with(".localhost");
        if !self.allow_private && (ip.is_some_and(|ip| !is_public(ip)) || local_name) {
            return Err(not_public(what));
        }
        Ok(parsed)
    }

    /// [`Outbound::check_url`], and a host name looked up now: one that
    /// resolves only to special addresses is refused. One that does not
    /// resolve (yet) is kept: each delivery checks it again.
    pub(crate) async fn check_url_now(&self, url: &str, what: &str) -> Result<(), String> {
        let parsed = self.check_url(url, what)?;
        if self.allow_private {
            return Ok(());
        }
        let Some(name) = parsed.domain() else {
            return Ok(());
        };
        let found = tokio::time::timeout(SETTINGS_LOOKUP, self.resolver().lookup(name)).await;
        match found {
            Ok(Ok(found)) if found.iter().all(|ip| !is_public(*ip)) && !found.is_empty() => {
                Err(format!(
                    "{} ({name} resolves to {})",
                    not_public(what),
                    found
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            }
            _ => Ok(()),
        }
    }

    /// The resolver every delivery connects through.
    pub(crate) fn resolver(&self) -> PublicOnly {
        PublicOnly {
            allow_private: self.allow_private,
            names: self.names.clone(),
        }
    }
}

fn not_public(what: &str) -> String {
    format!("a {what}'s host is a public address, not this machine or a private network")
}

/// An address anyone on the internet can reach: not loopback, private,
/// link-local, shared (CGNAT, 100.64/10), unspecified, multicast,
/// broadcast, documentation (also 3fff::/20), benchmarking (also
/// 2001:2::/48), the 6to4 relay (192.88.99/24),
/// reserved or unique-local, nor one that carries an IPv4 address inside
/// an IPv6 one (mapped, compatible, NAT64, 6to4, Teredo).
pub(crate) fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
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
                || (a == 192 && b == 0 && c == 0)
                || (a == 192 && b == 88 && c == 99)
                || a >= 240)
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            let s = v6.segments();
            let first = s[0];
            // IPv4-compatible (::a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96 and the
            // local 64:ff9b:1::/48), 6to4 (2002::/16) and Teredo
            // (2001::/32) addresses may reach any IPv4 address.
            let embeds_v4 = s[..6] == [0; 6]
                || (s[..4] == [0; 4] && s[4] == 0xffff && s[5] == 0)
                || (s[0] == 0x64 && s[1] == 0xff9b)
                || first == 0x2002
                || (first == 0x2001 && s[1] == 0);
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || embeds_v4
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
                || (first & 0xffc0) == 0xfec0
                || (first == 0x2001 && s[1] == 0x0db8)
                || (first == 0x2001 && s[1] == 0x0002 && s[2] == 0)
                || (first & 0xfff0) == 0x3ff0
                || (first == 0x0100 && s[1..4] == [0; 3]))
        }
    }
}

/// Resolves a webhook's (or push service's) host to its public addresses
/// only; a name with none is not posted to. What it returns is what the
/// client connects to.
#[derive(Debug, Clone)]
pub(crate) struct PublicOnly {
    allow_private: bool,
    names: Option<TestNames>,
}

impl PublicOnly {
    /// Every address `name` resolves to (the test's resolver first).
    async fn lookup(&self, name: &str) -> std::io::Result<Vec<IpAddr>> {
        if let Some(found) = self.names.as_ref().and_then(|n| n.get(name)) {
            return Ok(found);
        }
        Ok(tokio::net::lookup_host((name, 0))
            .await?
            .map(|a| a.ip())
            .collect())
    }
}

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let this = self.clone();
        Box::pin(async move {
            let found: Vec<SocketAddr> = this
                .lookup(name.as_str())
                .await?
                .into_iter()
                .filter(|ip| this.allow_private || is_public(*ip))
                .map(|ip| SocketAddr::new(ip, 0))
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

    fn public() -> Outbound {
        Outbound {
            allow_private: false,
            ports: Vec::new(),
            names: None,
        }
    }

    #[test]
    fn only_public_https_urls_on_port_443_are_taken() {
        let rules = public();
        for ok in [
            "https://hooks.example.org/splendor",
            "https://hooks.example.org:443/splendor",
            "https://93.184.216.34/x",
            "https://[2606:4700::1111]/x",
        ] {
            assert!(rules.check_url(ok, "webhook").is_ok(), "{ok}");
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
            "https://192.88.99.1/x",
            "https://[::1]/x",
            "https://[fd00::1]/x",
            "https://[fe80::1]/x",
            "https://[::ffff:127.0.0.1]/x",
            "https://[::127.0.0.1]/x",
            "https://[64:ff9b::a00:1]/x",
            "https://[64:ff9b:1::a00:1]/x",
            "https://[2002:a00:1::1]/x",
            "https://[2001:0:4136:e378::1]/x",
            "https://[100::1]/x",
            "https://[::ffff:0:7f00:1]/x",
            "https://[2001:2::1]/x",
            "https://[3fff::1]/x",
            "https://[fec0::1]/x",
            "https://192.0.0.8/x",
            "https://0x7f.1/x",
            "https://2130706433/x",
            "https://127.0.0.1./x",
            "https://1.1.1.1:6379/x",
            "https://hooks.example.org:8443/x",
            "not a url",
        ] {
            assert!(rules.check_url(bad, "webhook").is_err(), "{bad}");
        }
        let port = rules
            .check_url("https://1.1.1.1:6379/x", "webhook")
            .unwrap_err();
        assert!(port.contains("port 443"), "{port}");
        // A host may allow another port.
        let more = Outbound {
            ports: vec![8443],
            ..public()
        };
        assert!(
            more.check_url("https://hooks.example.org:8443/x", "webhook")
                .is_ok()
        );
        // A test's own receiver on this machine, where allowed.
        let tests = Outbound {
            allow_private: true,
            ..public()
        };
        assert!(
            tests
                .check_url("http://127.0.0.1:9/hook", "webhook")
                .is_ok()
        );
    }

    #[tokio::test]
    async fn a_host_name_is_looked_up_and_only_public_addresses_are_returned() {
        let names = TestNames::default();
        let rules = Outbound {
            names: Some(names.clone()),
            ..public()
        };
        names.set(
            "metadata.google.internal",
            vec!["169.254.169.254".parse().unwrap()],
        );
        names.set(
            "mixed.test",
            vec![
                "10.0.0.1".parse().unwrap(),
                "93.184.216.34".parse().unwrap(),
            ],
        );
        names.set("relay.test", vec!["192.88.99.1".parse().unwrap()]);
        for bad in ["https://metadata.google.internal/x", "https://relay.test/x"] {
            let why = rules.check_url_now(bad, "webhook").await.unwrap_err();
            assert!(why.contains("resolves to"), "{why}");
        }
        assert!(
            rules
                .check_url_now("https://mixed.test/x", "webhook")
                .await
                .is_ok()
        );
        // A delivery connects to the public addresses alone.
        let resolver = rules.resolver();
        let found: Vec<SocketAddr> = resolver
            .resolve("mixed.test".parse().unwrap())
            .await
            .unwrap()
            .collect();
        assert_eq!(found, vec!["93.184.216.34:0".parse().unwrap()]);
        assert!(
            resolver
                .resolve("metadata.google.internal".parse().unwrap())
                .await
                .is_err()
        );
    }
}
