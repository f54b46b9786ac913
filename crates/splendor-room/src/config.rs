//! What a room needs to know of the server's settings ([`RoomConfig`]),
//! and the turn clock's settings (R12.1).

use std::time::Duration;

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
            min_grace: crate::clock::MIN_GRACE,
        }
    }
}

/// A Fischer clock (R12.1): a time bank per player, and an increment added
/// when each of their turns ends. Whole seconds: a bank of 1 second to
/// 7 days, an increment of 0 to 1 day.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnClock {
    bank: Duration,
    increment: Duration,
}

/// A clock outside what R12.1 allows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TurnClockError {
    /// The bank is not 1 second to 7 days in whole seconds.
    #[error("a clock's bank is 1 second to 7 days in whole seconds (R12.1), not {0:?}")]
    Bank(Duration),
    /// The increment is not 0 to 1 day in whole seconds.
    #[error("a clock's increment is 0 to 1 day in whole seconds (R12.1), not {0:?}")]
    Increment(Duration),
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
        Ok(TurnClock { bank, increment })
    }

    /// Each player's time at the start.
    pub fn bank(self) -> Duration {
        self.bank
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
        write!(f, "{}s+{}s", self.bank.as_secs(), self.increment.as_secs())
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
