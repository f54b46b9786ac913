//! Why an action was refused (R11.3).
//!
//! Checks return a small `Copy` [`Reject`] so that validating (and
//! enumerating legal actions) never allocates; [`Reject::into_error`] turns
//! it into the player-facing [`RuleError`] with a stable code, the rule
//! number and a message in player words.

use crate::data::CARDS;
use crate::game::{Game, MAX_RESERVED};
use crate::{CardId, Color, NobleId, Phase, RuleError, Seat, TokensText};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reject {
    UnknownSeat(Seat),
    GameOver,
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

fn plural(n: impl Into<u32>, one: &'static str, many: &'static str) -> &'static str {
    if n.into() == 1 { one } else { many }
}

impl Reject {
    /// The player-facing error. `game` is the unchanged game the action was
    /// refused in, and `seat` the seat that sent it; messages use only what
    /// that seat may see (R6.4).
    pub(crate) fn into_error(self, game: &Game, seat: Seat) -> RuleError {
        let (code, rule, message) = match self {
            Reject::UnknownSeat(s) => (
                "unknown_seat",
                "R2",
                format!("there is no seat {s} in a {}-player game", game.players),
            ),
            Reject::GameOver => ("game_over", "R10.2", "the game is over".to_string()),
            Reject::NotYourTurn { to_act } => (
                "not_your_turn",
                "R11.4",
                format!("it is seat {to_act}'s turn, not seat {seat}'s"),
            ),
            Reject::WrongPhase(phase) => match phase {
                Phase::Main { .. } => (
                    "wrong_phase",
                    "R3",
                    "nothing to decide now: make a main action (take, reserve or buy)".to_string(),
                ),
                Phase::ReturnTokens { count, .. } => (
                    "wrong_phase",
                    "R8.2",
                    format!(
                        "you hold more than 10 tokens: return {count} {} before anything else",
                        plural(count, "token", "tokens")
                    ),
                ),
                Phase::ChooseNoble { .. } => (
                    "wrong_phase",
                    "R9.3",
                    "several nobles qualify: choose one before anything else".to_string(),
                ),
                Phase::GameOver => ("game_over", "R10.2", "the game is over".to_string()),
            },
            Reject::TakeDifferentSet(set) if set & !0x1f != 0 => (
                "invalid_colors",
                "R4.1",
                "take different: only the five gem colours can be taken".to_string(),
            ),
            Reject::TakeDifferentSet(set) => (
                "invalid_colors",
                "R4.1",
                format!(
                    "take different: name one to three different gem colours, not {}",
                    set.count_ones()
                ),
            ),
            Reject::ColorEmpty(color) => (
                "supply_empty",
                "R4.1",
                format!("take different: no {} tokens left", color.name()),
            ),
            Reject::TakeDifferentCount { available, taken } => (
                "take_three_required",
                "R4.2",
                format!(
                    "take different: {available} colours have tokens, so take 3 different, not {taken}"
                ),
            ),
            Reject::TakeTwoSupply { color, left } => (
                "take_two_supply",
                "R5.1",
                format!(
                    "take two: only {left} {} {} left, 4 needed",
                    color.name(),
                    plural(left, "token", "tokens")
                ),
            ),
            Reject::UnknownCard(id) => (
                "unknown_card",
                "R1.2",
                format!("there is no card {id}: card ids are 0 to 89"),
            ),
            Reject::UnknownLevel(level) => (
                "unknown_level",
                "R1.2",
                format!("there is no level {level}: levels are 1, 2 and 3"),
            ),
            Reject::ReserveLimit => (
                "reserve_limit",
                "R6.2",
                format!(
                    "reserve: you already hold {MAX_RESERVED} reserved cards, the most allowed"
                ),
            ),
            Reject::ReserveNotFaceUp(card) => (
                "card_not_available",
                "R6.1",
                format!("reserve: card {} is not face-up on the table", card.0),
            ),
            Reject::DeckEmpty(level) => (
                "deck_empty",
                "R6.1",
                format!("reserve: the level {level} deck is empty"),
            ),
            Reject::BuyNotAvailable(card) => (
                "card_not_available",
                "R7.1",
                format!(
                    "buy: card {} is neither face-up on the table nor in your reserve",
                    card.0
                ),
            ),
            Reject::CannotAfford { card, short } => (
                "cannot_afford",
                "R7.3",
                cannot_afford_message(game, seat, card, short),
            ),
            Reject::GoldOverCost {
                card,
                color,
                gold,
                due,
            } => (
                "gold_over_cost",
                "R7.3",
                format!(
                    "buy card {}: {gold} gold for {}, but only {due} {} due after your bonuses",
                    card.0,
                    color.name(),
                    plural(due, "is", "are"),
                ),
            ),
            Reject::NotEnoughGold { card, used, held } => (
                "not_enough_gold",
                "R7.3",
                format!(
                    "buy card {}: the payment uses {used} gold, you hold {held}",
                    card.0
                ),
            ),
            Reject::ColorShort {
                card,
                color,
                needed,
                held,
            } => (
                "cannot_afford",
                "R7.3",
                format!(
                    "buy card {}: this payment needs {needed} {} {}, you hold {held}",
                    card.0,
                    color.name(),
                    plural(needed, "token", "tokens"),
                ),
            ),
            Reject::ReturnCount { count, given } => (
                "wrong_return_count",
                "R8.1",
                format!("return tokens: return exactly {count} to keep 10, not {given}"),
            ),
            Reject::ReturnNotHeld { color, given, held } => (
                "tokens_not_held",
                "R8.1",
                format!(
                    "return tokens: you hold {held} {}, cannot return {given}",
                    color.map_or("gold", Color::name)
                ),
            ),
            Reject::UnknownNoble(id) => (
                "unknown_noble",
                "R1.3",
                format!("there is no noble {id}: noble ids are 0 to 9"),
            ),
            Reject::NobleNotAvailable(noble) => {
                let choices: Vec<String> = (0..10u8)
                    .filter(|n| game.qualifying_nobles(seat as usize) & (1 << n) != 0)
                    .map(|n| n.to_string())
                    .collect();
                (
                    "noble_not_available",
                    "R9.3",
                    format!(
                        "choose noble: noble {} does not qualify now; choose one of {}",
                        noble.0,
                        choices.join(", ")
                    ),
                )
            }
            Reject::PassNotAllowed => (
                "pass_not_allowed",
                "R11.1",
                "pass: you may pass only when you can neither take, reserve nor buy".to_string(),
            ),
        };
        RuleError {
            code,
            rule,
            message,
        }
    }
}

/// "buy card 17: it costs 3 red and 2 black after your bonuses; you hold
/// 1 red, 0 black and 1 gold: 3 tokens short".
fn cannot_afford_message(game: &Game, seat: Seat, card: CardId, short: u8) -> String {
    let s = &game.seats[seat as usize];
    let cost = &CARDS[card.0 as usize].cost;
    let mut due = crate::Tokens::default();
    let mut held = Vec::new();
    for color in Color::ALL {
        let i = color.index();
        due.gems[i] = cost[i].saturating_sub(s.bonuses[i]);
        if due.gems[i] > 0 {
            held.push(format!("{} {}", s.tokens.gems[i], color.name()));
        }
    }
    held.push(format!("{} gold", s.tokens.gold));
    let last = held.pop().unwrap_or_default();
    let held = if held.is_empty() {
        last
    } else {
        format!("{} and {last}", held.join(", "))
    };
    format!(
        "buy card {}: it costs {} after your bonuses; you hold {held}: {short} {} short",
        card.0,
        TokensText(due),
        plural(short, "token", "tokens"),
    )
}
