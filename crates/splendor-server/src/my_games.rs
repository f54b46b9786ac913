//! `GET /api/me/games` (issue 25): every game a session sits in, waiting
//! for it first, for a player with several games going (turn-based ones
//! above all) and for programs. `Authorization: Bearer TOKEN` (the token
//! `hello` gave) is required: 401 without it or with a token that is not a
//! session's. Games in play come from the store (the same on every node,
//! whether or not their room is in memory); the room the session waits in
//! before a start comes from this node's lobby. Nothing hidden is in it:
//! names, seats, whose turn, times.

use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use serde::Serialize;
use splendor_lobby::stored::glance::{Glance, glance};
use splendor_protocol::{OnDeadline, RoomStatus};
use splendor_store::{UnixMillis, unix_millis_now};
use tracing::warn;

use crate::AppState;
use crate::games::ApiError;

/// The most games in play listed.
const MAX_GAMES: u32 = 100;

/// The answer.
#[derive(Serialize)]
pub(crate) struct MyGames {
    /// The server's clock, in Unix ms: count deadlines down from it.
    now: UnixMillis,
    /// The games, those that wait for this player first.
    games: Vec<MyGame>,
    /// Invitations to rooms that wait for players (newest first): join
    /// the room to accept, `DELETE /api/me/invitations/{id}` to decline.
    invitations: Vec<crate::invitations::InvitationJson>,
    /// The session's own public id, for friends to invite it by.
    player_id: String,
}

#[derive(Serialize)]
struct MyGame {
    room: String,
    /// `waiting` (for players to start) or `playing`.
    status: RoomStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    game: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seat: Option<u8>,
    /// The game waits for this player.
    your_turn: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    to_act: Option<u8>,
    /// Seats in order; in a waiting room only the host is known here.
    players: Vec<Player>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seats: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    version: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    started_at: Option<UnixMillis>,
    #[serde(skip_serializing_if = "Option::is_none")]
    last_move: Option<LastMoveJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    turn_based: Option<splendor_protocol::TurnBased>,
    /// A live clock's room: `true` (its seats' banks are in the room's
    /// `state`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    clock: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    deadline: Option<UnixMillis>,
}

#[derive(Serialize)]
struct Player {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    bot: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    resigned: bool,
}

#[derive(Serialize)]
struct LastMoveJson {
    seat: u8,
    at: UnixMillis,
    #[serde(skip_serializing_if = "Option::is_none")]
    by: Option<&'static str>,
}

/// `GET /api/me/games`.
pub(crate) async fn my_games(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<MyGames>, ApiError> {
    let session = crate::identity::bearer_session(&state, &headers).await?;
    let mut games = Vec::new();
    if let Some(store) = state.store() {
        let stored = store
            .unfinished_games_of(splendor_store::SessionId(session.id.0), MAX_GAMES)
            .await
            .map_err(ApiError::store)?;
        for game in &stored {
            match glance(game, session.id) {
                // A seat given up (R13) is no longer a game of this player's.
                Ok(Some(g)) if !g.seats[usize::from(g.seat)].resigned && g.to_act.is_some() => {
                    games.push(in_play(g));
                }
                Ok(_) => {}
                Err(e) => warn!(game = %game.id, error = %e, "my games: a game cannot be read"),
            }
        }
    }
    // Waiting for the player first, the nearest deadline first; then the
    // others, the latest move first.
    games.sort_by_key(|g| {
        (
            !g.your_turn,
            g.deadline
                .filter(|_| g.your_turn)
                .unwrap_or(UnixMillis::MAX),
            std::cmp::Reverse(g.last_move.as_ref().map_or(g.started_at, |m| Some(m.at))),
        )
    });
    // The rooms the session waits in for a start, on this node: the one it
    // is in, and turn-based ones it left keeping its seat (R12.5).
    let presence = state.lobby().presence();
    let mut waiting: Vec<String> = presence
        .room_of(session.id)
        .filter(|seat| seat.role == splendor_protocol::Role::Player)
        .map(|seat| seat.code)
        .into_iter()
        .chain(presence.held(session.id))
        .map(|code| code.to_string())
        .collect();
    waiting.dedup();
    let open = state.lobby().open_rooms_here();
    for room in open
        .iter()
        .filter(|r| r.summary.status == RoomStatus::Waiting && waiting.contains(&r.summary.code))
    {
        games.push(MyGame {
            room: room.summary.code.clone(),
            status: RoomStatus::Waiting,
            game: None,
            seat: None,
            your_turn: false,
            to_act: None,
            players: vec![Player {
                name: room.summary.host.clone(),
                bot: None,
                resigned: false,
            }],
            seats: Some(room.summary.seats),
            version: None,
            started_at: None,
            last_move: None,
            turn_based: None,
            clock: false,
            deadline: None,
        });
    }
    let me = splendor_store::SessionId(session.id.0);
    Ok(Json(MyGames {
        now: unix_millis_now(),
        games,
        invitations: crate::invitations::listed(&state, me).await,
        player_id: splendor_store::player_id(me),
    }))
}

fn in_play(g: Glance) -> MyGame {
    let turn_based = g.clock.and_then(|c| {
        c.clock
            .on_deadline()
            .map(|on_deadline: OnDeadline| splendor_protocol::TurnBased {
                per_move_s: c.clock.bank().as_secs() as i64,
                on_deadline,
            })
    });
    MyGame {
        room: g.room.clone(),
        status: RoomStatus::Playing,
        game: Some(g.game.as_simple().to_string()),
        seat: Some(g.seat),
        your_turn: g.your_turn(),
        to_act: g.to_act,
        players: g
            .seats
            .iter()
            .map(|s| Player {
                name: s.name.clone(),
                bot: s.bot.clone(),
                resigned: s.resigned,
            })
            .collect(),
        seats: Some(g.seats.len() as u8),
        version: Some(g.version),
        started_at: Some(g.started_at),
        last_move: g.last_move.map(|m| LastMoveJson {
            seat: m.seat,
            at: m.at,
            by: m.by.map(|by| match by {
                splendor_replay::By::Bot => "bot",
                splendor_replay::By::StandIn => "stand_in",
                splendor_replay::By::Hint => "hint",
            }),
        }),
        clock: g.clock.is_some() && turn_based.is_none(),
        turn_based,
        deadline: g.deadline,
    }
}
