//! Connections per client address, counted with guards.
//!
//! An IPv6 client usually has a whole /64 to itself, so IPv6 addresses are
//! counted by their /64 prefix; an IPv4-mapped IPv6 address counts as its
//! IPv4 address.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex, MutexGuard};

/// The key a client address is counted under.
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// The range a client address belongs to, for budgets of a neighbourhood
/// (issue 46): its IPv4 /24, or its IPv6 /48.
pub fn range_key(ip: IpAddr) -> IpAddr {
    match client_key(ip) {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            IpAddr::V4(std::net::Ipv4Addr::new(a, b, c, 0))
        }
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], 0, 0, 0, 0, 0))
        }
    }
}

/// Counts open connections per client and refuses one past the limit.
/// Cheap to clone; clones share the counts.
#[derive(Clone, Debug)]
pub struct IpLimiter {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    /// The most connections one client key may hold at once.
    max_per_ip: usize,
    /// Open connections by client key; a key at zero is removed, so the
    /// map only holds clients that are connected.
    open: Mutex<HashMap<IpAddr, usize>>,
}

impl IpLimiter {
    /// At most `max_per_ip` connections from one client address.
    pub fn new(max_per_ip: usize) -> IpLimiter {
        IpLimiter {
            inner: Arc::new(Inner {
                max_per_ip,
                open: Mutex::new(HashMap::new()),
            }),
        }
    }

    /// Counts a new connection from `ip`, or returns `None` if that client
    /// already holds the most connections allowed. The connection counts
    /// until the guard is dropped.
    pub fn try_acquire(&self, ip: IpAddr) -> Option<IpGuard> {
        let key = client_key(ip);
        let mut open = self.inner.lock();
        let count = open.entry(key).or_insert(0);
        if *count >= self.inner.max_per_ip {
            if *count == 0 {
                open.remove(&key);
            }
            return None;
        }
        *count += 1;
        Some(IpGuard {
            limiter: self.clone(),
            key,
        })
    }

    /// The connections open from `ip`'s client key.
    pub fn open_from(&self, ip: IpAddr) -> usize {
        self.inner.lock().get(&client_key(ip)).copied().unwrap_or(0)
    }

    /// How many client keys hold a connection.
    pub fn clients(&self) -> usize {
        self.inner.lock().len()
    }
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, HashMap<IpAddr, usize>> {
        // Every change is one increment or decrement: a poisoned map is consistent.
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// One counted connection; dropping it frees the slot.
#[derive(Debug)]
pub struct IpGuard {
    limiter: IpLimiter,
    key: IpAddr,
}

impl Drop for IpGuard {
    fn drop(&mut self) {
        let mut open = self.limiter.inner.lock();
        if let Some(count) = open.get_mut(&self.key) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn the_limit_holds_per_client_and_slots_come_back_on_drop() {
        let limiter = IpLimiter::new(2);
        let a = ip("192.0.2.1");
        let b = ip("192.0.2.2");
        let first = limiter.try_acquire(a).unwrap();
        let second = limiter.try_acquire(a).unwrap();
        assert!(limiter.try_acquire(a).is_none());
        // Another client is not affected.
        let other = limiter.try_acquire(b).unwrap();
        assert_eq!(limiter.open_from(a), 2);
        drop(first);
        assert_eq!(limiter.open_from(a), 1);
        let third = limiter.try_acquire(a).unwrap();
        drop((second, third, other));
        assert_eq!(limiter.clients(), 0, "no entry is left behind");
    }

    #[test]
    fn ipv6_counts_by_64_prefix_and_mapped_ipv4_as_ipv4() {
        let limiter = IpLimiter::new(1);
        let _one = limiter.try_acquire(ip("2001:db8:1:2::1")).unwrap();
        assert!(limiter.try_acquire(ip("2001:db8:1:2:ffff::9")).is_none());
        let _other_net = limiter.try_acquire(ip("2001:db8:1:3::1")).unwrap();
        let _v4 = limiter.try_acquire(ip("198.51.100.7")).unwrap();
        assert!(limiter.try_acquire(ip("::ffff:198.51.100.7")).is_none());
    }

    #[test]
    fn a_limit_of_zero_refuses_everyone_and_keeps_nothing() {
        let limiter = IpLimiter::new(0);
        assert!(limiter.try_acquire(ip("192.0.2.1")).is_none());
        assert_eq!(limiter.clients(), 0);
    }

    #[test]
    fn guards_dropped_on_other_threads_are_counted() {
        let limiter = IpLimiter::new(100);
        let guards: Vec<IpGuard> = (0..100)
            .map(|_| limiter.try_acquire(ip("192.0.2.1")).unwrap())
            .collect();
        std::thread::scope(|s| {
            for guard in guards {
                s.spawn(move || drop(guard));
            }
        });
        assert_eq!(limiter.clients(), 0);
    }
}
