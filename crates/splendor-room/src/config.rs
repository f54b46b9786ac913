//! What a room needs to know of the server's settings ([`RoomConfig`]),
//! and the turn clock's settings (R12.1).

use std::time::Duration;

pub use splendor_protocol::OnDeadline;

/// The shortest grace of a marked seat (R12.2).
pub const MIN_GRACE: Duration = Duration::from_secs(10);

/// R12.6: how long nobody in play may be connected.
pub const DESERTED_AFTER: Duration = Duration::from_secs(120);

/// At most this many chat messages per person in [`CHAT_WINDOW`].
pub(crate) const CHAT_BURST: usize = 5;
/// The window of the chat rate limit.
pub(crate) const CHAT_WINDOW: Duration = Duration::from_secs(10);
/// At most this many chat messages from all the room's spectators together
/// in [`CHAT_WINDOW`]: a crowd of spectators cannot flood the players. The
/// seated players' lines are never counted with them (issue 45: six
/// spectators used up the room's budget and the players could not write):
/// a player is held to [`CHAT_BURST`] alone.
pub(crate) const SPECTATORS_CHAT_BURST: usize = 10;

/// The settings a room uses, passed in by whoever makes the room (the
/// lobby builds them from its own configuration): the room knows nothing
/// of the process's other limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomConfig {
    /// A room whose game has not started, with a player connected, is
    /// closed after this long without activity.
    pub room_idle_ttl: Duration,
    /// A room whose game has not started is closed after this long without
    /// a connected player; a finished one after this long with nobody,
    /// player or spectator, in it.
    pub empty_room_ttl: Duration,
    /// A finished game stays viewable this long (while anyone is in its
    /// room, see `empty_room_ttl`), then its room closes.
    pub finished_room_ttl: Duration,
    /// A running game whose players have all been away this long is closed.
    pub abandoned_game_ttl: Duration,
    /// At most this many spectators.
    pub max_spectators: usize,
    /// A built-in bot's move is applied no sooner than this after the
    /// position it answers, so that people can follow. Zero: at once.
    pub bot_delay: Duration,
    /// R12.2's shortest grace of a marked or away seat: 10 seconds. Only
    /// tests lower it.
    pub min_grace: Duration,
    /// A turn-based game (R12.5) whose people are all away and whose turn
    /// waits for one of them is parked after this long: its state is in
    /// the store, and the room's task ends (issue 25). `None`: never (a
    /// server without a database).
    pub park_after: Option<Duration>,
    /// R12.6: a short-clock game with nobody in play connected this long
    /// ends deserted: 2 minutes ([`DESERTED_AFTER`]).
    /// Only tests lower it.
    pub deserted_after: Duration,
    /// The client address the room was made from (the gateway's key, an
    /// opaque text here), kept with its game when it parks so that a
    /// parked game still counts in its address's budget (issue 45); `None`
    /// for a room of no counted address, and for restored rooms.
    pub origin: Option<String>,
    /// The node that runs the room, when the server runs as several nodes
    /// (`room` says it, so that a client may reconnect to it); `None` on a
    /// single server.
    pub node: Option<u16>,
}

impl Default for RoomConfig {
    fn default() -> Self {
        RoomConfig {
            room_idle_ttl: Duration::from_secs(60 * 60),
            empty_room_ttl: Duration::from_secs(60),
            finished_room_ttl: Duration::from_secs(30 * 60),
            abandoned_game_ttl: Duration::from_secs(24 * 60 * 60),
            max_spectators: 32,
            bot_delay: Duration::from_millis(1000),
            min_grace: MIN_GRACE,
            park_after: None,
            deserted_after: DESERTED_AFTER,
            origin: None,
            node: None,
        }
    }
}

/// A turn clock: a Fischer clock (R12.1: a time bank per player, and an
/// increment added when each of their turns ends; whole seconds, a bank of
/// 1 second to 7 days, an increment of 0 to 1 day), or a turn-based room's
/// time per move (R12.5: a deadline for each turn, 1 hour to 14 days, and
/// what passing it means).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnClock {
    /// The bank; per move, the time of each turn.
    bank: Duration,
    increment: Duration,
    /// `Some` in a turn-based room (R12.5).
    per_move: Option<OnDeadline>,
}

