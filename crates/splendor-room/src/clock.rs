//! Turn clocks and stand-ins (RULES.md R12), as plain data: the core holds
//! one `Clocks` per game with a clock and tells it what happens; time
//! comes in as `now`, never read.
//!
//! - R12.1 A seat's clock runs only while the game waits for that seat
//!   (its turn, with the R8/R9 decisions in it). It stops when an action
//!   is accepted, before it is stored; the next one starts once it is
//!   stored. The increment is added when the seat's turn ends. Bots have
//!   no clock.
//! - R12.2 When a bank runs out, the stand-in (the `greedy` player on the
//!   seat's view) makes the rest of that turn and the seat is marked. At
//!   each later turn of a marked seat its player has a grace (the
//!   increment or 10 s, whichever is longer); acting within it gives the
//!   seat back with what was left of the grace as its bank, otherwise the
//!   stand-in plays the turn.
//! - R12.3 With `stand_in_when_away`, a seat whose player is away (no
//!   connection in the room) when its turn starts, or goes away during
//!   it, is played by the stand-in once the grace has passed, counted from
//!   the later of the turn's start and the going away. That is not a
//!   time-out: the time the turn waited comes from the bank as any turn's,
//!   the increment is added at the turn's end, the seat is not marked,
//!   and the player keeps the rest of the bank. Coming back within the
//!   grace, the player has the bank again.
//! - R12.5 In a turn-based room every turn has the same time (its
//!   deadline, counted from the start of the turn); the bank of a seat is
//!   what is left of its turn's time, and it is full again when its turn
//!   ends. A marked seat's grace is that next deadline. Being away counts
//!   for nothing (R12.3 does not apply).

use std::time::{Duration, Instant};

use splendor_protocol::ClockInfo;
use splendor_rules::Seat;

use crate::config::{MIN_GRACE, TurnClock};

/// How soon a passed deadline's resignation is tried again when it could
/// not be stored (R12.5).
const RESIGN_RETRY: Duration = Duration::from_secs(1);

/// A room's clock options (R12.1, R12.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockOptions {
    /// The bank and increment.
    pub clock: TurnClock,
    /// R12.3: a disconnected player's turn goes to the stand-in after the
    /// grace.
    pub stand_in_when_away: bool,
}

/// One seat's clock between turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatClock {
    /// What is left of the bank.
    pub bank: Duration,
    /// The seat is played by the stand-in (R12.2) until its player acts
    /// within a grace.
    pub stand_in: bool,
}

/// The clock that runs now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ticking {
    seat: Seat,
    since: Instant,
    /// When the stand-in takes the turn: the bank's end, or sooner the
    /// end of an away player's grace (R12.3).
    deadline: Instant,
    /// When the bank runs out (R12.2).
    bank_out: Instant,
    /// R12.3 can apply to this turn (a room that says so, a seat with a
    /// bank, not marked), and whether the player is away now.
    away: Option<bool>,
    /// The player was in the room at some moment of this turn: an absence
    /// counts from then on. A turn restored after a restart, or a quick
    /// play game's first, begins with the players not connected yet; that
    /// absence is not theirs, but leaving once back is (R12.3).
    seen: bool,
}

/// Every seat's clock in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Clocks {
    pub(crate) options: ClockOptions,
    pub(crate) seats: Vec<SeatClock>,
    /// Bot seats, which have no clock.
    bots: Vec<bool>,
    ticking: Option<Ticking>,
    /// The stand-in makes the rest of this seat's current turn.
    pub(crate) standing_in: Option<Seat>,
    /// R12.2's shortest grace (10 seconds).
    min_grace: Duration,
    /// After a restart, the turn in progress began while its player was
    /// connected: R12.3 does not apply to it (a restart costs nobody time).
    restored_turn: bool,
    /// The stand-in plays this seat's turn because its player is away
    /// (R12.3): the increment is added when the turn ends.
    away_turn: Option<Seat>,
}

