//! Who is in a room: seated players (kept while disconnected), spectators,
//! and the host, with the lookups every request starts from. A connection
//! is known only by its id.
//!
//! A seat is held by a person (through a connection, kept while they are
//! away) or by a built-in bot ([`Member::bot`]): one [`Member`] type, so
//! that the game, the turn order, storage and the `room` message treat both
//! alike. A bot has an id of its own in place of a session, never a
//! connection, and never hosts.

use splendor_protocol::bot_level::Level;
use tracing::info;

use crate::conn::ConnId;
use crate::session::SessionId;

/// A seated player. The seat is kept while the player is disconnected.
#[derive(Clone, Debug)]
pub struct Member {
    /// The person's session, or a bot's own id.
    pub(crate) session: SessionId,
    pub(crate) name: String,
    /// `None` while disconnected; always `None` for a bot.
    pub(crate) conn: Option<ConnId>,
    /// Whether the connection asked for full states after every action.
    pub(crate) verbose: bool,
    /// `Some` when a built-in bot of this level holds the seat.
    pub(crate) bot: Option<Level>,
    /// A program plays for the session (its `Session::program`).
    pub(crate) program: bool,
}

impl Member {
    /// A person's seat, kept for them until they attach (a quick-play
    /// game's seats, filled before anyone is in the room).
    pub fn person(session: &crate::session::Session) -> Member {
        Member {
            session: session.id,
            name: session.name.clone(),
            conn: None,
            verbose: false,
            bot: None,
            program: session.program,
        }
    }

    /// The session holding the seat (a bot's own id for a bot).
    pub fn session(&self) -> SessionId {
        self.session
    }

    /// The name shown for the seat.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether a program plays for the seat's session.
    pub fn program(&self) -> bool {
        self.program
    }

    /// The level of the built-in bot holding the seat, if one does.
    pub fn bot_level(&self) -> Option<Level> {
        self.bot
    }

    /// A built-in bot's seat.
    pub fn bot(id: SessionId, name: String, level: Level) -> Member {
        Member {
            session: id,
            name,
            conn: None,
            verbose: false,
            bot: Some(level),
            program: false,
        }
    }
}

/// A spectator; a spectator whose connection ends is gone.
#[derive(Clone, Debug)]
pub(crate) struct Spectator {
    pub(crate) session: SessionId,
    pub(crate) name: String,
    pub(crate) conn: ConnId,
    /// Whether the connection asked for full states after every action.
    pub(crate) verbose: bool,
}

/// The room's people. Its fields are its own: every change goes through a
/// verb here, which keeps the invariants:
/// - before the start a seat is a slot (`None` = free) in join order; from
///   the start there is one member per game seat, in turn order, and no
///   seat is ever freed again (a player who leaves keeps it, away);
/// - the host is a person (never a bot); before the start, one who left
///   hands the role to the next person seated, unless the role is fixed
///   (a rematch room until its start);
/// - a session is seated at most once, and a connection speaks for one
///   member at most.
#[derive(Clone, Debug)]
pub(crate) struct Seats {
    seats: Vec<Option<Member>>,
    spectators: Vec<Spectator>,
    /// Who may start the game.
    host: SessionId,
    /// The host role never passes on (a rematch room until its start).
    fixed_host: bool,
    /// Sessions the operators removed: they may not come back.
    barred: Vec<SessionId>,
    /// Each seated session's newest claim on its seat (issue 44): the
    /// epoch of the room's lease under which a connection took the seat
    /// by the player's own doing (a join or a resume). A connection that
    /// only follows the room from a node that lost it presents its older
    /// claim and never takes the seat from a newer one.
    claims: std::collections::HashMap<SessionId, u64>,
}

impl Seats {
    /// The seats of a room (`slots`, in join order) and its spectators,
    /// with its host (`fixed_host`: the host stays the host whoever
    /// leaves).
    pub(crate) fn new(
        slots: Vec<Option<Member>>,
        spectators: Vec<Spectator>,
        host: SessionId,
        fixed_host: bool,
    ) -> Seats {
        Seats {
            claims: std::collections::HashMap::new(),
            seats: slots,
            spectators,
            host,
            fixed_host,
            barred: Vec::new(),
        }
    }

