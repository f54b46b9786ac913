//! Rooms on a connection: create, join, leave, the rematch, moves, and
//! the calls every room request goes through.

use std::time::Duration;

use splendor_lobby::room::clock::ClockOptions;
use splendor_lobby::{
    Answer, Caller, CreateRoom, Request, RoomCode, RoomError, RoomSeat, Session, TurnClock,
};
use splendor_lobby::{JoinAs, MIN_PER_MOVE};
use splendor_protocol::{Act, Create, ErrorCode, Join, RequestId, Role, SeatOrder, Words};
use splendor_rules::Action;

use super::client::Client;

impl Client {
    /// How this connection joins a room for `session`: its name, whether a
    /// program plays for it, and the connection's verbosity.
    pub(super) fn join_as(&self, session: &Session, role: Role, claim: Option<u64>) -> JoinAs {
        JoinAs {
            name: session.name.clone(),
            program: session.program,
            role,
            verbose: self.verbose,
            claim,
        }
    }

    pub(super) async fn create(&mut self, create: Create, id: Option<RequestId>) {
        let Some(session) = self.require_session(&id) else {
            return;
        };
        // A tutorial (issue 50) is a game of two on its prepared deal, with
        // nothing else asked of the room.
        if create.tutorial
            && (create.seats != 2
                || create.listed
                || create.rated
                || create.clock.is_some()
                || create.turn_based.is_some()
                || create.stand_in_when_away
                || create.role != splendor_protocol::Role::Player)
        {
            let words = splendor_protocol::Words::new("create-tutorial-alone");
            return self.reply_error(splendor_protocol::ErrorCode::InvalidField, words, id);
        }
        if !self.leave_finished_room(&session, &id).await {
            return;
        }
        if create.rated
            && let Err(e) = self.state.lobby().check_free_for_rated(session.id, None)
        {
            return self.reply_lobby_error(e, id);
        }
        let config = self.state.lobby().config();
        let clock = match room_clock(&create, config.turn_clock, config.min_per_move) {
            Ok(clock) => clock,
            Err(e) => return self.reply_lobby_error(e, id),
        };
        // A rated room always has a clock and the stand-in for the away.
        let clock = if create.rated {
            let quick = super::queue::quick_play_clock(self.state.config().quick_play_clock);
            Some(clock.map_or(quick, |c| ClockOptions {
                stand_in_when_away: true,
                ..c
            }))
        } else {
            clock
        };
        self.leave_queue_quietly(&session).await;
        let created = self
            .state
            .lobby()
            .create_room(CreateRoom {
                seats: create.seats,
                listed: create.listed,
                host: session.clone(),
                role: create.role,
                clock,
                conn: self.conn.clone(),
                request: id.clone(),
                verbose: self.verbose,
                client: self.budgeted_address(),
                rated: create.rated,
                tutorial: create.tutorial,
            })
            .await;
        match created {
            Ok(handle) => {
                self.state.lobby().presence().set_room(
                    session.id,
                    Some(RoomSeat {
                        code: handle.code(),
                        role: create.role,
                    }),
                );
                self.tell_blocks(&handle, &session, false).await;
                self.set_room(Some(handle));
            }
            Err(e) => self.reply_lobby_error(e, id),
        }
    }

