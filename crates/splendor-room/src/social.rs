//! The table around the game (issue 11): chat between the people in the
//! room, the host's mute, and the rematch after the end.
//!
//! Chat is text from a person, relayed to everyone in the room. The room
//! keeps its last [`CHAT_KEPT`] lines (in memory; a parked game takes them
//! into the store with it, [`crate::effect::Write::Park`]) and gives them
//! to whoever joins or comes back (`chat_history`, issue 23), so a reload,
//! or a return to a turn-based game days later, keeps the conversation; the lines of a person the host mutes or
//! the operators remove are dropped, and those of the spectators when the
//! host mutes them. Nothing the server knows about the game is ever written
//! into chat, so chat cannot leak what a seat may not see.
//!
//! A rematch is agreed in the finished room (every person seated accepts;
//! bots always do), then made by the gateway, which alone can create rooms
//! ([`RematchPlan`] out, [`Request::RematchReady`] back in): the core never
//! touches the lobby.
//!
//! [`Request::RematchReady`]: super::input::Request::RematchReady

use std::collections::{HashMap, VecDeque};
use std::time::Instant;

use splendor_protocol::{ChatInfo, MAX_CHAT_CHARS, RematchInfo, RoomStatus, ServerMessage, Words};
use splendor_rules::Seat;
use tracing::info;

use super::core::RoomCore;
use super::effect::{Answer, RematchPlan};
use super::input::Caller;
use crate::code::RoomCode;
use crate::config::{CHAT_BURST, CHAT_WINDOW, SPECTATORS_CHAT_BURST};
use crate::conn::{Outgoing, SharedFrame};
use crate::error::RoomError;
use crate::session::SessionId;
use crate::whois::{Person, Whom};

/// The most chat lines a room keeps for those who join or come back.
pub const CHAT_KEPT: usize = 50;

/// Chat and rematch state of a room, in memory (a parked game takes its
/// kept lines into the store with it).
#[derive(Debug, Default)]
pub(crate) struct Social {
    /// The room's last [`CHAT_KEPT`] lines, oldest first, each with its
    /// author's session (so that a muted or removed person's go).
    lines: VecDeque<(SessionId, ChatInfo)>,
    /// Sessions the host muted (by session: seats are renumbered at the
    /// start).
    muted: Vec<SessionId>,
    /// When each person's recent chat messages were sent.
    sent: HashMap<SessionId, VecDeque<Instant>>,
    /// When the spectators' recent chat messages were sent.
    spectators_sent: VecDeque<Instant>,
    /// The host muted the spectators' chat.
    spectators_muted: bool,
    /// The rematch once someone offered it.
    rematch: Option<Rematch>,
    /// People seated who left the finished table: no rematch without them.
    left: Vec<SessionId>,
    /// Who each session blocked (issue 22), as its gateway said: their chat
    /// never reaches it.
    blocks: HashMap<SessionId, Vec<SessionId>>,
    /// The number of the last chat line (issue 22: `report` and `block`
    /// name a line by it), from a start drawn for the room.
    last_line: u64,
}

impl Social {
    /// No chat yet; the first line will be numbered `first + 1`.
    pub(crate) fn starting_lines_at(first: u64) -> Social {
        Social {
            last_line: first,
            ..Social::default()
        }
    }

    fn next_line(&mut self) -> u64 {
        self.last_line += 1;
        self.last_line
    }
}

#[derive(Debug)]
struct Rematch {
    /// By seat: wants the rematch (bots always do).
    accepted: Vec<bool>,
    /// Everyone accepted: the gateway is making the room, or made it.
    agreed: bool,
    /// The new room, once made.
    room: Option<RoomCode>,
}

/// Why a chat text is refused, or the text to send (trimmed).
pub(crate) fn check_chat(text: &str) -> Result<&str, RoomError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(RoomError::InvalidChat(Words::new("chat-empty")));
    }
    let chars = text.chars().count();
    if chars > MAX_CHAT_CHARS {
        return Err(RoomError::InvalidChat(
            Words::new("chat-too-long")
                .count("max", MAX_CHAT_CHARS)
                .count("count", chars),
        ));
    }
    // The rule names share (crate::text): no control, invisible or bidi
    // characters, no stacks of combining marks.
    match crate::text::text_problem(text) {
        None => Ok(text),
        Some(crate::text::TextProblem::Control(_)) => {
            Err(RoomError::InvalidChat(Words::new("chat-control")))
        }
        Some(problem @ crate::text::TextProblem::Invisible(_)) => Err(RoomError::InvalidChat(
            Words::new("chat-invisible").text("code", problem.code().unwrap_or_default()),
        )),
        Some(crate::text::TextProblem::StackedMarks) => Err(RoomError::InvalidChat(
            Words::new("chat-stacked-marks").count("max", crate::text::MAX_STACKED_MARKS),
        )),
    }
}

