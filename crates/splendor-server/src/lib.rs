//! The Splendor server: an axum gateway in front of the lobby.
//!
//! - [`run`] serves on a listener until a shutdown future resolves; the
//!   binary (`main.rs`) only parses the [`Config`], sets up logging and
//!   calls it, so tests can start the same server on port 0.
//! - [`app`] builds the router: `GET /ws` (the game protocol,
//!   docs/PROTOCOL.md), `GET /api/rooms`, `GET /healthz`.
//! - [`ws`]: one task pair per WebSocket (reader and writer). The reader
//!   parses each frame, checks its shape, attaches the connection's own
//!   session (never one the client names) and forwards an intent to the
//!   room; the gateway never touches game state.
//! - [`config`]: flags and `SPLENDOR_*` environment variables.
#![forbid(unsafe_code)]

pub mod config;
mod http;
pub mod limits;
pub mod metrics;
pub mod ws;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::get;
use splendor_lobby::{Lobby, MemorySessions, NoPersistence, SessionStore};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tracing::{info, warn};

pub use config::Config;

/// How long `run` waits for open WebSockets to close after a shutdown.
const CLOSE_GRACE: Duration = Duration::from_secs(10);

/// Everything a request handler needs. Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<AppInner>,
}

struct AppInner {
    config: Config,
    lobby: Lobby,
    sessions: Arc<dyn SessionStore>,
    /// Set to true once: every connection then closes with 1001.
    shutdown: watch::Sender<bool>,
    /// The number of open WebSocket connections.
    connections: watch::Sender<usize>,
}

impl AppState {
    /// A server keeping sessions in memory and games nowhere.
    pub fn new(config: Config) -> AppState {
        let lobby = Lobby::new(config.lobby(), Arc::new(NoPersistence));
        AppState::with_parts(config, lobby, Arc::new(MemorySessions::new()))
    }

    /// A server over the given lobby and session store.
    pub fn with_parts(config: Config, lobby: Lobby, sessions: Arc<dyn SessionStore>) -> AppState {
        AppState {
            inner: Arc::new(AppInner {
                config,
                lobby,
                sessions,
                shutdown: watch::channel(false).0,
                connections: watch::channel(0).0,
            }),
        }
    }

    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    pub fn lobby(&self) -> &Lobby {
        &self.inner.lobby
    }

    pub fn sessions(&self) -> &dyn SessionStore {
        self.inner.sessions.as_ref()
    }

    /// Tells every WebSocket connection to close (code 1001).
    pub fn shut_down(&self) {
        self.inner.shutdown.send_replace(true);
    }

    pub(crate) fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.inner.shutdown.subscribe()
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

    async fn all_connections_closed(&self) {
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

/// The router: the WebSocket endpoint and the HTTP API.
pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/", get(http::index))
        .route("/ws", get(ws::upgrade))
        .route("/healthz", get(http::healthz))
        .route("/api/rooms", get(http::rooms))
        .with_state(state)
}

/// Serves on `listener` until `shutdown` resolves, then closes every
/// WebSocket (1001) and returns once they are closed (or after a grace period).
pub async fn run(
    listener: TcpListener,
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve(listener, AppState::new(config), shutdown).await
}

/// [`run`] with a prepared state.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let trigger = state.clone();
    axum::serve(listener, app(state.clone()))
        .with_graceful_shutdown(async move {
            shutdown.await;
            info!("shutting down");
            trigger.shut_down();
        })
        .await?;
    if tokio::time::timeout(CLOSE_GRACE, state.all_connections_closed())
        .await
        .is_err()
    {
        warn!(
            open = state.open_connections(),
            "connections still open after the grace period"
        );
    }
    Ok(())
}
