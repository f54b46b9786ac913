//! The stored form of an action: a type of its own (log format 1), not
//! the protocol's `WireAction`, so that a later protocol cannot change how
//! an old log reads. Its JSON is the action syntax of protocol 2, the text
//! every log written so far holds (`{"take":["white","blue","red"]}`,
//! `{"buy":{"card":17,"gold":{"red":1}}}`, `"pass"`, ...), and a test reads
//! a log written by the server of 2026-11-25 (tests/fixtures).
//!
//! Reading is strict: a colour, a field or a shape this format does not
//! have is an error, never a guess.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use splendor_rules::{Action, CardId, Color, ColorSet, Gems, Level, NobleId, Tokens};

/// One action of a stored log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum StoredAction {
    /// R4: one token each of up to three different colours.
    Take(Vec<StoredGem>),
    /// R5: two tokens of one colour.
    TakeTwo(StoredGem),
    /// R6.1: a face-up card reserved.
    Reserve(u8),
    /// R6.1: the top card of a level's deck reserved.
    ReserveDeck(u8),
    /// R7: a card bought, with the default payment or the gold per colour.
    Buy(StoredBuy),
    /// R8.1: tokens returned.
    Return(BTreeMap<StoredToken, u8>),
    /// R9.3: a noble chosen.
    Noble(u8),
    /// R11.1: a pass.
    Pass,
    /// R13.1: a resignation (`"resign"`; no log before 2026-11-26 has one).
    Resign,
}

/// What a stored `buy` names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
enum StoredBuy {
    /// The card, paid the default way.
    Card(u8),
    /// The card, and the gold that stands in for each colour (R7.3).
    WithGold(StoredGold),
}

/// `{"card": id, "gold": {colour: count}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StoredGold {
    card: u8,
    gold: BTreeMap<StoredGem, u8>,
}

/// A gem colour as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum StoredGem {
    White,
    Blue,
    Green,
    Red,
    Black,
}

/// A token colour as stored (the gems and gold).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum StoredToken {
    White,
    Blue,
    Green,
    Red,
    Black,
    Gold,
}

const GEMS: [(StoredGem, Color); 5] = [
    (StoredGem::White, Color::White),
    (StoredGem::Blue, Color::Blue),
    (StoredGem::Green, Color::Green),
    (StoredGem::Red, Color::Red),
    (StoredGem::Black, Color::Black),
];

fn stored_gem(color: Color) -> StoredGem {
    GEMS[color.index()].0
}

fn color(gem: StoredGem) -> Color {
    GEMS[gem as usize].1
}

/// The colours with a count, in colour order; zeros left out.
fn gem_counts(gems: Gems) -> BTreeMap<StoredGem, u8> {
    GEMS.iter()
        .filter(|(_, c)| gems[c.index()] > 0)
        .map(|&(g, c)| (g, gems[c.index()]))
        .collect()
}

fn gems(counts: &BTreeMap<StoredGem, u8>) -> Gems {
    let mut out = [0; 5];
    for (&gem, &n) in counts {
        out[color(gem).index()] = n;
    }
    out
}

impl From<Action> for StoredAction {
    fn from(action: Action) -> StoredAction {
        match action {
            Action::TakeDifferent(set) => StoredAction::Take(set.iter().map(stored_gem).collect()),
            Action::TakeTwo(c) => StoredAction::TakeTwo(stored_gem(c)),
            Action::ReserveFaceUp(card) => StoredAction::Reserve(card.0),
            Action::ReserveFromDeck(level) => StoredAction::ReserveDeck(level.0),
            Action::Buy { card, gold: None } => StoredAction::Buy(StoredBuy::Card(card.0)),
            Action::Buy {
                card,
                gold: Some(gold),
            } => StoredAction::Buy(StoredBuy::WithGold(StoredGold {
                card: card.0,
                gold: gem_counts(gold),
            })),
            Action::ReturnTokens(tokens) => {
                let mut back: BTreeMap<StoredToken, u8> = gem_counts(tokens.gems)
                    .into_iter()
                    .map(|(g, n)| (token(g), n))
                    .collect();
                if tokens.gold > 0 {
                    back.insert(StoredToken::Gold, tokens.gold);
                }
                StoredAction::Return(back)
            }
            Action::ChooseNoble(noble) => StoredAction::Noble(noble.0),
            Action::Pass => StoredAction::Pass,
            Action::Resign => StoredAction::Resign,
        }
    }
}

fn token(gem: StoredGem) -> StoredToken {
    match gem {
        StoredGem::White => StoredToken::White,
        StoredGem::Blue => StoredToken::Blue,
        StoredGem::Green => StoredToken::Green,
        StoredGem::Red => StoredToken::Red,
        StoredGem::Black => StoredToken::Black,
    }
}

impl TryFrom<StoredAction> for Action {
    type Error = String;

