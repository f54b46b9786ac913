//! The core's types and their node-message counterparts (crate
//! splendor-protocol's `node` module), both ways. Free functions: neither
//! side is this crate's.

use crate::node::{
    CallAnswer, WireArg, WireCaller, WireClock, WireError, WireMember, WireRequest, WireWords,
};
use splendor_lobby::room::RematchPlan;
use splendor_lobby::room::clock::ClockOptions;
use splendor_lobby::room::seats::Member;
use splendor_lobby::{Answer, Caller, Joined, Request, RoomError, Session, SessionId, TurnClock};
use splendor_protocol::{Arg, WireAction, Words};
use splendor_room::conn::ConnId;
use splendor_room::error::InternalCause;
use splendor_room::whois::{Person, Whom};
use splendor_room::write::GameId;
use splendor_rules::{Action, RuleError};

/// A node message that does not make a value of this node.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Unreadable(pub String);

pub(crate) fn caller_to_wire(caller: &Caller) -> WireCaller {
    WireCaller {
        session: caller.session.0.simple().to_string(),
        conn: caller.conn.0,
        request: caller.request.clone(),
    }
}

pub(crate) fn caller_from_wire(wire: WireCaller) -> Result<Caller, Unreadable> {
    let session = uuid::Uuid::parse_str(&wire.session)
        .map_err(|e| Unreadable(format!("session {:?}: {e}", wire.session)))?;
    Ok(Caller {
        session: SessionId(session),
        conn: ConnId(wire.conn),
        request: wire.request,
    })
}

pub(crate) fn request_to_wire(request: &Request) -> WireRequest {
    match request {
        Request::Join {
            name,
            program,
            role,
            verbose,
            claim,
        } => WireRequest::Join {
            name: name.clone(),
            program: *program,
            role: *role,
            verbose: *verbose,
            claim: *claim,
        },
        Request::Leave => WireRequest::Leave,
        Request::GiveUp => WireRequest::GiveUp,
        Request::Detach => WireRequest::Detach,
        Request::Start { order } => WireRequest::Start { order: *order },
        Request::Act {
            action,
            expect_version,
        } => WireRequest::Act {
            action: WireAction::from(*action),
            expect_version: *expect_version,
        },
        Request::Sync => WireRequest::Sync,
        Request::Resign => WireRequest::Resign,
        Request::Hint => WireRequest::Hint,
        Request::AddBot { level } => WireRequest::AddBot {
            level: level.clone(),
        },
        Request::RemoveBot { seat } => WireRequest::RemoveBot { seat: *seat },
        Request::LeaveFinished => WireRequest::LeaveFinished,
        Request::Chat { text } => WireRequest::Chat { text: text.clone() },
        Request::Mute { seat, muted } => WireRequest::Mute {
            seat: *seat,
            muted: *muted,
        },
        Request::Remove { session, reason } => WireRequest::Remove {
            session: session.0.simple().to_string(),
            reason: reason.clone(),
        },
        Request::MuteSpectators { muted } => WireRequest::MuteSpectators { muted: *muted },
        Request::Rematch => WireRequest::Rematch,
        Request::RematchReady { room } => WireRequest::RematchReady {
            room: room.map(|r| r.to_string()),
        },
        Request::StartMatch => WireRequest::StartMatch,
        Request::Invite { to } => WireRequest::Invite {
            to: to.0.simple().to_string(),
        },
        Request::Close { reason } => WireRequest::Close {
            reason: reason.clone(),
        },
        Request::Whois { whom } => match *whom {
            Whom::Seat(seat) => WireRequest::Whois {
                seat: Some(seat),
                line: None,
            },
            Whom::Line(line) => WireRequest::Whois {
                seat: None,
                line: Some(line),
            },
        },
        Request::Blocks { blocked } => WireRequest::Blocks {
            blocked: blocked.iter().map(|s| s.0.simple().to_string()).collect(),
        },
    }
}

