//! Programs on a connection (issue 24): a program's name is unique among
//! programs (claimed in the store, so on every node), and a program that
//! takes challenges is listed by `GET /api/bots/online` while its
//! connection is open.

use splendor_protocol::{ErrorCode, RequestId, Words};
use splendor_store::{SessionId, unix_millis_now};
use tracing::warn;

use super::client::Client;

/// The label of the token a program got back by its owner's secret
/// (`Client::reclaim_program`), as the devices list shows it.
const RECLAIMED_LABEL: &str = "program, by its owner's secret";

impl Client {
    /// Whether a new program session may take `name`: no other program
    /// holds it. Refuses the `hello` (`name_taken`) when one does. A store
    /// that cannot answer lets it through (the claim after the session is
    /// made decides).
    pub(super) async fn program_name_free(&self, name: &str, id: &Option<RequestId>) -> bool {
        let Some(store) = self.state.store() else {
            return true;
        };
        if self.state.config().shared_program_names {
            return true;
        }
        match store.bot_name_holder(name).await {
            Ok(None) => true,
            Ok(Some(_)) => {
                self.refuse_program_name(name, id.clone());
                false
            }
            Err(e) => {
                warn!(error = %e, "a program's name cannot be looked up");
                true
            }
        }
    }

    /// Claims `name` for the program session `session` (freeing its old
    /// name); refuses the `hello` (`name_taken`) and changes nothing when
    /// another program holds it.
    pub(super) async fn claim_program_name(
        &self,
        session: splendor_lobby::SessionId,
        name: &str,
        id: &Option<RequestId>,
    ) -> bool {
        let Some(store) = self.state.store() else {
            return true;
        };
        if self.state.config().shared_program_names {
            return true;
        }
        match store
            .claim_bot_name(SessionId(session.0), name, unix_millis_now())
            .await
        {
            Ok(true) => true,
            Ok(false) => {
                self.refuse_program_name(name, id.clone());
                false
            }
            Err(e) => {
                warn!(error = %e, "a program's name cannot be claimed");
                true
            }
        }
    }

    /// Issue 51: a program that says hello without a token, under the
    /// name a program of its owner holds and with the same owner secret,
    /// gets that program back: a new token of its session (its name,
    /// rating and games), so that a program whose token lived only in
    /// memory is itself again when it runs again. The token given this way
    /// before is revoked and its connections closed (one such token per
    /// program); the session's other tokens stay. `None` (a new session, or
    /// `name_taken`) otherwise.
    ///
    /// The secret is guessed no faster than a password: a wrong one counts
    /// as a failed try of the address and of the name (in the store, so on
    /// every node), an address that failed five times this minute is not
    /// heard for the rest of it, and a name's failures from anywhere slow
    /// its answers (at most 2 s) without ever refusing its owner. A banned
    /// session is not given a token.
    pub(super) async fn reclaim_program(&self, name: &str, owner: Option<&str>) -> Option<String> {
        use crate::identity::throttle::{TRIES_PER_MINUTE, slowdown};
        let owner = owner?;
        let store = self.state.store()?;
        if self.state.config().shared_program_names {
            return None;
        }
        let holder = store.bot_name_holder(name).await.ok()??;
        let now = unix_millis_now();
        let address_key = self
            .address
            .as_ref()
            .map(|a| format!("reclaim-address:{}", a.as_str()));
        let name_key = format!("reclaim-name:{}", splendor_store::bot_name_key(name));
        if let Some(key) = &address_key
            && store.login_tries(key, now).await.ok()? >= TRIES_PER_MINUTE
        {
            warn!(key, "too many wrong owner secrets from an address");
            return None;
        }
        let failures = store.login_tries(&name_key, now).await.ok()?;
        tokio::time::sleep(slowdown(failures)).await;
        let kept = store.program_owner(holder).await.ok()??;
        let given = splendor_store::owner_digest(owner);
        // Compared without an early exit: the time says nothing of where
        // two digests differ.
        let same = kept.len() == given.len()
            && kept
                .bytes()
                .zip(given.bytes())
                .fold(0u8, |d, (a, b)| d | (a ^ b))
                == 0;
        if !same {
            for key in address_key.iter().chain(std::iter::once(&name_key)) {
                if let Err(e) = store.count_login_try(key, now).await {
                    warn!(error = %e, "a wrong owner secret cannot be counted");
                }
            }
            return None;
        }
        // A banned session gets no token (its hello is refused after).
        let who = crate::sanctions::Who {
            session: Some(holder.0),
            name: Some(name),
            ..self.who()
        };
        if crate::sanctions::ban_for(&self.state, &who).await.is_some() {
            return None;
        }
        match store.devices(holder).await {
            Ok(devices) => {
                for device in devices
                    .iter()
                    .filter(|d| !d.first && d.label == RECLAIMED_LABEL)
                {
                    if let Err(e) = store.revoke_device(holder, &device.id).await {
                        warn!(error = %e, "a reclaimed program's old token cannot be revoked");
                        return None;
                    }
                    // Its connections end, here and on every node.
                    let session = splendor_lobby::SessionId(holder.0);
                    crate::identity::close_revoked(&self.state, session, &device.id).await;
                }
            }
            Err(e) => {
                warn!(error = %e, "a program's tokens cannot be listed");
                return None;
            }
        }
        match store.add_device(holder, RECLAIMED_LABEL, now).await {
            Ok(token) => Some(token.into_string()),
            Err(e) => {
                warn!(error = %e, "a reclaimed program's token cannot be made");
                None
            }
        }
    }