impl Clocks {
    /// Full banks for every seat of a new game.
    pub(crate) fn new(options: ClockOptions, bots: Vec<bool>) -> Clocks {
        let seats = bots
            .iter()
            .map(|_| SeatClock {
                bank: options.clock.bank(),
                stand_in: false,
            })
            .collect();
        Clocks::restored(options, bots, seats)
    }

    /// After a restart: being disconnected by it does not count as away
    /// for the turn in progress (R12.3; a restart costs nobody time).
    pub(crate) fn after_restart(mut self) -> Clocks {
        self.restored_turn = true;
        self
    }

    /// A quick-play game starts before its players' connections are in
    /// the room (they are seated by the queue, then attach): being away
    /// then does not count for the first turn either (R12.3).
    pub(crate) fn players_arriving(self) -> Clocks {
        self.after_restart()
    }

    /// The clocks as stored with the last action (a restart costs nobody
    /// time: the clock of the seat to act starts again from its bank).
    pub(crate) fn restored(
        options: ClockOptions,
        bots: Vec<bool>,
        seats: Vec<SeatClock>,
    ) -> Clocks {
        Clocks {
            options,
            seats,
            bots,
            ticking: None,
            standing_in: None,
            restored_turn: false,
            away_turn: None,
            min_grace: MIN_GRACE,
        }
    }

    /// The shortest grace instead of R12.2's 10 seconds: for tests only
    /// ([`RoomConfig::min_grace`](crate::RoomConfig::min_grace)).
    pub(crate) fn with_min_grace(mut self, min_grace: Duration) -> Clocks {
        self.min_grace = min_grace;
        self
    }

    /// R12.2: the increment or 10 seconds, whichever is longer; in a
    /// turn-based room the next deadline (R12.5).
    pub(crate) fn grace(&self) -> Duration {
        if self.options.clock.is_per_move() {
            return self.options.clock.bank();
        }
        self.options.clock.increment().max(self.min_grace)
    }

    /// A turn-based room's clocks (R12.5).
    pub(crate) fn per_move(&self) -> bool {
        self.options.clock.is_per_move()
    }

    /// The game waits for `seat` from `now` (its turn, or a decision in
    /// it): its clock runs, unless it is a bot's, the stand-in's, or runs
    /// already. `away`: its player has no connection in the room; for a
    /// clock that runs already, a change of that moves its deadline
    /// (R12.3: gone away during the turn, or back).
    pub(crate) fn wait_for(&mut self, seat: Seat, now: Instant, away: bool) {
        if self.standing_in == Some(seat)
            || self.bots.get(usize::from(seat)).copied().unwrap_or(true)
        {
            return;
        }
        let grace = self.grace();
        if let Some(t) = self.ticking.as_mut().filter(|t| t.seat == seat) {
            t.seen |= !away;
            let away = away && t.seen;
            if let Some(was) = t.away
                && was != away
            {
                // R12.3: the grace counts from the going away; back, the
                // player has the bank again.
                t.away = Some(away);
                t.deadline = if away {
                    t.bank_out.min(now + grace)
                } else {
                    t.bank_out
                };
            }
            return;
        }
        let Some(clock) = self.seats.get(usize::from(seat)) else {
            return;
        };
        let seen = !away || !self.restored_turn;
        let away = away && seen;
        let (budget, away_applies) = if self.per_move() {
            // R12.5: what is left of this turn's time, marked or not, away
            // or not.
            (clock.bank, false)
        } else if clock.stand_in {
            // R12.2: a marked seat has the grace.
            (grace, false)
        } else {
            (clock.bank, self.options.stand_in_when_away)
        };
        let bank_out = now + budget;
        let deadline = if away_applies && away {
            // R12.3: an away player's turn waits the grace at most.
            bank_out.min(now + grace)
        } else {
            bank_out
        };
        self.ticking = Some(Ticking {
            seat,
            since: now,
            deadline,
            bank_out,
            away: away_applies.then_some(away),
            seen,
        });
    }

