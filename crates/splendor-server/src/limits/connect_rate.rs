//! New connections per client address per minute.
//!
//! The message rate is per connection and the connection limit counts only
//! open connections, so without this a client could connect, send its
//! burst (and a `hello`, which stores a new session), disconnect, and start
//! again as fast as handshakes go: an unbounded stream of work and of
//! database rows from one address. Each client key ([`client_key`]: IPv4
//! address, IPv6 /64) gets a bucket of `per_minute` connections that refills
//! continuously at that rate.
//!
//! Time is passed in, never read here, so the tests are exact.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::per_ip::client_key;

/// A bucket untouched this long is full again, the same as no bucket.
const REFILL_TIME: Duration = Duration::from_secs(60);

/// Counts new connections per client key. Cheap to clone; clones share the counts.
#[derive(Clone, Debug)]
pub struct ConnectRate {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    /// A full bucket's tokens, refilled over `window`.
    count: u32,
    window: Duration,
    state: Mutex<State>,
}

#[derive(Debug)]
struct State {
    /// Connections still allowed, and when that was computed, by client key.
    buckets: HashMap<IpAddr, (f64, Instant)>,
    /// When full buckets were last forgotten.
    swept: Option<Instant>,
}

impl ConnectRate {
    /// At most `per_minute` (at least 1) new connections per client key per
    /// minute, all of them at once if the key was quiet for a minute.
    pub fn new(per_minute: u32) -> ConnectRate {
        ConnectRate::per_window(per_minute, REFILL_TIME)
    }

    /// At most `count` (at least 1) per client key per `window`, all of
    /// them at once if the key was quiet for that long.
    pub fn per_window(count: u32, window: Duration) -> ConnectRate {
        ConnectRate {
            inner: Arc::new(Inner {
                count: count.max(1),
                window,
                state: Mutex::new(State {
                    buckets: HashMap::new(),
                    swept: None,
                }),
            }),
        }
    }

    /// Whether a new connection from `ip` at `now` is allowed; if it is, it
    /// is counted.
    pub fn allow(&self, ip: IpAddr, now: Instant) -> bool {
        let window = self.inner.window;
        let capacity = f64::from(self.inner.count);
        let per_second = capacity / window.as_secs_f64();
        let mut state = self.inner.lock();
        // Forget the buckets that are full again, once a window, so the map
        // holds only the clients of the last window.
        if state
            .swept
            .is_none_or(|at| now.saturating_duration_since(at) >= window)
        {
            state
                .buckets
                .retain(|_, (_, last)| now.saturating_duration_since(*last) < window);
            state.swept = Some(now);
        }
        let (tokens, last) = state
            .buckets
            .entry(client_key(ip))
            .or_insert((capacity, now));
        let elapsed = now.saturating_duration_since(*last).as_secs_f64();
        *tokens = (*tokens + elapsed * per_second).min(capacity);
        if now > *last {
            *last = now;
        }
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// How many client keys are remembered (for tests).
    pub fn clients(&self) -> usize {
        self.inner.lock().buckets.len()
    }
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, State> {
        // Every change is a few assignments: a poisoned map is consistent.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_minute_of_connections_at_once_then_they_come_back_at_the_rate() {
        let t0 = Instant::now();
        let rate = ConnectRate::new(3);
        let a = ip("192.0.2.1");
        assert!(rate.allow(a, t0) && rate.allow(a, t0) && rate.allow(a, t0));
        assert!(!rate.allow(a, t0), "a reconnect loop is refused");
        // Another client is not affected.
        assert!(rate.allow(ip("192.0.2.2"), t0));
        // Three a minute: one every 20 seconds.
        assert!(!rate.allow(a, t0 + Duration::from_secs(19)));
        assert!(rate.allow(a, t0 + Duration::from_secs(20)));
        assert!(!rate.allow(a, t0 + Duration::from_secs(21)));
    }

    #[test]
    fn ipv6_clients_are_counted_per_64_and_quiet_clients_are_forgotten() {
        let t0 = Instant::now();
        let rate = ConnectRate::new(1);
        assert!(rate.allow(ip("2001:db8:1:2::1"), t0));
        assert!(!rate.allow(ip("2001:db8:1:2::ffff"), t0));
        assert!(rate.allow(ip("2001:db8:1:3::1"), t0));
        assert_eq!(rate.clients(), 2);
        let later = t0 + Duration::from_secs(61);
        assert!(rate.allow(ip("192.0.2.9"), later));
        assert_eq!(rate.clients(), 1, "full buckets are dropped");
        assert!(rate.allow(ip("2001:db8:1:2::1"), later));
    }
}
