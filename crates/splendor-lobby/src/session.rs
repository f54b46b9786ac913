//! Sessions: a display name and a secret token that resumes the same
//! identity (and so the same seat) on a later connection.
//!
//! [`SessionStore`] is the small interface the gateway uses;
//! [`MemorySessions`] keeps sessions in this process;
//! [`crate::stored::StoreSessions`] keeps them in the database. Tokens are 256 random bits, shown once, and
//! kept only as their SHA-256: a lookup goes by hash, so no secret is ever
//! compared byte by byte.

use std::collections::HashMap;
use std::fmt;
use std::pin::Pin;
use std::sync::Mutex;

use sha2::{Digest, Sha256};
use splendor_protocol::client::MAX_NAME_CHARS;

use crate::random::{self, RandomError};

/// A boxed future, so that the traits here can be used as `dyn` objects.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

pub use splendor_room::session::{Session, SessionId};

/// A fresh random session id.
pub fn random_session_id() -> Result<SessionId, RandomError> {
    let mut bytes = [0; 16];
    random::fill(&mut bytes)?;
    Ok(SessionId::from_random_bytes(bytes))
}

/// The secret that resumes a session. Its `Debug` form hides it.
#[derive(Clone, PartialEq, Eq)]
pub struct SessionToken(String);

impl SessionToken {
    /// A new token: 32 bytes from the OS random source, as 64 hex digits.
    pub fn generate() -> Result<SessionToken, RandomError> {
        let mut bytes = [0u8; 32];
        random::fill(&mut bytes)?;
        Ok(SessionToken(hex(&bytes)))
    }

    /// A token issued by another session store (the database's).
    pub fn issued(token: String) -> SessionToken {
        SessionToken(token)
    }

    /// The token as the client receives it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for SessionToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SessionToken(..)")
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The SHA-256 of a token: what a store keeps instead of the token.
pub fn token_hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// A session store failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The operating system's random source failed.
    #[error(transparent)]
    Random(#[from] RandomError),
    /// The store failed for another reason.
    #[error("session store: {0}")]
    Store(String),
    /// The database cannot be reached right now; the request may succeed later.
    #[error("session store unavailable: {0}")]
    Unavailable(String),
    /// The address made as many sessions in the last hour as it may
    /// (issue 45); nothing was made.
    #[error("{cap} sessions were made from this address in the last hour")]
    TooMany {
        /// Sessions an address may make in an hour.
        cap: u32,
        /// When the next may be made.
        retry_after: std::time::Duration,
    },
}

/// Where a new session comes from, and how many an address may make in an
/// hour (issue 45: a `hello` makes one and costs nothing, so a script made
/// thousands).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionOrigin {
    /// The client's address, as the gateway keys it (IPv4, IPv6 /64).
    pub client: String,
    /// Sessions it may make in an hour (at least 1).
    pub per_hour: u32,
}

/// The window of [`SessionOrigin::per_hour`].
pub const SESSION_WINDOW: std::time::Duration = std::time::Duration::from_secs(60 * 60);

/// Where sessions live: [`MemorySessions`] in this process, or
/// [`crate::stored::StoreSessions`] in the database.
pub trait SessionStore: Send + Sync + 'static {
    /// A new session called `name` (already validated) and its token.
    fn create<'a>(
        &'a self,
        name: &'a str,
    ) -> BoxFuture<'a, Result<(Session, SessionToken), SessionError>> {
        self.create_from(name, None)
    }

    /// [`SessionStore::create`] from `origin`, within its budget
    /// ([`SessionError::TooMany`] past it).
    fn create_from<'a>(
        &'a self,
        name: &'a str,
        origin: Option<&'a SessionOrigin>,
    ) -> BoxFuture<'a, Result<(Session, SessionToken), SessionError>>;

    /// The session `token` belongs to, if any.
    fn resume<'a>(&'a self, token: &'a str)
    -> BoxFuture<'a, Result<Option<Session>, SessionError>>;

    /// Changes a session's display name (already validated).
    fn rename<'a>(
        &'a self,
        id: SessionId,
        name: &'a str,
    ) -> BoxFuture<'a, Result<(), SessionError>>;
}

/// Sessions kept in this process, keyed by token hash.
#[derive(Default)]
pub struct MemorySessions {
    by_token_hash: Mutex<HashMap<[u8; 32], Session>>,
    /// When each address made its sessions of the last hour, oldest first
    /// (issue 45; this process's count: a server without a database is
    /// one node).
    made_by: Mutex<HashMap<String, std::collections::VecDeque<std::time::Instant>>>,
}

