//! The room task: one tokio task per room, the only owner of its game.
//!
//! Everything that happens to a room arrives as a `Command` through the
//! bounded channel behind a cloneable [`RoomHandle`]; requests carry a
//! `oneshot` for their answer. The task is a `select!` loop over that channel
//! and the room's expiry timer (a turn clock would be one more branch).
//!
//! An action goes through fixed steps (see `Room::act`): check who sends it
//! and the expected version, apply it to a *copy* of the game, make it
//! durable ([`Persistence`]), and only then replace the game and send every
//! connection its own events and view. A failure at any step changes nothing.
//!
//! Messages to connections are queued with `try_send`; a connection whose
//! queue is full is closed and marked disconnected. The room never waits for
//! a client.

use std::sync::{Arc, Weak};

use splendor_protocol::view::{StateContext, result_info, state_info, wire_event};
use splendor_protocol::{
    EventsInfo, Left, RequestId, Reveal, Role, RoomClosed, RoomInfo, RoomStatus, RoomSummary,
    SeatInfo, SeatOrder, ServerMessage, StateInfo, WireAction, You,
};
use splendor_replay::{Commitment, Salt, Seed};
use splendor_rules::{Action, Events, Game, Options, Seat, Viewer};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::{Instant, sleep_until};
use tracing::{debug, info, warn};
use uuid::Uuid;

use crate::code::RoomCode;
use crate::config::LobbyConfig;
use crate::conn::{CloseReason, ConnId, Connection};
use crate::error::LobbyError;
use crate::lobby::{LobbyInner, Stats};
use crate::persist::{GameId, GameStart, PersistErrorKind, Persistence};
use crate::random;
use crate::session::{Session, SessionId};

type Reply<T> = oneshot::Sender<Result<T, LobbyError>>;

/// What a room can be asked to do.
pub(crate) enum Command {
    Join {
        session: Session,
        conn: Connection,
        role: Role,
        request: Option<RequestId>,
        reply: Reply<Joined>,
    },
    Leave {
        session: SessionId,
        conn: ConnId,
        request: Option<RequestId>,
        reply: Reply<()>,
    },
    /// The connection ended; its seat (if any) stays, disconnected.
    Detach {
        session: SessionId,
        conn: ConnId,
    },
    Start {
        session: SessionId,
        conn: ConnId,
        order: SeatOrder,
        request: Option<RequestId>,
        reply: Reply<()>,
    },
    Act {
        session: SessionId,
        conn: ConnId,
        action: Action,
        expect_version: Option<u64>,
        request: Option<RequestId>,
        reply: Reply<()>,
    },
    Sync {
        session: SessionId,
        conn: ConnId,
        request: Option<RequestId>,
        reply: Reply<()>,
    },
    Snapshot {
        reply: oneshot::Sender<Snapshot>,
    },
}

/// How a connection ended up in the room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Joined {
    pub role: Role,
    /// The seat, for a player (join order before the start, turn order after).
    pub seat: Option<Seat>,
}

/// A summary of a room's state, for tests and diagnostics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub status: RoomStatus,
    /// The state version, once the game started.
    pub version: Option<u64>,
    pub seated: usize,
    pub connected_players: usize,
    pub spectators: usize,
}

/// A cloneable handle to a room task.
#[derive(Clone, Debug)]
pub struct RoomHandle {
    code: RoomCode,
    commands: mpsc::Sender<Command>,
}

impl RoomHandle {
    pub(crate) fn new(code: RoomCode, commands: mpsc::Sender<Command>) -> Self {
        RoomHandle { code, commands }
    }

    pub fn code(&self) -> RoomCode {
        self.code
    }

    /// True once the room has closed; every request then fails with
    /// [`LobbyError::RoomClosed`].
    pub fn is_closed(&self) -> bool {
        self.commands.is_closed()
    }

    /// Resolves once the room has closed.
    pub async fn closed(&self) {
        self.commands.closed().await;
    }

    async fn request<T>(&self, make: impl FnOnce(Reply<T>) -> Command) -> Result<T, LobbyError> {
        let (tx, rx) = oneshot::channel();
        self.commands
            .send(make(tx))
            .await
            .map_err(|_| LobbyError::RoomClosed)?;
        rx.await.map_err(|_| LobbyError::RoomClosed)?
    }

    /// Joins as `role`; a session that already holds a seat gets it back
    /// with `conn` as its connection (reconnect), whatever `role` says.
    pub async fn join(
        &self,
        session: Session,
        conn: Connection,
        role: Role,
        request: Option<RequestId>,
    ) -> Result<Joined, LobbyError> {
        self.request(|reply| Command::Join {
            session,
            conn,
            role,
            request,
            reply,
        })
        .await
    }

    pub async fn leave(
        &self,
        session: SessionId,
        conn: ConnId,
        request: Option<RequestId>,
    ) -> Result<(), LobbyError> {
        self.request(|reply| Command::Leave {
            session,
            conn,
            request,
            reply,
        })
        .await
    }

