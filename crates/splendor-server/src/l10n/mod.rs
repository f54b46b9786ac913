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
//! and the browser page's words (`/l10n.js`).

use splendor_words::Words;
pub use splendor_words::fluent::{Lang, english};
use splendor_words::fluent::{Problem, word_checked};

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

/// The browser page's words (issue 49), as a script for the page
/// (`/l10n.js`): for each language, the text of its `page.ftl` and of the
/// server's own `server.ftl` (the colour words the page shows are the
/// server's), as they are. The page words them with Fluent's JavaScript
/// implementation: one source for the server's words and the page's.
pub(crate) fn page_l10n_script() -> String {
    let mut sources = serde_json::Map::new();
    for lang in Lang::ALL {
        sources.insert(
            lang.code().to_owned(),
            serde_json::json!({ "page": lang.page_source(), "server": lang.source() }),
        );
    }
    format!(
        "// Made by the server from crates/splendor-words/locales/<lang>/{{page,server}}.ftl\n\
         // (issue 49): the page's words, worded by i18n.js with @fluent/bundle.\n\
         'use strict';\n\
         globalThis.SPLENDOR_FTL = {};\n",
        serde_json::Value::Object(sources)
    )
}

#[cfg(test)]
mod tests;
