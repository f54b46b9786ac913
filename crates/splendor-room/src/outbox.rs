//! What each connection in a room is sent: the room, its own view of the
//! game, the events of an action as it may see them, the result. Every
//! message becomes an [`Effect::Send`]; a message that several connections
//! get byte for byte (the spectators' view) is serialised once and shared.

use splendor_protocol::lean::{lean_player, lean_state_info};
use splendor_protocol::view::{StateContext, result_info, state_info, wire_event};
use splendor_protocol::{
    EventsFrames, EventsInfo, HistoryInfo, LeanStateFrames, LeanStateInfo, RequestId, Reveal, Role,
    RoomInfo, SeatInfo, ServerMessage, StateInfo, WireAction, You,
};
use splendor_replay::Seed;
use splendor_rules::{Events, Seat, View, Viewer};

use super::core::RoomCore;
use super::effect::{Effect, Mover};
use crate::conn::{ConnId, Outgoing, SharedFrame};

/// One connection to send to, and how it sees the game.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Audience {
    pub(crate) conn: ConnId,
    /// Whose connection it is.
    pub(crate) session: crate::session::SessionId,
    pub(crate) viewer: Viewer,
    pub(crate) you: You,
    /// Full states after actions, not lean ones.
    pub(crate) verbose: bool,
}

/// What every lean viewer of one action sees alike, serialised once: the
/// state and events as a spectator sees them.
pub(crate) struct LeanShared {
    state: LeanStateFrames,
    events: Option<EventsFrames>,
}

/// The connection whose request a broadcast answers, and its request id.
pub(crate) type ReplyTo = Option<(ConnId, Option<RequestId>)>;

impl RoomCore {
    /// Everyone attached to the room, players first.
    pub(crate) fn audience(&self) -> Vec<Audience> {
        let started = self.running.is_some();
        let players = self.people.slots().iter().enumerate().filter_map(|(i, m)| {
            let member = m.as_ref()?;
            let conn = member.conn?;
            Some(Audience {
                conn,
                session: member.session,
                verbose: member.verbose,
                viewer: if started {
                    Viewer::Seat(i as Seat)
                } else {
                    Viewer::Spectator
                },
                you: You {
                    role: Role::Player,
                    seat: Some(i as Seat),
                },
            })
        });
        let spectators = self.people.spectators().iter().map(|s| Audience {
            conn: s.conn,
            session: s.session,
            verbose: s.verbose,
            viewer: Viewer::Spectator,
            you: You {
                role: Role::Spectator,
                seat: None,
            },
        });
        players.chain(spectators).collect()
    }

    pub(crate) fn audience_of(&self, conn: ConnId) -> Option<Audience> {
        self.audience().into_iter().find(|a| a.conn == conn)
    }

    pub(crate) fn send(&mut self, to: ConnId, message: ServerMessage) {
        self.push(Effect::Send {
            to,
            message: Outgoing::from(message),
        });
    }

    /// What the room offers an invited player (issue 24), as `room` says it.
    pub(crate) fn terms(&self) -> splendor_protocol::social::RoomTerms {
        let info = self.room_info(You {
            role: Role::Spectator,
            seat: None,
        });
        splendor_protocol::social::RoomTerms {
            seats: info.seats.len() as u8,
            players: info.seats.iter().flatten().count() as u8,
            rated: info.rated,
            clock: info.clock,
            turn_based: info.turn_based,
        }
    }