    fn try_from(stored: StoredAction) -> Result<Action, String> {
        Ok(match stored {
            StoredAction::Take(gems) => {
                let set: ColorSet = gems.iter().map(|&g| color(g)).collect();
                if set.len() as usize != gems.len() {
                    return Err("a take names a colour twice".into());
                }
                Action::TakeDifferent(set)
            }
            StoredAction::TakeTwo(g) => Action::TakeTwo(color(g)),
            StoredAction::Reserve(card) => Action::ReserveFaceUp(CardId(card)),
            StoredAction::ReserveDeck(level) => Action::ReserveFromDeck(Level(level)),
            StoredAction::Buy(StoredBuy::Card(card)) => Action::Buy {
                card: CardId(card),
                gold: None,
            },
            StoredAction::Buy(StoredBuy::WithGold(StoredGold { card, gold })) => Action::Buy {
                card: CardId(card),
                gold: Some(gems(&gold)),
            },
            StoredAction::Return(back) => {
                let mut tokens = Tokens::default();
                for (t, n) in back {
                    match t {
                        StoredToken::White => tokens.gems[Color::White.index()] = n,
                        StoredToken::Blue => tokens.gems[Color::Blue.index()] = n,
                        StoredToken::Green => tokens.gems[Color::Green.index()] = n,
                        StoredToken::Red => tokens.gems[Color::Red.index()] = n,
                        StoredToken::Black => tokens.gems[Color::Black.index()] = n,
                        StoredToken::Gold => tokens.gold = n,
                    }
                }
                Action::ReturnTokens(tokens)
            }
            StoredAction::Noble(noble) => Action::ChooseNoble(NobleId(noble)),
            StoredAction::Pass => Action::Pass,
            StoredAction::Resign => Action::Resign,
        })
    }
}

/// The text an action is stored as.
pub fn action_json(action: Action) -> String {
    // Plain data: serialising cannot fail.
    serde_json::to_string(&StoredAction::from(action)).unwrap_or_default()
}

/// Reads a stored action.
pub fn parse_action(json: &str) -> Result<Action, String> {
    let stored: StoredAction = serde_json::from_str(json)
        .map_err(|e| format!("action {json:?} is not a stored action: {e}"))?;
    Action::try_from(stored).map_err(|e| format!("action {json:?}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use splendor_protocol::WireAction;
    use splendor_rules::{Game, Options};

    /// Every legal action met in seeded random games is stored as the very
    /// text protocol 2's `WireAction` writes (what every log so far holds),
    /// and reads back as the same action.
    #[test]
    fn the_stored_text_is_protocol_2s_and_reads_back() {
        let mut kinds = std::collections::BTreeSet::new();
        for seed in 0..40u64 {
            let players = 2 + (seed % 3) as u8;
            let mut game = Game::new(players, Options::default(), seed).unwrap();
            let mut pick = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let mut legal = Vec::new();
            while let Some(seat) = game.to_act() {
                legal.clear();
                game.legal_actions(&mut legal);
                for &action in &legal {
                    let text = action_json(action);
                    let wire = serde_json::to_string(&WireAction::from(action)).unwrap();
                    assert_eq!(text, wire);
                    assert_eq!(parse_action(&text), Ok(action), "{text}");
                    kinds.insert(text.split(['"', ':']).nth(1).unwrap_or("pass").to_owned());
                }
                pick ^= pick << 13;
                pick ^= pick >> 7;
                pick ^= pick << 17;
                let action = legal[(pick % legal.len() as u64) as usize];
                game.apply(seat, action).unwrap();
            }
        }
        // R13.1: a resignation is never legal in a turn; it is stored as
        // the wire's "resign".
        assert_eq!(action_json(splendor_rules::Action::Resign), r#""resign""#);
        assert_eq!(
            serde_json::to_string(&WireAction::Resign).unwrap(),
            r#""resign""#
        );
        assert_eq!(
            parse_action(r#""resign""#),
            Ok(splendor_rules::Action::Resign)
        );
        for kind in [
            "take",
            "take_two",
            "reserve",
            "reserve_deck",
            "buy",
            "return",
        ] {
            assert!(kinds.contains(kind), "{kind} never met: {kinds:?}");
        }
    }

    #[test]
    fn a_stored_action_of_another_shape_is_refused() {
        for bad in [
            r#"{"take":["white","white"]}"#,
            r#"{"take":["purple"]}"#,
            r#"{"take_two":"gold"}"#,
            r#"{"buy":{"card":3,"gold":{"gold":1}}}"#,
            r#"{"buy":{"card":3,"gold":{},"x":1}}"#,
            r#"{"return":{"pink":1}}"#,
            r#"{"dance":1}"#,
            r#""wait""#,
            "{}",
        ] {
            assert!(parse_action(bad).is_err(), "{bad}");
        }
    }
}
