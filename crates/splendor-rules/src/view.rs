//! [`Game::view`]: the only place a viewer's view of a game is produced (R6.4).

use crate::data::{CARDS, NOBLES};
use crate::game::{Game, NONE, SeatState};
use crate::{CardId, Level, NobleId, Phase, ReservedView, Seat, SeatView, View, Viewer};

impl Game {
    /// Whether `seat` holds a card it reserved blind from a deck: the only
    /// thing a seat sees that a spectator does not (R6.4). A seat without
    /// one sees the game exactly as a spectator does (a seat that does not
    /// exist has none).
    pub fn has_blind_reserve(&self, seat: Seat) -> bool {
        seat < self.players && {
            let st = &self.seats[seat as usize];
            (0..st.reserved().len()).any(|i| st.is_blind(i))
        }
    }

    /// What `viewer` may see of one seat's holdings (R6.4): the seat's
    /// entry of [`Game::view`], without the rest of the view. Its own
    /// blind reserves in full for the seat itself, as their level only for
    /// anyone else. `None` for a seat that does not exist.
    pub fn seat_view(&self, seat: Seat, viewer: Viewer) -> Option<SeatView> {
        if seat >= self.players {
            return None;
        }
        let st = &self.seats[seat as usize];
        let owner = viewer == Viewer::Seat(seat);
        Some(SeatView {
            tokens: st.tokens,
            bonuses: st.bonuses,
            points: st.points,
            purchased: st.purchased_cards().collect(),
            nobles: st.noble_ids().collect(),
            reserved: st
                .reserved()
                .iter()
                .enumerate()
                .map(|(i, &card)| {
                    let blind = st.is_blind(i);
                    if blind && !owner {
                        ReservedView::Hidden {
                            level: crate::card(CardId(card)).map_or(Level(0), |c| c.level),
                        }
                    } else {
                        ReservedView::Card {
                            card: CardId(card),
                            from_deck: blind,
                        }
                    }
                })
                .collect(),
        })
    }

    /// What `viewer` may see (R6.4): all public state; the viewer's own
    /// reserved cards in full; other seats' blind reserves as their level
    /// only; face-up reserves in full; deck sizes but never their order.
    /// A seat number that does not exist sees what a spectator sees.
    pub fn view(&self, viewer: Viewer) -> View {
        let seats = (0..self.players)
            .filter_map(|seat| self.seat_view(seat, viewer))
            .collect();
        let noble_choices = match self.phase {
            Phase::ChooseNoble { seat } => {
                let q = self.qualifying_nobles(seat as usize);
                (0..10u8)
                    .filter(|&n| q & (1 << n) != 0)
                    .map(NobleId)
                    .collect()
            }
            _ => Vec::new(),
        };
        View {
            players: self.players,
            first_seat: self.first_seat,
            phase: self.phase,
            turn: self.turn,
            passes: self.passes,
            idle_rounds: self.idle_rounds,
            round_progress: self.round_progress,
            no_progress_rule: self.rulings.no_progress(),
            supply: self.supply,
            face_up: self
                .face_up
                .map(|row| row.map(|c| (c != NONE).then_some(CardId(c)))),
            deck_sizes: self.deck_len,
            nobles: self.nobles[..self.noble_count as usize]
                .iter()
                .filter(|&&n| self.nobles_left & (1 << n) != 0)
                .map(|&n| NobleId(n))
                .collect(),
            seats,
            noble_choices,
            end_triggered: self.end_triggered,
            resigned: self.resigned(),
            result: self.result(),
        }
    }
}

impl SeatState {
    /// The cards the seat bought, in id order.
    pub(crate) fn purchased_cards(&self) -> impl Iterator<Item = CardId> + use<> {
        let bits = self.purchased;
        (0..CARDS.len() as u8)
            .filter(move |&c| bits & (1 << c) != 0)
            .map(CardId)
    }

    /// The nobles that visited the seat, in id order.
    pub(crate) fn noble_ids(&self) -> impl Iterator<Item = NobleId> + use<> {
        let bits = self.nobles;
        (0..NOBLES.len() as u8)
            .filter(move |&n| bits & (1 << n) != 0)
            .map(NobleId)
    }
}
