//! Parked turn-based games back into rooms (issue 25, R12.5): a game
//! whose room parked it waits in the store (`parked_rooms`) with no task
//! and no lease. A join or a resume of its code loads it again
//! ([`unpark`], from [`Lobby::find_anywhere`]); the sweeper
//! ([`Lobby::spawn_park_sweeper`]) loads those whose deadline passed, and
//! the restored room applies the deadline at once (the stand-in plays the
//! turn or the player resigns), exactly as a room that never parked.
//!
//! Exactly once, whatever dies when: the game is loaded under a claim of
//! its code (on several nodes the lease's claim, so one node wins), its
//! parked row is deleted only after the room runs, and the deadline's
//! action is an append at the log's next version (a second try finds it
//! in the log and starts from the turn after). A deadline that passed
//! before this server started, and that no running server had seen pass,
//! passed while no server ran: one more hour (R12.5).

use std::time::Duration;

use splendor_store::{ParkedRoom, Store, unix_millis_now};
use tracing::{debug, error, info, warn};

use super::Lobby;
use super::restore::{Reopening, Restored, restore_one};
use crate::code::RoomCode;
use crate::room::RoomHandle;

/// At most this many parked games are swept in one round.
const SWEEP_BATCH: i64 = 100;
/// A parked game that could not be loaded is tried again this much later.
const RETRY_FAILED: Duration = Duration::from_secs(60 * 60);

impl Lobby {
    /// The room of the game parked under `code`, loaded again; `None`
    /// when nothing is parked there, or it could not be loaded here
    /// (another node runs it, or the database cannot be read).
    pub(crate) async fn unpark(&self, code: RoomCode) -> Option<RoomHandle> {
        unpark(self, code).await
    }
}

async fn unpark(lobby: &Lobby, code: RoomCode) -> Option<RoomHandle> {
    let store = lobby.inner_parked()?;
    let parked = match store.parked_room(code.as_str()).await {
        Ok(parked) => parked?,
        Err(e) => {
            warn!(%code, error = %e, "cannot look for a parked game");
            return None;
        }
    };
    unpark_one(lobby, store, &parked).await
}

/// Loads `parked` into a room of `lobby` (once, whoever else tries).
async fn unpark_one(lobby: &Lobby, store: &Store, parked: &ParkedRoom) -> Option<RoomHandle> {
    let code = RoomCode::parse(&parked.room_code)?;
    let _one_at_a_time = lobby.unparking().await;
    if let Some(handle) = lobby.find_code(code) {
        // Loaded meanwhile (a join and the sweeper at once).
        forget(store, parked).await;
        return Some(handle);
    }
    let game = match store.game(parked.game).await {
        Ok(Some(game)) => game,
        Ok(None) => {
            forget(store, parked).await;
            return None;
        }
        Err(e) => {
            warn!(%code, error = %e, "cannot read a parked game");
            return None;
        }
    };
    let grace = parked.swept_at.is_none() && parked.deadline_at < lobby.started_at_millis();
    // The room that parked it may still be closing (a join right as it
    // parks): its code is free again within moments.
    // Its chat comes back with it (issue 23); a chat that cannot be read
    // is not worth the game.
    let chat = match parked
        .chat
        .as_deref()
        .map(|json| crate::stored::chat::parse_chat_json(json, &parked.room_code))
    {
        Some(Ok(lines)) => lines,
        Some(Err(e)) => {
            warn!(%code, error = %e, "a parked game's chat cannot be read; it starts anew");
            Vec::new()
        }
        None => Vec::new(),
    };
    let reopening = || Reopening {
        abandoned: false,
        grace,
        chat: chat.clone(),
    };
    let mut restored = restore_one(lobby, store, &game, reopening()).await;
    for _ in 0..50 {
        if !matches!(restored, Ok(Restored::Busy)) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
        restored = restore_one(lobby, store, &game, reopening()).await;
    }
    match restored {
        Ok(Restored::Room | Restored::Viewable) => {
            info!(%code, game = %parked.game, late = parked.deadline_at <= unix_millis_now(), "parked game loaded");
            forget(store, parked).await;
        }
        Ok(Restored::Finished | Restored::Abandoned | Restored::Superseded) => {
            forget(store, parked).await;
        }
        // Another node runs it (it loaded it first): its row is theirs.
        Ok(Restored::Elsewhere) => {
            debug!(%code, "a parked game runs on another node");
        }
        // Still closing here: the next join or sweep loads it.
        Ok(Restored::Busy) => {
            warn!(%code, "a parked game's room is still closing");
        }
        Err(why) => {
            error!(%code, game = %parked.game, error = %why, "cannot load a parked game; trying again in an hour");
            // Out of the way of the other deadlines meanwhile.
            let later = unix_millis_now().saturating_add(RETRY_FAILED.as_millis() as i64);
            if let Err(e) = store
                .postpone_parked(&parked.room_code, parked.game, later)
                .await
            {
                warn!(%code, error = %e, "cannot postpone a parked game");
            }
        }
    }
    lobby.find_code(code)
}