impl RoomCore {
    /// `chat`: relays `text` to everyone in the room, the sender's copy
    /// answering the request.
    pub(crate) fn chat(&mut self, caller: &Caller, text: &str) -> Result<(), RoomError> {
        let (session, conn) = (caller.session, caller.conn);
        let (from, seat) = if let Some(seat) = self.people.seat_of_conn(session, conn) {
            let name = self.people.member(seat).map(|m| m.name.clone());
            (name.unwrap_or_default(), Some(seat as Seat))
        } else if let Some(i) = self.people.spectator_of_conn(session, conn) {
            (self.people.spectators()[i].name.clone(), None)
        } else {
            return Err(RoomError::NotInRoom);
        };
        if self.social.muted.contains(&session) {
            return Err(RoomError::ChatMuted { spectators: false });
        }
        if seat.is_none() && self.social.spectators_muted {
            return Err(RoomError::ChatMuted { spectators: true });
        }
        let text = check_chat(text)?.to_owned();
        let now = self.now;
        let recent = |sent: &mut VecDeque<Instant>| {
            while sent
                .front()
                .is_some_and(|&t| now.saturating_duration_since(t) >= CHAT_WINDOW)
            {
                sent.pop_front();
            }
            sent.len()
        };
        let sent = self.social.sent.entry(session).or_default();
        if recent(sent) >= CHAT_BURST {
            return Err(RoomError::ChatTooFast { spectators: false });
        }
        let spectator = seat.is_none();
        if spectator && recent(&mut self.social.spectators_sent) >= SPECTATORS_CHAT_BURST {
            return Err(RoomError::ChatTooFast { spectators: true });
        }
        self.social.sent.entry(session).or_default().push_back(now);
        if spectator {
            self.social.spectators_sent.push_back(now);
        }
        let mut info = ChatInfo {
            id: None,
            room: self.code.to_string(),
            from,
            seat,
            text,
            line: self.social.next_line(),
        };
        let author = info.from.clone();
        self.notify_chat(session, &author);
        if self.social.lines.len() == CHAT_KEPT {
            self.social.lines.pop_front();
        }
        self.social.lines.push_back((session, info.clone()));
        let shared = SharedFrame::new(&ServerMessage::Chat(info.clone()));
        for audience in self.audience() {
            if audience.conn == conn {
                info.id = caller.request.clone();
                self.send(conn, ServerMessage::Chat(info.clone()));
            } else if self.blocks(audience.session, session) {
                // Issue 22: a session's chat never reaches one who blocked it.
            } else {
                self.push(super::effect::Effect::Send {
                    to: audience.conn,
                    message: Outgoing::Shared(shared.clone()),
                });
            }
        }
        Ok(())
    }

    /// `mute` with `"spectators":true`: the host mutes or unmutes the
    /// chat of every spectator, those watching now and those who come.
    pub(crate) fn mute_spectators(
        &mut self,
        caller: &Caller,
        muted: bool,
    ) -> Result<(), RoomError> {
        if !self.people.is_attached(caller.session, caller.conn) {
            return Err(RoomError::NotInRoom);
        }
        if !self.people.is_host(caller.session) {
            return Err(RoomError::NotHost);
        }
        self.social.spectators_muted = muted;
        if muted {
            // Their lines go from what newcomers are given.
            self.social.lines.retain(|(_, line)| line.seat.is_some());
        }
        info!(muted, "spectators' chat mute changed");
        self.broadcast_room(Some((caller.conn, caller.request.clone())));
        Ok(())
    }

    /// Drops `session`'s lines from what newcomers are given (muted or
    /// removed).
    pub(crate) fn forget_chat_of(&mut self, session: SessionId) {
        self.social.lines.retain(|(author, _)| *author != session);
    }