    fn refuse_program_name(&self, name: &str, id: Option<RequestId>) {
        let words = Words::new("conn-bot-name-taken").text("name", format!("{name:?}"));
        self.reply_error(ErrorCode::NameTaken, words, id);
    }

    /// `session`'s owner (a program's, kept as a digest; a person has
    /// none) and this connection's address, for the ladder's pairing and
    /// caps and the operators' search.
    pub(super) async fn program_owner(
        &self,
        session: splendor_lobby::SessionId,
        owner: Option<&str>,
    ) {
        let Some(store) = self.state.store() else {
            return;
        };
        let owner = owner.map(splendor_store::owner_digest);
        let client = self.address.as_ref().map(|a| a.as_str().to_owned());
        if let Err(e) = store
            .set_program_owner(SessionId(session.0), owner.as_deref(), client.as_deref())
            .await
        {
            warn!(error = %e, "a program's owner cannot be kept");
        }
    }

    /// Whether program `session` may wait for one more rated game (issue
    /// 24): its owner's programs, and its address's, play fewer than the
    /// server's caps at once (counted in the store, on every node).
    /// Refuses the `queue` (`too_many_games`) otherwise.
    pub(super) async fn program_may_queue(
        &self,
        session: splendor_lobby::SessionId,
        id: &Option<RequestId>,
    ) -> bool {
        let Some(store) = self.state.store() else {
            return true;
        };
        let load = match store.ladder_load(SessionId(session.0)).await {
            Ok(load) => load,
            Err(e) => {
                warn!(error = %e, "a program's games at once cannot be counted");
                return true;
            }
        };
        if load.by_owner >= u64::from(self.state.config().ladder_games_per_owner)
            || load.by_address >= u64::from(self.state.config().ladder_games_per_address)
        {
            self.refuse_too_many_games(load, id);
            return false;
        }
        true
    }

    /// Refuses a program's `queue`: `load` reached a cap of the ladder.
    pub(super) fn refuse_too_many_games(
        &self,
        load: splendor_store::LadderLoad,
        id: &Option<RequestId>,
    ) {
        let config = self.state.config();
        let words = if load.by_owner >= u64::from(config.ladder_games_per_owner) {
            Words::new("queue-too-many-games-owner").num("max", config.ladder_games_per_owner)
        } else {
            Words::new("queue-too-many-games-address").num("max", config.ladder_games_per_address)
        };
        let mut error = splendor_protocol::ErrorInfo::new(
            ErrorCode::TooManyGames,
            self.word(&words),
            id.clone(),
        );
        error.retry_after_ms = Some(config.ladder_retry_ms);
        self.state.metrics().intent_rejected(&error.code);
        self.send(splendor_protocol::ServerMessage::Error(error));
    }

    /// This connection of program `session` takes challenges: listed online
    /// until it ends (`program_offline`).
    pub(super) async fn program_online(&self, session: splendor_lobby::SessionId) {
        let Some(store) = self.state.store() else {
            return;
        };
        let conn = self.conn.id();
        if let Err(e) = store
            .bot_online(
                SessionId(session.0),
                (conn.node().0, conn.0),
                unix_millis_now(),
            )
            .await
        {
            warn!(error = %e, "a program cannot be listed online");
        }
    }

    /// This connection ended: its program is no longer listed (unless a
    /// newer connection of the session listed it again).
    pub(super) async fn program_offline(&self, session: splendor_lobby::SessionId) {
        let Some(store) = self.state.store() else {
            return;
        };
        if let Err(e) = store
            .bot_offline(SessionId(session.0), self.conn.id().0)
            .await
        {
            warn!(error = %e, "a program stays listed online");
        }
    }
}
