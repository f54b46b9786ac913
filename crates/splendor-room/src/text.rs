//! One rule for every text people show each other: display names and chat
//! (issue 22, defect 3). Names and chat lines are shown to strangers, so
//! beyond control characters they may not hold characters that render as
//! nothing or reorder the text around them (zero-width characters, bidi
//! embeddings and overrides, fillers such as U+2800 and U+3164), nor
//! stacks of combining marks that spill over the lines above and below
//! ("zalgo"). Emoji keep working: a zero-width joiner or a variation
//! selector is allowed right after an emoji (or a keycap's digit), where it
//! belongs.

/// The most combining marks on one character: decomposed Vietnamese needs
/// two, a few scripts three; zalgo stacks many more.
pub const MAX_STACKED_MARKS: usize = 3;

/// What is wrong with a text that people would see.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextProblem {
    /// A control character (line breaks included).
    Control(char),
    /// A character that renders as nothing or reorders text.
    Invisible(char),
    /// More than [`MAX_STACKED_MARKS`] combining marks on one character.
    StackedMarks,
}

impl TextProblem {
    /// The character's code point, `XXXX` (none for stacked marks).
    pub fn code(self) -> Option<String> {
        match self {
            TextProblem::Control(c) | TextProblem::Invisible(c) => {
                Some(format!("{:04X}", u32::from(c)))
            }
            TextProblem::StackedMarks => None,
        }
    }
}

/// The first problem of `text` by the rule above, if any.
pub fn text_problem(text: &str) -> Option<TextProblem> {
    let mut previous: Option<char> = None;
    let mut marks = 0;
    for c in text.chars() {
        if c.is_control() {
            return Some(TextProblem::Control(c));
        }
        let joins_emoji = matches!(c, '\u{200D}' | '\u{FE0E}' | '\u{FE0F}')
            && previous.is_some_and(|p| is_emoji(p) || p == '\u{FE0F}' || is_keycap_base(p));
        if is_invisible(c) && !joins_emoji {
            return Some(TextProblem::Invisible(c));
        }
        if is_combining_mark(c) {
            marks += 1;
            if marks > MAX_STACKED_MARKS {
                return Some(TextProblem::StackedMarks);
            }
        } else {
            marks = 0;
        }
        previous = Some(c);
    }
    None
}

/// Characters that render as nothing or reorder text: format characters
/// (Unicode category Cf) in common use, blank fillers, and separators other
/// than the space.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}'                  // soft hyphen
        | '\u{034F}'                // combining grapheme joiner
        | '\u{061C}'                // Arabic letter mark
        | '\u{115F}' | '\u{1160}'   // Hangul fillers
        | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}'   // Mongolian variation selectors and vowel separator
        | '\u{2000}'..='\u{200F}'   // odd-width spaces, zero-width characters, LRM, RLM
        | '\u{2028}'..='\u{202F}'   // line and paragraph separators, bidi embeddings and overrides
        | '\u{205F}'..='\u{206F}'   // word joiner, invisible operators, bidi isolates
        | '\u{2800}'                // Braille pattern blank
        | '\u{3000}'                // ideographic space
        | '\u{3164}'                // Hangul filler
        | '\u{FE00}'..='\u{FE0F}'   // variation selectors
        | '\u{FEFF}'                // zero-width no-break space
        | '\u{FFA0}'                // halfwidth Hangul filler
        | '\u{FFF0}'..='\u{FFFB}'   // specials, interlinear annotation
        | '\u{1D159}'               // musical symbol null notehead
        | '\u{1D173}'..='\u{1D17A}' // musical formatting characters
        | '\u{E0000}'..='\u{E007F}' // tags
        | '\u{E0100}'..='\u{E01EF}' // variation selectors supplement
    )
}

