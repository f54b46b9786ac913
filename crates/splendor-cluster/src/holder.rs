//! The holder's side: this node's connections in rooms on other nodes.
//! Their calls go to the owner; what the owner's room sends them comes
//! back as deliveries, put on the real connection's queue.

use crate::node::{CallAnswer, Delivery, Envelope, ToHolder, ToOwner, decode};
use splendor_lobby::{
    Answer, Caller, CloseReason, Connection, Lease, Outgoing, Request, RoomCode, RoomError,
    SharedFrame,
};
use splendor_room::conn::Worded;
use tracing::{debug, warn};

use crate::convert::{answer_from_wire, caller_to_wire, request_to_wire, words_from_wire};
use crate::{Cluster, call_subject, each_message, read};

/// A request of one of this node's connections to a room on another node.
pub(crate) async fn call(
    cluster: &Cluster,
    lease: Lease,
    caller: Caller,
    request: Request,
    conn: Option<Connection>,
) -> Result<Answer, RoomError> {
    if cluster.is_closed_lease(lease) {
        return Err(RoomError::RoomClosed);
    }
    let detaching = matches!(request, Request::Detach);
    if let Some(conn) = conn {
        cluster.held().insert(conn.id(), (conn, lease));
    }
    let message = ToOwner::Call {
        room: lease.code.to_string(),
        epoch: lease.epoch,
        caller: caller_to_wire(&caller),
        request: request_to_wire(&request),
    };
    let started = std::time::Instant::now();
    // A call to an owner that died after it was sent gets no answer; once
    // another node announces it took the room over, the call ends there,
    // not at its timeout (the caller tries again where the room is now).
    let mut closed = cluster.closed_flag(lease.code, lease.epoch);
    let asked = tokio::select! {
        asked = tokio::time::timeout(
            cluster.inner.config.call_timeout,
            cluster
                .inner
                .nats
                .request(call_subject(lease.node), Envelope::encode(message).into()),
        ) => asked,
        _ = closed.wait_for(|closed| *closed) => {
            cluster.inner.counters.call_out(started.elapsed(), false);
            debug!(room = %lease.code, node = %lease.node, "the room moved while a call to its old owner waited");
            return Err(RoomError::RoomUnavailable);
        }
    };
    let answered = matches!(asked, Ok(Ok(_)));
    cluster.inner.counters.call_out(started.elapsed(), answered);
    let reply = match asked {
        Ok(Ok(reply)) => reply,
        Ok(Err(e)) => {
            warn!(room = %lease.code, node = %lease.node, error = %e, "a call to another node");
            return Err(RoomError::RoomUnavailable);
        }
        Err(_) => {
            warn!(room = %lease.code, node = %lease.node, "a call to another node timed out");
            return Err(RoomError::RoomUnavailable);
        }
    };
    let answer = match decode::<CallAnswer>(&reply.payload) {
        Ok(answer) => answer_from_wire(answer),
        Err(e) => {
            warn!(room = %lease.code, error = %e, "an unreadable answer from another node");
            Err(RoomError::RoomUnavailable)
        }
    };
    let closed = matches!(answer, Err(RoomError::RoomClosed));
    if closed {
        cluster.mark_closed(lease.code, lease.epoch);
    }
    // A connection that ended, or whose room closed, gets nothing more; one
    // that left still gets its `left`, then the owner releases it.
    if detaching || closed {
        cluster.held().remove(&caller.conn);
    }
    answer
}

/// Puts what rooms on other nodes send this node's connections on their
/// queues, in order.
pub(crate) async fn serve(cluster: Cluster, deliveries: async_nats::Subscriber) {
    each_message(deliveries, |message| {
        let cluster = cluster.clone();
        async move {
            if let Some(ToHolder::Deliver { items }) =
                read::<ToHolder>(&message.subject, &message.payload)
            {
                cluster.inner.counters.delivered_in(items.len());
                for item in items {
                    deliver(&cluster, item);
                }
            }
        }
    })
    .await;
}

fn deliver(cluster: &Cluster, item: Delivery) {
    let conn = match &item {
        Delivery::Frame { conn, .. }
        | Delivery::RoomClosed { conn, .. }
        | Delivery::Released { conn, .. }
        | Delivery::Close { conn, .. } => splendor_lobby::ConnId(*conn),
    };
    if let Delivery::Released { room, epoch, .. } = &item {
        let mut held = cluster.held();
        if held
            .get(&conn)
            .is_some_and(|(_, lease)| lease.code.as_str() == room && lease.epoch == *epoch)
        {
            held.remove(&conn);
        }
        return;
    }
    let Some(target) = cluster.held().get(&conn).map(|(c, _)| c.clone()) else {
        debug!(%conn, "a delivery for a connection this node no longer holds");
        return;
    };
    let sent = match item {
        Delivery::Frame { json, .. } => target.send(Outgoing::Shared(SharedFrame::from_text(json))),
        Delivery::RoomClosed {
            room,
            epoch,
            reason,
            room_goes_on,
            ..
        } => {
            // A connection let go by a room that goes on (removed, or its
            // seat taken from another device) says nothing of the room.
            if !room_goes_on && let Some(code) = RoomCode::parse(&room) {
                cluster.mark_closed(code, epoch);
            }
            match words_from_wire(reason) {
                Ok(reason) => target.send(Outgoing::Worded(Box::new(Worded::RoomClosed {
                    room,
                    reason,
                    room_goes_on,
                }))),
                Err(e) => {
                    warn!(error = %e, "an unreadable room_closed reason");
                    Ok(())
                }
            }
        }
        Delivery::Close { code, .. } => {
            target.close(close_reason(code));
            Ok(())
        }
        Delivery::Released { .. } => Ok(()),
    };
    if sent.is_err() || target.close_reason().is_some() {
        cluster.held().remove(&conn);
    }
}

