//! The room manager: creates rooms, finds them by code, lists them.
//!
//! A plain map behind a mutex held only for lookups and inserts: rooms are
//! tasks of their own, the map only holds their handles. A room task ends
//! by returning why it closed and whose sessions it held; the lobby then
//! removes it from the map and clears those sessions' presence. The room
//! itself never touches the lobby.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use splendor_protocol::{RequestId, Role, RoomStatus, RoomSummary};
use tokio::sync::{mpsc, watch};
use tracing::{Instrument, Span, info_span};

use crate::code::RoomCode;
use crate::config::LobbyConfig;
use crate::conn::Connection;
use crate::directory::{DirectoryError, Lease, LocalDirectory, RoomDirectory};
use crate::error::LobbyError;
use crate::persist::Persistence;
use crate::presence::{Presence, RoomSeat};
use crate::random;
use crate::room::clock::ClockOptions;
use crate::room::{Closed, Driver, RematchPlan, RestoredGame, RoomCore, RoomHandle, RoomSetup};
use crate::session::{Session, SessionId};
use crate::thinking::ThinkPool;
use crate::timings::{TimeHistogram, Timings};

/// The client a request to create a room comes from, as the gateway groups
/// its clients (the server uses the client's network address, an IPv6
/// address by its /64). The lobby only compares keys: at most
/// [`LobbyConfig::max_waiting_rooms_per_ip`] rooms waiting for players may
/// come from one key.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClientKey(String);

impl ClientKey {
    /// A key from the gateway's text form of a client address.
    pub fn new(key: impl Into<String>) -> ClientKey {
        ClientKey(key.into())
    }
}

struct RoomEntry {
    handle: RoomHandle,
    /// The session that created the room (rooms per session count these);
    /// for a restored room, its first player.
    creator: Option<SessionId>,
    /// The client the room was created from (waiting rooms per address
    /// count these); `None` for a restored room or an unknown client.
    client: Option<ClientKey>,
    /// Which room this is, in case a later room reuses the code.
    instance: u64,
    /// Its claim in the room directory (the epoch is its fencing token).
    lease: Lease,
    listed: bool,
    /// The room's game counts for the ratings.
    rated: bool,
    /// What the room currently shows in listings.
    summary: watch::Receiver<RoomSummary>,
    /// Who is in it, for the metrics.
    occupancy: Arc<Occupancy>,
}

/// Who is in one room, for the metrics: its driver updates it after every
/// step.
#[derive(Debug, Default)]
pub(crate) struct Occupancy {
    pub(crate) connected: AtomicUsize,
    pub(crate) seated: AtomicUsize,
    pub(crate) bots: AtomicUsize,
    pub(crate) spectators: AtomicUsize,
}

pub(crate) struct LobbyInner {
    rooms: Mutex<HashMap<RoomCode, RoomEntry>>,
    pub(crate) presence: Presence,
    config: LobbyConfig,
    persistence: Arc<dyn Persistence>,
    /// Which node owns which room code.
    directory: Arc<dyn RoomDirectory>,
    next_instance: AtomicU64,
    stats: Arc<Stats>,
}

/// What the rooms of a lobby have done, counted by the rooms themselves.
#[derive(Debug)]
pub(crate) struct Stats {
    pub(crate) games_started: AtomicU64,
    pub(crate) games_finished: AtomicU64,
    pub(crate) actions_applied: AtomicU64,
    pub(crate) bot_actions: AtomicU64,
    pub(crate) stand_in_actions: AtomicU64,
    pub(crate) clock_timeouts: AtomicU64,
    /// Where the rooms' bots think.
    pub(crate) pool: ThinkPool,
    /// From an `act` reaching its room to its broadcast being queued.
    pub(crate) action_latency: Timings,
}

/// Upper bounds of the action latency histogram, in seconds.
const ACTION_LATENCY_BUCKETS: [f64; 10] = [
    0.000_5, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0,
];

