//! The seed commitment: what every player receives when a game starts, so
//! that the seed revealed at the end can be checked to be the one the game
//! was dealt from.
//!
//! # Byte layout
//!
//! ```text
//! commitment = SHA-256( salt || seed )
//!   salt: 32 bytes, as they are
//!   seed: 8 bytes, the u64 seed in big-endian order
//! ```
//!
//! The three travel as lowercase hexadecimal: the salt as 64 digits, the
//! seed as 16 digits (its big-endian bytes, so the text is the usual
//! hexadecimal form of the number, zero-padded), the commitment as 64
//! digits. Because both inputs are hexadecimal text of their bytes, a
//! player can recompute the commitment by concatenating the two texts:
//!
//! ```text
//! printf '%s%s' "$SALT" "$SEED" | xxd -r -p | sha256sum
//! ```
//!
//! The salt is 32 random bytes drawn for each game. Without it, a 64-bit
//! seed could be found from its hash by trying them all; with it the
//! commitment reveals nothing about the seed until the salt is revealed.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

/// A game's seed (R2.5). In text: 16 lowercase hexadecimal digits, big-endian.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seed(pub u64);

/// The secret salt of a commitment: 32 bytes. In text: 64 hexadecimal digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Salt(pub [u8; 32]);

/// A commitment to a seed: `SHA-256(salt || seed big-endian)`. In text: 64
/// lowercase hexadecimal digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Commitment(pub [u8; 32]);

impl Commitment {
    /// The commitment to `seed` under `salt` (see the module doc for the bytes).
    pub fn of(seed: Seed, salt: &Salt) -> Commitment {
        Commitment(Sha256::digest(preimage(seed, salt)).into())
    }
}

/// The 40 bytes that are hashed: the salt, then the seed in big-endian order.
pub fn preimage(seed: Seed, salt: &Salt) -> [u8; 40] {
    let mut bytes = [0u8; 40];
    bytes[..32].copy_from_slice(&salt.0);
    bytes[32..].copy_from_slice(&seed.0.to_be_bytes());
    bytes
}

/// A text that is not the hexadecimal form it should be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} must be {digits} lowercase hexadecimal digits, not {found:?}")]
pub struct HexError {
    /// What the text should have been ("seed", "salt", "commitment").
    pub what: &'static str,
    /// How many digits it must have.
    pub digits: usize,
    /// The text, cut to a readable length.
    pub found: String,
}

/// Lowercase hexadecimal of `bytes`.
pub(crate) fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    out
}

/// Reads exactly `N` bytes from `2 * N` lowercase hexadecimal digits.
/// Uppercase is refused so that each value has one text form.
fn from_hex<const N: usize>(what: &'static str, text: &str) -> Result<[u8; N], HexError> {
    let error = || HexError {
        what,
        digits: 2 * N,
        found: text.chars().take(80).collect(),
    };
    let digits = text.as_bytes();
    if digits.len() != 2 * N {
        return Err(error());
    }
    let nibble = |d: u8| match d {
        b'0'..=b'9' => Some(d - b'0'),
        b'a'..=b'f' => Some(d - b'a' + 10),
        _ => None,
    };
    let mut out = [0u8; N];
    for (i, pair) in digits.chunks_exact(2).enumerate() {
        let (Some(high), Some(low)) = (nibble(pair[0]), nibble(pair[1])) else {
            return Err(error());
        };
        out[i] = high << 4 | low;
    }
    Ok(out)
}

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_hex(&self.0.to_be_bytes()))
    }
}

impl fmt::Display for Salt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_hex(&self.0))
    }
}

impl fmt::Display for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&to_hex(&self.0))
    }
}

impl FromStr for Seed {
    type Err = HexError;
    fn from_str(text: &str) -> Result<Seed, HexError> {
        from_hex::<8>("seed", text).map(|bytes| Seed(u64::from_be_bytes(bytes)))
    }
}

impl FromStr for Salt {
    type Err = HexError;
    fn from_str(text: &str) -> Result<Salt, HexError> {
        from_hex::<32>("salt", text).map(Salt)
    }
}

impl FromStr for Commitment {
    type Err = HexError;
    fn from_str(text: &str) -> Result<Commitment, HexError> {
        from_hex::<32>("commitment", text).map(Commitment)
    }
}

/// Serde as the hexadecimal text, for the three types above.
macro_rules! serde_as_hex {
    ($($ty:ty),*) => {$(
        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    )*};
}

serde_as_hex!(Seed, Salt, Commitment);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commitment_hashes_the_salt_then_the_big_endian_seed() {
        let salt = Salt(std::array::from_fn(|i| i as u8));
        let seed = Seed(0x0102_0304_0506_0708);
        let bytes = preimage(seed, &salt);
        assert_eq!(&bytes[..32], &salt.0);
        assert_eq!(&bytes[32..], &[1, 2, 3, 4, 5, 6, 7, 8]);
        // Pinned: the value documented in docs/REPLAYS.md, also given by
        // `printf '%s%s' "$salt" "$seed" | xxd -r -p | sha256sum`.
        assert_eq!(
            Commitment::of(seed, &salt).to_string(),
            "9e6cef1d125d09ba0c8e74e4983c5562ef87c342caba99d8f2ee456bb7948e73"
        );
    }

    #[test]
    fn the_text_forms_concatenate_to_the_preimage() {
        let salt = Salt([0xab; 32]);
        let seed = Seed(42);
        let text = format!("{salt}{seed}");
        assert_eq!(text, to_hex(&preimage(seed, &salt)));
        assert_eq!(seed.to_string(), "000000000000002a");
    }

    #[test]
    fn hex_round_trips_and_refuses_anything_else() {
        let salt = Salt([0x5a; 32]);
        assert_eq!(salt.to_string().parse::<Salt>(), Ok(salt));
        assert_eq!("ffffffffffffffff".parse::<Seed>(), Ok(Seed(u64::MAX)));
        for bad in [
            "",
            "2a",
            "000000000000002A",
            "00000000000000zz",
            "0000000000000002a",
        ] {
            let err = bad.parse::<Seed>().unwrap_err();
            assert_eq!((err.what, err.digits), ("seed", 16), "{bad}");
        }
        assert!("ab".repeat(31).parse::<Commitment>().is_err());
        let json = serde_json::to_string(&Seed(42)).unwrap();
        assert_eq!(json, r#""000000000000002a""#);
        assert_eq!(serde_json::from_str::<Seed>(&json).unwrap(), Seed(42));
        assert!(serde_json::from_str::<Seed>("42").is_err());
    }
}
