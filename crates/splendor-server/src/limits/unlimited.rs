//! Addresses no per-address budget applies to (issue 45): a load test's
//! machines, or a trusted proxy's own address, given by the host as ranges
//! (`SPLENDOR_UNLIMITED_ADDRESSES=127.0.0.0/8,10.1.2.3,2001:db8::/32`).
//! Their connections, rooms and API requests still count against the
//! server's global budgets.

use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;

/// One range: an address and a prefix length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddressRange {
    net: IpAddr,
    prefix: u8,
}

impl AddressRange {
    /// Whether `ip` is in this range (IPv4-mapped IPv6 addresses as IPv4).
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            v4 => v4,
        };
        match (self.net, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

impl FromStr for AddressRange {
    type Err = String;

    fn from_str(text: &str) -> Result<AddressRange, String> {
        let text = text.trim();
        let (addr, prefix) = match text.split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (text, None),
        };
        let net: IpAddr = addr
            .parse()
            .map_err(|_| format!("{addr:?} is not an IP address"))?;
        let max = if net.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => max,
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("/{p} is not a prefix length of {net}"))?,
        };
        Ok(AddressRange { net, prefix })
    }
}

impl fmt::Display for AddressRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.net, self.prefix)
    }
}

/// Whether `ip` is in any of `ranges`.
pub fn is_unlimited(ranges: &[AddressRange], ip: IpAddr) -> bool {
    ranges.iter().any(|r| r.contains(ip))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn ranges_parse_and_hold_their_addresses() {
        let loopback: AddressRange = "127.0.0.0/8".parse().unwrap();
        assert!(loopback.contains(ip("127.1.2.3")));
        assert!(loopback.contains(ip("::ffff:127.0.0.1")));
        assert!(!loopback.contains(ip("128.0.0.1")));
        let one: AddressRange = " 10.1.2.3 ".parse().unwrap();
        assert!(one.contains(ip("10.1.2.3")) && !one.contains(ip("10.1.2.4")));
        let v6: AddressRange = "2001:db8::/32".parse().unwrap();
        assert!(v6.contains(ip("2001:db8:1::1")) && !v6.contains(ip("2001:db9::1")));
        let all: AddressRange = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains(ip("203.0.113.1")) && !all.contains(ip("::1")));
        assert_eq!(loopback.to_string(), "127.0.0.0/8");
        for bad in ["localhost", "10.0.0.0/33", "::/129", "10.0.0.0/x", ""] {
            assert!(bad.parse::<AddressRange>().is_err(), "{bad}");
        }
        assert!(is_unlimited(&[loopback, v6], ip("127.0.0.1")));
        assert!(!is_unlimited(&[], ip("127.0.0.1")));
    }
}