    /// The operators removed `session`: it may not join again.
    pub(crate) fn bar(&mut self, session: SessionId) {
        if !self.barred.contains(&session) {
            self.barred.push(session);
        }
    }

    /// Whether the operators removed `session` from the room.
    pub(crate) fn is_barred(&self, session: SessionId) -> bool {
        self.barred.contains(&session)
    }

    /// How many seats the room has.
    pub(crate) fn len(&self) -> usize {
        self.seats.len()
    }

    /// Every seat, free (`None`) or held, in seat order.
    pub(crate) fn slots(&self) -> &[Option<Member>] {
        &self.seats
    }

    /// Whoever holds `seat`.
    pub(crate) fn member(&self, seat: usize) -> Option<&Member> {
        self.seats.get(seat)?.as_ref()
    }

    /// The seated members (people and bots), in seat order.
    pub(crate) fn members(&self) -> impl Iterator<Item = &Member> {
        self.seats.iter().flatten()
    }

    /// The first free seat.
    pub(crate) fn free_seat(&self) -> Option<usize> {
        self.seats.iter().position(Option::is_none)
    }

    pub(crate) fn spectators(&self) -> &[Spectator] {
        &self.spectators
    }

    /// The spectator index of `session`, on any connection.
    pub(crate) fn spectator_of(&self, session: SessionId) -> Option<usize> {
        self.spectators.iter().position(|s| s.session == session)
    }

    pub(crate) fn is_host(&self, session: SessionId) -> bool {
        self.host == session
    }

    /// Whether the host role is fixed (a rematch room until its start).
    pub(crate) fn fixed_host(&self) -> bool {
        self.fixed_host
    }

    /// Seats `member` in the free `seat` (a person who joins, or a bot the
    /// host adds). A person takes the host role when the host neither sits
    /// nor watches (the host left before the start); a host who watches (a
    /// table of bots, the arena) stays the host.
    pub(crate) fn sit(&mut self, seat: usize, member: Member) {
        debug_assert!(self.seats[seat].is_none(), "seat {seat} is taken");
        if member.bot.is_none() && self.seat_of(self.host).is_none() && !self.host_watching() {
            self.host = member.session;
        }
        self.seats[seat] = Some(member);
    }

    /// Before the start: frees `seat` and returns who held it; a host who
    /// leaves hands the role to the next person seated.
    pub(crate) fn free(&mut self, seat: usize) -> Option<Member> {
        let member = self.seats.get_mut(seat)?.take()?;
        let next = self.seats.iter().flatten().find(|m| m.bot.is_none());
        if self.host == member.session
            && let Some(next) = next.map(|m| m.session)
        {
            self.host = next;
        }
        Some(member)
    }

    /// `conn` speaks for the member in `seat` from now on; returns the
    /// connection it replaced, if another.
    pub(crate) fn attach(&mut self, seat: usize, conn: ConnId, verbose: bool) -> Option<ConnId> {
        let member = self.seats.get_mut(seat)?.as_mut()?;
        member.verbose = verbose;
        member.conn.replace(conn).filter(|&old| old != conn)
    }

    /// The newest claim on `session`'s seat: 0 when none was made in this
    /// room's run (a room restored from its log starts with none).
    pub(crate) fn claim_of(&self, session: SessionId) -> u64 {
        self.claims.get(&session).copied().unwrap_or(0)
    }

    /// Records `claim` as `session`'s newest claim on its seat.
    pub(crate) fn claim(&mut self, session: SessionId, claim: u64) {
        let newest = self.claims.entry(session).or_insert(claim);
        *newest = (*newest).max(claim);
    }

    /// The member in `seat` is away (the seat stays); returns the
    /// connection it had.
    pub(crate) fn detach(&mut self, seat: usize) -> Option<ConnId> {
        self.seats.get_mut(seat)?.as_mut()?.conn.take()
    }

    pub(crate) fn add_spectator(&mut self, spectator: Spectator) {
        self.spectators.push(spectator);
    }

    pub(crate) fn remove_spectator(&mut self, index: usize) -> Spectator {
        self.spectators.remove(index)
    }

