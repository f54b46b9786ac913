//! Bans (issue 22): what a sanction names, how it is checked at `hello`,
//! and how it reaches the connections already open.
//!
//! A ban names a session, a name pattern (case-insensitive, `*` for any
//! text, at least 3 other characters) or an address range (IPv4 /16 to
//! /32; IPv6 /32 to /64, the finest the server tells clients apart by). It
//! is in the store before the operator's call returns, so every node's next
//! `hello` reads it there; the connections open now are told through
//! [`Sanctions`] (this node) and NATS (the others), and each closes itself
//! if the ban names it (`banned`, then close code 4006).

use std::net::IpAddr;
use std::sync::Arc;

use splendor_cluster::node::WireSanction;
use splendor_store::Sanction;
use tokio::sync::broadcast;
use tracing::warn;

/// The kinds of bans.
pub(crate) const BAN_SESSION: &str = "ban_session";
pub(crate) const BAN_NAME: &str = "ban_name";
pub(crate) const BAN_ADDRESS: &str = "ban_address";
/// A session's chat muted on every node.
pub(crate) const MUTE_SESSION: &str = "mute_session";
/// A mark (issue 22): the session is kept off the leaderboards, without
/// being told (its own page still shows its rating).
pub(crate) const MARK_SESSION: &str = splendor_store::MARK_SESSION;

/// What a ban names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BanTarget {
    Session(uuid::Uuid),
    Name(String),
    Address(IpAddr, u8),
}

/// Who a connection is, as bans see it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Who<'a> {
    pub(crate) session: Option<uuid::Uuid>,
    pub(crate) name: Option<&'a str>,
    pub(crate) address: Option<IpAddr>,
}

impl BanTarget {
    /// A ban of `kind` on `value` as an operator gives it; the error says
    /// what is wrong with it. Its stored form is [`BanTarget::value`].
    pub(crate) fn parse(kind: &str, value: &str) -> Result<BanTarget, String> {
        let value = value.trim();
        match kind {
            "session" | BAN_SESSION => uuid::Uuid::try_parse(value)
                .map(BanTarget::Session)
                .map_err(|_| format!("{value:?} is not a session id (32 hexadecimal digits)")),
            "name" | BAN_NAME => {
                // Counted in the folded form it is compared in: "*!!!*"
                // would ban every name.
                let plain = fold_pattern(value).chars().filter(|c| *c != '*').count();
                if plain < 3 {
                    return Err(format!(
                        "the name pattern {value:?} needs at least 3 characters besides '*': it would ban too many names"
                    ));
                }
                if value.chars().count() > 64 {
                    return Err("a name pattern is at most 64 characters".into());
                }
                Ok(BanTarget::Name(value.to_lowercase()))
            }
            "address" | BAN_ADDRESS => parse_range(value),
            other => Err(format!(
                "{other:?} is not a kind of ban: use session, name or address"
            )),
        }
    }

    /// The stored kind.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            BanTarget::Session(_) => BAN_SESSION,
            BanTarget::Name(_) => BAN_NAME,
            BanTarget::Address(..) => BAN_ADDRESS,
        }
    }

    /// The stored value (session ids as 32 digits, ranges masked).
    pub(crate) fn value(&self) -> String {
        match self {
            BanTarget::Session(id) => id.simple().to_string(),
            BanTarget::Name(pattern) => pattern.clone(),
            BanTarget::Address(ip, prefix) => format!("{ip}/{prefix}"),
        }
    }

    /// Whether this ban names `who`.
    pub(crate) fn matches(&self, who: &Who<'_>) -> bool {
        match self {
            BanTarget::Session(id) => who.session == Some(*id),
            // Both folded (issue 46): "ѕpаmmer", "ｓｐａｍｍｅｒ" and
            // "s.p ammer" are caught by a ban of "*spammer*".
            BanTarget::Name(pattern) => who
                .name
                .is_some_and(|name| glob(&fold_pattern(pattern), &splendor_names::fold(name))),
            BanTarget::Address(net, prefix) => who
                .address
                .is_some_and(|ip| masked(ip, *prefix) == Some(*net)),
        }
    }
}

/// An address or range: `a.b.c.d`, `a.b.c.d/p` (p 16 to 32), an IPv6
/// address or `…/p` (p 32 to 64).
fn parse_range(text: &str) -> Result<BanTarget, String> {
    let (addr, prefix) = match text.split_once('/') {
        Some((a, p)) => (a, Some(p)),
        None => (text, None),
    };
    let ip: IpAddr = addr
        .parse()
        .map_err(|_| format!("{addr:?} is not an IP address"))?;
    let (min, max) = match ip {
        IpAddr::V4(_) => (16, 32),
        IpAddr::V6(_) => (32, 64),
    };
    let prefix = match prefix {
        None => max,
        Some(p) => p
            .parse::<u8>()
            .map_err(|_| format!("{p:?} is not a prefix length"))?,
    };
    if prefix < min {
        return Err(format!(
            "/{prefix} is too wide a range: the widest is /{min} ({})",
            if min == 16 { "IPv4" } else { "IPv6" }
        ));
    }
    if prefix > max {
        return Err(format!(
            "/{prefix} is finer than the server tells clients apart: at most /{max}"
        ));
    }
    let net = masked(ip, prefix).ok_or("not a range")?;
    Ok(BanTarget::Address(net, prefix))
}

