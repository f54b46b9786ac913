//! The server's shared state ([`AppState`]): the configuration, the lobby,
//! the stores, the limits, the metrics and what a node of a cluster adds;
//! what every request handler and connection reads.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use splendor_lobby::restore;
use splendor_lobby::{Lobby, SessionStore};
use splendor_store::{Store, StoreError};
use tokio::sync::{Semaphore, watch};
use tracing::info;

use crate::limits::{ConnectRate, IpLimiter, NamePolicy, OriginPolicy};
use crate::metrics::{Metrics, TimedPersistence};
use crate::{
    Backend, Config, ServerError, Storage, admin, cluster, finished_cache, log_restore, sanctions,
};

/// Everything a request handler needs. Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<AppInner>,
}

struct AppInner {
    config: Config,
    lobby: Lobby,
    sessions: Arc<dyn SessionStore>,
    storage: Option<Arc<dyn Storage>>,
    /// The database, for the history API.
    store: Option<Store>,
    metrics: Metrics,
    origins: OriginPolicy,
    names: NamePolicy,
    /// Connections per client address.
    per_ip: IpLimiter,
    /// New connections per client address per minute.
    connect_rate: ConnectRate,
    /// HTTP API requests per address (none when lifted).
    api_rate: Option<ConnectRate>,
    /// The positions of finished games served, per address, range and
    /// node (none when lifted).
    heavy: Option<crate::limits::HeavyAnswers>,
    /// Refusals over an address budget, answered after a pause.
    slow_refusals: crate::limits::SlowRefusals,
    /// Finished games' positions, made once.
    finished_bodies: finished_cache::FinishedBodies,
    /// Bans made while this node runs, for its open connections.
    sanctions: sanctions::Sanctions,
    /// Password sign-ins under way, per address and range (issue 46).
    sign_in_tries: crate::identity::throttle::TriesUnderWay,
    /// When each automatic sanction was last audited (issue 22).
    auto_audit: crate::auto_audit::AutoAudit,
    /// The host's words kept out of names and chat.
    word_filter: crate::limits::WordFilter,
    /// One permit per open WebSocket, up to `max_connections`.
    connection_slots: Arc<Semaphore>,
    /// Set to true once: every connection then closes with 1012.
    shutdown: watch::Sender<bool>,
    /// Bumped to close every open WebSocket with 1012 while the server
    /// keeps running (a node cut off from the database).
    evictions: watch::Sender<u64>,
    /// The number of open WebSocket connections.
    connections: watch::Sender<usize>,
    /// The address `/metrics` is served on, once bound, when the
    /// configuration gives it an address of its own.
    metrics_addr: watch::Sender<Option<SocketAddr>>,
    /// Connections waiting for their quick-play games.
    /// This node's part in a cluster (`--nats-url`), if it is one.
    cluster: Option<splendor_cluster::Cluster>,
    /// In a cluster: the connections told when their room moved, and
    /// the node id's claim.
    node: std::sync::OnceLock<cluster::NodeLocal>,
    /// The operators' token, if one is configured (issue 22).
    admin: Option<admin::AdminGate>,
    /// The analyses of finished games (issue 26), with a database.
    analyses: Option<crate::analysis::Analyses>,
    /// Web Push (issue 25), with a database.
    push: Option<Arc<crate::notify::push::Push>>,
}

impl AppState {
    /// A server keeping sessions in memory and games nowhere.
    pub fn new(config: Config) -> AppState {
        AppState::with_backend(config, Backend::in_memory())
    }

