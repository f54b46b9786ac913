//! Room codes: five letters that are easy to read aloud and to type.

use std::fmt;

use splendor_protocol::Words;

/// The letters a code is made of: A-Z without I, L and O, which are too
/// easily confused with 1 and 0 (and there are no digits at all).
pub const ALPHABET: &[u8; 23] = b"ABCDEFGHJKMNPQRSTUVWXYZ";

/// The number of letters in a code (23^5 = 6.4 million codes).
pub const LEN: usize = 5;

/// A room code, always stored upper-case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RoomCode([u8; LEN]);

impl RoomCode {
    /// A fresh random code, from the bytes `fill` draws (the lobby draws
    /// them from the operating system; the room never does).
    pub fn random<E>(mut fill: impl FnMut(&mut [u8]) -> Result<(), E>) -> Result<RoomCode, E> {
        let mut code = [0; LEN];
        let mut filled = 0;
        let mut buf = [0u8; 16];
        while filled < LEN {
            fill(&mut buf)?;
            for &b in &buf {
                // Rejection sampling: 230 = 10 * 23 keeps every letter equally likely.
                if b < 230 && filled < LEN {
                    code[filled] = ALPHABET[(b % 23) as usize];
                    filled += 1;
                }
            }
        }
        Ok(RoomCode(code))
    }

    /// Reads a code as a person typed it: case-insensitive, surrounding
    /// spaces ignored. `None` when it cannot be a code.
    pub fn parse(text: &str) -> Option<RoomCode> {
        let text = text.trim().as_bytes();
        if text.len() != LEN {
            return None;
        }
        let mut code = [0; LEN];
        for (out, &c) in code.iter_mut().zip(text) {
            let c = c.to_ascii_uppercase();
            if !ALPHABET.contains(&c) {
                return None;
            }
            *out = c;
        }
        Some(RoomCode(code))
    }

    /// Why `text` is not a code, in words that say the exact rule: for
    /// the `room_not_found` error a malformed code gets.
    pub fn why_not(text: &str) -> Words {
        let trimmed = text.trim();
        let count = trimmed.chars().count();
        if count != LEN {
            return Words::new("room-code-length")
                .text("text", format!("{text:?}"))
                .count("count", count);
        }
        let bad: Vec<String> = trimmed
            .chars()
            .filter(|c| !c.is_ascii() || !ALPHABET.contains(&(*c as u8).to_ascii_uppercase()))
            .map(|c| format!("{c:?}"))
            .collect();
        Words::new("room-code-letters")
            .text("text", format!("{text:?}"))
            .text("letters", bad.join(", "))
            .count("count", bad.len())
    }

    /// The code as its five letters.
    pub fn as_str(&self) -> &str {
        // Only ASCII letters from ALPHABET are ever stored.
        std::str::from_utf8(&self.0).unwrap_or("?????")
    }
}

impl fmt::Display for RoomCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_codes_use_only_unambiguous_letters() {
        use rand_chacha::ChaCha20Rng;
        use rand_core::{RngCore, SeedableRng};
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        for _ in 0..200 {
            let code = RoomCode::random(|buf| {
                rng.fill_bytes(buf);
                Ok::<(), ()>(())
            })
            .unwrap();
            let s = code.as_str();
            assert_eq!(s.len(), LEN);
            assert!(
                s.chars()
                    .all(|c| c.is_ascii_uppercase() && !"IOL".contains(c)),
                "{s}"
            );
            assert_eq!(RoomCode::parse(s), Some(code));
        }
    }

    #[test]
    fn parsing_is_case_insensitive_and_strict() {
        assert_eq!(RoomCode::parse(" kbpqz ").unwrap().as_str(), "KBPQZ");
        assert_eq!(RoomCode::parse("KbPqZ").unwrap().as_str(), "KBPQZ");
        for bad in [
            "", "KBPQ", "KBPQZZ", "KBPQ0", "KBPQO", "KBPQI", "KBPQL", "KBPQ1", "KBPQ!", "ÄBPQZ",
        ] {
            assert_eq!(RoomCode::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_malformed_code_is_told_what_is_wrong() {
        assert_eq!(
            RoomCode::why_not("KBPQO"),
            Words::new("room-code-letters")
                .text("text", "\"KBPQO\"")
                .text("letters", "'O'")
                .num("count", 1)
        );
        assert_eq!(
            RoomCode::why_not("ab1l!").get("letters"),
            Some(&splendor_protocol::Arg::Text("'1', 'l', '!'".into()))
        );
        assert_eq!(
            RoomCode::why_not("ABC"),
            Words::new("room-code-length")
                .text("text", "\"ABC\"")
                .num("count", 3)
        );
    }
}
