//! Applying an accepted action: every check runs before the first change
//! (R11.3), then the tokens, cards and nobles move (R4 to R9) and the turn
//! closes (R10). The checks themselves are in game.rs.

// Colour-indexed loops walk several parallel `[_; 5]` arrays at once.
#![allow(clippy::needless_range_loop)]

use crate::data::CARDS;
use crate::game::*;
use crate::reject::Reject;
use crate::{Action, CardId, Event, Events, Level, NobleId, Phase, Seat, Tokens};

impl Game {
    pub(crate) fn try_apply(&mut self, seat: Seat, action: Action) -> Result<Events, Reject> {
        if seat >= self.players {
            return Err(Reject::UnknownSeat(seat));
        }
        let to_act = match self.to_act() {
            Some(s) => s,
            None => return Err(Reject::GameOver),
        };
        if action == Action::Resign {
            // R13.1: at any moment, whoever is to move.
            return self.resign(seat);
        }
        if seat != to_act {
            return Err(Reject::NotYourTurn { to_act });
        }
        let s = seat as usize;
        let mut events = Events::default();
        match (self.phase, action) {
            (Phase::Main { .. }, Action::TakeDifferent(set)) => {
                self.check_take_different(set.0)?;
                let mut taken = Tokens::default();
                for i in 0..5 {
                    if set.0 & (1 << i) != 0 {
                        taken.gems[i] = 1;
                    }
                }
                self.take(s, taken, &mut events);
            }
            (Phase::Main { .. }, Action::TakeTwo(color)) => {
                self.check_take_two(color)?;
                let mut taken = Tokens::default();
                taken.gems[color.index()] = 2;
                self.take(s, taken, &mut events);
            }
            (Phase::Main { .. }, Action::ReserveFaceUp(card)) => {
                let (level, slot) = self.check_reserve_face_up(s, card)?;
                self.passes = 0;
                self.round_progress = true;
                let gold = self.reserve(s, card.0, false);
                events.push(Event::Reserved {
                    seat,
                    level: Level(level as u8 + 1),
                    card: Some(card),
                    from_deck: false,
                    gold,
                });
                self.refill(level, slot, &mut events);
                self.end_of_main_action(s, &mut events);
            }
            (Phase::Main { .. }, Action::ReserveFromDeck(level)) => {
                let l = self.check_reserve_from_deck(s, level.0)?;
                self.passes = 0;
                self.round_progress = true;
                self.deck_len[l] -= 1;
                let card = self.decks[l][self.deck_len[l] as usize];
                let gold = self.reserve(s, card, true);
                events.push(Event::Reserved {
                    seat,
                    level,
                    card: Some(CardId(card)),
                    from_deck: true,
                    gold,
                });
                self.end_of_main_action(s, &mut events);
            }
            (Phase::Main { .. }, Action::Buy { card, gold }) => {
                let source = self.locate_buyable(s, card)?;
                let paid = match gold {
                    None => self.default_payment(s, card.0)?,
                    Some(gold) => self.explicit_payment(s, card.0, gold)?,
                };
                self.passes = 0;
                self.round_progress = true;
                // R7.4: the payment goes back to the supply.
                let st = &mut self.seats[s];
                for i in 0..5 {
                    st.tokens.gems[i] -= paid.gems[i];
                    self.supply.gems[i] += paid.gems[i];
                }
                st.tokens.gold -= paid.gold;
                self.supply.gold += paid.gold;
                // R7.5: the card joins the tableau.
                st.add_purchase(&CARDS[card.0 as usize]);
                events.push(Event::Bought { seat, card, paid });
                match source {
                    BuySource::FaceUp { level, slot } => self.refill(level, slot, &mut events),
                    BuySource::Reserve { index } => self.seats[s].remove_reserved(index),
                }
                self.end_of_main_action(s, &mut events);
            }
            (Phase::Main { .. }, Action::Pass) => {
                if self.has_main_action(s) {
                    return Err(Reject::PassNotAllowed);
                }
                self.passes += 1;
                events.push(Event::Passed { seat });
                self.end_of_main_action(s, &mut events);
            }
            (Phase::ReturnTokens { count, .. }, Action::ReturnTokens(tokens)) => {
                self.check_return(s, count, tokens)?;
                let st = &mut self.seats[s];
                for i in 0..5 {
                    st.tokens.gems[i] -= tokens.gems[i];
                    self.supply.gems[i] += tokens.gems[i];
                }
                st.tokens.gold -= tokens.gold;
                self.supply.gold += tokens.gold;
                events.push(Event::ReturnedTokens { seat, tokens });
                self.nobles_step(s, &mut events);
            }
            (Phase::ChooseNoble { .. }, Action::ChooseNoble(noble)) => {
                self.check_noble(s, noble.0)?;
                self.visit(s, noble.0 as usize, &mut events);
                self.close_turn(s, &mut events);
            }
            (phase, _) => return Err(Reject::WrongPhase(phase)),
        }
        Ok(events)
    }

