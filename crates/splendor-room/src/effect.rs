//! What comes out of a room core: plain data the driver carries out in
//! order. The core never sends, stores or closes anything itself.

use std::time::Duration;

use splendor_protocol::bot_level::Level;
use splendor_protocol::{ChatInfo, Role, RoomStatus, RoomSummary};
use splendor_replay::{Commitment, Salt};
use splendor_rules::{Action, GameResult, Options, Seat, View};

use super::input::{HintFor, Ticket, WriteId};
use crate::clock::ClockOptions;
use crate::code::RoomCode;
use crate::conn::{CloseReason, ConnId, Outgoing};
use crate::error::RoomError;
use crate::seats::Member;
use crate::session::SessionId;
use crate::write::GameId;

/// The answer to a request.
#[derive(Clone, Debug)]
pub enum Answer {
    /// A join: how the connection is in the room now.
    Joined(Joined),
    /// The last `rematch` acceptance: the gateway makes the new room.
    Rematch(RematchPlan),
    /// `Invite` may go ahead: what the room offers the invitee (issue 24).
    Invitable(splendor_protocol::social::RoomTerms),
    /// `Whois`: the person named (issue 22).
    Person(Box<crate::whois::Person>),
    /// Any other request that succeeded.
    Done,
}

/// One thing for the driver to do.
#[derive(Debug)]
pub enum Effect {
    /// Answer the request that holds `ticket`.
    Reply {
        /// The request's ticket.
        ticket: Ticket,
        /// Its outcome.
        result: Result<Answer, RoomError>,
    },
    /// Queue a message for a connection (with `try_send`: a connection that
    /// cannot take it comes back as
    /// [`DriverEvent::Undeliverable`](super::input::DriverEvent::Undeliverable)).
    Send {
        /// The connection.
        to: ConnId,
        /// The message, or its shared serialised frame.
        message: Outgoing,
    },
    /// Ask a connection to close (it was replaced by a newer one).
    Close {
        /// The connection.
        conn: ConnId,
        /// Why; decides the close code.
        reason: CloseReason,
    },
    /// The core will address this connection no more: the driver may drop
    /// it.
    Release {
        /// The connection.
        conn: ConnId,
    },
    /// Make something durable, then feed the outcome back before anything
    /// else happens in the room. The core asks for one write at a time.
    Write {
        /// Names the write in its outcome.
        id: WriteId,
        /// What to write (boxed, as `Think`: an effect is moved through
        /// the queue several times, and the queue holds the largest).
        write: Box<Write>,
    },
    /// A bot (or a stand-in, R12.2) must choose a move: the driver runs
    /// the thinking off the room's task, on the bounded pool, and feeds the
    /// move back as
    /// [`DriverEvent::BotMoved`](super::input::DriverEvent::BotMoved).
    Think(Box<Think>),
    /// What the lobby lists for this room changed.
    Listed(RoomSummary),
    /// Something to count in the lobby's statistics.
    Count(Tally),
    /// The room is closed: the driver ends, and the lobby forgets it.
    Closed(Closed),
    /// Something to tell a player who is not at the table (a turn-based
    /// room's turn, its end, its chat; issue 25): the driver hands it to
    /// the notifier, never waiting for it.
    Notify(Notice),
}

/// What a bot is given to think about: its seat's view and nothing else
/// (R6.4): never the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Think {
    /// The seat to move.
    pub seat: Seat,
    /// The state version the view is of.
    pub version: u64,
    /// How the bot plays.
    pub level: Level,
    /// `Game::view(Viewer::Seat(seat))`.
    pub view: View,
    /// The bot's random seed for this move (from the room's RNG).
    pub seed: u64,
    /// A person sits at the table: the thinking pool serves such games
    /// before games of bots only (issue 22).
    pub for_people: bool,
    /// A practice hint for the person in `seat` (issue 26), not a bot's
    /// move: its answer comes back as
    /// [`DriverEvent::HintThought`](super::input::DriverEvent::HintThought).
    pub hint: Option<HintFor>,
}

