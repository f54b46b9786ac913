//! The Splendor server: an axum gateway in front of the lobby.
//!
//! - [`AppState::open`] opens the database the [`Config`] names (SQLite by
//!   default, PostgreSQL by URL) and puts every unfinished game back into a
//!   room; [`run`] does that and serves on a listener until a shutdown
//!   future resolves. The binary ([`cli`]) parses the command line, sets up
//!   logging and calls them, so tests can start the same server on port 0.
//! - [`app`] builds the router: `GET /ws` (the game protocol,
//!   docs/PROTOCOL.md), `GET /api/rooms`, the history of finished games
//!   (`games`: `GET /api/games`, `/api/games/{id}`,
//!   `/api/games/{id}/replay`, docs/REPLAYS.md), and for operators
//!   `GET /healthz`, `GET /readyz` and `GET /metrics` (docs/HOSTING.md;
//!   with [`Config::metrics_listen`], `/metrics` is served by
//!   [`metrics_app`] on an address of its own instead).
//! - `web`: the browser client at `GET /`, a static page compiled into
//!   the binary that plays over the same WebSocket (docs/BROWSER.md).
//! - [`ws`]: one task pair per WebSocket (reader and writer). The reader
//!   parses each frame, checks its shape, attaches the connection's own
//!   session (never one the client names) and forwards an intent to the
//!   room; the gateway never touches game state. It also applies the
//!   [`limits`] and the heartbeat.
//! - [`i18n`]: people's messages in the language a connection chose at
//!   `hello` (English, Dutch, French, German); the gateway translates
//!   every `error` it sends.
//! - [`config`]: flags and `SPLENDOR_*` environment variables.
//! - [`metrics`]: the Prometheus figures.
//! - [`probe`]: the client side of `splendor-server healthcheck`.
//! - [`verify`]: `splendor-server verify`, which checks a replay offline.
//!
//! # Shutdown
//! When the shutdown future resolves: `/readyz` answers 503 and new
//! WebSockets are refused; the listener stops accepting; every WebSocket is
//! closed with 1012 (service restart); the rooms finish what they were
//! doing ([`Lobby::drain`]), so an action being stored is stored; a node of
//! a cluster then hands its rooms off ([`Lobby::hand_off`]: they close,
//! their leases are given up, and the other nodes are told to take the
//! games over now); the storage is closed, which waits for queued writes.
//! All of it within [`Config::shutdown_grace`].
#![forbid(unsafe_code)]

mod admin;
mod analysis;
mod auto_audit;
mod bots;
pub mod cli;
mod cluster;
pub mod config;
mod finished_cache;
mod follows;
mod games;
mod http;
mod identity;
mod invitations;
pub mod l10n;
pub mod limits;
pub mod metrics;
mod my_games;
mod notify;
pub mod probe;
mod ratings;
mod sanctions;
mod state;
pub mod tcp;
mod tell;
pub mod verify;
mod web;
pub mod ws;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::get;
use axum::serve::ListenerExt;
use splendor_lobby::RestoreSummary;
use splendor_lobby::session::BoxFuture;
use splendor_lobby::stored::{StorePersistence, StoreSessions};
use splendor_lobby::{MemorySessions, NoPersistence, Persistence, SessionStore};
use splendor_store::{Store, StoreError};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::time::{Instant, timeout_at};
use tracing::{info, warn};

pub use config::{Config, DatabaseUrl, LogFormat};
pub use notify::outbound::TestNames;
pub use state::AppState;

/// The durable storage behind a server, as the operations side needs it.
/// (The rooms use it through [`Persistence`], the gateway through
/// [`SessionStore`].)
pub trait Storage: Send + Sync + 'static {
    /// Checks that the database answers, for `/readyz`. The error is logged,
    /// never shown to clients.
    fn ping(&self) -> BoxFuture<'_, Result<(), String>>;

    /// Waits until every queued write is committed, then closes. Called once,
    /// at shutdown, after the rooms have drained.
    fn close(&self) -> BoxFuture<'_, ()>;
}

impl Storage for Store {
    fn ping(&self) -> BoxFuture<'_, Result<(), String>> {
        Box::pin(async move { Store::ping(self).await.map_err(|e| e.to_string()) })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(Store::close(self))
    }
}

/// What a server keeps its games and sessions in.
pub struct Backend {
    /// Where games are stored.
    pub persistence: Arc<dyn Persistence>,
    /// Where sessions are kept.
    pub sessions: Arc<dyn SessionStore>,
    /// `None`: nothing to ping or close (memory only).
    pub storage: Option<Arc<dyn Storage>>,
    /// The database itself, read by the history API (finished games and
    /// their replays). `None`: no history.
    pub store: Option<Store>,
}

impl Backend {
    /// Sessions in memory, games nowhere.
    pub fn in_memory() -> Backend {
        Backend {
            persistence: Arc::new(NoPersistence),
            sessions: Arc::new(MemorySessions::new()),
            storage: None,
            store: None,
        }
    }

