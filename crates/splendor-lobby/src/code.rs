//! Room codes: five letters that are easy to read aloud and to type.

use std::fmt;

use crate::random::{self, RandomError};

/// The letters a code is made of: A-Z without I, L and O, which are too
/// easily confused with 1 and 0 (and there are no digits at all).
pub const ALPHABET: &[u8; 23] = b"ABCDEFGHJKMNPQRSTUVWXYZ";

/// The number of letters in a code (23^5 = 6.4 million codes).
pub const LEN: usize = 5;

/// A room code, always stored upper-case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RoomCode([u8; LEN]);

impl RoomCode {
    /// A fresh random code.
    pub fn random() -> Result<RoomCode, RandomError> {
        let mut code = [0; LEN];
        let mut filled = 0;
        let mut buf = [0u8; 16];
        while filled < LEN {
            random::fill(&mut buf)?;
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
        for _ in 0..200 {
            let code = RoomCode::random().unwrap();
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
}
