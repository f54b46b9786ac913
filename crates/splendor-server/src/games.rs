//! The history API: finished games, their summaries and their replays.
//!
//! - `GET /api/games?limit=N&before=CURSOR`: finished games, most recent
//!   first, `limit` (1 to 200, default 20) per page; `next` is the cursor of
//!   the following page, `null` on the last one.
//! - `GET /api/games/{id}`: one finished game's summary, with its seed,
//!   salt and commitment.
//! - `GET /api/games/{id}/positions`: every position of it, fully revealed,
//!   for the replay page (`/games/{id}`).
//! - `GET /api/games/{id}/replay`: its complete replay (docs/REPLAYS.md),
//!   which `splendor-server verify` checks.
//!
//! Nothing here reveals a running game: an unfinished game is a 404 with
//! the reason `game_not_finished`, exactly like the replay of an unknown
//! game is a 404 with `game_not_found`. Errors are JSON objects
//! `{"error": code, "message": text}`.

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use splendor_lobby::GameId;
use splendor_lobby::stored::format::parse_result_json;
use splendor_lobby::stored::replay_of;
use splendor_replay::{Salt, SeatName, Seed};
use splendor_rules::{GameResult, Seat};
use splendor_store::{FinishedCursor, MAX_PAGE, SeatRecord, Store, StoreError, StoredGame};
use tracing::{error, warn};
use uuid::Uuid;

use crate::AppState;

/// Games per page when the request does not say.
const DEFAULT_PAGE: u32 = 20;

/// A failed history request, as its JSON answer.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
    /// When waiting helps: how long, in seconds (`Retry-After`, and
    /// `retry_after_ms` in the body).
    retry_after_s: Option<u64>,
}

#[derive(Serialize)]
struct ApiErrorBody<'a> {
    error: &'a str,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    retry_after_ms: Option<u64>,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ApiErrorBody {
            error: self.code,
            message: &self.message,
            retry_after_ms: self.retry_after_s.map(|s| s * 1000),
        };
        match self.retry_after_s {
            Some(s) => (
                self.status,
                [(axum::http::header::RETRY_AFTER, s.to_string())],
                Json(body),
            )
                .into_response(),
            None => (self.status, Json(body)).into_response(),
        }
    }
}

impl ApiError {
    pub(crate) fn new(
        status: StatusCode,
        code: &'static str,
        message: impl Into<String>,
    ) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after_s: None,
        }
    }

    /// The same error, saying that waiting `seconds` helps.
    pub(crate) fn retry_after(self, seconds: u64) -> ApiError {
        ApiError {
            retry_after_s: Some(seconds),
            ..self
        }
    }

    fn not_found(id: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "game_not_found",
            format!("no game has id {id}"),
        )
    }

    /// A database failure: unavailable is said as such, the rest is internal
    /// (and logged; clients never see database messages).
    pub(crate) fn store(error: StoreError) -> ApiError {
        if error.is_transient() || matches!(error, StoreError::Closed) {
            warn!(error = %error, "history request: database unavailable");
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "storage_unavailable",
                "the game history cannot be read right now; try again shortly",
            )
        } else {
            error!(error = %error, "history request failed");
            ApiError::internal()
        }
    }

    fn internal() -> ApiError {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "internal error",
        )
    }
}

/// A ranking line with the player's name.
#[derive(Serialize)]
struct RankJson {
    seat: Seat,
    name: String,
    points: u8,
    cards: u8,
    rank: u8,
}

/// A seat of a finished game: the replay's seat and, for a person or a
/// program (not a built-in bot), the player's public id (issue 51: bot
/// authors follow other bots by it).
#[derive(Serialize)]
struct SeatJson {
    #[serde(flatten)]
    seat: SeatName,
    #[serde(skip_serializing_if = "Option::is_none")]
    player_id: Option<String>,
}

/// A finished game in the list, and the start of its own summary.
#[derive(Serialize)]
struct GameSummaryJson {
    id: String,
    room: String,
    players: u8,
    seats: Vec<SeatJson>,
    /// The game counted for the ratings.
    rated: bool,
    /// Unix milliseconds.
    started_at: i64,
    /// Unix milliseconds.
    finished_at: i64,
    ranking: Vec<RankJson>,
    winners: Vec<Seat>,
    deadlock: bool,
    /// How the game ended (`points`, `deadlock`, `no_progress`,
    /// `resigned`, `deserted`, `operators`; docs/PROTOCOL.md).
    end: splendor_protocol::GameEnd,
    /// Why the server's operators ended the game before its end (issue
    /// 22): then `ranking` is the standings it stopped at and `winners`
    /// is empty.
    #[serde(skip_serializing_if = "Option::is_none")]
    ended_by_operators: Option<String>,
    /// Where its replay is.
    replay: String,
}