    /// The server the configuration describes: opens (and if needed
    /// creates and migrates) its database, then puts every unfinished game
    /// back into a room so that its players can resume with their tokens.
    pub async fn open(config: Config) -> Result<AppState, ServerError> {
        let url = config.database_url();
        let database = |source| ServerError::Database {
            url: url.clone(),
            source,
        };
        let store = Store::open_with(url.expose(), config.store_config())
            .await
            .map_err(database)?;
        info!(database = %url, backend = ?store.backend(), "database open");
        let clustered = config.cluster.enabled();
        let state = if clustered {
            cluster::open_node(config, store.clone()).await?
        } else {
            AppState::with_backend(config, Backend::database(store.clone()))
        };
        let restored = restore(state.lobby(), &store).await.map_err(database)?;
        log_restore(&restored);
        // Parked games whose deadline passes are loaded and applied.
        state.lobby().spawn_park_sweeper();
        // Nobody is connected yet: whoever waited in a quick-play queue
        // before the restart queues again (ratings stay). Not in a
        // cluster: the other nodes' players wait in the same queues.
        if !clustered {
            let dropped = store.clear_queues().await.map_err(database)?;
            if dropped > 0 {
                info!(sessions = dropped, "quick-play queues emptied at start");
            }
        }
        state
            .metrics()
            .games_restored(restored.restored + restored.viewable);
        Ok(state)
    }

    /// A server over `backend`; the rooms' writes are timed for the metrics.
    pub fn with_backend(config: Config, backend: Backend) -> AppState {
        let metrics = Metrics::new();
        let persistence = Arc::new(TimedPersistence::new(backend.persistence, metrics.clone()));
        let lobby = Lobby::new(config.lobby(), persistence);
        AppState::assemble(
            config,
            lobby,
            backend.sessions,
            backend.storage,
            backend.store,
            metrics,
            None,
        )
    }

    /// A server over the given lobby and session store.
    pub fn with_parts(config: Config, lobby: Lobby, sessions: Arc<dyn SessionStore>) -> AppState {
        AppState::assemble(config, lobby, sessions, None, None, Metrics::new(), None)
    }

    pub(crate) fn assemble(
        config: Config,
        lobby: Lobby,
        sessions: Arc<dyn SessionStore>,
        storage: Option<Arc<dyn Storage>>,
        store: Option<Store>,
        metrics: Metrics,
        cluster: Option<splendor_cluster::Cluster>,
    ) -> AppState {
        metrics.watch_lobby(&lobby);
        let admin = config
            .admin
            .token()
            .ok()
            .flatten()
            .map(admin::AdminGate::new);
        // Checked at start (Config::check); a file that went away since
        // filters nothing, said once.
        let word_filter = match &config.word_filter {
            Some(path) => crate::limits::WordFilter::load(path).unwrap_or_else(|e| {
                tracing::warn!(error = %e, "the word filter is not in use");
                crate::limits::WordFilter::default()
            }),
            None => crate::limits::WordFilter::default(),
        };
        // Turn-based games nobody is at wait in the database (issue 25).
        if let Some(store) = &store {
            lobby.set_park_store(store.clone());
        }
        // Notices to players away (issue 25) go to their webhooks and
        // browsers.
        let push = store.as_ref().map(|store| {
            let contact = config.push_contact.clone().unwrap_or_else(|| {
                crate::notify::push::default_contact(config.public_url.as_deref())
            });
            Arc::new(crate::notify::push::Push::new(store.clone(), contact))
        });
        if let (Some(store), Some(push)) = (&store, &push) {
            let notifier = crate::notify::delivery::start(
                store.clone(),
                metrics.clone(),
                crate::notify::outbound::Outbound::of(&config),
                push.clone(),
            );
            lobby.set_notifier(notifier);
        }
        let analyses = store.clone().map(|store| {
            crate::analysis::Analyses::new(
                store,
                lobby.think_pool().clone(),
                &config.analysis,
                config.cluster.enabled(),
            )
        });
        AppState {
            inner: Arc::new(AppInner {
                analyses,
                origins: config.origin_policy(),
                names: config.name_policy(),
                per_ip: IpLimiter::new(config.max_connections_per_ip),
                connect_rate: ConnectRate::new(config.max_connects_per_ip_per_minute),
                api_rate: (config.max_api_requests_per_ip_per_minute > 0)
                    .then(|| ConnectRate::new(config.max_api_requests_per_ip_per_minute)),
                heavy: (config.max_positions_per_second > 0)
                    .then(|| crate::limits::HeavyAnswers::new(config.max_positions_per_second)),
                slow_refusals: crate::limits::SlowRefusals::new(Duration::from_millis(
                    config.refusal_pause_ms,
                )),
                finished_bodies: Default::default(),
                sanctions: Default::default(),
                sign_in_tries: Default::default(),
                auto_audit: Default::default(),
                word_filter,
                connection_slots: Arc::new(Semaphore::new(
                    config.websocket_cap().min(Semaphore::MAX_PERMITS),
                )),
                config,
                lobby,
                sessions,
                storage,
                store,
                metrics,
                shutdown: watch::channel(false).0,
                evictions: watch::channel(0).0,
                connections: watch::channel(0).0,
                metrics_addr: watch::channel(None).0,
                cluster,
                node: std::sync::OnceLock::new(),
                admin,
                push,
            }),
        }
    }

