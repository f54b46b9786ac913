//! The plain HTTP endpoints.

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use splendor_protocol::RoomList;

use crate::AppState;

/// A pointer for people who open the server in a browser.
pub(crate) async fn index() -> &'static str {
    "Splendor server. Play over a WebSocket at /ws (see docs/PROTOCOL.md), \
     e.g. websocat ws://HOST/ws then {\"type\":\"hello\",\"name\":\"ann\"}.\n"
}

/// Liveness: answers 200 while the server accepts requests.
pub(crate) async fn healthz() -> (StatusCode, &'static str) {
    (StatusCode::OK, "ok\n")
}

/// The listed rooms that are waiting for players and have a free seat.
pub(crate) async fn rooms(State(state): State<AppState>) -> Json<RoomList> {
    Json(RoomList {
        id: None,
        rooms: state.lobby().listed_rooms(),
    })
}