/// The reason a close code stands for (what the room asked for).
fn close_reason(code: u16) -> CloseReason {
    [
        CloseReason::Replaced,
        CloseReason::TooSlow,
        CloseReason::MessageTooBig,
        CloseReason::ShuttingDown,
        CloseReason::RateLimited,
        CloseReason::Idle,
        CloseReason::HeartbeatTimeout,
        CloseReason::Banned,
    ]
    .into_iter()
    .find(|r| r.code() == code)
    .unwrap_or(CloseReason::Normal)
}

/// Hears what every node is told: a room taken over. The connections of
/// this node that were in it under an older lease are handed to the
/// gateway's hook, to join it again where it lives now.
pub(crate) async fn hear(cluster: Cluster, announcements: async_nats::Subscriber) {
    each_message(announcements, |message| {
        let cluster = cluster.clone();
        async move {
            let (room, epoch) = match read(&message.subject, &message.payload) {
                Some(crate::node::ToAll::Moved { room, epoch, .. }) => (room, epoch),
                Some(crate::node::ToAll::HandedOff { node, rooms }) => {
                    if node != cluster.inner.node.0 {
                        debug!(node, rooms, "a node handed its rooms off");
                        cluster.inner.handed_off.notify_one();
                    }
                    return;
                }
                Some(crate::node::ToAll::Matched {
                    session,
                    room,
                    players,
                    rematch_of,
                }) => {
                    let found = uuid::Uuid::parse_str(&session)
                        .ok()
                        .zip(RoomCode::parse(&room));
                    let old = rematch_of.as_deref().map(RoomCode::parse);
                    match (found, old, cluster.inner.matched.get()) {
                        (Some((session, room)), None | Some(Some(_)), Some(hook)) => {
                            let found = splendor_lobby::Match {
                                room,
                                players,
                                rematch_of: old.flatten(),
                            };
                            hook(splendor_lobby::SessionId(session), found);
                        }
                        (None, ..) | (_, Some(None), _) => {
                            warn!(%session, %room, "an unreadable announcement of a formed game");
                        }
                        (_, _, None) => {}
                    }
                    return;
                }
                Some(crate::node::ToAll::Sanctioned(sanction)) => {
                    if let Some(hook) = cluster.inner.sanctioned.get() {
                        hook(sanction);
                    }
                    return;
                }
                Some(crate::node::ToAll::Tell {
                    from,
                    session,
                    message,
                }) => {
                    // This node's own connections had it already.
                    if from == cluster.inner.node.0 {
                        return;
                    }
                    match (uuid::Uuid::parse_str(&session), cluster.inner.told.get()) {
                        (Ok(session), Some(hook)) => {
                            hook(splendor_lobby::SessionId(session), message);
                        }
                        (Err(_), _) => warn!(%session, "an unreadable message for a session"),
                        (Ok(_), None) => {}
                    }
                    return;
                }
                Some(crate::node::ToAll::Reattach { room, epoch, node }) => {
                    if node == cluster.inner.node.0 {
                        return;
                    }
                    let Some(code) = RoomCode::parse(&room) else {
                        return;
                    };
                    let conns: Vec<splendor_lobby::ConnId> = cluster
                        .held()
                        .iter()
                        .filter(|(_, (_, lease))| lease.code == code && lease.epoch == epoch)
                        .map(|(id, _)| *id)
                        .collect();
                    if let Some(hook) = cluster.inner.moved.get()
                        && !conns.is_empty()
                    {
                        debug!(%room, connections = conns.len(), "the room's owner is back; joining it again");
                        hook(code, conns);
                    }
                    return;
                }
                None => return,
            };
            let Some(code) = RoomCode::parse(&room) else {
                return;
            };
            // This node still runs the room under an older lease: it was
            // cut off from the database past its lease (it could neither
            // renew nor find out), and another node took the room over.
            // The database fences it anyway; it closes now rather than at
            // its next successful renewal, so its players move on.
            let lobby = &cluster.inner.lobby;
            if let Some(stale) = lobby.lease_of(code).filter(|l| l.epoch < epoch)
                && let Some(handle) = lobby.find_code(code)
            {
                warn!(room = %code, epoch = stale.epoch, newer = epoch, "another node took over a room this node runs; closing it");
                handle.lease_lost().await;
            }
            let moved: Vec<splendor_lobby::ConnId> = cluster
                .held()
                .iter()
                .filter(|(_, (_, lease))| lease.code == code && lease.epoch < epoch)
                .map(|(id, _)| *id)
                .collect();
            // Calls under the old lease are answered room_closed from now;
            // the connections join again (and are held again if the room
            // is on another node).
            let old: Vec<splendor_lobby::Lease> = {
                let mut held = cluster.held();
                moved
                    .iter()
                    .filter_map(|id| held.remove(id))
                    .map(|(_, l)| l)
                    .collect()
            };
            for lease in old {
                cluster.mark_closed(lease.code, lease.epoch);
            }
            if let Some(hook) = cluster.inner.moved.get() {
                hook(code, moved);
            }
        }
    })
    .await;
}

impl Cluster {
    fn is_closed_lease(&self, lease: Lease) -> bool {
        *self.closed_flag(lease.code, lease.epoch).borrow()
    }
}
