//! A rules `View`, its events and its result, translated into their wire
//! form (`state.rs`).
//!
//! Everything here is a translation of what the rules crate already decided
//! the viewer may see (`Game::view`, `Event::redact_for`): this module adds
//! card details and names, never information. A card travels with its
//! details (level, bonus, points, cost) so a person can read the state
//! without the card table at hand.

use splendor_rules::{
    CardId, Color, Event, GameResult, Level, NobleId, Phase, ReservedView, Seat, SeatView, View,
};

use crate::action::WireAction;
use crate::state::{
    CardInfo, LevelRow, NobleInfo, PhaseName, PlayerInfo, RankInfo, ReservedInfo, ResultInfo,
    Reveal, StateInfo, WireEvent,
};
use crate::tokens::GemCounts;

/// The details of card `id`. Ids come from the rules crate, so an unknown
/// one is a bug; it still yields a recognisable placeholder rather than a panic.
pub fn card_info(id: CardId) -> CardInfo {
    match splendor_rules::card(id) {
        Some(c) => CardInfo {
            id,
            level: c.level,
            bonus: c.bonus,
            points: c.points,
            cost: c.cost.into(),
        },
        None => CardInfo {
            id,
            level: Level(0),
            bonus: Color::White,
            points: 0,
            cost: GemCounts::default(),
        },
    }
}

/// The details of noble `id` (see [`card_info`] on unknown ids).
pub fn noble_info(id: NobleId) -> NobleInfo {
    match splendor_rules::noble(id) {
        Some(n) => NobleInfo {
            id,
            points: n.points,
            requires: n.requires.into(),
        },
        None => NobleInfo {
            id,
            points: 0,
            requires: GemCounts::default(),
        },
    }
}

/// The wire form of one event, which the caller has already redacted for
/// the receiving viewer with `Event::redact_for`.
pub fn wire_event(event: &Event) -> WireEvent {
    match *event {
        Event::TookTokens { seat, tokens } => WireEvent::TookTokens {
            seat,
            tokens: tokens.into(),
        },
        Event::Reserved {
            seat,
            level,
            card,
            from_deck,
            gold,
        } => WireEvent::Reserved {
            seat,
            level,
            from_deck,
            gold,
            card: card.map(card_info),
        },
        Event::Bought { seat, card, paid } => WireEvent::Bought {
            seat,
            card: card_info(card),
            paid: paid.into(),
        },
        Event::Dealt { level, slot, card } => WireEvent::Dealt {
            level,
            slot,
            card: card_info(card),
        },
        Event::ReturnedTokens { seat, tokens } => WireEvent::ReturnedTokens {
            seat,
            tokens: tokens.into(),
        },
        Event::NobleVisited { seat, noble } => WireEvent::NobleVisited {
            seat,
            noble: noble_info(noble),
        },
        Event::Passed { seat } => WireEvent::Passed { seat },
        Event::Resigned { seat } => WireEvent::Resigned { seat },
        Event::EndTriggered { seat } => WireEvent::EndTriggered { seat },
        Event::GameOver => WireEvent::GameOver,
    }
}

pub(crate) fn reserved_info(r: &ReservedView) -> ReservedInfo {
    match *r {
        ReservedView::Card { card, from_deck } => {
            let info = card_info(card);
            ReservedInfo {
                level: info.level,
                from_deck,
                card: Some(info),
            }
        }
        ReservedView::Hidden { level } => ReservedInfo {
            level,
            from_deck: true,
            card: None,
        },
    }
}

fn player_info(seat: Seat, view: &SeatView, name: &str) -> PlayerInfo {
    PlayerInfo {
        seat,
        name: name.to_owned(),
        points: view.points,
        tokens: view.tokens.into(),
        bonuses: view.bonuses.into(),
        cards: view.purchased.iter().copied().map(card_info).collect(),
        nobles: view.nobles.iter().copied().map(noble_info).collect(),
        reserved: view.reserved.iter().map(reserved_info).collect(),
    }
}

