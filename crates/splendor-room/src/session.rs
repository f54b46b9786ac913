//! Who is in a room: a session's id and display name. Sessions are made
//! and kept by the lobby; the room only names them.

use std::fmt;

use sha2::{Digest, Sha256};
use uuid::Uuid;

/// A session's public id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SessionId(pub Uuid);

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.as_simple().fmt(f)
    }
}

impl SessionId {
    /// The id made from 16 random bytes (the lobby draws them from the
    /// operating system; the room never does).
    pub fn from_random_bytes(bytes: [u8; 16]) -> SessionId {
        SessionId(uuid::Builder::from_random_bytes(bytes).into_uuid())
    }

    /// The session's public id on a rated table: ten hex digits of SHA-256
    /// over a fixed prefix and the session id. One-way (the session id is
    /// never shown to others) and stable. The store computes the same
    /// (`splendor_store::player_id`; a test in splendor-lobby checks both
    /// agree).
    pub fn player_id(self) -> String {
        let mut hasher = Sha256::new();
        hasher.update(PLAYER_ID_PREFIX);
        hasher.update(self.0.as_bytes());
        let digest = hasher.finalize();
        digest[..5].iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// What a player id hashes before the session id.
const PLAYER_ID_PREFIX: &[u8] = b"splendor player id\0";

/// Who a connection is: what the server knows of a client after `hello`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// The session's id.
    pub id: SessionId,
    /// Its display name.
    pub name: String,
    /// A program plays for it (`hello` with `"bot":true`, kept by the
    /// store): marked `program_bot` in its seats for everyone (issue 24).
    pub program: bool,
}