    pub(super) async fn join(&mut self, join: Join, id: Option<RequestId>) {
        let Some(session) = self.require_session(&id) else {
            return;
        };
        // The room this connection is already in (the server moved it into
        // an agreed rematch, say): answered with `room` and the state again.
        self.forget_closed_room();
        if let Some(current) = self.room.clone()
            && RoomCode::parse(&join.code) == Some(current.code())
        {
            let caller = self.caller(&session, id.clone());
            self.tell_blocks(&current, &session, false).await;
            let joined = current
                .join(
                    caller,
                    self.join_as(&session, join.role, None),
                    self.conn.clone(),
                )
                .await;
            match joined {
                Ok(joined) => self.claim = Some((current.code(), Some(joined.claim))),
                Err(e) => self.reply_lobby_error(e, id),
            }
            return;
        }
        if !self.leave_finished_room(&session, &id).await {
            return;
        }
        // A turn-based room that parks its game as the join comes
        // (issue 25) closes under it: the join finds the game again.
        let mut tries = 0;
        let (handle, joined) = loop {
            let handle = match self.state.lobby().find_anywhere(&join.code).await {
                Ok(handle) => handle,
                Err(e) => return self.reply_lobby_error(e, id),
            };
            if join.role == Role::Player
                && let Err(e) = self
                    .state
                    .lobby()
                    .check_free_for_rated(session.id, Some(handle.code()))
            {
                return self.reply_lobby_error(e, id);
            }
            self.leave_queue_quietly(&session).await;
            self.tell_blocks(&handle, &session, false).await;
            let joined = handle
                .join(
                    self.caller(&session, id.clone()),
                    self.join_as(&session, join.role, None),
                    self.conn.clone(),
                )
                .await;
            match joined {
                Err(RoomError::RoomClosed) if tries < 3 => {
                    tries += 1;
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                joined => break (handle, joined),
            }
        };
        match joined {
            Ok(joined) => {
                self.claim = Some((handle.code(), Some(joined.claim)));
                self.state.lobby().presence().set_room(
                    session.id,
                    Some(RoomSeat {
                        code: handle.code(),
                        role: joined.role,
                    }),
                );
                // Joining as a player accepts the invitations to the room
                // (issue 25): they go from My games.
                if joined.role == splendor_protocol::Role::Player
                    && let Some(store) = self.state.store().cloned()
                {
                    let (to, code) = (splendor_store::SessionId(session.id.0), handle.code());
                    tokio::spawn(async move {
                        if let Err(e) = store.drop_invitations(to, code.as_str()).await {
                            tracing::debug!(error = %e, "invitations to a joined room stay");
                        }
                    });
                }
                self.set_room(Some(handle));
            }
            Err(e) => self.reply_lobby_error(e, id),
        }
    }

    /// Before a `join` or `create`: a finished room gives way (the caller
    /// leaves it, getting `left`); a room still waiting or playing is
    /// `already_in_room`. True when the connection is in no room now.
    pub(super) async fn leave_finished_room(
        &mut self,
        session: &Session,
        id: &Option<RequestId>,
    ) -> bool {
        let Some(room) = self.current_room_code().and(self.room.clone()) else {
            return true;
        };
        match room
            .call(self.caller(session, None), Request::LeaveFinished)
            .await
        {
            Ok(_) | Err(RoomError::RoomClosed) => {
                self.set_room(None);
                self.state
                    .lobby()
                    .presence()
                    .forget_room(session.id, room.code());
                true
            }
            Err(e) => {
                self.reply_lobby_error(e, id.clone());
                false
            }
        }
    }

    /// `rematch`: offers or accepts one. The last acceptance has the
    /// lobby make the new room (`Lobby::agree_rematch`: rooms never touch
    /// the lobby; the old room is told its code and the others who
    /// accepted are moved), then this connection takes its seat in the new
    /// one and starts it, seat order drawn anew.
    pub(super) async fn rematch(&mut self, id: Option<RequestId>) {
        let Some((session, old)) = self.require_room(&id) else {
            return;
        };
        let plan = match old
            .call(self.caller(&session, id.clone()), Request::Rematch)
            .await
        {
            Ok(Answer::Rematch(plan)) => plan,
            // Others have still to accept; `room` answered. This
            // connection waits to be moved into the new room.
            Ok(_) => {
                if self.matches.is_none() {
                    self.matches = Some(
                        self.state
                            .lobby()
                            .waiters()
                            .watch(session.id, self.conn.id()),
                    );
                    self.awaiting_rematch = true;
                }
                return;
            }
            Err(e) => return self.reply_lobby_error(e, id),
        };
        let lobby = self.state.lobby().clone();
        let new = match lobby
            .agree_rematch(
                session.clone(),
                self.conn.id(),
                self.budgeted_address(),
                &old,
                plan,
            )
            .await
        {
            Ok(new) => new,
            Err(e) => return self.reply_lobby_error(e, id),
        };
        self.set_room(None);
        self.tell_blocks(&new, &session, false).await;
        let joined = new
            .join(
                self.caller(&session, None),
                self.join_as(&session, Role::Player, None),
                self.conn.clone(),
            )
            .await;
        match joined {
            Ok(joined) => self.claim = Some((new.code(), Some(joined.claim))),
            Err(e) => return self.reply_lobby_error(e, id),
        }
        lobby.presence().set_room(
            session.id,
            Some(RoomSeat {
                code: new.code(),
                role: Role::Player,
            }),
        );
        self.set_room(Some(new.clone()));
        let start = Request::Start {
            order: SeatOrder::Random,
        };
        if let Err(e) = new.call(self.caller(&session, id.clone()), start).await {
            self.reply_lobby_error(e, id);
        }
    }

    /// `resign` (R13.1): the seat resigns, whoever is to move; the room
    /// answers with its events. The session holds no seat there from now
    /// on (leaving it keeps nothing, quick play is open again).
    pub(super) async fn resign(&mut self, id: Option<RequestId>) {
        let code = self.room.as_ref().map(|r| r.code());
        let Some(session) = self.call_room(Request::Resign, id).await else {
            return;
        };
        if let Some(code) = code {
            self.state.lobby().resigned(session.id, code);
        }
    }

    /// A practice hint (issue 26): the room thinks it out and sends the
    /// `hint` message to this connection.
    pub(super) async fn hint(&mut self, id: Option<RequestId>) {
        self.call_room(Request::Hint, id).await;
    }

    /// `leave`, keeping a seat a game in progress or a turn-based room
    /// holds for its player, or (`give_up`, before a start) giving it up.
    pub(super) async fn leave(&mut self, give_up: bool, id: Option<RequestId>) {
        let request = if give_up {
            Request::GiveUp
        } else {
            Request::Leave
        };
        let Some(session) = self.call_room(request, id).await else {
            return;
        };
        self.set_room(None);
        let lobby = self.state.lobby();
        let seat = lobby.presence().room_of(session.id);
        if give_up && let Some(seat) = seat {
            lobby.presence().unhold(session.id, seat.code);
            lobby.presence().set_room(session.id, None);
        } else {
            lobby.left_room(session.id, seat);
        }
    }

    pub(super) async fn act(&mut self, act: Act, id: Option<RequestId>) {
        // Shape first: an action that cannot be expressed is refused whoever sends it.
        let action = match Action::try_from(&act.action) {
            Ok(action) => action,
            Err(e) => return self.reply_error(ErrorCode::InvalidAction, e.0, id),
        };
        // A node cut from NATS takes no move in its rooms that have players
        // on other nodes: it could not deliver it to them.
        if let (Some(cluster), Some(room)) = (self.state.cluster(), &self.room)
            && room.remote_lease().is_none()
            && !cluster.nats_connected()
            && cluster.has_remote_members(room.code())
        {
            return self.reply_lobby_error(RoomError::RoomUnavailable, id);
        }
        let request = Request::Act {
            action,
            expect_version: act.expect_version,
        };
        self.call_room(request, id).await;
    }

    /// Sends `request` to the room this connection is in, as this
    /// connection's session; an error is answered here. The session, if
    /// the room did it.
    pub(super) async fn call_room(
        &mut self,
        request: Request,
        id: Option<RequestId>,
    ) -> Option<Session> {
        let (session, room) = self.require_room(&id)?;
        match room.call(self.caller(&session, id.clone()), request).await {
            Ok(_) => Some(session),
            Err(e) => {
                self.reply_lobby_error(e, id);
                None
            }
        }
    }

    /// Who this connection is, for the room.
    pub(super) fn caller(&self, session: &Session, request: Option<RequestId>) -> Caller {
        Caller {
            session: session.id,
            conn: self.conn.id(),
            request,
        }
    }

    /// Leaves the room without a goodbye: the connection ended.
    pub(super) async fn leave_quietly(&mut self) {
        let Some(session) = self.session.as_ref().map(|s| s.id) else {
            return;
        };
        self.queue_away(session).await;
        if self.challenges {
            self.program_offline(session).await;
        }
        if let Some(room) = self.room.clone() {
            self.set_room(None);
            room.detach(Caller {
                session,
                conn: self.conn.id(),
                request: None,
            })
            .await;
        }
        self.state
            .lobby()
            .presence()
            .release(session, self.conn.id());
    }
}

/// The clock of a room `create` asks for (R12.1, R12.3, R12.5), or the
/// server's default clock when it names none. `min_per_move` is R12.5's
/// hour unless a test lowered it.
fn room_clock(
    create: &Create,
    default: Option<TurnClock>,
    min_per_move: Duration,
) -> Result<Option<ClockOptions>, RoomError> {
    let seconds = |n: i64, what: &str| {
        u64::try_from(n).map(Duration::from_secs).map_err(|_| {
            RoomError::InvalidClock(
                Words::new("clock-whole-seconds")
                    .text("field", what)
                    .num("value", n),
            )
        })
    };
    if let Some(turn_based) = create.turn_based {
        let refuse = |id: &'static str| Err(RoomError::InvalidClock(Words::new(id)));
        if create.clock.is_some() {
            return refuse("clock-and-turn-based");
        }
        if create.stand_in_when_away {
            // R12.5: being away is the normal state of a turn-based player.
            return refuse("clock-turn-based-away");
        }
        if create.rated {
            return refuse("clock-turn-based-rated");
        }
        let time = seconds(turn_based.per_move_s, "per_move_s")?;
        let on_deadline = turn_based.on_deadline;
        let clock = if time < MIN_PER_MOVE && time >= min_per_move && !time.is_zero() {
            TurnClock::per_move_unchecked(time, on_deadline)
        } else {
            TurnClock::per_move(time, on_deadline)
                .map_err(|e| RoomError::InvalidClock(e.words()))?
        };
        return Ok(Some(ClockOptions {
            clock,
            stand_in_when_away: false,
        }));
    }
    let clock = match create.clock {
        None => default,
        Some(spec) => {
            let bank = seconds(spec.initial_s, "initial_s")?;
            let increment = seconds(spec.increment_s, "increment_s")?;
            Some(TurnClock::new(bank, increment).map_err(|e| RoomError::InvalidClock(e.words()))?)
        }
    };
    match clock {
        Some(clock) => Ok(Some(ClockOptions {
            clock,
            stand_in_when_away: create.stand_in_when_away,
        })),
        None if create.stand_in_when_away => Err(RoomError::InvalidClock(
            Words::new("clock-needed-for-stand-in")
                .text("example", r#""clock":{"initial_s":300,"increment_s":10}"#),
        )),
        None => Ok(None),
    }
}