    /// The chat a parked game kept (issue 23), given back to its room:
    /// what joiners and returners get, as it was; new lines go on from the
    /// room's own numbering.
    pub(crate) fn keep_chat(&mut self, lines: Vec<(SessionId, ChatInfo)>) {
        let skip = lines.len().saturating_sub(CHAT_KEPT);
        let room = self.code.to_string();
        self.social.lines = lines
            .into_iter()
            .skip(skip)
            .map(|(author, mut line)| {
                line.room.clone_from(&room);
                line.id = None;
                (author, line)
            })
            .collect();
    }

    /// The kept chat lines with their authors, oldest first.
    pub(crate) fn kept_lines(&self) -> impl Iterator<Item = &(SessionId, ChatInfo)> {
        self.social.lines.iter()
    }

    /// Whether `viewer` blocked `author` (issue 22).
    fn blocks(&self, viewer: SessionId, author: SessionId) -> bool {
        self.social
            .blocks
            .get(&viewer)
            .is_some_and(|blocked| blocked.contains(&author))
    }

    /// The sessions `session` blocked (issue 22), as its gateway says
    /// before it joins and whenever they change; their chat lines never
    /// reach it here.
    pub(crate) fn set_blocks(&mut self, session: SessionId, blocked: Vec<SessionId>) {
        if blocked.is_empty() {
            self.social.blocks.remove(&session);
        } else {
            self.social.blocks.insert(session, blocked);
        }
    }

    /// Gives `conn` (of `session`) the room's kept chat lines, if any
    /// (`chat_history`), but those of the sessions it blocked.
    pub(crate) fn send_chat_history(&mut self, conn: crate::conn::ConnId, session: SessionId) {
        let lines: Vec<ChatInfo> = self
            .social
            .lines
            .iter()
            .filter(|(author, _)| !self.blocks(session, *author))
            .map(|(_, l)| l.clone())
            .collect();
        if lines.is_empty() {
            return;
        }
        let history = splendor_protocol::social::ChatHistory {
            room: self.code.to_string(),
            lines,
        };
        self.send(conn, ServerMessage::ChatHistory(history));
    }

    /// Whether the host muted the spectators' chat.
    pub(crate) fn spectators_muted(&self) -> bool {
        self.social.spectators_muted
    }

    /// `mute`: the host mutes or unmutes the chat of the person in `seat`.
    pub(crate) fn mute(&mut self, caller: &Caller, seat: u8, muted: bool) -> Result<(), RoomError> {
        if !self.people.is_attached(caller.session, caller.conn) {
            return Err(RoomError::NotInRoom);
        }
        if !self.people.is_host(caller.session) {
            return Err(RoomError::NotHost);
        }
        let target = self
            .people
            .member(usize::from(seat))
            .filter(|m| m.bot.is_none())
            .map(|m| m.session)
            .ok_or(RoomError::NoPersonInSeat(seat))?;
        self.social.muted.retain(|s| *s != target);
        if muted {
            self.social.muted.push(target);
            self.forget_chat_of(target);
        }
        info!(seat, muted, "chat mute changed");
        self.broadcast_room(Some((caller.conn, caller.request.clone())));
        Ok(())
    }

    /// A person seated left the finished table (`leave`, or `join` of
    /// another room): an offer not yet agreed is withdrawn, and no new one
    /// can be made (the new game would hold their seat while they play
    /// elsewhere).
    pub(crate) fn left_table(&mut self, session: SessionId) {
        if !self.social.left.contains(&session) {
            self.social.left.push(session);
        }
        if self.social.rematch.as_ref().is_some_and(|r| !r.agreed) {
            self.social.rematch = None;
        }
    }

    /// Whether the host muted this session's chat.
    pub(crate) fn is_muted(&self, session: SessionId) -> bool {
        self.social.muted.contains(&session)
    }

    /// The rematch as `room` shows it.
    pub(crate) fn rematch_info(&self) -> Option<RematchInfo> {
        let r = self.social.rematch.as_ref()?;
        Some(RematchInfo {
            accepted: (0..r.accepted.len())
                .filter(|&i| r.accepted[i])
                .map(|i| i as Seat)
                .collect(),
            room: r.room.map(|c| c.to_string()),
        })
    }