impl Default for Stats {
    fn default() -> Stats {
        Stats::new(ThinkPool::new(1, splendor_ai::Budget::STRONG))
    }
}

impl Stats {
    pub(crate) fn new(pool: ThinkPool) -> Stats {
        Stats {
            games_started: AtomicU64::new(0),
            games_finished: AtomicU64::new(0),
            actions_applied: AtomicU64::new(0),
            bot_actions: AtomicU64::new(0),
            stand_in_actions: AtomicU64::new(0),
            clock_timeouts: AtomicU64::new(0),
            pool,
            action_latency: Timings::new(&ACTION_LATENCY_BUCKETS),
        }
    }
}

impl Stats {
    pub(crate) fn add(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

/// Totals since the lobby was created, for metrics.
#[derive(Clone, Debug, PartialEq)]
pub struct LobbyStats {
    /// Games started in this process (restored games are not counted).
    pub games_started: u64,
    /// Games that reached their end in this process.
    pub games_finished: u64,
    /// Actions applied (durable and broadcast) in this process.
    pub actions_applied: u64,
    /// Of those, actions made by built-in bots.
    pub bot_actions: u64,
    /// Of those, actions made by stand-ins (R12.2).
    pub stand_in_actions: u64,
    /// Turn clocks that ran out (R12.2).
    pub clock_timeouts: u64,
    /// How long built-in bots thought per move.
    pub think_time: TimeHistogram,
    /// How long actions took from reaching their room to their broadcast
    /// being queued (their commit included).
    pub action_latency: TimeHistogram,
}

/// Open rooms by what they are doing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoomCounts {
    /// Rooms whose game has not started.
    pub waiting: usize,
    /// Rooms with a game running.
    pub playing: usize,
    /// Rooms whose game is over, still viewable.
    pub finished: usize,
    /// People seated in rooms (bots not counted).
    pub players_seated: usize,
    /// Of those, the ones connected now.
    pub players_connected: usize,
    /// Built-in bots seated in rooms.
    pub bots: usize,
    /// Spectators in rooms.
    pub spectators: usize,
}

impl LobbyInner {
    fn rooms(&self) -> MutexGuard<'_, HashMap<RoomCode, RoomEntry>> {
        // Every change is a single insert or remove: a poisoned map is consistent.
        self.rooms
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A room task ended: the room leaves the map (unless a later room
    /// already reuses its code) and its sessions are in no room any more.
    /// Returns its lease to give back, if it was still the code's room.
    fn reap(&self, code: RoomCode, instance: u64, closed: &Closed) -> Option<Lease> {
        let lease = {
            let mut rooms = self.rooms();
            if rooms.get(&code).is_some_and(|e| e.instance == instance) {
                rooms.remove(&code).map(|e| e.lease)
            } else {
                None
            }
        };
        for &session in &closed.sessions {
            self.presence.forget_room(session, code);
        }
        lease
    }
}

/// What `create_room` needs.
pub struct CreateRoom {
    /// 2, 3 or 4.
    pub seats: u8,
    /// Whether the room is listed for strangers to join.
    pub listed: bool,
    /// The creator, who hosts the room.
    pub host: Session,
    /// `Player`: the host takes the first seat; `Spectator`: the host
    /// watches (a table of bots, or a game for others).
    pub role: Role,
    /// The room's turn clock (R12); `None` plays without one.
    pub clock: Option<ClockOptions>,
    /// The host's connection.
    pub conn: Connection,
    /// Echoed by the first `room` message the host receives.
    pub request: Option<RequestId>,
    /// Whether the host's connection asked for full states after every
    /// action (protocol 2).
    pub verbose: bool,
    /// The client the request comes from; `None` (unknown) is not limited.
    pub client: Option<ClientKey>,
    /// The game counts for the ratings (issue 13). The caller gives the
    /// room a clock with the stand-in for the away.
    pub rated: bool,
}

/// A room to create: [`CreateRoom`], or a rematch's.
struct NewRoom {
    seats: u8,
    listed: bool,
    host: Session,
    role: Role,
    clock: Option<ClockOptions>,
    conn: Option<Connection>,
    request: Option<RequestId>,
    verbose: bool,
    client: Option<ClientKey>,
    others: Vec<crate::room::seats::Member>,
    /// The host keeps the role while away (a rematch room, started at once).
    fixed_host: bool,
    rated: bool,
    /// Filled by the quick-play queue, started by the gateway.
    matched: bool,
}

/// Where a room runs ([`Lobby::locate`]).
#[derive(Clone, Debug)]
pub enum Location {
    /// On this node.
    Here(RoomHandle),
    /// On another node, which holds this lease on its code.
    Elsewhere(Lease),
    /// No room has the code.
    Nowhere,
}

/// A game that cannot be put back into a room.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RestoreError {
    /// Another room already has the code (a newer game in the same room).
    #[error("room code {0} is already in use")]
    CodeInUse(String),
    /// The players do not fill the game's seats.
    #[error("the game has {players} seats but {seats} players were given")]
    Seats {
        /// The game's seats.
        players: u8,
        /// The players given.
        seats: usize,
    },
    /// The operating system's random source failed.
    #[error("no random seed for the room: {0}")]
    Random(String),
    /// The room directory could not be asked.
    #[error("the room directory: {0}")]
    Directory(String),
}

/// A seed for a room core's RNG: from the operating system, or (the
/// arena's reproducible series, [`LobbyConfig::room_seed`]) from the fixed
/// seed and the room's creation number.
fn room_rng_seed(fixed: Option<u64>, instance: u64) -> Result<[u8; 32], random::RandomError> {
    let mut seed = [0; 32];
    match fixed {
        Some(base) => {
            // SplitMix64 of (base, instance): distinct, well-mixed words.
            let mut state = base ^ instance.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            for chunk in seed.chunks_mut(8) {
                state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = state;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                chunk.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
            }
        }
        None => random::fill(&mut seed)?,
    }
    Ok(seed)
}

/// The lobby of one server process. Cheap to clone.
#[derive(Clone)]
pub struct Lobby {
    inner: Arc<LobbyInner>,
}

impl Lobby {
    /// A lobby with no rooms, whose rooms store games through `persistence`,
    /// on one node (its room directory is a map in this process).
    pub fn new(config: LobbyConfig, persistence: Arc<dyn Persistence>) -> Lobby {
        Lobby::with_directory(config, persistence, Arc::new(LocalDirectory::default()))
    }

