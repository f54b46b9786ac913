//! One process per node id (issue 21). A node id names the owner of room
//! leases: two processes running as one id would renew each other's leases
//! and both believe they own the same rooms. Each process claims its id in
//! the database for an instance of its own and gives it up when it stops
//! cleanly ([`splendor_store::NodeClaim`]). The claim is the node's lease
//! (issue 44): its rooms live as long as it does, and the lobby's lease
//! renewal renews it (`StoreDirectory::by_node`); this module watches that
//! no other process took it.
//!
//! At start, an id whose claim is live is waited for up to two leases (a
//! node killed a moment ago and restarted under the same id finds its old
//! claim running out), then refused with a clear error; a fresh id (no
//! `--node-id`) that happens to be taken is swapped for another. A running
//! node that finds its claim taken by another process (it was paused or
//! cut off past its claim, and a process with the same id started
//! meanwhile) stops at once: every move it acknowledged is in the database,
//! as after kill -9.

use std::time::Duration;

use splendor_lobby::NodeId;
use splendor_store::Store;
use tokio::task::JoinHandle;
use tracing::{error, info, warn};

use crate::ServerError;
use crate::config::Config;

/// The exit code of a node whose id another process took (EX_CONFIG).
const EXIT_NODE_ID_TAKEN: i32 = 78;

/// How many fresh ids a node without `--node-id` tries.
const FRESH_TRIES: usize = 32;

/// This process's claim on its node id, watched in the background.
pub(crate) struct NodeIdClaim {
    store: Store,
    node: NodeId,
    instance: String,
    watch: JoinHandle<()>,
}

impl NodeIdClaim {
    /// Claims the configured node id (waiting up to two leases for a
    /// previous process's claim to run out), or a fresh one, and watches
    /// that no other process takes it (the lobby's lease renewal renews
    /// it).
    pub(crate) async fn claim(config: &Config, store: &Store) -> Result<NodeIdClaim, ServerError> {
        let ttl = config.cluster.lease_ttl;
        let instance = uuid::Uuid::from_u128(rand::random()).to_string();
        let node = match config.cluster.node_id {
            Some(id) => claim_named(store, id, &instance, ttl).await?,
            None => claim_fresh(store, &instance, ttl).await?,
        };
        let watch = tokio::spawn(watch(store.clone(), node, instance.clone(), ttl));
        Ok(NodeIdClaim {
            store: store.clone(),
            node,
            instance,
            watch,
        })
    }

    /// The node id this process runs as.
    pub(crate) fn node(&self) -> NodeId {
        self.node
    }

    /// This process's instance: what its claim, and so its rooms' leases,
    /// name.
    pub(crate) fn instance(&self) -> &str {
        &self.instance
    }

    /// Gives the id up (a clean stop): a node restarted under it starts at
    /// once.
    pub(crate) async fn release(&self) {
        self.watch.abort();
        match self.store.release_node(self.node.0, &self.instance).await {
            Ok(()) => info!(node = %self.node, "node id given up"),
            Err(e) => {
                warn!(node = %self.node, error = %e, "giving the node id up; it runs out with its lease")
            }
        }
    }
}

fn in_use(id: u16, holder: Option<splendor_store::NodeClaim>) -> ServerError {
    let holder = holder
        .map(|c| {
            format!(
                " (process {} since {} ms, Unix time)",
                c.instance, c.started_at
            )
        })
        .unwrap_or_default();
    ServerError::Cluster(format!(
        "node id {id} is in use by another running node{holder}: give every node its own SPLENDOR_NODE_ID (or none, for a fresh one)"
    ))
}

async fn claim_named(
    store: &Store,
    id: u16,
    instance: &str,
    ttl: Duration,
) -> Result<NodeId, ServerError> {
    let patience = tokio::time::Instant::now() + ttl * 2 + Duration::from_secs(1);
    let mut said = false;
    loop {
        if store
            .claim_node(id, instance, ttl)
            .await
            .map_err(|e| ServerError::Cluster(format!("claiming node id {id}: {e}")))?
            .is_some()
        {
            return Ok(NodeId(id));
        }
        if tokio::time::Instant::now() >= patience {
            let holder = store.node_claim(id).await.ok().flatten();
            return Err(in_use(id, holder));
        }
        if !said {
            info!(
                node = id,
                "node id still claimed (a previous process of this node?): waiting for the claim to run out"
            );
            said = true;
        }
        tokio::time::sleep((ttl / 4).max(Duration::from_millis(50))).await;
    }
}

async fn claim_fresh(store: &Store, instance: &str, ttl: Duration) -> Result<NodeId, ServerError> {
    for _ in 0..FRESH_TRIES {
        let id = rand::random_range(1..=u16::MAX);
        if store
            .claim_node(id, instance, ttl)
            .await
            .map_err(|e| ServerError::Cluster(format!("claiming node id {id}: {e}")))?
            .is_some()
        {
            return Ok(NodeId(id));
        }
    }
    Err(ServerError::Cluster(format!(
        "no free node id in {FRESH_TRIES} tries"
    )))
}

/// Looks every third of the lease at who holds the id; stops the process
/// if another does. Reads only: the lobby's lease renewal renews the claim
/// (one row a round, issue 44).
async fn watch(store: Store, node: NodeId, instance: String, ttl: Duration) {
    let mut tick = tokio::time::interval((ttl / 3).max(Duration::from_millis(50)));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tick.tick().await;
    loop {
        tick.tick().await;
        match store.node_claim(node.0).await {
            // Ours, or none live (lapsed: the renewal takes it again).
            Ok(None) => {}
            Ok(Some(claim)) if claim.instance == instance => {}
            Ok(Some(holder)) => {
                error!(
                    %node,
                    other = holder.instance,
                    "another process now runs as this node (it claimed the id while this one was paused or cut off: are two nodes given the same SPLENDOR_NODE_ID?); stopping at once"
                );
                std::process::exit(EXIT_NODE_ID_TAKEN);
            }
            Err(e) => warn!(%node, error = %e, "looking at the node id's claim"),
        }
    }
}