/// `ip` with all but its first `prefix` bits cleared.
fn masked(ip: IpAddr, prefix: u8) -> Option<IpAddr> {
    match ip {
        IpAddr::V4(v4) => {
            let bits = u32::from(v4);
            let mask = u32::MAX
                .checked_shl(32 - u32::from(prefix.min(32)))
                .unwrap_or(0);
            (prefix <= 32).then(|| IpAddr::from((bits & mask).to_be_bytes()))
        }
        IpAddr::V6(v6) => {
            let bits = u128::from(v6);
            let mask = u128::MAX
                .checked_shl(128 - u32::from(prefix.min(128)))
                .unwrap_or(0);
            (prefix <= 128).then(|| IpAddr::from((bits & mask).to_be_bytes()))
        }
    }
}

/// Whether `text` matches `pattern`, where `*` stands for any text.
/// A name pattern with each part between its `*` folded
/// ([`splendor_names::fold`]).
fn fold_pattern(pattern: &str) -> String {
    pattern
        .split('*')
        .map(splendor_names::fold)
        .collect::<Vec<_>>()
        .join("*")
}

fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || !text[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for middle in &parts[1..parts.len() - 1] {
        match rest.find(middle) {
            Some(at) => rest = &rest[at + middle.len()..],
            None => return false,
        }
    }
    true
}

/// A ban in force, as a connection checks it.
#[derive(Clone, Debug)]
pub(crate) struct Ban {
    pub(crate) target: BanTarget,
    pub(crate) until_ms: Option<i64>,
    pub(crate) reason: String,
}

impl Ban {
    pub(crate) fn from_stored(s: &Sanction) -> Option<Ban> {
        Ban::from_parts(&s.kind, &s.value, s.until_ms, &s.reason)
    }

    pub(crate) fn from_wire(s: &WireSanction) -> Option<Ban> {
        Ban::from_parts(&s.kind, &s.value, s.until_ms, &s.reason)
    }

    fn from_parts(kind: &str, value: &str, until_ms: Option<i64>, reason: &str) -> Option<Ban> {
        if !kind.starts_with("ban_") {
            return None;
        }
        Some(Ban {
            target: BanTarget::parse(kind, value).ok()?,
            until_ms,
            reason: reason.to_owned(),
        })
    }
}

/// The bans made while this node runs, for the connections open on it.
#[derive(Clone)]
pub(crate) struct Sanctions {
    tx: broadcast::Sender<Arc<Ban>>,
}

impl Default for Sanctions {
    fn default() -> Sanctions {
        Sanctions {
            tx: broadcast::channel(64).0,
        }
    }
}

impl Sanctions {
    /// Tells every open connection of this node.
    pub(crate) fn tell(&self, ban: Ban) {
        let _ = self.tx.send(Arc::new(ban));
    }

    /// What an open connection listens to.
    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Arc<Ban>> {
        self.tx.subscribe()
    }
}

/// The server-wide mute in force on `session`'s chat, if any: its end
/// (Unix ms) and reason. Read from the store at each chat message (chat
/// is rate-limited), so a mute made on any node holds at once.
pub(crate) async fn mute_for(
    state: &crate::AppState,
    session: uuid::Uuid,
) -> Option<(Option<i64>, String)> {
    let store = state.store()?;
    let id = session.simple().to_string();
    match store.active_sanctions().await {
        Ok(sanctions) => sanctions
            .into_iter()
            .find(|s| s.kind == MUTE_SESSION && s.value == id)
            .map(|s| (s.until_ms, s.reason)),
        Err(e) => {
            warn!(error = %e, "reading the mutes");
            None
        }
    }
}

/// Whether the operators marked `session` (issue 22): read from the store
/// at each `queue`, so a mark made on any node holds at once. A store that
/// cannot be read marks nobody (logged).
pub(crate) async fn is_marked(state: &crate::AppState, session: uuid::Uuid) -> bool {
    let Some(store) = state.store() else {
        return false;
    };
    let id = session.simple().to_string();
    match store.active_sanctions().await {
        Ok(sanctions) => sanctions
            .iter()
            .any(|s| s.kind == MARK_SESSION && s.value == id),
        Err(e) => {
            warn!(error = %e, "reading the marks");
            false
        }
    }
}

/// Minutes left until `until_ms` (at least 1), by this node's clock.
pub(crate) fn minutes_left(until_ms: i64) -> usize {
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or_default();
    usize::try_from((until_ms - now_ms).max(0) / 60_000 + 1).unwrap_or(usize::MAX)
}

