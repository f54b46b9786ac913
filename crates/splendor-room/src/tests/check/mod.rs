//! The script language of the room core's tests, and [`check`]: the
//! table and its driver here, `script` (a line into the core's inputs),
//! `store` (the fake store) and `render` (what came back, as text).
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
//! room 2 per_move 24h ann@c1   a turn-based room (R12.5); add `resign` for
//!                           a passed deadline to resign the player
//! restored 2 ann bob        a game of 2 restored at version 0, nobody connected
//! bob@c2 join player        a request: join player|spectator [verbose], leave,
//!                           detach, give_up, sync, resign, start joined|random
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
//! ann@c1 whois line 2      whom the room's 2nd chat line (`L2`) names
//! cy@c3 removed spamming    the operators remove cy's session, with a reason
//! operators close abuse     the operators close the room, with a reason
//! ~ bob@c2 join player      any line after `~ ` runs as setup: what the core
//!                           gave back is not written (as quinn-proto's
//!                           `Pair::connect` hides the handshake)
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
use crate::core::RoomCore;
use crate::effect::{Answer, Effect, Think, Write};
use crate::error::RoomError;
use crate::input::{Caller, DriverEvent, Request, Ticket};
use crate::session::{Session, SessionId};
use crate::setup::RoomSetup;
use crate::write::{GameId, PersistError, PersistErrorKind};

/// How hard the `strong` level thinks in these tests: the driver's
/// setting (splendor-lobby's `LobbyConfig::bot_budget`), not the room's.
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
        if let Some(quiet) = line.strip_prefix("~ ") {
            // A setup line: it runs, and only the line is written.
            let mark = table.out.len();
            table.step(quiet);
            table.out.truncate(mark);
            writeln!(table.out, "{line}").unwrap();
        } else {
            table.step(line);
        }
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
    /// The chat line numbers seen, in order: a script's `line N` and the
    /// text's `LN` are the room's Nth line (its numbers start at random).
    lines: std::cell::RefCell<Vec<u64>>,
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
            lines: Default::default(),
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

    /// The session a name stands for, without making it known (a name
    /// the script has not used yet is the next one's).
    pub(super) fn session_named(&self, name: &str) -> SessionId {
        let index = self
            .names
            .iter()
            .position(|n| n == name)
            .unwrap_or(self.names.len());
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
        let event = match think.hint {
            Some(to) => DriverEvent::HintThought {
                seat: think.seat,
                version: think.version,
                result,
                to,
            },
            None => DriverEvent::BotMoved {
                seat: think.seat,
                version: think.version,
                result,
            },
        };
        self.core().handle_event(now, event);
        self.drain(write_out);
    }

    /// Bots answer, their delays pass, people play, until the game ends.
    fn bots_end(&mut self) {
        let mut moves = 0;
        loop {
            let over = self.core().game().is_none_or(|g| g.is_over());
            if over || moves > 2000 {
                break;
            }
            moves += 1;
            if self.think.is_some() {
                self.bot_answer(false);
            } else if let Some(deadline) = self
                .core()
                .poll_timeout()
                .filter(|_| self.core.as_ref().is_some_and(RoomCore::bot_waiting))
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
            let Some(game) = core.game() else {
                panic!("play: no game");
            };
            let Some(seat) = game.to_act() else {
                break;
            };
            let mut legal = Vec::new();
            game.legal_actions(&mut legal);
            let (session, conn) = core.seat_holder(usize::from(seat)).expect("seated");
            let caller = Caller {
                session,
                conn: conn.unwrap_or(ConnId(0)),
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
                    self.think = Some((**think).clone());
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
}

mod render;
mod script;
mod store;

/// What the harness reads of the core: its committed game, who holds a
/// seat, whether a bot's move waits (getters, not the core's fields).
impl RoomCore {
    /// The game as committed (durable), once started.
    pub(crate) fn game(&self) -> Option<&Game> {
        self.running.as_ref().map(|r| r.game())
    }

    /// Who holds `seat` (in turn order once the game started), and on
    /// which connection, if anyone.
    pub(crate) fn seat_holder(
        &self,
        seat: usize,
    ) -> Option<(SessionId, Option<crate::conn::ConnId>)> {
        let member = self.people.member(seat)?;
        Some((member.session, member.conn))
    }

    /// Whether a bot's move waits for its delay (or its thinking).
    pub(crate) fn bot_waiting(&self) -> bool {
        self.bot_turn.is_some()
    }
}
