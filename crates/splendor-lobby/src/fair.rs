//! The thinking pool's gate (issue 22): a fixed number of thinking threads,
//! handed out to games with a person seated before games of bots only, each
//! kind in the order it asked. A table of bots entertains nobody at it, so
//! sixty of them must not make a person's opponent wait: with the threads
//! busy, the next free one goes to the oldest waiting move of a game with
//! people, and only when none waits to a bots-only game. Background work
//! (the analyses of finished games, issue 26) comes last of all: it gets a
//! thread only when no move of any game waits for one.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::oneshot;

#[derive(Debug, Default)]
struct State {
    /// Threads in all.
    threads: usize,
    free: usize,
    people: VecDeque<oneshot::Sender<()>>,
    bots: VecDeque<oneshot::Sender<()>>,
    background: VecDeque<oneshot::Sender<()>>,
}

/// Who asks for a thread, first served first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Priority {
    /// A move of a game with a person seated.
    People,
    /// A move of a game of bots only.
    Bots,
    /// Work for no game in play (an analysis).
    Background,
}

/// Thinking threads, people's games first.
#[derive(Debug)]
pub(crate) struct FairGate {
    state: Mutex<State>,
}

/// A thread held; given back when dropped.
#[derive(Debug)]
pub(crate) struct Pass {
    gate: Arc<FairGate>,
}

impl Drop for Pass {
    fn drop(&mut self) {
        self.gate.release();
    }
}

impl FairGate {
    pub(crate) fn new(threads: usize) -> Arc<FairGate> {
        Arc::new(FairGate {
            state: Mutex::new(State {
                threads: threads.max(1),
                free: threads.max(1),
                ..State::default()
            }),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Every change is a push, a pop or a count: a poisoned state is consistent.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Threads in all.
    pub(crate) fn threads(&self) -> usize {
        self.lock().threads
    }

    /// Waits for a thread.
    pub(crate) async fn acquire(self: &Arc<Self>, priority: Priority) -> Pass {
        let waiting = {
            let mut state = self.lock();
            if state.free > 0 {
                state.free -= 1;
                None
            } else {
                let (tx, rx) = oneshot::channel();
                match priority {
                    Priority::People => state.people.push_back(tx),
                    Priority::Bots => state.bots.push_back(tx),
                    Priority::Background => state.background.push_back(tx),
                }
                Some(rx)
            }
        };
        if let Some(rx) = waiting {
            // The sender is dropped only after handing the thread over, or
            // with the gate; either way the thread is ours or nobody's.
            let _ = rx.await;
        }
        Pass { gate: self.clone() }
    }

    /// A thread is free: to the oldest waiting game with people, else to
    /// the oldest waiting bots-only game, else to the oldest background
    /// work (skipping those who stopped waiting), else back to the free
    /// count.
    fn release(&self) {
        let mut state = self.lock();
        loop {
            let next = if let Some(tx) = state.people.pop_front() {
                tx
            } else if let Some(tx) = state.bots.pop_front() {
                tx
            } else if let Some(tx) = state.background.pop_front() {
                tx
            } else {
                state.free += 1;
                return;
            };
            if next.send(()).is_ok() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_free_thread_goes_to_a_game_with_people_then_to_bots_only_games_then_to_an_analysis()
    {
        let gate = FairGate::new(1);
        let held = gate.acquire(Priority::Bots).await;
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        // An analysis asks first, then three bots-only moves, then one of a
        // game with people.
        for (i, priority) in [
            (4, Priority::Background),
            (0, Priority::Bots),
            (1, Priority::Bots),
            (2, Priority::Bots),
            (3, Priority::People),
        ] {
            let (gate, order) = (gate.clone(), order.clone());
            tasks.push(tokio::spawn(async move {
                let _pass = gate.acquire(priority).await;
                order.lock().unwrap().push(i);
            }));
            tokio::task::yield_now().await;
        }
        // One that stops waiting gives its turn to the next.
        tasks.remove(2).abort();
        tokio::task::yield_now().await;
        drop(held);
        for task in tasks {
            task.await.unwrap();
        }
        assert_eq!(*order.lock().unwrap(), [3, 0, 2, 4]);
        // Every thread is back.
        assert_eq!(gate.lock().free, 1);
    }
}
