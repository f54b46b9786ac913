//! Display names: how long, and which characters.
//!
//! Names are shown to strangers, so beyond control characters the default
//! also refuses invisible and direction-changing characters (zero-width
//! spaces, bidi overrides), which let one name pass for another or garble
//! the text around it, and names drawn wider than [`NamePolicy::max_width`]
//! columns: East Asian letters count two, and glyphs drawn many columns
//! wide (U+FDFD, cuneiform: `splendor_names::is_very_wide`) are refused
//! (issue 46: 24 copies of U+FDFD made a name many screens wide).

use std::fmt;
use std::str::FromStr;

use splendor_protocol::Words;

/// The longest name any configuration allows: the store's column limit.
pub const MAX_NAME_CHARS_LIMIT: usize = 64;

/// Which characters a display name may use (besides inner spaces).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NameChars {
    /// Any visible character: no control, invisible or bidi characters.
    #[default]
    Printable,
    /// Letters and digits of any script, spaces and `-_.'`.
    Words,
    /// ASCII letters and digits, spaces and `-_.`.
    Ascii,
}

impl NameChars {
    fn allows(self, c: char) -> bool {
        match self {
            NameChars::Printable => !c.is_control() && !is_invisible(c),
            NameChars::Words => {
                c.is_alphanumeric() || c == ' ' || "-_.'".contains(c) || is_combining_mark(c)
            }
            NameChars::Ascii => c.is_ascii_alphanumeric() || " -_.".contains(c),
        }
    }

    fn describe(self) -> Words {
        Words::new(match self {
            NameChars::Printable => "name-allows-visible",
            NameChars::Words => "name-allows-words",
            NameChars::Ascii => "name-allows-ascii",
        })
    }
}

impl FromStr for NameChars {
    type Err = String;

    fn from_str(text: &str) -> Result<NameChars, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "printable" => Ok(NameChars::Printable),
            "words" => Ok(NameChars::Words),
            "ascii" => Ok(NameChars::Ascii),
            other => Err(format!(
                "{other:?} is not a name character set: use printable, words or ascii"
            )),
        }
    }
}

impl fmt::Display for NameChars {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NameChars::Printable => "printable",
            NameChars::Words => "words",
            NameChars::Ascii => "ascii",
        })
    }
}

use splendor_lobby::text::{TextProblem, is_combining_mark, is_invisible, text_problem};

/// How display names are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamePolicy {
    /// The most characters (Unicode scalar values) after trimming.
    pub max_chars: usize,
    /// Which characters a name may use.
    pub chars: NameChars,
    /// The most columns it may take when drawn (UAX #11 widths).
    pub max_width: usize,
}

/// The most columns a name takes by default.
pub const DEFAULT_MAX_WIDTH: usize = 20;

impl Default for NamePolicy {
    fn default() -> Self {
        NamePolicy {
            max_chars: 24,
            chars: NameChars::Printable,
            max_width: DEFAULT_MAX_WIDTH,
        }
    }
}

impl NamePolicy {
    /// Trims surrounding white space and checks the rest as a new name;
    /// returns the name to keep, or the words for the client that say what
    /// is wrong.
    pub fn check(&self, name: &str) -> Result<String, Words> {
        let name = self.check_kept(name)?;
        self.check_width(&name)?;
        Ok(name)
    }

    /// [`NamePolicy::check`] without the width: for a name a session has
    /// already (a name taken before the width was limited stays).
    pub fn check_kept(&self, name: &str) -> Result<String, Words> {
        // Only white space is trimmed: an invisible or bidi character at
        // either end is refused like one inside (it used to be stripped
        // silently).
        // Runs of spaces inside are folded into one (issue 23: a name
        // typed with two spaces is not worth a refusal).
        let folded = fold_spaces(name.trim());
        let name = folded.as_str();
        if name.is_empty() {
            return Err(Words::new("name-empty"));
        }
        let count = name.chars().count();
        if count > self.max_chars {
            return Err(Words::new("name-too-long")
                .count("count", count)
                .count("max", self.max_chars));
        }
        // The rule chat shares (splendor_lobby::text), whatever the set.
        match text_problem(name) {
            Some(TextProblem::StackedMarks) => {
                return Err(Words::new("name-stacked-marks")
                    .count("max", splendor_lobby::text::MAX_STACKED_MARKS));
            }
            Some(TextProblem::Control(c) | TextProblem::Invisible(c)) => {
                return Err(bad_char(c).words("allowed", self.chars.describe()));
            }
            None => {}
        }
        if let Some(bad) = name.chars().find(|&c| !self.chars.allows(c)) {
            return Err(bad_char(bad).words("allowed", self.chars.describe()));
        }
        Ok(folded)
    }

    /// Whether a checked name is narrow enough (issue 46): no glyph drawn
    /// many columns wide, and at most [`NamePolicy::max_width`] columns.
    pub fn check_width(&self, name: &str) -> Result<(), Words> {
        if let Some(wide) = name.chars().find(|&c| splendor_names::is_very_wide(c)) {
            let code = format!("{:04X}", u32::from(wide));
            return Err(Words::new("name-wide-glyph").text("code", code));
        }
        let width = splendor_names::width(name);
        if width > self.max_width {
            return Err(Words::new("name-too-wide")
                .count("width", width)
                .count("max", self.max_width));
        }
        Ok(())
    }
}

/// `text` with every run of plain spaces made one space.
fn fold_spaces(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ' ' && out.ends_with(' ') {
            continue;
        }
        out.push(c);
    }
    out
}

