//! What a finished game always answers the same, kept ready (issue 22,
//! defect 4): `GET /api/games/{id}/positions` plays the whole game back
//! and answers about a quarter of a megabyte; a finished game never
//! changes, so its body is made once and served from memory after that,
//! up to a budget of bytes (the oldest bodies go first).

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use axum::body::Bytes;
use uuid::Uuid;

/// The most bytes of bodies kept.
pub(crate) const BUDGET: usize = 32 * 1024 * 1024;

/// Bodies of finished games by id, within [`BUDGET`].
#[derive(Default)]
pub(crate) struct FinishedBodies {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    bodies: HashMap<Uuid, Bytes>,
    /// Oldest first.
    order: VecDeque<Uuid>,
    bytes: usize,
}

impl FinishedBodies {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The body kept for `game`, if any.
    pub(crate) fn get(&self, game: Uuid) -> Option<Bytes> {
        self.lock().bodies.get(&game).cloned()
    }

    /// Keeps `body` for `game` (a finished game's: it never changes),
    /// letting the oldest go to stay within the budget.
    pub(crate) fn put(&self, game: Uuid, body: Bytes) {
        if body.len() > BUDGET / 8 {
            return;
        }
        let mut inner = self.lock();
        if inner.bodies.contains_key(&game) {
            return;
        }
        inner.bytes += body.len();
        inner.bodies.insert(game, body);
        inner.order.push_back(game);
        while inner.bytes > BUDGET {
            let Some(oldest) = inner.order.pop_front() else {
                break;
            };
            if let Some(gone) = inner.bodies.remove(&oldest) {
                inner.bytes -= gone.len();
            }
        }
    }

    /// Forgets every body (a player was forgotten: their name is in some).
    pub(crate) fn clear(&self) {
        let mut inner = self.lock();
        inner.bodies.clear();
        inner.order.clear();
        inner.bytes = 0;
    }

    /// Forgets `game`'s body.
    #[cfg(test)]
    pub(crate) fn forget(&self, game: Uuid) {
        let mut inner = self.lock();
        if let Some(gone) = inner.bodies.remove(&game) {
            inner.bytes -= gone.len();
            inner.order.retain(|g| *g != game);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_kept_within_the_budget_oldest_first_out() {
        let cache = FinishedBodies::default();
        let big = Bytes::from(vec![b'x'; BUDGET / 8]);
        let ids: Vec<Uuid> = (0..10).map(|i| Uuid::from_u128(i + 1)).collect();
        for id in &ids {
            cache.put(*id, big.clone());
        }
        // 8 fit; the first two went.
        assert!(cache.get(ids[0]).is_none());
        assert!(cache.get(ids[1]).is_none());
        for id in &ids[2..] {
            assert_eq!(cache.get(*id).unwrap().len(), BUDGET / 8);
        }
        // Too big for the cache: not kept.
        cache.put(Uuid::from_u128(99), Bytes::from(vec![0; BUDGET / 8 + 1]));
        assert!(cache.get(Uuid::from_u128(99)).is_none());
        cache.forget(ids[5]);
        assert!(cache.get(ids[5]).is_none());
        assert_eq!(cache.lock().bytes, 7 * (BUDGET / 8));
    }
}
