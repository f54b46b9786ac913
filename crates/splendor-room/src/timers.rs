//! The room's timers, as quinn-proto keeps a connection's: an enum of
//! timers and a table of deadlines; the driver sleeps until the earliest
//! and calls the core's `handle_timeout`. Time is passed in, never read.
//!
//! The room's expiry, the moment a bot's move may be played (its minimum
//! delay), and the running turn clock (R12).

use std::time::Instant;

use splendor_protocol::RoomStatus;

use crate::config::RoomConfig;

/// A timer of the room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RoomTimer {
    /// The room closes by itself (see [`expiry`]).
    Expiry,
    /// A bot's move, already chosen, may be played now.
    BotMove,
    /// The running turn clock runs out (R12.2).
    TurnClock,
    /// A turn-based game that waits for a person away is parked (issue 25).
    Park,
    /// Nobody in play has been connected for R12.6's 2 minutes.
    Deserted,
}

impl RoomTimer {
    const ALL: [RoomTimer; 5] = [
        RoomTimer::Expiry,
        RoomTimer::BotMove,
        RoomTimer::TurnClock,
        RoomTimer::Park,
        RoomTimer::Deserted,
    ];

    fn index(self) -> usize {
        match self {
            RoomTimer::Expiry => 0,
            RoomTimer::BotMove => 1,
            RoomTimer::TurnClock => 2,
            RoomTimer::Park => 3,
            RoomTimer::Deserted => 4,
        }
    }
}

/// The deadline of each timer, if armed.
#[derive(Clone, Debug, Default)]
pub(crate) struct TimerTable {
    deadlines: [Option<Instant>; RoomTimer::ALL.len()],
}

impl TimerTable {
    pub(crate) fn set(&mut self, timer: RoomTimer, deadline: Option<Instant>) {
        self.deadlines[timer.index()] = deadline;
    }

    pub(crate) fn stop_all(&mut self) {
        self.deadlines = Default::default();
    }

    /// The earliest deadline.
    pub(crate) fn next_timeout(&self) -> Option<Instant> {
        self.deadlines.iter().flatten().min().copied()
    }

    /// The first timer due at `now`, disarmed.
    pub(crate) fn take_expired(&mut self, now: Instant) -> Option<RoomTimer> {
        let timer = RoomTimer::ALL
            .into_iter()
            .find(|t| self.deadlines[t.index()].is_some_and(|d| d <= now))?;
        self.deadlines[timer.index()] = None;
        Some(timer)
    }
}

/// What the expiry of a room depends on.
pub(crate) struct ExpiryInputs {
    pub(crate) status: RoomStatus,
    /// When the game ended, once it has.
    pub(crate) finished_at: Option<Instant>,
    /// Since when no player has been connected (`None` while someone is).
    pub(crate) quiet_since: Option<Instant>,
    /// When a member last asked the room something.
    pub(crate) last_activity: Instant,
    /// Since when nobody, player or spectator, has been attached.
    pub(crate) empty_since: Option<Instant>,
    /// A turn-based room (R12.5): before its end it waits for its players
    /// as long as it takes.
    pub(crate) turn_based: bool,
}

/// When the room closes by itself, if nothing happens before: a finished
/// game after its viewing time, or sooner, a short grace after its last
/// player and spectator went (its record, replay and history stay in the
/// store; a room kept for nobody held a game's worth of memory for the
/// whole viewing time, issue 20's soak); a running game once every player has been
/// away for the abandoned-game TTL; before the start, a short grace once no
/// player is connected (a reload, a network change), the idle TTL while
/// one is. A turn-based room (R12.5) is not closed for its players'
/// absence, which is normal there: its game runs to its end, and before the
/// start it waits [`TURN_BASED_WAITING_TTL`] after the last thing that
/// happened in it (a join, a leave, a request).
pub(crate) fn expiry(config: &RoomConfig, inputs: &ExpiryInputs) -> Option<Instant> {
    match inputs.status {
        RoomStatus::Playing if inputs.turn_based => None,
        RoomStatus::Waiting if inputs.turn_based => {
            Some(inputs.last_activity + TURN_BASED_WAITING_TTL)
        }
        RoomStatus::Finished => {
            let viewing_over = inputs.finished_at.map(|at| at + config.finished_room_ttl);
            match inputs.empty_since {
                Some(since) => {
                    let empty = since + config.empty_room_ttl;
                    Some(viewing_over.map_or(empty, |over| over.min(empty)))
                }
                None => viewing_over,
            }
        }
        RoomStatus::Playing => inputs.quiet_since.map(|t| t + config.abandoned_game_ttl),
        RoomStatus::Waiting => Some(match inputs.quiet_since {
            Some(t) => t + config.empty_room_ttl,
            None => inputs.last_activity + config.room_idle_ttl,
        }),
    }
}

/// How long a turn-based room waits for players with nothing happening in
/// it: the longest time per move (R12.5).
pub(crate) const TURN_BASED_WAITING_TTL: std::time::Duration = crate::config::MAX_PER_MOVE;

/// Why an expired room closes, as everyone in it is told: the id of the
/// words (`closed-*` in the server's message files).
pub(crate) fn expiry_reason(status: RoomStatus, quiet: bool) -> &'static str {
    match status {
        RoomStatus::Finished => "closed-viewing-over",
        RoomStatus::Playing => "closed-players-away",
        RoomStatus::Waiting if quiet => "closed-nobody-connected",
        RoomStatus::Waiting => "closed-idle",
    }
}