pub(crate) fn request_from_wire(wire: WireRequest) -> Result<Request, Unreadable> {
    Ok(match wire {
        WireRequest::Join {
            name,
            program,
            role,
            verbose,
            claim,
        } => Request::Join {
            name,
            program,
            role,
            verbose,
            claim,
        },
        WireRequest::Leave => Request::Leave,
        WireRequest::GiveUp => Request::GiveUp,
        WireRequest::Detach => Request::Detach,
        WireRequest::Start { order } => Request::Start { order },
        WireRequest::Act {
            action,
            expect_version,
        } => Request::Act {
            action: Action::try_from(&action).map_err(|e| Unreadable(e.to_string()))?,
            expect_version,
        },
        WireRequest::Sync => Request::Sync,
        WireRequest::Resign => Request::Resign,
        WireRequest::Hint => Request::Hint,
        WireRequest::AddBot { level } => Request::AddBot { level },
        WireRequest::RemoveBot { seat } => Request::RemoveBot { seat },
        WireRequest::LeaveFinished => Request::LeaveFinished,
        WireRequest::Chat { text } => Request::Chat { text },
        WireRequest::Mute { seat, muted } => Request::Mute { seat, muted },
        WireRequest::Remove { session, reason } => Request::Remove {
            session: splendor_lobby::SessionId(
                uuid::Uuid::parse_str(&session)
                    .map_err(|_| Unreadable(format!("session {session:?}")))?,
            ),
            reason,
        },
        WireRequest::MuteSpectators { muted } => Request::MuteSpectators { muted },
        WireRequest::Rematch => Request::Rematch,
        WireRequest::RematchReady { room } => Request::RematchReady {
            room: match room {
                Some(code) => Some(
                    splendor_lobby::RoomCode::parse(&code)
                        .ok_or_else(|| Unreadable(format!("room code {code:?}")))?,
                ),
                None => None,
            },
        },
        WireRequest::StartMatch => Request::StartMatch,
        WireRequest::Invite { to } => Request::Invite {
            to: splendor_lobby::SessionId(
                uuid::Uuid::parse_str(&to).map_err(|_| Unreadable(format!("session {to:?}")))?,
            ),
        },
        WireRequest::Close { reason } => Request::Close { reason },
        WireRequest::Whois { seat, line } => Request::Whois {
            whom: match (seat, line) {
                (Some(seat), None) => Whom::Seat(seat),
                (None, Some(line)) => Whom::Line(line),
                _ => return Err(Unreadable("whois names one seat or one line".into())),
            },
        },
        WireRequest::Blocks { blocked } => Request::Blocks {
            blocked: blocked
                .iter()
                .map(|s| {
                    uuid::Uuid::parse_str(s)
                        .map(splendor_lobby::SessionId)
                        .map_err(|_| Unreadable(format!("session {s:?}")))
                })
                .collect::<Result<_, _>>()?,
        },
    })
}

pub(crate) fn words_to_wire(words: &Words) -> WireWords {
    WireWords {
        id: words.id().to_owned(),
        args: words
            .args()
            .iter()
            .map(|(name, arg)| (name.to_string(), arg_to_wire(arg)))
            .collect(),
    }
}

fn arg_to_wire(arg: &Arg) -> WireArg {
    match arg {
        Arg::Number(n) => WireArg::Number(*n),
        Arg::Color(c) => WireArg::Color((*c).to_owned()),
        Arg::Tokens(list) => {
            WireArg::Tokens(list.iter().map(|(n, c)| (*n, (*c).to_owned())).collect())
        }
        Arg::Text(t) => WireArg::Text(t.clone()),
        Arg::Words(w) => WireArg::Words(Box::new(words_to_wire(w))),
    }
}

pub(crate) fn words_from_wire(wire: WireWords) -> Result<Words, Unreadable> {
    let mut words = Words::new(wire.id);
    for (name, arg) in wire.args {
        words = words.arg(name, arg_from_wire(arg)?);
    }
    Ok(words)
}

fn color(word: &str) -> Result<&'static str, Unreadable> {
    splendor_words::color_word(word).ok_or_else(|| Unreadable(format!("colour {word:?}")))
}

fn arg_from_wire(arg: WireArg) -> Result<Arg, Unreadable> {
    Ok(match arg {
        WireArg::Number(n) => Arg::Number(n),
        WireArg::Color(c) => Arg::Color(color(&c)?),
        WireArg::Tokens(list) => Arg::Tokens(
            list.into_iter()
                .map(|(n, c)| Ok((n, color(&c)?)))
                .collect::<Result<_, Unreadable>>()?,
        ),
        WireArg::Text(t) => Arg::Text(t),
        WireArg::Words(w) => Arg::Words(Box::new(words_from_wire(*w)?)),
    })
}