/// The inputs of a `state` message besides the view itself.
pub struct StateContext<'a> {
    /// The room code.
    pub room: &'a str,
    /// The game's id.
    pub game: &'a str,
    /// The commitment to the game's seed, in hexadecimal.
    pub commitment: &'a str,
    /// The state version: the number of actions applied so far.
    pub version: u64,
    /// The receiver's seat, `None` for a spectator.
    pub you: Option<Seat>,
    /// Player names by seat.
    pub names: &'a [String],
    /// The legal actions, for the receiver who must act only.
    pub legal_actions: Option<Vec<WireAction>>,
    /// Each seat's clock as of the message, in a room with a clock (R12).
    pub clocks: Option<Vec<crate::state::ClockInfo>>,
}

/// The phase's name, who must act, and how many tokens go back (R8).
pub(crate) fn phase_of(view: &View) -> (PhaseName, Option<Seat>, Option<u8>) {
    match view.phase {
        Phase::Main { seat } => (PhaseName::Main, Some(seat), None),
        Phase::ReturnTokens { seat, count } => (PhaseName::ReturnTokens, Some(seat), Some(count)),
        Phase::ChooseNoble { seat } => (PhaseName::ChooseNoble, Some(seat), None),
        Phase::GameOver => (PhaseName::GameOver, None, None),
    }
}

/// The `state` message for a view the rules crate produced for this receiver.
pub fn state_info(view: &View, ctx: StateContext<'_>) -> StateInfo {
    let (phase, to_act, return_count) = phase_of(view);
    let name = |seat: usize| ctx.names.get(seat).map_or("", String::as_str);
    StateInfo {
        id: None,
        lean: false,
        room: ctx.room.to_owned(),
        game: ctx.game.to_owned(),
        commitment: ctx.commitment.to_owned(),
        version: ctx.version,
        you: ctx.you,
        phase,
        to_act,
        return_count,
        noble_choices: view.noble_choices.iter().copied().map(noble_info).collect(),
        first_seat: view.first_seat,
        turn: view.turn,
        supply: view.supply.into(),
        levels: (0..3)
            .map(|i| LevelRow {
                level: Level(i as u8 + 1),
                deck: view.deck_sizes[i],
                cards: view.face_up[i].iter().map(|c| c.map(card_info)).collect(),
            })
            .collect(),
        nobles: view.nobles.iter().copied().map(noble_info).collect(),
        players: view
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| player_info(i as Seat, s, name(i)))
            .collect(),
        end_triggered: view.end_triggered,
        resigned: view.resigned.clone(),
        legal_actions: ctx.legal_actions,
        clocks: ctx.clocks,
    }
}

/// The `result` message for a finished game, which reveals its seed.
pub fn result_info(
    room: &str,
    result: &GameResult,
    names: &[String],
    game: &str,
    reveal: Reveal,
) -> ResultInfo {
    ResultInfo {
        id: None,
        room: room.to_owned(),
        ranking: result
            .ranking
            .iter()
            .map(|s| RankInfo {
                seat: s.seat,
                name: names.get(s.seat as usize).cloned().unwrap_or_default(),
                points: s.points,
                cards: s.cards,
                rank: s.rank,
            })
            .collect(),
        winners: result.winners.clone(),
        deadlock: result.deadlock,
        end: result.end().into(),
        resigned: result.resigned.clone(),
        game: game.to_owned(),
        reveal,
        stand_in_actions: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use splendor_rules::Tokens;

    #[test]
    fn a_redacted_blind_reserve_carries_no_card_on_the_wire() {
        let event = Event::Reserved {
            seat: 1,
            level: Level(2),
            card: None,
            from_deck: true,
            gold: true,
        };
        let json = serde_json::to_string(&wire_event(&event)).unwrap();
        assert_eq!(
            json,
            r#"{"event":"reserved","seat":1,"level":2,"from_deck":true,"gold":true,"card":null}"#
        );
    }

    #[test]
    fn token_events_use_colour_maps() {
        let mut gems = [0; 5];
        gems[Color::Red.index()] = 2;
        let event = Event::TookTokens {
            seat: 0,
            tokens: Tokens { gems, gold: 0 },
        };
        let json = serde_json::to_string(&wire_event(&event)).unwrap();
        assert_eq!(
            json,
            r#"{"event":"took_tokens","seat":0,"tokens":{"red":2}}"#
        );
    }
}
