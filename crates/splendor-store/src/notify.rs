//! Where a session's notices go (issue 25): the events it wants told and
//! its webhook with the secret deliveries are signed with. Read by
//! whichever node runs the room that has something to tell; a session's
//! settings go with the session.

use crate::backend::dispatch;
use crate::{SessionId, Store, StoreError, UnixMillis};

/// A session's notification settings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NotifySettings {
    /// The events it wants told (`your_turn`, `game_over`, `chat`).
    pub events: Vec<String>,
    /// The webhook's URL and its signing secret, if any.
    pub webhook: Option<(String, String)>,
}

impl Store {
    /// `session`'s settings; `None` when it set none.
    pub async fn notify_settings(
        &self,
        session: SessionId,
    ) -> Result<Option<NotifySettings>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::notify_settings(pool, session.0).await)
    }

    /// Sets `session`'s settings, replacing any.
    pub async fn put_notify_settings(
        &self,
        session: SessionId,
        settings: &NotifySettings,
        now: UnixMillis,
    ) -> Result<(), StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::put_notify_settings(pool, session.0, settings, now).await)
    }

    /// Forgets `session`'s settings.
    pub async fn delete_notify_settings(&self, session: SessionId) -> Result<(), StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::delete_notify_settings(pool, session.0).await)
    }
}

/// A browser a session's notices are pushed to (Web Push, issue 25): what
/// `PushManager.subscribe` gave the page, as it sent it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushSubscription {
    /// The push service's URL for that browser (unique: a browser's
    /// endpoint belongs to the last session that gave it).
    pub endpoint: String,
    /// The browser's P-256 public key, base64url.
    pub p256dh: String,
    /// The browser's authentication secret, base64url.
    pub auth: String,
    /// The language its notices are worded in.
    pub lang: String,
    /// When it was given, Unix ms.
    pub created_at: UnixMillis,
}

impl Store {
    /// The key kept under `name`: the one stored, or `candidate` if none
    /// was, which is then stored. Every caller, on every node, gets the
    /// same value.
    pub async fn server_key(
        &self,
        name: &str,
        candidate: &str,
        now: UnixMillis,
    ) -> Result<String, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::server_key(pool, name, candidate, now).await)
    }

    /// The browsers `session`'s notices are pushed to, oldest first.
    pub async fn push_subscriptions(
        &self,
        session: SessionId,
    ) -> Result<Vec<PushSubscription>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::push_subscriptions(pool, session.0).await)
    }

    /// Adds a browser to push to, or updates it; moves it to `session`
    /// from another session only when it is the same browser (the same
    /// `auth` secret: someone who merely knows an endpoint cannot take
    /// it). Whether it was kept.
    pub async fn put_push_subscription(
        &self,
        session: SessionId,
        subscription: &PushSubscription,
    ) -> Result<bool, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::put_push_subscription(pool, session.0, subscription).await)
    }

    /// Forgets one of `session`'s browsers (`Some(endpoint)`) or all of
    /// them; how many were forgotten.
    pub async fn delete_push_subscriptions(
        &self,
        session: SessionId,
        endpoint: Option<&str>,
    ) -> Result<u64, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::delete_push_subscriptions(pool, Some(session.0), endpoint).await)
    }

    /// Forgets a browser whatever its session: its push service said it is
    /// gone (404 or 410).
    pub async fn drop_push_endpoint(&self, endpoint: &str) -> Result<u64, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::delete_push_subscriptions(pool, None, Some(endpoint)).await)
    }
}