pub(crate) fn answer_to_wire(result: Result<Answer, RoomError>) -> CallAnswer {
    match result {
        Ok(Answer::Joined(joined)) => CallAnswer::Joined {
            role: joined.role,
            seat: joined.seat,
            claim: joined.claim,
        },
        Ok(Answer::Done) => CallAnswer::Done,
        Ok(Answer::Invitable(terms)) => CallAnswer::Invitable { terms },
        Ok(Answer::Person(person)) => CallAnswer::Person {
            session: person.session.0.simple().to_string(),
            name: person.name,
            program: person.program,
            seat: person.seat,
            line: person.line,
            authors: person
                .chat
                .iter()
                .map(|(s, _)| s.0.simple().to_string())
                .collect(),
            chat: person.chat.into_iter().map(|(_, line)| line).collect(),
            game: person.game.map(|g| g.0.simple().to_string()),
        },
        Ok(Answer::Rematch(plan)) => CallAnswer::Rematch {
            others: plan.others.iter().map(member_to_wire).collect(),
            clock: plan.clock.map(|c| WireClock {
                bank_ms: millis(c.clock.bank()),
                increment_ms: millis(c.clock.increment()),
                stand_in_when_away: c.stand_in_when_away,
                per_move: c.clock.on_deadline(),
            }),
            listed: plan.listed,
            rated: plan.rated,
        },
        Err(error) => CallAnswer::Refused {
            error: error_to_wire(&error),
        },
    }
}

pub(crate) fn answer_from_wire(answer: CallAnswer) -> Result<Answer, RoomError> {
    match answer {
        CallAnswer::Joined { role, seat, claim } => {
            Ok(Answer::Joined(Joined { role, seat, claim }))
        }
        CallAnswer::Done => Ok(Answer::Done),
        CallAnswer::Invitable { terms } => Ok(Answer::Invitable(terms)),
        CallAnswer::Person {
            session,
            name,
            program,
            seat,
            line,
            chat,
            authors,
            game,
        } => {
            let uuid = |text: &str| {
                uuid::Uuid::parse_str(text).map_err(|_| {
                    RoomError::internal(format!("a person from another node: {text:?}"))
                })
            };
            if authors.len() != chat.len() {
                return Err(RoomError::internal(
                    "a person from another node: a chat line without its author",
                ));
            }
            Ok(Answer::Person(Box::new(Person {
                session: splendor_lobby::SessionId(uuid(&session)?),
                name,
                program,
                seat,
                line,
                chat: authors
                    .iter()
                    .map(|a| uuid(a).map(splendor_lobby::SessionId))
                    .zip(chat)
                    .map(|(a, line)| a.map(|a| (a, line)))
                    .collect::<Result<_, _>>()?,
                game: game.as_deref().map(uuid).transpose()?.map(GameId),
            })))
        }
        CallAnswer::Rematch {
            others,
            clock,
            listed,
            rated,
        } => rematch_from_wire(others, clock, listed, rated)
            .map(Answer::Rematch)
            .map_err(|e| RoomError::internal(format!("a rematch plan from another node: {e}"))),
        CallAnswer::Refused { error } => Err(error_from_wire(error)
            .unwrap_or_else(|e| RoomError::internal(format!("a refusal from another node: {e}")))),
        CallAnswer::Unsupported { what } => Err(RoomError::internal(format!(
            "{what} cannot cross nodes yet"
        ))),
    }
}

fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn member_to_wire(member: &Member) -> WireMember {
    WireMember {
        session: member.session().0.simple().to_string(),
        name: member.name().to_owned(),
        bot: member.bot_level().map(|level| level.name().to_owned()),
        program: member.program(),
    }
}

fn rematch_from_wire(
    others: Vec<WireMember>,
    clock: Option<WireClock>,
    listed: bool,
    rated: bool,
) -> Result<RematchPlan, Unreadable> {
    let others = others
        .into_iter()
        .map(|m| {
            let id = uuid::Uuid::parse_str(&m.session)
                .map_err(|e| Unreadable(format!("session {:?}: {e}", m.session)))?;
            Ok(match m.bot {
                Some(level) => {
                    let level: splendor_ai::Level = level
                        .parse()
                        .map_err(|_| Unreadable(format!("bot level {level:?}")))?;
                    Member::bot(SessionId(id), m.name, level)
                }
                None => Member::person(&Session {
                    id: SessionId(id),
                    name: m.name,
                    program: m.program,
                }),
            })
        })
        .collect::<Result<Vec<_>, Unreadable>>()?;
    let clock = clock
        .map(|c| {
            let ms = std::time::Duration::from_millis;
            match c.per_move {
                // The owner checked the time when the room was made.
                Some(on_deadline) => Ok(TurnClock::per_move_unchecked(ms(c.bank_ms), on_deadline)),
                None => TurnClock::new(ms(c.bank_ms), ms(c.increment_ms)),
            }
            .map(|clock| ClockOptions {
                clock,
                stand_in_when_away: c.stand_in_when_away,
            })
            .map_err(|e| Unreadable(format!("clock: {e:?}")))
        })
        .transpose()?;
    Ok(RematchPlan {
        others,
        clock,
        listed,
        rated,
    })
}