/// A character as a client can read it back: visible ones quoted, others
/// by code point only.
fn bad_char(c: char) -> Words {
    let code = format!("{:04X}", u32::from(c));
    if c.is_control() || is_invisible(c) || c.is_whitespace() {
        Words::new("name-invisible").text("code", code)
    } else {
        Words::new("name-char")
            .text("char", format!("{c:?}"))
            .text("code", code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(policy: NamePolicy, name: &str) -> Result<String, String> {
        policy.check(name).map_err(|w| crate::l10n::english(&w))
    }

    fn with(chars: NameChars, max_chars: usize) -> NamePolicy {
        NamePolicy {
            max_chars,
            chars,
            max_width: max_chars,
        }
    }

    #[test]
    fn names_are_trimmed_and_counted_in_characters() {
        let p = NamePolicy::default();
        assert_eq!(check(p, "  Ann ").unwrap(), "Ann");
        assert!(check(p, "  Ann \u{200B}").unwrap_err().contains("U+200B"));
        assert_eq!(check(p, "Zoë").unwrap(), "Zoë");
        assert!(check(with(NameChars::Printable, 24), &"é".repeat(24)).is_ok());
        let long = check(with(NameChars::Printable, 24), &"x".repeat(25)).unwrap_err();
        assert!(long.contains("25 characters"), "{long}");
        assert!(check(p, "   ").unwrap_err().contains("empty"));
        // Runs of spaces inside are folded, and counted once.
        assert_eq!(check(p, " Ann   Lee ").unwrap(), "Ann Lee");
        assert_eq!(check(p, &format!("a{}b", " ".repeat(40))).unwrap(), "a b");
        assert!(check(p, "\u{200B}").unwrap_err().contains("U+200B"));
        assert!(check(with(NameChars::Printable, 3), "abcd").is_err());
    }

    #[test]
    fn printable_refuses_control_invisible_and_bidi_characters() {
        let p = NamePolicy::default();
        assert!(check(p, "Ann Lee").is_ok());
        assert!(check(p, "Ann 🎲").is_ok());
        assert!(check(p, "李小龙").is_ok());
        for bad in [
            "a\nb",
            "a\u{7}b",
            "a\u{200B}b",
            "admin\u{202E}gnp.exe",
            "a\u{2066}b",
            "a\u{FEFF}b",
            "a\u{3164}b",
            "\u{202E}ann",
            "ann\u{202E}",
            "\u{2800}",
            "a\u{2800}b",
        ] {
            let e = check(p, bad).unwrap_err();
            assert!(e.contains("U+"), "{bad:?}: {e}");
        }
        assert_eq!(check(p, "a  b").unwrap(), "a b");
        // Zalgo, in every character set that allows marks at all.
        let zalgo = "Z\u{0335}\u{0321}\u{0322}\u{0327}\u{0328}oe";
        for chars in [NameChars::Printable, NameChars::Words] {
            let e = check(with(chars, 24), zalgo).unwrap_err();
            assert!(e.contains("3"), "{e}");
        }
        assert!(check(p, "Vie\u{0323}\u{0302}t").is_ok());
    }

    #[test]
    fn names_are_at_most_twenty_columns_wide_and_hold_no_very_wide_glyph() {
        let p = NamePolicy::default();
        assert!(check(p, &"x".repeat(20)).is_ok());
        let wide = check(p, &"x".repeat(21)).unwrap_err();
        assert!(wide.contains("21 columns"), "{wide}");
        // East Asian letters take two columns each.
        assert!(check(p, &"李".repeat(10)).is_ok());
        assert!(check(p, &"李".repeat(11)).is_err());
        // Accents take none.
        assert!(check(p, "Vie\u{0323}\u{0302}t").is_ok());
        // U+FDFD and cuneiform are drawn many columns wide (issue 46).
        for bad in ["\u{FDFD}", "a\u{FDFA}", "\u{1242B}", &"\u{FDFD}".repeat(24)] {
            let e = check(p, bad).unwrap_err();
            assert!(e.contains("drawn"), "{bad:?}: {e}");
        }
    }

    #[test]
    fn words_allows_letters_of_any_script_only() {
        let p = with(NameChars::Words, 24);
        assert!(check(p, "Zoë O'Neil").is_ok());
        assert!(check(p, "Zoe\u{0301}").is_ok());
        assert!(check(p, "Élodie-2_b.").is_ok());
        assert!(check(p, "李小龙").is_ok());
        let e = check(p, "Ann 🎲").unwrap_err();
        assert!(e.contains("letters, digits"), "{e}");
        assert!(check(p, "<b>").is_err());
    }

    #[test]
    fn ascii_allows_plain_names_only() {
        let p = with(NameChars::Ascii, 24);
        assert!(check(p, "Ann_Lee-2.0").is_ok());
        assert!(check(p, "Zoë").unwrap_err().contains("'ë'"));
        assert!(check(p, "a'b").is_err());
    }

    #[test]
    fn the_character_set_parses_from_configuration() {
        assert_eq!("ASCII".parse::<NameChars>(), Ok(NameChars::Ascii));
        assert_eq!("words".parse::<NameChars>(), Ok(NameChars::Words));
        assert_eq!("printable".parse::<NameChars>(), Ok(NameChars::Printable));
        assert!("emoji".parse::<NameChars>().is_err());
        for set in [NameChars::Printable, NameChars::Words, NameChars::Ascii] {
            assert_eq!(set.to_string().parse::<NameChars>(), Ok(set));
        }
    }
}