    /// Tells the room that `conn` ended. Never fails: a closed room has
    /// nothing to detach.
    pub async fn detach(&self, session: SessionId, conn: ConnId) {
        let _ = self.commands.send(Command::Detach { session, conn }).await;
    }

    pub async fn start(
        &self,
        session: SessionId,
        conn: ConnId,
        order: SeatOrder,
        request: Option<RequestId>,
    ) -> Result<(), LobbyError> {
        self.request(|reply| Command::Start {
            session,
            conn,
            order,
            request,
            reply,
        })
        .await
    }

    pub async fn act(
        &self,
        session: SessionId,
        conn: ConnId,
        action: Action,
        expect_version: Option<u64>,
        request: Option<RequestId>,
    ) -> Result<(), LobbyError> {
        self.request(|reply| Command::Act {
            session,
            conn,
            action,
            expect_version,
            request,
            reply,
        })
        .await
    }

    /// Sends the room, the state and (when over) the result to `conn` again.
    pub async fn sync(
        &self,
        session: SessionId,
        conn: ConnId,
        request: Option<RequestId>,
    ) -> Result<(), LobbyError> {
        self.request(|reply| Command::Sync {
            session,
            conn,
            request,
            reply,
        })
        .await
    }

    pub async fn snapshot(&self) -> Result<Snapshot, LobbyError> {
        let (reply, rx) = oneshot::channel();
        self.commands
            .send(Command::Snapshot { reply })
            .await
            .map_err(|_| LobbyError::RoomClosed)?;
        rx.await.map_err(|_| LobbyError::RoomClosed)
    }
}

/// A seated player. The seat is kept while the player is disconnected.
struct Member {
    session: SessionId,
    name: String,
    /// `None` while disconnected.
    conn: Option<Connection>,
}

struct Spectator {
    session: SessionId,
    name: String,
    conn: Connection,
}

/// The game once started.
struct Running {
    id: GameId,
    /// The game's id as text, as messages carry it.
    id_text: String,
    game: Game,
    /// The seed the game was dealt from; secret until the game is over.
    seed: u64,
    /// The options it was set up with.
    options: Options,
    /// The salt of the commitment; secret until the game is over.
    salt: Salt,
    /// `SHA-256(salt || seed)` in hexadecimal, sent with every state.
    commitment: String,
    /// The number of actions applied (the state version).
    version: u64,
    /// Player names by seat, fixed at the start.
    names: Vec<String>,
    /// When the game ended, for the viewing period.
    finished_at: Option<Instant>,
    /// The game is over but storing its result failed: the room tries
    /// again when it closes (and a restart stores it from the log).
    result_pending: bool,
}

/// One connection to send to, and how it sees the game.
struct Audience {
    conn: Connection,
    viewer: Viewer,
    you: You,
}