/// A refusal as it crosses nodes: its variant by name and its payload.
pub(crate) fn error_to_wire(error: &RoomError) -> WireError {
    let plain = |kind: &str| WireError {
        kind: kind.to_owned(),
        text: None,
        numbers: Vec::new(),
        words: None,
        rule: None,
    };
    let text = |kind: &str, text: &str| WireError {
        text: Some(text.to_owned()),
        ..plain(kind)
    };
    let numbers = |kind: &str, numbers: Vec<u64>| WireError {
        numbers,
        ..plain(kind)
    };
    let words = |kind: &str, words: &Words| WireError {
        words: Some(words_to_wire(words)),
        ..plain(kind)
    };
    match error {
        RoomError::RoomNotFound(code) => text("room_not_found", code),
        RoomError::MalformedCode(w) => words("malformed_code", w),
        RoomError::RoomFull => plain("room_full"),
        RoomError::TooManySpectators => plain("too_many_spectators"),
        RoomError::AlreadyInRoom(code) => text("already_in_room", code),
        RoomError::NotInRoom => plain("not_in_room"),
        RoomError::RoomClosed => plain("room_closed"),
        RoomError::RoomUnavailable => plain("room_unavailable"),
        RoomError::SeatClaimedElsewhere => plain("seat_claimed_elsewhere"),
        RoomError::NotHost => plain("not_host"),
        RoomError::UnknownBotLevel(level) => text("unknown_bot_level", level),
        RoomError::StandInTurn => plain("stand_in_turn"),
        RoomError::Resigned => plain("resigned"),
        RoomError::Removed => plain("removed"),
        RoomError::InvalidClock(w) => words("invalid_clock", w),
        RoomError::NotABot(seat) => numbers("not_a_bot", vec![u64::from(*seat)]),
        RoomError::NotEnoughPlayers => plain("not_enough_players"),
        RoomError::GameAlreadyStarted => plain("game_already_started"),
        RoomError::GameNotStarted => plain("game_not_started"),
        RoomError::GameOver => plain("game_over"),
        RoomError::SpectatorCannotAct => plain("spectator_cannot_act"),
        RoomError::StaleVersion { current, expected } => {
            numbers("stale_version", vec![*current, *expected])
        }
        RoomError::InvalidSeats(n) => numbers("invalid_seats", vec![u64::from(*n)]),
        RoomError::TooManyRooms => plain("too_many_rooms"),
        RoomError::TooManyRoomsForSession(n) => {
            numbers("too_many_rooms_for_session", vec![*n as u64])
        }
        RoomError::TooManyWaitingRoomsFromOrigin(n) => {
            numbers("too_many_waiting_rooms_from_origin", vec![*n as u64])
        }
        RoomError::TooManyRoomsFromAddress(n) => {
            numbers("too_many_rooms_from_address", vec![*n as u64])
        }
        RoomError::TooManyBotTables(n) => numbers("too_many_bot_tables", vec![*n as u64]),
        RoomError::Persistence => plain("persistence"),
        RoomError::StorageUnavailable => plain("storage_unavailable"),
        // The cause stays in the owner's log.
        RoomError::Internal(_) => plain("internal"),
        RoomError::InvalidChat(w) => words("invalid_chat", w),
        RoomError::HintNotAllowed(w) => words("hint_not_allowed", w),
        RoomError::ChatMuted { spectators } => numbers("chat_muted", vec![u64::from(*spectators)]),
        RoomError::ChatTooFast { spectators } => {
            numbers("chat_too_fast", vec![u64::from(*spectators)])
        }
        RoomError::RematchUnavailable(w) => words("rematch_unavailable", w),
        RoomError::NoPersonInSeat(seat) => numbers("no_person_in_seat", vec![u64::from(*seat)]),
        RoomError::RatedRoom => plain("rated_room"),
        RoomError::AlreadySeated => plain("already_seated"),
        RoomError::NoSuchLine(line) => numbers("no_such_line", vec![*line]),
        RoomError::SeatHeld(code) => text("seat_held", code),
        RoomError::Rule(e) => WireError {
            words: Some(words_to_wire(&e.words)),
            rule: Some((e.code.to_owned(), e.rule.to_owned())),
            ..plain("rule")
        },
    }
}

