//! How the store commits (issue 20).

use std::time::Duration;

use clap::Args;

use super::parse::parse_duration;

/// The store's tuning.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct StorageTuning {
    /// Group commit's wait on SQLite, as PostgreSQL's commit_delay: when
    /// the last commit carried two writes or more (the server is busy), the
    /// writer waits for more before the next commit, so that one fsync
    /// serves them all: a quarter of this after a commit of two, all of it
    /// after one of eight or more. A lone move on a quiet server never
    /// waits. It costs busy servers up to this much latency and saves
    /// about a sixth of their CPU per move (docs/BENCHMARKS.md); 0 turns it
    /// off. No move is acknowledged before its commit either way.
    /// PostgreSQL has its own (commit_delay in postgresql.conf).
    #[arg(long, env = "SPLENDOR_COMMIT_DELAY", default_value = "2ms", value_parser = parse_duration, help_heading = "Storage")]
    pub commit_delay: Duration,
}

impl Default for StorageTuning {
    fn default() -> StorageTuning {
        StorageTuning {
            commit_delay: splendor_store::StoreConfig::default().commit_delay,
        }
    }
}

impl StorageTuning {
    /// The store's configuration with this tuning.
    pub fn store_config(&self) -> splendor_store::StoreConfig {
        splendor_store::StoreConfig {
            commit_delay: self.commit_delay,
            ..splendor_store::StoreConfig::default()
        }
    }
}