/// What a command asks of the loop afterwards.
enum Next {
    Continue,
    /// Close the room now (nobody is left in a room that never started).
    Close(&'static str),
}

pub(crate) struct Room {
    code: RoomCode,
    listed: bool,
    host: SessionId,
    /// Before the start: one slot per seat in join order (`None` = free).
    /// From the start: one entry per game seat, in turn order, never `None`.
    seats: Vec<Option<Member>>,
    spectators: Vec<Spectator>,
    running: Option<Running>,
    /// Since when no player has been connected (`None` while someone is).
    quiet_since: Option<Instant>,
    /// When a member last asked the room something or someone joined, left,
    /// reconnected or disconnected: the idle clock of a waiting room.
    last_activity: Instant,
    config: LobbyConfig,
    persistence: Arc<dyn Persistence>,
    /// What the lobby lists; updated after every command.
    summary: watch::Sender<RoomSummary>,
    /// The lobby, to remove this room from it when it closes. Weak: the
    /// lobby holds handles to rooms, rooms must not keep the lobby alive.
    lobby: Weak<LobbyInner>,
    /// Tells this room apart from a later room that reuses its code.
    instance: u64,
    /// Scratch space for legal actions.
    legal: Vec<Action>,
    /// The lobby's counters of games and actions.
    stats: Arc<Stats>,
}

/// Everything a new room starts from.
pub(crate) struct NewRoom {
    pub code: RoomCode,
    pub capacity: u8,
    pub listed: bool,
    pub host: Session,
    pub conn: Connection,
    pub request: Option<RequestId>,
    pub config: LobbyConfig,
    pub persistence: Arc<dyn Persistence>,
    pub lobby: Weak<LobbyInner>,
    pub instance: u64,
    pub stats: Arc<Stats>,
}

/// A game to put back into a room after a restart, already rebuilt from its
/// stored log (see [`crate::stored::restore`]).
#[derive(Clone, Debug)]
pub struct RestoredGame {
    pub id: GameId,
    pub code: RoomCode,
    pub seed: u64,
    pub salt: Salt,
    pub options: Options,
    /// The players in seat order; their seats wait for them to reconnect.
    pub players: Vec<Session>,
    /// The game after its whole log.
    pub game: Game,
    /// The number of actions in the log (the state version).
    pub version: u64,
}

/// What a restored room starts from, besides the game.
pub(crate) struct RestoredRoom {
    pub restored: RestoredGame,
    pub config: LobbyConfig,
    pub persistence: Arc<dyn Persistence>,
    pub lobby: Weak<LobbyInner>,
    pub instance: u64,
    pub stats: Arc<Stats>,
}

impl Room {
    /// A room for a game that was running when the server stopped: every
    /// seat is taken and disconnected, the first seat is the host, and the
    /// room is not listed.
    pub(crate) fn restored(new: RestoredRoom) -> (Room, watch::Receiver<RoomSummary>) {
        let RestoredGame {
            id,
            code,
            seed,
            salt,
            options,
            players,
            game,
            version,
        } = new.restored;
        let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
        let host = players.first().map(|p| p.id);
        let seats: Vec<Option<Member>> = players
            .into_iter()
            .map(|p| {
                Some(Member {
                    session: p.id,
                    name: p.name,
                    conn: None,
                })
            })
            .collect();
        let status = if game.is_over() {
            RoomStatus::Finished
        } else {
            RoomStatus::Playing
        };
        let (summary, summary_rx) = watch::channel(RoomSummary {
            code: code.to_string(),
            host: names.first().cloned().unwrap_or_default(),
            seats: seats.len() as u8,
            players: seats.len() as u8,
            status,
        });
        let room = Room {
            code,
            listed: false,
            // A restored room always has seats; the fallback is never used.
            host: host.unwrap_or(SessionId(Uuid::nil())),
            seats,
            spectators: Vec::new(),
            running: Some(Running {
                id,
                id_text: id.to_string(),
                finished_at: game.is_over().then(Instant::now),
                result_pending: false,
                game,
                seed,
                options,
                salt,
                commitment: Commitment::of(Seed(seed), &salt).to_string(),
                version,
                names,
            }),
            quiet_since: None,
            last_activity: Instant::now(),
            config: new.config,
            persistence: new.persistence,
            summary,
            lobby: new.lobby,
            instance: new.instance,
            legal: Vec::new(),
            stats: new.stats,
        };
        (room, summary_rx)
    }

    /// The room with its host seated, and the receiver of what it lists.
    pub(crate) fn new(new: NewRoom) -> (Room, watch::Receiver<RoomSummary>, Option<RequestId>) {
        let mut seats: Vec<Option<Member>> = (0..new.capacity).map(|_| None).collect();
        seats[0] = Some(Member {
            session: new.host.id,
            name: new.host.name.clone(),
            conn: Some(new.conn),
        });
        let (summary, summary_rx) = watch::channel(RoomSummary {
            code: new.code.to_string(),
            host: new.host.name,
            seats: new.capacity,
            players: 1,
            status: RoomStatus::Waiting,
        });
        let room = Room {
            code: new.code,
            listed: new.listed,
            host: new.host.id,
            seats,
            spectators: Vec::new(),
            running: None,
            quiet_since: None,
            last_activity: Instant::now(),
            config: new.config,
            persistence: new.persistence,
            summary,
            lobby: new.lobby,
            instance: new.instance,
            legal: Vec::new(),
            stats: new.stats,
        };
        (room, summary_rx, new.request)
    }

    /// The room task. Ends when the room expires or every handle is gone.
    pub(crate) async fn run(
        mut self,
        mut commands: mpsc::Receiver<Command>,
        create_request: Option<RequestId>,
    ) {
        info!(
            listed = self.listed,
            seats = self.seats.len(),
            "room created"
        );
        let host_conn = self.seats[0]
            .as_ref()
            .and_then(|m| m.conn.as_ref())
            .map(Connection::id);
        self.broadcast_room(host_conn.map(|c| (c, create_request)));
        let why = loop {
            self.refresh();
            let deadline = self.deadline();
            tokio::select! {
                command = commands.recv() => match command {
                    Some(command) => {
                        if let Next::Close(why) = self.handle(command).await {
                            break why;
                        }
                    }
                    None => break "the server is shutting down",
                },
                () = sleep_until_or_never(deadline) => break self.expiry_reason(),
            }
        };
        self.store_pending_result().await;
        self.close(why, &mut commands);
    }

    /// Stores the result of a game that ended while the database was away,
    /// before the room (and its memory of the game) is gone. If this fails
    /// too, the next start stores it from the log (`stored::restore`).
    async fn store_pending_result(&mut self) {
        let Some(running) = self.running.as_mut() else {
            return;
        };
        if !running.result_pending {
            return;
        }
        let Some(result) = running.game.result() else {
            return;
        };
        match self.persistence.game_finished(running.id, &result).await {
            Ok(()) => {
                running.result_pending = false;
                info!("the result is stored now");
            }
            Err(e) => warn!(error = %e, "could not store the result; a restart will"),
        }
    }

