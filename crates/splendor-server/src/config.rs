//! Server configuration: command-line flags, each with an environment
//! variable (`SPLENDOR_*`) and a default.

use std::net::SocketAddr;
use std::time::Duration;

use clap::Parser;
use splendor_lobby::LobbyConfig;

/// The hard limit of one WebSocket message. A frame above
/// [`Config::max_frame_bytes`] but below this is answered with
/// `frame_too_large` and the connection stays usable; above this the
/// connection is closed with code 1009, as the stream cannot be read on.
pub const HARD_FRAME_LIMIT: usize = 1 << 20;

/// How the server runs.
#[derive(Clone, Debug, PartialEq, Eq, Parser)]
#[command(
    name = "splendor-server",
    version,
    about = "An authoritative Splendor game server"
)]
pub struct Config {
    /// The address to listen on.
    #[arg(long, env = "SPLENDOR_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: SocketAddr,

    /// The largest client frame, in bytes, that is read; larger frames get a
    /// `frame_too_large` error.
    #[arg(long, env = "SPLENDOR_MAX_FRAME_BYTES", default_value_t = 16 * 1024)]
    pub max_frame_bytes: usize,

    /// Messages queued for one connection before it counts as too slow and
    /// is disconnected.
    #[arg(long, env = "SPLENDOR_OUTBOUND_QUEUE", default_value_t = 256)]
    pub outbound_queue: usize,

    /// A room whose game has not started closes after this long without a
    /// connected player (e.g. 90s, 10m, 1h).
    #[arg(long, env = "SPLENDOR_ROOM_IDLE_TTL", default_value = "10m", value_parser = parse_duration)]
    pub room_idle_ttl: Duration,

    /// A finished game stays viewable this long.
    #[arg(long, env = "SPLENDOR_FINISHED_ROOM_TTL", default_value = "30m", value_parser = parse_duration)]
    pub finished_room_ttl: Duration,

    /// A running game whose players have all been away this long is closed.
    #[arg(long, env = "SPLENDOR_ABANDONED_GAME_TTL", default_value = "24h", value_parser = parse_duration)]
    pub abandoned_game_ttl: Duration,

    /// The most rooms open at once.
    #[arg(long, env = "SPLENDOR_MAX_ROOMS", default_value_t = 10_000)]
    pub max_rooms: usize,

    /// The most spectators in one room.
    #[arg(long, env = "SPLENDOR_MAX_SPECTATORS", default_value_t = 32)]
    pub max_spectators: usize,
}

impl Default for Config {
    /// The same values as the flags' defaults (a unit test checks this).
    fn default() -> Self {
        let lobby = LobbyConfig::default();
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            max_frame_bytes: 16 * 1024,
            outbound_queue: 256,
            room_idle_ttl: lobby.idle_room_ttl,
            finished_room_ttl: lobby.finished_room_ttl,
            abandoned_game_ttl: lobby.abandoned_game_ttl,
            max_rooms: lobby.max_rooms,
            max_spectators: lobby.max_spectators,
        }
    }
}

impl Config {
    /// The lobby's part of the configuration.
    pub fn lobby(&self) -> LobbyConfig {
        LobbyConfig {
            idle_room_ttl: self.room_idle_ttl,
            finished_room_ttl: self.finished_room_ttl,
            abandoned_game_ttl: self.abandoned_game_ttl,
            max_rooms: self.max_rooms,
            max_spectators: self.max_spectators,
            ..LobbyConfig::default()
        }
    }
}

/// Reads a duration: a number with a unit `ms`, `s`, `m` or `h`, or a bare
/// number of seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let n: u64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration like 250ms, 30s, 10m or 2h"))?;
    let millis = match unit.trim() {
        "ms" => Some(n),
        "" | "s" => n.checked_mul(1_000),
        "m" => n.checked_mul(60_000),
        "h" => n.checked_mul(3_600_000),
        other => return Err(format!("unknown unit {other:?}; use ms, s, m or h")),
    };
    millis
        .map(Duration::from_millis)
        .ok_or_else(|| format!("{text:?} is too long"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_the_flags() {
        assert_eq!(
            Config::try_parse_from(["splendor-server"]).unwrap(),
            Config::default()
        );
    }

    #[test]
    fn flags_override_defaults() {
        let config = Config::try_parse_from([
            "splendor-server",
            "--listen",
            "0.0.0.0:9000",
            "--room-idle-ttl",
            "250ms",
        ])
        .unwrap();
        assert_eq!(config.listen.port(), 9000);
        assert_eq!(config.lobby().idle_room_ttl, Duration::from_millis(250));
    }

    #[test]
    fn durations_read_like_people_write_them() {
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert!(parse_duration("").is_err());
        assert!(parse_duration("m").is_err());
        assert!(parse_duration("5d").is_err());
        assert!(parse_duration("-5s").is_err());
        assert!(parse_duration("99999999999999999999h").is_err());
    }
}
