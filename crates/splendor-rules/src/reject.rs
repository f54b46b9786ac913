//! Why an action was refused (R11.3).
//!
//! Checks return a small `Copy` [`Reject`] so that validating (and
//! enumerating legal actions) never allocates; [`Reject::into_error`] turns
//! it into the player-facing [`RuleError`] with a stable code, the rule
//! number and the words that say why (an id and its arguments, worded in
//! each language by the server).

use crate::data::CARDS;
use crate::game::{Game, MAX_RESERVED};
use splendor_words::Words;

use crate::{CardId, Color, NobleId, Phase, RuleError, Seat};

/// Every code a refusal carries (`RuleError::code`).
pub const CODES: [&str; 22] = [
    "unknown_seat",
    "game_over",
    "not_your_turn",
    "wrong_phase",
    "invalid_colors",
    "supply_empty",
    "take_three_required",
    "take_two_supply",
    "unknown_card",
    "unknown_level",
    "reserve_limit",
    "card_not_available",
    "deck_empty",
    "cannot_afford",
    "gold_over_cost",
    "not_enough_gold",
    "wrong_return_count",
    "tokens_not_held",
    "unknown_noble",
    "noble_not_available",
    "pass_not_allowed",
    "already_resigned",
];

/// Every rule a refusal cites (`RuleError::rule`).
pub const RULES: [&str; 18] = [
    "R1.2", "R1.3", "R2", "R3", "R4.1", "R4.2", "R5.1", "R6.1", "R6.2", "R7.1", "R7.3", "R8.1",
    "R8.2", "R9.3", "R10.2", "R11.1", "R11.4", "R13.1",
];

