//! The compact action syntax: what an `act` message carries and what the
//! legal-action list contains, in exactly the same JSON.
//!
//! | JSON | rules action |
//! |---|---|
//! | `{"take":["white","blue","red"]}` | R4: one token each of up to three colours |
//! | `{"take_two":"blue"}` | R5: two tokens of one colour |
//! | `{"reserve":17}` | R6: reserve face-up card 17 |
//! | `{"reserve_deck":2}` | R6: reserve the top card of the level 2 deck |
//! | `{"buy":17}` | R7: buy card 17, default payment |
//! | `{"buy":{"card":17,"gold":{"red":1}}}` | R7.3: buy card 17, one gold standing in for red |
//! | `{"return":{"white":1,"gold":1}}` | R8: return these tokens |
//! | `{"noble":3}` | R9.3: choose noble 3 |
//! | `"pass"` | R11.1: pass |
//! | `"resign"` | R13.1: resign (never in `legal_actions`; the `resign` message sends it) |
//!
//! The conversion never judges legality: that is the rules crate's job, so a
//! card id that is hidden and one that does not exist travel the same way.

use std::fmt;

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};
use splendor_rules::{Action, CardId, Color, ColorSet, Level, NobleId};
use splendor_words::Words;

use crate::tokens::{GemCounts, TokenCounts};

/// One action in its wire form. See the module doc for the syntax.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WireAction {
    /// `take`, R4: one token each of up to three different colours, each named
    /// once; fewer than three only when fewer colours are left (R4.2).
    Take(Vec<Color>),
    /// `take_two`, R5: two tokens of one colour, of which the supply holds at
    /// least 4 (R5.1).
    TakeTwo(Color),
    /// `reserve`, R6.1: reserve this face-up card.
    Reserve(CardId),
    /// `reserve_deck`, R6.1: reserve the top card of this level's deck, blind.
    ReserveDeck(Level),
    /// `buy`, R7: buy a face-up card or one of your own reserved cards.
    Buy(BuyTarget),
    /// `return`, R8.1: give these tokens back when the turn left you above 10.
    Return(TokenCounts),
    /// `noble`, R9.3: choose this noble among the several that qualify.
    Noble(NobleId),
    /// `"pass"`, R11.1: pass; legal only when no other action is.
    Pass,
    /// `"resign"`, R13.1: resign, whoever is to move. Never among the
    /// legal actions; what the `resign` message sends, and how a log and a
    /// replay show it.
    Resign,
}

/// What `buy` names: a bare card id (default payment), or a card with the
/// gold to spend per colour (R7.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum BuyTarget {
    /// A bare card id: coloured tokens first, gold only for the shortfall (R7.3).
    Card(CardId),
    /// `{"card": id, "gold": {colour: count}}`: the card, and the gold that
    /// stands in for each colour (R7.3).
    WithGold {
        /// The card to buy.
        card: CardId,
        /// R7.3: the gold spent per colour.
        gold: GemCounts,
    },
}

/// The object form of `buy`, parsed on its own so that its errors name its fields.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BuyWithGold {
    card: CardId,
    gold: GemCounts,
}

impl<'de> Deserialize<'de> for BuyTarget {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // An untagged derive would only say "did not match any variant";
        // going through a JSON value lets each shape report its own mistake.
        let value = serde_json::Value::deserialize(deserializer)?;
        match value {
            serde_json::Value::Number(n) => {
                let id = n
                    .as_u64()
                    .and_then(|n| u8::try_from(n).ok())
                    .ok_or_else(|| de::Error::custom(format!("{n} is not a card id")))?;
                Ok(BuyTarget::Card(CardId(id)))
            }
            serde_json::Value::Object(_) => {
                let b: BuyWithGold = serde_json::from_value(value).map_err(de::Error::custom)?;
                Ok(BuyTarget::WithGold {
                    card: b.card,
                    gold: b.gold,
                })
            }
            _ => Err(de::Error::custom(
                "buy takes a card id, or {\"card\": id, \"gold\": {colour: count}}",
            )),
        }
    }
}

/// A wire action that cannot be expressed as a rules action at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionSyntaxError(pub Words);

impl fmt::Display for ActionSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::error::Error for ActionSyntaxError {}

impl From<Action> for WireAction {
    fn from(action: Action) -> Self {
        match action {
            Action::TakeDifferent(set) => WireAction::Take(set.iter().collect()),
            Action::TakeTwo(c) => WireAction::TakeTwo(c),
            Action::ReserveFaceUp(card) => WireAction::Reserve(card),
            Action::ReserveFromDeck(level) => WireAction::ReserveDeck(level),
            Action::Buy { card, gold: None } => WireAction::Buy(BuyTarget::Card(card)),
            Action::Buy {
                card,
                gold: Some(gold),
            } => WireAction::Buy(BuyTarget::WithGold {
                card,
                gold: gold.into(),
            }),
            Action::ReturnTokens(tokens) => WireAction::Return(tokens.into()),
            Action::ChooseNoble(noble) => WireAction::Noble(noble),
            Action::Pass => WireAction::Pass,
            Action::Resign => WireAction::Resign,
        }
    }
}

/// A card id names one of the 90 cards (R1.2), or it is not a card id.
fn card_id(card: CardId) -> Result<CardId, ActionSyntaxError> {
    let count = splendor_rules::all_cards().len();
    if usize::from(card.0) < count {
        Ok(card)
    } else {
        Err(ActionSyntaxError(
            Words::new("action-card-id")
                .num("id", card.0)
                .count("max", count - 1),
        ))
    }
}

impl TryFrom<&WireAction> for Action {
    type Error = ActionSyntaxError;

