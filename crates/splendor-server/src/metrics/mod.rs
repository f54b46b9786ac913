//! The server's figures, served at `GET /metrics` in the Prometheus
//! (OpenMetrics) text format.
//!
//! The registry belongs to one server: there is no global recorder, so
//! several servers in one test process keep separate figures. What the
//! gateway sees (connections, messages, rejected intents, refused
//! handshakes, close reasons) is counted as it happens; what the rooms do
//! (rooms by status, games, actions) is read from the lobby at each scrape
//! (`LobbyCollector`); the store's commit latency is measured around the
//! room's persistence step ([`TimedPersistence`]).
//!
//! | metric | type | labels |
//! |---|---|---|
//! | `splendor_connections` | gauge | |
//! | `splendor_connections_accepted_total` | counter | |
//! | `splendor_connections_refused_total` | counter | `reason` |
//! | `splendor_connections_closed_total` | counter | `reason` |
//! | `splendor_messages_received_total` | counter | |
//! | `splendor_messages_sent_total` | counter | |
//! | `splendor_notices_total` | counter | `reason` (`sent`, `failed`, `dropped`) |
//! | `splendor_intents_rejected_total` | counter | `code` |
//! | `splendor_rooms` | gauge | `status` |
//! | `splendor_games_started_total` | counter | |
//! | `splendor_games_finished_total` | counter | |
//! | `splendor_actions_applied_total` | counter | |
//! | `splendor_store_commit_seconds` | histogram | `op` |
//! | `splendor_bot_actions_total`, `splendor_stand_in_actions_total`, `splendor_clock_timeouts_total` | counter | |
//! | `splendor_bot_table_waits_total` | counter | | moves of tables of bots only that waited for their address's turn to think (issue 45) |
//! | `splendor_bots_share_waits_total` | counter | | moves of tables with no person connected that waited for their share of the thinking threads' time (issue 45) |
//! | `splendor_bot_think_seconds`, `splendor_action_latency_seconds` | histogram | |
//! | `splendor_players` | gauge | `state` |
//! | `splendor_bots`, `splendor_spectators`, `splendor_games_restored` | gauge | |
//! | `splendor_request_deadlines_total` | counter | |
//! | `splendor_build_info` | gauge | `version` |
//! | `splendor_ready` | gauge | |
//! | `splendor_api_requests_limited_total` | counter | |
//! | `splendor_writes_fenced_total`, `splendor_rooms_taken_over_total` | counter | |
//! | in a cluster: `splendor_node_info` | gauge | `node` |
//! | in a cluster: `splendor_rooms_owned` | gauge | |
//! | in a cluster: `splendor_node_calls_total`, `splendor_node_deliveries_total` | counter | `direction` (`out`, `in`) |
//! | in a cluster: `splendor_node_calls_failed_total`, `splendor_lease_renewals_failed_total`, `splendor_leases_lost_total` | counter | |
//! | in a cluster: `splendor_node_call_seconds` | histogram | |
//! | `splendor_process_*` | gauge, counter | |

mod cluster;
mod lobby;
mod process;
pub use process::open_file_limit;

use std::fmt;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use self::cluster::ClusterCollector;
use self::lobby::LobbyCollector;
use self::process::ProcessCollector;
use splendor_lobby::session::BoxFuture;
use splendor_lobby::{CloseReason, Lobby, PersistError, Persistence, Stored, Write};

/// The content type of [`Metrics::render`]'s output.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Reason {
    reason: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Code {
    code: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Op {
    op: &'static str,
}

/// Why a WebSocket handshake was refused, as a metric label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The page's origin is not allowed (403).
    Origin,
    /// The client address holds the most connections allowed (429).
    PerIpLimit,
    /// The client address opened too many connections this minute (429).
    ConnectRate,
    /// The server holds the most connections allowed (503).
    ServerFull,
    /// The server is shutting down (503).
    ShuttingDown,
    /// Before any HTTP: the TCP peer holds the most connections allowed
    /// (closed at once).
    TcpPerPeer,
    /// Before any HTTP: the server holds the most TCP connections allowed
    /// (closed at once).
    TcpFull,
}

