//! Operators' sanctions and their audit log (issue 22). The store keeps
//! them and says which are in force; what a sanction matches (a session,
//! a name pattern, an address range) is the server's to decide. Every
//! sanction and every lift writes an audit row in the same transaction;
//! nothing here deletes either.

use crate::backend::dispatch;
use crate::{Store, StoreError};

/// The sanction kind of a mark (issue 22): the session is kept off the
/// leaderboards (`value`: the session id in 32 hexadecimal digits).
pub const MARK_SESSION: &str = "mark_session";

/// The name a forgotten player's games show.
pub const FORMER_PLAYER: &str = "a former player";

/// A sanction as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sanction {
    /// Its number.
    pub id: i64,
    /// What it is (`ban_session`, `ban_name`, `ban_address`, ...).
    pub kind: String,
    /// Whom it names (a session id, a name pattern, an address range).
    pub value: String,
    /// When it runs out, in Unix ms by the database's clock; `None`: never.
    pub until_ms: Option<i64>,
    /// Why, as the operator said it (shown to the player).
    pub reason: String,
    /// When it was made, in Unix ms by the database's clock.
    pub created_at: i64,
    /// When it was lifted, if it was.
    pub lifted_at: Option<i64>,
}

/// A sanction to make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewSanction {
    /// What it is.
    pub kind: String,
    /// Whom it names.
    pub value: String,
    /// How long from now it holds, in ms; `None`: for good.
    pub until_in_ms: Option<i64>,
    /// Why.
    pub reason: String,
    /// Who makes it (for the audit: `operator`, or `system`).
    pub actor: String,
}

/// One entry of the audit log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditEntry {
    /// Its number (entries are in this order).
    pub id: i64,
    /// When, in Unix ms by the database's clock.
    pub at: i64,
    /// Who.
    pub actor: String,
    /// What (`sanction`, `lift`, ...).
    pub action: String,
    /// On what.
    pub target: String,
    /// Why.
    pub reason: String,
}

/// An audit row to write.
pub(crate) struct AuditNote<'a> {
    pub(crate) actor: &'a str,
    pub(crate) action: &'a str,
    pub(crate) target: &'a str,
    pub(crate) reason: &'a str,
}

impl Store {
    /// Makes a sanction, and audits it.
    pub async fn add_sanction(&self, new: &NewSanction) -> Result<Sanction, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::add_sanction(pool, new).await)
    }

    /// Lifts sanction `id`, and audits it; `None` if there is no such
    /// sanction in force.
    pub async fn lift_sanction(
        &self,
        id: i64,
        actor: &str,
        reason: &str,
    ) -> Result<Option<Sanction>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::lift_sanction(pool, id, actor, reason).await)
    }

    /// The sanctions in force now, oldest first.
    pub async fn active_sanctions(&self) -> Result<Vec<Sanction>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::active_sanctions(pool).await)
    }

    /// Forgets `session`'s player: its name becomes [`FORMER_PLAYER`]
    /// wherever it is stored, its token stops working, it leaves the
    /// quick-play queue and its notification settings go; its games and their replays stay (the replays
    /// still verify: names are not part of a game's commitment). Audited as
    /// `forget` by `actor`. False when there is no such session.
    pub async fn forget_session(
        &self,
        session: crate::SessionId,
        actor: &str,
        reason: &str,
    ) -> Result<bool, StoreError> {
        // A hash of nothing anyone holds: 32 random bytes.
        let mut unusable = [0u8; 32];
        {
            use rand_core::TryRngCore;
            rand_core::OsRng
                .try_fill_bytes(&mut unusable)
                .map_err(|e| StoreError::Invalid {
                    what: "random source",
                    reason: e.to_string(),
                })?;
        }
        let target = format!("session:{}", session.0.simple());
        let note = AuditNote {
            actor,
            action: "forget",
            target: &target,
            reason,
        };
        let id = session.0;
        dispatch!(&self.inner.pool, pool, q => q::forget_session(pool, id, FORMER_PLAYER, &unusable, &note).await)
    }

    /// Deletes the abandoned games: unfinished, nobody played them since
    /// `before` (Unix ms), and no live lease holds their room. Finished
    /// games (and so every replay and rating) stay. Returns how many went.
    pub async fn prune_abandoned_games(
        &self,
        before: crate::UnixMillis,
    ) -> Result<u64, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::prune_abandoned_games(pool, before).await)
    }

    /// Writes an audit row of an action whose effect is not in the store
    /// (an operator removing a player from a room): `actor` did `action`
    /// to `target`, for `reason`.
    pub async fn audit(
        &self,
        actor: &str,
        action: &str,
        target: &str,
        reason: &str,
    ) -> Result<(), StoreError> {
        let note = AuditNote {
            actor,
            action,
            target,
            reason,
        };
        dispatch!(&self.inner.pool, pool, q => q::audit(pool, &note).await)
    }

    /// The newest `limit` audit entries, newest first.
    pub async fn audit_entries(&self, limit: u32) -> Result<Vec<AuditEntry>, StoreError> {
        let limit = i64::from(limit);
        dispatch!(&self.inner.pool, pool, q => q::audit_entries(pool, limit).await)
    }
}