    /// A lobby whose rooms' codes are claimed in `directory`.
    pub fn with_directory(
        config: LobbyConfig,
        persistence: Arc<dyn Persistence>,
        directory: Arc<dyn RoomDirectory>,
    ) -> Lobby {
        Lobby {
            inner: Arc::new(LobbyInner {
                rooms: Mutex::new(HashMap::new()),
                presence: Presence::default(),
                config: config.clone(),
                persistence,
                directory,
                next_instance: AtomicU64::new(1),
                stats: Arc::new(Stats::new(ThinkPool::new(
                    config.think_threads,
                    config.strong_budget,
                ))),
            }),
        }
    }

    /// Which connection and room each session has.
    pub fn presence(&self) -> &Presence {
        &self.inner.presence
    }

    /// The limits and timers of this lobby's rooms.
    pub fn config(&self) -> &LobbyConfig {
        &self.inner.config
    }

    /// Creates a room with the host in its first seat and starts its task.
    /// Must be called within a tokio runtime.
    pub async fn create_room(&self, create: CreateRoom) -> Result<RoomHandle, LobbyError> {
        let CreateRoom {
            seats,
            listed,
            host,
            role,
            clock,
            conn,
            request,
            verbose,
            client,
            rated,
        } = create;
        self.create(NewRoom {
            seats,
            listed,
            host,
            role,
            clock,
            conn: Some(conn),
            request,
            verbose,
            client,
            others: Vec::new(),
            fixed_host: false,
            rated,
            matched: false,
        })
        .await
    }

