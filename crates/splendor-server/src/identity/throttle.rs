//! How password sign-in is throttled (issue 46), so that nobody can lock
//! another out: a try at a time per address and a few per range on each
//! node ([`InFlight`]), an address refused for its own failures
//! ([`refuse_after_failures`]), a login under attack slowed, never refused
//! ([`slowdown`]). The counts of failures live in the store (every node's
//! together); what is under way, in this node's memory.

use std::net::IpAddr;
use std::time::Duration;

use axum::Json;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use splendor_store::{LOGIN_WINDOW_MS, Store, unix_millis_now};
use tracing::warn;

use crate::games::ApiError;

pub(crate) use super::password::TRIES_PER_MINUTE;

/// Tries under way on this server, per address key and per range (IPv4
/// /24, IPv6 /48): at most [`AT_ONCE_PER_ADDRESS`] and
/// [`AT_ONCE_PER_RANGE`]. Keyed by whether the key is a range, and the
/// key. Each server has its own (the state holds it): servers in one
/// process, as tests run them, do not share it.
#[derive(Clone, Debug, Default)]
pub(crate) struct TriesUnderWay(
    std::sync::Arc<std::sync::Mutex<std::collections::HashMap<(bool, IpAddr), usize>>>,
);

/// Sign-in tries at once from one address (IPv6: its /64), per node.
pub(crate) const AT_ONCE_PER_ADDRESS: usize = 1;
/// Sign-in tries at once from one range (IPv4 /24, IPv6 /48), per node.
pub(crate) const AT_ONCE_PER_RANGE: usize = 4;

/// A try under way, counted until dropped.
pub(crate) struct InFlight {
    keys: [(bool, IpAddr); 2],
    under_way: TriesUnderWay,
}

impl InFlight {
    /// Counts a try from `ip`, unless its address or range has as many
    /// under way as it may.
    pub(crate) fn take(under_way: &TriesUnderWay, ip: IpAddr) -> Option<InFlight> {
        let keys = [
            (false, crate::limits::per_ip::client_key(ip)),
            (true, crate::limits::per_ip::range_key(ip)),
        ];
        let mut at_once = under_way.0.lock().ok()?;
        let busy = |key: &(bool, IpAddr), max: usize| at_once.get(key).is_some_and(|&n| n >= max);
        if busy(&keys[0], AT_ONCE_PER_ADDRESS) || busy(&keys[1], AT_ONCE_PER_RANGE) {
            return None;
        }
        for key in keys {
            *at_once.entry(key).or_default() += 1;
        }
        Some(InFlight {
            keys,
            under_way: under_way.clone(),
        })
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if let Ok(mut at_once) = self.under_way.0.lock() {
            for key in self.keys {
                if let Some(n) = at_once.get_mut(&key) {
                    *n -= 1;
                    if *n == 0 {
                        at_once.remove(&key);
                    }
                }
            }
        }
    }
}

/// 429: another try from this address (or too many from its range) is
/// under way.
pub(crate) fn one_at_a_time() -> Response {
    (
        StatusCode::TOO_MANY_REQUESTS,
        [(header::RETRY_AFTER, "1".to_owned())],
        Json(json!({
            "error": "too_many_tries",
            "message": "one password try at a time from an address; wait for the answer",
        })),
    )
        .into_response()
}

/// 429 with `Retry-After` when `key` failed [`TRIES_PER_MINUTE`] times in
/// this minute (`from`: whose failures, as the message says).
pub(crate) async fn refuse_after_failures(
    store: &Store,
    key: &str,
    from: &str,
) -> Result<(), Response> {
    let failed = store
        .login_tries(key, unix_millis_now())
        .await
        .map_err(|e| ApiError::store(e).into_response())?;
    if failed < TRIES_PER_MINUTE {
        return Ok(());
    }
    warn!(key, "too many failed sign-ins");
    Err((
        StatusCode::TOO_MANY_REQUESTS,
        [(header::RETRY_AFTER, (LOGIN_WINDOW_MS / 1000).to_string())],
        Json(json!({
            "error": "too_many_tries",
            "message": format!(
                "{TRIES_PER_MINUTE} wrong passwords {from} in a minute; wait a minute"
            ),
        })),
    )
        .into_response())
}

/// How long a sign-in on a login waits when it failed `failures` times
/// this minute from anywhere: nothing for the first [`TRIES_PER_MINUTE`],
/// then 250 ms more for each, at most [`MAX_SLOWDOWN`].
pub(crate) fn slowdown(failures: u32) -> Duration {
    let over = failures.saturating_sub(TRIES_PER_MINUTE);
    (Duration::from_millis(250) * over).min(MAX_SLOWDOWN)
}

/// The longest a sign-in is slowed.
pub(crate) const MAX_SLOWDOWN: Duration = Duration::from_secs(2);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_try_at_a_time_per_address_and_four_per_range() {
        let w = TriesUnderWay::default();
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let first = InFlight::take(&w, a).expect("the first");
        assert!(InFlight::take(&w, a).is_none(), "one at a time");
        let others: Vec<_> = (2..=4)
            .map(|n| InFlight::take(&w, format!("192.0.2.{n}").parse().unwrap()).expect("room"))
            .collect();
        assert!(
            InFlight::take(&w, "192.0.2.9".parse().unwrap()).is_none(),
            "four per /24"
        );
        assert!(
            InFlight::take(&w, "192.0.3.9".parse().unwrap()).is_some(),
            "another /24"
        );
        // The range's network address is an address like any other.
        drop(first);
        drop(others);
        let net = InFlight::take(&w, "192.0.2.0".parse().unwrap()).expect("a free range");
        assert!(InFlight::take(&w, a).is_some());
        drop(net);
    }

    #[test]
    fn a_login_under_attack_is_slowed_by_at_most_two_seconds_never_refused() {
        assert_eq!(slowdown(0), Duration::ZERO);
        assert_eq!(slowdown(TRIES_PER_MINUTE), Duration::ZERO);
        assert_eq!(slowdown(TRIES_PER_MINUTE + 1), Duration::from_millis(250));
        assert_eq!(slowdown(TRIES_PER_MINUTE + 4), Duration::from_secs(1));
        assert_eq!(slowdown(1_000), MAX_SLOWDOWN);
        assert_eq!(slowdown(u32::MAX), MAX_SLOWDOWN);
    }
}