    pub(crate) fn room_info(&self, you: You) -> RoomInfo {
        RoomInfo {
            id: None,
            code: self.code.to_string(),
            listed: self.listed,
            rated: self.rated,
            tutorial: self.tutorial_room,
            status: self.status(),
            seats: self
                .people
                .slots()
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    m.as_ref().map(|m| SeatInfo {
                        seat: i as Seat,
                        name: m.name.clone(),
                        // A bot is always at the table.
                        connected: m.conn.is_some() || m.bot.is_some(),
                        host: self.people.is_host(m.session),
                        bot: m.bot.map(|level| level.name().to_owned()),
                        program_bot: m.program,
                        muted: self.is_muted(m.session),
                        player_id: (self.rated && m.bot.is_none()).then(|| m.session.player_id()),
                    })
                })
                .collect(),
            spectators: self
                .people
                .spectators()
                .iter()
                .map(|s| s.name.clone())
                .collect(),
            spectators_muted: self.spectators_muted(),
            you,
            clock: self.clock.filter(|c| !c.clock.is_per_move()).map(|c| {
                splendor_protocol::RoomClock {
                    initial_s: c.clock.bank().as_secs(),
                    increment_s: c.clock.increment().as_secs(),
                    stand_in_when_away: c.stand_in_when_away,
                }
            }),
            turn_based: self.clock.and_then(|c| {
                c.clock
                    .on_deadline()
                    .map(|on_deadline| splendor_protocol::TurnBased {
                        per_move_s: c.clock.bank().as_secs() as i64,
                        on_deadline,
                    })
            }),
            rematch: self.rematch_info(),
            node: self.config.node,
        }
    }

    /// Sends everyone the room; `reply` names the connection whose request
    /// this answers, and its request id.
    pub(crate) fn broadcast_room(&mut self, reply: ReplyTo) {
        let mut shared: Option<SharedFrame> = None;
        for audience in self.audience() {
            let mut info = self.room_info(audience.you);
            let answers = reply
                .as_ref()
                .is_some_and(|(conn, _)| *conn == audience.conn);
            if answers {
                info.id = reply.as_ref().and_then(|(_, request)| request.clone());
            }
            // Spectators all get the same bytes, unless one is answered.
            if audience.you.role == Role::Spectator && !answers {
                let frame = shared
                    .get_or_insert_with(|| SharedFrame::new(&ServerMessage::Room(info)))
                    .clone();
                self.push(Effect::Send {
                    to: audience.conn,
                    message: Outgoing::Shared(frame),
                });
            } else {
                self.send(audience.conn, ServerMessage::Room(info));
            }
        }
    }

    /// Sends everyone the game as they may see it: the events of the last
    /// action (if given; `reply` names the connection whose request they
    /// answer), the state, and the result once the game is over. After an
    /// action the state is lean (protocol 2) unless the connection asked
    /// for verbose ones. Spectators share one serialised copy of each
    /// message (one for the lean, one for the verbose).
    pub(crate) fn broadcast_game(&mut self, events: Option<&Events>, reply: ReplyTo) {
        // The state shows whose clock runs: it starts before anyone is told
        // whom the game waits for (R12.1).
        self.run_clock(self.now);
        // Indexed by `verbose`.
        let mut spectator_frames: [Option<Vec<SharedFrame>>; 2] = [None, None];
        // What every lean viewer sees alike, serialised once (issue 20).
        let mut shared = None;
        for audience in self.audience() {
            let answers = reply
                .as_ref()
                .is_some_and(|(conn, _)| *conn == audience.conn);
            let lean = events.is_some() && !audience.verbose;
            if audience.you.role == Role::Spectator && !answers {
                let slot = usize::from(audience.verbose);
                let frames = match &spectator_frames[slot] {
                    Some(frames) => frames.clone(),
                    None => {
                        let frames = self.game_frames(
                            audience.viewer,
                            events.map(|e| (e, None)),
                            lean.then_some(&mut shared),
                        );
                        spectator_frames[slot] = Some(frames.clone());
                        frames
                    }
                };
                for frame in frames {
                    self.push(Effect::Send {
                        to: audience.conn,
                        message: Outgoing::Shared(frame),
                    });
                }
            } else {
                let request = if answers {
                    reply.as_ref().and_then(|(_, request)| request.clone())
                } else {
                    None
                };
                if lean {
                    let frames = self.game_frames(
                        audience.viewer,
                        events.map(|e| (e, request)),
                        Some(&mut shared),
                    );
                    for frame in frames {
                        self.push(Effect::Send {
                            to: audience.conn,
                            message: Outgoing::Shared(frame),
                        });
                    }
                } else {
                    self.send_game_to(&audience, events.map(|e| (e, request)));
                }
            }
        }
    }

    /// The game's messages for `viewer`, serialised: full, or with a lean
    /// state when given where the lean viewers' shared parts are kept.
    fn game_frames(
        &mut self,
        viewer: Viewer,
        events: Option<(&Events, Option<RequestId>)>,
        lean: Option<&mut Option<LeanShared>>,
    ) -> Vec<SharedFrame> {
        let Some(shared) = lean else {
            let messages = self.game_messages(viewer, events);
            return messages.iter().map(SharedFrame::new).collect();
        };
        if shared.is_none() {
            // What a spectator sees: nobody's own parts.
            let Some(public) = self.lean_state_for(Viewer::Spectator) else {
                return Vec::new();
            };
            *shared = Some(LeanShared {
                state: LeanStateFrames::new(&public),
                events: events.as_ref().map(|(events, _)| {
                    EventsFrames::new(&self.events_info(Viewer::Spectator, events, None))
                }),
            });
        }
        let Some(shared) = shared.as_ref() else {
            return Vec::new();
        };
        let mut frames = Vec::with_capacity(3);
        if let (Some((events, request)), Some(events_frames)) = (events, &shared.events) {
            // Only a blind reserve's owner is told more than a spectator
            // (R6.4): everyone else's events are the shared ones.
            let frame = if events
                .iter()
                .all(|e| e.redact_for(viewer) == e.redact_for(Viewer::Spectator))
            {
                events_frames.frame_as_spectator(request.as_ref())
            } else {
                events_frames.frame(&self.events_info(viewer, events, request))
            };
            frames.push(SharedFrame::from_text(frame));
        }
        // A seat sees what a spectator sees but for its own blind reserves
        // (R6.4): its state is the shared one with its seat, its legal
        // actions and, when it holds a blind reserve, its own entry of the
        // players, spliced without a view of its own.
        let state = match viewer {
            Viewer::Seat(you) => {
                let own = self
                    .running
                    .as_ref()
                    .filter(|r| r.game().has_blind_reserve(you))
                    .and_then(|r| r.game().seat_view(you, viewer))
                    .map(|entry| lean_player(you, &entry));
                let legal = self.legal_for(you);
                match own {
                    Some(own) => shared.state.frame_for_holder(you, &own, legal.as_deref()),
                    None => shared.state.frame_for_seat(you, legal.as_deref()),
                }
            }
            Viewer::Spectator => shared.state.frame_as_spectator(),
        };
        frames.push(SharedFrame::from_text(state));
        if let Some(result) = self.result_message() {
            frames.push(SharedFrame::new(&result));
        }
        frames
    }

    /// Sends one connection the game as it may see it.
    pub(crate) fn send_game_to(
        &mut self,
        audience: &Audience,
        events: Option<(&Events, Option<RequestId>)>,
    ) {
        // On join, resume and sync: every earlier action first (if any), so
        // that a move log can be complete.
        if events.is_none()
            && let Some(history) = self.history_message(audience.viewer)
        {
            self.send(audience.conn, history);
        }
        for message in self.game_messages(audience.viewer, events) {
            self.send(audience.conn, message);
        }
    }

    /// The events (if given, with the request id they answer), the state,
    /// and the result once the game is over, for `viewer`.
    fn game_messages(
        &mut self,
        viewer: Viewer,
        events: Option<(&Events, Option<RequestId>)>,
    ) -> Vec<ServerMessage> {
        let Some(state) = self.state_for(viewer) else {
            return Vec::new();
        };
        let mut messages = Vec::with_capacity(3);
        if let Some((events, request)) = events {
            messages.push(self.events_message(viewer, events, request));
        }
        messages.push(ServerMessage::State(state));
        if let Some(result) = self.result_message() {
            messages.push(result);
        }
        messages
    }

    /// Every action of the game so far as `viewer` may see it (R6.4):
    /// redacted exactly as the live events were.
    fn history_message(&self, viewer: Viewer) -> Option<ServerMessage> {
        let running = self.running.as_ref().filter(|r| !r.history().is_empty())?;
        let actions = running
            .history()
            .iter()
            .enumerate()
            .map(|(i, (by, events))| EventsInfo {
                id: None,
                room: self.code.to_string(),
                version: i as u64 + 1,
                by: mover_name(*by),
                events: events
                    .iter()
                    .map(|e| wire_event(&e.redact_for(viewer)))
                    .collect(),
            })
            .collect();
        Some(ServerMessage::History(HistoryInfo {
            room: self.code.to_string(),
            version: running.version(),
            actions,
        }))
    }

    /// The events of an action as `viewer` may see them (R6.4).
    fn events_message(
        &self,
        viewer: Viewer,
        events: &Events,
        request: Option<RequestId>,
    ) -> ServerMessage {
        ServerMessage::Events(self.events_info(viewer, events, request))
    }

    /// The events of an action as `viewer` may see them (R6.4).
    fn events_info(
        &self,
        viewer: Viewer,
        events: &Events,
        request: Option<RequestId>,
    ) -> EventsInfo {
        EventsInfo {
            id: request,
            room: self.code.to_string(),
            version: self.running.as_ref().map_or(0, |r| r.version()),
            by: self
                .running
                .as_ref()
                .and_then(|r| mover_name(r.last_mover())),
            events: events
                .iter()
                .map(|e| wire_event(&e.redact_for(viewer)))
                .collect(),
        }
    }

    /// The `result`, once the game is over.
    fn result_message(&self) -> Option<ServerMessage> {
        let running = self.running.as_ref()?;
        let result = running.game().result()?;
        self.result_message_for(&result)
    }

    /// The `result` message of `result`, a result of the running game.
    pub(crate) fn result_message_for(
        &self,
        result: &splendor_rules::GameResult,
    ) -> Option<ServerMessage> {
        let running = self.running.as_ref()?;
        let mut info = result_info(
            self.code.as_str(),
            result,
            running.names(),
            running.id_text(),
            Reveal {
                commitment: running.commitment().to_owned(),
                seed: Seed(running.seed()).to_string(),
                salt: running.salt().to_string(),
            },
        );
        info.stand_in_actions = running.stand_in_actions().to_vec();
        Some(ServerMessage::Result(info))
    }

    /// The lean state for `viewer` (protocol 2), with the legal actions if
    /// it must act.
    fn lean_state_for(&mut self, viewer: Viewer) -> Option<LeanStateInfo> {
        self.with_view(viewer, lean_state_info)
    }

    /// The state for `viewer`, with the legal actions if it must act.
    fn state_for(&mut self, viewer: Viewer) -> Option<StateInfo> {
        self.with_view(viewer, state_info)
    }

    /// The legal actions offered to `seat`'s player: some only when the
    /// game waits for that seat and its player has not resigned (a resigned
    /// seat is the stand-in's, R13.2).
    fn legal_for(&mut self, seat: Seat) -> Option<Vec<WireAction>> {
        let game = self.running.as_ref()?.game();
        if game.to_act() != Some(seat) || game.has_resigned(seat) {
            return None;
        }
        game.legal_actions(&mut self.legal);
        Some(self.legal.iter().map(|&a| WireAction::from(a)).collect())
    }

    /// `form` (full or lean) of what `viewer` may see, with the legal
    /// actions if it must act.
    fn with_view<T>(
        &mut self,
        viewer: Viewer,
        form: fn(&View, StateContext<'_>) -> T,
    ) -> Option<T> {
        let you = match viewer {
            Viewer::Seat(seat) => Some(seat),
            Viewer::Spectator => None,
        };
        let legal_actions = you.and_then(|seat| self.legal_for(seat));
        let running = self.running.as_ref()?;
        let view = running.game().view(viewer);
        Some(form(
            &view,
            StateContext {
                room: self.code.as_str(),
                game: running.id_text(),
                commitment: running.commitment(),
                version: running.version(),
                you,
                names: running.names(),
                legal_actions,
                clocks: running.clocks().map(|c| c.info(self.now)),
            },
        ))
    }
}

/// How `events` name who made an action that its seat's player did not.
fn mover_name(by: Mover) -> Option<String> {
    match by {
        Mover::Person => None,
        Mover::Bot => Some("bot".to_owned()),
        Mover::StandIn => Some("stand_in".to_owned()),
        Mover::Hinted => Some("hint".to_owned()),
    }
}
