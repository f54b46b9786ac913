//! Cluster mode (issue 21): this server as one node of several behind one
//! address, on a shared PostgreSQL and NATS. Chosen by `--nats-url`; a
//! single node (the default) needs nothing of this.
//!
//! A node claims each room it makes in the database (`StoreDirectory`:
//! leases by the database's clock, renewed every third of
//! `--lease-ttl`), names its lease's epoch on every write of the room (the
//! store refuses a write of a room another node took over), and reaches
//! rooms on other nodes through `splendor-cluster`.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use splendor_cluster::{Cluster, ClusterConfig};
use splendor_lobby::stored::{StorePersistence, StoreSessions};
use splendor_lobby::take_over_orphans;
use splendor_lobby::{ConnId, Lobby, RoomCode, StoreDirectory};
use splendor_store::Store;
use tokio::sync::mpsc;
use tracing::{info, warn};

use crate::config::Config;
pub(crate) use node_id::NodeIdClaim;

mod node_id;
use crate::metrics::{Metrics, TimedPersistence};
use crate::{AppState, ServerError};

/// This server as a node of the cluster over `store` (PostgreSQL): its
/// lobby claims rooms in the database and reaches other nodes' rooms over
/// NATS.
pub(crate) async fn open_node(config: Config, store: Store) -> Result<AppState, ServerError> {
    let claim = NodeIdClaim::claim(&config, &store).await?;
    let node = claim.node();
    let url = config.cluster.nats_url.clone().unwrap_or_default();
    // The node's rooms live by its claim on its id (issue 44): one row
    // renewed a round, whatever the number of rooms.
    let directory = Arc::new(StoreDirectory::by_node(
        store.clone(),
        config.cluster.lease_ttl,
        node,
        claim.instance().to_owned(),
    ));
    let metrics = Metrics::new();
    let persistence = Arc::new(TimedPersistence::new(
        Arc::new(StorePersistence::new(store.clone())),
        metrics.clone(),
    ));
    let mut lobby_config = config.lobby();
    lobby_config.node = node;
    let lobby = Lobby::with_directory(lobby_config, persistence, directory);
    // NATS pinged every quarter lease: a link gone silent is seen within
    // about a lease (issue 44), as a lost database is.
    let cluster_config = ClusterConfig {
        ping_interval: (config.cluster.lease_ttl / 4).max(std::time::Duration::from_millis(100)),
        ..ClusterConfig::default()
    };
    let cluster = Cluster::start(&url, lobby.clone(), cluster_config)
        .await
        .map_err(|e| ServerError::Cluster(e.to_string()))?;
    let renewal = lobby.spawn_lease_renewal();
    let nudges = Nudges::default();
    cluster.on_moved(Arc::new({
        let (nudges, lobby) = (nudges.clone(), lobby.clone());
        move |room, held| {
            // The connections that were in the room through the old owner,
            // and those whose session waits for it (a resume while it had
            // no owner).
            let mut conns = held;
            conns.extend(lobby.presence().connections_in(room));
            conns.sort();
            conns.dedup();
            for conn in conns {
                nudges.nudge(conn, room);
            }
        }
    }));
    tokio::spawn(take_over(
        lobby.clone(),
        store.clone(),
        cluster.clone(),
        metrics.clone(),
        config.cluster.lease_ttl,
    ));
    info!(%node, lease_ttl = ?config.cluster.lease_ttl, "a node of the cluster");
    let state = AppState::assemble(
        config,
        lobby,
        Arc::new(StoreSessions::new(store.clone())),
        Some(Arc::new(store.clone())),
        Some(store),
        metrics,
        Some(cluster.clone()),
    );
    state.set_node(NodeLocal {
        nudges,
        claim,
        renewal,
    });
    state.metrics().watch_cluster(&cluster, state.lobby());
    if let Some(store) = state.store().cloned() {
        tokio::spawn(evict_when_cut_off(state.clone(), store, config_ttl(&state)));
    }
    // Bans made on other nodes reach this node's open connections.
    // So do tokens revoked on other nodes (issue 23): that device's
    // connections here close.
    let sanctions = state.sanctions().clone();
    let lobby = state.lobby().clone();
    cluster.on_sanctioned(Arc::new(move |wire| {
        if wire.kind == crate::identity::REVOKED_DEVICE {
            crate::identity::revoked_elsewhere(lobby.presence(), &wire.value);
        } else if let Some(ban) = crate::sanctions::Ban::from_wire(&wire) {
            sanctions.tell(ban);
        }
    }));
    // Quick play's waiters and rematches across nodes: a game formed here
    // for a session waiting on another node is announced, and one formed
    // elsewhere for a session waiting here reaches its connection.
    state
        .lobby()
        .waiters()
        .set_remote(Arc::new(cluster.clone()));
    let lobby = state.lobby().clone();
    cluster.on_matched(Arc::new(move |session, found| {
        lobby.waiters().notify_here(session, found);
    }));
    // Challenges and their answers (issue 24) for sessions connected here.
    let told = state.clone();
    cluster.on_told(Arc::new(move |session, json| {
        crate::tell::told(&told, session, json);
    }));
    Ok(state)
}

