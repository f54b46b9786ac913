//! The script language of the room core's tests, and [`check`].
//!
//! One input per line; what the core gave back is written under it,
//! indented. Names stand for sessions and `cN` for connections:
//!
//! ```text
//! room 2 ann@c1             a room of 2 seats, ann (host) on c1
//! room 3 listed ann@c1      the same, listed
//! room 4 watching ann@c1    ann hosts as a spectator, without a seat
//! room 2 clock 60s+10s ann@c1   a room with a turn clock (R12.1); add
//!                           `away` for stand_in_when_away (R12.3)
//! restored 2 ann bob        a game of 2 restored at version 0, nobody connected
//! bob@c2 join player        a request: join player|spectator [verbose], leave,
//!                           detach, sync, start joined|random
//! bob@c2 act {"take_two":"red"} v3   an action (wire JSON), optionally on version 3
//! play 4                    whoever is to act plays a legal action, 4 times: a
//!                           purchase when there is one (so games end), else one
//!                           drawn by a fixed pseudo-random sequence
//! play end                  ... until the game is over (their effects are not written)
//! play next                 one action, with its effects written out
//! wait 30s                  time passes; due timers fire at their deadlines
//! store fails unavailable   the next write fails (unavailable|failed)
//! store loses               the next action write commits but reports a failure
//! store forgets             the store loses the last action of its log
//! store refuses results     results are not stored (unavailable) until
//! store takes results       ... this
//! bob@c2 add_bot strong     requests of the host: add_bot LEVEL, remove_bot SEAT
//! bot answers               the last `think` is answered by the real player
//!                           of its level (the strong one on a tiny budget)
//! bot fails                 ... answered with an error
//! bots end                  bots answer and their delays pass, people play as
//!                           `play` does, until the game is over (not written)
//! restored 2 ann +greedy    a seat of a restored game held by a bot
//! undeliverable c2          the driver could not queue a message for c2
//! handles gone              every handle was dropped
//! probe                     the room's summary
//! ```
//!
//! Writes are answered by a fake store that keeps the game's log as the
//! real one does: an action at an index it already holds is `Diverged`.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use expect_test::Expect;
use splendor_protocol::{RequestId, Role, SeatOrder, ServerMessage, WireAction};
use splendor_replay::Salt;
use splendor_rules::{Action, Game, Options, Seat};
use uuid::Uuid;

use crate::RestoredGame;
use crate::code::RoomCode;
use crate::config::RoomConfig;
use crate::conn::{ConnId, Outgoing};
use crate::core::{RoomCore, RoomSetup};
use crate::effect::{Answer, Effect, Think, Write};
use crate::error::LobbyError;
use crate::input::{Caller, DriverEvent, Request, Ticket};
use crate::session::{Session, SessionId};
use crate::write::{GameId, PersistError, PersistErrorKind};

/// How hard the `strong` level thinks in these tests: the driver's
/// setting (splendor-lobby's `LobbyConfig::strong_budget`), not the room's.
const STRONG_BUDGET: splendor_ai::Budget = splendor_ai::Budget {
    iterations: 50,
    time_cap: None,
};

/// Runs `script` against a fresh room core and compares everything it
/// gave back with `expect`.
pub(super) fn check(script: &str, expect: Expect) {
    check_with(RoomConfig::default(), script, expect);
}

/// [`check`] with other limits and timers.
pub(super) fn check_with(config: RoomConfig, script: &str, expect: Expect) {
    let mut table = Table::new(config);
    for line in script.lines().map(str::trim).filter(|l| !l.is_empty()) {
        table.step(line);
    }
    expect.assert_eq(&table.out);
}

/// How the fake store answers the next write.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NextWrite {
    Commit,
    Fail(PersistErrorKind),
    /// Commits, and says it failed (the reply was lost).
    Lose,
}

struct Table {
    config: RoomConfig,
    core: Option<RoomCore>,
    start: Instant,
    now: Instant,
    names: Vec<String>,
    next_ticket: u64,
    /// The fake store's log of the game.
    log: Vec<(Seat, Action)>,
    next_write: NextWrite,
    refuse_results: bool,
    deadline: Option<Instant>,
    /// The last `think` the core asked for.
    think: Option<Think>,
    out: String,
}

