//! What each client message does on a connection (docs/PROTOCOL.md, client
//! messages): a text frame parsed, then handed to the handler of its type
//! (hello and resume, rooms, the game, chat, quick play, invitations,
//! blocks and reports), each in the module that names it.

use splendor_lobby::Request;
use splendor_protocol::{
    ClientFrame, ClientMessage, ErrorCode, ErrorInfo, Pong, RequestId, RoomList, ServerMessage,
    Words, parse_client_frame,
};

use super::client::Client;

impl Client {
    /// One text frame: parsed, then handled; bad input answered.
    pub(super) async fn on_text(&mut self, text: &str) {
        let limit = self.state.config().max_frame_bytes;
        if text.len() > limit {
            let words = Words::new("conn-frame-too-large")
                .count("max", limit)
                .count("size", text.len());
            self.reply_error(ErrorCode::FrameTooLarge, words, None);
            return;
        }
        match parse_client_frame(text) {
            Ok(ClientFrame { id, message }) => self.dispatch(message, id).await,
            Err(e) => self.reply_error(e.code, e.words, e.id),
        }
    }

    async fn dispatch(&mut self, message: ClientMessage, id: Option<RequestId>) {
        match message {
            ClientMessage::Hello(hello) => self.hello(hello, id).await,
            ClientMessage::Ping => self.send(ServerMessage::Pong(Pong { id })),
            ClientMessage::ListRooms => {
                let rooms = self.state.lobby().listed_rooms_everywhere().await;
                self.send(ServerMessage::Rooms(RoomList { id, rooms }))
            }
            ClientMessage::Create(create) => self.create(create, id).await,
            ClientMessage::Join(join) => self.join(join, id).await,
            ClientMessage::Leave(leave) => self.leave(leave.give_up, id).await,
            ClientMessage::Start(start) => {
                let order = start.seat_order;
                // Held until the start is done (issue 22: the cap counts it).
                let _place = match self.room.as_ref().filter(|r| r.remote_lease().is_none()) {
                    Some(room) => match self.state.lobby().check_bot_table(room.code()) {
                        Ok(place) => place,
                        Err(e) => return self.reply_lobby_error(e, id),
                    },
                    None => None,
                };
                self.call_room(Request::Start { order }, id).await;
            }
            ClientMessage::AddBot(add) => {
                self.call_room(
                    Request::AddBot {
                        level: add.level.text(),
                    },
                    id,
                )
                .await;
            }
            ClientMessage::RemoveBot(remove) => {
                self.call_room(Request::RemoveBot { seat: remove.seat }, id)
                    .await;
            }
            ClientMessage::Act(act) => self.act(act, id).await,
            ClientMessage::Resign => self.resign(id).await,
            ClientMessage::Hint => self.hint(id).await,
            ClientMessage::Sync => {
                self.call_room(Request::Sync, id).await;
            }
            ClientMessage::Chat(chat) => {
                // A mute by the operators holds in every room, on every node.
                if let Some(session) = &self.session
                    && let Some((until, reason)) =
                        crate::sanctions::mute_for(&self.state, session.id.0).await
                {
                    let words = match until {
                        Some(until) => Words::new("chat-muted-server-for")
                            .count("minutes", crate::sanctions::minutes_left(until)),
                        None => Words::new("chat-muted-server"),
                    }
                    .text("reason", reason);
                    let mut error = ErrorInfo::new(ErrorCode::ChatMuted, self.word(&words), id);
                    error.until = until;
                    self.send(ServerMessage::Error(error));
                    return;
                }
                // The host's word filter: such words are masked before
                // anyone sees the line.
                let text = self.state.word_filter().mask(&chat.text);
                self.call_room(Request::Chat { text }, id).await;
            }
            ClientMessage::Mute(mute) => {
                let request = match (mute.seat, mute.spectators) {
                    (Some(seat), false) => Request::Mute {
                        seat,
                        muted: mute.muted,
                    },
                    (None, true) => Request::MuteSpectators { muted: mute.muted },
                    _ => {
                        let words = Words::new("mute-seat-or-spectators");
                        return self.reply_error(ErrorCode::InvalidField, words, id);
                    }
                };
                self.call_room(request, id).await;
            }
            ClientMessage::Rematch => self.rematch(id).await,
            ClientMessage::Queue(queue) => self.queue(queue, id).await,
            ClientMessage::Unqueue => self.unqueue(id).await,
            ClientMessage::Invite(invite) => self.invite(invite, id).await,
            ClientMessage::Decline(decline) => self.decline(decline, id).await,
            ClientMessage::Block(block) => self.block(block, id, false).await,
            ClientMessage::Unblock(block) => self.block(block, id, true).await,
            ClientMessage::Report(report) => self.report(report, id).await,
        }
    }

    // ---- helpers --------------------------------------------------------
}
