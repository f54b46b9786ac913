//! `invite` (issue 25): a seated player of a room that waits for players
//! invites another player by `player_id`. The room says whether it may
//! (`Request::Invite`: seated, before the start, a seat free, the invitee
//! not seated); the store keeps the invitation (one per inviter, invitee
//! and room; at most `--max-invitations-per-hour` an inviter, counted on
//! every node); the invitee is told by their notification settings
//! (event `invitation`) and finds it in My games, to join or decline.

use splendor_lobby::room::effect::{Notice, NoticeEvent};
use splendor_lobby::{Answer, Request, RoomError};
use splendor_protocol::social::{Challenger, Decline, Declined, Invite, Invited, RoomTerms};
use splendor_protocol::{ErrorCode, ErrorInfo, RequestId, ServerMessage, Words};
use splendor_store::{FoundPlayer, Invitation, Invitee, SessionId, is_player_id, unix_millis_now};
use tracing::{info, warn};

use super::client::Client;

/// The window the invitations of one inviter are counted in.
const WINDOW_MS: i64 = 60 * 60 * 1000;

impl Client {
    /// The session a request names by `player_id` (`invite`, `block`),
    /// with the store and the id as read; refuses the request (bad id,
    /// nobody's, two sessions' or no store) and answers `None` otherwise.
    pub(super) async fn find_player(
        &mut self,
        raw: &str,
        id: &Option<RequestId>,
    ) -> Option<(splendor_store::Store, String, Invitee)> {
        let player_id = raw.trim().to_ascii_lowercase();
        if !is_player_id(&player_id) {
            let words = Words::new("invite-bad-player-id").text("id", format!("{raw:?}"));
            self.reply_error(ErrorCode::InvalidField, words, id.clone());
            return None;
        }
        let Some(store) = self.state.store().cloned() else {
            self.reply_lobby_error(RoomError::StorageUnavailable, id.clone());
            return None;
        };
        let found = match store.find_player(&player_id).await {
            Ok((_, found)) => found,
            Err(e) => {
                warn!(error = %e, "the sessions cannot be read by player id");
                self.reply_lobby_error(RoomError::StorageUnavailable, id.clone());
                return None;
            }
        };
        let words = match found {
            FoundPlayer::One(one) => return Some((store, player_id, one)),
            FoundPlayer::Nobody | FoundPlayer::NotAnId => "invite-player-not-found",
            FoundPlayer::Several => "invite-player-ambiguous",
        };
        let words = Words::new(words).text("id", player_id);
        self.reply_error(ErrorCode::PlayerNotFound, words, id.clone());
        None
    }

    pub(super) async fn invite(&mut self, invite: Invite, id: Option<RequestId>) {
        let Some((session, room)) = self.require_room(&id) else {
            return;
        };
        let Some((store, player_id, invitee)) = self.find_player(&invite.player_id, &id).await
        else {
            return;
        };
        if invitee.session.0 == session.id.0 {
            return self.reply_error(ErrorCode::InvalidField, Words::new("invite-yourself"), id);
        }
        let to = splendor_lobby::SessionId(invitee.session.0);
        let terms = match room
            .call(self.caller(&session, id.clone()), Request::Invite { to })
            .await
        {
            Ok(Answer::Invitable(terms)) => terms,
            // A room on a node from before issue 24 says only yes.
            Ok(_) => RoomTerms {
                seats: 0,
                players: 0,
                rated: false,
                clock: None,
                turn_based: None,
            },
            Err(e) => return self.reply_lobby_error(e, id),
        };
        // The lease's epoch tells this room from a later one under its code.
        let epoch = room
            .remote_lease()
            .or_else(|| self.state.lobby().lease_of(room.code()))
            .map_or(0, |lease| lease.epoch);
        let now = unix_millis_now();
        let invitation = Invitation {
            id: uuid::Builder::from_random_bytes(rand::random()).into_uuid(),
            room_code: room.code().to_string(),
            room_epoch: epoch,
            from: SessionId(session.id.0),
            from_name: session.name.clone(),
            to: invitee.session,
            created_at: now,
            terms_json: serde_json::to_string(&terms).ok(),
        };
        let max = self.state.config().max_invitations_per_hour;
        let (invitation_id, new) = match store.invite(&invitation, now - WINDOW_MS, max).await {
            Ok(splendor_store::Invited::Made(made)) => (made, true),
            Ok(splendor_store::Invited::Already(made)) => (made, false),
            Ok(splendor_store::Invited::Limited { oldest_at }) => {
                let wait = (oldest_at + WINDOW_MS - now).max(1000);
                let words = Words::new("invite-too-many")
                    .count("max", max)
                    .count("minutes", (wait + 59_999) / 60_000);
                let mut error =
                    ErrorInfo::new(ErrorCode::TooManyInvitations, self.word(&words), id);
                error.retry_after_ms = u64::try_from(wait).ok();
                self.state.metrics().intent_rejected(&error.code);
                return self.send(ServerMessage::Error(error));
            }
            Err(e) => {
                warn!(error = %e, "invite: the invitation cannot be stored");
                return self.reply_lobby_error(RoomError::StorageUnavailable, id);
            }
        };
        if new {
            info!(room = %room.code(), "invitation made");
            // Issue 24: the invitee's open connection, on whatever node,
            // gets it at once as a `challenge`.
            let made = Invitation {
                id: invitation_id,
                ..invitation
            };
            let challenge = crate::invitations::challenge_of(&made, self.program, terms);
            crate::tell::tell_session(&self.state, to, ServerMessage::Challenge(challenge)).await;
            self.state.lobby().notify(
                room.code(),
                Notice {
                    session: to,
                    event: NoticeEvent::Invitation {
                        from: session.name.clone(),
                    },
                },
            );
        }
        self.send(ServerMessage::Invited(Invited {
            id,
            room: room.code().to_string(),
            player_id,
            name: invitee.name,
            invitation: invitation_id.simple().to_string(),
            new,
        }));
    }
}

impl Client {
    /// `decline` (issue 24): declines a challenge (an invitation) of this
    /// session by its id, and tells the challenger why.
    pub(super) async fn decline(&mut self, decline: Decline, id: Option<RequestId>) {
        let Some(session) = self.require_session(&id) else {
            return;
        };
        let not_found =
            || Words::new("invite-not-found").text("id", format!("{:?}", decline.invitation));
        let Ok(invitation) = uuid::Uuid::parse_str(decline.invitation.trim()) else {
            return self.reply_error(ErrorCode::InvitationNotFound, not_found(), id);
        };
        let me = SessionId(session.id.0);
        let by = Challenger {
            name: session.name.clone(),
            player_id: splendor_store::player_id(me),
            program_bot: self.program,
        };
        match crate::invitations::decline(&self.state, me, by, invitation, decline.reason).await {
            Ok(Some(declined)) => self.send(ServerMessage::Declined(Declined {
                id,
                invitation: declined.id.simple().to_string(),
                room: declined.room_code,
                reason: decline.reason,
            })),
            Ok(None) => self.reply_error(ErrorCode::InvitationNotFound, not_found(), id),
            Err(e) => {
                warn!(error = %e, "decline: the invitation cannot be deleted");
                self.reply_lobby_error(RoomError::StorageUnavailable, id);
            }
        }
    }
}