impl Table {
    fn new(config: RoomConfig) -> Table {
        let start = Instant::now();
        Table {
            config,
            core: None,
            start,
            now: start,
            names: Vec::new(),
            next_ticket: 1,
            log: Vec::new(),
            next_write: NextWrite::Commit,
            refuse_results: false,
            deadline: None,
            think: None,
            out: String::new(),
        }
    }

    fn core(&mut self) -> &mut RoomCore {
        self.core
            .as_mut()
            .expect("the script starts with `room` or `restored`")
    }

    fn session(&mut self, name: &str) -> SessionId {
        let index = match self.names.iter().position(|n| n == name) {
            Some(i) => i,
            None => {
                self.names.push(name.to_owned());
                self.names.len() - 1
            }
        };
        SessionId(Uuid::from_u128(index as u128 + 1))
    }

    fn name(&self, session: SessionId) -> String {
        // A bot's id is random: it names no session of the script.
        let index = (session.0.as_u128() as usize).wrapping_sub(1);
        self.names
            .get(index)
            .cloned()
            .unwrap_or_else(|| "(bot)".to_owned())
    }

    fn caller(&mut self, who: &str) -> (String, Caller) {
        let (name, conn) = who.split_once('@').expect("name@cN");
        let conn = ConnId(conn.trim_start_matches('c').parse().expect("cN"));
        let session = self.session(name);
        let request = Some(RequestId::String(format!("r{}", self.next_ticket)));
        (
            name.to_owned(),
            Caller {
                session,
                conn,
                request,
            },
        )
    }

    fn step(&mut self, line: &str) {
        writeln!(self.out, "{line}").unwrap();
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[..] {
            ["room", seats, ref rest @ ..] => self.new_room(seats, rest),
            ["restored", players, ref names @ ..] => self.restored(players, names),
            ["wait", time] => self.wait(parse_time(time)),
            ["store", "fails", kind] => {
                self.next_write = NextWrite::Fail(match kind {
                    "unavailable" => PersistErrorKind::Unavailable,
                    "failed" => PersistErrorKind::Failed,
                    other => panic!("store fails {other}?"),
                })
            }
            ["store", "loses"] => self.next_write = NextWrite::Lose,
            ["store", "forgets"] => {
                self.log.pop();
            }
            ["store", "refuses", "results"] => self.refuse_results = true,
            ["store", "takes", "results"] => self.refuse_results = false,
            ["undeliverable", conn] => {
                let conn = ConnId(conn.trim_start_matches('c').parse().unwrap());
                let now = self.now;
                self.core()
                    .handle_event(now, DriverEvent::Undeliverable { conn });
            }
            ["handles", "gone"] => {
                let now = self.now;
                self.core().handle_event(now, DriverEvent::HandlesGone);
            }
            ["bot", "answers"] => self.bot_answer(true),
            ["bot", "fails"] => {
                let think = self.think.take().expect("a think to answer");
                let now = self.now;
                self.core().handle_event(
                    now,
                    DriverEvent::BotMoved {
                        seat: think.seat,
                        version: think.version,
                        result: Err("the fake pool failed".into()),
                    },
                );
            }
            ["bots", "end"] => {
                self.bots_end();
                return;
            }
            ["probe"] => {
                let probe = self.core().probe();
                writeln!(self.out, "  {probe:?}").unwrap();
            }
            ["play", "next"] => {
                self.play(1, true);
                return;
            }
            ["play", count] => {
                let count = if count == "end" {
                    u64::MAX
                } else {
                    count.parse().unwrap()
                };
                self.play(count, false);
                return;
            }
            [who, ..] => {
                let (name, caller) = self.caller(who);
                let request = self.request(&name, line[who.len()..].trim());
                let ticket = Ticket(self.next_ticket);
                self.next_ticket += 1;
                let now = self.now;
                self.core().handle_request(now, ticket, caller, request);
            }
            [] => unreachable!(),
        }
        self.drain(true);
    }