impl MemorySessions {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<[u8; 32], Session>> {
        // A panic while holding this lock cannot leave the map half-updated
        // (every change is a single insert), so a poisoned lock is still usable.
        self.by_token_hash
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl MemorySessions {
    /// Counts a session made from `origin` now, unless its hour's budget
    /// is spent.
    fn count_made(&self, origin: &SessionOrigin) -> Result<(), SessionError> {
        let now = std::time::Instant::now();
        let mut made = self.made_by.lock().unwrap_or_else(|p| p.into_inner());
        // Addresses whose hour is over are forgotten: the map holds only
        // the last hour's makers.
        made.retain(|_, times| {
            while times
                .front()
                .is_some_and(|t| now.duration_since(*t) >= SESSION_WINDOW)
            {
                times.pop_front();
            }
            !times.is_empty()
        });
        let times = made.entry(origin.client.clone()).or_default();
        if times.len() >= origin.per_hour as usize {
            let oldest = times.front().copied().unwrap_or(now);
            return Err(SessionError::TooMany {
                cap: origin.per_hour,
                retry_after: SESSION_WINDOW.saturating_sub(now.duration_since(oldest)),
            });
        }
        times.push_back(now);
        Ok(())
    }
}

impl SessionStore for MemorySessions {
    fn create_from<'a>(
        &'a self,
        name: &'a str,
        origin: Option<&'a SessionOrigin>,
    ) -> BoxFuture<'a, Result<(Session, SessionToken), SessionError>> {
        Box::pin(async move {
            if let Some(origin) = origin {
                self.count_made(origin)?;
            }
            let token = SessionToken::generate()?;
            let session = Session {
                id: random_session_id()?,
                name: name.to_owned(),
                program: false,
            };
            self.lock()
                .insert(token_hash(token.expose()), session.clone());
            Ok((session, token))
        })
    }

    fn resume<'a>(
        &'a self,
        token: &'a str,
    ) -> BoxFuture<'a, Result<Option<Session>, SessionError>> {
        Box::pin(async move { Ok(self.lock().get(&token_hash(token)).cloned()) })
    }

    fn rename<'a>(
        &'a self,
        id: SessionId,
        name: &'a str,
    ) -> BoxFuture<'a, Result<(), SessionError>> {
        Box::pin(async move {
            for session in self.lock().values_mut() {
                if session.id == id {
                    session.name = name.to_owned();
                }
            }
            Ok(())
        })
    }
}

/// Checks and tidies a display name: surrounding spaces are trimmed; it
/// must then be 1 to [`MAX_NAME_CHARS`] characters with no control characters.
pub fn validate_name(name: &str) -> Result<String, &'static str> {
    let name = name.trim();
    if name.is_empty() {
        return Err("the name is empty");
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err("the name is longer than 24 characters");
    }
    if name.chars().any(char::is_control) {
        return Err("the name contains control characters");
    }
    Ok(name.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_token_resumes_its_session_and_nothing_else_does() {
        let store = MemorySessions::new();
        let (ann, ann_token) = store.create("ann").await.unwrap();
        let (bob, _) = store.create("bob").await.unwrap();
        assert_ne!(ann.id, bob.id);
        assert_eq!(ann_token.expose().len(), 64);
        assert_eq!(
            store.resume(ann_token.expose()).await.unwrap(),
            Some(ann.clone())
        );
        assert_eq!(store.resume("nope").await.unwrap(), None);
        let mut wrong = ann_token.expose().to_owned();
        wrong.replace_range(0..1, if wrong.starts_with('0') { "1" } else { "0" });
        assert_eq!(store.resume(&wrong).await.unwrap(), None);
        store.rename(ann.id, "anna").await.unwrap();
        assert_eq!(
            store
                .resume(ann_token.expose())
                .await
                .unwrap()
                .unwrap()
                .name,
            "anna"
        );
    }

    #[test]
    fn tokens_are_never_printed_by_debug() {
        let token = SessionToken::generate().unwrap();
        assert!(!format!("{token:?}").contains(token.expose()));
    }

    #[test]
    fn names_are_trimmed_and_checked() {
        assert_eq!(validate_name("  ann ").unwrap(), "ann");
        assert_eq!(validate_name("Zoë").unwrap(), "Zoë");
        assert!(validate_name("   ").is_err());
        assert!(validate_name(&"x".repeat(25)).is_err());
        assert!(validate_name(&"é".repeat(24)).is_ok());
        assert!(validate_name("a\nb").is_err());
    }
}

#[cfg(test)]
mod player_id_tests {
    use super::*;

    /// A rated seat's public id is computed by the room (for the seats it
    /// shows) and by the store (for the ratings it keeps): the same.
    #[test]
    fn the_room_and_the_store_agree_on_player_ids() {
        for n in [0u128, 1, 42, u128::MAX, 0x0123_4567_89ab_cdef] {
            let id = SessionId(uuid::Uuid::from_u128(n));
            assert_eq!(
                id.player_id(),
                splendor_store::player_id(splendor_store::SessionId(id.0))
            );
        }
    }
}
