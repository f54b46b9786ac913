//! What the server tells people, as data (issue 19).
//!
//! A refusal is decided deep inside (the rules, a room, the gateway), but
//! it is worded only at the edge, in the connection's language. In between
//! it travels as [`Words`]: a message id (a Fluent message of
//! `splendor-server/locales/*/server.ftl`) and named, typed arguments:
//!
//! - [`Arg::Number`]: a count or an id; languages choose plural forms by it;
//! - [`Arg::Color`]: a protocol colour word (`white` … `gold`), shown in the
//!   language's word;
//! - [`Arg::Tokens`]: a list of counts of colours ("2 red and 1 gold");
//! - [`Arg::Text`]: people's text, codes and quoted input, kept verbatim;
//! - [`Arg::Words`]: a message inside a message, worded in turn.
//!
//! The crate has no dependencies, so the pure crates (rules, room) can make
//! words without knowing any language. [`Words`]'s `Display` is for logs and
//! tests: the id and its arguments, never a sentence. With the feature
//! `fluent`, [`fluent`] says them in English, Dutch, French or German from
//! the `.ftl` files in `locales/` (the server does; tests of other crates
//! may, to read what a person would be told).

use std::borrow::Cow;
use std::fmt;

#[cfg(feature = "fluent")]
pub mod fluent;

/// The protocol's colour words, the only values of [`Arg::Color`].
pub const COLORS: [&str; 6] = ["white", "blue", "green", "red", "black", "gold"];

/// A message for a person: its id and named arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Words {
    id: Cow<'static, str>,
    args: Vec<(Cow<'static, str>, Arg)>,
}

/// One argument of a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A whole number.
    Number(i64),
    /// A protocol colour word, one of [`COLORS`].
    Color(&'static str),
    /// Counts of colours, in order: `(count, colour word)`. Empty means
    /// nothing.
    Tokens(Vec<(u32, &'static str)>),
    /// Text kept as it is (names, codes, quoted input, technical detail).
    Text(String),
    /// A nested message.
    Words(Box<Words>),
}

impl Words {
    /// A message without arguments (add them with the builders).
    pub fn new(id: impl Into<Cow<'static, str>>) -> Words {
        Words {
            id: id.into(),
            args: Vec::new(),
        }
    }

    /// With the argument `name` (what the builders below add; for words
    /// read back from another node).
    pub fn arg(mut self, name: impl Into<Cow<'static, str>>, arg: Arg) -> Words {
        self.args.push((name.into(), arg));
        self
    }

    /// With a number argument.
    pub fn num(self, name: &'static str, n: impl Into<i64>) -> Words {
        self.arg(name, Arg::Number(n.into()))
    }

    /// With a count argument (a `usize` or `u64` beyond `i64` saturates).
    pub fn count(self, name: &'static str, n: impl TryInto<i64>) -> Words {
        let n = n.try_into().unwrap_or(i64::MAX);
        self.num(name, n)
    }

    /// With a colour argument: a protocol colour word (see [`COLORS`]).
    pub fn color(self, name: &'static str, color: &'static str) -> Words {
        debug_assert!(COLORS.contains(&color), "not a colour word: {color}");
        self.arg(name, Arg::Color(color))
    }

    /// With a list of counts of colours.
    pub fn tokens(self, name: &'static str, tokens: Vec<(u32, &'static str)>) -> Words {
        self.arg(name, Arg::Tokens(tokens))
    }

    /// With text kept verbatim.
    pub fn text(self, name: &'static str, text: impl Into<String>) -> Words {
        self.arg(name, Arg::Text(text.into()))
    }

    /// With a nested message.
    pub fn words(self, name: &'static str, words: Words) -> Words {
        self.arg(name, Arg::Words(Box::new(words)))
    }

    /// The message id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The arguments, in the order they were given.
    pub fn args(&self) -> &[(Cow<'static, str>, Arg)] {
        &self.args
    }

    /// The argument called `name`.
    pub fn get(&self, name: &str) -> Option<&Arg> {
        self.args.iter().find(|(n, _)| n == name).map(|(_, a)| a)
    }
}

impl fmt::Display for Words {
    /// `id(name=value, ...)`: for logs and tests, not for people.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id)?;
        if self.args.is_empty() {
            return Ok(());
        }
        f.write_str("(")?;
        for (i, (name, arg)) in self.args.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{name}={arg}")?;
        }
        f.write_str(")")
    }
}

impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Number(n) => write!(f, "{n}"),
            Arg::Color(c) => f.write_str(c),
            Arg::Tokens(list) => {
                f.write_str("[")?;
                for (i, (n, c)) in list.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{n} {c}")?;
                }
                f.write_str("]")
            }
            Arg::Text(t) => write!(f, "{t:?}"),
            Arg::Words(w) => write!(f, "{w}"),
        }
    }
}

/// The colour word of [`COLORS`] that reads `word` (for words read back
/// from another node); `None` for any other text.
pub fn color_word(word: &str) -> Option<&'static str> {
    COLORS.iter().copied().find(|c| *c == word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_the_id_and_every_argument() {
        let words = Words::new("take-two-supply")
            .num("left", 1)
            .color("color", "red")
            .text("name", "ann")
            .tokens("cost", vec![(2, "red"), (1, "gold")])
            .words("detail", Words::new("name-visible"));
        assert_eq!(
            words.to_string(),
            r#"take-two-supply(left=1, color=red, name="ann", cost=[2 red 1 gold], detail=name-visible)"#
        );
        assert_eq!(words.get("left"), Some(&Arg::Number(1)));
        assert_eq!(Words::new("game-over").to_string(), "game-over");
    }
}