    fn request(&self, name: &str, text: &str) -> Request {
        let (verb, rest) = text.split_once(' ').unwrap_or((text, ""));
        match (verb, rest) {
            ("join", "player") => Request::Join {
                name: name.to_owned(),
                role: Role::Player,
                verbose: false,
            },
            ("join", "player verbose") => Request::Join {
                name: name.to_owned(),
                role: Role::Player,
                verbose: true,
            },
            ("join", "spectator") => Request::Join {
                name: name.to_owned(),
                role: Role::Spectator,
                verbose: false,
            },
            ("join", "spectator verbose") => Request::Join {
                name: name.to_owned(),
                role: Role::Spectator,
                verbose: true,
            },
            ("add_bot", level) => Request::AddBot {
                level: level.to_owned(),
            },
            ("remove_bot", seat) => Request::RemoveBot {
                seat: seat.parse().expect("remove_bot SEAT"),
            },
            ("leave", "") => Request::Leave,
            ("leave_finished", "") => Request::LeaveFinished,
            ("chat", text) => Request::Chat {
                text: text.to_owned(),
            },
            ("mute", seat) => Request::Mute {
                seat: seat
                    .trim_end_matches(" off")
                    .parse()
                    .expect("mute SEAT [off]"),
                muted: !seat.ends_with(" off"),
            },
            ("rematch", "") => Request::Rematch,
            ("rematch_ready", "none") => Request::RematchReady { room: None },
            ("rematch_ready", code) => Request::RematchReady {
                room: Some(RoomCode::parse(code).expect("rematch_ready CODE")),
            },
            ("detach", "") => Request::Detach,
            ("sync", "") => Request::Sync,
            ("start", "joined") => Request::Start {
                order: SeatOrder::Joined,
            },
            ("start", "random") => Request::Start {
                order: SeatOrder::Random,
            },
            ("act", rest) => {
                let (json, expect) = match rest.rsplit_once(" v") {
                    Some((json, v)) if v.parse::<u64>().is_ok() => (json, v.parse().ok()),
                    _ => (rest, None),
                };
                let wire: WireAction = serde_json::from_str(json).expect("a wire action");
                Request::Act {
                    action: Action::try_from(&wire).expect("an expressible action"),
                    expect_version: expect,
                }
            }
            other => panic!("unknown request {other:?}"),
        }
    }

    fn new_room(&mut self, seats: &str, rest: &[&str]) {
        let listed = rest.contains(&"listed");
        let host = rest.last().expect("room N name@cN");
        let (_, caller) = self.caller(host);
        let name = self.name(caller.session);
        let setup = RoomSetup {
            code: RoomCode::parse("SPNDR").unwrap(),
            capacity: seats.parse().unwrap(),
            listed,
            host: Session {
                id: caller.session,
                name,
            },
            conn: Some(caller.conn),
            request: Some(RequestId::String("create".into())),
            verbose: false,
            clock: clock_option(rest),
            others: Vec::new(),
            fixed_host: false,
            rated: rest.contains(&"rated"),
            matched: false,
            role: if rest.contains(&"watching") {
                Role::Spectator
            } else {
                Role::Player
            },
            config: self.config.clone(),
        };
        self.core = Some(RoomCore::new(setup, [7; 32], self.now));
    }

    fn restored(&mut self, players: &str, words: &[&str]) {
        let players: u8 = players.parse().unwrap();
        let clock = clock_option(words);
        let names: Vec<&str> = words
            .iter()
            .copied()
            .filter(|w| *w != "away" && *w != "clock" && !w.contains('+') || w.starts_with('+'))
            .collect();
        let sessions = names
            .iter()
            .map(|n| Session {
                id: self.session(n),
                name: (*n).to_owned(),
            })
            .collect();
        let bots = names
            .iter()
            .map(|n| {
                n.strip_prefix('+')
                    .map(|level| level.parse().expect("a level"))
            })
            .collect();
        let restored = RestoredGame {
            id: GameId(Uuid::from_u128(42)),
            code: RoomCode::parse("SPNDR").unwrap(),
            seed: 7,
            salt: Salt([1; 32]),
            options: Options::default(),
            players: sessions,
            bots,
            clock,
            clocks: None,
            stand_in_actions: Vec::new(),
            finished_ago: None,
            listed: false,
            rated: false,
            history: Vec::new(),
            game: Game::new(players, Options::default(), 7).unwrap(),
            version: 0,
        };
        self.core = Some(RoomCore::restored(
            restored,
            self.config.clone(),
            [7; 32],
            self.now,
        ));
    }

