//! The analyses of finished games (issue 26): made once, kept, shared by
//! every node. A node claims a game's analysis before it starts, writes
//! its progress as it goes and its body at the end; a claim whose owner
//! stopped writing (a node killed, a process restarted) is taken over by
//! the next claim after `stale_ms`. Only the claim's owner can write
//! progress or the end, so two nodes never both finish one analysis, and
//! a finished analysis is never written again.

use uuid::Uuid;

use crate::backend::dispatch;
use crate::{Store, StoreError};

/// What the store holds of a game's analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalysisRecord {
    /// Finished: the analysis's JSON.
    Done(String),
    /// Claimed and under way.
    Running {
        /// Positions judged.
        done: u32,
        /// Positions to judge.
        total: u32,
        /// Who claimed it.
        owner: String,
        /// How long ago (by the database's clock) the owner last wrote, in ms.
        idle_ms: i64,
    },
}

impl Store {
    /// The analysis of `game`, finished or under way; `None` when nobody
    /// has claimed it.
    pub async fn analysis(&self, game: Uuid) -> Result<Option<AnalysisRecord>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::analysis(pool, game).await)
    }

    /// Claims the analysis of `game` (of `total` positions) for `owner`:
    /// true when nobody had claimed it, when `owner` itself had (a claim it
    /// no longer works on), or when its claim was not written for at least
    /// `stale_ms` (its progress starts again from 0); false when it is
    /// finished or another owner's claim is alive.
    pub async fn claim_analysis(
        &self,
        game: Uuid,
        owner: &str,
        total: u32,
        stale_ms: i64,
    ) -> Result<bool, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::claim_analysis(pool, game, owner, total, stale_ms).await)
    }

    /// Writes `done` positions judged, if `owner` still holds the claim
    /// (false when the claim was taken over).
    pub async fn analysis_progress(
        &self,
        game: Uuid,
        owner: &str,
        done: u32,
    ) -> Result<bool, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::analysis_progress(pool, game, owner, done).await)
    }

    /// Stores the finished analysis, if `owner` still holds the claim
    /// (false when the claim was taken over: the other owner's will stand).
    pub async fn finish_analysis(
        &self,
        game: Uuid,
        owner: &str,
        body: &str,
    ) -> Result<bool, StoreError> {
        crate::model::check_json("analysis JSON", body)?;
        dispatch!(&self.inner.pool, pool, q => q::finish_analysis(pool, game, owner, body).await)
    }

    /// Gives a claim up (the owner stops before the end), so that the next
    /// request claims it at once.
    pub async fn release_analysis(&self, game: Uuid, owner: &str) -> Result<(), StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::release_analysis(pool, game, owner).await)
    }
}
