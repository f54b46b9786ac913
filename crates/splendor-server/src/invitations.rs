//! Invitations as the invitee sees them (issue 25): listed in My games
//! (`GET /api/me/games`, field `invitations`) while their room waits for
//! players with a seat free, and declined with `DELETE
//! /api/me/invitations/{id}` (the session's token as `Authorization:
//! Bearer TOKEN`). Joining the room accepts them (the gateway deletes
//! them). An invitation whose room is gone, started, or now another room
//! under the same code is deleted when it is next listed; none outlives
//! two weeks. `invite` on the socket makes them (`ws::invite`).

use std::collections::HashMap;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use serde::Serialize;
use splendor_protocol::social::{
    Challenge, ChallengeDeclined, Challenger, DeclineReason, RoomTerms,
};
use splendor_protocol::{RoomStatus, ServerMessage};
use splendor_store::{Invitation, SessionId, UnixMillis, player_id, unix_millis_now};
use tracing::{debug, warn};

use crate::AppState;
use crate::games::ApiError;
use crate::identity::bearer_session;

/// The most invitations listed.
const MAX_LISTED: u32 = 50;

/// How long an invitation lives at most.
const LIFETIME_MS: i64 = 14 * 24 * 60 * 60 * 1000;

/// One invitation in My games.
#[derive(Serialize)]
pub(crate) struct InvitationJson {
    /// Its id (what declining names).
    id: String,
    /// The room, to `join`.
    room: String,
    /// Who invites.
    from: From,
    /// When, Unix ms.
    at: UnixMillis,
    /// The room's host.
    host: String,
    /// Its seats, and how many are taken.
    seats: u8,
    players: u8,
}

#[derive(Serialize)]
struct From {
    name: String,
    player_id: String,
}

/// The session's invitations whose rooms still wait for players with a
/// seat free, newest first; the stale ones are deleted on the way.
pub(crate) async fn listed(state: &AppState, session: SessionId) -> Vec<InvitationJson> {
    standing(state, session)
        .await
        .into_iter()
        .map(|(invitation, room)| InvitationJson {
            id: invitation.id.simple().to_string(),
            room: invitation.room_code,
            from: From {
                name: invitation.from_name,
                player_id: player_id(invitation.from),
            },
            at: invitation.created_at,
            host: room.summary.host.clone(),
            seats: room.summary.seats,
            players: room.summary.players,
        })
        .collect()
}

/// The session's invitations as `challenge` messages (issue 24), newest
/// first: what a program that takes challenges gets after `welcome`.
pub(crate) async fn pending_challenges(state: &AppState, session: SessionId) -> Vec<Challenge> {
    let standing = standing(state, session).await;
    let mut challenges = Vec::with_capacity(standing.len());
    for (invitation, room) in standing {
        let program = match state.store() {
            Some(store) => store.session_is_bot(invitation.from).await.unwrap_or(false),
            None => false,
        };
        let terms = invitation
            .terms_json
            .as_deref()
            .and_then(|json| serde_json::from_str::<RoomTerms>(json).ok())
            .map_or_else(
                || RoomTerms {
                    seats: room.summary.seats,
                    players: room.summary.players,
                    rated: false,
                    clock: None,
                    turn_based: None,
                },
                |terms| RoomTerms {
                    players: room.summary.players,
                    ..terms
                },
            );
        challenges.push(challenge_of(&invitation, program, terms));
    }
    challenges
}

/// The `challenge` an invitation makes (issue 24).
pub(crate) fn challenge_of(
    invitation: &Invitation,
    from_program: bool,
    terms: RoomTerms,
) -> Challenge {
    Challenge {
        invitation: invitation.id.simple().to_string(),
        room: invitation.room_code.clone(),
        from: Challenger {
            name: invitation.from_name.clone(),
            player_id: player_id(invitation.from),
            program_bot: from_program,
        },
        terms,
    }
}

/// Declines invitation `id` of `session` (`by` names it as the challenger
/// sees it) and tells the challenger why, wherever they are connected;
/// the invitation, or `None` when it is not one of the session's.
pub(crate) async fn decline(
    state: &AppState,
    session: SessionId,
    by: Challenger,
    id: uuid::Uuid,
    reason: DeclineReason,
) -> Result<Option<Invitation>, splendor_store::StoreError> {
    let Some(store) = state.store() else {
        return Ok(None);
    };
    let Some(invitation) = store.decline_invitation(id, session).await? else {
        return Ok(None);
    };
    debug!(room = %invitation.room_code, ?reason, "invitation declined");
    let message = ServerMessage::ChallengeDeclined(ChallengeDeclined {
        invitation: invitation.id.simple().to_string(),
        room: invitation.room_code.clone(),
        by,
        reason,
    });
    crate::tell::tell_session(state, splendor_lobby::SessionId(invitation.from.0), message).await;
    Ok(Some(invitation))
}

