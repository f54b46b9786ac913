//! Messages per second per connection: a token bucket, and what to do with
//! a client that keeps sending past it.
//!
//! Time is passed in (an [`Instant`]), never read here, so the tests are exact.

use std::time::{Duration, Instant};

/// One token, in the bucket's units: tokens are counted in billionths so
/// that refilling at `per_second` per second is exact integer arithmetic
/// on nanoseconds (no rounding drift at a steady rate).
const UNIT: u128 = 1_000_000_000;

/// A token bucket: `burst` tokens at most, refilled at `per_second`.
/// Each message takes one token; an empty bucket refuses.
#[derive(Clone, Debug)]
pub struct TokenBucket {
    /// The most tokens the bucket holds (in [`UNIT`]s): how many messages
    /// may arrive at once.
    capacity: u128,
    /// Tokens added per second: the sustained rate.
    per_second: u128,
    /// Tokens available at `last`, in [`UNIT`]s.
    tokens: u128,
    /// When `tokens` was last brought up to date.
    last: Instant,
}

impl TokenBucket {
    /// A full bucket. `per_second` and `burst` are at least 1 (the
    /// configuration refuses 0), and are raised to 1 if given less.
    pub fn new(per_second: u32, burst: u32, now: Instant) -> TokenBucket {
        let capacity = u128::from(burst.max(1)) * UNIT;
        TokenBucket {
            capacity,
            per_second: u128::from(per_second.max(1)),
            tokens: capacity,
            last: now,
        }
    }

    /// Takes one token if there is one.
    pub fn try_take(&mut self, now: Instant) -> bool {
        self.refill(now);
        if self.tokens >= UNIT {
            self.tokens -= UNIT;
            true
        } else {
            false
        }
    }

    /// How long until a token is available (zero if one is).
    pub fn wait_time(&mut self, now: Instant) -> Duration {
        self.refill(now);
        let missing = UNIT.saturating_sub(self.tokens);
        // Nanoseconds = missing units / per_second, rounded up.
        let nanos = missing.div_ceil(self.per_second);
        Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
    }

    fn refill(&mut self, now: Instant) {
        // An older `now` than the last one adds nothing.
        let elapsed = now.saturating_duration_since(self.last).as_nanos();
        // UNIT per second is one unit per nanosecond per token of rate.
        let added = elapsed.saturating_mul(self.per_second);
        self.tokens = self.tokens.saturating_add(added).min(self.capacity);
        if now > self.last {
            self.last = now;
        }
    }
}

/// What to do with one incoming message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Within the rate: handle it.
    Allow,
    /// Over the rate: refuse it with a `rate_limited` error that carries
    /// the message's `id` and how long to wait before a message is let
    /// through again, so a client can back off and send it again.
    Refuse {
        /// When the next message would be allowed.
        retry_after: Duration,
    },
    /// Over the rate, and more refusals were answered in the last second
    /// than the answers' own bound allows: drop it without an answer
    /// (answering every message of a flood would let the client make the
    /// server write).
    Drop,
    /// The client went on sending a whole burst's worth while refused:
    /// close the connection.
    Close,
}

/// Refusals answered per second at most (and at once): enough for a
/// client with a few requests in flight to learn of each, too few for a
/// flood to make the server write.
pub const ANSWERED_REFUSALS_PER_SECOND: u32 = 10;

/// The rate policy of one connection: a [`TokenBucket`]; a refused message
/// is answered (up to [`ANSWERED_REFUSALS_PER_SECOND`]), and a client that
/// sends another `burst` messages before the bucket lets one through again
/// is closed.
#[derive(Clone, Debug)]
pub struct MessageRate {
    bucket: TokenBucket,
    /// How many refusals get an answer.
    answers: TokenBucket,
    /// Messages refused since the last one allowed.
    refused_in_a_row: u32,
    /// Refusals in a row that close the connection.
    close_after: u32,
}

impl MessageRate {
    /// `per_second` messages a second on average, `burst` at once; full at `now`.
    pub fn new(per_second: u32, burst: u32, now: Instant) -> MessageRate {
        MessageRate {
            bucket: TokenBucket::new(per_second, burst, now),
            answers: TokenBucket::new(
                ANSWERED_REFUSALS_PER_SECOND,
                ANSWERED_REFUSALS_PER_SECOND,
                now,
            ),
            refused_in_a_row: 0,
            close_after: burst.max(1).saturating_add(1),
        }
    }