/// A durable write (splendor-lobby's `Persistence` carries it out).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Write {
    /// A new game: it exists only once this is durable.
    GameStarted(GameRecord),
    /// An accepted action, the `index`-th of the game's log.
    ActionApplied {
        /// The game.
        game: GameId,
        /// The action's place in the log (the state version it applies to).
        index: u64,
        /// Who acted.
        seat: Seat,
        /// What they did.
        action: Action,
        /// The seat's player, its bot, or the stand-in (R12.4).
        by: Mover,
        /// Every seat's clock after it, in a room with a clock (R12).
        clocks: Option<Vec<super::clock::SeatClock>>,
    },
    /// The result of a game that ended.
    GameFinished {
        /// The game.
        game: GameId,
        /// Its result.
        result: GameResult,
    },
    /// The server's operators ended the game before its end (issue 22):
    /// store `standings` as its result with no winner and `reason`,
    /// unrated.
    GameEnded {
        /// The game.
        game: GameId,
        /// The standings it stopped at.
        standings: GameResult,
        /// Why, as the operators wrote it.
        reason: String,
    },
    /// The game ended deserted (R12.6): store `result` (ranked where it
    /// stood, `end` deserted) as its result, unrated, rating nobody.
    GameDeserted {
        /// The game.
        game: GameId,
        /// Its result.
        result: GameResult,
    },
    /// Read the game's stored log (answered by
    /// [`DriverEvent::LogLoaded`](super::input::DriverEvent::LogLoaded)).
    LoadLog {
        /// The game.
        game: GameId,
    },
    /// Park a turn-based game in the store (issue 25): it waits there,
    /// with no room, until someone comes back or its turn's deadline
    /// passes.
    Park {
        /// The game.
        game: GameId,
        /// Its room.
        room: RoomCode,
        /// When the turn it waits on ends (R12.5).
        deadline: std::time::Instant,
        /// The chat the room keeps, oldest first, with each line's author
        /// (issue 23: a parked game's conversation comes back with it).
        chat: Vec<(SessionId, ChatInfo)>,
        /// The address the room was made from (issue 45:
        /// [`crate::config::RoomConfig::origin`]).
        origin: Option<String>,
    },
}

impl Write {
    /// The write's kind, for metrics and logs.
    pub fn kind(&self) -> &'static str {
        match self {
            Write::GameStarted(_) => "game_started",
            Write::ActionApplied { .. } => "action_applied",
            Write::GameFinished { .. } => "game_finished",
            Write::GameEnded { .. } => "game_ended",
            Write::GameDeserted { .. } => "game_deserted",
            Write::LoadLog { .. } => "load_log",
            Write::Park { .. } => "park",
        }
    }
}

/// Everything stored when a game starts (R2.5: enough to replay it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's id.
    pub game: GameId,
    /// The room it is played in.
    pub room: RoomCode,
    /// Secret until the game is over.
    pub seed: u64,
    /// Secret until the game is over.
    pub salt: Salt,
    /// `SHA-256(salt || seed)`, which every player receives at once.
    pub commitment: Commitment,
    /// The rules options.
    pub options: Options,
    /// The sessions in seat order.
    pub players: Vec<SessionId>,
    /// Their display names, in the same order.
    pub names: Vec<String>,
    /// The level of each seat a built-in bot holds, in the same order.
    pub bots: Vec<Option<Level>>,
    /// Whether a program plays for each seat's session, in the same order
    /// (issue 24: kept with the seats for lists and replays).
    pub programs: Vec<bool>,
    /// The room's turn clock, if any (R12).
    pub clock: Option<ClockOptions>,
    /// Whether the room is listed for strangers to join.
    pub listed: bool,
    /// Whether the game counts for its players' ratings (issue 13).
    pub rated: bool,
}

/// Counters of the lobby's statistics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tally {
    /// A game started (it is durable).
    GameStarted,
    /// An action was applied (durable; its broadcast follows).
    ActionApplied,
    /// A game reached its end.
    GameFinished,
    /// A built-in bot's move was applied.
    BotAction,
    /// A stand-in's move was applied (R12.2).
    StandInAction,
    /// A turn clock ran out (R12.2).
    ClockTimeout,
}

