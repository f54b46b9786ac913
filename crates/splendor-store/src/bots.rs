//! Programs as others find them (issue 24): a program's name is unique
//! among programs (claimed in `bot_names`, the name folded to lower case,
//! so that the bots' leaderboard and the list of programs online name one
//! program each), and the programs connected now that take challenges are
//! listed for `GET /api/bots/online` on every node (`bots_online`).

use uuid::Uuid;

use crate::backend::dispatch;
use crate::{SessionId, Store, StoreError, UnixMillis};

/// A program connected now that takes challenges.
#[derive(Clone, Debug, PartialEq)]
pub struct OnlineBot {
    /// Its session.
    pub session: SessionId,
    /// Its name.
    pub name: String,
    /// Its public id (what a challenge names); `None` only while the
    /// store's backfill of old sessions has not reached it.
    pub player_id: Option<String>,
    /// Its rating on the bots' board, once it played a rated game.
    pub rating: Option<f64>,
    /// The rating's deviation.
    pub deviation: Option<f64>,
    /// Its rated games.
    pub rated_games: u64,
    /// Online since, Unix ms.
    pub since: UnixMillis,
    /// The node holding its connection.
    pub node: u16,
}

/// The key under which a program's name is unique: its folded form
/// (issue 46, [`splendor_names::fold`]), so "Gem-Bot", "gem bot" and
/// "Gеm-Bot" with a Cyrillic `е` are one name. A name with no letter or
/// digit is keyed by itself, trimmed, in lower case.
pub fn bot_name_key(name: &str) -> String {
    let folded = splendor_names::fold(name);
    if folded.is_empty() {
        return name.trim().to_lowercase();
    }
    folded
}

impl Store {
    /// The session holding program name `name`, if any.
    pub async fn bot_name_holder(&self, name: &str) -> Result<Option<SessionId>, StoreError> {
        let key = bot_name_key(name);
        let found = dispatch!(&self.inner.pool, pool, q => q::bot_name_holder(pool, &key).await)?;
        Ok(found.map(SessionId))
    }

    /// Claims program name `name` for `session` (freeing any other it
    /// held); false, changing nothing, when another session holds it.
    pub async fn claim_bot_name(
        &self,
        session: SessionId,
        name: &str,
        now: UnixMillis,
    ) -> Result<bool, StoreError> {
        let key = bot_name_key(name);
        dispatch!(&self.inner.pool, pool, q => q::claim_bot_name(pool, session.0, &key, now).await)
    }

    /// Keys every claimed name by [`bot_name_key`] (at open; keys made
    /// before issue 46 were the name in lower case). Of names that now
    /// fold alike, the first claimed keeps it; the others' sessions claim
    /// a name again at their next hello.
    pub(crate) async fn rekey_bot_names(&self) -> Result<(), StoreError> {
        let rows: Vec<(String, Uuid)> =
            dispatch!(&self.inner.pool, pool, q => q::bot_name_keys(pool).await)?;
        for (key, session) in rows {
            let folded = bot_name_key(&key);
            if folded != key {
                dispatch!(&self.inner.pool, pool, q => q::rekey_bot_name(pool, &key, &folded, session).await)?;
            }
        }
        Ok(())
    }

