//! Follows (issue 50): a player follows another to find them in a friends
//! list. A follow is one way; two who follow each other are friends, and
//! only a friend sees when the other was last seen and the room of the
//! game they sit in. While either of two blocks the other (issue 22),
//! neither appears in the other's lists. Kept in the store, so they hold
//! on every node.

use crate::backend::dispatch;
use crate::{SessionId, Store, StoreError, UnixMillis};

/// A session someone follows, or one that follows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Followed {
    /// The session.
    pub session: SessionId,
    /// Its public id.
    pub player_id: String,
    /// Its name now.
    pub name: String,
    /// When the follow was made, Unix ms.
    pub since: UnixMillis,
    /// The two follow each other.
    pub mutual: bool,
    /// When some node last saw it connected (or it was made), Unix ms;
    /// only for a friend (`mutual`).
    pub last_seen: Option<UnixMillis>,
    /// The room of the newest unfinished game it holds a seat in; only
    /// for a friend.
    pub room: Option<String>,
}

/// What [`Store::follow`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Following {
    /// Followed now.
    Made,
    /// It was followed already.
    Already,
    /// The follower follows as many sessions as it may: nothing changed.
    TooMany,
}

/// A player's accuracy over the analyses of their rated games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanAccuracy {
    /// How many analysed rated games it is the mean of (the newest, at
    /// most [`ACCURACY_GAMES`]).
    pub games: u32,
    /// The mean of their accuracy in each, 0 to 100; `None` without any.
    pub mean: Option<f64>,
}

/// The most analysed games a player's mean accuracy reads.
pub const ACCURACY_GAMES: u32 = 100;

impl Store {
    /// `follower` follows `followed`, unless it follows `max` sessions
    /// already.
    pub async fn follow(
        &self,
        follower: SessionId,
        followed: SessionId,
        now: UnixMillis,
        max: u32,
    ) -> Result<Following, StoreError> {
        if follower == followed {
            return Err(StoreError::invalid(
                "followed",
                "a session cannot follow itself",
            ));
        }
        let done = dispatch!(&self.inner.pool, pool, q => q::follow(pool, (follower.0, followed.0), now, i64::from(max)).await)?;
        Ok(match done {
            Some(true) => Following::Made,
            Some(false) => Following::Already,
            None => Following::TooMany,
        })
    }

    /// `follower` no longer follows `followed`; whether it did.
    pub async fn unfollow(
        &self,
        follower: SessionId,
        followed: SessionId,
    ) -> Result<bool, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::unfollow(pool, follower.0, followed.0).await)
    }

    /// The sessions `follower` follows, by name, without any that blocks
    /// it or that it blocks; a friend's with when it was last seen and its
    /// room.
    pub async fn follows_of(&self, follower: SessionId) -> Result<Vec<Followed>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::follows_of(pool, follower.0).await)
    }

    /// The sessions that follow `followed` and that it does not follow
    /// back (to follow back), newest first, without blocks either way;
    /// at most `limit`.
    pub async fn followers_of(
        &self,
        followed: SessionId,
        limit: u32,
    ) -> Result<Vec<Followed>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::followers_of(pool, followed.0, i64::from(limit)).await)
    }

    /// The mean accuracy of the rated player `player_id` over the finished
    /// analyses of their newest [`ACCURACY_GAMES`] analysed rated games.
    pub async fn mean_accuracy(&self, player_id: &str) -> Result<MeanAccuracy, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::mean_accuracy(pool, player_id, i64::from(ACCURACY_GAMES)).await)
    }
}
