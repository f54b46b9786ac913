//! Making a room core: a new room from its setup, or a game restored
//! from its stored log after a restart.

use std::time::Instant;

use splendor_protocol::{RequestId, Role};
use tracing::info;
use uuid::Uuid;

use super::clock::{ClockOptions, Clocks};
use super::core::RoomCore;
use super::running::{Deal, Progress, Running};
use super::seats::{Member, Seats, Spectator};
use crate::RestoredGame;
use crate::code::RoomCode;
use crate::config::RoomConfig;
use crate::conn::ConnId;
use crate::session::{Session, SessionId};

/// Everything a new room starts from.
pub struct RoomSetup {
    /// The room's code.
    pub code: RoomCode,
    /// 2, 3 or 4 seats.
    pub capacity: u8,
    /// Whether the room is listed for strangers to join.
    pub listed: bool,
    /// The creator, who takes the first seat and is the host.
    pub host: Session,
    /// The host's connection; `None` for a rematch room, which its host
    /// joins once the old room let everyone know.
    pub conn: Option<ConnId>,
    /// Echoed by the first `room` message the host receives.
    pub request: Option<RequestId>,
    /// Whether the host's connection asked for full states after actions.
    pub verbose: bool,
    /// The room's turn clock, if any (R12).
    pub clock: Option<ClockOptions>,
    /// A player host takes the first seat; a spectator host watches (and
    /// fills the seats with bots, or waits for others).
    pub role: Role,
    /// The other seats, filled already (a rematch): people detached, bots.
    pub others: Vec<Member>,
    /// The host keeps the role while away (a rematch room: its host joins
    /// and starts it at once, and a follower who joins first must not take
    /// the role).
    pub fixed_host: bool,
    /// The game counts for the ratings (issue 13).
    pub rated: bool,
    /// Filled by the quick-play queue; started by `Request::StartMatch`.
    pub matched: bool,
    /// The first game's deal (R2.5's seed), chosen by the arena's series so
    /// that a mirrored deal is played once per seating; `None` draws it
    /// from the room's RNG, as every public room does.
    pub deal: Option<u64>,
    /// A tutorial (issue 50): the tutor is seated at once in the second
    /// seat, and the game is the prepared deal (`tutorial.rs`).
    pub tutorial: bool,
    /// The room's settings.
    pub config: RoomConfig,
}

impl RoomCore {
    /// A new room with its host seated; its first effects tell the host.
    pub fn new(setup: RoomSetup, rng_seed: [u8; 32], now: Instant) -> RoomCore {
        let mut seats: Vec<Option<Member>> = (0..setup.capacity).map(|_| None).collect();
        let mut spectators = Vec::new();
        match setup.role {
            Role::Player => {
                seats[0] = Some(Member {
                    session: setup.host.id,
                    name: setup.host.name,
                    conn: setup.conn,
                    verbose: setup.verbose,
                    bot: None,
                    program: setup.host.program,
                });
            }
            Role::Spectator => spectators.extend(setup.conn.map(|conn| Spectator {
                session: setup.host.id,
                name: setup.host.name,
                conn,
                verbose: setup.verbose,
            })),
        }
        let free = seats.iter_mut().filter(|s| s.is_none());
        for (slot, member) in free.zip(setup.others) {
            *slot = Some(member);
        }
        let people = Seats::new(seats, spectators, setup.host.id, setup.fixed_host);
        let mut core = RoomCore::with(
            setup.code,
            setup.listed,
            people,
            None,
            setup.config,
            rng_seed,
            now,
        );
        core.clock = setup.clock;
        core.rated = setup.rated;
        core.matched = setup.matched;
        core.first_deal = setup.deal;
        if setup.tutorial {
            core.seat_tutor();
        }
        info!(
            listed = core.listed,
            rated = core.rated,
            seats = setup.capacity,
            "room created"
        );
        core.broadcast_room(setup.conn.map(|conn| (conn, setup.request)));
        core.after_input(now);
        core
    }

    /// A room for a game that was running when the server stopped: every
    /// seat is taken and disconnected, the first seat is the host, and the
    /// room is not listed.
    pub fn restored(
        restored: RestoredGame,
        config: RoomConfig,
        rng_seed: [u8; 32],
        now: Instant,
    ) -> RoomCore {
        let RestoredGame {
            id,
            code,
            seed,
            salt,
            options,
            players,
            bots,
            clock,
            clocks,
            stand_in_actions,
            finished_ago,
            listed,
            rated,
            history,
            game,
            version,
            chat,
        } = restored;
        let names: Vec<String> = players.iter().map(|p| p.name.clone()).collect();
        // The first person seated hosts (a restored room always has seats;
        // the fallback is never used).
        let host = players
            .iter()
            .enumerate()
            .find(|(i, _)| bots.get(*i).copied().flatten().is_none())
            .or(players.iter().enumerate().next())
            .map_or(SessionId(Uuid::nil()), |(_, p)| p.id);
        let seats = players
            .into_iter()
            .enumerate()
            .map(|(i, p)| {
                Some(Member {
                    session: p.id,
                    name: p.name,
                    conn: None,
                    verbose: false,
                    bot: bots.get(i).copied().flatten(),
                    program: p.program,
                })
            })
            .collect();
        let people = Seats::new(seats, Vec::new(), host, false);
        let clocks = clock.map(|options| {
            let bots = bots.iter().map(Option::is_some).collect();
            match clocks {
                Some(seats) => Clocks::restored(options, bots, seats),
                None => Clocks::new(options, bots),
            }
            .with_min_grace(config.min_grace)
            .after_restart()
        });
        let finished_at = now
            .checked_sub(finished_ago.unwrap_or_default())
            .unwrap_or(now);
        let deal = Deal {
            id,
            game,
            seed,
            options,
            salt,
            names,
        };
        let progress = Progress {
            version,
            history,
            stand_in_actions,
        };
        let running = Running::restored(deal, progress, clocks, Some(finished_at));
        let mut core = RoomCore::with(code, listed, people, Some(running), config, rng_seed, now);
        core.clock = clock;
        core.rated = rated;
        core.keep_chat(chat);
        info!(listed = core.listed, rated, status = ?core.status(), "room restored");
        core.notified_so_far();
        core.after_input(now);
        core
    }
}
