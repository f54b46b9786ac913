//! A node's figures in a cluster (issue 21), read at each scrape: its
//! number, the rooms it owns, what it forwarded to and got from the other
//! nodes and how long its forwarded calls took, and its lease renewals.
//! Nothing is written on a single server.

use std::fmt;
use std::sync::{Arc, OnceLock};

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric, NoLabelSet};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::registry::Unit;
use splendor_cluster::Cluster;
use splendor_lobby::Lobby;

pub(super) struct ClusterCollector {
    pub(super) cluster: Arc<OnceLock<(Cluster, Lobby)>>,
}

impl fmt::Debug for ClusterCollector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ClusterCollector")
    }
}

impl Collector for ClusterCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), fmt::Error> {
        let Some((cluster, lobby)) = self.cluster.get() else {
            return Ok(());
        };
        let node = lobby.config().node.0.to_string();
        let info = ConstGauge::new(1i64);
        let mut metric = encoder.encode_descriptor(
            "node_info",
            "This node's number in the cluster (always 1)",
            None,
            info.metric_type(),
        )?;
        info.encode(metric.encode_family(&[("node", node.as_str())])?)?;
        let owned = ConstGauge::new(i64::try_from(lobby.room_count()).unwrap_or(i64::MAX));
        let metric = encoder.encode_descriptor(
            "rooms_owned",
            "Rooms this node owns (holds the lease of), whatever their status",
            None,
            owned.metric_type(),
        )?;
        owned.encode(metric)?;
        let stats = cluster.stats();
        let lobby_stats = lobby.stats();
        let counter = ConstCounter::new(0u64);
        for (name, help, pairs) in [
            (
                "node_calls",
                "Room requests forwarded between nodes: out to a room's owner, in to this node's rooms",
                [("out", stats.calls_out), ("in", stats.calls_in)],
            ),
            (
                "node_deliveries",
                "Messages for connections held by another node: out from this node's rooms, in to this node's connections",
                [("out", stats.delivered_out), ("in", stats.delivered_in)],
            ),
        ] {
            let mut metric = encoder.encode_descriptor(name, help, None, counter.metric_type())?;
            for (direction, n) in pairs {
                ConstCounter::new(n).encode(metric.encode_family(&[("direction", direction)])?)?;
            }
        }
        for (name, help, n) in [
            (
                "node_calls_failed",
                "Forwarded requests that got no answer (no owner there, NATS down, timed out): room_unavailable",
                stats.calls_failed,
            ),
            (
                "lease_renewals_failed",
                "Lease renewals that could not reach the database",
                lobby_stats.lease_renewals_failed,
            ),
            (
                "leases_lost",
                "Rooms closed because another node took their lease over",
                lobby_stats.leases_lost,
            ),
        ] {
            let c = ConstCounter::new(n);
            let metric = encoder.encode_descriptor(name, help, None, c.metric_type())?;
            c.encode(metric)?;
        }
        let calls = &stats.call_time;
        let mut metric = encoder.encode_descriptor(
            "node_call",
            "How long a request forwarded to a room's owner took, answer included",
            Some(&Unit::Seconds),
            MetricType::Histogram,
        )?;
        metric.encode_histogram::<NoLabelSet>(calls.sum, calls.count, &calls.per_bucket(), None)?;
        Ok(())
    }
}
