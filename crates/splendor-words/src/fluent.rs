//! Words in a language (feature `fluent`): English, Dutch, French and
//! German, worded by Fluent (`fluent-bundle`) from the `.ftl` files in
//! `locales/`, one directory per language, built into the binary.
//!
//! One concurrent bundle per language is made at first use, with Unicode
//! isolation marks off, so no invisible bidi characters enter the JSON.
//! The arguments become Fluent values here:
//! - a number stays a number, so each language picks its plural forms
//!   (French counts 0 as singular, Dutch and German do not);
//! - a colour becomes the language's word (`color-*` messages);
//! - a token list becomes "2 red and 1 gold" in the language's words
//!   (`tokens-item`, `list-and`, `tokens-none`);
//! - a nested message is worded first;
//! - text (names, codes, quoted input) is kept as it is.
//!
//! A message missing in a language falls back to English (the server's
//! tests forbid it), and one missing in English shows its id.

use std::fmt;
use std::sync::LazyLock;

use crate::{Arg, Words};
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

/// A language the server speaks to people in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Lang {
    /// English (the default).
    #[default]
    En,
    /// Dutch.
    Nl,
    /// French.
    Fr,
    /// German.
    De,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 4] = [Lang::En, Lang::Nl, Lang::Fr, Lang::De];

    /// The code `hello` names it by and `welcome` echoes (ISO 639-1).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Nl => "nl",
            Lang::Fr => "fr",
            Lang::De => "de",
        }
    }

    /// The language `hello`'s `lang` names: a code of [`Lang::ALL`] in any
    /// case, optionally with a region (`nl-BE`, `fr_CA`), which is dropped.
    /// Otherwise the words of the `invalid_field` error, listing them.
    pub fn parse(text: &str) -> Result<Lang, Words> {
        let language = text.split(['-', '_']).next().unwrap_or_default();
        Lang::ALL
            .into_iter()
            .find(|lang| lang.code().eq_ignore_ascii_case(language))
            .ok_or_else(|| {
                let codes: Vec<&str> = Lang::ALL.iter().map(|l| l.code()).collect();
                Words::new("conn-hello-lang")
                    .text("langs", codes.join(", "))
                    .text("value", format!("{text:?}"))
            })
    }

    /// The server's messages in this language: the text of its `.ftl` file.
    pub fn source(self) -> &'static str {
        match self {
            Lang::En => include_str!("../locales/en/server.ftl"),
            Lang::Nl => include_str!("../locales/nl/server.ftl"),
            Lang::Fr => include_str!("../locales/fr/server.ftl"),
            Lang::De => include_str!("../locales/de/server.ftl"),
        }
    }

    /// The browser page's messages in this language (issue 49): the text
    /// of its `page.ftl`, which the server hands the page as it is.
    pub fn page_source(self) -> &'static str {
        match self {
            Lang::En => include_str!("../locales/en/page.ftl"),
            Lang::Nl => include_str!("../locales/nl/page.ftl"),
            Lang::Fr => include_str!("../locales/fr/page.ftl"),
            Lang::De => include_str!("../locales/de/page.ftl"),
        }
    }

    /// The language's place in [`Lang::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// `words` in `lang`, said as well as they can be (see [`word_checked`]
/// for the problems met on the way).
pub fn word(lang: Lang, words: &Words) -> String {
    word_checked(lang, words).0
}

/// The language's word for a protocol colour word (one of
/// [`COLORS`](crate::COLORS)).
pub fn color_word(lang: Lang, color: &str) -> String {
    BUNDLES.message(lang, &color_id(color), None, &mut Vec::new())
}

/// `words` in English: for logs and tests.
pub fn english(words: &Words) -> String {
    word(Lang::En, words)
}

/// Nested messages are worded this deep at most (deeper ones show their id).
const MAX_DEPTH: usize = 4;

type Bundle = FluentBundle<FluentResource>;

/// One bundle per language, in [`Lang::ALL`] order.
struct Bundles([Bundle; 4]);

static BUNDLES: LazyLock<Bundles> = LazyLock::new(|| {
    Bundles(
        Lang::ALL
            .map(|lang| bundle(lang).unwrap_or_else(|e| panic!("locales/{lang}/server.ftl: {e}"))),
    )
});

/// Whether one language's file makes a bundle; the error names what is
/// wrong with it.
pub fn check_file(lang: Lang) -> Result<(), String> {
    bundle(lang).map(drop)
}