    /// An action of `seat` was accepted at `now` (R12.1: its clock stops);
    /// `by_person` when its player made it; `turn_ends` when the next to act
    /// is another seat (or nobody).
    pub(crate) fn accepted(&mut self, seat: Seat, now: Instant, by_person: bool, turn_ends: bool) {
        self.restored_turn = false;
        let ticking = self.ticking.take().filter(|t| t.seat == seat);
        let grace = self.grace();
        let increment = self.options.clock.increment();
        let Some(clock) = self.seats.get_mut(usize::from(seat)) else {
            return;
        };
        let per_move = self.options.clock.is_per_move();
        if by_person {
            let used = ticking.map_or(Duration::ZERO, |t| now.saturating_duration_since(t.since));
            if clock.stand_in && !per_move {
                // R12.2: back in the seat, with what was left of the grace.
                clock.bank = grace.saturating_sub(used);
                clock.stand_in = false;
            } else {
                clock.bank = clock.bank.saturating_sub(used);
                clock.stand_in = false;
            }
            if self.standing_in == Some(seat) {
                self.standing_in = None;
            }
        }
        if turn_ends {
            let away_turn = self.away_turn == Some(seat);
            if per_move {
                // R12.5: the next turn has its whole time again.
                clock.bank = self.options.clock.bank();
            } else if by_person || away_turn {
                // R12.3: a turn the stand-in played for an away player is
                // a turn like any other.
                clock.bank += increment;
            }
            if self.standing_in == Some(seat) {
                self.standing_in = None;
            }
            if away_turn {
                self.away_turn = None;
            }
        }
    }

    /// The clock that runs has run out at `now`: the stand-in takes the
    /// rest of the turn. A bank that ran out marks the seat (R12.2); an
    /// away player's grace does not (R12.3): the time waited comes from
    /// the bank, the rest is kept. Returns the seat, and whether its bank
    /// ran out.
    pub(crate) fn expire(&mut self, now: Instant) -> Option<(Seat, bool)> {
        let ticking = self.ticking.filter(|t| t.deadline <= now)?;
        self.ticking = None;
        let clock = self.seats.get_mut(usize::from(ticking.seat))?;
        let out_of_time = ticking.deadline >= ticking.bank_out;
        if out_of_time {
            clock.bank = Duration::ZERO;
            clock.stand_in = true;
        } else {
            let waited = ticking.deadline.saturating_duration_since(ticking.since);
            clock.bank = clock.bank.saturating_sub(waited);
            self.away_turn = Some(ticking.seat);
        }
        self.standing_in = Some(ticking.seat);
        Some((ticking.seat, out_of_time))
    }

    /// R12.5 with `resign`: the deadline of the running clock passed at
    /// `now`; the seat is to resign, not to be played by the stand-in, so
    /// nothing is marked. If that resignation cannot be stored, the seat's
    /// clock runs again with a second left: it is tried again then.
    pub(crate) fn lapse(&mut self, now: Instant) -> Option<Seat> {
        let ticking = self.ticking.filter(|t| t.deadline <= now)?;
        self.ticking = None;
        let clock = self.seats.get_mut(usize::from(ticking.seat))?;
        clock.bank = RESIGN_RETRY;
        Some(ticking.seat)
    }

    /// The game waited for nobody from `from` to `now` (an action was
    /// being stored, and the store failed): the running clock moves on by
    /// that time, so the store's time is nobody's (R12.1).
    pub(crate) fn shift(&mut self, from: Instant, now: Instant) {
        if let Some(t) = self.ticking.as_mut() {
            let paused = now.saturating_duration_since(from);
            t.since += paused;
            t.deadline += paused;
            t.bank_out += paused;
        }
    }

