//! What the core gave back, as the text the tests compare.

use super::*;

impl Table {
    /// The room's chat line `number` as the Nth line seen (from 1).
    pub(super) fn line_index(&self, number: u64) -> usize {
        let mut lines = self.lines.borrow_mut();
        match lines.iter().position(|&n| n == number) {
            Some(i) => i + 1,
            None => {
                lines.push(number);
                lines.len()
            }
        }
    }

    /// The number of the room's Nth chat line; one no line has past them.
    pub(super) fn line_number(&self, nth: usize) -> u64 {
        let lines = self.lines.borrow();
        match nth.checked_sub(1).and_then(|i| lines.get(i)) {
            Some(&n) => n,
            None => u64::MAX - nth as u64,
        }
    }

    pub(super) fn secs(&self, at: Instant) -> String {
        format!("{}s", at.duration_since(self.start).as_secs())
    }

    pub(super) fn render(&self, effect: &Effect, event: Option<&DriverEvent>) -> String {
        match effect {
            Effect::Reply { result, .. } => match result {
                Ok(Answer::Done) => "reply ok".into(),
                Ok(Answer::Invitable(t)) => format!(
                    "reply invitable {}/{}{}{}",
                    t.players,
                    t.seats,
                    if t.rated { " rated" } else { "" },
                    t.clock.as_ref().map_or(String::new(), |c| format!(
                        " clock {}+{}",
                        c.initial_s, c.increment_s
                    ))
                ),
                Ok(Answer::Person(p)) => format!(
                    "reply person {}{}{}{} line {} chat {} game {}",
                    p.name,
                    p.seat.map_or(String::new(), |s| format!("#{s}")),
                    if p.program { " (program)" } else { "" },
                    if self.name(p.session) == p.name {
                        ""
                    } else {
                        " (another session)"
                    },
                    p.line.as_ref().map_or("-".into(), |l| format!(
                        "L{} {:?}",
                        self.line_index(l.line),
                        l.text
                    )),
                    p.chat.len(),
                    if p.game.is_some() { "yes" } else { "no" },
                ),
                Ok(Answer::Joined(j)) => format!("reply joined {}", you(j.role, j.seat)),
                Ok(Answer::Rematch(plan)) => {
                    let others: Vec<String> = plan
                        .others
                        .iter()
                        .map(|m| {
                            let bot = m.bot.map_or(String::new(), |l| format!("({l})"));
                            format!("{}{bot}", m.name)
                        })
                        .collect();
                    format!("reply rematch with {}", others.join(" "))
                }
                Err(RoomError::Rule(e)) => format!("reply rule error {} ({})", e.code, e.rule),
                Err(e) => format!("reply {e}"),
            },
            Effect::Send { to, message } => {
                let shared = matches!(message, Outgoing::Shared(_));
                let message = message.clone().into_message().expect("a message");
                let text = self.message(&message);
                format!(
                    "c{} <- {text}{}",
                    to.0,
                    if shared { " (frame)" } else { "" }
                )
            }
            Effect::Close { conn, reason } => format!("close c{} {reason:?}", conn.0),
            Effect::Release { conn } => format!("release c{}", conn.0),
            Effect::Write { write, .. } => {
                let what = match &**write {
                    Write::GameStarted(r) => {
                        let names: Vec<String> = r.players.iter().map(|&s| self.name(s)).collect();
                        format!("game started {names:?} {:?}", r.options)
                    }
                    Write::ActionApplied {
                        index,
                        seat,
                        action,
                        by,
                        ..
                    } => {
                        let json = serde_json::to_string(&WireAction::from(*action)).unwrap();
                        let by = if *by == crate::effect::Mover::Hinted {
                            " with a hint"
                        } else {
                            ""
                        };
                        format!("action #{index} seat {seat} {json}{by}")
                    }
                    Write::GameFinished { result, .. } => {
                        format!("result winners {:?}", result.winners)
                    }
                    Write::GameEnded {
                        standings, reason, ..
                    } => {
                        let points: Vec<u8> = standings.ranking.iter().map(|s| s.points).collect();
                        format!("ended by the operators ({reason}) standings {points:?}")
                    }
                    Write::GameDeserted { result, .. } => {
                        let ranks: Vec<(u8, u8)> =
                            result.ranking.iter().map(|s| (s.seat, s.rank)).collect();
                        format!(
                            "deserted, unrated: winners {:?} ranks {ranks:?} end {:?}",
                            result.winners,
                            result.end()
                        )
                    }
                    Write::LoadLog { .. } => "load log".into(),
                    Write::Park { deadline, chat, .. } if chat.is_empty() => {
                        format!("park until @{}", self.secs(*deadline))
                    }
                    Write::Park { deadline, chat, .. } => format!(
                        "park until @{} with chat {:?}",
                        self.secs(*deadline),
                        chat.iter()
                            .map(|(_, l)| l.text.as_str())
                            .collect::<Vec<_>>()
                    ),
                };
                let outcome = match event {
                    Some(DriverEvent::Written {
                        outcome: Ok(()), ..
                    }) => "ok".into(),
                    Some(DriverEvent::Written {
                        outcome: Err(e), ..
                    }) => format!("{:?}", e.kind),
                    Some(DriverEvent::LogLoaded { log: Ok(log), .. }) => {
                        format!("{} actions", log.len())
                    }
                    _ => "?".into(),
                };
                format!("write {what} -> {outcome}")
            }
            Effect::Listed(s) => format!(
                "listed {:?} {}/{} host {}",
                s.status, s.players, s.seats, s.host
            ),
            Effect::Count(tally) => format!("count {tally:?}"),
            Effect::Think(t) => format!(
                "think seat {} v{} {}{}",
                t.seat,
                t.version,
                t.level,
                t.hint
                    .as_ref()
                    .map_or(String::new(), |h| format!(" (a hint for c{})", h.conn.0))
            ),
            Effect::Notify(notice) => format!(
                "notify {} {}{}",
                self.name(notice.session),
                notice.event.name(),
                match &notice.event {
                    crate::effect::NoticeEvent::YourTurn { left } =>
                        format!(" {}s left", left.as_secs()),
                    crate::effect::NoticeEvent::Chat { from }
                    | crate::effect::NoticeEvent::Invitation { from } => format!(" from {from}"),
                    crate::effect::NoticeEvent::GameOver => String::new(),
                }
            ),
            Effect::Closed(closed) => {
                let sessions: Vec<String> = closed.sessions.iter().map(|&s| self.name(s)).collect();
                let farewell: Vec<String> = closed
                    .farewell
                    .iter()
                    .map(|c| format!("c{}", c.0))
                    .collect();
                let notice = closed.notice.clone().into_message().expect("a message");
                format!(
                    "closed {:?} sessions {sessions:?} farewell {farewell:?}: {}",
                    closed.why,
                    self.message(&notice)
                )
            }
        }
    }