/// The shortest time per move of a turn-based room (R12.5).
pub const MIN_PER_MOVE: Duration = Duration::from_secs(60 * 60);
/// The longest time per move of a turn-based room (R12.5).
pub const MAX_PER_MOVE: Duration = Duration::from_secs(14 * DAY);

/// A clock outside what R12.1 allows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TurnClockError {
    /// The bank is not 1 second to 7 days in whole seconds.
    #[error("a clock's bank is 1 second to 7 days in whole seconds (R12.1), not {0:?}")]
    Bank(Duration),
    /// The increment is not 0 to 1 day in whole seconds.
    #[error("a clock's increment is 0 to 1 day in whole seconds (R12.1), not {0:?}")]
    Increment(Duration),
    /// The time per move is not 1 hour to 14 days in whole seconds.
    #[error("a time per move is 1 hour to 14 days in whole seconds (R12.5), not {0:?}")]
    PerMove(Duration),
    /// The text is not `BANK+INCREMENT`.
    #[error(
        "{0:?} is not a clock: write BANK+INCREMENT in seconds, minutes, hours or days, like 5m+10s or 1d+0s"
    )]
    Syntax(String),
}

impl TurnClockError {
    /// What a person who asked for this clock is told.
    pub fn words(&self) -> splendor_protocol::Words {
        use splendor_protocol::Words;
        match self {
            TurnClockError::Bank(d) => Words::new("clock-bank").text("value", format!("{d:?}")),
            TurnClockError::Increment(d) => {
                Words::new("clock-increment").text("value", format!("{d:?}"))
            }
            TurnClockError::PerMove(d) => {
                Words::new("clock-per-move").text("value", format!("{d:?}"))
            }
            // Only the command line parses clocks from text.
            TurnClockError::Syntax(_) => Words::new("room-internal"),
        }
    }
}

const DAY: u64 = 24 * 60 * 60;

impl TurnClock {
    /// A clock of `bank` and `increment`, checked against R12.1.
    pub fn new(bank: Duration, increment: Duration) -> Result<TurnClock, TurnClockError> {
        let whole = |d: Duration| d.subsec_nanos() == 0;
        if !whole(bank) || bank < Duration::from_secs(1) || bank > Duration::from_secs(7 * DAY) {
            return Err(TurnClockError::Bank(bank));
        }
        if !whole(increment) || increment > Duration::from_secs(DAY) {
            return Err(TurnClockError::Increment(increment));
        }
        Ok(TurnClock {
            bank,
            increment,
            per_move: None,
        })
    }

    /// A turn-based room's clock (R12.5): `time` for each turn, 1 hour to
    /// 14 days in whole seconds, and what a passed deadline means.
    pub fn per_move(time: Duration, on_deadline: OnDeadline) -> Result<TurnClock, TurnClockError> {
        if time.subsec_nanos() != 0 || time < MIN_PER_MOVE || time > MAX_PER_MOVE {
            return Err(TurnClockError::PerMove(time));
        }
        Ok(TurnClock {
            bank: time,
            increment: Duration::ZERO,
            per_move: Some(on_deadline),
        })
    }

    /// The same clock with `time` per move but no bounds checked: for
    /// tests that stand seconds for days only
    /// ([`RoomConfig`] has no say in it; the server's test setting does).
    pub fn per_move_unchecked(time: Duration, on_deadline: OnDeadline) -> TurnClock {
        TurnClock {
            bank: time,
            increment: Duration::ZERO,
            per_move: Some(on_deadline),
        }
    }

    /// Each player's time at the start; in a turn-based room, the time of
    /// every turn.
    pub fn bank(self) -> Duration {
        self.bank
    }

    /// In a turn-based room (R12.5), what a passed deadline means; `None`
    /// for a Fischer clock.
    pub fn on_deadline(self) -> Option<OnDeadline> {
        self.per_move
    }

    /// A turn-based room's clock (R12.5).
    pub fn is_per_move(self) -> bool {
        self.per_move.is_some()
    }

    /// Added when each of a player's turns ends.
    pub fn increment(self) -> Duration {
        self.increment
    }
}

impl std::str::FromStr for TurnClock {
    type Err = TurnClockError;

