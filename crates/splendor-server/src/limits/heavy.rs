//! A budget for the API's heavy answers (issue 45, defect 4): every
//! position of a finished game (`GET /api/games/{id}/positions`) is a
//! quarter of a megabyte, and the per-address API limit alone let 16
//! addresses draw 786 answers a second (about 189 MB/s) from one node.
//!
//! Token buckets ([`ConnectRate`]'s) refilled continuously, each holding
//! two seconds' worth:
//! one per client address (its IPv4 address or IPv6 /64) and one per range
//! (IPv4 /24, IPv6 /48), each of a quarter of the node's rate, and the
//! node's own. An answer is served when its address's, its range's and the
//! node's buckets all have a token, taken in that order: a crowded address
//! or range is refused before it can spend the node's budget, and no
//! address or range holds more than a quarter of it. Time is passed in,
//! never read here.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::connect_rate::ConnectRate;
use super::per_ip::range_key;

/// A bucket holds this long of its rate.
const BURST: Duration = Duration::from_secs(2);

/// The share of the node's rate one address, or one range, may take.
const SHARE: u32 = 4;

/// The heavy answers' buckets. Cheap to clone; clones share the counts.
#[derive(Clone, Debug)]
pub struct HeavyAnswers {
    inner: Arc<[ConnectRate; 3]>,
}

/// The key the node's own bucket is kept under.
const NODE: IpAddr = IpAddr::V4(Ipv4Addr::UNSPECIFIED);

impl HeavyAnswers {
    /// At most `per_second` heavy answers a second from this node (at
    /// least 1), a quarter of them (at least 1) to one address or range.
    pub fn new(per_second: u32) -> HeavyAnswers {
        // Counted per BURST: two seconds of the rate, at least two of a share.
        let node = per_second.max(1) * 2;
        let share = (node / SHARE).max(2);
        let buckets = |count| ConnectRate::per_window(count, BURST);
        HeavyAnswers {
            inner: Arc::new([buckets(share), buckets(share), buckets(node)]),
        }
    }

    /// Whether a heavy answer to `ip` at `now` is allowed; if it is, it is
    /// counted.
    pub fn allow(&self, ip: Option<IpAddr>, now: Instant) -> bool {
        let [address, range, node] = &*self.inner;
        if let Some(ip) = ip
            && !(address.allow(ip, now) && range.allow(range_key(ip), now))
        {
            return false;
        }
        node.allow(NODE, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> Option<IpAddr> {
        Some(text.parse().unwrap())
    }

    #[test]
    fn no_address_or_range_takes_more_than_a_quarter_and_the_node_holds_its_rate() {
        let t0 = Instant::now();
        // 8 a second: 16 at once from the node, 4 at once to an address.
        let heavy = HeavyAnswers::new(8);
        let mut served = 0;
        for _ in 0..1_000 {
            served += usize::from(heavy.allow(ip("192.0.2.1"), t0));
        }
        assert_eq!(served, 4, "an address gets its share, at once");
        // Its neighbours in the /24 share the range's quarter, spent.
        assert!(!heavy.allow(ip("192.0.2.2"), t0));
        // Sixteen addresses of sixteen ranges: the node's 16 at most.
        let mut served = 0;
        for n in 0..16 {
            for _ in 0..1_000 {
                served += usize::from(heavy.allow(ip(&format!("198.51.{n}.1")), t0));
            }
        }
        assert_eq!(served, 16 - 4, "the node's burst, less what was served");
        // It refills at 8 a second, whoever asks.
        let later = t0 + Duration::from_secs(1);
        let mut served = 0;
        for n in 100..116 {
            served += usize::from(heavy.allow(ip(&format!("203.0.{n}.1")), later));
        }
        assert_eq!(served, 8);
        // IPv6: one /48 is one range.
        let v6 = HeavyAnswers::new(8);
        let mut served = 0;
        for n in 0..16 {
            served += usize::from(v6.allow(ip(&format!("2001:db8:1:{n}::1")), t0));
        }
        assert_eq!(served, 4);
    }
}