    /// A message in a line: what the tests look at.
    pub(super) fn message(&self, message: &ServerMessage) -> String {
        let id = |id: &Option<RequestId>| match id {
            Some(RequestId::String(s)) => format!(" id={s}"),
            Some(RequestId::Number(n)) => format!(" id={n}"),
            None => String::new(),
        };
        match message {
            ServerMessage::Room(r) => {
                let seats: Vec<String> = r
                    .seats
                    .iter()
                    .map(|s| match s {
                        None => "-".into(),
                        Some(s) => format!(
                            "{}{}{}{}{}{}",
                            s.name,
                            if s.host { "*" } else { "" },
                            if s.connected { "" } else { "~" },
                            s.bot.as_ref().map_or(String::new(), |l| format!("({l})")),
                            if s.program_bot { "[program]" } else { "" },
                            if s.muted { " muted" } else { "" }
                        ),
                    })
                    .collect();
                let spectators = if r.spectators.is_empty() {
                    String::new()
                } else {
                    format!(" watching {:?}", r.spectators)
                } + if r.spectators_muted { " (muted)" } else { "" };
                let rematch = r.rematch.as_ref().map_or(String::new(), |m| {
                    format!(
                        " rematch {:?}{}",
                        m.accepted,
                        m.room
                            .as_ref()
                            .map_or(String::new(), |c| format!(" in {c}"))
                    )
                });
                format!(
                    "room {:?} [{}]{spectators}{rematch} you {}{}",
                    r.status,
                    seats.join(" "),
                    you(r.you.role, r.you.seat),
                    id(&r.id)
                )
            }
            ServerMessage::Chat(c) => format!(
                "chat L{} {}{}: {}{}",
                self.line_index(c.line),
                c.from,
                c.seat.map_or(String::new(), |s| format!("#{s}")),
                c.text,
                id(&c.id)
            ),
            ServerMessage::State(s) => format!(
                "{}state v{} to_act {} legal {}{}{}",
                if s.lean { "lean " } else { "" },
                s.version,
                s.to_act.map_or("-".into(), |s| s.to_string()),
                s.legal_actions
                    .as_ref()
                    .map_or("-".into(), |l| l.len().to_string()),
                s.clocks.as_ref().map_or(String::new(), |clocks| {
                    let shown: Vec<String> = clocks
                        .iter()
                        .map(|c| {
                            format!(
                                "{}{}{}{}",
                                c.remaining_ms,
                                if c.running { "*" } else { "" },
                                if c.stand_in { "!" } else { "" },
                                if c.bot { "b" } else { "" }
                            )
                        })
                        .collect();
                    format!(" clocks [{}]", shown.join(" "))
                }),
                id(&s.id)
            ),
            ServerMessage::Events(e) => format!(
                "events v{} ({}){}{}",
                e.version,
                e.events.len(),
                e.by.as_ref()
                    .map_or(String::new(), |by| format!(" by {by}")),
                id(&e.id)
            ),
            ServerMessage::History(h) => format!(
                "history v{} ({} actions{})",
                h.version,
                h.actions.len(),
                if h.actions
                    .iter()
                    .enumerate()
                    .all(|(i, a)| a.version == i as u64 + 1)
                {
                    ""
                } else {
                    ", versions out of order"
                }
            ),
            ServerMessage::Result(r) => format!("result winners {:?}", r.winners),
            ServerMessage::Left(l) => format!("left{}", id(&l.id)),
            ServerMessage::RoomClosed(c) => format!("room_closed {:?}", c.reason),
            ServerMessage::Hint(h) => format!(
                "hint v{} {}{}",
                h.version,
                serde_json::to_string(&h.action).unwrap(),
                id(&h.id)
            ),
            ServerMessage::ChatHistory(h) => format!(
                "chat_history [{}]",
                h.lines
                    .iter()
                    .map(|c| format!(
                        "{}{}: {}",
                        c.from,
                        c.seat.map_or(String::new(), |s| format!("#{s}")),
                        c.text
                    ))
                    .collect::<Vec<_>>()
                    .join(" | ")
            ),
            other => format!("{other:?}"),
        }
    }
}

pub(super) fn you(role: Role, seat: Option<Seat>) -> String {
    match (role, seat) {
        (Role::Player, Some(seat)) => format!("player#{seat}"),
        (role, _) => format!("{role:?}").to_lowercase(),
    }
}
