//! Randomness from the operating system: seeds, room codes, ids and tokens.

use rand_core::{OsRng, TryRngCore};

/// The operating system's random source failed (practically never happens).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the operating system's random source failed: {0}")]
pub struct RandomError(pub String);

/// Fills `buf` from the operating system's random source.
pub fn fill(buf: &mut [u8]) -> Result<(), RandomError> {
    OsRng
        .try_fill_bytes(buf)
        .map_err(|e| RandomError(e.to_string()))
}

/// A random `u64` from the operating system, e.g. a game seed (R2.5).
pub fn u64() -> Result<u64, RandomError> {
    let mut buf = [0; 8];
    fill(&mut buf)?;
    Ok(u64::from_le_bytes(buf))
}
