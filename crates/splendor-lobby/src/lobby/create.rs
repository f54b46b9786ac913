//! Making rooms: a new room, a rematch's, a quick-play game's, and a
//! game restored after a restart. Each claims its code in the room
//! directory first, then is installed in the map under it.

use crate::code::RoomCode;
use crate::conn::Connection;
use crate::directory::{DirectoryError, Lease, OpenElsewhere, OpenRoom, RoomDirectory};
use crate::error::RoomError;
use crate::presence::RoomSeat;
use crate::random;
use crate::room::clock::ClockOptions;
use crate::room::{
    Driver, DriverSetup, RematchPlan, RestoredGame, RoomCore, RoomHandle, RoomSetup,
};
use crate::session::{Session, SessionId};
use splendor_protocol::{RequestId, Role, RoomStatus, RoomSummary};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use tokio::sync::{mpsc, watch};
use tracing::{Instrument, Span, info_span};

use super::{Lobby, RoomEntry};
use crate::client::ClientKey;
use crate::room::Occupancy;

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
    /// A tutorial (issue 50): the tutor seated at once, the prepared deal.
    pub tutorial: bool,
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
    /// The first game's deal, chosen (the arena's series); else drawn.
    deal: Option<u64>,
    /// Filled by the quick-play queue, started by the gateway.
    matched: bool,
    /// A tutorial (issue 50).
    tutorial: bool,
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