impl RuleError {
    /// A refusal read back from its parts (from another server node): its
    /// code and rule must be ones the rules use ([`CODES`], [`RULES`]).
    pub fn from_parts(code: &str, rule: &str, words: Words) -> Option<RuleError> {
        Some(RuleError {
            code: CODES.iter().copied().find(|c| *c == code)?,
            rule: RULES.iter().copied().find(|r| *r == rule)?,
            words,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reject {
    UnknownSeat(Seat),
    GameOver,
    AlreadyResigned,
    NotYourTurn {
        to_act: Seat,
    },
    WrongPhase(Phase),
    TakeDifferentSet(u8),
    ColorEmpty(Color),
    TakeDifferentCount {
        available: u8,
        taken: u8,
    },
    TakeTwoSupply {
        color: Color,
        left: u8,
    },
    UnknownCard(u8),
    UnknownLevel(u8),
    ReserveLimit,
    ReserveNotFaceUp(CardId),
    DeckEmpty(u8),
    BuyNotAvailable(CardId),
    CannotAfford {
        card: CardId,
        short: u8,
    },
    GoldOverCost {
        card: CardId,
        color: Color,
        gold: u8,
        due: u8,
    },
    NotEnoughGold {
        card: CardId,
        used: u32,
        held: u8,
    },
    ColorShort {
        card: CardId,
        color: Color,
        needed: u8,
        held: u8,
    },
    ReturnCount {
        count: u8,
        given: u32,
    },
    ReturnNotHeld {
        color: Option<Color>,
        given: u8,
        held: u8,
    },
    UnknownNoble(u8),
    NobleNotAvailable(NobleId),
    PassNotAllowed,
}

impl Reject {
    /// The player-facing error. `game` is the unchanged game the action was
    /// refused in, and `seat` the seat that sent it; the words use only what
    /// that seat may see (R6.4). They are an id of the server's message
    /// files (`splendor-server/locales`) with its arguments.
    pub(crate) fn into_error(self, game: &Game, seat: Seat) -> RuleError {
        let (code, rule, words) = match self {
            Reject::UnknownSeat(s) => (
                "unknown_seat",
                "R2",
                Words::new("rule-unknown-seat")
                    .num("seat", s)
                    .num("players", game.players),
            ),
            Reject::GameOver => ("game_over", "R10.2", Words::new("rule-game-over")),
            Reject::AlreadyResigned => (
                "already_resigned",
                "R13.1",
                Words::new("rule-already-resigned"),
            ),
            Reject::NotYourTurn { to_act } => (
                "not_your_turn",
                "R11.4",
                Words::new("rule-not-your-turn")
                    .num("to_act", to_act)
                    .num("seat", seat),
            ),
            Reject::WrongPhase(phase) => match phase {
                Phase::Main { .. } => ("wrong_phase", "R3", Words::new("rule-main-action")),
                Phase::ReturnTokens { count, .. } => (
                    "wrong_phase",
                    "R8.2",
                    Words::new("rule-return-first").num("count", count),
                ),
                Phase::ChooseNoble { .. } => {
                    ("wrong_phase", "R9.3", Words::new("rule-noble-first"))
                }
                Phase::GameOver => ("game_over", "R10.2", Words::new("rule-game-over")),
            },
            Reject::TakeDifferentSet(set) if set & !0x1f != 0 => {
                ("invalid_colors", "R4.1", Words::new("rule-take-gems-only"))
            }
            Reject::TakeDifferentSet(set) => (
                "invalid_colors",
                "R4.1",
                Words::new("rule-take-count").num("count", set.count_ones()),
            ),
            Reject::ColorEmpty(color) => (
                "supply_empty",
                "R4.1",
                Words::new("rule-take-empty").color("color", color.name()),
            ),
            Reject::TakeDifferentCount { available, taken } => (
                "take_three_required",
                "R4.2",
                Words::new("rule-take-three")
                    .num("available", available)
                    .num("taken", taken),
            ),
            Reject::TakeTwoSupply { color, left } => (
                "take_two_supply",
                "R5.1",
                Words::new("rule-take-two-supply")
                    .num("left", left)
                    .color("color", color.name()),
            ),
            Reject::UnknownCard(id) => (
                "unknown_card",
                "R1.2",
                Words::new("rule-unknown-card").num("card", id),
            ),
            Reject::UnknownLevel(level) => (
                "unknown_level",
                "R1.2",
                Words::new("rule-unknown-level").num("level", level),
            ),
            Reject::ReserveLimit => (
                "reserve_limit",
                "R6.2",
                Words::new("rule-reserve-limit").count("max", MAX_RESERVED),
            ),
            Reject::ReserveNotFaceUp(card) => (
                "card_not_available",
                "R6.1",
                Words::new("rule-reserve-not-face-up").num("card", card.0),
            ),
            Reject::DeckEmpty(level) => (
                "deck_empty",
                "R6.1",
                Words::new("rule-deck-empty").num("level", level),
            ),
            Reject::BuyNotAvailable(card) => (
                "card_not_available",
                "R7.1",
                Words::new("rule-buy-not-available").num("card", card.0),
            ),
            Reject::CannotAfford { card, short } => (
                "cannot_afford",
                "R7.3",
                cannot_afford_words(game, seat, card, short),
            ),
            Reject::GoldOverCost {
                card,
                color,
                gold,
                due,
            } => (
                "gold_over_cost",
                "R7.3",
                Words::new("rule-gold-over-cost")
                    .num("card", card.0)
                    .num("gold", gold)
                    .color("color", color.name())
                    .num("due", due),
            ),
            Reject::NotEnoughGold { card, used, held } => (
                "not_enough_gold",
                "R7.3",
                Words::new("rule-not-enough-gold")
                    .num("card", card.0)
                    .num("used", used)
                    .num("held", held),
            ),
            Reject::ColorShort {
                card,
                color,
                needed,
                held,
            } => (
                "cannot_afford",
                "R7.3",
                Words::new("rule-color-short")
                    .num("card", card.0)
                    .num("needed", needed)
                    .color("color", color.name())
                    .num("held", held),
            ),
            Reject::ReturnCount { count, given } => (
                "wrong_return_count",
                "R8.1",
                Words::new("rule-return-count")
                    .num("count", count)
                    .num("given", given),
            ),
            Reject::ReturnNotHeld { color, given, held } => (
                "tokens_not_held",
                "R8.1",
                Words::new("rule-return-not-held")
                    .num("held", held)
                    .color("color", color.map_or("gold", Color::name))
                    .num("given", given),
            ),
            Reject::UnknownNoble(id) => (
                "unknown_noble",
                "R1.3",
                Words::new("rule-unknown-noble").num("noble", id),
            ),
            Reject::NobleNotAvailable(noble) => {
                let choices: Vec<String> = (0..10u8)
                    .filter(|n| game.qualifying_nobles(seat as usize) & (1 << n) != 0)
                    .map(|n| n.to_string())
                    .collect();
                (
                    "noble_not_available",
                    "R9.3",
                    Words::new("rule-noble-not-available")
                        .num("noble", noble.0)
                        .text("choices", choices.join(", ")),
                )
            }
            Reject::PassNotAllowed => (
                "pass_not_allowed",
                "R11.1",
                Words::new("rule-pass-not-allowed"),
            ),
        };
        RuleError { code, rule, words }
    }
}

/// "buy card 17: it costs 3 red and 2 black after your bonuses; you hold
/// 1 red, 0 black and 1 gold: 3 tokens short": what is due in each colour
/// after bonuses, what the seat holds of those colours and gold.
fn cannot_afford_words(game: &Game, seat: Seat, card: CardId, short: u8) -> Words {
    let s = &game.seats[seat as usize];
    let cost = &CARDS[card.0 as usize].cost;
    let mut due = Vec::new();
    let mut held = Vec::new();
    for color in Color::ALL {
        let i = color.index();
        let owed = cost[i].saturating_sub(s.bonuses[i]);
        if owed > 0 {
            due.push((u32::from(owed), color.name()));
            held.push((u32::from(s.tokens.gems[i]), color.name()));
        }
    }
    held.push((u32::from(s.tokens.gold), "gold"));
    Words::new("rule-cannot-afford")
        .num("card", card.0)
        .tokens("cost", due)
        .tokens("held", held)
        .num("short", short)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Options;

    #[test]
    fn every_refusal_has_a_listed_code_and_rule() {
        let game = Game::new(2, Options::default(), 1).unwrap();
        let card = CardId(3);
        let all = [
            Reject::UnknownSeat(5),
            Reject::GameOver,
            Reject::NotYourTurn { to_act: 0 },
            Reject::WrongPhase(Phase::Main { seat: 0 }),
            Reject::WrongPhase(Phase::ReturnTokens { seat: 0, count: 1 }),
            Reject::WrongPhase(Phase::ChooseNoble { seat: 0 }),
            Reject::WrongPhase(Phase::GameOver),
            Reject::TakeDifferentSet(0x80),
            Reject::TakeDifferentSet(0x0f),
            Reject::ColorEmpty(Color::Red),
            Reject::TakeDifferentCount {
                available: 3,
                taken: 2,
            },
            Reject::TakeTwoSupply {
                color: Color::Red,
                left: 3,
            },
            Reject::UnknownCard(95),
            Reject::UnknownLevel(4),
            Reject::ReserveLimit,
            Reject::ReserveNotFaceUp(card),
            Reject::DeckEmpty(1),
            Reject::BuyNotAvailable(card),
            Reject::CannotAfford { card, short: 2 },
            Reject::GoldOverCost {
                card,
                color: Color::Red,
                gold: 2,
                due: 1,
            },
            Reject::NotEnoughGold {
                card,
                used: 2,
                held: 1,
            },
            Reject::ColorShort {
                card,
                color: Color::Red,
                needed: 2,
                held: 1,
            },
            Reject::ReturnCount { count: 1, given: 2 },
            Reject::ReturnNotHeld {
                color: None,
                given: 2,
                held: 1,
            },
            Reject::UnknownNoble(12),
            Reject::NobleNotAvailable(NobleId(1)),
            Reject::PassNotAllowed,
            Reject::AlreadyResigned,
        ];
        let mut codes = std::collections::BTreeSet::new();
        for reject in all {
            let error = reject.into_error(&game, 0);
            assert!(CODES.contains(&error.code), "{error}");
            assert!(RULES.contains(&error.rule), "{error}");
            codes.insert(error.code);
            let back = RuleError::from_parts(error.code, error.rule, error.words.clone());
            assert_eq!(back, Some(error));
        }
        assert_eq!(codes.len(), CODES.len(), "a listed code no refusal uses");
        assert_eq!(
            RuleError::from_parts("made_up", "R2", Words::new("x")),
            None
        );
    }
}
