//! `Config::default()`: the values of the flags' defaults, in one place
//! for code and tests that build a configuration without parsing flags.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use splendor_lobby::{LobbyConfig, TurnClock};

use super::{AdminOptions, AnalysisOptions, ClusterOptions, Config, LogFormat, StorageTuning};
use crate::limits::NamePolicy;

impl Default for Config {
    /// The same values as the flags' defaults (a unit test checks this).
    fn default() -> Self {
        let lobby = LobbyConfig::default();
        let names = NamePolicy::default();
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            allowed_origins: Vec::new(),
            allow_same_origin: true,
            client_ip_header: None,
            public_url: None,
            metrics_listen: None,
            shutdown_grace: Duration::from_secs(10),
            data_dir: PathBuf::from("./data"),
            database_url: None,
            storage: StorageTuning::default(),
            log_format: LogFormat::Pretty,
            log: "info".into(),
            max_connections: 0,
            max_tcp_connections: 0,
            max_tcp_per_peer: 64,
            request_deadline: Duration::from_secs(10),
            max_connections_per_ip: 16,
            max_connects_per_ip_per_minute: 120,
            max_api_requests_per_ip_per_minute: 600,
            refusal_pause_ms: 1000,
            max_frame_bytes: 16 * 1024,
            max_messages_per_second: 20,
            message_burst: 40,
            outbound_queue: 256,
            idle_timeout: Duration::from_secs(5 * 60),
            heartbeat_interval: Duration::from_secs(20),
            heartbeat_timeout: Duration::from_secs(60),
            max_name_chars: names.max_chars as u16,
            max_name_width: names.max_width as u16,
            name_chars: names.chars,
            max_rooms: lobby.max_rooms,
            max_rooms_per_session: lobby.max_rooms_per_session,
            max_turn_based_rooms_per_session: lobby.max_turn_based_rooms_per_session,
            max_invitations_per_hour: 20,
            max_sessions_per_ip_per_hour: 100,
            shared_program_names: false,
            ladder_games_per_owner: 2,
            ladder_games_per_address: 8,
            ladder_retry_ms: 15_000,
            max_waiting_rooms_per_ip: lobby.max_waiting_rooms_per_ip,
            max_rooms_per_ip: lobby.max_rooms_per_ip,
            unlimited_addresses: Vec::new(),
            max_bot_tables_per_ip: lobby.max_bot_tables_per_ip,
            max_spectators: lobby.max_spectators,
            room_idle_ttl: lobby.room_idle_ttl,
            empty_room_ttl: lobby.empty_room_ttl,
            finished_room_ttl: lobby.finished_room_ttl,
            abandoned_game_ttl: lobby.abandoned_game_ttl,
            session_ttl: Duration::from_secs(30 * 24 * 3600),
            unused_session_ttl: Duration::from_secs(3600),
            bot_delay_ms: lobby.bot_delay.as_millis() as u64,
            bot_threads: 0,
            bots_only_think_percent: lobby.bots_only_think_percent,
            bot_max_iterations: (lobby.bot_budget.iterations != u32::MAX)
                .then_some(lobby.bot_budget.iterations),
            strong_time_cap_ms: lobby
                .bot_budget
                .time_cap
                .map_or(0, |c| c.as_millis() as u64),
            turn_clock: lobby.turn_clock,
            quick_play_clock: TurnClock::new(Duration::from_secs(300), Duration::from_secs(10))
                .unwrap_or_else(|_| unreachable!("5m+10s is a clock")),
            queue_away_ttl: Duration::from_secs(60),
            cluster: ClusterOptions::default(),
            admin: AdminOptions::default(),
            analysis: AnalysisOptions::default(),
            word_filter: None,
            retention: None,
            min_per_move: lobby.min_per_move,
            push_contact: None,
            park_after: Duration::from_secs(5 * 60),
            park_sweep_every: Duration::from_secs(5),
            webhook_allow_private: false,
            webhook_ports: Vec::new(),
            max_positions_per_second: 20,
            test_names: None,
            min_grace: None,
            deserted_after: None,
            room_seed: None,
            series_deals: None,
        }
    }
}
