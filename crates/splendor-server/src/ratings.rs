//! The ratings API (issue 13; docs/HTTP-API.md, "Ratings"):
//!
//! - `GET /api/leaderboard?kind=humans|bots&page=N&per_page=N`: rated
//!   players best first, people and bots apart, paged;
//! - `GET /api/players/{player_id or name}`: one rated player with their
//!   recent rated games and their mean accuracy over the analyses of
//!   their rated games (issue 50). A name several rated players share is
//!   409 `ambiguous_name` with their ids.
//!
//! Errors are `{"error": code, "message": text}` like the history API's.

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use splendor_lobby::GameId;
use splendor_store::{BoardKind, MAX_BOARD_PAGE, PlayerRating, RatedGame};

use crate::AppState;
use crate::games::ApiError;

/// Rows per page when the request does not say.
const DEFAULT_PER_PAGE: u32 = 50;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BoardQuery {
    kind: Option<String>,
    page: Option<u32>,
    per_page: Option<u32>,
}

/// One rated player, as the API shows them.
#[derive(Serialize)]
struct PlayerJson {
    #[serde(skip_serializing_if = "Option::is_none")]
    rank: Option<u64>,
    player_id: String,
    name: String,
    bot: bool,
    /// Rounded to a tenth.
    rating: f64,
    deviation: f64,
    games: u64,
    wins: u64,
    provisional: bool,
    /// Unix milliseconds of the last rated game's end.
    last_played: i64,
}

fn tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

impl PlayerJson {
    fn new(p: &PlayerRating, rank: Option<u64>) -> PlayerJson {
        PlayerJson {
            rank,
            player_id: p.player_id.clone(),
            name: p.name.clone(),
            bot: p.bot,
            rating: tenth(p.rating),
            deviation: tenth(p.deviation),
            games: p.games,
            wins: p.wins,
            provisional: p.provisional(),
            last_played: p.last_played,
        }
    }
}

#[derive(Serialize)]
pub(crate) struct BoardJson {
    kind: &'static str,
    page: u32,
    per_page: u32,
    total: u64,
    players: Vec<PlayerJson>,
}

#[derive(Serialize)]
struct RecentJson {
    game: String,
    finished_at: i64,
    players: u8,
    place: u8,
    rating_before: f64,
    rating_after: f64,
    /// The others at the table, in seat order (issue 24).
    opponents: Vec<OpponentJson>,
}

#[derive(Serialize)]
struct OpponentJson {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    player_id: Option<String>,
    /// A built-in bot's level.
    #[serde(skip_serializing_if = "Option::is_none")]
    bot: Option<String>,
    /// A program played for them (issue 24).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    program_bot: bool,
}

impl From<&RatedGame> for RecentJson {
    fn from(g: &RatedGame) -> RecentJson {
        RecentJson {
            game: GameId(g.game_id).to_string(),
            finished_at: g.finished_at,
            players: g.players,
            place: g.place,
            rating_before: tenth(g.rating_before),
            rating_after: tenth(g.rating_after),
            opponents: g
                .opponents
                .iter()
                .map(|o| OpponentJson {
                    name: o.name.clone(),
                    player_id: o.player_id.clone(),
                    bot: o.bot.clone(),
                    program_bot: o.program,
                })
                .collect(),
        }
    }
}

#[derive(Serialize)]
pub(crate) struct PlayerPageJson {
    #[serde(flatten)]
    player: PlayerJson,
    recent: Vec<RecentJson>,
    /// Their mean accuracy over the analyses of their rated games (issue
    /// 50).
    accuracy: AccuracyJson,
}

#[derive(Serialize)]
struct AccuracyJson {
    /// How many analysed rated games (the newest, at most
    /// [`splendor_store::ACCURACY_GAMES`]).
    games: u32,
    /// The mean, rounded to a tenth; absent without any.
    #[serde(skip_serializing_if = "Option::is_none")]
    mean: Option<f64>,
}

fn bad_query(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "invalid_query", message)
}

fn no_database() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "storage_unavailable",
        "this server runs without a database, so it keeps no ratings",
    )
}

/// `GET /api/leaderboard`.
pub(crate) async fn leaderboard(
    State(state): State<AppState>,
    query: Result<Query<BoardQuery>, QueryRejection>,
) -> Result<Json<BoardJson>, ApiError> {
    let Query(query) = query.map_err(|e| {
        bad_query(format!(
            "{e}; use ?kind=humans|bots&page=1..&per_page=1..{MAX_BOARD_PAGE}"
        ))
    })?;
    let (kind, name) = match query.kind.as_deref() {
        None | Some("humans") => (BoardKind::Humans, "humans"),
        Some("bots") => (BoardKind::Bots, "bots"),
        Some(other) => {
            return Err(bad_query(format!(
                "kind must be humans or bots, not {other:?}"
            )));
        }
    };
    let page = query.page.unwrap_or(1);
    if page == 0 {
        return Err(bad_query("page numbers start at 1"));
    }
    let per_page = query.per_page.unwrap_or(DEFAULT_PER_PAGE);
    if per_page == 0 || per_page > MAX_BOARD_PAGE {
        return Err(bad_query(format!(
            "per_page must be from 1 to {MAX_BOARD_PAGE}, not {per_page}"
        )));
    }
    let store = state.store().ok_or_else(no_database)?;
    let board = store
        .leaderboard(kind, page, per_page)
        .await
        .map_err(ApiError::store)?;
    let first = u64::from(page - 1) * u64::from(per_page) + 1;
    Ok(Json(BoardJson {
        kind: name,
        page,
        per_page,
        total: board.total,
        players: board
            .players
            .iter()
            .zip(first..)
            .map(|(p, rank)| PlayerJson::new(p, Some(rank)))
            .collect(),
    }))
}

/// `GET /api/players/{player_id or name}`.
pub(crate) async fn player(
    State(state): State<AppState>,
    Path(key): Path<String>,
) -> Result<Response, ApiError> {
    let store = state.store().ok_or_else(no_database)?;
    let found = match store.player(&key).await.map_err(ApiError::store)? {
        Some(player) => player,
        None => {
            let mut named = store.players_named(&key).await.map_err(ApiError::store)?;
            match named.len() {
                0 => {
                    return Err(ApiError::new(
                        StatusCode::NOT_FOUND,
                        "player_not_found",
                        format!("no rated player has the id or name {key:?}"),
                    ));
                }
                1 => named.remove(0),
                _ => return Ok(ambiguous(&key, &named)),
            }
        }
    };
    let recent = store
        .recent_rated_games(&found.player_id)
        .await
        .map_err(ApiError::store)?;
    let accuracy = store
        .mean_accuracy(&found.player_id)
        .await
        .map_err(ApiError::store)?;
    Ok(Json(PlayerPageJson {
        player: PlayerJson::new(&found, None),
        recent: recent.iter().map(RecentJson::from).collect(),
        accuracy: AccuracyJson {
            games: accuracy.games,
            mean: accuracy.mean.map(tenth),
        },
    })
    .into_response())
}

#[derive(Serialize)]
struct AmbiguousJson {
    error: &'static str,
    message: String,
    players: Vec<PlayerJson>,
}

/// 409: several rated players have this name; their ids tell them apart.
fn ambiguous(name: &str, players: &[PlayerRating]) -> Response {
    let body = AmbiguousJson {
        error: "ambiguous_name",
        message: format!(
            "{} rated players are called {name:?}; ask for one by its player_id",
            players.len()
        ),
        players: players.iter().map(|p| PlayerJson::new(p, None)).collect(),
    };
    (StatusCode::CONFLICT, Json(body)).into_response()
}
