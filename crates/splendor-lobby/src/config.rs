//! Limits and timers of the lobby.

use std::time::Duration;

/// How rooms behave; the server builds this from its own configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyConfig {
    /// Commands a room queues before senders wait (backpressure on the
    /// connections, never on the room).
    pub room_queue: usize,
    /// A room whose game has not started, with a player connected, is
    /// closed after this long without activity: nobody joined, left,
    /// reconnected or asked the room anything.
    pub idle_room_ttl: Duration,
    /// A room whose game has not started is closed after this long without
    /// a connected player: long enough for a reload or a network change,
    /// short enough that rooms opened and abandoned in a loop do not pile
    /// up for the whole idle TTL.
    pub empty_room_ttl: Duration,
    /// A finished game stays viewable this long, then its room closes.
    pub finished_room_ttl: Duration,
    /// A running game whose players have all been disconnected this long is
    /// closed (a guard against rooms that nobody will come back to).
    pub abandoned_game_ttl: Duration,
    /// At most this many rooms at once.
    pub max_rooms: usize,
    /// At most this many spectators per room.
    pub max_spectators: usize,
    /// At most this many open rooms created by one session.
    pub max_rooms_per_session: usize,
    /// At most this many rooms waiting for players (not started) created
    /// from one [`OriginKey`](crate::OriginKey). Sessions cost nothing, so
    /// the per-session limit alone does not stop one client from filling
    /// `max_rooms`.
    pub max_waiting_rooms_per_origin: usize,
    /// Reserved for a turn clock: how long the player to act may take.
    /// Not enforced yet: the rules (RULES.md) say nothing of what happens
    /// when a clock runs out.
    pub turn_timeout: Option<Duration>,
}

impl Default for LobbyConfig {
    fn default() -> Self {
        LobbyConfig {
            room_queue: 64,
            idle_room_ttl: Duration::from_secs(60 * 60),
            empty_room_ttl: Duration::from_secs(60),
            finished_room_ttl: Duration::from_secs(30 * 60),
            abandoned_game_ttl: Duration::from_secs(24 * 60 * 60),
            max_rooms: 10_000,
            max_spectators: 32,
            max_rooms_per_session: 3,
            max_waiting_rooms_per_origin: 8,
            turn_timeout: None,
        }
    }
}
