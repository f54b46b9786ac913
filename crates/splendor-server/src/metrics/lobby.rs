//! The lobby's figures, read at each scrape: rooms by status, people,
//! and the rooms' counters and latencies.

use std::fmt;
use std::sync::{Arc, OnceLock};

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric, NoLabelSet};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::registry::Unit;
use splendor_lobby::Lobby;

/// Reads the lobby at each scrape: rooms by status, and its counters.
pub(super) struct LobbyCollector {
    pub(super) lobby: Arc<OnceLock<Lobby>>,
}

impl fmt::Debug for LobbyCollector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("LobbyCollector")
    }
}

impl Collector for LobbyCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), fmt::Error> {
        let Some(lobby) = self.lobby.get() else {
            return Ok(());
        };
        let counts = lobby.room_counts();
        let gauge = ConstGauge::new(0i64);
        let mut rooms = encoder.encode_descriptor(
            "rooms",
            "Open rooms, by status",
            None,
            gauge.metric_type(),
        )?;
        for (status, n) in [
            ("waiting", counts.waiting),
            ("playing", counts.playing),
            ("finished", counts.finished),
        ] {
            let n = i64::try_from(n).unwrap_or(i64::MAX);
            ConstGauge::new(n).encode(rooms.encode_family(&[("status", status)])?)?;
        }
        let mut players = encoder.encode_descriptor(
            "players",
            "People seated in rooms, connected or away (bots not counted)",
            None,
            gauge.metric_type(),
        )?;
        for (state, n) in [
            ("connected", counts.players_connected),
            (
                "away",
                counts
                    .players_seated
                    .saturating_sub(counts.players_connected),
            ),
        ] {
            let n = i64::try_from(n).unwrap_or(i64::MAX);
            ConstGauge::new(n).encode(players.encode_family(&[("state", state)])?)?;
        }
        for (name, help, n) in [
            ("bots", "Built-in bots seated in rooms", counts.bots),
            ("spectators", "Spectators in rooms", counts.spectators),
        ] {
            let g = ConstGauge::new(i64::try_from(n).unwrap_or(i64::MAX));
            let metric = encoder.encode_descriptor(name, help, None, g.metric_type())?;
            g.encode(metric)?;
        }
        let stats = lobby.stats();
        for (name, help, value) in [
            (
                "games_started",
                "Games started in this process",
                stats.games_started,
            ),
            (
                "games_finished",
                "Games that reached their end in this process",
                stats.games_finished,
            ),
            (
                "actions_applied",
                "Game actions applied (durable and broadcast)",
                stats.actions_applied,
            ),
            (
                "bot_actions",
                "Game actions made by built-in bots",
                stats.bot_actions,
            ),
            (
                "stand_in_actions",
                "Game actions made by stand-ins for players out of time (R12.2)",
                stats.stand_in_actions,
            ),
            (
                "clock_timeouts",
                "Turn clocks that ran out (R12.2)",
                stats.clock_timeouts,
            ),
            (
                "bot_table_waits",
                "Moves of tables of bots only that waited for their address's turn to think",
                stats.bot_table_waits,
            ),
            (
                "bots_share_waits",
                "Moves of tables with no person connected that waited for their share of the thinking threads' time",
                stats.bots_share_waits,
            ),
        ] {
            let counter = ConstCounter::new(value);
            let metric = encoder.encode_descriptor(name, help, None, counter.metric_type())?;
            counter.encode(metric)?;
        }
        let think = &stats.think_time;
        let mut metric = encoder.encode_descriptor(
            "bot_think",
            "How long built-in bots thought per move",
            Some(&Unit::Seconds),
            MetricType::Histogram,
        )?;
        metric.encode_histogram::<NoLabelSet>(think.sum, think.count, &think.per_bucket(), None)?;
        let latency = &stats.action_latency;
        let mut metric = encoder.encode_descriptor(
            "action_latency",
            "From an action reaching its room to its broadcast being queued, commit included",
            Some(&Unit::Seconds),
            MetricType::Histogram,
        )?;
        metric.encode_histogram::<NoLabelSet>(
            latency.sum,
            latency.count,
            &latency.per_bucket(),
            None,
        )?;
        Ok(())
    }
}
