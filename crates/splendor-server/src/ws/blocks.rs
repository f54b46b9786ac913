//! `block` and `unblock` (issue 22): a player blocks another by
//! `player_id`, or by the seat or chat line of the room it is in (see
//! `report.rs`). The store keeps it (so quick play, on any node, never seats
//! the two together again); this connection keeps the list of the sessions
//! its session blocked and tells every room it joins (`Request::Blocks`),
//! which then keeps their chat from reaching it.

use splendor_lobby::{Request, RoomError, RoomHandle, Session};
use splendor_protocol::social::{Block, Blocked, Unblocked};
use splendor_protocol::{ErrorCode, RequestId, ServerMessage, Words};
use splendor_store::{Blocking, SessionId, unix_millis_now};
use tracing::warn;

use super::client::Client;

/// The most players one session may block.
pub(super) const MAX_BLOCKS: u32 = 500;

impl Client {
    /// The sessions this session blocked, read once at `hello`.
    pub(super) async fn load_blocks(&mut self, session: &Session) {
        let Some(store) = self.state.store() else {
            return;
        };
        match store.blocks_of(SessionId(session.id.0)).await {
            Ok(list) => {
                self.blocked = list
                    .into_iter()
                    .map(|b| splendor_lobby::SessionId(b.session.0))
                    .collect();
            }
            Err(e) => warn!(error = %e, "the session's blocks cannot be read"),
        }
    }

    /// Tells `room` whom this session blocked, before it joins (so that
    /// the chat kept there leaves them out) and when the list changes.
    pub(super) async fn tell_blocks(&self, room: &RoomHandle, session: &Session, changed: bool) {
        if self.blocked.is_empty() && !changed {
            return;
        }
        let request = Request::Blocks {
            blocked: self.blocked.clone(),
        };
        if let Err(e) = room.call(self.caller(session, None), request).await {
            warn!(error = %e, "a room cannot be told the session's blocks");
        }
    }

    /// `block` and `unblock`.
    pub(super) async fn block(&mut self, block: Block, id: Option<RequestId>, undo: bool) {
        let Some(session) = self.require_session(&id) else {
            return;
        };
        let Some(named) = block.named() else {
            return self.reply_error(
                ErrorCode::InvalidField,
                Words::new("frame-name-one")
                    .text("type", if undo { "unblock" } else { "block" })
                    .text("fields", "`player_id`, `seat`, `line`"),
                id,
            );
        };
        let Some((store, other)) = self.find_named(named, &id).await else {
            return;
        };
        let player_id = other.player_id.clone();
        let me = SessionId(session.id.0);
        if other.session == me {
            return self.reply_error(ErrorCode::InvalidField, Words::new("block-yourself"), id);
        }
        let them = splendor_lobby::SessionId(other.session.0);
        let reply = if undo {
            match store.unblock(me, other.session).await {
                Ok(was_blocked) => {
                    self.blocked.retain(|s| *s != them);
                    ServerMessage::Unblocked(Unblocked {
                        id,
                        player_id,
                        was_blocked,
                    })
                }
                Err(e) => {
                    warn!(error = %e, "unblock failed");
                    return self.reply_lobby_error(RoomError::StorageUnavailable, id);
                }
            }
        } else {
            match store
                .block(me, other.session, unix_millis_now(), MAX_BLOCKS)
                .await
            {
                Ok(Blocking::TooMany) => {
                    let words = Words::new("block-too-many").num("max", MAX_BLOCKS);
                    return self.reply_error(ErrorCode::TooManyBlocks, words, id);
                }
                Ok(done) => {
                    if !self.blocked.contains(&them) {
                        self.blocked.push(them);
                    }
                    ServerMessage::Blocked(Blocked {
                        id,
                        player_id,
                        name: other.name.clone(),
                        new: done == Blocking::Made,
                    })
                }
                Err(e) => {
                    warn!(error = %e, "block failed");
                    return self.reply_lobby_error(RoomError::StorageUnavailable, id);
                }
            }
        };
        // The room this connection is in hears it at once.
        if let Some(room) = self.room.clone() {
            self.tell_blocks(&room, &session, true).await;
        }
        self.send(reply);
    }
}