    /// Everything in the database: games as event logs, sessions by token
    /// hash, the history.
    pub fn database(store: Store) -> Backend {
        Backend {
            persistence: Arc::new(StorePersistence::new(store.clone())),
            sessions: Arc::new(StoreSessions::new(store.clone())),
            storage: Some(Arc::new(store.clone())),
            store: Some(store),
        }
    }
}

/// The server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The database cannot be opened (or migrated), or its games cannot be read.
    #[error("database {url}: {source}")]
    Database {
        /// The URL, password hidden.
        url: DatabaseUrl,
        /// What the store said.
        source: StoreError,
    },
    /// The listening socket failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// Cluster mode could not start (NATS unreachable).
    #[error("cluster: {0}")]
    Cluster(String),
}

/// The router: the WebSocket endpoint, the HTTP API and the operator endpoints.
/// `/metrics` is here only when no [`Config::metrics_listen`] is set: a
/// separate metrics address keeps it off the public port.
pub fn app(state: AppState) -> Router {
    let router = Router::new()
        .route("/ws", get(ws::upgrade))
        .route("/healthz", get(http::healthz))
        .route("/readyz", get(http::readyz));
    let router = if state.config().metrics_listen.is_none() {
        router.route("/metrics", get(http::metrics))
    } else {
        router
    };
    // The public API, counted per client address (the page's files, the
    // probes and /ws are not).
    let api = Router::new()
        .route("/api/rooms", get(http::rooms))
        .route("/api/catalogue", get(http::catalogue))
        .route("/api/games", get(games::list))
        .route("/api/games/{id}", get(games::detail))
        .route("/api/games/{id}/replay", get(games::replay))
        .route("/api/games/{id}/positions", get(games::positions))
        .route("/api/games/{id}/analysis", get(analysis::api::analysis))
        .route("/api/me/games", get(my_games::my_games))
        .route(
            "/api/me/invitations/{id}",
            axum::routing::delete(invitations::decline_route),
        )
        .route("/api/me/blocks", get(invitations::blocks))
        .route("/api/me/follows", get(follows::list))
        .route(
            "/api/me/follows/{player_id}",
            axum::routing::put(follows::follow).delete(follows::unfollow),
        )
        .route(
            "/api/me/notifications",
            get(notify::get).put(notify::put).delete(notify::delete),
        )
        .route("/api/push/key", get(notify::push_api::key))
        .route(
            "/api/me/push",
            get(notify::push_api::list)
                .put(notify::push_api::put)
                .delete(notify::push_api::delete),
        )
        .route("/api/leaderboard", get(ratings::leaderboard))
        .route("/api/bots/online", get(bots::online))
        .route("/api/bots/levels", get(bots::levels))
        .route("/api/players/{key}", get(ratings::player))
        .merge(identity::routes())
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            limits::api_rate::limit,
        ));
    router
        .merge(api)
        .merge(admin::routes(&state).unwrap_or_default())
        .merge(web::routes())
        .with_state(state)
}

/// The router of the metrics address ([`Config::metrics_listen`]): only
/// `GET /metrics`.
pub fn metrics_app(state: AppState) -> Router {
    Router::new()
        .route("/metrics", get(http::metrics))
        .with_state(state)
}

/// Opens the configured database ([`AppState::open`]), then serves on
/// `listener` until `shutdown` resolves, then shuts down as the crate doc
/// describes, within the configured grace.
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    let state = AppState::open(config).await?;
    serve(listener, state, shutdown).await?;
    Ok(())
}

fn log_restore(summary: &RestoreSummary) {
    info!(
        restored = summary.restored,
        viewable = summary.viewable,
        finished = summary.finished,
        abandoned = summary.abandoned,
        failed = summary.failed,
        "games restored"
    );
    if summary.failed > 0 {
        warn!(
            failed = summary.failed,
            "some games could not be restored; see the errors above"
        );
    }
}

/// Binds `addr` and serves [`metrics_app`] on it until the shutdown
/// begins; the task ends once the requests in flight are answered.
async fn serve_metrics(
    addr: SocketAddr,
    state: AppState,
) -> std::io::Result<tokio::task::JoinHandle<()>> {
    let listener = TcpListener::bind(addr).await.map_err(|e| {
        std::io::Error::new(
            e.kind(),
            format!("cannot listen on {addr} for /metrics (--metrics-listen): {e}"),
        )
    })?;
    let bound = listener.local_addr()?;
    info!(addr = %bound, "metrics listening");
    state.set_metrics_addr(bound);
    let mut shutdown = state.shutdown_signal();
    let server = axum::serve(listener, metrics_app(state)).with_graceful_shutdown(async move {
        let _ = shutdown.wait_for(|down| *down).await;
    });
    Ok(tokio::spawn(async move {
        if let Err(e) = server.await {
            warn!(error = %e, "the metrics listener failed");
        }
    }))
}

