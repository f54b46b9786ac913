//! The thinking pool's gate (issue 22): a fixed number of thinking threads,
//! handed out to games with a person seated before games of bots only, each
//! kind in the order it asked. A table of bots entertains nobody at it, so
//! sixty of them must not make a person's opponent wait: with the threads
//! busy, the next free one goes to the oldest waiting move of a game with
//! people, and only when none waits to a bots-only game.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::oneshot;

#[derive(Debug, Default)]
struct State {
    free: usize,
    people: VecDeque<oneshot::Sender<()>>,
    bots: VecDeque<oneshot::Sender<()>>,
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
                free: threads.max(1),
                ..State::default()
            }),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Every change is a push, a pop or a count: a poisoned state is consistent.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Waits for a thread; `people`: the move is for a game with a person
    /// seated.
    pub(crate) async fn acquire(self: &Arc<Self>, people: bool) -> Pass {
        let waiting = {
            let mut state = self.lock();
            if state.free > 0 {
                state.free -= 1;
                None
            } else {
                let (tx, rx) = oneshot::channel();
                if people {
                    state.people.push_back(tx);
                } else {
                    state.bots.push_back(tx);
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
    /// the oldest waiting bots-only game (skipping those who stopped
    /// waiting), else back to the free count.
    fn release(&self) {
        let mut state = self.lock();
        loop {
            let next = match state.people.pop_front() {
                Some(tx) => tx,
                None => match state.bots.pop_front() {
                    Some(tx) => tx,
                    None => {
                        state.free += 1;
                        return;
                    }
                },
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
    async fn a_free_thread_goes_to_a_game_with_people_before_any_bots_only_game() {
        let gate = FairGate::new(1);
        let held = gate.acquire(false).await;
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        // Three bots-only moves ask first, then one of a game with people.
        for (i, people) in [(0, false), (1, false), (2, false), (3, true)] {
            let (gate, order) = (gate.clone(), order.clone());
            tasks.push(tokio::spawn(async move {
                let _pass = gate.acquire(people).await;
                order.lock().unwrap().push(i);
            }));
            tokio::task::yield_now().await;
        }
        // One that stops waiting gives its turn to the next.
        tasks.remove(1).abort();
        tokio::task::yield_now().await;
        drop(held);
        for task in tasks {
            task.await.unwrap();
        }
        assert_eq!(*order.lock().unwrap(), [3, 0, 2]);
        // Every thread is back.
        assert_eq!(gate.lock().free, 1);
    }
}
