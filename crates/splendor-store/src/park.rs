//! Turn-based games parked in the store (issue 25, R12.5): a game whose
//! players are all away and whose turn waits for a person holds no room
//! task and no lease, only a row here with its turn's deadline. A join or
//! a resume loads it again from its log; the sweeper of whichever node
//! sees its deadline passed loads it and lets the room apply the deadline
//! (the lease's claim decides which node, and the log's append at one
//! version makes the deadline's action happen once). Parked games are not
//! restored at start, and are no one's orphans.

use crate::backend::dispatch;
use crate::{Store, StoreError, UnixMillis};

/// One parked game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParkedRoom {
    /// Its room's code.
    pub room_code: String,
    /// The game.
    pub game: uuid::Uuid,
    /// When the turn it waits on ends (R12.5), Unix ms.
    pub deadline_at: UnixMillis,
    /// When it was parked.
    pub parked_at: UnixMillis,
    /// When a running server first found its deadline passed, if one did.
    pub swept_at: Option<UnixMillis>,
    /// The chat its room kept (issue 23), as the lobby's stored format
    /// writes it (a JSON array), if any.
    pub chat: Option<String>,
}

impl Store {
    /// Parks `game` of room `code` until `deadline_at` (replacing what the
    /// code had parked). With `epoch` (several nodes), only while the
    /// room's lease has that epoch: else [`StoreError::Fenced`], nothing
    /// written (a node that lost the room cannot park it).
    pub async fn park_room(
        &self,
        code: &str,
        game: uuid::Uuid,
        (deadline_at, now): (UnixMillis, UnixMillis),
        epoch: Option<u64>,
    ) -> Result<(), StoreError> {
        self.park_room_with_chat(code, game, (deadline_at, now), epoch, None, None)
            .await
    }

    /// How many games are parked whose rooms were made from `client`
    /// (issue 45: they count in its budget of unfinished rooms).
    pub async fn parked_from(&self, client: &str) -> Result<u64, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::parked_from(pool, client).await)
    }

    /// [`Store::park_room`] with the chat its room kept (issue 23).
    pub async fn park_room_with_chat(
        &self,
        code: &str,
        game: uuid::Uuid,
        (deadline_at, now): (UnixMillis, UnixMillis),
        epoch: Option<u64>,
        chat: Option<&str>,
        client: Option<&str>,
    ) -> Result<(), StoreError> {
        let epoch = epoch.map(|e| i64::try_from(e).unwrap_or(i64::MAX));
        dispatch!(&self.inner.pool, pool, q => q::park_room(pool, code, game, (deadline_at, now), epoch, (chat, client)).await)
    }

    /// Moves the deadline of a parked game that could not be loaded to
    /// `until`, out of the other deadlines' way.
    pub async fn postpone_parked(
        &self,
        code: &str,
        game: uuid::Uuid,
        until: UnixMillis,
    ) -> Result<(), StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::postpone_parked(pool, code, game, until).await)
    }

    /// The game parked under room `code`, if any.
    pub async fn parked_room(&self, code: &str) -> Result<Option<ParkedRoom>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::parked_room(pool, code).await)
    }

    /// Takes `game` of room `code` out of the parked games (it runs in a
    /// room again); whether it was parked.
    pub async fn unpark_room(&self, code: &str, game: uuid::Uuid) -> Result<bool, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::unpark_room(pool, code, game).await)
    }

    /// The parked games whose deadline is at or before `now`, soonest
    /// first, at most `limit`, as they were; each is marked as seen passed
    /// by a running server (`swept_at`) if it was not yet.
    pub async fn due_parked_rooms(
        &self,
        now: UnixMillis,
        limit: i64,
    ) -> Result<Vec<ParkedRoom>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::due_parked_rooms(pool, now, limit).await)
    }

    /// How many parked games `session` sits in.
    pub async fn parked_seats_of(&self, session: crate::SessionId) -> Result<i64, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::parked_seats_of(pool, session.0).await)
    }

    /// How many games are parked.
    pub async fn parked_count(&self) -> Result<i64, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::parked_count(pool).await)
    }
}
