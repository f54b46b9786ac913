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
