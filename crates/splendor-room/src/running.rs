//! The game once started, with its own invariants: its fields are
//! private, and a committed action, a reload from the store and the
//! result's storing are verbs, so that
//! - the version is the number of actions committed, and the history has
//!   one entry per action since the room holds the game (a restored game
//!   brings its own);
//! - a game is finished exactly when the rules say it is over, and
//!   `finished_at` is when the room learned so;
//! - the seed, the salt and the commitment to them never change.

use std::time::Instant;

use splendor_replay::{Commitment, Salt, Seed};
use splendor_rules::{Events, Game, Options};

use crate::clock::Clocks;
use crate::effect::Mover;
use crate::write::GameId;

/// How a game was dealt: what never changes while it runs.
pub(crate) struct Deal {
    pub(crate) id: GameId,
    pub(crate) game: Game,
    /// The seed the game was dealt from; secret until the game is over.
    pub(crate) seed: u64,
    /// The options it was set up with.
    pub(crate) options: Options,
    /// The salt of the commitment; secret until the game is over.
    pub(crate) salt: Salt,
    /// Player names by seat, fixed at the start.
    pub(crate) names: Vec<String>,
}

/// Where a restored game was when the room stopped.
pub(crate) struct Progress {
    /// The number of actions in its log.
    pub(crate) version: u64,
    /// Their events and who made each, oldest first.
    pub(crate) history: Vec<(Mover, Events)>,
    /// The versions of the actions the stand-in made (R12.4).
    pub(crate) stand_in_actions: Vec<u64>,
}

/// The game once started.
#[derive(Clone, Debug)]
pub(crate) struct Running {
    id: GameId,
    /// The game's id as text, as messages carry it.
    id_text: String,
    game: Game,
    seed: u64,
    options: Options,
    salt: Salt,
    /// `SHA-256(salt || seed)` in hexadecimal, sent with every state.
    commitment: String,
    /// The number of actions applied (the state version).
    version: u64,
    names: Vec<String>,
    /// When the game ended, for the viewing period.
    finished_at: Option<Instant>,
    /// The game is over but storing its result failed: the room tries
    /// again when it closes (and a restart stores it from the log).
    result_pending: bool,
    /// The seats' turn clocks, in a room with a clock (R12).
    clocks: Option<Clocks>,
    /// The versions of the actions the stand-in made (R12.4).
    stand_in_actions: Vec<u64>,
    /// Who made the last action (its `events` say so).
    last_mover: Mover,
    /// Every action's events and who made it, oldest first: the `history`
    /// a joining or resuming connection is sent.
    history: Vec<(Mover, Events)>,
}

impl Running {
    /// A game just dealt, at version 0.
    pub(crate) fn new(deal: Deal, clocks: Option<Clocks>) -> Running {
        let progress = Progress {
            version: 0,
            history: Vec::new(),
            stand_in_actions: Vec::new(),
        };
        Running::restored(deal, progress, clocks, None)
    }

    /// A game read back from its log; `finished_at` when it is over.
    pub(crate) fn restored(
        deal: Deal,
        progress: Progress,
        clocks: Option<Clocks>,
        finished_at: Option<Instant>,
    ) -> Running {
        let Deal {
            id,
            game,
            seed,
            options,
            salt,
            names,
        } = deal;
        Running {
            id,
            id_text: id.to_string(),
            finished_at: finished_at.filter(|_| game.is_over()),
            result_pending: false,
            clocks,
            stand_in_actions: progress.stand_in_actions,
            last_mover: Mover::Person,
            history: progress.history,
            game,
            seed,
            options,
            commitment: Commitment::of(Seed(seed), &salt).to_string(),
            salt,
            version: progress.version,
            names,
        }
    }

    pub(crate) fn id(&self) -> GameId {
        self.id
    }

    pub(crate) fn id_text(&self) -> &str {
        &self.id_text
    }

    /// The game as committed (durable).
    pub(crate) fn game(&self) -> &Game {
        &self.game
    }

    pub(crate) fn seed(&self) -> u64 {
        self.seed
    }

    pub(crate) fn options(&self) -> Options {
        self.options
    }

    pub(crate) fn salt(&self) -> &Salt {
        &self.salt
    }

    pub(crate) fn commitment(&self) -> &str {
        &self.commitment
    }

    /// The state version: how many actions are committed.
    pub(crate) fn version(&self) -> u64 {
        self.version
    }

    pub(crate) fn names(&self) -> &[String] {
        &self.names
    }

    pub(crate) fn finished_at(&self) -> Option<Instant> {
        self.finished_at
    }

    pub(crate) fn result_pending(&self) -> bool {
        self.result_pending
    }

    pub(crate) fn clocks(&self) -> Option<&Clocks> {
        self.clocks.as_ref()
    }

    pub(crate) fn clocks_mut(&mut self) -> Option<&mut Clocks> {
        self.clocks.as_mut()
    }

    pub(crate) fn stand_in_actions(&self) -> &[u64] {
        &self.stand_in_actions
    }

    pub(crate) fn last_mover(&self) -> Mover {
        self.last_mover
    }

    pub(crate) fn history(&self) -> &[(Mover, Events)] {
        &self.history
    }

    /// An action is durable: `next` is the game after it, `clocks` the
    /// clocks, `by` who made it. The version goes up by one, and a game
    /// the action ended is finished as of `now`.
    pub(crate) fn commit(
        &mut self,
        next: Game,
        clocks: Option<Clocks>,
        by: Mover,
        events: Events,
        now: Instant,
    ) {
        self.game = next;
        if by == Mover::StandIn {
            self.stand_in_actions.push(self.version);
        }
        self.version += 1;
        self.clocks = clocks;
        self.last_mover = by;
        self.history.push((by, events));
        if self.game.is_over() && self.finished_at.is_none() {
            self.finished_at = Some(now);
        }
    }

    /// The store's log replaced the game (it was ahead of the room);
    /// true when that log ended the game.
    pub(crate) fn reload(
        &mut self,
        game: Game,
        version: u64,
        history: Vec<(Mover, Events)>,
        now: Instant,
    ) -> bool {
        self.game = game;
        self.version = version;
        self.history = history;
        if self.game.is_over() && self.finished_at.is_none() {
            self.finished_at = Some(now);
            return true;
        }
        false
    }

    /// Whether storing the result failed (and is tried again at the close).
    pub(crate) fn set_result_pending(&mut self, pending: bool) {
        self.result_pending = pending;
    }
}
