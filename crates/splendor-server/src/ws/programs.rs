//! Programs on a connection (issue 24): a program's name is unique among
//! programs (claimed in the store, so on every node), and a program that
//! takes challenges is listed by `GET /api/bots/online` while its
//! connection is open.

use splendor_protocol::{ErrorCode, RequestId, Words};
use splendor_store::{SessionId, unix_millis_now};
use tracing::warn;

use super::client::Client;

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

    fn refuse_program_name(&self, name: &str, id: Option<RequestId>) {
        let words = Words::new("conn-bot-name-taken").text("name", format!("{name:?}"));
        self.reply_error(ErrorCode::NameTaken, words, id);
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
