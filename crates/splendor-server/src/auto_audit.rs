//! The audit of automatic sanctions (issue 22): what the server does on
//! its own against a client — closing a connection that kept sending past
//! the message rate, refusing an address's reconnect loop or its
//! connections past the cap, cutting off an address that guessed the
//! operators' token — is written to the audit log (actor `system`) beside
//! the operators' own actions, so that the console shows it.
//!
//! A flood must not become a flood of audit rows: one row per action and
//! address per [`QUIET`] on each node (the metrics count every refusal and
//! close); the row is written before the connection is closed or the
//! refusal answered (a few ms, once per period), and a database that is
//! away loses the row, never the sanction.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tracing::warn;

/// One audit row per action and address per this long, per node.
pub(crate) const QUIET: Duration = Duration::from_secs(10 * 60);

/// The most (action, address) pairs remembered; older ones go first.
const MAX_REMEMBERED: usize = 10_000;

/// An automatic sanction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Automatic {
    /// A connection closed for sending past the message rate (4003).
    FloodClosed,
    /// New connections refused: a reconnect loop from one address.
    ConnectRate,
    /// A connection refused: the address holds as many as it may.
    PerAddress,
    /// The address sent too many wrong operator tokens: cut off a minute.
    TokenGuessing,
}

impl Automatic {
    fn action(self) -> &'static str {
        match self {
            Automatic::FloodClosed => "auto_close_flood",
            Automatic::ConnectRate => "auto_refuse_reconnects",
            Automatic::PerAddress => "auto_refuse_connections",
            Automatic::TokenGuessing => "auto_cut_off_token_guessing",
        }
    }

    fn reason(self) -> &'static str {
        match self {
            Automatic::FloodClosed => {
                "kept sending past the message rate: connection closed (4003)"
            }
            Automatic::ConnectRate => "too many new connections a minute: refused (429)",
            Automatic::PerAddress => {
                "as many open connections as one address may hold: refused (429)"
            }
            Automatic::TokenGuessing => {
                "too many wrong operator tokens: refused for a minute (429)"
            }
        }
    }
}

/// When each (sanction, address) was last audited on this node.
#[derive(Default)]
pub(crate) struct AutoAudit {
    last: Mutex<HashMap<(Automatic, String), Instant>>,
}

impl AutoAudit {
    /// Whether `what` against the client `key` (an address, IPv6 by its
    /// /64) is due an audit row now (and notes it).
    pub(crate) fn due(&self, what: Automatic, key: &str, now: Instant) -> bool {
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(at) = last.get(&(what, key.to_owned()))
            && now.saturating_duration_since(*at) < QUIET
        {
            return false;
        }
        if last.len() >= MAX_REMEMBERED {
            last.retain(|_, at| now.saturating_duration_since(*at) < QUIET);
            if last.len() >= MAX_REMEMBERED {
                last.clear();
            }
        }
        last.insert((what, key.to_owned()), now);
        true
    }
}

/// Audits `what` against the client `key` (an address: never a session,
/// so that forgetting a player leaves no link to it here), unless it was
/// audited lately.
pub(crate) async fn audit(state: &crate::AppState, what: Automatic, key: Option<&str>) {
    let Some(key) = key else { return };
    let Some(store) = state.store().cloned() else {
        return;
    };
    if !state.auto_audit().due(what, key, Instant::now()) {
        return;
    }
    let target = format!("address:{key}");
    if let Err(e) = store
        .audit("system", what.action(), &target, what.reason())
        .await
    {
        warn!(error = %e, "an automatic sanction could not be audited");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_row_per_sanction_and_address_per_quiet_period() {
        let audit = AutoAudit::default();
        let (a, b) = ("203.0.113.7", "2001:db8::/64");
        let t0 = Instant::now();
        assert!(audit.due(Automatic::FloodClosed, a, t0));
        assert!(!audit.due(Automatic::FloodClosed, a, t0 + Duration::from_secs(60)));
        assert!(audit.due(Automatic::FloodClosed, b, t0), "another address");
        assert!(audit.due(Automatic::ConnectRate, a, t0), "another sanction");
        assert!(
            audit.due(Automatic::FloodClosed, a, t0 + QUIET),
            "after the quiet period"
        );
    }
}
