//! Token and gem counts as JSON objects keyed by colour name.
//!
//! `{"white":1,"gold":1}` reads as "one white token and one gold token". A
//! colour that is missing counts 0, and zero counts are left out when the
//! server writes one, so the objects stay short enough to read and to type.

use serde::{Deserialize, Serialize};
use splendor_rules::{Color, Gems, Tokens};

pub(crate) fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// A count per token kind: the five gem colours and gold (R1.1).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct TokenCounts {
    /// White (diamond) tokens.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub white: u8,
    /// Blue (sapphire) tokens.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub blue: u8,
    /// Green (emerald) tokens.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub green: u8,
    /// Red (ruby) tokens.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub red: u8,
    /// Black (onyx) tokens.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub black: u8,
    /// Gold (joker) tokens, which stand in for any colour when buying (R7.3).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub gold: u8,
}

/// A count per gem colour, without gold: costs, bonuses, noble requirements,
/// and the gold a payment spends per colour (R7.3).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct GemCounts {
    /// The count for white (diamond).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub white: u8,
    /// The count for blue (sapphire).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub blue: u8,
    /// The count for green (emerald).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub green: u8,
    /// The count for red (ruby).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub red: u8,
    /// The count for black (onyx).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub black: u8,
}

impl From<Gems> for GemCounts {
    fn from(g: Gems) -> Self {
        GemCounts {
            white: g[Color::White.index()],
            blue: g[Color::Blue.index()],
            green: g[Color::Green.index()],
            red: g[Color::Red.index()],
            black: g[Color::Black.index()],
        }
    }
}

impl From<GemCounts> for Gems {
    fn from(g: GemCounts) -> Self {
        let mut out = [0; 5];
        out[Color::White.index()] = g.white;
        out[Color::Blue.index()] = g.blue;
        out[Color::Green.index()] = g.green;
        out[Color::Red.index()] = g.red;
        out[Color::Black.index()] = g.black;
        out
    }
}

impl From<Tokens> for TokenCounts {
    fn from(t: Tokens) -> Self {
        let g = GemCounts::from(t.gems);
        TokenCounts {
            white: g.white,
            blue: g.blue,
            green: g.green,
            red: g.red,
            black: g.black,
            gold: t.gold,
        }
    }
}

impl From<TokenCounts> for Tokens {
    fn from(t: TokenCounts) -> Self {
        Tokens {
            gems: GemCounts {
                white: t.white,
                blue: t.blue,
                green: t.green,
                red: t.red,
                black: t.black,
            }
            .into(),
            gold: t.gold,
        }
    }
}

impl TokenCounts {
    /// All tokens counted together, gold included (the R8 limit counts this).
    pub fn total(&self) -> u32 {
        Tokens::from(*self).total()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_counts_are_left_out_and_missing_counts_read_as_zero() {
        let t = TokenCounts {
            white: 1,
            gold: 1,
            ..Default::default()
        };
        assert_eq!(
            serde_json::to_string(&t).unwrap(),
            r#"{"white":1,"gold":1}"#
        );
        let back: TokenCounts = serde_json::from_str(r#"{"gold":1,"white":1}"#).unwrap();
        assert_eq!(back, t);
        assert_eq!(
            serde_json::from_str::<TokenCounts>("{}").unwrap(),
            TokenCounts::default()
        );
    }

    #[test]
    fn unknown_colours_and_gold_in_gems_are_rejected() {
        assert!(serde_json::from_str::<TokenCounts>(r#"{"purple":1}"#).is_err());
        assert!(serde_json::from_str::<GemCounts>(r#"{"gold":1}"#).is_err());
        assert!(serde_json::from_str::<GemCounts>(r#"{"red":-1}"#).is_err());
        assert!(serde_json::from_str::<GemCounts>(r#"{"red":256}"#).is_err());
    }

    #[test]
    fn conversions_keep_the_colour_order() {
        let tokens = Tokens {
            gems: [1, 2, 3, 4, 5],
            gold: 6,
        };
        let wire = TokenCounts::from(tokens);
        assert_eq!((wire.white, wire.black, wire.gold), (1, 5, 6));
        assert_eq!(Tokens::from(wire), tokens);
        assert_eq!(wire.total(), 21);
    }
}
