//! Several nodes behind one address (issue 21). Off unless a NATS URL is
//! given: a single node needs nothing of this.

use std::time::Duration;

use clap::Args;

use super::parse::parse_positive_duration;

/// The longest database call of a single server on PostgreSQL: no lease
/// to keep, only a silent link to stop waiting on (its moves are refused
/// meanwhile and `/readyz` says the database is unreachable).
pub(crate) const SINGLE_SERVER_BOUND: Duration = Duration::from_secs(30);

/// The cluster's settings.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct ClusterOptions {
    /// Run as one node of a cluster: the NATS server the nodes talk
    /// through (nats://host:4222). Needs a PostgreSQL --database-url that
    /// every node shares.
    #[arg(long, env = "SPLENDOR_NATS_URL", help_heading = "Cluster")]
    pub nats_url: Option<String>,
    /// This node's number in the cluster (1 to 65535), unique among the
    /// nodes; by default a fresh one at every start.
    #[arg(long, env = "SPLENDOR_NODE_ID", value_parser = clap::value_parser!(u16).range(1..), help_heading = "Cluster")]
    pub node_id: Option<u16>,
    /// How long a node's claim on its rooms lives unless renewed (every
    /// third of it): a dead or cut-off node's rooms are taken over by
    /// another node after at most this long and a quarter (the other nodes
    /// look for orphans every quarter of it). 2 s gives a takeover within
    /// about 2.5 s and survived the 1000-room load (docs/BENCHMARKS.md).
    #[arg(long, env = "SPLENDOR_LEASE_TTL", default_value = "2s", value_parser = parse_positive_duration, help_heading = "Cluster")]
    pub lease_ttl: Duration,
}

impl Default for ClusterOptions {
    fn default() -> ClusterOptions {
        ClusterOptions {
            nats_url: None,
            node_id: None,
            lease_ttl: Duration::from_secs(2),
        }
    }
}

impl ClusterOptions {
    /// The longest any one database call of this server may take (issue
    /// 44, `StoreConfig::bound`): a node's lease, so that a link to
    /// PostgreSQL that goes silent holds no room's write and no lease
    /// row's lock past it; a single server on PostgreSQL
    /// [`SINGLE_SERVER_BOUND`].
    pub fn store_bound(&self) -> Duration {
        if self.enabled() {
            self.lease_ttl
        } else {
            SINGLE_SERVER_BOUND
        }
    }

    /// Whether this server is a node of a cluster.
    pub fn enabled(&self) -> bool {
        self.nats_url.is_some()
    }
}