    /// This node's part in a cluster, if it is one.
    pub fn cluster(&self) -> Option<&splendor_cluster::Cluster> {
        self.inner.cluster.as_ref()
    }

    pub(crate) fn set_node(&self, node: cluster::NodeLocal) {
        let _ = self.inner.node.set(node);
    }

    /// The analyses of finished games, with a database.
    pub(crate) fn analyses(&self) -> Option<&crate::analysis::Analyses> {
        self.inner.analyses.as_ref()
    }

    /// The operators' token, if one is configured.
    pub(crate) fn admin_gate(&self) -> Option<&admin::AdminGate> {
        self.inner.admin.as_ref()
    }

    /// What only a node of a cluster has.
    pub(crate) fn node_local(&self) -> Option<&cluster::NodeLocal> {
        self.inner.node.get()
    }

    /// In a cluster: the connections told when their room moved.
    pub(crate) fn nudges(&self) -> Option<&cluster::Nudges> {
        self.node_local().map(|n| &n.nudges)
    }

    /// This node's id when the server runs as several nodes (`welcome` and
    /// `room` say it); `None` on a single server (node 0).
    pub(crate) fn node_id(&self) -> Option<u16> {
        let node = self.lobby().config().node.0;
        (node != 0).then_some(node)
    }

    /// The server's settings.
    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// The rooms.
    pub fn lobby(&self) -> &Lobby {
        &self.inner.lobby
    }

    /// The sessions.
    pub fn sessions(&self) -> &dyn SessionStore {
        self.inner.sessions.as_ref()
    }

    /// The server's counters.
    pub fn metrics(&self) -> &Metrics {
        &self.inner.metrics
    }

    pub(crate) fn storage(&self) -> Option<&dyn Storage> {
        self.inner.storage.as_deref()
    }

    /// Deletes the sessions past their lifetime as of `now` (Unix ms; see
    /// `--session-ttl` and `--unused-session-ttl`), after recording every
    /// session connected now or in a room as seen. Returns how many were deleted (0
    /// without a database).
    pub async fn prune_sessions(&self, now: i64) -> Result<u64, StoreError> {
        let Some(store) = self.store() else {
            return Ok(0);
        };
        let present = self.lobby().presence().present_sessions();
        let ids = present
            .into_iter()
            .map(|id| splendor_store::SessionId(id.0))
            .collect();
        store.touch_sessions(ids, now).await?;
        let millis = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        let config = self.config();
        store
            .prune_sessions(
                now.saturating_sub(millis(config.session_ttl)),
                now.saturating_sub(millis(config.unused_session_ttl)),
            )
            .await
    }

    /// Web Push, when the server has a database.
    pub(crate) fn push(&self) -> Option<&crate::notify::push::Push> {
        self.inner.push.as_deref()
    }

    /// The database, when the server has one.
    pub fn store(&self) -> Option<&Store> {
        self.inner.store.as_ref()
    }

    pub(crate) fn origins(&self) -> &OriginPolicy {
        &self.inner.origins
    }