    async fn handle(&mut self, command: Command) -> Next {
        // Everything but the gateway's snapshots is activity.
        if !matches!(command, Command::Snapshot { .. }) {
            self.last_activity = Instant::now();
        }
        match command {
            Command::Join {
                session,
                conn,
                role,
                request,
                reply,
            } => {
                let result = self.join(session, conn, role, request);
                self.refresh();
                let _ = reply.send(result);
            }
            Command::Leave {
                session,
                conn,
                request,
                reply,
            } => {
                let result = self.leave(session, conn, request);
                self.refresh();
                let _ = reply.send(result);
                if self.running.is_none() && self.seats.iter().all(Option::is_none) {
                    return Next::Close("every player left");
                }
            }
            Command::Detach { session, conn } => self.detach(session, conn),
            Command::Start {
                session,
                conn,
                order,
                request,
                reply,
            } => {
                let result = self.start(session, conn, order, request).await;
                self.refresh();
                let _ = reply.send(result);
            }
            Command::Act {
                session,
                conn,
                action,
                expect_version,
                request,
                reply,
            } => {
                let result = self
                    .act(session, conn, action, expect_version, request)
                    .await;
                self.refresh();
                let _ = reply.send(result);
            }
            Command::Sync {
                session,
                conn,
                request,
                reply,
            } => {
                let result = self.sync(session, conn, request);
                self.refresh();
                let _ = reply.send(result);
            }
            Command::Snapshot { reply } => {
                self.refresh();
                let _ = reply.send(self.snapshot());
            }
        }
        Next::Continue
    }

    // ---- requests -------------------------------------------------------

    fn join(
        &mut self,
        session: Session,
        conn: Connection,
        role: Role,
        request: Option<RequestId>,
    ) -> Result<Joined, LobbyError> {
        let conn_id = conn.id();
        if let Some(seat) = self.seat_of(session.id) {
            // A seated session comes back: it gets its seat, on this connection.
            if let Some(member) = self.seats[seat].as_mut() {
                if let Some(old) = member.conn.replace(conn)
                    && old.id() != conn_id
                {
                    old.close(CloseReason::Replaced);
                }
                info!(session = %session.id, seat, "player reconnected");
            }
            self.after_join(conn_id, request);
            return Ok(Joined {
                role: Role::Player,
                seat: Some(seat as Seat),
            });
        }
        let spectating = self.spectators.iter().position(|s| s.session == session.id);
        // Check first, change after: a failed join leaves everything as it was.
        let free_seat = match role {
            Role::Player => {
                if self.running.is_some() {
                    return Err(LobbyError::GameAlreadyStarted);
                }
                Some(
                    self.seats
                        .iter()
                        .position(Option::is_none)
                        .ok_or(LobbyError::RoomFull)?,
                )
            }
            Role::Spectator => {
                if spectating.is_none() && self.spectators.len() >= self.config.max_spectators {
                    return Err(LobbyError::TooManySpectators);
                }
                None
            }
        };
        if let Some(i) = spectating {
            let old = self.spectators.remove(i);
            if old.conn.id() != conn_id {
                old.conn.close(CloseReason::Replaced);
            }
        }
        let joined = match free_seat {
            Some(seat) => {
                if !self.is_seated(self.host) {
                    self.host = session.id;
                }
                self.seats[seat] = Some(Member {
                    session: session.id,
                    name: session.name,
                    conn: Some(conn),
                });
                info!(session = %session.id, seat, "player joined");
                Joined {
                    role: Role::Player,
                    seat: Some(seat as Seat),
                }
            }
            None => {
                self.spectators.push(Spectator {
                    session: session.id,
                    name: session.name,
                    conn,
                });
                info!(session = %session.id, "spectator joined");
                Joined {
                    role: Role::Spectator,
                    seat: None,
                }
            }
        };
        self.after_join(conn_id, request);
        Ok(joined)
    }

    /// Tells everyone about the join, and brings the joiner up to date.
    fn after_join(&mut self, conn: ConnId, request: Option<RequestId>) {
        self.pass_host_if_away();
        self.broadcast_room(Some((conn, request)));
        if let Some(audience) = self.audience().into_iter().find(|a| a.conn.id() == conn) {
            self.send_game_to(&audience, None);
        }
    }

    fn leave(
        &mut self,
        session: SessionId,
        conn: ConnId,
        request: Option<RequestId>,
    ) -> Result<(), LobbyError> {
        let left = if let Some(seat) = self.seat_of_conn(session, conn) {
            if self.running.is_some() {
                // A running game keeps the seat; the player may come back.
                self.seats[seat].as_mut().and_then(|m| m.conn.take())
            } else {
                let member = self.seats[seat].take();
                if self.host == session
                    && let Some(next) = self.seats.iter().flatten().next()
                {
                    self.host = next.session;
                }
                member.and_then(|m| m.conn)
            }
        } else if let Some(i) = self
            .spectators
            .iter()
            .position(|s| s.session == session && s.conn.id() == conn)
        {
            Some(self.spectators.remove(i).conn)
        } else {
            return Err(LobbyError::NotInRoom);
        };
        info!(session = %session, "left the room");
        if let Some(conn) = left {
            let _ = conn.send(ServerMessage::Left(Left {
                id: request,
                room: self.code.to_string(),
            }));
        }
        self.broadcast_room(None);
        Ok(())
    }

