//! How names compare and how wide they are drawn (issue 46).
//!
//! Strangers choose names that pass for others: "ѕpammer" with a Cyrillic
//! `ѕ`, "ｓｐａｍｍｅｒ" in full width, "𝐬𝐩𝐚𝐦𝐦𝐞𝐫" in mathematical bold,
//! "sp ammer", "s.pammer", "sṕammer". [`fold`] gives the form in which
//! all of these are one name: NFKC (compatibility forms to plain ones),
//! lower case, combining marks dropped (NFD, then no `Mn`), only letters
//! and digits kept (spaces, punctuation and symbols dropped), then the
//! confusable skeleton of Unicode TS #39 (`unicode-security`), which maps
//! every look-alike of a letter to one representative. The skeleton is
//! made for text as written, where `I` and `l` look alike but `i` does not:
//! since case is folded first, `i`, `l`, `I`, `1` and `|` are made one
//! letter at the end ("AIice" is "Alice"). Ban patterns, the word filter
//! and the uniqueness of programs' names compare folded forms.
//!
//! Look-alikes cut both ways: the skeleton reads `m` as `rn`, so a filter
//! word "porn" also catches "pom", and `i` as `l` makes "Ali" and "All"
//! one name. A host chooses ban patterns and filter words knowing this.
//!
//! [`width`] is how many terminal columns a name takes (UAX #11, from
//! `unicode-width`); [`is_very_wide`] names the glyphs drawn far wider
//! than that (U+FDFA-U+FDFD, cuneiform), which a name may not hold.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;
use unicode_security::confusable_detection::skeleton;
use unicode_width::UnicodeWidthStr;

/// The folded form of `text`: equal for names a reader could take for
/// one another. Empty when `text` has no letter or digit.
pub fn fold(text: &str) -> String {
    let plain: String = text
        .nfkc()
        .flat_map(char::to_lowercase)
        .nfd()
        .filter(|&c| !is_combining_mark(c))
        // A bar is read as an l before punctuation goes ("A|ice").
        .map(|c| if c == '|' { 'l' } else { c })
        .filter(|c| c.is_alphanumeric())
        .collect();
    // The skeleton may give capitals or marks back for some look-alikes:
    // folded once more, so that the form is stable.
    let skeleton: String = skeleton(&plain).collect();
    skeleton
        .nfd()
        .filter(|&c| !is_combining_mark(c))
        .flat_map(char::to_lowercase)
        .filter(|c| c.is_alphanumeric())
        // Case is gone: the skeleton's I-for-l holds for i too.
        .map(|c| if c == 'i' { 'l' } else { c })
        .collect()
}

/// The columns `text` takes in a terminal (UAX #11: most letters one,
/// East Asian wide characters and emoji two, marks none).
pub fn width(text: &str) -> usize {
    text.width()
}

/// A glyph drawn many columns wide where [`width`] counts one or two: the
/// Arabic ligatures U+FDFA-U+FDFD (a whole phrase in one character), the
/// two- and three-em dashes, and the cuneiform blocks.
pub fn is_very_wide(c: char) -> bool {
    matches!(c,
        '\u{0BF5}' | '\u{0BF8}'            // Tamil year and rupee signs
        | '\u{A9C1}'..='\u{A9C5}'          // Javanese ornaments
        | '\u{FDFA}'..='\u{FDFD}'
        | '\u{2E3A}'..='\u{2E3B}'
        | '\u{12000}'..='\u{1254F}'        // cuneiform
        | '\u{13000}'..='\u{1345F}'        // Egyptian hieroglyphs
        | '\u{14400}'..='\u{1467F}') // Anatolian hieroglyphs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alikes_of_a_name_fold_to_its_own_form() {
        let spammer = fold("spammer");
        for alike in [
            "SPAMMER",
            "Spammer",
            "\u{0455}pammer", // Cyrillic dze
            "sp\u{0430}mmer", // Cyrillic a
            "ｓｐａｍｍｅｒ", // full width
            "𝐬𝐩𝐚𝐦𝐦𝐞𝐫",        // mathematical bold
            "sp ammer",
            "s.pammer",
            "s-p_a m'mer",
            "s\u{1E55}ammer",  // p with acute, precomposed
            "sp\u{0301}ammer", // p with a combining acute
            "spamrner",        // rn for m
        ] {
            assert_eq!(fold(alike), spammer, "{alike:?}");
        }
        let alice = fold("Alice");
        for alike in ["AIice", "A|ice", "ALICE", "a1ice", "alice"] {
            assert_eq!(fold(alike), alice, "{alike:?}");
        }
        assert_ne!(fold("spanner"), spammer);
        assert_ne!(fold("ann"), fold("anne"));
        // Names of other scripts keep their letters.
        assert_eq!(fold("李小龙"), fold(" 李 小龙 "));
        assert!(!fold("李小龙").is_empty());
        assert_eq!(fold("🎲 ... !"), "");
        // Folding twice changes nothing.
        for name in ["Zoë O'Neil", "ѕpаmmer", "𝐬𝐩𝐚𝐦", "Ǆemal", "ﬁne"] {
            assert_eq!(fold(&fold(name)), fold(name), "{name:?}");
        }
    }

    #[test]
    fn widths_are_columns_and_very_wide_glyphs_are_named() {
        assert_eq!(width("Ann"), 3);
        assert_eq!(width("李小龙"), 6);
        assert_eq!(width("Vie\u{0323}\u{0302}t"), 4);
        for wide in [
            '\u{FDFD}',
            '\u{FDFA}',
            '\u{1242B}',
            '\u{12000}',
            '\u{2E3B}',
            '\u{A9C5}',
            '\u{0BF5}',
            '\u{13000}',
        ] {
            assert!(is_very_wide(wide), "{wide:?}");
        }
        for plain in ['a', '李', 'ß', '\u{FDF9}', '🎲'] {
            assert!(!is_very_wide(plain), "{plain:?}");
        }
    }
}
