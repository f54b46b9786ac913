//! Tables of bots only, counted against the address that made them (issue
//! 45, defect 3). The start of a table with nobody but bots at it is
//! capped per address ([`crate::Lobby::check_bot_table`]); but a person
//! could sit at the table to start it and leave after, and the bots (and
//! the stand-in playing the person's seat) then played on: one address ran
//! 30 of 30 tables of strong bots. What such tables cost is thinking, so
//! the budget holds where they think: the moves of the tables made from
//! one address with no person connected think at most
//! [`crate::LobbyConfig::max_bot_tables_per_ip`] at a time, each move
//! waiting its turn in the order asked (a fair semaphore per address),
//! however the tables were started and however many there are. Thirty
//! such tables of one address then share four threads' worth of thinking
//! instead of taking the pool; a table whose person is connected never
//! waits here.
//!
//! A turn is held for one move's thinking only (bounded by the level's
//! budget), so nothing waits on a table that stopped: a table left at its
//! person's turn holds nothing. Per node, like the start's cap; rooms of
//! an address the host lifted the budgets for (no client key) and
//! restored rooms are not counted.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::ClientKey;

/// The bots-only thinking of every address of this node.
#[derive(Debug)]
pub(crate) struct BotTables {
    /// At most this many moves of one address's tables think at once; 0:
    /// unlimited.
    cap: usize,
    by_client: Mutex<HashMap<ClientKey, Arc<Semaphore>>>,
    /// Moves that had to wait for their address's turn.
    waited: AtomicU64,
}

/// One move's turn; the next waiting move of the address goes when it is
/// dropped.
#[derive(Debug)]
pub(crate) struct Turn(#[allow(dead_code)] Option<OwnedSemaphorePermit>);

impl BotTables {
    pub(crate) fn new(cap: usize) -> Arc<BotTables> {
        Arc::new(BotTables {
            cap,
            by_client: Mutex::new(HashMap::new()),
            waited: AtomicU64::new(0),
        })
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<ClientKey, Arc<Semaphore>>> {
        // Every change is an insert or a remove: a poisoned map is
        // consistent.
        self.by_client.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits for a turn to think a move of a table of bots only made from
    /// `client`.
    pub(crate) async fn turn(&self, client: &ClientKey) -> Turn {
        if self.cap == 0 {
            return Turn(None);
        }
        let semaphore = {
            let mut all = self.lock();
            // Addresses with nothing thinking and nobody waiting are
            // forgotten (their semaphore is held by the map alone).
            if all.len() > 64 {
                let cap = self.cap;
                all.retain(|_, s| Arc::strong_count(s) > 1 || s.available_permits() < cap);
            }
            all.entry(client.clone())
                .or_insert_with(|| Arc::new(Semaphore::new(self.cap)))
                .clone()
        };
        if let Ok(turn) = semaphore.clone().try_acquire_owned() {
            return Turn(Some(turn));
        }
        self.waited.fetch_add(1, Ordering::Relaxed);
        // The semaphore is never closed.
        Turn(semaphore.acquire_owned().await.ok())
    }

    /// Moves that had to wait for their address's turn, so far.
    pub(crate) fn waited(&self) -> u64 {
        self.waited.load(Ordering::Relaxed)
    }

    /// Moves waiting for a turn, on this node.
    #[cfg(test)]
    fn waiting(&self) -> usize {
        let cap = self.cap;
        self.lock()
            .values()
            .map(|s| (Arc::strong_count(s) - 1).saturating_sub(cap - s.available_permits()))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::Future;
    use std::pin::Pin;
    use std::task::{Context, Poll, Waker};

    /// Polls `f` once: its output if it is done.
    fn poll_once<F: Future>(f: Pin<&mut F>) -> Option<F::Output> {
        let mut cx = Context::from_waker(Waker::noop());
        match f.poll(&mut cx) {
            Poll::Ready(out) => Some(out),
            Poll::Pending => None,
        }
    }

    #[tokio::test]
    async fn an_address_thinks_at_most_its_cap_of_moves_at_once_in_order() {
        let gate = BotTables::new(2);
        let a = ClientKey::new("203.0.113.9");
        let b = ClientKey::new("198.51.100.1");
        let first = gate.turn(&a).await;
        let second = gate.turn(&a).await;
        // Another address is not held by this one's.
        let _other = gate.turn(&b).await;
        let mut third = Box::pin(gate.turn(&a));
        assert!(poll_once(third.as_mut()).is_none());
        let mut fourth = Box::pin(gate.turn(&a));
        assert!(poll_once(fourth.as_mut()).is_none());
        assert_eq!(gate.waiting(), 2);
        assert_eq!(gate.waited(), 2);
        // One move is thought: the oldest waiter goes, the other waits.
        drop(first);
        let third = poll_once(third.as_mut()).expect("the oldest waiter's turn");
        assert!(poll_once(fourth.as_mut()).is_none());
        // A waiter that gave up (its move was replaced) waits no more.
        drop(fourth);
        assert_eq!(gate.waiting(), 0);
        drop(second);
        drop(third);
        let _again = gate.turn(&a).await;
    }

    #[tokio::test]
    async fn a_cap_of_zero_holds_nobody() {
        let gate = BotTables::new(0);
        let a = ClientKey::new("203.0.113.9");
        let mut turns = Vec::new();
        for _ in 0..5 {
            turns.push(gate.turn(&a).await);
        }
        assert_eq!(turns.len(), 5);
        assert_eq!(gate.waiting(), 0);
    }
}