    /// When the running clock runs out.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.ticking.map(|t| t.deadline)
    }

    /// Stops the running clock without charging anyone (the game ended,
    /// or was reloaded).
    /// R13.1: `seat` resigned at `now`. Its clock, if it ran, stops with
    /// the time used taken from its bank; any other clock runs on. The
    /// stand-in plays the seat from now on without a clock.
    pub(crate) fn resigned(&mut self, seat: Seat, now: Instant) {
        if let Some(t) = self.ticking.filter(|t| t.seat == seat) {
            self.ticking = None;
            if let Some(clock) = self.seats.get_mut(usize::from(seat)) {
                clock.bank = clock
                    .bank
                    .saturating_sub(now.saturating_duration_since(t.since));
            }
        }
        if self.standing_in == Some(seat) {
            self.standing_in = None;
        }
        if self.away_turn == Some(seat) {
            self.away_turn = None;
        }
    }

    pub(crate) fn stop(&mut self) {
        self.ticking = None;
    }

    /// Every seat's clock as of `now`, as the `state` message shows it.
    pub(crate) fn info(&self, now: Instant) -> Vec<ClockInfo> {
        self.seats
            .iter()
            .enumerate()
            .map(|(seat, clock)| {
                let running = self.ticking.filter(|t| usize::from(t.seat) == seat);
                ClockInfo {
                    remaining_ms: running
                        .map_or(clock.bank, |t| t.deadline.saturating_duration_since(now))
                        .as_millis()
                        .try_into()
                        .unwrap_or(u64::MAX),
                    running: running.is_some(),
                    stand_in: clock.stand_in,
                    bot: self.bots.get(seat).copied().unwrap_or(false),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: fn(u64) -> Duration = Duration::from_secs;

    /// R12.1 and R12.3: the time a write took (a failed one, after which
    /// the clock runs on) is nobody's, whatever the player does next: away
    /// (the grace from then) and back (the bank, with that time given back).
    #[test]
    fn r12_1_a_failed_writes_time_is_nobodys_even_when_the_player_goes_away_and_back() {
        let options = ClockOptions {
            clock: TurnClock::new(S(60), S(0)).expect("a clock"),
            stand_in_when_away: true,
        };
        let mut clocks = Clocks::new(options, vec![false, false]);
        let t0 = Instant::now();
        clocks.wait_for(0, t0, false);
        assert_eq!(clocks.deadline(), Some(t0 + S(60)));
        // A write from 1 s to 3 s failed: the clock moves on by 2 s.
        clocks.shift(t0 + S(1), t0 + S(3));
        assert_eq!(clocks.deadline(), Some(t0 + S(62)));
        // Away at 4 s: the grace (10 s) from then.
        clocks.wait_for(0, t0 + S(4), true);
        assert_eq!(clocks.deadline(), Some(t0 + S(14)));
        // Back at 5 s: the bank again, the write's 2 s still nobody's.
        clocks.wait_for(0, t0 + S(5), false);
        assert_eq!(clocks.deadline(), Some(t0 + S(62)));
    }

    /// R12.3 after a restart: the player on move, not connected yet, is not
    /// away for that turn; once back, leaving during it counts.
    #[test]
    fn r12_3_after_a_restart_leaving_once_back_counts() {
        let options = ClockOptions {
            clock: TurnClock::new(S(60), S(0)).expect("a clock"),
            stand_in_when_away: true,
        };
        let seats = vec![
            SeatClock {
                bank: S(60),
                stand_in: false,
            };
            2
        ];
        let mut clocks = Clocks::restored(options, vec![false, false], seats).after_restart();
        let t0 = Instant::now();
        clocks.wait_for(0, t0, true);
        assert_eq!(clocks.deadline(), Some(t0 + S(60)), "the restart's absence");
        clocks.wait_for(0, t0 + S(1), true);
        assert_eq!(clocks.deadline(), Some(t0 + S(60)));
        clocks.wait_for(0, t0 + S(2), false);
        clocks.wait_for(0, t0 + S(3), true);
        assert_eq!(
            clocks.deadline(),
            Some(t0 + S(13)),
            "gone once back: the grace"
        );
    }
}
