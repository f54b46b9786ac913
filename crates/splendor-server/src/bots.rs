//! `GET /api/bots/levels` (issue 51): the built-in levels with their Elo.
//! `GET /api/bots/online` (issue 24): the programs connected now that take
//! challenges (`hello` with `"bot":true,"challenges":true`), on every node
//! (the store lists them; a node clears its own rows when it starts, and in
//! a cluster only the rows of live nodes count). A bot author picks an
//! opponent here and challenges it by `player_id` (`create`, then `invite`).

use axum::Json;
use axum::extract::State;
use serde::Serialize;
use tracing::warn;

use crate::AppState;
use crate::games::ApiError;

/// The most bots listed.
const MAX_LISTED: u32 = 200;

/// The answer.
#[derive(Serialize)]
pub(crate) struct BotsOnline {
    bots: Vec<BotJson>,
}

/// One program online.
#[derive(Serialize)]
struct BotJson {
    name: String,
    /// What a challenge names.
    player_id: String,
    /// Its rating on the bots' board, rounded to a tenth, once it played a
    /// rated game.
    #[serde(skip_serializing_if = "Option::is_none")]
    rating: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    deviation: Option<f64>,
    rated_games: u64,
    /// Online since, Unix ms.
    online_since: i64,
}

fn tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// `GET /api/bots/online`: `{"bots":[...]}`, longest online first.
pub(crate) async fn online(State(state): State<AppState>) -> Result<Json<BotsOnline>, ApiError> {
    let Some(store) = state.store() else {
        return Ok(Json(BotsOnline { bots: Vec::new() }));
    };
    let listed = store
        .bots_online(state.cluster().is_some(), MAX_LISTED)
        .await
        .map_err(ApiError::store)?;
    let bots = listed
        .into_iter()
        .map(|b| BotJson {
            player_id: b
                .player_id
                .unwrap_or_else(|| splendor_store::player_id(b.session)),
            name: b.name,
            rating: b.rating.map(tenth),
            deviation: b.deviation.map(tenth),
            rated_games: b.rated_games,
            online_since: b.since,
        })
        .collect();
    Ok(Json(BotsOnline { bots }))
}

/// This node starts: none of its connections is open, so none of its
/// programs is online (a process killed with them listed left its rows).
pub(crate) async fn clear_on_start(state: &AppState) {
    let Some(store) = state.store() else {
        return;
    };
    let node = state.lobby().config().node;
    if let Err(e) = store.clear_bots_online(node.0).await {
        warn!(error = %e, "the programs online of an earlier run stay listed");
    }
}

/// `GET /api/bots/levels` (issue 51): the built-in levels, weakest first,
/// each with its number, name, measured Elo, how it plays (`random`,
/// `greedy`, `search` or `guided_search`) and its iterations a move, as `add_bot`
/// takes them and the page offers them.
pub(crate) async fn levels() -> Json<serde_json::Value> {
    let levels: Vec<serde_json::Value> = splendor_ai::Level::all()
        .map(|level| {
            serde_json::json!({
                "level": level.number(),
                "name": level.name(),
                "elo": level.elo(),
                "plays": match level.play() {
                    splendor_ai::Play::Random => "random",
                    splendor_ai::Play::Greedy => "greedy",
                    splendor_ai::Play::Search { .. } => "search",
                    splendor_ai::Play::Guided { .. } => "guided_search",
                },
                "iterations": level.play().iterations(),
            })
        })
        .collect();
    Json(serde_json::json!({ "levels": levels, "default": splendor_ai::Level::GREEDY.number() }))
}
