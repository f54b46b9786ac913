//! What an accepted action did, as events (R11.2), and how each viewer
//! may see them (R6.4: another seat's blind reserve is only its level).

use crate::{CardId, Level, NobleId, Seat, Tokens, Viewer};

/// Something that happened, in order, as a consequence of an action.
/// `redact_for` hides what a viewer may not see (R6.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Event {
    /// R4, R5: `seat` took `tokens` from the supply.
    TookTokens {
        /// The seat that took them.
        seat: Seat,
        /// The tokens taken.
        tokens: Tokens,
    },
    /// `card` is `None` in the redacted form of a blind reserve.
    Reserved {
        /// The seat that reserved the card (R6).
        seat: Seat,
        /// The level of the card, which everyone may see (R6.4).
        level: Level,
        /// The card; `None` for another seat's blind reserve (R6.4).
        card: Option<CardId>,
        /// Whether it was the top card of a deck, reserved blind (R6.1).
        from_deck: bool,
        /// Whether a gold token came with it (R6.3).
        gold: bool,
    },
    /// R7: `seat` bought `card`, paying `paid`.
    Bought {
        /// The buyer.
        seat: Seat,
        /// The card bought, now in the buyer's tableau (R7.5).
        card: CardId,
        /// The tokens paid, gold included; they went back to the supply (R7.4).
        paid: Tokens,
    },
    /// R7A: a face-up slot was refilled from the deck.
    Dealt {
        /// The level of the slot and of the deck.
        level: Level,
        /// The face-up slot refilled, 0 to 3.
        slot: u8,
        /// The card now face-up in that slot.
        card: CardId,
    },
    /// R8.1: `seat` returned `tokens` to the supply.
    ReturnedTokens {
        /// The seat that returned them.
        seat: Seat,
        /// The tokens returned.
        tokens: Tokens,
    },
    /// R9: `noble` visited `seat`.
    NobleVisited {
        /// The seat visited.
        seat: Seat,
        /// The noble, now the seat's (3 points, R9.4).
        noble: NobleId,
    },
    /// R11.1: `seat` passed.
    Passed {
        /// The seat that passed.
        seat: Seat,
    },
    /// R13.1: `seat` resigned; the stand-in plays it from now on (R13.2)
    /// unless the game ends at once ([`Event::GameOver`] follows).
    Resigned {
        /// The seat that resigned.
        seat: Seat,
    },
    /// R10.1: `seat` reached 15 points; the round is finished.
    EndTriggered {
        /// The seat that reached 15 points.
        seat: Seat,
    },
    /// R10.2, R11.2: the game is over; [`Game::result`](crate::Game::result) has the ranking.
    GameOver,
}

impl Event {
    /// The form of this event that `viewer` may see (R6.4).
    pub fn redact_for(&self, viewer: Viewer) -> Event {
        match *self {
            Event::Reserved {
                seat,
                level,
                card: Some(_),
                from_deck: true,
                gold,
            } if viewer != Viewer::Seat(seat) => Event::Reserved {
                seat,
                level,
                card: None,
                from_deck: true,
                gold,
            },
            other => other,
        }
    }
}

/// Up to this many events follow one action.
pub const MAX_EVENTS: usize = 8;

/// The events of one accepted action, in order (fixed capacity, no allocation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Events {
    len: u8,
    items: [Event; MAX_EVENTS],
}

impl Default for Events {
    fn default() -> Self {
        Events {
            len: 0,
            // Filler beyond `len`; never observed.
            items: [Event::GameOver; MAX_EVENTS],
        }
    }
}

impl Events {
    /// The events, in the order they happened.
    pub fn as_slice(&self) -> &[Event] {
        &self.items[..self.len as usize]
    }
    /// An iterator over the events, in the order they happened.
    pub fn iter(&self) -> std::slice::Iter<'_, Event> {
        self.as_slice().iter()
    }
    /// How many events there are.
    pub fn len(&self) -> usize {
        self.len as usize
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Appends an event. An action produces at most `MAX_EVENTS` (five in
    /// practice: bought, dealt, noble, end triggered, game over).
    pub(crate) fn push(&mut self, event: Event) {
        self.items[self.len as usize] = event;
        self.len += 1;
    }
}

impl<'a> IntoIterator for &'a Events {
    type Item = &'a Event;
    type IntoIter = std::slice::Iter<'a, Event>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
