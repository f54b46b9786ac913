//! Friends (issue 50; docs/HTTP-API.md, "Friends"): a player follows
//! another by `player_id` and finds them in a friends list. A follow is
//! one way; two who follow each other are friends, and only a friend is
//! shown whether the other is online and the room of the game they sit
//! in (following back is how a player lets someone see it). Whoever
//! blocks, or is blocked by, the other (issue 22) never appears in the
//! other's lists. With the session's token as `Authorization: Bearer`:
//!
//! - `GET /api/me/follows`: `{"follows":[...],"followers":[...]}`, those
//!   followed by name, then those who follow without being followed back;
//! - `PUT /api/me/follows/{player_id}`: follow (201, or 200 when already);
//! - `DELETE /api/me/follows/{player_id}`: unfollow (204).
//!
//! Online means connected to this node now, or seen by any node within
//! [`ONLINE_WINDOW_MS`]: every node records its connected sessions as seen
//! every [`SEEN_EVERY`] ([`touch_present_every`]), so the list holds
//! across nodes without a call between them.

use std::time::Duration;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use splendor_store::{Followed, Following, FoundPlayer, SessionId, UnixMillis, unix_millis_now};
use tracing::warn;

use crate::AppState;
use crate::games::ApiError;
use crate::identity::bearer_session;

/// The most sessions one session follows.
pub(crate) const MAX_FOLLOWS: u32 = 500;

/// The most followers listed (those not followed back).
const MAX_FOLLOWERS_LISTED: u32 = 50;

/// How often a node records its connected sessions as seen.
pub(crate) const SEEN_EVERY: Duration = Duration::from_secs(30);

/// A session seen this recently by any node is online: two rounds of
/// [`SEEN_EVERY`] and a margin for a slow one.
pub(crate) const ONLINE_WINDOW_MS: i64 = 75_000;

/// One player in a list.
#[derive(Serialize)]
struct FollowJson {
    player_id: String,
    name: String,
    /// When the follow was made, Unix ms.
    since: UnixMillis,
    /// The two follow each other: a friend.
    mutual: bool,
    /// A friend's only: online now.
    #[serde(skip_serializing_if = "Option::is_none")]
    online: Option<bool>,
    /// A friend's only: when some node last saw them, Unix ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    last_seen: Option<UnixMillis>,
    /// A friend's only: the room of the game they sit in, to watch.
    #[serde(skip_serializing_if = "Option::is_none")]
    room: Option<String>,
}

#[derive(Serialize)]
struct FollowsJson {
    follows: Vec<FollowJson>,
    followers: Vec<FollowJson>,
}

impl FollowJson {
    fn new(state: &AppState, f: Followed, now: UnixMillis) -> FollowJson {
        let here = state
            .lobby()
            .presence()
            .connection_of(splendor_lobby::SessionId(f.session.0))
            .is_some();
        let online = f.last_seen.map(|seen| online(here, seen, now));
        FollowJson {
            player_id: f.player_id,
            name: f.name,
            since: f.since,
            mutual: f.mutual,
            online,
            last_seen: f.last_seen,
            room: f.room,
        }
    }
}

/// Online: connected to this node, or seen by some node within
/// [`ONLINE_WINDOW_MS`] of `now`.
fn online(here: bool, last_seen: UnixMillis, now: UnixMillis) -> bool {
    here || now.saturating_sub(last_seen) <= ONLINE_WINDOW_MS
}

fn no_database() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "storage_unavailable",
        "this server runs without a database, so it keeps no friends",
    )
}

/// `GET /api/me/follows`.
pub(crate) async fn list(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let session = bearer_session(&state, &headers).await?;
    let me = SessionId(session.id.0);
    let store = state.store().ok_or_else(no_database)?;
    let follows = store.follows_of(me).await.map_err(ApiError::store)?;
    let followers = store
        .followers_of(me, MAX_FOLLOWERS_LISTED)
        .await
        .map_err(ApiError::store)?;
    let now = unix_millis_now();
    let json = |list: Vec<Followed>| -> Vec<FollowJson> {
        list.into_iter()
            .map(|f| FollowJson::new(&state, f, now))
            .collect()
    };
    Ok(Json(FollowsJson {
        follows: json(follows),
        followers: json(followers),
    })
    .into_response())
}