/// Who made a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mover {
    /// The seat's player.
    Person,
    /// The built-in bot that holds the seat.
    Bot,
    /// The stand-in, for a player out of time or away (R12.2, R12.3).
    StandIn,
    /// The seat's player, after a practice hint at that position (issue
    /// 26).
    Hinted,
}

impl Mover {
    /// The seat's player made it (with a hint or without).
    pub fn is_person(self) -> bool {
        matches!(self, Mover::Person | Mover::Hinted)
    }
}

/// Why a room closed that lives on on another node: its lease was taken
/// over, or it was handed off by a stopping node (`room_closed` says it).
pub const CLOSED_MOVED: &str = "closed-moved";

/// Why a turn-based room closed whose game waits in the store (issue 25):
/// nobody was there to be told; its sessions keep their seats, and a join
/// or the deadline's passing loads it again.
pub const CLOSED_PARKED: &str = "closed-parked";

/// Why a room closed and whose sessions it held: the lobby forgets the room
/// and clears their presence.
#[derive(Clone, Debug, PartialEq)]
pub struct Closed {
    /// Why, as told to everyone in the room.
    pub why: &'static str,
    /// Every seated player and spectator when it closed.
    pub sessions: Vec<SessionId>,
    /// The connections to tell, once the room refuses new requests.
    pub farewell: Vec<ConnId>,
    /// What they are told (`room_closed`).
    pub notice: Outgoing,
}

/// How a connection ended up in the room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Joined {
    /// Player or spectator (a seated session that joins again is a player,
    /// whatever it asked for).
    pub role: Role,
    /// The seat, for a player (join order before the start, turn order after).
    pub seat: Option<Seat>,
    /// The claim the connection holds its place by (issue 44): what it
    /// presents when it follows the room to another node.
    pub claim: u64,
}

/// A summary of a room's state, for tests and diagnostics (not a position
/// of the game: that is `splendor_rules::Snapshot`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomProbe {
    /// Waiting, playing or finished.
    pub status: RoomStatus,
    /// The state version, once the game started.
    pub version: Option<u64>,
    /// Players holding a seat, connected or not.
    pub seated: usize,
    /// Seated players with a connection.
    pub connected_players: usize,
    /// Connected spectators.
    pub spectators: usize,
}

/// Something to tell a player who is not at the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// Whom.
    pub session: SessionId,
    /// What.
    pub event: NoticeEvent,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoticeEvent {
    /// The game waits for this player; the turn's deadline is this far.
    YourTurn {
        /// What is left of the turn (R12.5).
        left: Duration,
    },
    /// The game is over.
    GameOver,
    /// A message in the room's chat, from this name.
    Chat {
        /// The author's name at the table.
        from: String,
    },
    /// This player invites the session to the room (given by the
    /// gateway, not by a room).
    Invitation {
        /// The inviter's name.
        from: String,
    },
}

impl NoticeEvent {
    /// The event's name, as settings and notifications say it.
    pub fn name(&self) -> &'static str {
        match self {
            NoticeEvent::YourTurn { .. } => "your_turn",
            NoticeEvent::GameOver => "game_over",
            NoticeEvent::Chat { .. } => "chat",
            NoticeEvent::Invitation { .. } => "invitation",
        }
    }
}

/// What the gateway needs to make the rematch room: the same seats (people
/// and bots), the same clock and listing. The caller becomes the new
/// room's host; the game starts at once, seat order drawn anew.
#[derive(Clone, Debug)]
pub struct RematchPlan {
    /// The seats apart from the caller's, people detached (they follow
    /// with `join`, or land there when they resume).
    pub others: Vec<Member>,
    /// The room's clock (R12).
    pub clock: Option<ClockOptions>,
    /// Whether the room is listed.
    pub listed: bool,
    /// Whether the game counts for the ratings.
    pub rated: bool,
}

impl RematchPlan {
    /// The sessions of the people (not bots) seated besides the caller: the
    /// gateway points their presence to the new room.
    pub fn people(&self) -> Vec<SessionId> {
        self.others
            .iter()
            .filter(|m| m.bot.is_none())
            .map(|m| m.session)
            .collect()
    }

    /// The number of seats.
    pub fn seats(&self) -> u8 {
        self.others.len() as u8 + 1
    }
}