/// Combining marks of the common blocks (what zalgo stacks, and the
/// accents of decomposed letters).
pub fn is_combining_mark(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036F}'
        | '\u{0483}'..='\u{0489}'
        | '\u{0591}'..='\u{05BD}'
        | '\u{0610}'..='\u{061A}'
        | '\u{064B}'..='\u{065F}'
        | '\u{0900}'..='\u{0903}'
        | '\u{093A}'..='\u{094F}'
        | '\u{1AB0}'..='\u{1AFF}'
        | '\u{1DC0}'..='\u{1DFF}'
        | '\u{20D0}'..='\u{20FF}'
        | '\u{3099}' | '\u{309A}'
        | '\u{FE20}'..='\u{FE2F}'
    )
}

/// Pictographs that joiners and variation selectors follow in emoji.
fn is_emoji(c: char) -> bool {
    matches!(c,
        '\u{00A9}' | '\u{00AE}'
        | '\u{203C}' | '\u{2049}'
        | '\u{2122}' | '\u{2139}'
        | '\u{2190}'..='\u{21FF}'
        | '\u{2300}'..='\u{23FF}'
        | '\u{24C2}'
        | '\u{25A0}'..='\u{27BF}'
        | '\u{2900}'..='\u{297F}'
        | '\u{2B00}'..='\u{2BFF}'
        | '\u{3030}' | '\u{303D}' | '\u{3297}' | '\u{3299}'
        | '\u{1F000}'..='\u{1FAFF}'
    )
}

/// A keycap emoji starts with a digit, `#` or `*` and a variation selector.
fn is_keycap_base(c: char) -> bool {
    c.is_ascii_digit() || c == '#' || c == '*'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visible_text_and_emoji_pass() {
        for ok in [
            "good game!",
            "Zoë",
            "Zoe\u{0301}",
            "Vie\u{0323}\u{0302}t",
            "李小龙",
            "ἄλφα",
            "❤️",
            "👨‍👩‍👧",
            "👍🏽",
            "1️⃣",
            "🏳️‍🌈",
        ] {
            assert_eq!(text_problem(ok), None, "{ok:?}");
        }
    }

    #[test]
    fn control_invisible_bidi_and_blank_characters_are_refused() {
        for (bad, problem) in [
            ("a\nb", TextProblem::Control('\n')),
            ("a\u{7}b", TextProblem::Control('\u{7}')),
            ("admin\u{202E}gnp.exe", TextProblem::Invisible('\u{202E}')),
            ("\u{202E}ann", TextProblem::Invisible('\u{202E}')),
            ("a\u{2066}b", TextProblem::Invisible('\u{2066}')),
            ("\u{2800}", TextProblem::Invisible('\u{2800}')),
            (
                "\u{2800}\u{2800}\u{2800}",
                TextProblem::Invisible('\u{2800}'),
            ),
            ("a\u{200B}b", TextProblem::Invisible('\u{200B}')),
            ("\u{200D}", TextProblem::Invisible('\u{200D}')),
            ("a\u{200D}b", TextProblem::Invisible('\u{200D}')),
            ("a\u{FE0F}", TextProblem::Invisible('\u{FE0F}')),
            ("\u{3164}", TextProblem::Invisible('\u{3164}')),
            ("\u{E0041}", TextProblem::Invisible('\u{E0041}')),
        ] {
            assert_eq!(text_problem(bad), Some(problem), "{bad:?}");
        }
        assert_eq!(TextProblem::Invisible('\u{202E}').code().unwrap(), "202E");
    }

    #[test]
    fn stacks_of_combining_marks_are_refused() {
        assert_eq!(text_problem("a\u{0301}\u{0302}\u{0303}"), None);
        let zalgo = "h\u{0335}\u{0321}\u{0322}\u{0327}\u{0328}e\u{0334}llo";
        assert_eq!(text_problem(zalgo), Some(TextProblem::StackedMarks));
        assert_eq!(
            text_problem("a\u{0301}\u{0302}\u{0303}\u{0304}"),
            Some(TextProblem::StackedMarks)
        );
        // Marks on different letters do not add up.
        assert_eq!(text_problem("a\u{0301}\u{0302}b\u{0303}\u{0304}"), None);
    }
}
