//! The writing side of a connection: its queue into the socket, pings,
//! and the close frame that says why.

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::stream::SplitSink;
use futures_util::{FutureExt, SinkExt};
use splendor_lobby::{CloseReason, ConnectionRx};
use splendor_protocol::Words;
use tokio::time::{Instant, MissedTickBehavior};
use tracing::debug;

use crate::AppState;
use crate::l10n::{self, LangCell};

use super::CLOSE_TIMEOUT;

/// Drains the queue into the socket and pings the client every heartbeat
/// interval, until the connection is closed; then sends a close frame that
/// says why.
pub(super) async fn write_loop(
    mut sink: SplitSink<WebSocket, Message>,
    rx: ConnectionRx,
    state: AppState,
    lang: LangCell,
) {
    let word = |words: &Words| l10n::word(lang.get(), words);
    let ConnectionRx {
        mut messages,
        close_signal: mut closed,
        ..
    } = rx;
    let every = state.config().heartbeat_interval;
    let mut heartbeat = tokio::time::interval_at(Instant::now() + every, every);
    heartbeat.set_missed_tick_behavior(MissedTickBehavior::Delay);
    // A message taken from the queue that the socket had not accepted yet
    // when a close request came: it is sent first if the queue is flushed.
    let mut in_hand: Option<Message> = None;
    // A message taken from the queue while gathering (below) that the
    // socket could not take at once: it goes first in the next round.
    let mut next: Option<Message> = None;
    let reason = loop {
        let (frame, is_message) = match next.take() {
            Some(frame) => (frame, true),
            None => tokio::select! {
                biased;
                reason = closed.wait() => break reason,
                message = messages.recv() => {
                    let Some(message) = message else { break CloseReason::Normal };
                    (Message::Text(message.into_json(&word).into()), true)
                }
                _ = heartbeat.tick() => (Message::Ping(Default::default()), false),
            },
        };
        // A client that does not read must not hold the writer: a close
        // request interrupts the wait for the socket. The frame is handed
        // over only once the socket can take it, so it is never lost half-way.
        let ready = tokio::select! {
            biased;
            reason = closed.wait() => Err(reason),
            ready = std::future::poll_fn(|cx| sink.poll_ready_unpin(cx)) => Ok(ready),
        };
        match ready {
            Err(reason) => {
                in_hand = is_message.then_some(frame);
                break reason;
            }
            Ok(Err(_)) => return,
            Ok(Ok(())) => {}
        }
        if sink.start_send_unpin(frame).is_err() {
            return;
        }
        if is_message {
            state.metrics().message_sent();
            // Gather what is already queued behind it (an action's events
            // and state come together), so that one flush, one write to the
            // socket, carries them all.
            while let Ok(queued) = messages.try_recv() {
                let frame = Message::Text(queued.into_json(&word).into());
                match std::future::poll_fn(|cx| sink.poll_ready_unpin(cx)).now_or_never() {
                    Some(Ok(())) => {
                        if sink.start_send_unpin(frame).is_err() {
                            return;
                        }
                        state.metrics().message_sent();
                    }
                    Some(Err(_)) => return,
                    None => {
                        next = Some(frame);
                        break;
                    }
                }
            }
        }
        tokio::select! {
            biased;
            // What was handed over goes out with the close frame, and a
            // gathered message not handed over yet first.
            reason = closed.wait() => {
                in_hand = next.take();
                break reason;
            }
            flushed = std::future::poll_fn(|cx| sink.poll_flush_unpin(cx)) => {
                if flushed.is_err() {
                    return;
                }
            }
        }
    };
    if reason != CloseReason::Normal {
        debug!(?reason, "closing");
    }
    // A client that is told why it is closed (rate limit, idle, restart,
    // replaced, banned) first gets what was already queued for it, such as the
    // `rate_limited` error; one that does not read, or is gone, does not.
    let flush = matches!(
        reason,
        CloseReason::RateLimited
            | CloseReason::Idle
            | CloseReason::ShuttingDown
            | CloseReason::Replaced
            | CloseReason::Banned
    );
    let frame = CloseFrame {
        code: reason.code(),
        reason: close_text(word(&reason.words())).into(),
    };
    let _ = tokio::time::timeout(CLOSE_TIMEOUT, async {
        if flush && let Some(frame) = in_hand.take() {
            if sink.send(frame).await.is_err() {
                return;
            }
            state.metrics().message_sent();
        }
        while flush && let Ok(message) = messages.try_recv() {
            if sink
                .send(Message::Text(message.into_json(&word).into()))
                .await
                .is_err()
            {
                return;
            }
            state.metrics().message_sent();
        }
        let _ = sink.send(Message::Close(Some(frame))).await;
        let _ = sink.close().await;
    })
    .await;
}

/// A close frame's reason: at most 123 bytes (RFC 6455, 5.5), cut at a
/// character boundary.
fn close_text(mut text: String) -> String {
    const MAX: usize = 123;
    if text.len() > MAX {
        let mut end = MAX;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_close_text_is_cut_to_123_bytes_at_a_character() {
        assert_eq!(close_text("bye".into()), "bye");
        let long = "é".repeat(100);
        let cut = close_text(long);
        assert_eq!(cut.len(), 122);
        assert!(cut.chars().all(|c| c == 'é'));
    }
}