    /// Makes the room of an agreed rematch: `host` (who accepted last)
    /// hosts it from the first seat, the plan's people and bots hold the
    /// other seats, with the old room's clock and listing. Nobody is
    /// connected yet: the people's sessions are in this room from now on,
    /// and a `join` of its code (or a resume) seats each on their
    /// connection; the host joins, then starts it.
    pub async fn create_rematch(
        &self,
        host: Session,
        client: Option<ClientKey>,
        (old, plan): (RoomCode, RematchPlan),
    ) -> Result<RoomHandle, LobbyError> {
        let people = plan.people();
        let host_id = host.id;
        let handle = self
            .create(NewRoom {
                seats: plan.seats(),
                listed: plan.listed,
                host,
                role: Role::Player,
                clock: plan.clock,
                conn: None,
                request: None,
                verbose: false,
                client,
                others: plan.others,
                fixed_host: true,
                rated: plan.rated,
                matched: false,
            })
            .await?;
        let seat = RoomSeat {
            code: handle.code(),
            role: Role::Player,
        };
        self.inner.presence.set_room(host_id, Some(seat));
        // Only those still in the old room follow (one who went on to
        // another room stays there).
        for session in people {
            self.inner.presence.move_room(session, old, seat);
        }
        Ok(handle)
    }

    /// Makes the room of a quick-play game the queue formed: `players` (2
    /// to 4 sessions, none connected yet) fill its seats, it is rated and
    /// unlisted, with `clock`. Their sessions are in this room from now on
    /// (a resume or a `join` seats each on its connection); the caller then
    /// starts it with [`Request::StartMatch`](crate::Request::StartMatch).
    /// Quick-play rooms count against no session's or address's limits.
    ///
    /// `bots` more seats go to built-in `greedy` players (the queue's
    /// wait for people ran out); their seats are not rated.
    pub async fn create_match(
        &self,
        players: Vec<Session>,
        bots: usize,
        clock: ClockOptions,
    ) -> Result<RoomHandle, LobbyError> {
        let mut players = players.into_iter();
        let host = players.next().ok_or(LobbyError::InvalidSeats(0))?;
        let mut others: Vec<crate::room::seats::Member> = players
            .map(|s| crate::room::seats::Member::person(&s))
            .collect();
        let ids: Vec<SessionId> = std::iter::once(host.id)
            .chain(others.iter().map(|m| m.session()))
            .collect();
        for k in 1..=bots {
            let id = crate::session::random_session_id()
                .map_err(|e| LobbyError::internal(format!("no bot id: {e}")))?;
            let name = if k == 1 {
                "Greedy bot".to_owned()
            } else {
                format!("Greedy bot {k}")
            };
            others.push(crate::room::seats::Member::bot(
                id,
                name,
                splendor_ai::Level::Greedy,
            ));
        }
        let handle = self
            .create(NewRoom {
                seats: others.len() as u8 + 1,
                listed: false,
                host,
                role: Role::Player,
                clock: Some(clock),
                conn: None,
                request: None,
                verbose: false,
                client: None,
                others,
                fixed_host: true,
                rated: true,
                matched: true,
            })
            .await?;
        let seat = RoomSeat {
            code: handle.code(),
            role: Role::Player,
        };
        for id in ids {
            self.inner.presence.set_room(id, Some(seat));
        }
        Ok(handle)
    }

    /// Claims a fresh code in the room directory, then makes the room
    /// under it; a room refused by the limits gives the code back.
    async fn create(&self, create: NewRoom) -> Result<RoomHandle, LobbyError> {
        if !(2..=4).contains(&create.seats) {
            return Err(LobbyError::InvalidSeats(create.seats));
        }
        let lease = self.claim_fresh_code().await?;
        let made = self.install(create, lease);
        if made.is_err() {
            self.inner.directory.release(lease).await;
        }
        made
    }

