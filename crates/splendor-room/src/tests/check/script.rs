//! The script: one line of a test into the core's inputs.

use super::*;

impl Table {
    pub(super) fn step(&mut self, line: &str) {
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
                    "fenced" => PersistErrorKind::Fenced,
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
            ["lease", "lost"] => {
                let now = self.now;
                self.core().handle_event(now, DriverEvent::LeaseLost);
            }
            ["hand", "off"] => {
                let now = self.now;
                self.core().handle_event(now, DriverEvent::HandOff);
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
            ["operators", "close", ..] => {
                // The operators close the room, with a reason.
                let reason = line.split_once(" close").map_or("", |(_, r)| r.trim());
                let caller = Caller {
                    session: SessionId(Uuid::nil()),
                    conn: ConnId(0),
                    request: None,
                };
                let request = Request::Close {
                    reason: reason.to_owned(),
                };
                let ticket = Ticket(self.next_ticket);
                self.next_ticket += 1;
                let now = self.now;
                self.core().handle_request(now, ticket, caller, request);
            }
            [who, "removed", ..] => {
                // The operators remove `who`'s session, with a reason.
                let (_, caller) = self.caller(who);
                let reason = line.split_once(" removed").map_or("", |(_, r)| r.trim());
                let request = Request::Remove {
                    session: caller.session,
                    reason: reason.to_owned(),
                };
                let ticket = Ticket(self.next_ticket);
                self.next_ticket += 1;
                let now = self.now;
                self.core().handle_request(now, ticket, caller, request);
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

    pub(super) fn request(&self, name: &str, text: &str) -> Request {
        let (verb, rest) = text.split_once(' ').unwrap_or((text, ""));
        match (verb, rest) {
            ("join", how) => {
                // `join player|spectator [verbose] [program] [claim N]`
                let words: Vec<&str> = how.split(' ').collect();
                let claim = words
                    .iter()
                    .position(|w| *w == "claim")
                    .map(|i| words[i + 1].parse().expect("claim N"));
                Request::Join {
                    name: name.to_owned(),
                    program: words.contains(&"program"),
                    role: match words[0] {
                        "player" => Role::Player,
                        "spectator" => Role::Spectator,
                        other => panic!("join {other}?"),
                    },
                    verbose: words.contains(&"verbose"),
                    claim,
                }
            }
            ("add_bot", level) => Request::AddBot {
                level: level.to_owned(),
            },
            ("invite", who) => Request::Invite {
                to: self.session_named(who),
            },
            ("blocks", who) => Request::Blocks {
                blocked: who
                    .split(' ')
                    .filter(|w| !w.is_empty())
                    .map(|w| self.session_named(w))
                    .collect(),
            },
            ("whois", what) => Request::Whois {
                whom: match what.split_once(' ') {
                    Some(("seat", n)) => crate::whois::Whom::Seat(n.parse().expect("whois seat N")),
                    Some(("line", n)) => {
                        crate::whois::Whom::Line(self.line_number(n.parse().expect("whois line N")))
                    }
                    _ => panic!("whois seat N | whois line N"),
                },
            },
            ("remove_bot", seat) => Request::RemoveBot {
                seat: seat.parse().expect("remove_bot SEAT"),
            },
            ("leave", "") => Request::Leave,
            ("give_up", "") => Request::GiveUp,
            ("leave_finished", "") => Request::LeaveFinished,
            ("chat", text) => Request::Chat {
                text: text.to_owned(),
            },
            ("mute", "spectators") => Request::MuteSpectators { muted: true },
            ("mute", "spectators off") => Request::MuteSpectators { muted: false },
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
            ("resign", "") => Request::Resign,
            ("hint", "") => Request::Hint,
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

    pub(super) fn new_room(&mut self, seats: &str, rest: &[&str]) {
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
                program: false,
            },
            conn: Some(caller.conn),
            request: Some(RequestId::String("create".into())),
            verbose: false,
            clock: clock_option(rest),
            others: Vec::new(),
            fixed_host: false,
            rated: rest.contains(&"rated"),
            matched: false,
            deal: None,
            tutorial: false,
            role: if rest.contains(&"watching") {
                Role::Spectator
            } else {
                Role::Player
            },
            config: self.config.clone(),
        };
        self.core = Some(RoomCore::new(setup, [7; 32], self.now));
    }

    pub(super) fn restored(&mut self, players: &str, words: &[&str]) {
        let players: u8 = players.parse().unwrap();
        let clock = clock_option(words);
        let after_option = |i: usize| i > 0 && matches!(words[i - 1], "clock" | "per_move");
        let names: Vec<&str> = words
            .iter()
            .copied()
            .enumerate()
            .filter(|&(i, w)| {
                !after_option(i)
                    && !matches!(w, "away" | "clock" | "per_move" | "resign")
                    && (!w.contains('+') || w.starts_with('+'))
            })
            .map(|(_, w)| w)
            .collect();
        let sessions = names
            .iter()
            .map(|n| Session {
                id: self.session(n),
                name: (*n).to_owned(),
                program: false,
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
            chat: Vec::new(),
        };
        self.core = Some(RoomCore::restored(
            restored,
            self.config.clone(),
            [7; 32],
            self.now,
        ));
    }
}

/// `clock BANK+INCREMENT [away]` or `per_move TIME [resign]` among a
/// script line's words.
pub(super) fn clock_option(words: &[&str]) -> Option<crate::clock::ClockOptions> {
    if let Some(at) = words.iter().position(|w| *w == "per_move") {
        let on_deadline = if words.contains(&"resign") {
            crate::OnDeadline::Resign
        } else {
            crate::OnDeadline::StandIn
        };
        return Some(crate::clock::ClockOptions {
            clock: crate::TurnClock::per_move(parse_time(words[at + 1]), on_deadline)
                .expect("per_move 1h to 14d"),
            stand_in_when_away: false,
        });
    }
    let at = words.iter().position(|w| *w == "clock")?;
    Some(crate::clock::ClockOptions {
        clock: words[at + 1].parse().expect("clock BANK+INCREMENT"),
        stand_in_when_away: words.contains(&"away"),
    })
}

pub(super) fn parse_time(text: &str) -> Duration {
    let (n, unit) = text.split_at(text.len() - 1);
    let n: u64 = n.parse().expect("a number of s, m or h");
    Duration::from_secs(match unit {
        "s" => n,
        "m" => n * 60,
        "d" => n * 86_400,
        "h" => n * 3600,
        other => panic!("unit {other}?"),
    })
}
