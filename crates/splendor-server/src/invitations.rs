//! Invitations as the invitee sees them (issue 25): listed in My games
//! (`GET /api/me/games`, field `invitations`) while their room waits for
//! players with a seat free, and declined with `DELETE
//! /api/me/invitations/{id}` (the session's token as `Authorization:
//! Bearer TOKEN`). Joining the room accepts them (the gateway deletes
//! them). An invitation whose room is gone, started, or now another room
//! under the same code is deleted when it is next listed; none outlives
//! two weeks. `invite` on the socket makes them (`ws::invite`).

use std::collections::HashMap;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use serde::Serialize;
use splendor_protocol::RoomStatus;
use splendor_store::{SessionId, UnixMillis, player_id, unix_millis_now};
use tracing::{debug, warn};

use crate::AppState;
use crate::games::ApiError;
use crate::my_games::bearer_session;

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
                    shown.push(InvitationJson {
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
                    });
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

/// `DELETE /api/me/invitations/{id}`: declines it. 204; 404 when it is
/// not one of the session's.
pub(crate) async fn decline(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let session = bearer_session(&state, &headers).await?;
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
    let Some(store) = state.store() else {
        return Err(not_found());
    };
    if store
        .decline_invitation(parsed, SessionId(session.id.0))
        .await
        .map_err(ApiError::store)?
    {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(not_found())
    }
}