    /// The action the wire form says, or why it says none: a colour named
    /// twice in `take`, more than three colours, a card id past 89, a noble
    /// id past 9, a level other than 1 to 3. The schema refuses exactly
    /// these too (issue 24); whether the action is legal now is the rules'.
    fn try_from(wire: &WireAction) -> Result<Self, Self::Error> {
        Ok(match wire {
            WireAction::Take(colors) => {
                let set: ColorSet = colors.iter().copied().collect();
                if set.len() as usize != colors.len() {
                    return Err(ActionSyntaxError(
                        Words::new("action-take-twice").text("example", r#"{"take_two": colour}"#),
                    ));
                }
                if colors.len() > 3 {
                    return Err(ActionSyntaxError(
                        Words::new("action-take-many").count("count", colors.len()),
                    ));
                }
                Action::TakeDifferent(set)
            }
            WireAction::TakeTwo(c) => Action::TakeTwo(*c),
            WireAction::Reserve(card) => Action::ReserveFaceUp(card_id(*card)?),
            WireAction::ReserveDeck(level) => {
                if !(1..=3).contains(&level.0) {
                    return Err(ActionSyntaxError(
                        Words::new("action-level").num("level", level.0),
                    ));
                }
                Action::ReserveFromDeck(*level)
            }
            WireAction::Buy(BuyTarget::Card(card)) => Action::Buy {
                card: card_id(*card)?,
                gold: None,
            },
            WireAction::Buy(BuyTarget::WithGold { card, gold }) => Action::Buy {
                card: card_id(*card)?,
                gold: Some((*gold).into()),
            },
            WireAction::Return(tokens) => Action::ReturnTokens((*tokens).into()),
            WireAction::Noble(noble) => {
                let count = splendor_rules::all_nobles().len();
                if usize::from(noble.0) >= count {
                    return Err(ActionSyntaxError(
                        Words::new("action-noble-id")
                            .num("id", noble.0)
                            .count("max", count - 1),
                    ));
                }
                Action::ChooseNoble(*noble)
            }
            WireAction::Pass => Action::Pass,
            WireAction::Resign => Action::Resign,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use splendor_rules::{Gems, Tokens};

    fn wire(json: &str) -> WireAction {
        serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"))
    }

    fn check_round_trip(json: &str, action: Action) {
        let parsed = wire(json);
        assert_eq!(Action::try_from(&parsed).unwrap(), action, "{json}");
        assert_eq!(WireAction::from(action), parsed, "{json}");
        assert_eq!(serde_json::to_string(&parsed).unwrap(), json);
    }

    #[test]
    fn every_action_kind_round_trips_through_its_documented_json() {
        let white_blue_red: ColorSet = [Color::White, Color::Blue, Color::Red]
            .into_iter()
            .collect();
        check_round_trip(
            r#"{"take":["white","blue","red"]}"#,
            Action::TakeDifferent(white_blue_red),
        );
        check_round_trip(r#"{"take_two":"blue"}"#, Action::TakeTwo(Color::Blue));
        check_round_trip(r#"{"reserve":17}"#, Action::ReserveFaceUp(CardId(17)));
        check_round_trip(r#"{"reserve_deck":2}"#, Action::ReserveFromDeck(Level(2)));
        check_round_trip(
            r#"{"buy":17}"#,
            Action::Buy {
                card: CardId(17),
                gold: None,
            },
        );
        let mut gold: Gems = [0; 5];
        gold[Color::Red.index()] = 1;
        check_round_trip(
            r#"{"buy":{"card":17,"gold":{"red":1}}}"#,
            Action::Buy {
                card: CardId(17),
                gold: Some(gold),
            },
        );
        check_round_trip(
            r#"{"buy":{"card":3,"gold":{}}}"#,
            Action::Buy {
                card: CardId(3),
                gold: Some([0; 5]),
            },
        );
        let mut gems = [0; 5];
        gems[Color::White.index()] = 1;
        check_round_trip(
            r#"{"return":{"white":1,"gold":1}}"#,
            Action::ReturnTokens(Tokens { gems, gold: 1 }),
        );
        check_round_trip(r#"{"noble":3}"#, Action::ChooseNoble(NobleId(3)));
        check_round_trip(r#""pass""#, Action::Pass);
        check_round_trip(r#""resign""#, Action::Resign);
    }

    #[test]
    fn take_lists_colours_in_canonical_order_whatever_the_input_order() {
        let parsed = wire(r#"{"take":["red","white"]}"#);
        let action = Action::try_from(&parsed).unwrap();
        assert_eq!(
            serde_json::to_string(&WireAction::from(action)).unwrap(),
            r#"{"take":["white","red"]}"#
        );
    }

    #[test]
    fn a_colour_taken_twice_is_a_syntax_error_not_a_silent_merge() {
        let parsed = wire(r#"{"take":["red","red"]}"#);
        let err = Action::try_from(&parsed).unwrap_err();
        assert_eq!(err.0.id(), "action-take-twice", "{err}");
        assert!(err.0.to_string().contains("take_two"), "{err}");
    }

    #[test]
    fn malformed_actions_are_rejected_with_a_reason() {
        for (json, needle) in [
            (r#"{"tke":["red"]}"#, "unknown variant"),
            (r#"{"take":["purple"]}"#, "unknown variant"),
            (r#"{"buy":"x"}"#, "buy takes a card id"),
            (r#"{"buy":300}"#, "not a card id"),
            (r#"{"buy":{"card":1}}"#, "missing field `gold`"),
            (r#"{"buy":{"card":1,"gold":{},"x":1}}"#, "unknown field `x`"),
            (r#"{"reserve":-1}"#, "invalid value"),
            (r#""fold""#, "unknown variant"),
        ] {
            let err = serde_json::from_str::<WireAction>(json).unwrap_err();
            assert!(err.to_string().contains(needle), "{json}: {err}");
        }
    }
}