/// The session's invitations whose rooms still wait for players with a
/// seat free, each with its room, newest first; the stale ones are
/// deleted on the way.
async fn standing(
    state: &AppState,
    session: SessionId,
) -> Vec<(Invitation, splendor_lobby::OpenRoom)> {
    let Some(store) = state.store() else {
        return Vec::new();
    };
    let invitations = match store.invitations_to(session, MAX_LISTED).await {
        Ok(list) => list,
        Err(e) => {
            warn!(error = %e, "my games: invitations cannot be read");
            return Vec::new();
        }
    };
    if invitations.is_empty() {
        return Vec::new();
    }
    let open: HashMap<String, splendor_lobby::OpenRoom> =
        match state.lobby().open_rooms_everywhere().await {
            Ok(rooms) => rooms
                .into_iter()
                .map(|r| (r.summary.code.clone(), r))
                .collect(),
            Err(e) => {
                warn!(error = %e, "my games: the open rooms cannot be read");
                return Vec::new();
            }
        };
    let before = unix_millis_now() - LIFETIME_MS;
    let mut shown = Vec::new();
    let mut stale = Vec::new();
    for invitation in invitations {
        if invitation.created_at < before {
            stale.push(invitation.id);
            continue;
        }
        match open.get(&invitation.room_code) {
            Some(room)
                if room.lease.epoch == invitation.room_epoch
                    && room.summary.status == RoomStatus::Waiting =>
            {
                // A room that is full for now keeps its invitations unshown.
                if room.summary.players < room.summary.seats {
                    shown.push((invitation, room.clone()));
                }
            }
            _ => stale.push(invitation.id),
        }
    }
    // Only when there is something to delete: My games is read every few
    // seconds by open pages.
    if stale.is_empty() {
        return shown;
    }
    let store = store.clone();
    tokio::spawn(async move {
        if let Err(e) = store.drop_stale_invitations(&stale, before).await {
            debug!(error = %e, "stale invitations stay for now");
        }
    });
    shown
}

/// The query of `DELETE /api/me/invitations/{id}`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DeclineQuery {
    /// Why (issue 24); `generic` when absent.
    #[serde(default)]
    reason: Option<String>,
}

/// `DELETE /api/me/invitations/{id}[?reason=later]`: declines it, and
/// tells the challenger why. 204; 404 when it is not one of the
/// session's; 400 for a reason that is not one of `decline`'s.
pub(crate) async fn decline_route(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    query: Result<Query<DeclineQuery>, QueryRejection>,
) -> Result<StatusCode, ApiError> {
    let session = bearer_session(&state, &headers).await?;
    let reason = match query {
        Ok(Query(DeclineQuery { reason: None })) => DeclineReason::Generic,
        Ok(Query(DeclineQuery {
            reason: Some(reason),
        })) => serde_json::from_value(serde_json::Value::String(reason.clone())).map_err(|_| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_query",
                format!(
                    "reason {reason:?} is not one of generic, later, too_fast, too_slow, \
                     time_control, rated, casual, no_bot, only_bot"
                ),
            )
        })?,
        Err(e) => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_query",
                e.body_text(),
            ));
        }
    };
    let not_found = || {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "invitation_not_found",
            format!("you have no invitation {id:?}"),
        )
    };
    let Ok(parsed) = uuid::Uuid::parse_str(&id) else {
        return Err(not_found());
    };
    let me = SessionId(session.id.0);
    let by = Challenger {
        name: session.name.clone(),
        player_id: player_id(me),
        program_bot: session.program,
    };
    match decline(&state, me, by, parsed, reason).await {
        Ok(Some(_)) => Ok(StatusCode::NO_CONTENT),
        Ok(None) => Err(not_found()),
        Err(e) => Err(ApiError::store(e)),
    }
}

/// One session blocked, as `GET /api/me/blocks` lists it.
#[derive(Serialize)]
pub(crate) struct BlockJson {
    player_id: String,
    name: String,
    /// When, Unix ms.
    at: UnixMillis,
}

/// `GET /api/me/blocks` (issue 22): the players the session blocked,
/// newest first: `{"blocks":[{"player_id","name","at"}]}`. Unblock with
/// the socket's `unblock`.
pub(crate) async fn blocks(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<axum::Json<serde_json::Value>, ApiError> {
    let session = bearer_session(&state, &headers).await?;
    let Some(store) = state.store() else {
        return Ok(axum::Json(serde_json::json!({"blocks": []})));
    };
    let list = store
        .blocks_of(SessionId(session.id.0))
        .await
        .map_err(ApiError::store)?;
    let blocks: Vec<BlockJson> = list
        .into_iter()
        .map(|b| BlockJson {
            player_id: player_id(b.session),
            name: b.name,
            at: b.at,
        })
        .collect();
    Ok(axum::Json(serde_json::json!({ "blocks": blocks })))
}