    /// At the start: the seats become the game's, `order[i]` the slot of
    /// game seat `i` (every slot named must be held).
    pub(crate) fn seat_in_order(&mut self, order: &[usize]) {
        let mut slots = std::mem::take(&mut self.seats);
        self.seats = order.iter().map(|&i| slots[i].take()).collect();
        debug_assert!(self.seats.iter().all(Option::is_some));
    }

    pub(crate) fn seat_of(&self, session: SessionId) -> Option<usize> {
        self.seats
            .iter()
            .position(|m| m.as_ref().is_some_and(|m| m.session == session))
    }

    /// The seat of `session` if `conn` is its current connection.
    pub(crate) fn seat_of_conn(&self, session: SessionId, conn: ConnId) -> Option<usize> {
        self.seat_of(session)
            .filter(|&i| self.seats[i].as_ref().is_some_and(|m| m.conn == Some(conn)))
    }

    /// The index of the spectator `session` on `conn`.
    pub(crate) fn spectator_of_conn(&self, session: SessionId, conn: ConnId) -> Option<usize> {
        self.spectators
            .iter()
            .position(|s| s.session == session && s.conn == conn)
    }

    /// Whether `session` speaks through `conn` in this room.
    pub(crate) fn is_attached(&self, session: SessionId, conn: ConnId) -> bool {
        self.seat_of_conn(session, conn).is_some()
            || self.spectator_of_conn(session, conn).is_some()
    }

    /// Whether the room sends anything to `conn`.
    pub(crate) fn addresses(&self, conn: ConnId) -> bool {
        self.seats.iter().flatten().any(|m| m.conn == Some(conn))
            || self.spectators.iter().any(|s| s.conn == conn)
    }

    pub(crate) fn seated(&self) -> usize {
        self.seats.iter().flatten().count()
    }

    /// Seated people (bots not counted).
    pub(crate) fn humans(&self) -> usize {
        self.seats
            .iter()
            .flatten()
            .filter(|m| m.bot.is_none())
            .count()
    }

    /// The level of the bot in `seat`, if a bot holds it.
    pub(crate) fn bot_at(&self, seat: usize) -> Option<Level> {
        self.seats.get(seat)?.as_ref()?.bot
    }

    pub(crate) fn connected_players(&self) -> usize {
        self.seats
            .iter()
            .flatten()
            .filter(|m| m.conn.is_some())
            .count()
    }

    pub(crate) fn host_name(&self) -> String {
        self.seats
            .iter()
            .flatten()
            .find(|m| m.session == self.host)
            .map(|m| m.name.clone())
            .or_else(|| {
                self.spectators
                    .iter()
                    .find(|s| s.session == self.host)
                    .map(|s| s.name.clone())
            })
            .unwrap_or_default()
    }

    /// Whether the host watches without a seat (a room of bots, say).
    pub(crate) fn host_watching(&self) -> bool {
        self.spectators.iter().any(|s| s.session == self.host)
    }

    /// Every seated player and spectator.
    pub(crate) fn sessions(&self) -> Vec<SessionId> {
        self.seats
            .iter()
            .flatten()
            .map(|m| m.session)
            .chain(self.spectators.iter().map(|s| s.session))
            .collect()
    }

    /// Before the start, a host without a connection hands the host role
    /// to the first connected player: otherwise nobody could start the
    /// game, and the room would never expire while someone waits in it.
    pub(crate) fn pass_host_if_away(&mut self) {
        if self.fixed_host {
            return;
        }
        let host_connected = self
            .seats
            .iter()
            .flatten()
            .any(|m| m.session == self.host && m.conn.is_some())
            || self.host_watching();
        if host_connected {
            return;
        }
        if let Some(next) = self.seats.iter().flatten().find(|m| m.conn.is_some()) {
            info!(session = %next.session, "host role passed on: the host is away");
            self.host = next.session;
        }
    }

    /// Marks `conn` disconnected wherever it is (a seat stays, a spectator
    /// goes). True if it was in the room.
    pub(crate) fn drop_conn(&mut self, conn: ConnId) -> bool {
        let mut dropped = false;
        for member in self.seats.iter_mut().flatten() {
            if member.conn == Some(conn) {
                member.conn = None;
                dropped = true;
            }
        }
        let before = self.spectators.len();
        self.spectators.retain(|s| s.conn != conn);
        dropped || self.spectators.len() != before
    }
}