    pub(crate) fn names(&self) -> &NamePolicy {
        &self.inner.names
    }

    pub(crate) fn per_ip(&self) -> &IpLimiter {
        &self.inner.per_ip
    }

    pub(crate) fn api_rate(&self) -> Option<&ConnectRate> {
        self.inner.api_rate.as_ref()
    }

    pub(crate) fn heavy(&self) -> Option<&crate::limits::HeavyAnswers> {
        self.inner.heavy.as_ref()
    }

    /// Refusals over an address budget, answered after a pause.
    pub(crate) fn slow_refusals(&self) -> &crate::limits::SlowRefusals {
        &self.inner.slow_refusals
    }

    pub(crate) fn word_filter(&self) -> &crate::limits::WordFilter {
        &self.inner.word_filter
    }

    pub(crate) fn auto_audit(&self) -> &crate::auto_audit::AutoAudit {
        &self.inner.auto_audit
    }

    pub(crate) fn sign_in_tries(&self) -> &crate::identity::throttle::TriesUnderWay {
        &self.inner.sign_in_tries
    }

    pub(crate) fn sanctions(&self) -> &sanctions::Sanctions {
        &self.inner.sanctions
    }

    pub(crate) fn finished_bodies(&self) -> &finished_cache::FinishedBodies {
        &self.inner.finished_bodies
    }

    pub(crate) fn connect_rate(&self) -> &ConnectRate {
        &self.inner.connect_rate
    }

    pub(crate) fn connection_slots(&self) -> &Arc<Semaphore> {
        &self.inner.connection_slots
    }

    /// Tells every WebSocket connection to close (code 1012) and refuses new ones.
    pub fn shut_down(&self) {
        self.inner.shutdown.send_replace(true);
    }

    /// True once the server is shutting down.
    pub fn is_shutting_down(&self) -> bool {
        *self.inner.shutdown.borrow()
    }

    pub(crate) fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.inner.shutdown.subscribe()
    }

    /// Closes every WebSocket open now with 1012 (its client reconnects,
    /// through the load balancer, to a node that can serve it); the server
    /// runs on and takes new connections.
    pub(crate) fn evict_all(&self) {
        self.inner.evictions.send_modify(|n| *n += 1);
    }

    /// What a connection watches to be evicted.
    pub(crate) fn evictions(&self) -> watch::Receiver<u64> {
        self.inner.evictions.subscribe()
    }

    /// The number of open WebSocket connections.
    pub fn open_connections(&self) -> usize {
        *self.inner.connections.borrow()
    }

    /// Counts a connection as open until the guard is dropped.
    pub(crate) fn track_connection(&self) -> ConnectionGuard {
        self.inner.connections.send_modify(|n| *n += 1);
        ConnectionGuard {
            state: self.clone(),
        }
    }

    /// Follows the number of open WebSocket connections (for tests and
    /// diagnostics: wait for a count instead of sleeping).
    pub fn connections_watch(&self) -> watch::Receiver<usize> {
        self.inner.connections.subscribe()
    }

    /// Says where the metrics listener is bound.
    pub(crate) fn set_metrics_addr(&self, bound: SocketAddr) {
        self.inner.metrics_addr.send_replace(Some(bound));
    }

    /// Follows the address `/metrics` is served on when
    /// [`Config::metrics_listen`] is set: `None` until [`crate::serve`]
    /// bound it (with port 0, the port the system chose).
    pub fn metrics_addr_watch(&self) -> watch::Receiver<Option<SocketAddr>> {
        self.inner.metrics_addr.subscribe()
    }

    pub(crate) async fn all_connections_closed(&self) {
        let mut rx = self.inner.connections.subscribe();
        let _ = rx.wait_for(|n| *n == 0).await;
    }
}

pub(crate) struct ConnectionGuard {
    state: AppState,
}

impl Drop for ConnectionGuard {
    fn drop(&mut self) {
        self.state
            .inner
            .connections
            .send_modify(|n| *n = n.saturating_sub(1));
    }
}