    /// Frees every program name `session` holds.
    pub async fn free_bot_names(&self, session: SessionId) -> Result<(), StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::free_bot_names(pool, session.0).await)
    }

    /// `session` is online on connection `conn` of node `node`.
    pub async fn bot_online(
        &self,
        session: SessionId,
        (node, conn): (u16, u64),
        now: UnixMillis,
    ) -> Result<(), StoreError> {
        // The connection id's bits as they are (its node is in the top 16).
        let conn = conn as i64;
        dispatch!(&self.inner.pool, pool, q => q::bot_online(pool, session.0, (i32::from(node), conn), now).await)
    }

    /// Connection `conn` of `session` ended.
    pub async fn bot_offline(&self, session: SessionId, conn: u64) -> Result<(), StoreError> {
        let conn = conn as i64;
        dispatch!(&self.inner.pool, pool, q => q::bot_offline(pool, session.0, conn).await)
    }

    /// Deletes node `node`'s rows of programs online (it starts); how many.
    pub async fn clear_bots_online(&self, node: u16) -> Result<u64, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::clear_bots_online(pool, i32::from(node)).await)
    }

    /// The programs online that take challenges, longest online first, at
    /// most `limit`; `live_nodes`: only those on a node whose claim is
    /// live (in a cluster; a single node has no claim).
    pub async fn bots_online(
        &self,
        live_nodes: bool,
        limit: u32,
    ) -> Result<Vec<OnlineBot>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::bots_online(pool, live_nodes, i64::from(limit)).await)
    }

    /// Program `session`'s owner (a digest of the secret given in `hello`,
    /// or none) and the address it said hello from (issue 24: the
    /// ladder's caps and its pairing read them).
    pub async fn set_program_owner(
        &self,
        session: SessionId,
        owner: Option<&str>,
        client: Option<&str>,
    ) -> Result<(), StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::set_program_owner(pool, session.0, owner, client).await)
    }

    /// Program `session`'s owner as kept ([`owner_digest`] of its secret),
    /// if it gave one.
    pub async fn program_owner(&self, session: SessionId) -> Result<Option<String>, StoreError> {
        dispatch!(&self.inner.pool, pool, q => q::program_owner(pool, session.0).await)
    }

    /// Puts program `session` in the programs' queue for games of
    /// `players`, only if its owner's and its address's loads ([`Store::ladder_load`])
    /// are under `(per_owner, per_address)`, counted and inserted at once
    /// (two nodes queueing one owner's programs at the same moment count
    /// each other). A session already queued gets
    /// [`StoreError::AlreadyQueued`].
    pub async fn enqueue_program(
        &self,
        session: SessionId,
        (name, players): (&str, u8),
        (at, bots_at): (UnixMillis, Option<UnixMillis>),
        (per_owner, per_address): (u32, u32),
    ) -> Result<ProgramQueued, StoreError> {
        crate::model::check_name("session name", name)?;
        if !(2..=4).contains(&players) {
            return Err(StoreError::invalid(
                "players",
                format!("a game has 2, 3 or 4 players, not {players}"),
            ));
        }
        let caps = (i64::from(per_owner), i64::from(per_address));
        let queued = dispatch!(&self.inner.pool, pool, q => q::enqueue_program(pool, session.0, (name, i32::from(players)), (at, bots_at), caps).await)?;
        if queued {
            return Ok(ProgramQueued::Queued);
        }
        if let Some(entry) = self.queue_entry(session).await? {
            return Err(StoreError::AlreadyQueued(entry.players));
        }
        Ok(ProgramQueued::Capped(self.ladder_load(session).await?))
    }

    /// The rated program games that count against `session`'s caps (issue
    /// 24), running or waiting in the queue: those of its owner (or its
    /// own, without one), and those of programs from its address.
    pub async fn ladder_load(&self, session: SessionId) -> Result<LadderLoad, StoreError> {
        let (by_owner, by_address) =
            dispatch!(&self.inner.pool, pool, q => q::ladder_load(pool, session.0).await)?;
        Ok(LadderLoad {
            by_owner: u64::try_from(by_owner).unwrap_or(0),
            by_address: u64::try_from(by_address).unwrap_or(0),
        })
    }
}

/// What [`Store::enqueue_program`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgramQueued {
    /// It waits in the programs' queue.
    Queued,
    /// Its owner's or its address's load reached a cap: not queued.
    Capped(LadderLoad),
}

/// What counts against a program's caps on rated games at once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LadderLoad {
    /// Games of its owner's programs (its own, without an owner).
    pub by_owner: u64,
    /// Games of programs from its address.
    pub by_address: u64,
}

/// The digest a program's owner secret is kept as: 32 hex digits of
/// SHA-256 (the secret itself is never stored).
pub fn owner_digest(secret: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(secret.as_bytes());
    digest[..16].iter().map(|b| format!("{b:02x}")).collect()
}
