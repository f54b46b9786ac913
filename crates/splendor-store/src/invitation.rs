//! Invitations (issue 25): a player in a room waiting for players invites
//! another by `player_id` ([`crate::player_id`]; names are not unique); the
//! invitee finds it in "My games" to accept (join the room) or decline.
//! An invitation names the room's code and the epoch of the room's lease
//! when it was made, so that a later room under the same code does not
//! inherit it. An inviter may make only so many in an hour (counted here,
//! so the limit holds on every node); inviting the same player to the same
//! room again makes nothing new.

use uuid::Uuid;

use crate::backend::dispatch;
use crate::{SessionId, Store, StoreError, UnixMillis};

/// A session as an invitation finds it by its `player_id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invitee {
    /// The session.
    pub session: SessionId,
    /// Its display name.
    pub name: String,
}

/// One invitation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invitation {
    /// Its id (what declining names).
    pub id: Uuid,
    /// The room's code.
    pub room_code: String,
    /// The epoch of the room's lease when it was made.
    pub room_epoch: u64,
    /// Who invites.
    pub from: SessionId,
    /// Their name then.
    pub from_name: String,
    /// Who is invited.
    pub to: SessionId,
    /// When, Unix ms.
    pub created_at: UnixMillis,
    /// What the room offered then (issue 24: a `challenge`'s `terms`, as
    /// JSON); `None` for invitations from before it was kept.
    pub terms_json: Option<String>,
}

/// What [`Store::invite`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Invited {
    /// A new invitation, with this id.
    Made(Uuid),
    /// The same inviter had already invited the same player to the same
    /// room (under the same lease): nothing new, its id.
    Already(Uuid),
    /// The inviter made `max` invitations since the window's start; the
    /// oldest of them leaves the window at this time (Unix ms).
    Limited {
        /// When the oldest counted invitation was made.
        oldest_at: UnixMillis,
    },
}

/// Whom a player id as someone typed it names ([`Store::find_player`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FoundPlayer {
    /// Not ten hexadecimal digits.
    NotAnId,
    /// No session has it.
    Nobody,
    /// Two sessions share it (forty bits): neither is named.
    Several,
    /// The one session with it.
    One(Invitee),
}

impl Store {
    /// The session a player id names, read as a player types it (spaces
    /// around, any case), with the id as read: what `invite`, `block` and
    /// the follows (issue 50) share.
    pub async fn find_player(&self, raw: &str) -> Result<(String, FoundPlayer), StoreError> {
        let id = raw.trim().to_ascii_lowercase();
        if !crate::is_player_id(&id) {
            return Ok((id, FoundPlayer::NotAnId));
        }
        let mut found = self.sessions_by_player_id(&id).await?;
        let found = match found.len() {
            0 => FoundPlayer::Nobody,
            1 => FoundPlayer::One(found.remove(0)),
            _ => FoundPlayer::Several,
        };
        Ok((id, found))
    }

    /// The sessions whose `player_id` is `player_id`: none, one, or (ten
    /// hex digits are 40 bits) more; at most two are read.
    pub async fn sessions_by_player_id(&self, player_id: &str) -> Result<Vec<Invitee>, StoreError> {
        if !crate::is_player_id(player_id) {
            return Ok(Vec::new());
        }
        dispatch!(&self.inner.pool, pool, q => q::sessions_by_player_id(pool, player_id).await)
    }

    /// Gives every session that has no `player_id` column yet (made before
    /// migration 0016) its own; how many.
    pub async fn backfill_player_ids(&self) -> Result<u64, StoreError> {
        let mut total = 0;
        loop {
            let ids: Vec<Uuid> = dispatch!(&self.inner.pool, pool, q => q::sessions_without_player_id(pool, 500).await)?;
            if ids.is_empty() {
                return Ok(total);
            }
            let named: Vec<(Uuid, String)> = ids
                .into_iter()
                .map(|id| (id, crate::player_id(SessionId(id))))
                .collect();
            dispatch!(&self.inner.pool, pool, q => q::set_player_ids(pool, &named).await)?;
            total += named.len() as u64;
        }
    }

    /// Records `invitation` unless its inviter made `max` or more since
    /// `since` (then [`Invited::Limited`], nothing written), or it exists
    /// already ([`Invited::Already`]).
    pub async fn invite(
        &self,
        invitation: &Invitation,
        since: UnixMillis,
        max: u32,
    ) -> Result<Invited, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::invite(pool, invitation, since, i64::from(max)).await)
    }

    /// The invitations `to` has, newest first, at most `limit`.
    pub async fn invitations_to(
        &self,
        to: SessionId,
        limit: u32,
    ) -> Result<Vec<Invitation>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::invitations_to(pool, to.0, i64::from(limit)).await)
    }

    /// Declines (deletes) the invitation `id` of `to`; what it was, if it
    /// was one.
    pub async fn decline_invitation(
        &self,
        id: Uuid,
        to: SessionId,
    ) -> Result<Option<Invitation>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::decline_invitation(pool, id, to.0).await)
    }

    /// Deletes `to`'s invitations to room `room` (it joined it); how many.
    pub async fn drop_invitations(&self, to: SessionId, room: &str) -> Result<u64, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::drop_invitations(pool, to.0, room).await)
    }

    /// Deletes the invitations `ids` (their rooms are gone), and any made
    /// before `before`; how many.
    pub async fn drop_stale_invitations(
        &self,
        ids: &[Uuid],
        before: UnixMillis,
    ) -> Result<u64, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::drop_stale_invitations(pool, ids, before).await)
    }
}
