//! A message for a session's open connection, wherever it is (issue 24):
//! `challenge` to the challenged, `challenge_declined` to the challenger.
//! The connection on this node gets it at once; in a cluster every node
//! hears it and the one holding the session's connection sends it
//! ([`splendor_cluster::Cluster::tell_session`]). Best effort, like any
//! push: a session with no open connection finds what waits for it in the
//! store (its invitations in My games, or as `challenge` after `hello`).

use splendor_lobby::{Outgoing, SessionId, SharedFrame};
use splendor_protocol::ServerMessage;

use crate::AppState;

/// Sends `message` to `session`'s open connection, here or on another node.
pub(crate) async fn tell_session(state: &AppState, session: SessionId, message: ServerMessage) {
    // Every device the session is open on (issue 23).
    for conn in state.lobby().presence().connections_of(session) {
        // A connection whose queue is full is being closed for it.
        let _ = conn.send(message.clone());
    }
    // Another node may hold the session's newer connection while this one
    // still holds an older one (a claim closes the older connection on its
    // own node only): every node hears it, each sends to its own.
    if let Some(cluster) = state.cluster() {
        cluster.tell_session(session, message.to_json()).await;
    }
}

/// What another node has for a session whose connection may be here.
pub(crate) fn told(state: &AppState, session: SessionId, json: String) {
    let frame = SharedFrame::from_text(json);
    for conn in state.lobby().presence().connections_of(session) {
        let _ = conn.send(Outgoing::Shared(frame.clone()));
    }
}
