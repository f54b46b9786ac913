//! What people are told, in their language (issues 11 and 19): English,
//! Dutch, French and German.
//!
//! Decisions are made deep inside (the rules, a room, the gateway) and say
//! what they decided as [`Words`]: a message id and typed arguments. They
//! are worded only at the edge, here, in the connection's language, by
//! `splendor_words::fluent` from the `.ftl` files of
//! `crates/splendor-words/locales/` (see there how arguments are said).
//! This module adds what the gateway needs: the language a connection
//! chose, shared by its reader and writer, the log of a wording problem,
//! and the game's terms for the browser page (`/terms.js`).

use splendor_words::Words;
pub use splendor_words::fluent::{Lang, english};
use splendor_words::fluent::{Problem, color_word, word_checked};

/// A connection's language, shared by its reader (which sets it on
/// `hello`) and its writer (which words `room_closed` and the close frame).
#[derive(Clone, Debug, Default)]
pub(crate) struct LangCell(std::sync::Arc<std::sync::atomic::AtomicU8>);

impl LangCell {
    /// The language now.
    pub(crate) fn get(&self) -> Lang {
        let i = self.0.load(std::sync::atomic::Ordering::Relaxed);
        Lang::ALL.get(usize::from(i)).copied().unwrap_or_default()
    }

    /// Says the connection's messages in `lang` from now on.
    pub(crate) fn set(&self, lang: Lang) {
        // At most 4: fits.
        self.0
            .store(lang.index() as u8, std::sync::atomic::Ordering::Relaxed);
    }
}

/// `words` in `lang`. A problem on the way (a message or an argument
/// missing from a file: the tests allow none) is logged, and the words are
/// still said as well as they can be.
pub fn word(lang: Lang, words: &Words) -> String {
    let (text, problems) = word_checked(lang, words);
    for Problem(problem) in problems {
        tracing::warn!(%words, problem, "wording");
    }
    text
}

/// The game's terms the browser page shares with the server's words, as
/// a script for the page (`/terms.js`): for each language, its words for
/// the colours (`color-white` in the file is `color.white` in the page's
/// tables). The page's own tables do not repeat them: the `.ftl` files are
/// the one source of the game's terms in each language.
pub(crate) fn page_terms_script() -> String {
    let mut script = String::from(
        "// Made by the server from crates/splendor-words/locales/<lang>/server.ftl:\n\
         // the game's terms the page shares with the server's words (issue 19).\n\
         'use strict';\n",
    );
    for lang in Lang::ALL {
        let terms: serde_json::Map<String, serde_json::Value> = splendor_words::COLORS
            .iter()
            .map(|color| {
                let word = color_word(lang, color);
                (format!("color.{color}"), serde_json::Value::String(word))
            })
            .collect();
        let table = serde_json::Value::Object(terms);
        script.push_str(&format!("globalThis.addMessages('{lang}', {table});\n"));
    }
    script
}

#[cfg(test)]
mod tests;
