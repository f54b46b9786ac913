//! The owner's side: calls from other nodes to this node's rooms, and the
//! stand-in connections whose queues are forwarded to the nodes that hold
//! the sockets.

use crate::node::{CallAnswer, Delivery, Envelope, ToHolder, ToOwner};
use splendor_lobby::{
    Answer, ConnectionRx, JoinAs, NodeId, Outgoing, Request, RoomCode, RoomError,
};
use splendor_room::conn::Worded;
use tracing::{Instrument, debug, warn};

use crate::convert::{answer_to_wire, caller_from_wire, request_from_wire, words_to_wire};
use crate::{Cluster, deliver_subject, each_message, read};

/// Serves the calls to this node's rooms, each in its own task (a caller
/// waits for each answer before its next call, so one caller's calls stay
/// in order).
pub(crate) async fn serve(cluster: Cluster, calls: async_nats::Subscriber) {
    each_message(calls, |message| {
        let cluster = cluster.clone();
        async move {
            tokio::spawn(async move { answer(cluster, message).await }.in_current_span());
        }
    })
    .await;
}

async fn answer(cluster: Cluster, message: async_nats::Message) {
    cluster.inner.counters.call_in();
    let Some(reply) = message.reply.clone() else {
        warn!("a room call without a reply subject");
        return;
    };
    let answer = match read::<ToOwner>(&message.subject, &message.payload) {
        Some(ToOwner::Call {
            room,
            epoch,
            caller,
            request,
        }) => call(&cluster, &room, epoch, caller, request).await,
        None => CallAnswer::Refused {
            error: crate::convert::error_to_wire(&RoomError::internal("unreadable call")),
        },
    };
    if let Err(e) = cluster
        .inner
        .nats
        .publish(reply, Envelope::encode(answer).into())
        .await
    {
        warn!(error = %e, "answering a room call");
    }
}

async fn call(
    cluster: &Cluster,
    room: &str,
    epoch: u64,
    caller: crate::node::WireCaller,
    request: crate::node::WireRequest,
) -> CallAnswer {
    let refuse = |error: RoomError| answer_to_wire(Err(error));
    let (caller, request) = match (caller_from_wire(caller), request_from_wire(request)) {
        (Ok(caller), Ok(request)) => (caller, request),
        (Err(e), _) | (_, Err(e)) => {
            warn!(error = %e, "an unreadable room call");
            return refuse(RoomError::internal(e.to_string()));
        }
    };
    let lobby = &cluster.inner.lobby;
    let Some(code) = RoomCode::parse(room) else {
        return refuse(RoomError::RoomNotFound(room.to_owned()));
    };
    // The room must be here, under the lease the caller found: otherwise
    // it moved (or closed), and the caller looks again.
    let (Some(handle), Some(lease)) = (lobby.find_code(code), lobby.lease_of(code)) else {
        return refuse(RoomError::RoomClosed);
    };
    if lease.epoch != epoch {
        return refuse(RoomError::RoomClosed);
    }
    debug!(room, conn = %caller.conn, "a call from node {}", caller.conn.node());
    let result = match request {
        Request::Join {
            name,
            program,
            role,
            verbose,
            claim,
        } => {
            let (proxy, rx) =
                splendor_lobby::Connection::proxy(caller.conn, cluster.inner.config.proxy_queue);
            let holder = caller.conn.node();
            // The newest stand-in of this connection in this room: an older
            // one that ends later (dropped while NATS was cut) must not tell
            // the holder that the connection is released.
            let generation = cluster.newest_stand_in(code, caller.conn);
            tokio::spawn(
                forward(cluster.clone(), holder, code, epoch, generation, rx).in_current_span(),
            );
            handle
                .join(
                    caller,
                    JoinAs {
                        name,
                        program,
                        role,
                        verbose,
                        claim,
                    },
                    proxy,
                )
                .await
                .map(Answer::Joined)
        }
        request => handle.call(caller, request).await,
    };
    answer_to_wire(result)
}

/// Publishes what a room queues for a connection another node holds, in
/// order, a batch at a time, until the room lets the stand-in go. A close
/// the room asks for (a newer connection replaced this one) goes after
/// what was queued before it.
async fn forward(
    cluster: Cluster,
    holder: NodeId,
    room: RoomCode,
    epoch: u64,
    generation: u64,
    mut rx: ConnectionRx,
) {
    let subject = deliver_subject(holder);
    let conn = rx.id;
    let _counted = cluster.remote_member(room);
    let released = Delivery::Released {
        conn: conn.0,
        room: room.to_string(),
        epoch,
    };
    loop {
        tokio::select! {
            biased;
            message = rx.messages.recv() => {
                let Some(first) = message else {
                    if cluster.stand_in_ended(room, conn, generation) {
                        publish(&cluster, &subject, vec![released]).await;
                    }
                    return;
                };
                let mut items = vec![delivery(conn.0, epoch, first)];
                while let Ok(next) = rx.messages.try_recv() {
                    items.push(delivery(conn.0, epoch, next));
                }
                publish(&cluster, &subject, items).await;
            }
            reason = rx.close_signal.wait() => {
                if reason != splendor_lobby::CloseReason::Normal {
                    let item = Delivery::Close { conn: conn.0, code: reason.code() };
                    publish(&cluster, &subject, vec![item]).await;
                }
                // Every stand-in is gone or the room closed it: what it
                // still queued goes, then nothing more.
                let mut items = Vec::new();
                while let Ok(next) = rx.messages.try_recv() {
                    items.push(delivery(conn.0, epoch, next));
                }
                if !items.is_empty() {
                    publish(&cluster, &subject, items).await;
                }
                return;
            }
        }
    }
}

fn delivery(conn: u64, epoch: u64, outgoing: Outgoing) -> Delivery {
    match outgoing {
        Outgoing::Message(message) => Delivery::Frame {
            conn,
            json: message.to_json(),
        },
        Outgoing::Shared(frame) => Delivery::Frame {
            conn,
            json: frame.as_str().to_owned(),
        },
        Outgoing::Worded(worded) => match *worded {
            Worded::RoomClosed {
                room,
                reason,
                room_goes_on,
            } => Delivery::RoomClosed {
                conn,
                room,
                epoch,
                reason: words_to_wire(&reason),
                room_goes_on,
            },
        },
    }
}

async fn publish(cluster: &Cluster, subject: &str, items: Vec<Delivery>) {
    cluster.inner.counters.delivered_out(items.len());
    let message = Envelope::encode(ToHolder::Deliver { items });
    if let Err(e) = cluster
        .inner
        .nats
        .publish(subject.to_owned(), message.into())
        .await
    {
        warn!(error = %e, subject, "forwarding to a connection's node");
    }
}
