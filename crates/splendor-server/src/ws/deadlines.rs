//! The read loop's deadlines (issue 20): one timer, set for the earliest
//! of them and moved as they move, instead of a timer per deadline made
//! anew for every frame.

use tokio::time::Instant;

/// Which of the read loop's deadlines the timer is set for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Due {
    /// No frame, not even a pong, for the heartbeat timeout.
    Heartbeat,
    /// No message outside a room for the idle timeout.
    Idle,
    /// Silent past the liveness the client promised (R12.3).
    Lapse,
    /// A seat waiting for its room's owner looks again.
    LookAgain,
    /// Bots fill a quick-play game's free seats.
    Bots,
}

/// The earliest of the heartbeat's deadline and the others that are set
/// (the first listed on a tie).
pub(super) fn earliest(heartbeat: Instant, others: [(Due, Option<Instant>); 4]) -> (Due, Instant) {
    let mut found = (Due::Heartbeat, heartbeat);
    for (due, at) in others {
        if let Some(at) = at
            && at < found.1
        {
            found = (due, at);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_timer_is_set_for_the_earliest_deadline() {
        let now = Instant::now();
        let s = Duration::from_secs;
        let none = [
            (Due::Idle, None),
            (Due::Lapse, None),
            (Due::LookAgain, None),
            (Due::Bots, None),
        ];
        assert_eq!(earliest(now + s(30), none), (Due::Heartbeat, now + s(30)));
        let some = [
            (Due::Idle, Some(now + s(20))),
            (Due::Lapse, Some(now + s(5))),
            (Due::LookAgain, None),
            (Due::Bots, Some(now + s(5))),
        ];
        assert_eq!(earliest(now + s(30), some), (Due::Lapse, now + s(5)));
        let later = [
            (Due::Idle, Some(now + s(60))),
            (Due::Lapse, None),
            (Due::LookAgain, Some(now + s(31))),
            (Due::Bots, None),
        ];
        assert_eq!(earliest(now + s(30), later), (Due::Heartbeat, now + s(30)));
    }
}