/// The ban in force that names `who`, if any (the store's, read now: a ban
/// made on any node holds at once). Without a store there are no bans; a
/// store that cannot be read lets the `hello` through (logged).
pub(crate) async fn ban_for(state: &crate::AppState, who: &Who<'_>) -> Option<Ban> {
    let store = state.store()?;
    match store.active_sanctions().await {
        Ok(sanctions) => sanctions
            .iter()
            .filter_map(Ban::from_stored)
            .find(|ban| ban.target.matches(who)),
        Err(e) => {
            warn!(error = %e, "reading the bans");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(name: &str, ip: &str) -> Who<'static> {
        Who {
            session: None,
            name: Some(Box::leak(name.to_owned().into_boxed_str())),
            address: Some(ip.parse().unwrap()),
        }
    }

    #[test]
    fn address_ranges_are_checked_and_matched() {
        let net = BanTarget::parse("address", "198.51.100.77/24").unwrap();
        assert_eq!(net.value(), "198.51.100.0/24");
        assert!(net.matches(&who("x", "198.51.100.3")));
        assert!(!net.matches(&who("x", "198.51.101.3")));
        let one = BanTarget::parse("address", "203.0.113.9").unwrap();
        assert_eq!(one.value(), "203.0.113.9/32");
        assert!(one.matches(&who("x", "203.0.113.9")));
        assert!(!one.matches(&who("x", "203.0.113.8")));
        let v6 = BanTarget::parse("address", "2001:db8:aa::/48").unwrap();
        assert!(v6.matches(&who("x", "2001:db8:aa:1::")));
        assert!(!v6.matches(&who("x", "2001:db8:ab::")));
        for wide in [
            "0.0.0.0/0",
            "10.0.0.0/8",
            "10.0.0.0/15",
            "::/0",
            "2001:db8::/31",
        ] {
            let e = BanTarget::parse("address", wide).unwrap_err();
            assert!(e.contains("too wide"), "{wide}: {e}");
        }
        assert!(
            BanTarget::parse("address", "2001:db8::1/128")
                .unwrap_err()
                .contains("finer")
        );
        assert!(BanTarget::parse("address", "not-an-ip").is_err());
        assert!(BanTarget::parse("address", "10.0.0.1/x").is_err());
    }

    #[test]
    fn name_patterns_see_through_look_alikes() {
        let spam = BanTarget::parse("name", "*spammer*").unwrap();
        for name in [
            "SPAMMER",
            "\u{0455}pammer",
            "sp\u{0430}mmer",
            "ｓｐａｍｍｅｒ",
            "𝐬𝐩𝐚𝐦𝐦𝐞𝐫",
            "sp ammer",
            "s.pammer",
            "s\u{1E55}ammer",
            "the SP-AMMER king",
        ] {
            assert!(spam.matches(&who(name, "10.0.0.1")), "{name}");
        }
        assert!(!spam.matches(&who("spanner", "10.0.0.1")));
        // A pattern that folds to almost nothing bans nothing.
        assert!(BanTarget::parse("name", "*!!!*").is_err());
        assert!(BanTarget::parse("name", "*a.b*").is_err());
    }

    #[test]
    fn name_patterns_match_any_case_with_stars() {
        let spam = BanTarget::parse("name", "*Spam*").unwrap();
        for name in ["spam", "BigSpammer", "the spam king"] {
            assert!(spam.matches(&who(name, "10.0.0.1")), "{name}");
        }
        // Spaces no longer hide a name (issue 46).
        assert!(spam.matches(&who("spa m", "10.0.0.1")));
        assert!(!spam.matches(&who("spade", "10.0.0.1")));
        let exact = BanTarget::parse("name", "troll").unwrap();
        assert!(exact.matches(&who("TROLL", "10.0.0.1")));
        assert!(!exact.matches(&who("trolls", "10.0.0.1")));
        let both = BanTarget::parse("name", "bad*guy").unwrap();
        assert!(both.matches(&who("bad_guy", "10.0.0.1")));
        assert!(both.matches(&who("badguy", "10.0.0.1")));
        assert!(!both.matches(&who("guy bad", "10.0.0.1")));
        for wide in ["*", "**", "a*", "*ab*"] {
            assert!(BanTarget::parse("name", wide).is_err(), "{wide}");
        }
    }

    #[test]
    fn sessions_and_kinds() {
        let id = uuid::Uuid::from_u128(7);
        let ban = BanTarget::parse("session", &id.simple().to_string()).unwrap();
        assert_eq!(ban.kind(), BAN_SESSION);
        let me = Who {
            session: Some(id),
            ..Who::default()
        };
        assert!(ban.matches(&me));
        assert!(!ban.matches(&Who::default()));
        assert!(BanTarget::parse("session", "nope").is_err());
        assert!(
            BanTarget::parse("everyone", "x")
                .unwrap_err()
                .contains("kind")
        );
    }
}
