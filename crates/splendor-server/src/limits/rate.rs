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
    /// The first message over the rate: refuse it with a `rate_limited`
    /// error so a well-behaved client learns to slow down.
    Refuse,
    /// Still over the rate: drop it without an answer (answering every
    /// message of a flood would let the client make the server write).
    Drop,
    /// The client went on sending a whole burst's worth while refused:
    /// close the connection.
    Close,
}

/// The rate policy of one connection: a [`TokenBucket`], one error when the
/// client first goes over it, then silence, then a close if the client sends
/// another `burst` messages before the bucket lets one through again.
#[derive(Clone, Debug)]
pub struct MessageRate {
    bucket: TokenBucket,
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
        match self.refused_in_a_row {
            1 => Verdict::Refuse,
            n if n >= self.close_after => Verdict::Close,
            _ => Verdict::Drop,
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

    #[test]
    fn one_error_then_silence_then_a_close() {
        let t0 = Instant::now();
        let mut rate = MessageRate::new(1, 3, t0);
        let verdicts: Vec<Verdict> = (0..8).map(|_| rate.check(t0)).collect();
        use Verdict::*;
        assert_eq!(
            verdicts,
            [Allow, Allow, Allow, Refuse, Drop, Drop, Close, Close]
        );
    }

    #[test]
    fn slowing_down_after_the_error_forgives() {
        let t0 = Instant::now();
        let mut rate = MessageRate::new(1, 2, t0);
        assert_eq!(rate.check(t0), Verdict::Allow);
        assert_eq!(rate.check(t0), Verdict::Allow);
        assert_eq!(rate.check(t0), Verdict::Refuse);
        assert_eq!(rate.check(t0), Verdict::Drop);
        // The client waited for a token: the count of refusals starts over.
        let t1 = t0 + Duration::from_secs(1);
        assert_eq!(rate.check(t1), Verdict::Allow);
        assert_eq!(rate.check(t1), Verdict::Refuse);
        assert_eq!(rate.check(t1), Verdict::Drop);
        assert_eq!(rate.check(t1), Verdict::Close);
    }
}