impl Refusal {
    fn label(self) -> &'static str {
        match self {
            Refusal::Origin => "origin",
            Refusal::PerIpLimit => "per_ip_limit",
            Refusal::ConnectRate => "connect_rate",
            Refusal::ServerFull => "server_full",
            Refusal::ShuttingDown => "shutting_down",
            Refusal::TcpPerPeer => "tcp_per_peer",
            Refusal::TcpFull => "tcp_full",
        }
    }
}

fn close_label(reason: CloseReason) -> &'static str {
    match reason {
        CloseReason::Normal => "normal",
        CloseReason::Replaced => "replaced",
        CloseReason::TooSlow => "too_slow",
        CloseReason::MessageTooBig => "message_too_big",
        CloseReason::ShuttingDown => "service_restart",
        CloseReason::RateLimited => "rate_limited",
        CloseReason::Idle => "idle",
        CloseReason::HeartbeatTimeout => "heartbeat_timeout",
        CloseReason::Banned => "banned",
        CloseReason::Revoked => "revoked",
    }
}

type HistogramFamily = Family<Op, Histogram, fn() -> Histogram>;

/// Every figure of one server. Cheap to clone; clones share the figures.
#[derive(Clone)]
pub struct Metrics {
    inner: Arc<Inner>,
}

struct Inner {
    registry: Registry,
    connections: Gauge,
    accepted: Counter,
    refused: Family<Reason, Counter>,
    closed: Family<Reason, Counter>,
    received: Counter,
    sent: Counter,
    notices: Family<Reason, Counter>,
    rejected: Family<Code, Counter>,
    commit_seconds: HistogramFamily,
    request_deadlines: Counter,
    restored: Gauge,
    queued: Counter,
    matches: Counter,
    writes_fenced: Counter,
    taken_over: Counter,
    api_limited: Counter,
    ready: Gauge,
    /// The lobby read at each scrape, once there is one.
    lobby: Arc<OnceLock<Lobby>>,
    /// In a cluster: the node's part in it, read at each scrape.
    cluster: Arc<OnceLock<(splendor_cluster::Cluster, Lobby)>>,
}

impl fmt::Debug for Metrics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Metrics")
    }
}

/// Commit latency buckets: 0.25 ms to about 4 s, doubling.
fn commit_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.000_25, 2.0, 15))
}

