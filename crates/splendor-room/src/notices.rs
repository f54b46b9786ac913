//! Telling players who are not at the table (issue 25): in a turn-based
//! room (R12.5), when a turn starts for a person whose connection is not in
//! the room, when the game ends, and when someone writes in the chat, the
//! core gives out an [`Effect::Notify`](crate::effect::Effect::Notify) for
//! that person's session. Whoever drives the room hands it to the server's
//! notifier (a webhook, a push), which decides by the player's settings
//! whether to send it. A notice says what happened and where, never
//! anything hidden. Live rooms give none: their players are at the table.

use std::time::Duration;

use splendor_rules::Seat;

use super::core::RoomCore;
use super::effect::{Effect, Notice, NoticeEvent};
use crate::session::SessionId;

/// A player away is told of the chat at most once in this long (a busy
/// chat is one notice, not one a message).
pub const CHAT_NOTICE_EVERY: Duration = Duration::from_secs(10 * 60);

/// What was already told, so that nothing is told twice.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Notified {
    /// The turn (its number and seat) last told.
    turn: Option<(u32, Seat)>,
    /// The end was told.
    over: bool,
    /// When each player away was last told of the chat.
    chat: std::collections::HashMap<SessionId, std::time::Instant>,
}

impl RoomCore {
    /// After a restore: the turn in progress and an end already reached
    /// were told before (a restart tells nobody again).
    pub(crate) fn notified_so_far(&mut self) {
        if let Some(running) = &self.running {
            let game = running.game();
            self.notified = Notified {
                turn: game.to_act().map(|seat| (game.turn(), seat)),
                over: game.is_over(),
                chat: Default::default(),
            };
        }
    }

    /// After every input, in a turn-based room: a turn that starts for a
    /// person who is away, or the end, is told to whom it concerns.
    pub(crate) fn notify_away(&mut self) {
        if !self.turn_based() || self.closed || self.pending.is_some() {
            return;
        }
        let Some(running) = &self.running else {
            return;
        };
        let game = running.game();
        let mut notices = Vec::new();
        if game.is_over() {
            if !self.notified.over {
                self.notified.over = true;
                notices.extend(
                    self.people
                        .members()
                        .filter(|m| m.bot.is_none() && m.conn.is_none())
                        .map(|m| Notice {
                            session: m.session,
                            event: NoticeEvent::GameOver,
                        }),
                );
            }
        } else if let Some(seat) = game.to_act() {
            let turn = (game.turn(), seat);
            let standing_in = running
                .clocks()
                .is_some_and(|c| c.standing_in == Some(seat));
            if self.notified.turn != Some(turn) && !standing_in {
                self.notified.turn = Some(turn);
                if let Some(member) = self.people.member(usize::from(seat))
                    && member.bot.is_none()
                    && member.conn.is_none()
                    && !game.has_resigned(seat)
                {
                    let left = running
                        .clocks()
                        .and_then(|c| c.deadline())
                        .map_or(Duration::ZERO, |d| d.saturating_duration_since(self.now));
                    notices.push(Notice {
                        session: member.session,
                        event: NoticeEvent::YourTurn { left },
                    });
                }
            }
        }
        for notice in notices {
            self.push(Effect::Notify(notice));
        }
    }

    /// A chat message from `author` in a turn-based room: the seated people
    /// who are away are told who wrote (not what: the chat is kept nowhere),
    /// each at most once in [`CHAT_NOTICE_EVERY`].
    pub(crate) fn notify_chat(&mut self, author: SessionId, from: &str) {
        if !self.turn_based() {
            return;
        }
        let now = self.now;
        let told = &mut self.notified.chat;
        told.retain(|_, at| now.saturating_duration_since(*at) < CHAT_NOTICE_EVERY);
        let notices: Vec<Notice> = self
            .people
            .members()
            .filter(|m| m.bot.is_none() && m.conn.is_none() && m.session != author)
            .filter(|m| {
                let fresh = !told.contains_key(&m.session);
                if fresh {
                    told.insert(m.session, now);
                }
                fresh
            })
            .map(|m| Notice {
                session: m.session,
                event: NoticeEvent::Chat {
                    from: from.to_owned(),
                },
            })
            .collect();
        for notice in notices {
            self.push(Effect::Notify(notice));
        }
    }
}