    /// `rematch`: the caller offers or accepts one. Once every person
    /// seated has, the answer carries the plan for the gateway.
    pub(crate) fn rematch(&mut self, caller: &Caller) -> Result<Answer, RoomError> {
        if !self.people.is_attached(caller.session, caller.conn) {
            return Err(RoomError::NotInRoom);
        }
        if self.status() != RoomStatus::Finished {
            return Err(RoomError::RematchUnavailable(Words::new(
                "rematch-not-over",
            )));
        }
        let Some(seat) = self.people.seat_of_conn(caller.session, caller.conn) else {
            return Err(RoomError::RematchUnavailable(Words::new(
                "rematch-spectator",
            )));
        };
        if self
            .social
            .rematch
            .as_ref()
            .is_none_or(|r| r.room.is_none() && !r.agreed)
            && let Some(gone) = self
                .people
                .members()
                .find(|m| self.social.left.contains(&m.session))
        {
            return Err(RoomError::RematchUnavailable(
                Words::new("rematch-player-left").text("name", gone.name.clone()),
            ));
        }
        let seats = self.people.slots();
        let rematch = self.social.rematch.get_or_insert_with(|| Rematch {
            accepted: seats
                .iter()
                .map(|m| m.as_ref().is_some_and(|m| m.bot.is_some()))
                .collect(),
            agreed: false,
            room: None,
        });
        if let Some(room) = rematch.room {
            return Err(RoomError::RematchUnavailable(
                Words::new("rematch-agreed").text("code", room.to_string()),
            ));
        }
        if rematch.agreed {
            return Err(RoomError::RematchUnavailable(Words::new(
                "rematch-being-made",
            )));
        }
        rematch.accepted[seat] = true;
        let everyone = rematch.accepted.iter().all(|&a| a);
        rematch.agreed = everyone;
        info!(seat, everyone, "rematch accepted");
        if !everyone {
            self.broadcast_room(Some((caller.conn, caller.request.clone())));
            return Ok(Answer::Done);
        }
        let others = self
            .people
            .slots()
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != seat)
            .filter_map(|(_, m)| m.clone())
            .map(|mut m| {
                m.conn = None;
                m.verbose = false;
                m
            })
            .collect();
        Ok(Answer::Rematch(RematchPlan {
            others,
            clock: self.clock,
            listed: self.listed,
            rated: self.rated,
        }))
    }

    /// The gateway made the rematch room (`Some`), or could not (`None`:
    /// the offer starts over). Everyone is told through `room`.
    pub(crate) fn rematch_ready(&mut self, room: Option<RoomCode>) {
        match room {
            Some(code) => {
                if let Some(r) = self.social.rematch.as_mut() {
                    r.room = Some(code);
                }
                info!(rematch = %code, "rematch room made");
            }
            None => self.social.rematch = None,
        }
        self.broadcast_room(None);
    }
}

impl RoomCore {
    /// `Request::Whois`: the caller must be in the room (seated or
    /// watching); a seat must hold a person (not a built-in bot), a line
    /// must still be kept. The caller may name themself: the gateway
    /// refuses that with its own words.
    pub(crate) fn whois(&self, caller: &Caller, whom: Whom) -> Result<Person, RoomError> {
        if !self.people.is_attached(caller.session, caller.conn) {
            return Err(RoomError::NotInRoom);
        }
        let game = self.running.as_ref().map(|r| r.id());
        let chat = self.kept_lines().cloned().collect();
        match whom {
            Whom::Seat(seat) => {
                let member = self
                    .people
                    .member(usize::from(seat))
                    .filter(|m| m.bot.is_none())
                    .ok_or(RoomError::NoPersonInSeat(seat))?;
                Ok(Person {
                    session: member.session,
                    name: member.name.clone(),
                    program: member.program,
                    seat: Some(seat),
                    line: None,
                    chat,
                    game,
                })
            }
            Whom::Line(number) => {
                let (author, line) = self
                    .kept_lines()
                    .find(|(_, line)| line.line == number)
                    .ok_or(RoomError::NoSuchLine(number))?;
                let seat = self.people.seat_of(*author);
                let program = seat
                    .and_then(|s| self.people.member(s))
                    .is_some_and(|m| m.program);
                Ok(Person {
                    session: *author,
                    name: line.from.clone(),
                    program,
                    seat: seat.and_then(|s| u8::try_from(s).ok()),
                    line: Some(line.clone()),
                    chat,
                    game,
                })
            }
        }
    }
}