    /// A random code no room of this node uses, claimed for this node.
    async fn claim_fresh_code(&self) -> Result<Lease, LobbyError> {
        loop {
            let code = RoomCode::random(random::fill)
                .map_err(|e| LobbyError::internal(format!("no room code: {e}")))?;
            if self.inner.rooms().contains_key(&code) {
                continue;
            }
            match self
                .inner
                .directory
                .claim(code, self.inner.config.node)
                .await
            {
                Ok(lease) => return Ok(lease),
                // Another node's room: draw again.
                Err(DirectoryError::Taken(_)) => continue,
                Err(e) => return Err(LobbyError::internal(format!("room directory: {e}"))),
            }
        }
    }

    /// Makes the room of `create` under the code `lease` holds, within
    /// the limits.
    fn install(&self, create: NewRoom, lease: Lease) -> Result<RoomHandle, LobbyError> {
        let mut rooms = self.inner.rooms();
        if rooms.len() >= self.inner.config.max_rooms {
            return Err(LobbyError::TooManyRooms);
        }
        let limit = if create.matched {
            usize::MAX
        } else {
            self.inner.config.max_rooms_per_session
        };
        // A finished room stays for its viewing time but no longer counts:
        // a player who keeps making rematches against bots is not stopped.
        let own = rooms
            .values()
            .filter(|e| e.creator == Some(create.host.id))
            .filter(|e| e.summary.borrow().status != RoomStatus::Finished)
            .count();
        if own >= limit {
            return Err(LobbyError::TooManyRoomsForSession(limit));
        }
        if let Some(client) = &create.client {
            let limit = self.inner.config.max_waiting_rooms_per_ip;
            // A room counts until its game starts (or it closes): a started
            // game has players, which is what rooms are for.
            let waiting = rooms
                .values()
                .filter(|e| e.client.as_ref() == Some(client))
                .filter(|e| e.summary.borrow().status == RoomStatus::Waiting)
                .count();
            if waiting >= limit {
                return Err(LobbyError::TooManyWaitingRoomsFromOrigin(limit));
            }
        }
        let code = lease.code;
        if rooms.contains_key(&code) {
            return Err(LobbyError::internal(format!(
                "room {code} is claimed twice"
            )));
        }
        let instance = self.inner.next_instance.fetch_add(1, Ordering::Relaxed);
        let rng_seed = room_rng_seed(self.inner.config.room_seed, instance)
            .map_err(|e| LobbyError::internal(format!("no room seed: {e}")))?;
        let (tx, rx) = mpsc::channel(self.inner.config.room_queue.max(1));
        let handle = RoomHandle::new(code, tx);
        let creator = Some(create.host.id);
        let client = create.client;
        // Every log line of the room task carries the room code. The span
        // has no parent: the room outlives, and is not part of, the
        // connection that created it.
        let span = info_span!(parent: None, "room", code = %code);
        let core = span.in_scope(|| {
            RoomCore::new(
                RoomSetup {
                    code,
                    capacity: create.seats,
                    listed: create.listed,
                    host: create.host,
                    conn: create.conn.as_ref().map(Connection::id),
                    request: create.request,
                    verbose: create.verbose,
                    role: create.role,
                    others: create.others,
                    fixed_host: create.fixed_host,
                    rated: create.rated,
                    matched: create.matched,
                    clock: create.clock,
                    config: self.inner.config.room(),
                },
                rng_seed,
                tokio::time::Instant::now().into_std(),
            )
        });
        let occupancy = Arc::new(Occupancy::default());
        let (driver, summary) = Driver::new(
            core,
            create.conn.into_iter().collect(),
            self.inner.persistence.clone(),
            (self.inner.stats.clone(), occupancy.clone()),
        );
        rooms.insert(
            code,
            RoomEntry {
                handle: handle.clone(),
                creator,
                client,
                instance,
                lease,
                listed: create.listed,
                rated: create.rated,
                summary,
                occupancy,
            },
        );
        drop(rooms);
        self.spawn((code, instance, lease), driver, rx, span);
        Ok(handle)
    }