    fn wait(&mut self, by: Duration) {
        let until = self.now + by;
        while let Some(deadline) = self.core().poll_timeout().filter(|&d| d <= until) {
            self.now = deadline;
            let at = self.secs(deadline);
            writeln!(self.out, "  @{at} timeout").unwrap();
            self.core().handle_timeout(deadline);
            self.drain(true);
        }
        self.now = until;
    }

    /// Answers the last `think` with the real player of its level.
    fn bot_answer(&mut self, write_out: bool) {
        let think = self.think.take().expect("a think to answer");
        let result = splendor_ai::choose(
            think.level,
            &think.view,
            think.seat,
            think.seed,
            &STRONG_BUDGET,
        )
        .map_err(|e| e.to_string());
        let now = self.now;
        self.core().handle_event(
            now,
            DriverEvent::BotMoved {
                seat: think.seat,
                version: think.version,
                result,
            },
        );
        self.drain(write_out);
    }

    /// Bots answer, their delays pass, people play, until the game ends.
    fn bots_end(&mut self) {
        let mut moves = 0;
        loop {
            let over = self
                .core()
                .running
                .as_ref()
                .is_none_or(|r| r.game.is_over());
            if over || moves > 2000 {
                break;
            }
            moves += 1;
            if self.think.is_some() {
                self.bot_answer(false);
            } else if let Some(deadline) = self
                .core()
                .poll_timeout()
                .filter(|_| self.core.as_ref().is_some_and(|c| c.bot_turn.is_some()))
            {
                self.now = self.now.max(deadline);
                let now = self.now;
                self.core().handle_timeout(now);
                self.drain(false);
            } else {
                let len = self.out.len();
                self.play(1, false);
                self.out.truncate(len);
            }
        }
        let probe = self.core().probe();
        writeln!(self.out, "  after {moves} steps: {probe:?}").unwrap();
    }

    /// Whoever is to act plays a legal action (see the module doc).
    fn play(&mut self, count: u64, write_out: bool) {
        let mut salt: u64 = 7;
        let mut played = 0;
        while played < count {
            let core = self.core();
            let Some(running) = core.running.as_ref() else {
                panic!("play: no game");
            };
            let Some(seat) = running.game.to_act() else {
                break;
            };
            let mut legal = Vec::new();
            running.game.legal_actions(&mut legal);
            let member = core.people.seats[seat as usize].clone().expect("seated");
            let caller = Caller {
                session: member.session,
                conn: member.conn.unwrap_or(ConnId(0)),
                request: None,
            };
            let now = self.now;
            let ticket = Ticket(self.next_ticket);
            self.next_ticket += 1;
            salt = salt
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let buys: Vec<Action> = legal
                .iter()
                .copied()
                .filter(|a| matches!(a, Action::Buy { .. }))
                .collect();
            let choices = if buys.is_empty() { &legal } else { &buys };
            let request = Request::Act {
                action: choices[(salt >> 33) as usize % choices.len()],
                expect_version: None,
            };
            self.core().handle_request(now, ticket, caller, request);
            self.drain(write_out);
            played += 1;
        }
        if !write_out {
            let probe = self.core().probe();
            writeln!(self.out, "  played {played}: {probe:?}").unwrap();
        }
    }

    /// Hands out the core's effects, answering writes like a store.
    fn drain(&mut self, write_out: bool) {
        while let Some(effect) = self.core().poll_effect() {
            let event = match &effect {
                Effect::Write { id, write } => Some(self.store(*id, write)),
                Effect::Think(think) => {
                    self.think = Some(think.clone());
                    None
                }
                _ => None,
            };
            if write_out {
                let text = self.render(&effect, event.as_ref());
                writeln!(self.out, "  {text}").unwrap();
            }
            if let Some(event) = event {
                let now = self.now;
                self.core().handle_event(now, event);
            }
        }
        let deadline = self.core().poll_timeout();
        if deadline != self.deadline && write_out {
            let text = deadline.map_or("none".to_owned(), |d| self.secs(d));
            writeln!(self.out, "  deadline {text}").unwrap();
        }
        self.deadline = deadline;
    }