    fn detach(&mut self, session: SessionId, conn: ConnId) {
        if let Some(seat) = self.seat_of_conn(session, conn) {
            if let Some(member) = self.seats[seat].as_mut() {
                member.conn = None;
            }
            info!(session = %session, seat, "player disconnected");
        } else if let Some(i) = self
            .spectators
            .iter()
            .position(|s| s.session == session && s.conn.id() == conn)
        {
            self.spectators.remove(i);
            debug!(session = %session, "spectator disconnected");
        } else {
            // A connection that was already replaced or removed.
            return;
        }
        self.pass_host_if_away();
        self.broadcast_room(None);
    }

    /// Before the start, a host without a connection hands the host role
    /// to the first connected player: otherwise nobody could start the
    /// game, and the room would never expire while someone waits in it.
    fn pass_host_if_away(&mut self) {
        if self.running.is_some() {
            return;
        }
        let host_connected = self
            .seats
            .iter()
            .flatten()
            .any(|m| m.session == self.host && m.conn.is_some());
        if host_connected {
            return;
        }
        if let Some(next) = self.seats.iter().flatten().find(|m| m.conn.is_some()) {
            info!(session = %next.session, "host role passed on: the host is away");
            self.host = next.session;
        }
    }

    async fn start(
        &mut self,
        session: SessionId,
        conn: ConnId,
        order: SeatOrder,
        request: Option<RequestId>,
    ) -> Result<(), LobbyError> {
        self.check_attached(session, conn)?;
        if self.running.is_some() {
            return Err(LobbyError::GameAlreadyStarted);
        }
        if self.host != session {
            return Err(LobbyError::NotHost);
        }
        let seated = self.seats.iter().flatten().count();
        if seated < 2 {
            return Err(LobbyError::NotEnoughPlayers);
        }
        let seed = random::u64().map_err(|e| {
            warn!(error = %e, "no seed");
            LobbyError::Internal
        })?;
        // R2.4: in join order the first to join plays first; in a random
        // order the first seat is drawn from the seed too.
        let options = Options {
            first_seat: (order == SeatOrder::Joined).then_some(0),
        };
        let game = Game::new(seated as u8, options, seed).map_err(|e| {
            warn!(error = %e, "game setup failed");
            LobbyError::Internal
        })?;
        // R2.4: the seat order is random by default, drawn from the seed.
        let mut order_of_join: Vec<usize> = (0..self.seats.len())
            .filter(|&i| self.seats[i].is_some())
            .collect();
        if order == SeatOrder::Random {
            order_of_join = shuffled(order_of_join, seed);
        }
        let players: Vec<SessionId> = order_of_join
            .iter()
            .filter_map(|&i| self.seats[i].as_ref().map(|m| m.session))
            .collect();
        let names: Vec<String> = order_of_join
            .iter()
            .filter_map(|&i| self.seats[i].as_ref().map(|m| m.name.clone()))
            .collect();
        let id = GameId(Uuid::from_u64_pair(
            random::u64().map_err(|_| LobbyError::Internal)?,
            random::u64().map_err(|_| LobbyError::Internal)?,
        ));
        // The salt makes the commitment to a 64-bit seed impossible to invert.
        let mut salt = Salt([0; 32]);
        random::fill(&mut salt.0).map_err(|e| {
            warn!(error = %e, "no salt");
            LobbyError::Internal
        })?;
        let commitment = Commitment::of(Seed(seed), &salt);
        // Persistence step: the game exists only once it is durable.
        let start = GameStart {
            game: id,
            room: self.code,
            seed,
            salt,
            commitment,
            options,
            players: &players,
            names: &names,
        };
        if let Err(e) = self.persistence.game_started(start).await {
            warn!(error = %e, "could not store the new game");
            return Err(LobbyError::from_persistence(&e));
        }
        let mut old_seats = std::mem::take(&mut self.seats);
        self.seats = order_of_join.iter().map(|&i| old_seats[i].take()).collect();
        self.running = Some(Running {
            id,
            id_text: id.to_string(),
            game,
            seed,
            options,
            salt,
            commitment: commitment.to_string(),
            version: 0,
            names,
            finished_at: None,
            result_pending: false,
        });
        Stats::add(&self.stats.games_started);
        info!(game = %id, players = seated, "game started");
        self.broadcast_room(Some((conn, request)));
        for audience in self.audience() {
            self.send_game_to(&audience, None);
        }
        Ok(())
    }