    /// Puts a game that was running when the server stopped back into a
    /// room with its code, its players' seats waiting for them: a player who
    /// resumes their session is back in the game at once. Restored games do
    /// not count against `max_rooms`.
    pub async fn restore(&self, restored: RestoredGame) -> Result<RoomHandle, RestoreError> {
        let code = restored.code;
        if restored.players.len() != usize::from(restored.game.players()) {
            return Err(RestoreError::Seats {
                players: restored.game.players(),
                seats: restored.players.len(),
            });
        }
        let lease = match self
            .inner
            .directory
            .claim(code, self.inner.config.node)
            .await
        {
            Ok(lease) => lease,
            Err(DirectoryError::Taken(_)) => return Err(RestoreError::CodeInUse(code.to_string())),
            Err(e) => return Err(RestoreError::Directory(e.to_string())),
        };
        let made = self.install_restored(restored, lease);
        if made.is_err() {
            self.inner.directory.release(lease).await;
        }
        made
    }

    /// Puts `restored` into a room under the code `lease` holds.
    fn install_restored(
        &self,
        restored: RestoredGame,
        lease: Lease,
    ) -> Result<RoomHandle, RestoreError> {
        let code = restored.code;
        let sessions: Vec<_> = restored.players.iter().map(|p| p.id).collect();
        let listed = restored.listed;
        let rated = restored.rated;
        let mut rooms = self.inner.rooms();
        if rooms.contains_key(&code) {
            return Err(RestoreError::CodeInUse(code.to_string()));
        }
        let instance = self.inner.next_instance.fetch_add(1, Ordering::Relaxed);
        let rng_seed = room_rng_seed(self.inner.config.room_seed, instance)
            .map_err(|e| RestoreError::Random(e.0))?;
        let (tx, rx) = mpsc::channel(self.inner.config.room_queue.max(1));
        let handle = RoomHandle::new(code, tx);
        let span = info_span!("room", code = %code);
        let core = span.in_scope(|| {
            RoomCore::restored(
                restored,
                self.inner.config.room(),
                rng_seed,
                tokio::time::Instant::now().into_std(),
            )
        });
        let occupancy = Arc::new(Occupancy::default());
        let (driver, summary) = Driver::new(
            core,
            Vec::new(),
            self.inner.persistence.clone(),
            (self.inner.stats.clone(), occupancy.clone()),
        );
        rooms.insert(
            code,
            RoomEntry {
                handle: handle.clone(),
                creator: sessions.first().copied(),
                client: None,
                instance,
                lease,
                listed,
                rated,
                summary,
                occupancy,
            },
        );
        drop(rooms);
        for session in sessions {
            self.inner.presence.set_room(
                session,
                Some(RoomSeat {
                    code,
                    role: splendor_protocol::Role::Player,
                }),
            );
        }
        self.spawn((code, instance, lease), driver, rx, span);
        Ok(handle)
    }

    /// Runs a room's task; when it ends, the lobby forgets the room and
    /// gives its code back to the directory.
    fn spawn(
        &self,
        (code, instance, lease): (RoomCode, u64, Lease),
        driver: Driver,
        commands: mpsc::Receiver<crate::room::Command>,
        span: Span,
    ) {
        // Weak: the lobby holds handles to rooms; rooms must not keep the
        // lobby alive.
        let lobby = Arc::downgrade(&self.inner);
        tokio::spawn(
            async move {
                let closed = driver.run(commands).await;
                if let Some(lobby) = lobby.upgrade()
                    && lobby.reap(code, instance, &closed).is_some()
                {
                    lobby.directory.release(lease).await;
                }
            }
            .instrument(span),
        );
    }

    /// Where the room with this code runs: here (its handle), on another
    /// node (its lease: the seam a second node plugs into), or nowhere.
    pub async fn locate(&self, code: RoomCode) -> Location {
        if let Some(handle) = self.find_code(code) {
            return Location::Here(handle);
        }
        match self.inner.directory.lookup(code).await {
            Some(lease) if lease.node != self.inner.config.node => Location::Elsewhere(lease),
            _ => Location::Nowhere,
        }
    }