    fn store(&mut self, id: crate::input::WriteId, write: &Write) -> DriverEvent {
        let mode = std::mem::replace(&mut self.next_write, NextWrite::Commit);
        if let Write::LoadLog { .. } = write {
            return DriverEvent::LogLoaded {
                id,
                log: Ok(self.log.clone()),
            };
        }
        let outcome = match (mode, write) {
            (_, Write::GameFinished { .. }) if self.refuse_results => {
                self.next_write = mode;
                Err(PersistError::unavailable("results are refused"))
            }
            (NextWrite::Fail(kind), _) => Err(PersistError {
                kind,
                message: "the fake store refused".into(),
            }),
            (
                _,
                Write::ActionApplied {
                    index,
                    seat,
                    action,
                    ..
                },
            ) => {
                if *index != self.log.len() as u64 {
                    Err(PersistError::diverged("the log holds that index"))
                } else {
                    self.log.push((*seat, *action));
                    match mode {
                        NextWrite::Lose => Err(PersistError::unavailable("the reply was lost")),
                        _ => Ok(()),
                    }
                }
            }
            (_, Write::GameStarted(_)) => {
                self.log.clear();
                Ok(())
            }
            _ => Ok(()),
        };
        DriverEvent::Written { id, outcome }
    }

    fn secs(&self, at: Instant) -> String {
        format!("{}s", at.duration_since(self.start).as_secs())
    }

    fn render(&self, effect: &Effect, event: Option<&DriverEvent>) -> String {
        match effect {
            Effect::Reply { result, .. } => match result {
                Ok(Answer::Done) => "reply ok".into(),
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
                Err(LobbyError::Rule(e)) => format!("reply rule error {} ({})", e.code, e.rule),
                Err(e) => format!("reply {e:?}"),
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
                let what = match write {
                    Write::GameStarted(r) => {
                        let names: Vec<String> = r.players.iter().map(|&s| self.name(s)).collect();
                        format!("game started {names:?} {:?}", r.options)
                    }
                    Write::ActionApplied {
                        index,
                        seat,
                        action,
                        ..
                    } => {
                        let json = serde_json::to_string(&WireAction::from(*action)).unwrap();
                        format!("action #{index} seat {seat} {json}")
                    }
                    Write::GameFinished { result, .. } => {
                        format!("result winners {:?}", result.winners)
                    }
                    Write::LoadLog { .. } => "load log".into(),
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
            Effect::Think(t) => format!("think seat {} v{} {}", t.seat, t.version, t.level),
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
    fn message(&self, message: &ServerMessage) -> String {
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
                            "{}{}{}{}{}",
                            s.name,
                            if s.host { "*" } else { "" },
                            if s.connected { "" } else { "~" },
                            s.bot.as_ref().map_or(String::new(), |l| format!("({l})")),
                            if s.muted { " muted" } else { "" }
                        ),
                    })
                    .collect();
                let spectators = if r.spectators.is_empty() {
                    String::new()
                } else {
                    format!(" watching {:?}", r.spectators)
                };
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
                "chat {}{}: {}{}",
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
            other => format!("{other:?}"),
        }
    }
}

/// `clock BANK+INCREMENT [away]` among a script line's words.
fn clock_option(words: &[&str]) -> Option<crate::clock::ClockOptions> {
    let at = words.iter().position(|w| *w == "clock")?;
    Some(crate::clock::ClockOptions {
        clock: words[at + 1].parse().expect("clock BANK+INCREMENT"),
        stand_in_when_away: words.contains(&"away"),
    })
}

fn you(role: Role, seat: Option<Seat>) -> String {
    match (role, seat) {
        (Role::Player, Some(seat)) => format!("player#{seat}"),
        (role, _) => format!("{role:?}").to_lowercase(),
    }
}

fn parse_time(text: &str) -> Duration {
    let (n, unit) = text.split_at(text.len() - 1);
    let n: u64 = n.parse().expect("a number of s, m or h");
    Duration::from_secs(match unit {
        "s" => n,
        "m" => n * 60,
        "h" => n * 3600,
        other => panic!("unit {other}?"),
    })
}