    /// `BANK+INCREMENT`, each a whole number with a unit: `s`, `m`, `h` or
    /// `d` (`5m+10s`, `1d+0s`).
    fn from_str(text: &str) -> Result<TurnClock, TurnClockError> {
        let syntax = || TurnClockError::Syntax(text.to_owned());
        let (bank, increment) = text.trim().split_once('+').ok_or_else(syntax)?;
        let part = |p: &str| -> Result<Duration, TurnClockError> {
            let p = p.trim();
            let unit = match p.chars().last().ok_or_else(syntax)? {
                's' => 1,
                'm' => 60,
                'h' => 60 * 60,
                'd' => DAY,
                _ => return Err(syntax()),
            };
            let n: u64 = p[..p.len() - 1].parse().map_err(|_| syntax())?;
            n.checked_mul(unit)
                .map(Duration::from_secs)
                .ok_or_else(syntax)
        };
        TurnClock::new(part(bank)?, part(increment)?)
    }
}

impl std::fmt::Display for TurnClock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.per_move {
            None => write!(f, "{}s+{}s", self.bank.as_secs(), self.increment.as_secs()),
            Some(OnDeadline::StandIn) => write!(f, "{}s per move", self.bank.as_secs()),
            Some(OnDeadline::Resign) => {
                write!(f, "{}s per move, resign", self.bank.as_secs())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r12_1_a_clock_is_a_bank_and_an_increment_in_whole_seconds() {
        let clock: TurnClock = "5m+10s".parse().unwrap();
        assert_eq!(clock.bank(), Duration::from_secs(300));
        assert_eq!(clock.increment(), Duration::from_secs(10));
        assert_eq!(clock.to_string(), "300s+10s");
        assert_eq!("300s+10s".parse::<TurnClock>(), Ok(clock));
        let correspondence: TurnClock = "1d+1d".parse().unwrap();
        assert_eq!(correspondence.increment(), Duration::from_secs(DAY));
        assert!("7d+0s".parse::<TurnClock>().is_ok());
        assert!("1s+0s".parse::<TurnClock>().is_ok());
    }

    #[test]
    fn r12_5_a_time_per_move_is_one_hour_to_fourteen_days() {
        let day = TurnClock::per_move(Duration::from_secs(DAY), OnDeadline::Resign).unwrap();
        assert_eq!(day.bank(), Duration::from_secs(DAY));
        assert_eq!(day.increment(), Duration::ZERO);
        assert_eq!(day.on_deadline(), Some(OnDeadline::Resign));
        assert_eq!(day.to_string(), "86400s per move, resign");
        assert!(!"1d+0s".parse::<TurnClock>().unwrap().is_per_move());
        for ok in [MIN_PER_MOVE, MAX_PER_MOVE] {
            assert!(TurnClock::per_move(ok, OnDeadline::StandIn).is_ok());
        }
        for bad in [
            Duration::ZERO,
            MIN_PER_MOVE - Duration::from_secs(1),
            MAX_PER_MOVE + Duration::from_secs(1),
            Duration::from_secs(10 * 365 * DAY),
            Duration::from_millis(3_600_500),
        ] {
            assert_eq!(
                TurnClock::per_move(bad, OnDeadline::StandIn),
                Err(TurnClockError::PerMove(bad))
            );
        }
    }

    #[test]
    fn r12_1_clocks_outside_the_limits_are_refused_with_the_reason() {
        assert!(matches!(
            "0s+0s".parse::<TurnClock>(),
            Err(TurnClockError::Bank(_))
        ));
        assert!(matches!(
            "8d+0s".parse::<TurnClock>(),
            Err(TurnClockError::Bank(_))
        ));
        assert!(matches!(
            "5m+2d".parse::<TurnClock>(),
            Err(TurnClockError::Increment(_))
        ));
        assert!(matches!(
            TurnClock::new(Duration::from_millis(1500), Duration::ZERO),
            Err(TurnClockError::Bank(_))
        ));
        for bad in [
            "5m",
            "5m+",
            "+10s",
            "5x+1s",
            "m+1s",
            "-5m+1s",
            "99999999999999999d+0s",
        ] {
            assert!(
                matches!(bad.parse::<TurnClock>(), Err(TurnClockError::Syntax(_))),
                "{bad}"
            );
        }
    }
}