/// `GET /api/games/{id}`: the summary, the log's length and the fairness proof.
#[derive(Serialize)]
struct GameDetailJson {
    #[serde(flatten)]
    summary: GameSummaryJson,
    actions: usize,
    commitment: String,
    seed: Seed,
    salt: Salt,
}

#[derive(Serialize)]
pub(crate) struct GameListJson {
    games: Vec<GameSummaryJson>,
    /// The `before` of the next page; `null` on the last page.
    next: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListQuery {
    limit: Option<u32>,
    before: Option<String>,
    /// Only the games of the player with this `player_id` (issue 24).
    player: Option<String>,
}

/// What a summary is made of, from a page of the list or a stored game.
struct SummaryOf<'a> {
    id: Uuid,
    room: &'a str,
    players: u8,
    seats: &'a [SeatRecord],
    started_at: i64,
    finished_at: i64,
    result_json: &'a str,
    rated: bool,
}

fn summary(game: SummaryOf<'_>) -> Result<GameSummaryJson, ApiError> {
    let SummaryOf {
        id,
        room,
        players,
        seats,
        started_at,
        finished_at,
        result_json,
        rated,
    } = game;
    let id = GameId(id).to_string();
    let result: GameResult = parse_result_json(result_json).map_err(|e| {
        error!(game = %id, error = %e, "a stored result does not read");
        ApiError::internal()
    })?;
    let name = |seat: Seat| {
        seats
            .iter()
            .find(|s| s.seat == seat)
            .map_or_else(String::new, |s| s.name.clone())
    };
    Ok(GameSummaryJson {
        replay: format!("/api/games/{id}/replay"),
        id,
        room: room.to_owned(),
        players,
        seats: seats
            .iter()
            .map(|s| SeatJson {
                seat: SeatName {
                    seat: s.seat,
                    name: s.name.clone(),
                    bot: s.bot.clone(),
                    program_bot: s.program,
                },
                player_id: s
                    .bot
                    .is_none()
                    .then(|| splendor_store::player_id(s.session_id)),
            })
            .collect(),
        rated,
        started_at,
        finished_at,
        ranking: result
            .ranking
            .iter()
            .map(|s| RankJson {
                seat: s.seat,
                name: name(s.seat),
                points: s.points,
                cards: s.cards,
                rank: s.rank,
            })
            .collect(),
        end: result.end().into(),
        winners: result.winners,
        deadlock: result.deadlock,
        ended_by_operators: splendor_lobby::stored::format::ended_by_operators(result_json),
    })
}

/// The cursor text: `{finished_at}.{id}`.
fn cursor_text(cursor: FinishedCursor) -> String {
    format!("{}.{}", cursor.finished_at, cursor.id.as_simple())
}

fn parse_cursor(text: &str) -> Option<FinishedCursor> {
    let (at, id) = text.split_once('.')?;
    Some(FinishedCursor {
        finished_at: at.parse().ok()?,
        id: Uuid::try_parse(id).ok()?,
    })
}

fn store(state: &AppState) -> Result<&Store, ApiError> {
    // A server without a database has no history: nothing is found.
    state.store().ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "game_not_found",
            "this server keeps no game history",
        )
    })
}

