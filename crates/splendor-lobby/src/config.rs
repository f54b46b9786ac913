//! Limits and timers of the lobby.

use std::time::Duration;

pub use splendor_room::config::{RoomConfig, TurnClock, TurnClockError};
use splendor_room::conn::NodeId;

/// How rooms behave; the server builds this from its own configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyConfig {
    /// Commands a room queues before senders wait (backpressure on the
    /// connections, never on the room).
    pub room_queue: usize,
    /// A room whose game has not started, with a player connected, is
    /// closed after this long without activity: nobody joined, left,
    /// reconnected or asked the room anything.
    pub room_idle_ttl: Duration,
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
    /// The most unfinished turn-based rooms (R12.5) one session may have
    /// created, counted apart from `max_rooms_per_session`.
    pub max_turn_based_rooms_per_session: usize,
    /// At most this many rooms waiting for players (not started) created
    /// from one client address ([`ClientKey`](crate::ClientKey)). Sessions
    /// cost nothing, so the per-session limit alone does not stop one
    /// client from filling `max_rooms`.
    pub max_waiting_rooms_per_ip: usize,
    /// At most this many unfinished rooms (waiting, playing or turn-based)
    /// created from one client address, on every node together (issue 45:
    /// fresh sessions each starting a turn-based game against a bot filled
    /// the server's rooms); when the server holds four fifths of
    /// `max_rooms`, a quarter of it. Zero: no limit.
    pub max_rooms_per_ip: usize,
    /// At most this many running games of built-in bots only (nobody
    /// seated but bots) made from one client address: such tables cost
    /// thinking time and entertain nobody at the table (issue 22).
    pub max_bot_tables_per_ip: usize,
    /// A built-in bot's move is applied no sooner than this after the
    /// position it answers, so that people can follow (the thinking runs
    /// meanwhile). Zero: at once.
    pub bot_delay: Duration,
    /// The `strong` level's budget per move.
    pub bot_budget: splendor_ai::Budget,
    /// How many bots may think at once, on tokio's blocking threads
    /// ([`ThinkPool`](crate::thinking::ThinkPool)).
    pub think_threads: usize,
    /// The moves of tables with no person connected think for at most
    /// this percent of the thinking threads' time (issue 45; a bucket of a
    /// few seconds lets a handful of such games through at once); 0 or
    /// 100: no limit.
    pub bots_only_think_percent: u8,
    /// The turn clock (R12.1) of rooms created without one, if any.
    pub turn_clock: Option<TurnClock>,
    /// Draws every room's RNG (its games' seeds and salts) from this seed
    /// and the room's creation number instead of the operating system:
    /// for the arena's reproducible series only. A public server must
    /// leave it `None`: seeds would be predictable.
    pub room_seed: Option<u64>,
    /// The deals (R2.5's seeds) of the first games of the rooms `create`
    /// makes, in order: the arena's series, so that a mirrored series with
    /// a program deals each deal once per seating, as a series of built-in
    /// levels does. Rooms past the list, rematches and quick play draw
    /// theirs. For the arena's embedded server only: a public server
    /// leaves it `None`.
    pub series_deals: Option<std::sync::Arc<[u64]>>,
    /// R12.2's shortest grace of a marked or away seat: 10 seconds. Only
    /// tests lower it (a game whose player is away plays out in moments).
    pub min_grace: Duration,
    /// R12.6: a short-clock game with nobody in play connected this long
    /// ends deserted: 2 minutes. Only tests lower it.
    pub deserted_after: Duration,
    /// R12.5's shortest time per move of a turn-based room: 1 hour. Only
    /// tests lower it (a day's game in seconds).
    pub min_per_move: Duration,
    /// This server's node: its connections' ids name it, and the room
    /// directory records it as the owner of its rooms (0 on one node).
    pub node: NodeId,
    /// A turn-based game whose people are all away and whose turn waits
    /// for one of them is parked in the store after this long (issue 25):
    /// its room's task ends. `None`: never (no database).
    pub park_after: Option<Duration>,
    /// How often the sweeper looks for parked games whose deadline passed.
    pub park_sweep_every: Duration,
}

impl Default for LobbyConfig {
    fn default() -> Self {
        LobbyConfig {
            room_queue: 64,
            room_idle_ttl: Duration::from_secs(60 * 60),
            empty_room_ttl: Duration::from_secs(60),
            finished_room_ttl: Duration::from_secs(30 * 60),
            abandoned_game_ttl: Duration::from_secs(24 * 60 * 60),
            max_rooms: 10_000,
            max_spectators: 32,
            max_rooms_per_session: 3,
            max_turn_based_rooms_per_session: 20,
            max_waiting_rooms_per_ip: 8,
            max_rooms_per_ip: 60,
            max_bot_tables_per_ip: 4,
            bot_delay: Duration::from_millis(1000),
            bot_budget: splendor_ai::Budget::DEFAULT,
            think_threads: crate::thinking::ThinkPool::default_threads(),
            bots_only_think_percent: 25,
            turn_clock: None,
            room_seed: None,
            series_deals: None,
            min_grace: splendor_room::config::MIN_GRACE,
            deserted_after: splendor_room::config::DESERTED_AFTER,
            min_per_move: splendor_room::MIN_PER_MOVE,
            node: NodeId::default(),
            park_after: None,
            park_sweep_every: Duration::from_secs(5),
        }
    }
}

impl LobbyConfig {
    /// The settings each room gets.
    pub fn room(&self) -> RoomConfig {
        RoomConfig {
            room_idle_ttl: self.room_idle_ttl,
            empty_room_ttl: self.empty_room_ttl,
            finished_room_ttl: self.finished_room_ttl,
            abandoned_game_ttl: self.abandoned_game_ttl,
            max_spectators: self.max_spectators,
            bot_delay: self.bot_delay,
            min_grace: self.min_grace,
            deserted_after: self.deserted_after,
            origin: None,
            park_after: self.park_after,
            // Node 0 is a single server's: it names no node.
            node: (self.node.0 != 0).then_some(self.node.0),
        }
    }
}
