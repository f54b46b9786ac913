//! Identity on every device (issue 23): a session's tokens, one per device
//! (the first in `sessions.token_hash`, the others in `device_tokens`),
//! one-time links that mint a token for another device, a password
//! (argon2, hashed by the caller) and passkeys (WebAuthn credentials, as
//! the caller serialises them), and the count of tries at a password. All
//! in the store, so that every node agrees.

use crate::backend::dispatch;
use crate::{SessionId, SessionToken, Store, StoreError, UnixMillis, token};

/// What a session's device list shows of one token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceToken {
    /// The token's public id: 16 hex digits of its stored hash (never the
    /// token, from which nothing about it can be learnt).
    pub id: String,
    /// What the device was called when the token was made.
    pub label: String,
    /// When the token was made.
    pub created_at: UnixMillis,
    /// The session's first token (the one `hello` made).
    pub first: bool,
}

/// The public id of a token with this stored hash.
pub fn device_id(token_hash: &[u8]) -> String {
    token_hash
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The public id of a token (see [`DeviceToken::id`]).
pub fn device_id_of_token(token: &str) -> String {
    device_id(&token::hash(token))
}

/// A password as kept: the login it is found by and its PHC string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPassword {
    /// The session it opens.
    pub session: SessionId,
    /// The login, as the person wrote it when setting the password.
    pub login: String,
    /// The argon2 hash in PHC form.
    pub hash: String,
    /// The public id of the device that set it.
    pub set_by: String,
}

/// The length of a try-counting window.
pub const LOGIN_WINDOW_MS: i64 = 60_000;