/// The game runs again (or never will): its row goes.
async fn forget(store: &Store, parked: &ParkedRoom) {
    if let Err(e) = store.unpark_room(&parked.room_code, parked.game).await {
        // The room runs; a later sweep finds it here and tries again.
        warn!(code = parked.room_code, error = %e, "a loaded game stays marked parked for now");
    }
}

/// One round of the sweeper: loads every parked game whose deadline passed
/// (at most [`SWEEP_BATCH`]); how many it looked at.
pub(super) async fn sweep(lobby: &Lobby) -> usize {
    let Some(store) = lobby.inner_parked() else {
        return 0;
    };
    // A stopping node loads nothing it would leave at once.
    if lobby.is_stopping() {
        return 0;
    }
    let due = match store.due_parked_rooms(unix_millis_now(), SWEEP_BATCH).await {
        Ok(due) => due,
        Err(e) => {
            warn!(error = %e, "cannot look for parked games whose deadline passed");
            return 0;
        }
    };
    for parked in &due {
        unpark_one(lobby, store, parked).await;
    }
    due.len()
}

impl Lobby {
    /// Parks turn-based games in `store` from now on (issue 25): rooms
    /// park after [`LobbyConfig::park_after`](crate::LobbyConfig), and a
    /// join of a parked game's code loads it. Set once, with the store the
    /// games are in.
    pub fn set_park_store(&self, store: Store) {
        let _ = self.inner.parked.set(store);
    }

    /// The settings each room gets: parking only with a store to park in.
    pub(crate) fn room_config(&self) -> splendor_room::RoomConfig {
        let mut config = self.config().room();
        if self.inner.parked.get().is_none() {
            config.park_after = None;
        }
        config
    }

    /// How many parked games `session` sits in (0 without a store, or
    /// when the store cannot say: the cap is a courtesy, not a guard).
    pub(crate) async fn parked_seats_of(&self, session: crate::session::SessionId) -> usize {
        let Some(store) = self.inner_parked() else {
            return 0;
        };
        match store
            .parked_seats_of(splendor_store::SessionId(session.0))
            .await
        {
            Ok(n) => usize::try_from(n).unwrap_or(0),
            Err(e) => {
                warn!(error = %e, "cannot count a session's parked games");
                0
            }
        }
    }

    /// How many parked games were made from `client` (0 without a store,
    /// or when the store cannot say: like the per-session count, a
    /// courtesy, not a guard).
    pub(crate) async fn parked_from(&self, client: &crate::ClientKey) -> usize {
        let Some(store) = self.inner_parked() else {
            return 0;
        };
        match store.parked_from(client.as_str()).await {
            Ok(n) => usize::try_from(n).unwrap_or(0),
            Err(e) => {
                warn!(error = %e, "cannot count an address's parked games");
                0
            }
        }
    }

    /// Whether a game is parked under `code` (a store that cannot say
    /// counts as yes: a new room then draws another code).
    pub(crate) async fn is_parked(&self, code: RoomCode) -> bool {
        let Some(store) = self.inner_parked() else {
            return false;
        };
        !matches!(store.parked_room(code.as_str()).await, Ok(None))
    }

    fn inner_parked(&self) -> Option<&Store> {
        self.inner.parked.get()
    }

    async fn unparking(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.inner.unparking.lock().await
    }

    fn is_stopping(&self) -> bool {
        self.inner
            .stopping
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    fn started_at_millis(&self) -> splendor_store::UnixMillis {
        self.inner.started_at
    }

    /// Runs the sweeper: every [`LobbyConfig::park_sweep_every`]
    /// (crate::LobbyConfig), the parked games whose deadline passed are
    /// loaded and their deadline applied. Ends with the lobby.
    pub fn spawn_park_sweeper(&self) -> tokio::task::JoinHandle<()> {
        let weak = std::sync::Arc::downgrade(&self.inner);
        let every = self
            .config()
            .park_sweep_every
            .max(Duration::from_millis(10));
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(inner) = weak.upgrade() else {
                    return;
                };
                sweep(&Lobby { inner }).await;
            }
        })
    }
}
