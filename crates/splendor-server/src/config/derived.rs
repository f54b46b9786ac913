//! What the settings make: the database URL, the lobby's configuration,
//! the connection limits and policies, and the checks of settings that
//! depend on each other (`Config::check`).

use std::time::Duration;

use splendor_lobby::LobbyConfig;

use super::{Config, DatabaseUrl};
use crate::limits::{NamePolicy, OriginPolicy};

impl Config {
    /// How the store runs: the storage tuning, and every PostgreSQL call
    /// bounded in time (issue 44).
    pub fn store_config(&self) -> splendor_store::StoreConfig {
        splendor_store::StoreConfig {
            bound: Some(self.cluster.store_bound()),
            ..self.storage.store_config()
        }
    }

    /// The database URL the server opens: `--database-url`, or else the
    /// SQLite file `splendor.db` in `--data-dir`.
    pub fn database_url(&self) -> DatabaseUrl {
        self.database_url.clone().unwrap_or_else(|| {
            DatabaseUrl(format!(
                "sqlite://{}",
                self.data_dir.join("splendor.db").display()
            ))
        })
    }

    /// The lobby's part of the configuration.
    pub fn lobby(&self) -> LobbyConfig {
        LobbyConfig {
            room_idle_ttl: self.room_idle_ttl,
            empty_room_ttl: self.empty_room_ttl,
            finished_room_ttl: self.finished_room_ttl,
            abandoned_game_ttl: self.abandoned_game_ttl,
            max_rooms: self.max_rooms,
            max_rooms_per_session: self.max_rooms_per_session,
            max_turn_based_rooms_per_session: self.max_turn_based_rooms_per_session,
            max_waiting_rooms_per_ip: self.max_waiting_rooms_per_ip,
            max_rooms_per_ip: self.max_rooms_per_ip,
            max_bot_tables_per_ip: self.max_bot_tables_per_ip,
            max_spectators: self.max_spectators,
            bot_delay: Duration::from_millis(self.bot_delay_ms),
            think_threads: match self.bot_threads {
                0 => splendor_lobby::ThinkPool::default_threads(),
                n => n,
            },
            bots_only_think_percent: self.bots_only_think_percent,
            bot_budget: splendor_ai::Budget {
                iterations: self.bot_max_iterations.unwrap_or(u32::MAX),
                time_cap: (self.strong_time_cap_ms > 0)
                    .then(|| Duration::from_millis(self.strong_time_cap_ms)),
            },
            turn_clock: self.turn_clock,
            room_seed: self.room_seed,
            series_deals: self.series_deals.clone(),
            min_grace: self.min_grace.unwrap_or(LobbyConfig::default().min_grace),
            deserted_after: self
                .deserted_after
                .unwrap_or(LobbyConfig::default().deserted_after),
            min_per_move: self.min_per_move,
            park_after: (!self.park_after.is_zero()).then_some(self.park_after),
            park_sweep_every: self.park_sweep_every,
            ..LobbyConfig::default()
        }
    }

    /// The limits on TCP connections (`max_tcp_connections` 0: sized from
    /// the process's open-file limit).
    pub fn tcp_limits(&self) -> crate::tcp::TcpLimits {
        crate::tcp::TcpLimits {
            request_deadline: (!self.request_deadline.is_zero()).then_some(self.request_deadline),
            per_peer: self.max_tcp_per_peer,
            total: match self.max_tcp_connections {
                0 => crate::tcp::default_total(crate::metrics::open_file_limit()),
                n => n,
            },
        }
    }

    /// The most WebSockets at once (`max_connections` 0: the TCP cap).
    pub fn websocket_cap(&self) -> usize {
        match self.max_connections {
            0 => self.tcp_limits().total,
            n => n,
        }
    }

    /// How display names are checked.
    pub fn name_policy(&self) -> NamePolicy {
        NamePolicy {
            max_chars: usize::from(self.max_name_chars),
            chars: self.name_chars,
            max_width: usize::from(self.max_name_width),
        }
    }

    /// Which pages may open a WebSocket.
    pub fn origin_policy(&self) -> OriginPolicy {
        OriginPolicy::new(self.allowed_origins.clone(), self.allow_same_origin)
    }

    /// Checks what single flags cannot: settings that depend on each other.
    pub fn check(&self) -> Result<(), String> {
        if self.heartbeat_timeout <= self.heartbeat_interval {
            return Err(format!(
                "--heartbeat-timeout ({:?}) must be longer than --heartbeat-interval ({:?}), \
                 or every client is dropped between two pings",
                self.heartbeat_timeout, self.heartbeat_interval
            ));
        }
        if self.max_frame_bytes == 0 {
            return Err("--max-frame-bytes must be at least 1".into());
        }
        if self.max_waiting_rooms_per_ip == 0 {
            return Err(
                "--max-waiting-rooms-per-ip must be at least 1, or no one could create a room"
                    .into(),
            );
        }
        if let Some(metrics) = self.metrics_listen
            && metrics == self.listen
            && metrics.port() != 0
        {
            return Err(format!(
                "--metrics-listen ({metrics}) must differ from --listen ({}): it is meant to \
                 keep /metrics off the public port",
                self.listen
            ));
        }
        if self.cluster.enabled() && !self.database_url().is_postgres() {
            return Err(
                "--nats-url makes this server a node of a cluster, and the nodes share their \
                 games through PostgreSQL: give a postgres:// --database-url"
                    .into(),
            );
        }
        self.admin.token()?;
        if let Some(retention) = self.retention
            && retention <= self.abandoned_game_ttl
        {
            return Err(format!(
                "--retention ({retention:?}) must be longer than --abandoned-game-ttl ({:?}): a game is pruned only once it can no longer be reopened",
                self.abandoned_game_ttl
            ));
        }
        if let Some(path) = &self.word_filter {
            crate::limits::WordFilter::load(path)?;
        }
        if let Some(url) = &self.public_url {
            check_public_url(url)?;
        }
        if let Some(header) = &self.client_ip_header
            && axum::http::HeaderName::from_bytes(header.as_bytes()).is_err()
        {
            return Err(format!(
                "--client-ip-header {header:?} is not a header name"
            ));
        }
        Ok(())
    }
}

/// `--public-url`: an http(s) address with a host, no query or fragment.
fn check_public_url(url: &str) -> Result<(), String> {
    let bad = |why: &str| Err(format!("--public-url {url:?}: {why}"));
    let Some(rest) = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
    else {
        return bad("it must start with https:// (or http://)");
    };
    let host = rest.split('/').next().unwrap_or_default();
    if host.is_empty() {
        return bad("it names no host");
    }
    if url.contains(['?', '#', ' ', '"', '<', '>']) || url.chars().any(char::is_control) {
        return bad("it must be a plain address, with no query, fragment or spaces");
    }
    if url.len() > 200 {
        return bad("it is longer than 200 characters");
    }
    Ok(())
}