impl Lobby {
    /// Creates a room with the host in its first seat and starts its task.
    /// Must be called within a tokio runtime.
    pub async fn create_room(&self, create: CreateRoom) -> Result<RoomHandle, RoomError> {
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
            tutorial,
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
            deal: self.next_series_deal(),
            tutorial,
        })
        .await
    }

    /// The next deal of the arena's series ([`crate::LobbyConfig::series_deals`]),
    /// if it gave them: the k-th room created plays the k-th deal.
    fn next_series_deal(&self) -> Option<u64> {
        let deals = self.inner.config.series_deals.as_ref()?;
        let k = self.inner.next_series_deal.fetch_add(1, Ordering::Relaxed);
        deals.get(k).copied()
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
        old: RoomCode,
        plan: RematchPlan,
    ) -> Result<RoomHandle, RoomError> {
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
                deal: None,
                tutorial: false,
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
    /// to 4 sessions, none connected yet) fill its seats, it is unlisted,
    /// rated as `rated` says, with `clock`. Their sessions are in this room from now on
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
        rated: bool,
    ) -> Result<RoomHandle, RoomError> {
        let mut players = players.into_iter();
        let host = players.next().ok_or(RoomError::InvalidSeats(0))?;
        let mut others: Vec<crate::room::seats::Member> = players
            .map(|s| crate::room::seats::Member::person(&s))
            .collect();
        let ids: Vec<SessionId> = std::iter::once(host.id)
            .chain(others.iter().map(|m| m.session()))
            .collect();
        for k in 1..=bots {
            let id = crate::session::random_session_id()
                .map_err(|e| RoomError::internal(format!("no bot id: {e}")))?;
            let name = if k == 1 {
                "Greedy bot".to_owned()
            } else {
                format!("Greedy bot {k}")
            };
            others.push(crate::room::seats::Member::bot(
                id,
                name,
                splendor_ai::Level::GREEDY,
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
                rated,
                matched: true,
                deal: None,
                tutorial: false,
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
    async fn create(&self, create: NewRoom) -> Result<RoomHandle, RoomError> {
        if !(2..=4).contains(&create.seats) {
            return Err(RoomError::InvalidSeats(create.seats));
        }
        // With several nodes the caps count the rooms on the others too
        // (what their owners last wrote in the shared database).
        let elsewhere = if self.inner.directory.fences() && !create.matched {
            self.inner
                .directory
                .open_elsewhere(
                    self.inner.config.node,
                    Some(create.host.id),
                    create.client.as_ref(),
                )
                .await
                .map_err(|e| RoomError::internal(format!("room directory: {e}")))?
        } else {
            OpenElsewhere::default()
        };
        let mut elsewhere = elsewhere;
        // A session's turn-based games parked in the store (issue 25) are
        // not in the map, and count all the same.
        if create.clock.is_some_and(|c| c.clock.is_per_move()) && !create.matched {
            elsewhere.own += self.parked_seats_of(create.host.id).await;
        }
        // And an address's parked games count in its budget of unfinished
        // rooms (issue 45: they have no room, and its sessions made new
        // ones as fast as the old ones parked).
        if let Some(client) = &create.client
            && self.inner.config.max_rooms_per_ip > 0
            && !create.matched
        {
            elsewhere.unfinished_from_client += self.parked_from(client).await;
        }
        let lease = self.claim_fresh_code().await?;
        let made = self.install(create, lease, elsewhere);
        if made.is_err() {
            self.inner.directory.release(lease).await;
        }
        made
    }

    /// A random code no room of this node uses, claimed for this node.
    async fn claim_fresh_code(&self) -> Result<Lease, RoomError> {
        loop {
            let code = RoomCode::random(random::fill)
                .map_err(|e| RoomError::internal(format!("no room code: {e}")))?;
            if self.inner.rooms().contains_key(&code) {
                continue;
            }
            // A turn-based game parked under it (issue 25) keeps its code.
            if self.is_parked(code).await {
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
                Err(e) => return Err(RoomError::internal(format!("room directory: {e}"))),
            }
        }
    }

    /// Makes the room of `create` under the code `lease` holds, within
    /// the limits.
    fn install(
        &self,
        create: NewRoom,
        lease: Lease,
        elsewhere: OpenElsewhere,
    ) -> Result<RoomHandle, RoomError> {
        let mut rooms = self.inner.rooms();
        if rooms.len() >= self.inner.config.max_rooms {
            return Err(RoomError::TooManyRooms);
        }
        // Turn-based rooms (R12.5) count apart: a player keeps many going.
        let turn_based = create.clock.is_some_and(|c| c.clock.is_per_move());
        let limit = if create.matched {
            usize::MAX
        } else if turn_based {
            self.inner.config.max_turn_based_rooms_per_session
        } else {
            self.inner.config.max_rooms_per_session
        };
        // A finished room stays for its viewing time but no longer counts:
        // a player who keeps making rematches against bots is not stopped.
        let own = rooms
            .values()
            .filter(|e| e.creator == Some(create.host.id))
            .filter(|e| e.turn_based == turn_based)
            .filter(|e| e.summary.borrow().status != RoomStatus::Finished)
            .count()
            + elsewhere.own;
        if own >= limit {
            return Err(RoomError::TooManyRoomsForSession(limit));
        }
        if let Some(client) = &create.client {
            let limit = self.inner.config.max_waiting_rooms_per_ip;
            // A room counts until its game starts (or it closes): a started
            // game has players, which is what rooms are for.
            let waiting = rooms
                .values()
                .filter(|e| e.client.as_ref() == Some(client))
                .filter(|e| e.summary.borrow().status == RoomStatus::Waiting)
                .count()
                + elsewhere.waiting_from_client;
            if waiting >= limit {
                return Err(RoomError::TooManyWaitingRoomsFromOrigin(limit));
            }
            // Every unfinished room counts too, turn-based ones included
            // (issue 45); when the server fills up, a crowded address gets
            // a quarter of its share before anyone else is refused.
            let limit = self.inner.config.max_rooms_per_ip;
            if limit > 0 && !create.matched {
                let crowded = rooms.len() * 5 >= self.inner.config.max_rooms * 4;
                let limit = if crowded { (limit / 4).max(1) } else { limit };
                let unfinished = rooms
                    .values()
                    .filter(|e| e.client.as_ref() == Some(client))
                    .filter(|e| e.summary.borrow().status != RoomStatus::Finished)
                    .count()
                    + elsewhere.unfinished_from_client;
                if unfinished >= limit {
                    return Err(RoomError::TooManyRoomsFromAddress(limit));
                }
            }
        }
        let code = lease.code;
        if rooms.contains_key(&code) {
            return Err(RoomError::internal(format!("room {code} is claimed twice")));
        }
        let instance = self.inner.next_instance.fetch_add(1, Ordering::Relaxed);
        let rng_seed = room_rng_seed(self.inner.config.room_seed, instance)
            .map_err(|e| RoomError::internal(format!("no room seed: {e}")))?;
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
                    deal: create.deal,
                    tutorial: create.tutorial,
                    clock: create.clock,
                    config: splendor_room::RoomConfig {
                        // Kept with its game if it parks (issue 45).
                        origin: client.as_ref().map(|c| c.as_str().to_owned()),
                        ..self.room_config()
                    },
                },
                rng_seed,
                tokio::time::Instant::now().into_std(),
            )
        });
        let occupancy = Arc::new(Occupancy::default());
        let (driver, summary) = Driver::new(
            core,
            create.conn.into_iter().collect(),
            DriverSetup {
                persistence: self.inner.persistence.clone(),
                fence: self.fence(&lease),
                stats: self.inner.stats.clone(),
                occupancy: occupancy.clone(),
                client: client.clone(),
            },
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
                turn_based,
                summary,
                occupancy,
            },
        );
        drop(rooms);
        self.spawn(code, instance, lease, driver, rx, span);
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
        let turn_based = restored.clock.is_some_and(|c| c.clock.is_per_move());
        let mut rooms = self.inner.rooms();
        // A room of the code that closed but is not reaped yet (a parked
        // game's, issue 25) gives way; its reaping checks the instance.
        if rooms.get(&code).is_some_and(|e| !e.handle.is_closed()) {
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
                self.room_config(),
                rng_seed,
                tokio::time::Instant::now().into_std(),
            )
        });
        let occupancy = Arc::new(Occupancy::default());
        let (driver, summary) = Driver::new(
            core,
            Vec::new(),
            DriverSetup {
                persistence: self.inner.persistence.clone(),
                fence: self.fence(&lease),
                stats: self.inner.stats.clone(),
                occupancy: occupancy.clone(),
                client: None,
            },
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
                turn_based,
                summary,
                occupancy,
            },
        );
        drop(rooms);
        for session in sessions {
            match self.inner.presence.room_of(session) {
                // In another room now (a parked game loaded, issue 25, or
                // one taken over): the seat here is held, not current.
                Some(current) if current.code != code => self.inner.presence.hold(session, code),
                _ => self.inner.presence.set_room(
                    session,
                    Some(RoomSeat {
                        code,
                        role: splendor_protocol::Role::Player,
                    }),
                ),
            }
        }
        self.spawn(code, instance, lease, driver, rx, span);
        Ok(handle)
    }

    /// Runs a room's task; when it ends, the lobby forgets the room and
    /// gives its code back to the directory.
    fn spawn(
        &self,
        code: RoomCode,
        instance: u64,
        lease: Lease,
        driver: Driver,
        commands: mpsc::Receiver<crate::room::Command>,
        span: Span,
    ) {
        // With several nodes, what the room shows is kept where every node
        // reads it (listings, caps, the operators' view).
        if self.inner.directory.fences() {
            let open = {
                let rooms = self.inner.rooms();
                rooms
                    .get(&code)
                    .filter(|e| e.instance == instance)
                    .map(|e| {
                        let open = OpenRoom {
                            lease,
                            summary: e.summary.borrow().clone(),
                            listed: e.listed,
                            creator: e.creator,
                            client: e.client.clone(),
                        };
                        (open, e.summary.clone())
                    })
            };
            if let Some((open, summary)) = open {
                tokio::spawn(publish_open(self.inner.directory.clone(), open, summary));
            }
        }
        // Weak: the lobby holds handles to rooms; rooms must not keep the
        // lobby alive.
        let lobby = Arc::downgrade(&self.inner);
        // The driver's future is made here and boxed: a task that took the
        // driver and then made the future of it held the driver twice, and
        // one that awaits a future it took holds that future twice (3 to 6
        // KB more a room; issue 20).
        let run = Box::pin(driver.run(commands));
        tokio::spawn(
            async move {
                let closed = run.await;
                if let Some(lobby) = lobby.upgrade()
                    && lobby.reap(code, instance, &closed).is_some()
                {
                    lobby.directory.release(lease).await;
                }
            }
            .instrument(span),
        );
    }
}

/// Writes what `open` shows whenever its summary changes, until the room
/// ends (its summary's sender is dropped with the driver).
async fn publish_open(
    directory: Arc<dyn RoomDirectory>,
    mut open: OpenRoom,
    mut summary: watch::Receiver<RoomSummary>,
) {
    loop {
        open.summary = summary.borrow_and_update().clone();
        directory.publish(open.clone()).await;
        if summary.changed().await.is_err() {
            return;
        }
    }
}