/// `GET /api/games`.
pub(crate) async fn list(
    State(state): State<AppState>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Json<GameListJson>, ApiError> {
    let Query(query) = query.map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_query",
            format!("{e}; use ?limit=1..{MAX_PAGE}&before=CURSOR&player=PLAYER_ID"),
        )
    })?;
    let limit = query.limit.unwrap_or(DEFAULT_PAGE);
    if limit == 0 || limit > MAX_PAGE {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_query",
            format!("limit must be from 1 to {MAX_PAGE}, not {limit}"),
        ));
    }
    let before = match query.before.as_deref() {
        None => None,
        Some(text) => Some(parse_cursor(text).ok_or_else(|| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_query",
                format!("{text:?} is not a cursor; pass the `next` of the previous page"),
            )
        })?),
    };
    let store = match state.store() {
        Some(store) => store,
        None => {
            return Ok(Json(GameListJson {
                games: Vec::new(),
                next: None,
            }));
        }
    };
    let page = match query.player.as_deref() {
        None => store.list_finished(before, limit).await,
        Some(player) if splendor_store::is_player_id(player) => {
            store.list_finished_of(player, before, limit).await
        }
        Some(player) => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "invalid_query",
                format!("{player:?} is not a player id (ten digits and letters a-f)"),
            ));
        }
    }
    .map_err(ApiError::store)?;
    let next = (page.len() == limit as usize)
        .then(|| page.last().map(|g| cursor_text(g.cursor())))
        .flatten();
    let games = page
        .iter()
        .map(|g| {
            summary(SummaryOf {
                id: g.id,
                room: &g.room_code,
                players: g.players,
                seats: &g.seats,
                started_at: g.created_at,
                finished_at: g.finished_at,
                result_json: &g.result_json,
                rated: g.rated,
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(Json(GameListJson { games, next }))
}

/// The finished game with this id, or the reason there is none.
pub(crate) async fn finished_game(state: &AppState, id: &str) -> Result<StoredGame, ApiError> {
    let uuid = Uuid::try_parse(id).map_err(|_| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid_game_id",
            format!("{:?} is not a game id (32 hexadecimal digits)", trim(id)),
        )
    })?;
    let game = store(state)?
        .game(uuid)
        .await
        .map_err(ApiError::store)?
        .ok_or_else(|| ApiError::not_found(id))?;
    if game.finished.is_none() {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "game_not_finished",
            format!(
                "game {id} is still being played; its summary and replay are published when it ends"
            ),
        ));
    }
    Ok(game)
}

/// `GET /api/games/{id}`.
pub(crate) async fn detail(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let game = finished_game(&state, &id).await?;
    let Some(finished) = &game.finished else {
        return Err(ApiError::internal());
    };
    let detail = GameDetailJson {
        summary: summary(SummaryOf {
            id: game.id,
            room: &game.room_code,
            players: game.players,
            seats: &game.seats,
            started_at: game.created_at,
            finished_at: finished.finished_at,
            result_json: &finished.result_json,
            rated: game.rated,
        })?,
        actions: game.actions.len(),
        commitment: game.commitment.clone(),
        seed: Seed(game.seed),
        salt: Salt(game.salt),
    };
    Ok(Json(detail).into_response())
}

/// `GET /api/games/{id}/replay`.
pub(crate) async fn replay(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let game = finished_game(&state, &id).await?;
    match replay_of(&game) {
        Some(Ok(replay)) => Ok(Json(replay).into_response()),
        Some(Err(why)) => {
            error!(game = %id, error = %why, "a stored game does not replay");
            Err(ApiError::internal())
        }
        None => Err(ApiError::internal()),
    }
}

/// Every position of a finished game, for the replay page: the public
/// state after each action (version 0 is the deal), with everything that
/// was hidden during play revealed (blind reserves show their card; the
/// decks' order stays out, as it is in the replay's layout).
#[derive(Serialize)]
struct Positions {
    game: String,
    room: String,
    seats: Vec<SeatName>,
    /// `positions[v]` is the state at version `v`.
    positions: Vec<splendor_protocol::StateInfo>,
    /// For each action (version `v` to `v + 1`): who played it, how, and
    /// what it did, nothing hidden.
    actions: Vec<splendor_replay::Step>,
    result: GameResult,
    /// Why the server's operators ended the game before its end (issue 22).
    #[serde(skip_serializing_if = "Option::is_none")]
    ended_by_operators: Option<String>,
    commitment: String,
    seed: String,
    salt: String,
}

