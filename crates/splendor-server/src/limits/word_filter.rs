//! The host's word filter (issue 22): words a host does not want in names
//! or chat, from a file the host edits (none by default).
//!
//! The file has one word per line; `#` starts a comment; a line may name
//! its language (`nl: woord`), which only sorts the file: every word
//! applies to every name and chat line, since players of all languages
//! read them. A word ending in `*` also matches every word it begins
//! (`idiot*` matches "idiots"). Words match whole words of the text, in any
//! case, so "class" is not caught by "ass" (the Scunthorpe problem). A
//! name with such a word is refused; in chat each such word is masked with
//! `*` before the line is relayed, so it is never shown.
//!
//! Words are compared in their folded form (issue 46,
//! [`splendor_names::fold`]): "ІDІОТ" in Cyrillic, "ｉｄｉｏｔ" and "ídiot"
//! are caught as "idiot" is; a name is also caught when, spaces and
//! punctuation removed, it is such a word ("i.d i o t").

use std::path::Path;

/// The words to keep out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WordFilter {
    /// Lowercased words, with whether they match as prefixes.
    words: Vec<(String, bool)>,
}

impl WordFilter {
    /// The filter in `text` (the file's content); an error names the line.
    pub fn parse(text: &str) -> Result<WordFilter, String> {
        let mut words = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or_default().trim();
            if line.is_empty() {
                continue;
            }
            let word = match line.split_once(':') {
                Some((lang, word))
                    if lang.trim().len() <= 8
                        && lang
                            .trim()
                            .chars()
                            .all(|c| c.is_ascii_alphabetic() || c == '-') =>
                {
                    word.trim()
                }
                _ => line,
            };
            let (word, prefix) = match word.strip_suffix('*') {
                Some(stem) => (stem, true),
                None => (word, false),
            };
            if word.is_empty() || !word.chars().all(char::is_alphanumeric) {
                return Err(format!(
                    "line {}: {line:?} is not one word (letters and digits, an optional * at the end)",
                    n + 1
                ));
            }
            let folded = splendor_names::fold(word);
            if folded.is_empty() {
                return Err(format!(
                    "line {}: {line:?} has no letter or digit a name could show",
                    n + 1
                ));
            }
            words.push((folded, prefix));
        }
        Ok(WordFilter { words })
    }

    /// The filter in the file at `path`.
    pub fn load(path: &Path) -> Result<WordFilter, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("--word-filter {}: {e}", path.display()))?;
        WordFilter::parse(&text).map_err(|e| format!("--word-filter {}: {e}", path.display()))
    }

    /// How many words it holds.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    fn catches(&self, word: &str) -> bool {
        let word = splendor_names::fold(word);
        if word.is_empty() {
            return false;
        }
        self.words.iter().any(|(w, prefix)| {
            if *prefix {
                word.starts_with(w.as_str())
            } else {
                word == *w
            }
        })
    }

    /// The words of `text`, as (start, end) byte ranges.
    fn words_of(text: &str) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut start = None;
        for (i, c) in text.char_indices() {
            match (c.is_alphanumeric(), start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    out.push((s, i));
                    start = None;
                }
                _ => {}
            }
        }
        if let Some(s) = start {
            out.push((s, text.len()));
        }
        out
    }

    /// The first word of `text` the filter catches.
    pub fn find<'a>(&self, text: &'a str) -> Option<&'a str> {
        if self.words.is_empty() {
            return None;
        }
        WordFilter::words_of(text)
            .into_iter()
            .map(|(s, e)| &text[s..e])
            .find(|w| self.catches(w))
    }

    /// The word of a name the filter catches: one of its words, or the
    /// whole name read as one word ("s.p a m" is "spam").
    pub fn find_in_name<'a>(&self, name: &'a str) -> Option<&'a str> {
        if self.words.is_empty() {
            return None;
        }
        self.find(name)
            .or_else(|| self.catches(name).then_some(name.trim()))
    }

    /// `text` with every caught word masked by `*`, one per character.
    pub fn mask(&self, text: &str) -> String {
        if self.words.is_empty() {
            return text.to_owned();
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (s, e) in WordFilter::words_of(text) {
            if self.catches(&text[s..e]) {
                out.push_str(&text[at..s]);
                out.extend(std::iter::repeat_n('*', text[s..e].chars().count()));
                at = e;
            }
        }
        out.push_str(&text[at..]);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter() -> WordFilter {
        WordFilter::parse(
            "# the host's list\n\
             en: idiot*\n\
             nl: sukkel\n\
             ass\n\
             \n\
             de: Depp   # a comment\n",
        )
        .unwrap()
    }

    #[test]
    fn whole_words_in_any_case_are_caught_and_masked() {
        let f = filter();
        assert_eq!(f.len(), 4);
        assert_eq!(f.find("you IDIOTS!"), Some("IDIOTS"));
        assert_eq!(f.find("wat een sukkel"), Some("sukkel"));
        assert_eq!(f.find("du Depp"), Some("Depp"));
        // Not inside other words.
        assert_eq!(f.find("first class passage"), None);
        assert_eq!(f.find("sukkels"), None);
        assert_eq!(f.mask("you idiot, sukkel!"), "you *****, ******!");
        assert_eq!(f.mask("a classic"), "a classic");
        assert_eq!(f.mask("Zoë the ass"), "Zoë the ***");
    }

    #[test]
    fn look_alikes_are_caught_and_a_name_is_read_whole_too() {
        let f = filter();
        for text in [
            "you \u{0406}D\u{0406}\u{041E}T",
            "ｉｄｉｏｔ",
            "\u{ED}diot",
            "𝐢𝐝𝐢𝐨𝐭s",
        ] {
            assert!(f.find(text).is_some(), "{text:?}");
        }
        assert_eq!(f.find_in_name("i.d i o t"), Some("i.d i o t"));
        assert_eq!(f.find_in_name("s u k k e l"), Some("s u k k e l"));
        assert_eq!(f.find_in_name("the idiot"), Some("idiot"));
        assert_eq!(f.find_in_name("first class"), None);
        assert_eq!(f.find_in_name("Ann"), None);
        assert!(WordFilter::parse("!!!\n").is_err());
    }

    #[test]
    fn an_empty_filter_changes_nothing_and_bad_lines_are_named() {
        let none = WordFilter::default();
        assert!(none.is_empty());
        assert_eq!(none.mask("anything"), "anything");
        assert_eq!(none.find("anything"), None);
        let e = WordFilter::parse("ok\ntwo words\n").unwrap_err();
        assert!(e.contains("line 2"), "{e}");
        assert!(WordFilter::parse("*\n").is_err());
    }
}
