//! Five small counts packed one per byte in a `u64`, so that a payment or
//! a noble check is a handful of word operations instead of a loop (the
//! hot path of `legal_actions`). Every byte must stay below 128, which
//! holds for costs (at most 7), tokens (at most 7 of a colour plus what a
//! snapshot allows, checked there) and bonuses (at most 18 of a colour).

use crate::Gems;

const HIGH: u64 = 0x8080_8080_8080_8080;

/// Packs five counts into the low five bytes.
pub(crate) const fn pack(g: &Gems) -> u64 {
    u64::from_le_bytes([g[0], g[1], g[2], g[3], g[4], 0, 0, 0])
}

/// Packs tokens: the five gem colours, then gold in byte 5.
pub(crate) fn pack_tokens(t: &crate::Tokens) -> u64 {
    let g = &t.gems;
    u64::from_le_bytes([g[0], g[1], g[2], g[3], g[4], t.gold, 0, 0])
}

/// The low five bytes as counts.
pub(crate) fn unpack(word: u64) -> Gems {
    let b = word.to_le_bytes();
    [b[0], b[1], b[2], b[3], b[4]]
}

/// Per byte, `max(a - b, 0)`.
pub(crate) fn saturating_sub(a: u64, b: u64) -> u64 {
    let d = (a | HIGH) - b;
    // The high bit of a byte of `d` survives exactly when a >= b there.
    let borrowless = d & HIGH;
    d & (borrowless - (borrowless >> 7))
}

/// Per byte, `a >= b` everywhere.
pub(crate) fn all_at_least(a: u64, b: u64) -> bool {
    ((a | HIGH) - b) & HIGH == HIGH
}

/// The sum of the bytes (below 256 here).
pub(crate) fn sum(word: u64) -> u8 {
    (word.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_operations_match_the_per_colour_ones() {
        let values = [0u8, 1, 2, 3, 4, 6, 7, 18, 30, 127];
        for &a in &values {
            for &b in &values {
                let wa = pack(&[a, b, a, 0, 127]);
                let wb = pack(&[b, a, 0, a, b]);
                let expected = [a.saturating_sub(b), b.saturating_sub(a), a, 0, 127 - b];
                assert_eq!(unpack(saturating_sub(wa, wb)), expected);
                assert_eq!(all_at_least(wa, wb), a == b && a == 0);
                assert_eq!(all_at_least(pack(&[a; 5]), pack(&[b; 5])), a >= b);
            }
        }
        assert_eq!(sum(pack(&[7, 7, 7, 7, 7])), 35);
        assert_eq!(sum(pack(&[0, 0, 0, 0, 0])), 0);
    }
}