    /// Judges a message that arrived at `now`.
    pub fn check(&mut self, now: Instant) -> Verdict {
        if self.bucket.try_take(now) {
            self.refused_in_a_row = 0;
            return Verdict::Allow;
        }
        self.refused_in_a_row = self.refused_in_a_row.saturating_add(1);
        if self.refused_in_a_row >= self.close_after {
            Verdict::Close
        } else if self.answers.try_take(now) {
            Verdict::Refuse {
                retry_after: self.bucket.wait_time(now),
            }
        } else {
            Verdict::Drop
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_full_bucket_lets_a_burst_through_then_refuses() {
        let t0 = Instant::now();
        let mut bucket = TokenBucket::new(10, 3, t0);
        assert!(bucket.try_take(t0));
        assert!(bucket.try_take(t0));
        assert!(bucket.try_take(t0));
        assert!(!bucket.try_take(t0));
        assert_eq!(bucket.wait_time(t0), ms(100));
    }

    #[test]
    fn tokens_come_back_at_the_rate_and_never_above_the_burst() {
        let t0 = Instant::now();
        let mut bucket = TokenBucket::new(10, 2, t0);
        assert!(bucket.try_take(t0) && bucket.try_take(t0));
        // 10 per second: one token every 100 ms.
        assert!(!bucket.try_take(t0 + ms(99)));
        assert!(bucket.try_take(t0 + ms(100)));
        assert!(!bucket.try_take(t0 + ms(150)));
        // A long pause refills to the burst, not beyond.
        let later = t0 + Duration::from_secs(60);
        assert!(bucket.try_take(later) && bucket.try_take(later));
        assert!(!bucket.try_take(later));
    }

    #[test]
    fn a_sustained_rate_at_the_limit_is_always_allowed() {
        let t0 = Instant::now();
        let mut bucket = TokenBucket::new(20, 1, t0);
        for i in 0..1000 {
            assert!(bucket.try_take(t0 + ms(50 * i)), "message {i}");
        }
    }

    #[test]
    fn an_older_time_adds_nothing() {
        let t0 = Instant::now();
        let mut bucket = TokenBucket::new(1, 1, t0 + ms(500));
        assert!(bucket.try_take(t0 + ms(500)));
        assert!(!bucket.try_take(t0));
        assert!(!bucket.try_take(t0 + ms(500)));
    }

    #[test]
    fn zero_is_raised_to_one() {
        let t0 = Instant::now();
        let mut bucket = TokenBucket::new(0, 0, t0);
        assert!(bucket.try_take(t0));
        assert!(!bucket.try_take(t0));
        assert!(bucket.try_take(t0 + Duration::from_secs(1)));
    }

    fn refuse(ms_left: u64) -> Verdict {
        Verdict::Refuse {
            retry_after: ms(ms_left),
        }
    }

    #[test]
    fn every_refusal_is_answered_with_the_wait_then_a_close() {
        let t0 = Instant::now();
        let mut rate = MessageRate::new(1, 3, t0);
        let verdicts: Vec<Verdict> = (0..8).map(|_| rate.check(t0)).collect();
        use Verdict::*;
        assert_eq!(
            verdicts,
            [
                Allow,
                Allow,
                Allow,
                refuse(1000),
                refuse(1000),
                refuse(1000),
                Close,
                Close
            ]
        );
    }

    #[test]
    fn the_wait_shrinks_as_the_bucket_refills() {
        let t0 = Instant::now();
        let mut rate = MessageRate::new(10, 1, t0);
        assert_eq!(rate.check(t0), Verdict::Allow);
        assert_eq!(rate.check(t0 + ms(30)), refuse(70));
        // Waiting what was said lets the next one through.
        assert_eq!(rate.check(t0 + ms(100)), Verdict::Allow);
    }

    #[test]
    fn answers_to_refusals_are_bounded_per_second() {
        let t0 = Instant::now();
        // A large burst so that refusals do not close the connection.
        let mut rate = MessageRate::new(1, 100, t0);
        for _ in 0..100 {
            assert_eq!(rate.check(t0), Verdict::Allow);
        }
        let answered = (0..50)
            .map(|_| rate.check(t0))
            .filter(|v| matches!(v, Verdict::Refuse { .. }))
            .count();
        assert_eq!(answered, ANSWERED_REFUSALS_PER_SECOND as usize);
        // A second later the answers come back (the bucket still refuses).
        let t1 = t0 + ms(1000);
        assert_eq!(rate.check(t1), Verdict::Allow);
        assert!(matches!(rate.check(t1), Verdict::Refuse { .. }));
    }

    #[test]
    fn slowing_down_after_the_error_forgives() {
        let t0 = Instant::now();
        let mut rate = MessageRate::new(1, 2, t0);
        assert_eq!(rate.check(t0), Verdict::Allow);
        assert_eq!(rate.check(t0), Verdict::Allow);
        assert_eq!(rate.check(t0), refuse(1000));
        assert_eq!(rate.check(t0), refuse(1000));
        // The client waited for a token: the count of refusals starts over.
        let t1 = t0 + Duration::from_secs(1);
        assert_eq!(rate.check(t1), Verdict::Allow);
        assert_eq!(rate.check(t1), refuse(1000));
        assert_eq!(rate.check(t1), refuse(1000));
        assert_eq!(rate.check(t1), Verdict::Close);
    }
}