impl Metrics {
    /// The figures of a server. The lobby's are added by [`Metrics::watch_lobby`]
    /// (the lobby is built after the metrics, which time its persistence).
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("splendor");
        let connections = Gauge::default();
        registry.register(
            "connections",
            "Open WebSocket connections",
            connections.clone(),
        );
        let accepted = Counter::default();
        registry.register(
            "connections_accepted",
            "WebSocket connections accepted",
            accepted.clone(),
        );
        let refused = Family::<Reason, Counter>::default();
        registry.register(
            "connections_refused",
            "WebSocket handshakes refused, by reason",
            refused.clone(),
        );
        let ready = Gauge::default();
        registry.register(
            "ready",
            "1 while the server is ready (what /readyz says at the scrape), else 0",
            ready.clone(),
        );
        let api_limited = Counter::default();
        registry.register(
            "api_requests_limited",
            "HTTP API requests refused (429) by the per-address limit",
            api_limited.clone(),
        );
        let closed = Family::<Reason, Counter>::default();
        registry.register(
            "connections_closed",
            "WebSocket connections closed by the server or the client, by reason",
            closed.clone(),
        );
        let request_deadlines = Counter::default();
        registry.register(
            "request_deadlines",
            "Connections closed because no complete request arrived in time",
            request_deadlines.clone(),
        );
        let received = Counter::default();
        registry.register(
            "messages_received",
            "Messages received from clients",
            received.clone(),
        );
        let sent = Counter::default();
        registry.register("messages_sent", "Messages sent to clients", sent.clone());
        let notices = Family::<Reason, Counter>::default();
        registry.register(
            "notices",
            "Notices to players away (webhooks): sent, failed, or dropped (queue full)",
            notices.clone(),
        );
        let rejected = Family::<Code, Counter>::default();
        registry.register(
            "intents_rejected",
            "Client requests answered with an error, by error code",
            rejected.clone(),
        );
        let commit_seconds: HistogramFamily = Family::new_with_constructor(commit_histogram);
        registry.register(
            "store_commit_seconds",
            "Time for a room's write to become durable (queue and commit), by operation",
            commit_seconds.clone(),
        );
        let restored = Gauge::default();
        registry.register(
            "games_restored",
            "Games this process put back into rooms at start (running, and finished ones still viewable)",
            restored.clone(),
        );
        let queued = Counter::default();
        registry.register(
            "quick_play_queued",
            "Sessions that entered a quick-play queue",
            queued.clone(),
        );
        let matches = Counter::default();
        registry.register(
            "quick_play_games",
            "Rated games the quick-play queues formed",
            matches.clone(),
        );
        let writes_fenced = Counter::default();
        registry.register(
            "writes_fenced",
            "Writes of a room refused because another node took the room over (a cluster)",
            writes_fenced.clone(),
        );
        let taken_over = Counter::default();
        registry.register(
            "rooms_taken_over",
            "Games this node took over from a node that died, paused or was cut off (a cluster)",
            taken_over.clone(),
        );
        let lobby = Arc::new(OnceLock::new());
        registry.register_collector(Box::new(LobbyCollector {
            lobby: lobby.clone(),
        }));
        let cluster = Arc::new(OnceLock::new());
        registry.register_collector(Box::new(ClusterCollector {
            cluster: cluster.clone(),
        }));
        registry.register_collector(Box::new(ProcessCollector));
        Metrics {
            inner: Arc::new(Inner {
                registry,
                connections,
                accepted,
                refused,
                closed,
                received,
                sent,
                notices,
                rejected,
                commit_seconds,
                request_deadlines,
                restored,
                queued,
                matches,
                writes_fenced,
                taken_over,
                api_limited,
                ready,
                lobby,
                cluster,
            }),
        }
    }

    /// Reports the rooms, games and actions of `lobby`. The first lobby
    /// given is kept.
    pub fn watch_lobby(&self, lobby: &Lobby) {
        let _ = self.inner.lobby.set(lobby.clone());
    }

    /// Reads this node's figures of the cluster at each scrape from now on.
    pub fn watch_cluster(&self, cluster: &splendor_cluster::Cluster, lobby: &Lobby) {
        let _ = self.inner.cluster.set((cluster.clone(), lobby.clone()));
    }

    /// The figures in the OpenMetrics text format ([`CONTENT_TYPE`]).
    pub fn render(&self) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.inner.registry);
        out
    }

    /// A connection was accepted; it counts as open until the guard drops.
    pub fn connection_opened(&self) -> OpenConnection {
        self.inner.accepted.inc();
        self.inner.connections.inc();
        OpenConnection {
            metrics: self.clone(),
        }
    }

    /// Records how many games were restored at start.
    pub fn games_restored(&self, n: usize) {
        self.inner
            .restored
            .set(i64::try_from(n).unwrap_or(i64::MAX));
    }

    /// Counts a connection closed for want of a complete request in time.
    pub fn request_deadline_passed(&self) {
        self.inner.request_deadlines.inc();
    }

    /// Whether the server is ready now (set at each scrape).
    pub fn set_ready(&self, ready: bool) {
        self.inner.ready.set(i64::from(ready));
    }

    /// Counts an HTTP API request refused by the per-address limit.
    pub fn api_request_limited(&self) {
        self.inner.api_limited.inc();
    }

    /// Counts a connection refused at the handshake.
    pub fn connection_refused(&self, why: Refusal) {
        self.inner
            .refused
            .get_or_create(&Reason {
                reason: why.label(),
            })
            .inc();
    }

    /// Counts a connection that ended, by why.
    pub fn connection_closed(&self, why: CloseReason) {
        self.inner
            .closed
            .get_or_create(&Reason {
                reason: close_label(why),
            })
            .inc();
    }

    /// Counts a session entering a quick-play queue.
    pub fn session_queued(&self) {
        self.inner.queued.inc();
    }

    /// Counts a game the quick-play queues formed.
    pub fn quick_play_game(&self) {
        self.inner.matches.inc();
    }

    /// Counts a message from a client.
    pub fn message_received(&self) {
        self.inner.received.inc();
    }

    /// Counts a message to a client.
    pub fn message_sent(&self) {
        self.inner.sent.inc();
    }

    /// Counts a notice to a player away (issue 25): `sent`, `failed` or
    /// `dropped`.
    pub fn notice(&self, outcome: &'static str) {
        self.inner
            .notices
            .get_or_create(&Reason { reason: outcome })
            .inc();
    }

    /// A game this node took over (a cluster).
    pub fn room_taken_over(&self) {
        self.inner.taken_over.inc();
    }

    /// A request was answered with the error `code`.
    pub fn intent_rejected(&self, code: &str) {
        // Codes come from the server's own fixed lists, so the label set is bounded.
        self.inner
            .rejected
            .get_or_create(&Code {
                code: code.to_owned(),
            })
            .inc();
    }

    fn observe_commit(&self, op: &'static str, started: Instant) {
        self.inner
            .commit_seconds
            .get_or_create(&Op { op })
            .observe(started.elapsed().as_secs_f64());
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

/// An open connection, for the `splendor_connections` gauge.
pub struct OpenConnection {
    metrics: Metrics,
}

impl Drop for OpenConnection {
    fn drop(&mut self) {
        self.metrics.inner.connections.dec();
    }
}

/// A [`Persistence`] that times every write of the one it wraps, for
/// `splendor_store_commit_seconds`. Failed writes are timed too: a slow
/// failure is a figure a host wants to see.
pub struct TimedPersistence {
    inner: Arc<dyn Persistence>,
    metrics: Metrics,
}

impl TimedPersistence {
    /// `inner`, its commits timed into `metrics`.
    pub fn new(inner: Arc<dyn Persistence>, metrics: Metrics) -> TimedPersistence {
        TimedPersistence { inner, metrics }
    }
}

impl Persistence for TimedPersistence {
    fn write(&self, write: Write) -> BoxFuture<'_, Result<Stored, PersistError>> {
        Box::pin(self.timed(write, None))
    }

    fn write_fenced(
        &self,
        write: Write,
        epoch: u64,
    ) -> BoxFuture<'_, Result<Stored, PersistError>> {
        Box::pin(self.timed(write, Some(epoch)))
    }
}

impl TimedPersistence {
    /// The inner write, fenced or not, with its commit timed.
    async fn timed(&self, write: Write, fence: Option<u64>) -> Result<Stored, PersistError> {
        let kind = write.kind();
        let started = Instant::now();
        let outcome = match fence {
            Some(epoch) => self.inner.write_fenced(write, epoch).await,
            None => self.inner.write(write).await,
        };
        // Reading the log back is not a commit.
        if kind != "load_log" {
            self.metrics.observe_commit(kind, started);
        }
        if let Err(e) = &outcome
            && e.kind == splendor_lobby::PersistErrorKind::Fenced
        {
            self.metrics.inner.writes_fenced.inc();
        }
        outcome
    }
}

#[cfg(test)]
mod tests;