/// The session `raw` names, or why not.
async fn named(state: &AppState, raw: &str) -> Result<(SessionId, String, String), ApiError> {
    let store = state.store().ok_or_else(no_database)?;
    let (id, found) = store.find_player(raw).await.map_err(ApiError::store)?;
    match found {
        FoundPlayer::One(one) => Ok((one.session, id, one.name)),
        FoundPlayer::NotAnId => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_player_id",
            format!("{raw:?} is not a player id (10 hexadecimal digits, as on the leaderboard)"),
        )),
        FoundPlayer::Nobody => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "player_not_found",
            format!("no player has the id {id}"),
        )),
        FoundPlayer::Several => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "player_not_found",
            format!("the id {id} names more than one player; it cannot be followed"),
        )),
    }
}

/// `PUT /api/me/follows/{player_id}`.
pub(crate) async fn follow(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(raw): Path<String>,
) -> Result<Response, ApiError> {
    let session = bearer_session(&state, &headers).await?;
    let me = SessionId(session.id.0);
    let (other, id, name) = named(&state, &raw).await?;
    if other == me {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "follow_yourself",
            "a player cannot follow themselves",
        ));
    }
    let store = state.store().ok_or_else(no_database)?;
    let blocked = store.blocks_of(me).await.map_err(ApiError::store)?;
    if blocked.iter().any(|b| b.session == other) {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "blocked",
            format!("you block {name}: unblock them before following them"),
        ));
    }
    let done = store
        .follow(me, other, unix_millis_now(), MAX_FOLLOWS)
        .await
        .map_err(ApiError::store)?;
    let status = match done {
        Following::Made => StatusCode::CREATED,
        Following::Already => StatusCode::OK,
        Following::TooMany => {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "too_many_follows",
                format!("you follow {MAX_FOLLOWS} players, the most one may; unfollow one first"),
            ));
        }
    };
    Ok((
        status,
        Json(serde_json::json!({"player_id": id, "name": name})),
    )
        .into_response())
}

/// `DELETE /api/me/follows/{player_id}`.
pub(crate) async fn unfollow(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(raw): Path<String>,
) -> Result<Response, ApiError> {
    let session = bearer_session(&state, &headers).await?;
    let me = SessionId(session.id.0);
    let (other, id, _) = named(&state, &raw).await?;
    let store = state.store().ok_or_else(no_database)?;
    if store.unfollow(me, other).await.map_err(ApiError::store)? {
        Ok(StatusCode::NO_CONTENT.into_response())
    } else {
        Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "not_following",
            format!("you do not follow {id}"),
        ))
    }
}

/// Records every session connected to this node as seen, every
/// [`SEEN_EVERY`], until the server shuts down: what tells the friends
/// of a player connected to another node that they are online.
pub(crate) async fn touch_present_every(state: AppState) {
    let Some(store) = state.store().cloned() else {
        return;
    };
    let mut ticks = tokio::time::interval(SEEN_EVERY);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let present: Vec<SessionId> = state
            .lobby()
            .presence()
            .connected_sessions()
            .into_iter()
            .map(|id| SessionId(id.0))
            .collect();
        if let Err(e) = store.touch_sessions(present, unix_millis_now()).await {
            warn!(error = %e, "could not record the connected sessions as seen");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_friend_is_online_while_a_node_saw_them_lately_or_here() {
        let now = 1_000_000;
        assert!(online(false, now - ONLINE_WINDOW_MS, now));
        assert!(!online(false, now - ONLINE_WINDOW_MS - 1, now));
        assert!(
            online(true, 0, now),
            "connected here, whatever the store says"
        );
        // Seen two rounds ago and a margin: a node that records its
        // sessions every SEEN_EVERY keeps them online between rounds.
        assert!(i64::try_from(SEEN_EVERY.as_millis()).unwrap() * 2 < ONLINE_WINDOW_MS);
    }
}