/// Looks, every quarter lease and whenever a stopping node handed its rooms
/// off, for games whose owner is gone (their lease expired or was given
/// up) and takes them over: restores each from its log, then tells
/// every node, so that the connections in the room join it here.
async fn take_over(
    lobby: Lobby,
    store: Store,
    cluster: splendor_cluster::Cluster,
    metrics: Metrics,
    ttl: Duration,
) {
    let mut settled = HashSet::new();
    let mut tick = tokio::time::interval((ttl / 4).max(Duration::from_millis(100)));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // A node that stops hands its rooms off and says so: no need to wait
    // for the next round.
    let handed_off = cluster.handed_off();
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            () = handed_off.notified() => {}
        }
        match take_over_orphans(&lobby, &store, &mut settled).await {
            Ok(taken) => {
                for code in taken {
                    metrics.room_taken_over();
                    if let Some(lease) = lobby.lease_of(code) {
                        cluster.announce_moved(lease).await;
                    }
                }
            }
            Err(e) => warn!(error = %e, "looking for games to take over"),
        }
    }
}

fn config_ttl(state: &AppState) -> Duration {
    state.config().cluster.lease_ttl
}

/// A node that cannot reach the database for a lease has given its rooms
/// up (`Lobby::spawn_lease_renewal`: their leases may have run out and
/// other nodes take them over) and cannot serve a move: it closes its
/// WebSockets with 1012, once per outage, so that their clients reconnect
/// through the load balancer (which sends them elsewhere: `/readyz`
/// answers 503 meanwhile) to a node that can. Without this, a node cut
/// from both the database and NATS kept its players forever: no
/// announcement of the takeover could reach them.
///
/// The database is asked every quarter lease and each ask waits at most
/// until a lease has passed since the last answer (issue 44): a link gone
/// silent answers nothing, and the decision must not wait for the network
/// to give up; a busy pool answers late, which still counts.
async fn evict_when_cut_off(state: AppState, store: Store, ttl: Duration) {
    let every = (ttl / 4).max(Duration::from_millis(50));
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_ok = tokio::time::Instant::now();
    let mut evicted = false;
    loop {
        tick.tick().await;
        let asked = tokio::time::Instant::now();
        // A late answer (a busy pool) still counts while within the lease.
        let until = (last_ok + ttl).max(asked + every);
        let ok = matches!(
            tokio::time::timeout_at(until, store.ping()).await,
            Ok(Ok(()))
        );
        if ok {
            if evicted {
                info!("the database answers again");
            }
            last_ok = asked;
            evicted = false;
        } else if !evicted && last_ok.elapsed() >= ttl {
            warn!(
                connections = state.open_connections(),
                "cut off from the database for a lease: closing the WebSockets (1012) so that their players reconnect to a node that can play"
            );
            state.evict_all();
            evicted = true;
        }
    }
}

/// What only a node of a cluster has.
pub(crate) struct NodeLocal {
    /// The connections told when their room moved.
    pub(crate) nudges: Nudges,
    /// Its claim on its node id.
    pub(crate) claim: NodeIdClaim,
    /// The lobby's lease renewal, which renews that claim (issue 44):
    /// stopped before the claim is given up, so that a stopping node does
    /// not take it again.
    pub(crate) renewal: Option<tokio::task::JoinHandle<()>>,
}

/// A node stops: after its connections closed and its rooms drained, it
/// hands its rooms off and says so (another node takes its games over
/// now, not when their leases would run out), then gives its node id up.
pub(crate) async fn stop_node(state: &AppState, deadline: tokio::time::Instant) {
    let Some(cluster) = state.cluster() else {
        return;
    };
    match tokio::time::timeout_at(deadline, state.lobby().hand_off()).await {
        // Bounded by itself: NATS may be away.
        Ok(rooms) => cluster.announce_handed_off(rooms).await,
        Err(_) => warn!("rooms not handed off within the grace period: their leases run out"),
    }
    if let Some(node) = state.node_local() {
        if let Some(renewal) = &node.renewal {
            renewal.abort();
        }
        node.claim.release().await;
    }
}

/// The connections of this node that are told when their room moved to
/// another node (their reader joins it again where it lives now).
#[derive(Clone, Default)]
pub(crate) struct Nudges(Arc<Mutex<HashMap<ConnId, mpsc::UnboundedSender<RoomCode>>>>);

impl Nudges {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<ConnId, mpsc::UnboundedSender<RoomCode>>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Registers a connection; its reader hears on the receiver.
    pub(crate) fn register(&self, conn: ConnId) -> mpsc::UnboundedReceiver<RoomCode> {
        let (tx, rx) = mpsc::unbounded_channel();
        self.lock().insert(conn, tx);
        rx
    }

    /// Forgets a connection that ended.
    pub(crate) fn forget(&self, conn: ConnId) {
        self.lock().remove(&conn);
    }

    fn nudge(&self, conn: ConnId, room: RoomCode) {
        if let Some(tx) = self.lock().get(&conn) {
            let _ = tx.send(room);
        }
    }
}