    /// R4/R5: move `taken` from the supply to the seat.
    fn take(&mut self, seat: usize, taken: Tokens, events: &mut Events) {
        self.passes = 0;
        for i in 0..5 {
            self.supply.gems[i] -= taken.gems[i];
            self.seats[seat].tokens.gems[i] += taken.gems[i];
        }
        events.push(Event::TookTokens {
            seat: seat as Seat,
            tokens: taken,
        });
        self.end_of_main_action(seat, events);
    }

    /// R6.2, R6.3: add `card` to the seat's reserve and give a gold if any
    /// is left. Returns whether a gold was given.
    fn reserve(&mut self, seat: usize, card: u8, blind: bool) -> bool {
        let st = &mut self.seats[seat];
        let index = st.reserved_len as usize;
        st.reserved[index] = card;
        st.reserved_len += 1;
        if blind {
            st.blind |= 1 << index;
        }
        let gold = self.supply.gold > 0;
        if gold {
            self.supply.gold -= 1;
            st.tokens.gold += 1;
        }
        gold
    }

    /// R7A: refill an emptied face-up slot from the top of its deck, or
    /// leave it empty when the deck is.
    fn refill(&mut self, level: usize, slot: usize, events: &mut Events) {
        if self.deck_len[level] == 0 {
            self.face_up[level][slot] = NONE;
            return;
        }
        self.deck_len[level] -= 1;
        let card = self.decks[level][self.deck_len[level] as usize];
        self.face_up[level][slot] = card;
        events.push(Event::Dealt {
            level: Level(level as u8 + 1),
            slot: slot as u8,
            card: CardId(card),
        });
    }

    /// R8 after a main action: above 10 tokens, the seat must return some
    /// before anything else happens; otherwise on to the nobles.
    fn end_of_main_action(&mut self, seat: usize, events: &mut Events) {
        let total = self.seats[seat].tokens.total();
        if total > TOKEN_LIMIT {
            self.phase = Phase::ReturnTokens {
                seat: seat as Seat,
                count: (total - TOKEN_LIMIT) as u8,
            };
            return;
        }
        self.nobles_step(seat, events);
    }

    /// R9: one qualifying noble visits at once; several make the seat choose.
    fn nobles_step(&mut self, seat: usize, events: &mut Events) {
        let qualifying = self.qualifying_nobles(seat);
        if qualifying.count_ones() > 1 {
            self.phase = Phase::ChooseNoble { seat: seat as Seat };
            return;
        }
        if qualifying != 0 {
            self.visit(seat, qualifying.trailing_zeros() as usize, events);
        }
        self.close_turn(seat, events);
    }

    /// R9.2, R9.4: the noble leaves the table for the seat's tableau.
    fn visit(&mut self, seat: usize, noble: usize, events: &mut Events) {
        self.nobles_left &= !(1 << noble);
        self.seats[seat].add_noble(noble);
        events.push(Event::NobleVisited {
            seat: seat as Seat,
            noble: NobleId(noble as u8),
        });
    }

    /// R10, R11.2 and R11.6 at the end of a turn, then the next seat.
    fn close_turn(&mut self, seat: usize, events: &mut Events) {
        // Saturating: a hand-built snapshot may start anywhere.
        self.turn = self.turn.saturating_add(1);
        if !self.end_triggered && self.seats[seat].points >= WINNING_POINTS {
            self.end_triggered = true;
            events.push(Event::EndTriggered { seat: seat as Seat });
        }
        let round_over = seat as Seat == self.last_seat();
        if round_over && self.rulings.no_progress() {
            // R11.6: a round counts when none of its turns bought or
            // reserved a card (returns and visits are part of the turns).
            self.idle_rounds = if self.round_progress {
                0
            } else {
                self.idle_rounds.saturating_add(1)
            };
            self.round_progress = false;
        }
        if self.end_triggered && round_over {
            // R10.2: every seat has had the same number of turns.
            self.game_over(crate::End::Points, events);
        } else if self.passes >= self.players {
            // R11.2: a full round of passes.
            self.game_over(crate::End::Deadlock, events);
        } else if round_over && self.idle_rounds >= NO_PROGRESS_ROUNDS {
            // R11.6: the 25th round in a row without progress ends it.
            self.game_over(crate::End::NoProgress, events);
        } else {
            self.phase = Phase::Main {
                seat: (seat as Seat + 1) % self.players,
            };
        }
    }

    pub(crate) fn game_over(&mut self, end: crate::End, events: &mut Events) {
        self.phase = Phase::GameOver;
        self.ended = Some(end);
        events.push(Event::GameOver);
    }
}
