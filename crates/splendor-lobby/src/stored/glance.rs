//! A player's glance at one of their games in play (issue 25, "My
//! games"): who plays, whose turn it is, when the last move was made and,
//! in a turn-based room, when the turn's deadline passes. Read from the
//! store and the rules alone, so it is the same on every node and needs no
//! room in memory; it says nothing of the game's hidden parts.

use splendor_replay::{By, play_log};
use splendor_store::{StoredGame, UnixMillis};
use uuid::Uuid;

use super::{format, logged_actions, parse_options};
use crate::room::clock::ClockOptions;
use crate::session::SessionId;

/// One seat of a glanced game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlanceSeat {
    /// The name at the table.
    pub name: String,
    /// A built-in bot's level; `None` for a person.
    pub bot: Option<String>,
    /// The seat resigned (R13).
    pub resigned: bool,
}

/// The last move of a glanced game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastMove {
    /// The seat that moved.
    pub seat: u8,
    /// When it was accepted.
    pub at: UnixMillis,
    /// Who made it, when not the seat's player.
    pub by: Option<By>,
}

/// A game in play as its player sees it from afar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glance {
    /// The game's id.
    pub game: Uuid,
    /// Its room's code.
    pub room: String,
    /// The glancing session's seat.
    pub seat: u8,
    /// Every seat, in seat order.
    pub seats: Vec<GlanceSeat>,
    /// The seat the game waits for; `None` once the log ended it.
    pub to_act: Option<u8>,
    /// The number of actions played.
    pub version: u64,
    /// When the game started.
    pub started_at: UnixMillis,
    /// The last move, once there is one.
    pub last_move: Option<LastMove>,
    /// The room's clock.
    pub clock: Option<ClockOptions>,
    /// In a turn-based room (R12.5), when the deadline of the turn in
    /// progress passes: the last move's time (or the start) plus what was
    /// left of that seat's turn. A server that was down when it passed
    /// gives one more hour from its restart, which this does not know.
    pub deadline: Option<UnixMillis>,
}

impl Glance {
    /// The game waits for the glancing player.
    pub fn your_turn(&self) -> bool {
        self.to_act == Some(self.seat)
    }
}

/// `session`'s glance at `stored`; `None` when it holds no seat there.
pub fn glance(stored: &StoredGame, session: SessionId) -> Result<Option<Glance>, String> {
    let Some(seat) = stored
        .seats
        .iter()
        .find(|s| s.session_id.0 == session.0)
        .map(|s| s.seat)
    else {
        return Ok(None);
    };
    let options = parse_options(stored)?;
    let log = logged_actions(stored)?;
    let bots = splendor_rules::bot_mask(stored.seats.iter().map(|s| s.bot.is_some()));
    let mut game = splendor_rules::Game::new(stored.players, options, stored.seed)
        .map_err(|e| e.to_string())?
        .with_bots(bots);
    play_log(&mut game, &log, |_, _| {}).map_err(|e| e.to_string())?;
    let clock = stored
        .clock_json
        .as_deref()
        .map(format::parse_clock_json)
        .transpose()?;
    let to_act = game.to_act();
    let deadline = match (clock, to_act) {
        (Some(options), Some(to_act)) if options.clock.is_per_move() => {
            let last_at = super::turn_began(stored, to_act);
            let mut left = options.clock.bank();
            for action in stored.actions.iter().rev() {
                let (_, clocks) = format::parse_meta_json(action.meta_json.as_deref())?;
                if let Some(clocks) = clocks {
                    if let Some(c) = clocks.get(usize::from(to_act)) {
                        left = c.bank;
                    }
                    break;
                }
            }
            let left = i64::try_from(left.as_millis()).unwrap_or(i64::MAX);
            Some(last_at.saturating_add(left))
        }
        _ => None,
    };
    Ok(Some(Glance {
        game: stored.id,
        room: stored.room_code.clone(),
        seat,
        seats: stored
            .seats
            .iter()
            .map(|s| GlanceSeat {
                name: s.name.clone(),
                bot: s.bot.clone(),
                resigned: game.has_resigned(s.seat),
            })
            .collect(),
        to_act,
        version: log.len() as u64,
        started_at: stored.created_at,
        last_move: log.last().map(|a| LastMove {
            seat: a.seat,
            at: a.at,
            by: a.by,
        }),
        clock,
        deadline,
    }))
}
