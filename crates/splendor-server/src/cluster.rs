//! Cluster mode (issue 21): this server as one node of several behind one
//! address, on a shared PostgreSQL and NATS. Chosen by `--nats-url`; a
//! single node (the default) needs nothing of this.
//!
//! A node claims each room it makes in the database (`StoreDirectory`:
//! leases by the database's clock, renewed every third of
//! `--lease-ttl`), names its lease's epoch on every write of the room (the
//! store refuses a write of a room another node took over), and reaches
//! rooms on other nodes through `splendor-cluster`.

use std::sync::Arc;

use splendor_cluster::{Cluster, ClusterConfig};
use splendor_lobby::stored::{StorePersistence, StoreSessions};
use splendor_lobby::{Lobby, NodeId, StoreDirectory};
use splendor_store::Store;
use tracing::info;

use crate::config::Config;
use crate::metrics::{Metrics, TimedPersistence};
use crate::{AppState, ServerError};

/// The node the configuration names, or a fresh number.
fn node_id(config: &Config) -> NodeId {
    NodeId(
        config
            .cluster
            .node_id
            .unwrap_or_else(|| rand::random_range(1..=u16::MAX)),
    )
}

/// This server as a node of the cluster over `store` (PostgreSQL): its
/// lobby claims rooms in the database and reaches other nodes' rooms over
/// NATS.
pub(crate) async fn open_node(config: Config, store: Store) -> Result<AppState, ServerError> {
    let node = node_id(&config);
    let url = config.cluster.nats_url.clone().unwrap_or_default();
    let directory = Arc::new(StoreDirectory::new(store.clone(), config.cluster.lease_ttl));
    let metrics = Metrics::new();
    let persistence = Arc::new(TimedPersistence::new(
        Arc::new(StorePersistence::new(store.clone())),
        metrics.clone(),
    ));
    let mut lobby_config = config.lobby();
    lobby_config.node = node;
    let lobby = Lobby::with_directory(lobby_config, persistence, directory);
    let cluster = Cluster::start(&url, lobby.clone(), ClusterConfig::default())
        .await
        .map_err(|e| ServerError::Cluster(e.to_string()))?;
    lobby.spawn_lease_renewal();
    info!(%node, lease_ttl = ?config.cluster.lease_ttl, "a node of the cluster");
    Ok(AppState::assemble(
        config,
        lobby,
        Arc::new(StoreSessions::new(store.clone())),
        (Some(Arc::new(store.clone())), Some(store)),
        (metrics, Some(cluster)),
    ))
}
