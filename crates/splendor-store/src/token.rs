//! Session tokens: generated from the operating system's random source,
//! stored only as their SHA-256.
//!
//! A token carries 256 random bits, so its plain SHA-256 is enough: there is
//! nothing to brute-force, and no salt or slow hash is needed. Lookups are by
//! hash through a unique index, so no comparison of secrets happens in Rust.

use rand_core::{OsRng, TryRngCore};
use sha2::{Digest, Sha256};

use crate::{SessionId, SessionToken, StoreError};

/// The number of random bytes in a token.
const TOKEN_BYTES: usize = 32;

/// Makes a fresh session id and token from the operating system's random source.
pub(crate) fn generate() -> Result<(SessionId, SessionToken), StoreError> {
    let mut id = [0u8; 16];
    let mut secret = [0u8; TOKEN_BYTES];
    let fill = OsRng
        .try_fill_bytes(&mut id)
        .and_then(|()| OsRng.try_fill_bytes(&mut secret));
    if let Err(err) = fill {
        return Err(StoreError::invalid(
            "random source",
            format!("the operating system could not provide random bytes: {err}"),
        ));
    }
    let id = SessionId(uuid::Builder::from_random_bytes(id).into_uuid());
    Ok((id, SessionToken(to_hex(&secret))))
}

/// The SHA-256 of a token's text, as stored in `sessions.token_hash`.
pub(crate) fn hash(token: &str) -> Vec<u8> {
    Sha256::digest(token.as_bytes()).to_vec()
}

/// True when the text has the shape of a token this store hands out.
pub(crate) fn well_formed(token: &str) -> bool {
    token.len() == 2 * TOKEN_BYTES
        && token
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Lowercase hexadecimal.
fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 0x0f)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_fresh_well_formed_and_hashed() {
        let (id_a, a) = generate().unwrap();
        let (id_b, b) = generate().unwrap();
        assert_ne!(a, b);
        assert_ne!(id_a, id_b);
        assert!(well_formed(a.as_str()), "{}", a.as_str());
        assert_eq!(hash(a.as_str()).len(), 32);
        assert_ne!(hash(a.as_str()), hash(b.as_str()));
        assert!(!well_formed("ABC"));
        assert!(!well_formed(&a.as_str().to_uppercase()));
        assert_eq!(format!("{a:?}"), "SessionToken(<secret>)");
    }

    #[test]
    fn hex_is_lowercase_and_complete() {
        assert_eq!(to_hex(&[0x00, 0x0f, 0xa5, 0xff]), "000fa5ff");
    }
}