    async fn act(
        &mut self,
        session: SessionId,
        conn: ConnId,
        action: Action,
        expect_version: Option<u64>,
        request: Option<RequestId>,
    ) -> Result<(), LobbyError> {
        // 1. Who acts: a seated player on its current connection.
        let Some(seat) = self.seat_of_conn(session, conn) else {
            if self
                .spectators
                .iter()
                .any(|s| s.session == session && s.conn.id() == conn)
            {
                return Err(LobbyError::SpectatorCannotAct);
            }
            return Err(LobbyError::NotInRoom);
        };
        let running = self.running.as_mut().ok_or(LobbyError::GameNotStarted)?;
        if running.game.is_over() {
            return Err(LobbyError::GameOver);
        }
        // 2. On which state: a stale expectation applies nothing.
        if let Some(expected) = expect_version
            && expected != running.version
        {
            return Err(LobbyError::StaleVersion {
                current: running.version,
                expected,
            });
        }
        // 3. Apply to a copy; a rule error leaves the game untouched (R11.3).
        let mut next = running.game; // `Game` is `Copy`: this is the copy.
        let events = next.apply(seat as Seat, action).map_err(|e| {
            debug!(seat, %action, code = e.code, "action rejected");
            LobbyError::Rule(e)
        })?;
        // 4. Persistence step: durable before anyone sees it.
        if let Err(e) = self
            .persistence
            .action_applied(running.id, running.version, seat as Seat, action)
            .await
        {
            warn!(error = %e, version = running.version, "could not store an action; rejected");
            if e.kind == PersistErrorKind::Diverged {
                let expected = running.version;
                self.reload().await?;
                let current = self.running.as_ref().map_or(expected, |r| r.version);
                return Err(LobbyError::StaleVersion { current, expected });
            }
            return Err(LobbyError::from_persistence(&e));
        }
        // 5. Commit: the copy becomes the game.
        running.game = next;
        running.version += 1;
        Stats::add(&self.stats.actions_applied);
        debug!(seat, %action, version = running.version, "action applied");
        let over = running.game.is_over();
        if over {
            running.finished_at = Some(Instant::now());
            Stats::add(&self.stats.games_finished);
            if let Some(result) = running.game.result() {
                info!(winners = ?result.winners, deadlock = result.deadlock, "game over");
                if let Err(e) = self.persistence.game_finished(running.id, &result).await {
                    warn!(error = %e, "could not store the result; trying again when the room closes");
                    running.result_pending = true;
                }
            }
        }
        // 6. Broadcast: everyone gets their own events and view.
        for audience in self.audience() {
            let reply = (audience.conn.id() == conn)
                .then(|| request.clone())
                .flatten();
            self.send_game_to(&audience, Some((&events, reply)));
        }
        if over {
            self.broadcast_room(None);
        }
        Ok(())
    }

    /// Replaces the game with the stored one, which is the source of truth,
    /// after the store said that they differ; everyone gets the new state.
    async fn reload(&mut self) -> Result<(), LobbyError> {
        let Some(running) = self.running.as_ref() else {
            return Ok(());
        };
        let log = self.persistence.stored_log(running.id).await.map_err(|e| {
            warn!(error = %e, "could not reload the game from the store");
            LobbyError::from_persistence(&e)
        })?;
        let mut game =
            Game::new(running.game.players(), running.options, running.seed).map_err(|e| {
                warn!(error = %e, "the stored game cannot be set up");
                LobbyError::Internal
            })?;
        for (seq, &(seat, action)) in log.iter().enumerate() {
            if let Err(e) = game.apply(seat, action) {
                warn!(seq, error = %e, "the stored log does not replay; keeping the game in memory");
                return Err(LobbyError::Internal);
            }
        }
        let Some(running) = self.running.as_mut() else {
            return Ok(());
        };
        info!(
            from = running.version,
            to = log.len(),
            "game reloaded from the store"
        );
        running.game = game;
        running.version = log.len() as u64;
        let over = running.game.is_over();
        if over && running.finished_at.is_none() {
            running.finished_at = Some(Instant::now());
            if let Some(result) = running.game.result()
                && let Err(e) = self.persistence.game_finished(running.id, &result).await
            {
                warn!(error = %e, "could not store the result; trying again when the room closes");
                running.result_pending = true;
            }
        }
        for audience in self.audience() {
            self.send_game_to(&audience, None);
        }
        if over {
            self.broadcast_room(None);
        }
        Ok(())
    }

    fn sync(
        &mut self,
        session: SessionId,
        conn: ConnId,
        request: Option<RequestId>,
    ) -> Result<(), LobbyError> {
        self.check_attached(session, conn)?;
        let audience = self
            .audience()
            .into_iter()
            .find(|a| a.conn.id() == conn)
            .ok_or(LobbyError::NotInRoom)?;
        let mut info = self.room_info(audience.you);
        info.id = request;
        self.deliver(&audience.conn, ServerMessage::Room(info));
        self.send_game_to(&audience, None);
        Ok(())
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            status: self.status(),
            version: self.running.as_ref().map(|r| r.version),
            seated: self.seats.iter().flatten().count(),
            connected_players: self.connected_players(),
            spectators: self.spectators.len(),
        }
    }

