//! R13: resigning. A player may resign at any moment (R13.1); the game
//! ends at once when the players left in play are one person or only bots
//! (R13.2), else the stand-in plays the resigned seat to the end (the
//! server's business: for the rules the seat plays on like any other),
//! and the resigned rank below everyone still in play, a later resignation
//! above an earlier one, whatever they score.

use crate::game::Game;
use crate::reject::Reject;
use crate::{Event, Events, Seat};

/// The bit mask of [`Game::with_bots`] from one flag per seat, in seat
/// order: true where a built-in bot holds the seat.
pub fn bot_mask(bots: impl IntoIterator<Item = bool>) -> u8 {
    bots.into_iter()
        .take(4)
        .enumerate()
        .filter(|&(_, bot)| bot)
        .fold(0, |mask, (seat, _)| mask | 1 << seat)
}

impl Game {
    /// The same game with `bots` (a bit per seat: bit `i` for seat `i`)
    /// held by built-in bots, which R13.2 counts apart from people. Set
    /// once, at the start, wherever the game is dealt or replayed.
    pub fn with_bots(mut self, bots: u8) -> Game {
        self.bots = bots & ((1u8 << self.players) - 1);
        self
    }

    /// The seats built-in bots hold (bit `i` for seat `i`).
    pub fn bots(&self) -> u8 {
        self.bots
    }

    /// Whether `seat` resigned (R13.1).
    pub fn has_resigned(&self, seat: Seat) -> bool {
        self.resigned
            .get(usize::from(seat))
            .is_some_and(|&r| r != 0)
    }

    /// The seats that resigned, first to resign first.
    pub fn resigned(&self) -> Vec<Seat> {
        let mut seats: Vec<Seat> = (0..self.players)
            .filter(|&s| self.has_resigned(s))
            .collect();
        seats.sort_by_key(|&s| self.resigned[usize::from(s)]);
        seats
    }

    /// R13.1: `seat` resigns (the game is running; checked by the caller).
    pub(crate) fn resign(&mut self, seat: Seat) -> Result<Events, Reject> {
        if self.has_resigned(seat) {
            return Err(Reject::AlreadyResigned);
        }
        let order = self.resigned.iter().filter(|&&r| r != 0).count() as u8 + 1;
        self.resigned[usize::from(seat)] = order;
        let mut events = Events::default();
        events.push(Event::Resigned { seat });
        // R13.2: one person left in play (with or without bots), or only
        // bots: the game ends at once, on the position as it stands.
        let people_in_play = (0..self.players)
            .filter(|&s| !self.has_resigned(s) && self.bots & (1 << s) == 0)
            .count();
        if people_in_play <= 1 {
            self.game_over(crate::End::Resigned, &mut events);
        }
        Ok(events)
    }
}
