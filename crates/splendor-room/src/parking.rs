//! Parking a turn-based game (issue 25, R12.5): when its people are all
//! away and its turn waits for one of them, nothing happens in the room
//! until someone comes back or the turn's deadline passes, which may be
//! days. After [`RoomConfig::park_after`](crate::config::RoomConfig) of
//! that, the room asks for the game to be parked in the store
//! ([`Write::Park`], with the deadline) and, once it is, closes
//! ([`CLOSED_PARKED`]): its sessions keep their seats, and the lobby loads
//! the game again from its log when someone joins it or its deadline
//! passes. A game a bot or the stand-in is to move, one with anyone
//! attached (a player or a spectator), or one with a write in flight is
//! never parked.

use std::time::Instant;

use tracing::{info, warn};

use crate::clock::Clocks;
use crate::core::{Pending, RoomCore};
use crate::effect::{CLOSED_PARKED, Write};
use crate::write::PersistError;

impl RoomCore {
    /// When the room parks its game, if nothing happens before.
    pub(crate) fn park_deadline(&self) -> Option<Instant> {
        let after = self.config.park_after?;
        if self.closed || self.pending.is_some() || !self.turn_based() {
            return None;
        }
        let running = self.running.as_ref()?;
        let game = running.game();
        if game.is_over() || game.to_act().is_none() || self.mover_level().is_some() {
            return None;
        }
        running.clocks().and_then(Clocks::deadline)?;
        // Nobody attached since then; a failed attempt waits as long again.
        let since = self.empty_since?.max(self.last_activity);
        let since = self
            .park_failed_at
            .map_or(since, |failed| since.max(failed));
        Some(since + after)
    }

    /// The park timer fired: asks for the game to be parked, if it still
    /// may be.
    pub(crate) fn park(&mut self, now: Instant) {
        if self.park_deadline().is_none_or(|at| at > now) {
            return;
        }
        let Some(running) = &self.running else {
            return;
        };
        let Some(deadline) = running.clocks().and_then(Clocks::deadline) else {
            return;
        };
        let write = Write::Park {
            game: running.id(),
            room: self.code,
            deadline,
            chat: self.kept_lines().cloned().collect(),
            origin: self.config.origin.clone(),
        };
        self.write(write, Pending::Park);
    }

    /// The park write's outcome: closed, or on as before (tried again
    /// after as long again).
    pub(crate) fn park_written(&mut self, now: Instant, outcome: Result<(), PersistError>) {
        match outcome {
            Ok(()) => {
                info!("game parked in the store");
                self.finish_close(CLOSED_PARKED);
            }
            Err(e) => {
                warn!(error = %e, "could not park the game; it stays in its room");
                self.park_failed_at = Some(now);
            }
        }
    }
}