/// Deletes expired sessions now and then, until the server shuts down.
async fn prune_sessions_every(state: AppState) {
    let every = (state.config().unused_session_ttl / 2).clamp(Duration::from_secs(1), PRUNE_EVERY);
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        match state
            .prune_sessions(splendor_store::unix_millis_now())
            .await
        {
            Ok(0) => {}
            Ok(n) => info!(sessions = n, "expired sessions deleted"),
            Err(e) => warn!(error = %e, "could not delete expired sessions"),
        }
        if let (Some(retention), Some(store)) = (state.config().retention, state.store()) {
            let before = splendor_store::unix_millis_now()
                - i64::try_from(retention.as_millis()).unwrap_or(i64::MAX / 2);
            match store.prune_abandoned_games(before).await {
                Ok(0) => {}
                Ok(n) => info!(games = n, ?retention, "abandoned games deleted"),
                Err(e) => warn!(error = %e, "could not delete abandoned games"),
            }
        }
    }
}

/// How often expired sessions are looked for, at most.
const PRUNE_EVERY: Duration = Duration::from_secs(10 * 60);

/// Below this open-file limit the server warns at start: each connection
/// is a descriptor.
const LOW_FILE_LIMIT: u64 = 4096;

/// The least time the storage gets to close, even when the grace is spent.
const STORAGE_CLOSE_MIN: Duration = Duration::from_secs(1);

/// [`run`] with a prepared state. When the configuration names a
/// [`Config::metrics_listen`] address, `/metrics` is served there (bound
/// first: an address in use is an error before anything is served), and
/// not on `listener`.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let metrics_server = match state.config().metrics_listen {
        Some(addr) => Some(serve_metrics(addr, state.clone()).await?),
        None => None,
    };
    let grace = state.config().shutdown_grace;
    // When the shutdown began: the grace is counted from then.
    let (began_tx, mut began) = watch::channel(None::<Instant>);
    let trigger = state.clone();
    // Every connection is counted and given a request deadline
    // (`tcp.rs`), and sent with TCP_NODELAY: each message is written as
    // soon as it is queued. With Nagle's algorithm a state written right
    // after its events waited for the client's (delayed) acknowledgement of
    // the events: tens of milliseconds on a quiet server.
    let limits = state.config().tcp_limits();
    info!(
        max_tcp_connections = limits.total,
        per_peer = limits.per_peer,
        request_deadline = ?limits.request_deadline,
        "connection limits"
    );
    if let Some(files) = metrics::open_file_limit()
        && files < LOW_FILE_LIMIT
    {
        warn!(
            open_file_limit = files,
            max_tcp_connections = limits.total,
            "the process may open few files: raise it (ulimit -n, docker run --ulimit nofile=65536) to hold more players"
        );
    }
    bots::clear_on_start(&state).await;
    let pruning = tokio::spawn(prune_sessions_every(state.clone()));
    let seen = tokio::spawn(follows::touch_present_every(state.clone()));
    // `tap_io` (a no-op here) gives the guarded listener axum's ConnectInfo
    // of the peer's address.
    let listener =
        tcp::GuardedListener::new(listener, limits, state.metrics().clone()).tap_io(|_| {});
    let server = axum::serve(
        listener,
        app(state.clone()).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        shutdown.await;
        info!("shutting down: refusing new connections, closing WebSockets with 1012");
        began_tx.send_replace(Some(Instant::now()));
        trigger.shut_down();
    });
    // Plain HTTP requests still in flight get the grace, not forever.
    let http_deadline = async {
        let began = *began.wait_for(Option::is_some).await.ok()?.as_ref()?;
        tokio::time::sleep_until(began + grace).await;
        Some(())
    };
    tokio::select! {
        served = server => served?,
        Some(()) = http_deadline => warn!("HTTP requests still running after the grace period"),
    }
    let deadline = began.borrow().unwrap_or_else(Instant::now) + grace;
    if timeout_at(deadline, state.all_connections_closed())
        .await
        .is_err()
    {
        warn!(
            open = state.open_connections(),
            "connections still open after the grace period"
        );
    }
    pruning.abort();
    seen.abort();
    if timeout_at(deadline, state.lobby().drain()).await.is_err() {
        warn!("rooms still busy after the grace period");
    } else {
        info!(rooms = state.lobby().room_count(), "rooms drained");
    }
    cluster::stop_node(&state, deadline).await;
    if let Some(metrics_server) = metrics_server
        && timeout_at(deadline, metrics_server).await.is_err()
    {
        warn!("metrics requests still running after the grace period");
    }
    if let Some(storage) = state.storage() {
        let until = deadline.max(Instant::now() + STORAGE_CLOSE_MIN);
        match timeout_at(until, storage.close()).await {
            Ok(()) => info!("storage closed"),
            Err(_) => warn!("the storage did not close in time"),
        }
    }
    info!("stopped");
    Ok(())
}