impl Store {
    /// The session's tokens, the first one first, then by age.
    pub async fn devices(&self, session: SessionId) -> Result<Vec<DeviceToken>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::devices(pool, session.0).await)
    }

    /// Mints a new token of `session` for a device called `label` (shown
    /// here once; only its hash is kept).
    pub async fn add_device(
        &self,
        session: SessionId,
        label: &str,
        now: UnixMillis,
    ) -> Result<SessionToken, StoreError> {
        let (_, token) = token::generate()?;
        let hash = token::hash(token.as_str());
        dispatch!(&self.inner.pool, pool, q => q::add_device(pool, session.0, &hash, label, now).await)?;
        Ok(token)
    }

    /// Revokes the session's token with public id `device`: the first is
    /// replaced by a hash of nothing anyone holds, another is deleted; the
    /// password and passkeys that device added go with it. Returns whether
    /// there was such a token.
    pub async fn revoke_device(
        &self,
        session: SessionId,
        device: &str,
    ) -> Result<bool, StoreError> {
        let (_, nothing) = token::generate()?;
        let unusable = token::hash(nothing.as_str());
        dispatch!(&self.inner.pool, pool, q => q::revoke_device(pool, session.0, device, &unusable).await)
    }

    /// Makes a one-time link code for `session`, valid until `expires_at`
    /// (only its hash is kept). A session has at most `max_open` links
    /// waiting: the oldest go. Expired links of everyone are deleted.
    pub async fn make_device_link(
        &self,
        session: SessionId,
        now: UnixMillis,
        expires_at: UnixMillis,
        max_open: u32,
    ) -> Result<String, StoreError> {
        let (_, code) = token::generate()?;
        let hash = token::hash(code.as_str());
        dispatch!(&self.inner.pool, pool, q => q::make_device_link(pool, session.0, &hash, (now, expires_at), i64::from(max_open)).await)?;
        Ok(code.as_str().to_owned())
    }

    /// Uses a link code: once, before it expires. Mints a token for a
    /// device called `label` in the same transaction that deletes the
    /// link, and returns the session with it; `None` for a code that is
    /// unknown, used or expired.
    pub async fn claim_device_link(
        &self,
        code: &str,
        label: &str,
        now: UnixMillis,
    ) -> Result<Option<(crate::Session, SessionToken)>, StoreError> {
        if !token::well_formed(code) {
            return Ok(None);
        }
        let (_, token) = token::generate()?;
        let hash = token::hash(token.as_str());
        let found = dispatch!(&self.inner.pool, pool, q => q::claim_device_link(pool, &token::hash(code), (&hash, label), now).await)?;
        Ok(found.map(|session| (session, token)))
    }

    /// Sets (or changes) the session's password: `login` must not be
    /// another session's (compared without case). False when it is.
    /// `device`: the public id of the token that sets it (signing that
    /// device out removes the password).
    pub async fn set_password(
        &self,
        session: SessionId,
        login: &str,
        (hash, device): (&str, &str),
        now: UnixMillis,
    ) -> Result<bool, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::set_password(pool, session.0, (login, &login.to_lowercase()), (hash, device), now).await)
    }

    /// Removes the session's password; whether it had one.
    pub async fn remove_password(&self, session: SessionId) -> Result<bool, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::remove_password(pool, session.0).await)
    }

    /// The password whose login is `login` (without case).
    pub async fn password_by_login(
        &self,
        login: &str,
    ) -> Result<Option<StoredPassword>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::password_by_login(pool, &login.to_lowercase()).await)
    }

    /// The session's password, if it has one.
    pub async fn password_of(
        &self,
        session: SessionId,
    ) -> Result<Option<StoredPassword>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::password_of(pool, session.0).await)
    }

    /// Counts a try at a password under `key` (a session or an address) in
    /// the current one-minute window, and returns the tries in it,
    /// this one included: one statement, so tries at once on several
    /// nodes are all counted.
    pub async fn count_login_try(&self, key: &str, now: UnixMillis) -> Result<u32, StoreError> {
        let count = dispatch!(&self.inner.pool, pool, q => q::count_login_try(pool, key, now, LOGIN_WINDOW_MS).await)?;
        Ok(u32::try_from(count).unwrap_or(u32::MAX))
    }

    /// The tries counted under `key` in its current one-minute window, none
    /// added (issue 46: a sign-in reads a login's failures before it
    /// answers, and counts only a failure).
    pub async fn login_tries(&self, key: &str, now: UnixMillis) -> Result<u32, StoreError> {
        let count = dispatch!(&self.inner.pool, pool, q => q::login_tries(pool, key, now, LOGIN_WINDOW_MS).await)?;
        Ok(u32::try_from(count).unwrap_or(u32::MAX))
    }

    /// Keeps a passkey of `session` (`passkey`: the credential as the
    /// caller serialises it), added by the device with public id `device`
    /// (signing it out removes the passkey); none past `max`: false.
    pub async fn add_passkey(
        &self,
        session: SessionId,
        (credential_id, passkey): (&[u8], &str),
        device: &str,
        (now, max): (UnixMillis, u32),
    ) -> Result<bool, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::add_passkey(pool, session.0, (credential_id, passkey), device, (now, i64::from(max))).await)
    }

    /// The passkeys of `session`, as (credential id, passkey, created at).
    pub async fn passkeys_of(
        &self,
        session: SessionId,
    ) -> Result<Vec<(Vec<u8>, String, UnixMillis)>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::passkeys_of(pool, session.0).await)
    }

    /// The session and passkey of a credential.
    pub async fn passkey_by_credential(
        &self,
        credential_id: &[u8],
    ) -> Result<Option<(SessionId, String)>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::passkey_by_credential(pool, credential_id).await)
    }

    /// Replaces a credential's stored passkey (its signature counter moved).
    pub async fn update_passkey(
        &self,
        credential_id: &[u8],
        passkey: &str,
    ) -> Result<(), StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::update_passkey(pool, credential_id, passkey).await)
    }

    /// The public id of the device that added one of the session's
    /// passkeys, if the session has it.
    pub async fn passkey_added_by(
        &self,
        session: SessionId,
        credential_id: &[u8],
    ) -> Result<Option<String>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::passkey_added_by(pool, session.0, credential_id).await)
    }

    /// Deletes one of the session's passkeys; whether it had it.
    pub async fn remove_passkey(
        &self,
        session: SessionId,
        credential_id: &[u8],
    ) -> Result<bool, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::remove_passkey(pool, session.0, credential_id).await)
    }

    /// Keeps a WebAuthn ceremony's state until `expires_at` (any node
    /// finishes it); expired ones of everyone are deleted.
    pub async fn put_ceremony(
        &self,
        id: &[u8],
        session: Option<SessionId>,
        state: &str,
        (now, expires_at): (UnixMillis, UnixMillis),
    ) -> Result<(), StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::put_ceremony(pool, id, session.map(|s| s.0), state, (now, expires_at)).await)
    }

    /// Takes a ceremony's state (once: it is deleted), if it has not
    /// expired.
    pub async fn take_ceremony(
        &self,
        id: &[u8],
        now: UnixMillis,
    ) -> Result<Option<(Option<SessionId>, String)>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::take_ceremony(pool, id, now).await)
    }
}

impl Store {
    /// The session with this id, if any.
    pub async fn session(&self, id: SessionId) -> Result<Option<crate::Session>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::session_by_id(pool, id.0).await)
    }
}