    // ---- sending --------------------------------------------------------

    /// Everyone attached to the room, players first.
    fn audience(&self) -> Vec<Audience> {
        let players = self.seats.iter().enumerate().filter_map(|(i, m)| {
            let conn = m.as_ref()?.conn.clone()?;
            Some(Audience {
                conn,
                viewer: if self.running.is_some() {
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
        let spectators = self.spectators.iter().map(|s| Audience {
            conn: s.conn.clone(),
            viewer: Viewer::Spectator,
            you: You {
                role: Role::Spectator,
                seat: None,
            },
        });
        players.chain(spectators).collect()
    }

    /// Queues `message` for `conn`; a connection that cannot take it is
    /// detached from the room (and closed if it was too slow).
    fn deliver(&mut self, conn: &Connection, message: ServerMessage) {
        if let Err(e) = conn.send(message) {
            info!(conn = %conn.id(), reason = ?e, "dropping a connection that cannot receive");
            self.drop_connection(conn.id());
        }
    }

    fn drop_connection(&mut self, conn: ConnId) {
        let mut dropped = false;
        for member in self.seats.iter_mut().flatten() {
            if member.conn.as_ref().is_some_and(|c| c.id() == conn) {
                member.conn = None;
                dropped = true;
            }
        }
        let before = self.spectators.len();
        self.spectators.retain(|s| s.conn.id() != conn);
        dropped |= self.spectators.len() != before;
        if dropped {
            self.pass_host_if_away();
            // Each round removes a connection, so this ends.
            self.broadcast_room(None);
        }
    }

    fn room_info(&self, you: You) -> RoomInfo {
        RoomInfo {
            id: None,
            code: self.code.to_string(),
            listed: self.listed,
            status: self.status(),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    m.as_ref().map(|m| SeatInfo {
                        seat: i as Seat,
                        name: m.name.clone(),
                        connected: m.conn.is_some(),
                        host: m.session == self.host,
                    })
                })
                .collect(),
            spectators: self.spectators.iter().map(|s| s.name.clone()).collect(),
            you,
        }
    }

    /// Sends everyone the room; `reply` names the connection whose request
    /// this answers, and its request id.
    fn broadcast_room(&mut self, reply: Option<(ConnId, Option<RequestId>)>) {
        for audience in self.audience() {
            let mut info = self.room_info(audience.you);
            if let Some((conn, request)) = &reply
                && *conn == audience.conn.id()
            {
                info.id = request.clone();
            }
            self.deliver(&audience.conn, ServerMessage::Room(info));
        }
    }

    /// Sends one connection the game as it may see it: the events of the
    /// last action (if given, with the request id it answers), the state,
    /// and the result once the game is over.
    fn send_game_to(&mut self, audience: &Audience, events: Option<(&Events, Option<RequestId>)>) {
        let Some(state) = self.state_for(audience.viewer) else {
            return;
        };
        let Some(running) = self.running.as_ref() else {
            return;
        };
        let mut messages = Vec::with_capacity(3);
        if let Some((events, request)) = events {
            messages.push(ServerMessage::Events(EventsInfo {
                id: request,
                room: self.code.to_string(),
                version: running.version,
                events: events
                    .iter()
                    .map(|e| wire_event(&e.redact_for(audience.viewer)))
                    .collect(),
            }));
        }
        messages.push(ServerMessage::State(state));
        if let Some(result) = running.game.result() {
            messages.push(ServerMessage::Result(result_info(
                self.code.as_str(),
                &result,
                &running.names,
                &running.id_text,
                Reveal {
                    commitment: running.commitment.clone(),
                    seed: Seed(running.seed).to_string(),
                    salt: running.salt.to_string(),
                },
            )));
        }
        for message in messages {
            if audience.conn.close_reason().is_some() {
                break;
            }
            self.deliver(&audience.conn, message);
        }
    }

    /// The state for `viewer`, with the legal actions if it must act.
    fn state_for(&mut self, viewer: Viewer) -> Option<StateInfo> {
        let running = self.running.as_ref()?;
        let view = running.game.view(viewer);
        let you = match viewer {
            Viewer::Seat(seat) => Some(seat),
            Viewer::Spectator => None,
        };
        let legal_actions = if you.is_some() && running.game.to_act() == you {
            running.game.legal_actions(&mut self.legal);
            Some(self.legal.iter().map(|&a| WireAction::from(a)).collect())
        } else {
            None
        };
        Some(state_info(
            &view,
            StateContext {
                room: self.code.as_str(),
                game: &running.id_text,
                commitment: &running.commitment,
                version: running.version,
                you,
                names: &running.names,
                legal_actions,
            },
        ))
    }

    // ---- bookkeeping ----------------------------------------------------

    fn status(&self) -> RoomStatus {
        match &self.running {
            None => RoomStatus::Waiting,
            Some(r) if r.game.is_over() => RoomStatus::Finished,
            Some(_) => RoomStatus::Playing,
        }
    }

    fn seat_of(&self, session: SessionId) -> Option<usize> {
        self.seats
            .iter()
            .position(|m| m.as_ref().is_some_and(|m| m.session == session))
    }

    /// The seat of `session` if `conn` is its current connection.
    fn seat_of_conn(&self, session: SessionId, conn: ConnId) -> Option<usize> {
        self.seat_of(session).filter(|&i| {
            self.seats[i]
                .as_ref()
                .and_then(|m| m.conn.as_ref())
                .is_some_and(|c| c.id() == conn)
        })
    }

    fn is_seated(&self, session: SessionId) -> bool {
        self.seat_of(session).is_some()
    }

    fn check_attached(&self, session: SessionId, conn: ConnId) -> Result<(), LobbyError> {
        let spectating = self
            .spectators
            .iter()
            .any(|s| s.session == session && s.conn.id() == conn);
        if spectating || self.seat_of_conn(session, conn).is_some() {
            Ok(())
        } else {
            Err(LobbyError::NotInRoom)
        }
    }

    fn connected_players(&self) -> usize {
        self.seats
            .iter()
            .flatten()
            .filter(|m| m.conn.is_some())
            .count()
    }

    /// Updates the quiet clock and what the lobby lists.
    fn refresh(&mut self) {
        if self.connected_players() > 0 {
            self.quiet_since = None;
        } else if self.quiet_since.is_none() {
            self.quiet_since = Some(Instant::now());
        }
        let host = self
            .seats
            .iter()
            .flatten()
            .find(|m| m.session == self.host)
            .map(|m| m.name.clone())
            .unwrap_or_default();
        let summary = RoomSummary {
            code: self.code.to_string(),
            host,
            seats: self.seats.len() as u8,
            players: self.seats.iter().flatten().count() as u8,
            status: self.status(),
        };
        self.summary.send_if_modified(|current| {
            let changed = *current != summary;
            *current = summary;
            changed
        });
    }

    /// When the room closes by itself, if nothing happens before.
    fn deadline(&self) -> Option<Instant> {
        match &self.running {
            Some(Running {
                finished_at: Some(at),
                ..
            }) => Some(*at + self.config.finished_room_ttl),
            Some(_) => self.quiet_since.map(|t| t + self.config.abandoned_game_ttl),
            // Before the start: a short grace once no player is connected
            // (a reload, a network change), the idle TTL while one is.
            None => Some(match self.quiet_since {
                Some(t) => t + self.config.empty_room_ttl,
                None => self.last_activity + self.config.idle_room_ttl,
            }),
        }
    }

    fn expiry_reason(&self) -> &'static str {
        match self.status() {
            RoomStatus::Finished => "the finished game's viewing time is over",
            RoomStatus::Playing => "every player has been away too long",
            RoomStatus::Waiting if self.quiet_since.is_some() => {
                "no player has been connected for too long"
            }
            RoomStatus::Waiting => "nothing happened in the room for too long",
        }
    }

    /// Closes the room: out of the lobby first (so nobody finds it any
    /// more), then pending requests fail, and everyone attached is told.
    fn close(self, why: &'static str, commands: &mut mpsc::Receiver<Command>) {
        info!(reason = why, "room closed");
        let lobby = self.lobby.upgrade();
        if let Some(lobby) = &lobby {
            lobby.remove_room(self.code, self.instance);
        }
        commands.close();
        // Dropping the queued commands drops their reply senders: each
        // waiting caller gets `room_closed`.
        while commands.try_recv().is_ok() {}
        let notice = ServerMessage::RoomClosed(RoomClosed {
            room: self.code.to_string(),
            reason: why.to_owned(),
        });
        for audience in self.audience() {
            let _ = audience.conn.send(notice.clone());
        }
        if let Some(lobby) = &lobby {
            let sessions = self
                .seats
                .iter()
                .flatten()
                .map(|m| m.session)
                .chain(self.spectators.iter().map(|s| s.session));
            for session in sessions {
                lobby.presence.forget_room(session, self.code);
            }
        }
    }
}

async fn sleep_until_or_never(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// A Fisher-Yates shuffle driven by SplitMix64 from `seed`: the same seed
/// always gives the same seat order (R2.4, R2.5).
pub(crate) fn shuffled<T>(mut items: Vec<T>, seed: u64) -> Vec<T> {
    let mut state = seed ^ 0x5EA7_0D3E_5EA7_0D3E;
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    for i in (1..items.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seat_shuffle_is_a_permutation_fixed_by_the_seed() {
        let a = shuffled(vec![0, 1, 2, 3], 42);
        assert_eq!(a, shuffled(vec![0, 1, 2, 3], 42));
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, vec![0, 1, 2, 3]);
        // Over many seeds every player sometimes sits first.
        let firsts: std::collections::HashSet<i32> =
            (0..100).map(|s| shuffled(vec![0, 1, 2, 3], s)[0]).collect();
        assert_eq!(firsts.len(), 4);
    }
}