/// `GET /api/games/{id}/positions`: the replay played back on the rules,
/// one state per version, for the replay page (`/games/{id}`).
pub(crate) async fn positions(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
    peer: Option<axum::Extension<axum::extract::ConnectInfo<std::net::SocketAddr>>>,
) -> Result<Response, ApiError> {
    // Issue 45: a budget of the node's, a quarter of it per address and
    // per range, cached answers included (their bytes are what it spends).
    if let Some(heavy) = state.heavy() {
        let peer = peer.map(|axum::Extension(axum::extract::ConnectInfo(addr))| addr);
        let ip = crate::ws::budgeted_ip(&state, &headers, peer);
        if !heavy.allow(ip, std::time::Instant::now()) {
            state.metrics().api_request_limited();
            state.slow_refusals().pause().await;
            return Err(ApiError::new(
                axum::http::StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                "the server is serving as many replays as it may now; try again in a second",
            )
            .retry_after(1));
        }
    }
    if let Some(body) = Uuid::try_parse(&id)
        .ok()
        .and_then(|game| state.finished_bodies().get(game))
    {
        return Ok(positions_response(body));
    }
    let game = finished_game(&state, &id).await?;
    let replay = match replay_of(&game) {
        Some(Ok(replay)) => replay,
        Some(Err(why)) => {
            error!(game = %id, error = %why, "a stored game does not replay");
            return Err(ApiError::internal());
        }
        None => return Err(ApiError::internal()),
    };
    let positions = play_back(&replay).map_err(|why| {
        error!(game = %id, error = %why, "a stored game does not play back");
        ApiError::internal()
    })?;
    let body = Positions {
        game: replay.game.clone(),
        room: replay.room.clone(),
        seats: replay.seats.clone(),
        positions,
        actions: replay.actions.clone(),
        result: replay.result.clone(),
        ended_by_operators: replay.ended_by_operators.clone(),
        commitment: replay.commitment.to_string(),
        seed: replay.seed.to_string(),
        salt: replay.salt.to_string(),
    };
    let body = serde_json::to_vec(&body).map_err(|e| {
        error!(game = %id, error = %e, "serialising the positions");
        ApiError::internal()
    })?;
    let body = axum::body::Bytes::from(body);
    // A finished game never changes: made once, served from memory after.
    state.finished_bodies().put(game.id, body.clone());
    Ok(positions_response(body))
}

fn positions_response(body: axum::body::Bytes) -> Response {
    (
        [
            (
                axum::http::header::CONTENT_TYPE,
                axum::http::HeaderValue::from_static("application/json"),
            ),
            // A finished game never changes.
            (
                axum::http::header::CACHE_CONTROL,
                axum::http::HeaderValue::from_static("public, max-age=86400, immutable"),
            ),
        ],
        body,
    )
        .into_response()
}

/// Plays the replay's actions from its seed: one fully revealed state per
/// version.
fn play_back(
    replay: &splendor_replay::Replay,
) -> Result<Vec<splendor_protocol::StateInfo>, String> {
    use splendor_protocol::view::{StateContext, state_info};
    use splendor_rules::{Action, Game, Viewer};
    let bots = splendor_rules::bot_mask(replay.seats.iter().map(|s| s.bot.is_some()));
    let mut game = Game::new(replay.players, replay.options, replay.seed.0)
        .map_err(|e| e.to_string())?
        .with_bots(bots);
    let names: Vec<String> = replay.seats.iter().map(|s| s.name.clone()).collect();
    let commitment = replay.commitment.to_string();
    let reveal = |game: &Game, version: u64| {
        let context = |you| StateContext {
            room: &replay.room,
            game: &replay.game,
            commitment: &commitment,
            version,
            you,
            names: &names,
            legal_actions: None,
            clocks: None,
        };
        let mut info = state_info(&game.view(Viewer::Spectator), context(None));
        // Each seat's own view shows its blind reserves: take them from there.
        for seat in 0..replay.players {
            let own = state_info(&game.view(Viewer::Seat(seat)), context(Some(seat)));
            if let (Some(public), Some(own)) = (
                info.players.get_mut(usize::from(seat)),
                own.players.get(usize::from(seat)),
            ) {
                public.reserved = own.reserved.clone();
            }
        }
        info
    };
    let mut positions = vec![reveal(&game, 0)];
    for (i, step) in replay.actions.iter().enumerate() {
        let action = Action::try_from(&step.action).map_err(|e| e.to_string())?;
        game.apply(step.seat, action)
            .map_err(|e| format!("action {i}: {e}"))?;
        positions.push(reveal(&game, i as u64 + 1));
    }
    Ok(positions)
}

/// At most 80 characters of a client's text, for messages.
fn trim(text: &str) -> String {
    text.chars().take(80).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_refuse_anything_else() {
        let cursor = FinishedCursor {
            finished_at: 1_700_000_000_123,
            id: Uuid::from_u128(0xabc),
        };
        let text = cursor_text(cursor);
        assert_eq!(text, "1700000000123.00000000000000000000000000000abc");
        assert_eq!(parse_cursor(&text), Some(cursor));
        for bad in [
            "",
            "12",
            "x.y",
            "12.zz",
            ".00000000000000000000000000000abc",
        ] {
            assert_eq!(parse_cursor(bad), None, "{bad}");
        }
    }
}
