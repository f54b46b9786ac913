//! Refusals answered late (issue 45): a client over an address budget (new
//! WebSockets a minute, connections held, HTTP API requests, replays'
//! positions) gets its 429 only after a pause. The hostile soak showed
//! what is left of an attack once every budget holds: the refusals
//! themselves, about 13,500 a second from ten addresses, each cheap,
//! together most of what the players still paid. A client that waits for
//! its answer before asking again (most scripts, every browser) is slowed
//! to one refusal per pause and per request it has in flight, and
//! answering is the same work as before, only later.
//!
//! A held refusal keeps its connection open, so their number is a budget
//! of its own: at most [`MAX_HELD`] at once on the node; past it, a
//! refusal is answered at once, as before. Nothing else waits: the pause
//! is the refused request's own.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

/// At most this many refusals wait for their answer at once on a node.
pub const MAX_HELD: usize = 256;

/// Refusals answered after a pause.
#[derive(Clone, Debug)]
pub struct SlowRefusals {
    pause: Duration,
    held: Arc<Semaphore>,
}

impl SlowRefusals {
    /// Refusals answered after `pause` (zero: at once).
    pub fn new(pause: Duration) -> SlowRefusals {
        SlowRefusals {
            pause,
            held: Arc::new(Semaphore::new(MAX_HELD)),
        }
    }

    /// Waits the pause before a refusal is answered, if fewer than
    /// [`MAX_HELD`] refusals are waiting; otherwise returns at once.
    pub async fn pause(&self) {
        if self.pause.is_zero() {
            return;
        }
        let Ok(_held) = self.held.try_acquire() else {
            return;
        };
        tokio::time::sleep(self.pause).await;
    }

    /// Refusals waiting for their answer now.
    pub fn held(&self) -> usize {
        MAX_HELD - self.held.available_permits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_refusal_waits_the_pause_and_past_the_cap_is_answered_at_once() {
        let slow = SlowRefusals::new(Duration::from_secs(1));
        let start = tokio::time::Instant::now();
        slow.pause().await;
        assert_eq!(start.elapsed(), Duration::from_secs(1));
        // The cap held by others: answered at once.
        let others: Vec<_> = (0..MAX_HELD)
            .map(|_| slow.held.clone().try_acquire_owned().unwrap())
            .collect();
        assert_eq!(slow.held(), MAX_HELD);
        let start = tokio::time::Instant::now();
        slow.pause().await;
        assert_eq!(start.elapsed(), Duration::ZERO);
        drop(others);
        assert_eq!(slow.held(), 0);
        // No pause set: at once.
        let start = tokio::time::Instant::now();
        SlowRefusals::new(Duration::ZERO).pause().await;
        assert_eq!(start.elapsed(), Duration::ZERO);
    }
}