pub(crate) fn error_from_wire(wire: WireError) -> Result<RoomError, Unreadable> {
    let kind = wire.kind.clone();
    let text = || {
        wire.text
            .clone()
            .ok_or_else(|| Unreadable(format!("{kind} without its text")))
    };
    let number = |i: usize| {
        wire.numbers
            .get(i)
            .copied()
            .ok_or_else(|| Unreadable(format!("{kind} without its number")))
    };
    let small = |i: usize| {
        number(i).and_then(|n| u8::try_from(n).map_err(|_| Unreadable(format!("{kind}: {n}"))))
    };
    let words = || {
        wire.words
            .clone()
            .ok_or_else(|| Unreadable(format!("{kind} without its words")))
            .and_then(words_from_wire)
    };
    Ok(match kind.as_str() {
        "room_not_found" => RoomError::RoomNotFound(text()?),
        "malformed_code" => RoomError::MalformedCode(words()?),
        "room_full" => RoomError::RoomFull,
        "too_many_spectators" => RoomError::TooManySpectators,
        "already_in_room" => RoomError::AlreadyInRoom(text()?),
        "not_in_room" => RoomError::NotInRoom,
        "room_closed" => RoomError::RoomClosed,
        "room_unavailable" => RoomError::RoomUnavailable,
        "seat_claimed_elsewhere" => RoomError::SeatClaimedElsewhere,
        "not_host" => RoomError::NotHost,
        "unknown_bot_level" => RoomError::UnknownBotLevel(text()?),
        "stand_in_turn" => RoomError::StandInTurn,
        "resigned" => RoomError::Resigned,
        "removed" => RoomError::Removed,
        "invalid_clock" => RoomError::InvalidClock(words()?),
        "not_a_bot" => RoomError::NotABot(small(0)?),
        "not_enough_players" => RoomError::NotEnoughPlayers,
        "game_already_started" => RoomError::GameAlreadyStarted,
        "game_not_started" => RoomError::GameNotStarted,
        "game_over" => RoomError::GameOver,
        "spectator_cannot_act" => RoomError::SpectatorCannotAct,
        "stale_version" => RoomError::StaleVersion {
            current: number(0)?,
            expected: number(1)?,
        },
        "invalid_seats" => RoomError::InvalidSeats(small(0)?),
        "too_many_rooms" => RoomError::TooManyRooms,
        "too_many_rooms_from_address" => RoomError::TooManyRoomsFromAddress(number(0)? as usize),
        "too_many_rooms_for_session" => RoomError::TooManyRoomsForSession(number(0)? as usize),
        "too_many_waiting_rooms_from_origin" => {
            RoomError::TooManyWaitingRoomsFromOrigin(number(0)? as usize)
        }
        "too_many_bot_tables" => RoomError::TooManyBotTables(number(0)? as usize),
        "persistence" => RoomError::Persistence,
        "storage_unavailable" => RoomError::StorageUnavailable,
        "internal" => RoomError::Internal(InternalCause("on the room's node".into())),
        "invalid_chat" => RoomError::InvalidChat(words()?),
        "hint_not_allowed" => RoomError::HintNotAllowed(words()?),
        "chat_muted" => RoomError::ChatMuted {
            spectators: number(0)? != 0,
        },
        "chat_too_fast" => RoomError::ChatTooFast {
            spectators: number(0)? != 0,
        },
        "rematch_unavailable" => RoomError::RematchUnavailable(words()?),
        "no_person_in_seat" => RoomError::NoPersonInSeat(small(0)?),
        "rated_room" => RoomError::RatedRoom,
        "already_seated" => RoomError::AlreadySeated,
        "no_such_line" => RoomError::NoSuchLine(number(0)?),
        "seat_held" => RoomError::SeatHeld(text()?),
        "rule" => {
            let (code, rule) = wire
                .rule
                .clone()
                .ok_or_else(|| Unreadable("a rule error without its rule".into()))?;
            RoomError::Rule(
                RuleError::from_parts(&code, &rule, words()?)
                    .ok_or_else(|| Unreadable(format!("rule error {code} ({rule})")))?,
            )
        }
        other => return Err(Unreadable(format!("a refusal of kind {other:?}"))),
    })
}

#[cfg(test)]
mod tests;