    /// The room with this code, as a person typed it.
    pub fn find(&self, code: &str) -> Result<RoomHandle, LobbyError> {
        let parsed = RoomCode::parse(code)
            .ok_or_else(|| LobbyError::MalformedCode(RoomCode::why_not(code)))?;
        self.find_code(parsed)
            .ok_or_else(|| LobbyError::RoomNotFound(parsed.to_string()))
    }

    /// The status of the open room with this code and whether it is rated,
    /// as the room last published them.
    pub(crate) fn room_status(&self, code: RoomCode) -> Option<(RoomStatus, bool)> {
        self.inner
            .rooms()
            .get(&code)
            .filter(|e| !e.handle.is_closed())
            .map(|e| (e.summary.borrow().status, e.rated))
    }

    /// The open room with this code. A room that has closed but is not
    /// reaped yet is not found.
    pub fn find_code(&self, code: RoomCode) -> Option<RoomHandle> {
        self.inner
            .rooms()
            .get(&code)
            .map(|e| e.handle.clone())
            .filter(|h| !h.is_closed())
    }

    /// The listed rooms that are waiting for players and have a free seat,
    /// by code.
    pub fn listed_rooms(&self) -> Vec<RoomSummary> {
        let mut list: Vec<RoomSummary> = self
            .inner
            .rooms()
            .values()
            .filter(|e| e.listed)
            .map(|e| e.summary.borrow().clone())
            .filter(|s| s.status == RoomStatus::Waiting && s.players < s.seats)
            .collect();
        list.sort_by(|a, b| a.code.cmp(&b.code));
        list
    }

    /// The number of open rooms.
    pub fn room_count(&self) -> usize {
        self.inner.rooms().len()
    }

    /// Open rooms by status.
    pub fn room_counts(&self) -> RoomCounts {
        let mut counts = RoomCounts::default();
        for entry in self.inner.rooms().values() {
            match entry.summary.borrow().status {
                RoomStatus::Waiting => counts.waiting += 1,
                RoomStatus::Playing => counts.playing += 1,
                RoomStatus::Finished => counts.finished += 1,
            }
            let o = &entry.occupancy;
            counts.players_seated += o.seated.load(Ordering::Relaxed);
            counts.players_connected += o.connected.load(Ordering::Relaxed);
            counts.bots += o.bots.load(Ordering::Relaxed);
            counts.spectators += o.spectators.load(Ordering::Relaxed);
        }
        counts
    }

    /// What the rooms have done since the lobby was created.
    pub fn stats(&self) -> LobbyStats {
        let stats = &self.inner.stats;
        LobbyStats {
            games_started: stats.games_started.load(Ordering::Relaxed),
            games_finished: stats.games_finished.load(Ordering::Relaxed),
            actions_applied: stats.actions_applied.load(Ordering::Relaxed),
            bot_actions: stats.bot_actions.load(Ordering::Relaxed),
            stand_in_actions: stats.stand_in_actions.load(Ordering::Relaxed),
            clock_timeouts: stats.clock_timeouts.load(Ordering::Relaxed),
            think_time: stats.pool.histogram(),
            action_latency: stats.action_latency.snapshot(),
        }
    }

    /// Waits until every room has handled the commands queued so far, so
    /// that an action in progress is durable (or refused) before the
    /// process stops. Rooms stay open.
    pub async fn drain(&self) {
        let handles: Vec<RoomHandle> = self
            .inner
            .rooms()
            .values()
            .map(|e| e.handle.clone())
            .collect();
        // A room answers a snapshot only after the commands before it; the
        // rooms are waited for side by side.
        let mut waits = tokio::task::JoinSet::new();
        for handle in handles {
            waits.spawn(async move { handle.probe().await });
        }
        while waits.join_next().await.is_some() {}
    }
}