/// Whether one language's `page.ftl` makes a bundle (the page words it
/// with Fluent's JavaScript implementation; both read the same syntax).
pub fn check_page_file(lang: Lang) -> Result<(), String> {
    bundle_of(lang, lang.page_source()).map(drop)
}

/// The bundle of one language's file; an error names what is wrong with it.
fn bundle(lang: Lang) -> Result<Bundle, String> {
    bundle_of(lang, lang.source())
}

fn bundle_of(lang: Lang, source: &str) -> Result<Bundle, String> {
    let id = lang
        .code()
        .parse()
        .map_err(|e| format!("language id: {e}"))?;
    let resource = FluentResource::try_new(source.to_owned())
        .map_err(|(_, errors)| format!("syntax: {errors:?}"))?;
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    bundle.set_use_isolating(false);
    bundle
        .add_resource(resource)
        .map_err(|errors| format!("{errors:?}"))?;
    Ok(bundle)
}

/// A problem met while wording (a message or an argument missing from a
/// file): the tests allow none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem(pub String);

impl Bundles {
    fn word(&self, lang: Lang, words: &Words, problems: &mut Vec<Problem>) -> String {
        self.word_at(lang, words, problems, 0)
    }

    fn word_at(
        &self,
        lang: Lang,
        words: &Words,
        problems: &mut Vec<Problem>,
        depth: usize,
    ) -> String {
        let mut args = FluentArgs::new();
        for (name, arg) in words.args() {
            let value: FluentValue<'_> = match arg {
                Arg::Number(n) => FluentValue::from(*n),
                Arg::Color(color) => self.message(lang, &color_id(color), None, problems).into(),
                Arg::Tokens(list) => self.tokens(lang, list, problems).into(),
                Arg::Text(text) => FluentValue::from(text.as_str()),
                Arg::Words(inner) if depth < MAX_DEPTH => {
                    self.word_at(lang, inner, problems, depth + 1).into()
                }
                Arg::Words(inner) => FluentValue::from(inner.id().to_owned()),
            };
            args.set(name.clone(), value);
        }
        self.message(lang, words.id(), Some(&args), problems)
    }

    /// The message `id` of `lang` with `args`; English where the language
    /// lacks it, the id where English does too.
    fn message(
        &self,
        lang: Lang,
        id: &str,
        args: Option<&FluentArgs<'_>>,
        problems: &mut Vec<Problem>,
    ) -> String {
        for lang in [lang, Lang::En] {
            let bundle = &self.0[lang.index()];
            let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
                problems.push(Problem(format!("{lang}: no message {id}")));
                continue;
            };
            let mut errors = Vec::new();
            let text = bundle.format_pattern(pattern, args, &mut errors);
            problems.extend(
                errors
                    .into_iter()
                    .map(|e| Problem(format!("{lang}: {id}: {e}"))),
            );
            return text.into_owned();
        }
        id.to_owned()
    }

    /// "2 red, 1 blue and 1 gold" in `lang`; its word for nothing when empty.
    fn tokens(
        &self,
        lang: Lang,
        list: &[(u32, &'static str)],
        problems: &mut Vec<Problem>,
    ) -> String {
        let mut items: Vec<String> = list
            .iter()
            .map(|(n, color)| {
                let mut args = FluentArgs::new();
                args.set("n", FluentValue::from(*n));
                let color = self.message(lang, &color_id(color), None, problems);
                args.set("color", FluentValue::from(color));
                self.message(lang, "tokens-item", Some(&args), problems)
            })
            .collect();
        let Some(last) = items.pop() else {
            return self.message(lang, "tokens-none", None, problems);
        };
        if items.is_empty() {
            return last;
        }
        let mut args = FluentArgs::new();
        args.set("head", FluentValue::from(items.join(", ")));
        args.set("last", FluentValue::from(last));
        self.message(lang, "list-and", Some(&args), problems)
    }
}

fn color_id(color: &str) -> String {
    format!("color-{color}")
}

/// `words` in `lang` with every problem met on the way (none, in a
/// correct file): for tests.
pub fn word_checked(lang: Lang, words: &Words) -> (String, Vec<Problem>) {
    let mut problems = Vec::new();
    let text = BUNDLES.word(lang, words, &mut problems);
    (text, problems)
}
