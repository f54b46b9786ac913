//! Delivering the rooms' notices (issue 25): a queue the rooms put into
//! without waiting, a task that reads each player's settings from the
//! store and hands what they asked for to their webhook ([`super::webhook`])
//! and to their browsers ([`super::push`]).
//!
//! At most [`IN_FLIGHT`] deliveries run at once, each bounded by the HTTP
//! client's timeout; a full queue drops the notice (counted), so a slow or
//! hanging endpoint never delays a move.

use std::sync::Arc;
use std::time::Duration;

use splendor_lobby::RoomCode;
use splendor_lobby::notify::Notifier;
use splendor_lobby::room::effect::Notice;
use splendor_store::{SessionId, Store};
use tokio::sync::{Semaphore, mpsc};
use tracing::{debug, warn};

use super::outbound::Outbound;
use super::push::Push;
use super::webhook;
use crate::metrics::Metrics;

/// Notices waiting for delivery; past it, new ones are dropped.
const QUEUE: usize = 1024;
/// Deliveries at once.
const IN_FLIGHT: usize = 16;
/// How long one post may take, connection included.
const TIMEOUT: Duration = Duration::from_secs(5);

/// The rooms' side: [`Notifier::notify`] queues and returns.
#[derive(Debug)]
pub(crate) struct Deliveries {
    queue: mpsc::Sender<(RoomCode, Notice)>,
    metrics: Metrics,
}

impl Notifier for Deliveries {
    fn notify(&self, room: RoomCode, notice: Notice) {
        if self.queue.try_send((room, notice)).is_err() {
            self.metrics.notice("dropped");
        }
    }
}

/// Where the task delivers.
struct Channels {
    store: Store,
    client: reqwest::Client,
    metrics: Metrics,
    rules: Outbound,
    push: Arc<Push>,
}

/// Starts the delivery task; the notifier to give the lobby.
pub(crate) fn start(
    store: Store,
    metrics: Metrics,
    rules: Outbound,
    push: Arc<Push>,
) -> Arc<Deliveries> {
    let (queue, mut rx) = mpsc::channel::<(RoomCode, Notice)>(QUEUE);
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        // A proxy would resolve the host itself, past `PublicOnly`.
        .no_proxy()
        .timeout(TIMEOUT)
        .user_agent(concat!("splendor-server/", env!("CARGO_PKG_VERSION")))
        .dns_resolver(Arc::new(rules.resolver()))
        .build();
    let client = match client {
        Ok(client) => client,
        Err(e) => {
            warn!(error = %e, "webhooks and pushes are off: no HTTP client");
            return Arc::new(Deliveries { queue, metrics });
        }
    };
    let channels = Arc::new(Channels {
        store,
        client,
        metrics: metrics.clone(),
        rules,
        push,
    });
    tokio::spawn(async move {
        let slots = Arc::new(Semaphore::new(IN_FLIGHT));
        while let Some((room, notice)) = rx.recv().await {
            let Ok(slot) = slots.clone().acquire_owned().await else {
                return;
            };
            let channels = channels.clone();
            tokio::spawn(async move {
                let _slot = slot;
                channels.deliver(room, notice).await;
            });
        }
    });
    Arc::new(Deliveries { queue, metrics })
}

impl Channels {
    /// Tells `notice`'s session of it by every channel it chose, if it
    /// chose to be told of that event.
    async fn deliver(&self, room: RoomCode, notice: Notice) {
        let session = SessionId(notice.session.0);
        let settings = match self.store.notify_settings(session).await {
            Ok(Some(settings)) => settings,
            Ok(None) => {
                self.metrics.notice("unwanted");
                return;
            }
            Err(e) => {
                warn!(error = %e, "a notice's settings cannot be read");
                self.metrics.notice("failed");
                return;
            }
        };
        if !settings.events.iter().any(|e| e == notice.event.name()) {
            // The player did not ask to be told of this event.
            self.metrics.notice("unwanted");
            return;
        }
        if let Some((url, secret)) = &settings.webhook {
            webhook::post(
                &self.client,
                &self.metrics,
                &self.rules,
                url,
                secret,
                &room,
                &notice,
            )
            .await;
        }
        let browsers = match self.store.push_subscriptions(session).await {
            Ok(browsers) => browsers,
            Err(e) => {
                warn!(error = %e, "a notice's browsers cannot be read");
                self.metrics.notice("push_failed");
                return;
            }
        };
        if browsers.is_empty() {
            return;
        }
        let vapid = match self.push.vapid().await {
            Ok(vapid) => vapid,
            Err(why) => {
                debug!(why, "no push without the server's key");
                self.metrics.notice("push_failed");
                return;
            }
        };
        // All of a session's browsers at once: one slow push service does
        // not hold the others (each post is bounded by the client's timeout).
        let pushes = browsers.iter().filter_map(|browser| {
            if let Err(why) = self.rules.check_url(&browser.endpoint, "push endpoint") {
                debug!(why, "a push endpoint is not posted to");
                self.metrics.notice("push_failed");
                return None;
            }
            Some(super::push::push(
                &self.client,
                &vapid,
                &self.store,
                &self.metrics,
                browser,
                &room,
                &notice.event,
            ))
        });
        futures_util::future::join_all(pushes).await;
    }
}
