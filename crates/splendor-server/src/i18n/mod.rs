//! The server's messages for people in the client's language (issue 11):
//! English, Dutch, French and German.
//!
//! The ~100 places that refuse something write their message in English,
//! as before; nothing there changes. This module translates a finished
//! English message on its way out of the gateway ([`localize`]), so the
//! code that makes messages and the words they are said in stay apart:
//!
//! - `en`: the English *templates*, one per kind of message, as the code
//!   produces them, with named placeholders: `{n}` a number, `{color}` a
//!   protocol colour word (white, blue, green, red, black, gold), `{tokens}`
//!   a list of tokens ("1 red, 0 black and 1 gold", or "nothing"), `{type}`
//!   a client message type, `{text}` anything (names, codes, quoted input:
//!   kept as it is), `{detail}` anything that is itself a message (serde's
//!   explanations: translated in turn when a template matches it). A digit
//!   after the name tells two of a kind apart (`{n2}`).
//! - `nl`, `fr`, `de`: per language, each English template with its
//!   translation (the same placeholders, in any order), the colour words
//!   the browser page shows, and the words of a token list.
//!
//! At first use every template becomes an anchored regular expression; the
//! first template that matches a whole message gives the translation, with
//! the captured values filled in (colours and token lists in the language's
//! words, the rest as it was). A message no template matches stays English:
//! nothing is lost, and `error.code` is the contract anyway. A test
//! produces the real messages of the rules, the lobby, the protocol parser
//! and the gateway and checks that each one matches a template, so a change
//! of English wording without the catalogue fails it.
//!
//! Terms follow each language's Splendor rulebook (`shared/seeds`).

mod de;
mod en;
mod fr;
mod nl;

use std::borrow::Cow;
use std::fmt;
use std::sync::LazyLock;

use regex::{Captures, Regex};

/// A language the server speaks to people in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English, the language messages are made in (the default).
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
    /// Otherwise the message of the `invalid_field` error, listing them.
    pub fn parse(text: &str) -> Result<Lang, String> {
        let language = text.split(['-', '_']).next().unwrap_or_default();
        Lang::ALL
            .into_iter()
            .find(|lang| lang.code().eq_ignore_ascii_case(language))
            .ok_or_else(|| {
                let codes: Vec<&str> = Lang::ALL.iter().map(|l| l.code()).collect();
                format!(
                    "hello: \"lang\" is one of {} (a region like \"nl-BE\" is accepted), not {text:?}",
                    codes.join(", ")
                )
            })
    }

    /// The catalogue of a language other than English.
    fn catalogue(self) -> Option<&'static Catalogue> {
        match self {
            Lang::En => None,
            Lang::Nl => Some(&nl::CATALOGUE),
            Lang::Fr => Some(&fr::CATALOGUE),
            Lang::De => Some(&de::CATALOGUE),
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// `message` (an English message of the server) in `lang`: the
/// translation of the first template that matches it, or the message
/// itself when none does (and always in English).
pub fn localize(message: &str, lang: Lang) -> Cow<'_, str> {
    match lang.catalogue().and_then(|c| translate(message, c, 0)) {
        Some(translated) => Cow::Owned(translated),
        None => Cow::Borrowed(message),
    }
}

/// One language's words: what `nl.rs`, `fr.rs` and `de.rs` define.
struct Catalogue {
    /// The language, for the tests' messages.
    lang: Lang,
    /// The colour words the browser page shows for white, blue, green,
    /// red, black and gold, in that order.
    colors: [&'static str; 6],
    /// The word before the last item of a token list ("and").
    and: &'static str,
    /// An empty token list ("nothing").
    nothing: &'static str,
    /// Every English template of `en::TEMPLATES`, in the same order, with
    /// its translation.
    entries: &'static [(&'static str, &'static str)],
}

/// The English colour words, in `Catalogue::colors` order.
const COLORS: [&str; 6] = ["white", "blue", "green", "red", "black", "gold"];

/// Nested `{detail}`s are translated this deep at most.
const MAX_DEPTH: usize = 4;

/// What a placeholder stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `{n}`: a whole number, kept.
    Number,
    /// `{color}`: a protocol colour word, shown in the language's word.
    Color,
    /// `{tokens}`: "2 red and 1 gold" or "nothing", in the language's words.
    Tokens,
    /// `{type}`: a client message type, kept.
    Type,
    /// `{text}`: anything, kept.
    Text,
    /// `{detail}`: anything, itself translated when a template matches it.
    Detail,
}

impl Kind {
    fn of(name: &str) -> Option<Kind> {
        Some(match name.trim_end_matches(|c: char| c.is_ascii_digit()) {
            "n" => Kind::Number,
            "color" => Kind::Color,
            "tokens" => Kind::Tokens,
            "type" => Kind::Type,
            "text" => Kind::Text,
            "detail" => Kind::Detail,
            _ => return None,
        })
    }

    /// The regular expression of a captured value.
    fn pattern(self) -> String {
        let color = COLORS.join("|");
        match self {
            Kind::Number => r"\d+".to_owned(),
            Kind::Color => color,
            Kind::Tokens => {
                format!(r"nothing|\d+ (?:{color})(?:(?:, | and )\d+ (?:{color}))*")
            }
            Kind::Type => splendor_protocol::client::MESSAGE_TYPES.join("|"),
            Kind::Text | Kind::Detail => ".+?".to_owned(),
        }
    }
}

/// A piece of a template or a translation.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    /// Words as they are.
    Literal(String),
    /// A placeholder: its name (`n2`) and kind.
    Slot(String, Kind),
}

/// Splits a template into words and placeholders. A placeholder is a
/// lower-case name with an optional number in braces (`{n2}`); any other
/// brace (JSON in a message: `{"type":"ping"}`) is a literal. An unknown
/// name is an error: a typo would otherwise be shown to people.
fn pieces(template: &str) -> Result<Vec<Piece>, String> {
    static SLOT: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\{([a-z]+[0-9]*)\}").expect("the placeholder syntax"));
    let mut out = Vec::new();
    let mut last = 0;
    for slot in SLOT.captures_iter(template) {
        let (whole, name) = (slot.get(0).expect("a match"), &slot[1]);
        let kind = Kind::of(name)
            .ok_or_else(|| format!("unknown placeholder {{{name}}} in {template:?}"))?;
        if whole.start() > last {
            out.push(Piece::Literal(template[last..whole.start()].to_owned()));
        }
        out.push(Piece::Slot(name.to_owned(), kind));
        last = whole.end();
    }
    if last < template.len() {
        out.push(Piece::Literal(template[last..].to_owned()));
    }
    Ok(out)
}

/// An English template, ready to match.
struct Template {
    /// The whole message, anchored; one group per placeholder.
    regex: Regex,
    /// The placeholders, in the order of the groups.
    slots: Vec<(String, Kind)>,
}

impl Template {
    fn compile(template: &str) -> Result<Template, String> {
        let mut pattern = String::from("(?s)^");
        let mut slots = Vec::new();
        for piece in pieces(template)? {
            match piece {
                Piece::Literal(text) => pattern.push_str(&regex::escape(&text)),
                Piece::Slot(name, kind) => {
                    if slots.iter().any(|(n, _)| *n == name) {
                        return Err(format!("{{{name}}} twice in {template:?}"));
                    }
                    pattern.push_str(&format!("({})", kind.pattern()));
                    slots.push((name, kind));
                }
            }
        }
        pattern.push('$');
        let regex = Regex::new(&pattern).map_err(|e| format!("{template:?}: {e}"))?;
        Ok(Template { regex, slots })
    }
}

/// The English templates, compiled once, in `en::TEMPLATES` order.
static TEMPLATES: LazyLock<Vec<Template>> = LazyLock::new(|| {
    en::TEMPLATES
        .iter()
        .map(|t| Template::compile(t).unwrap_or_else(|e| panic!("English catalogue: {e}")))
        .collect()
});

/// Each language's translations in `en::TEMPLATES` order (`None` where
/// the language lacks one, which its tests forbid), split into pieces.
struct Translations {
    nl: Vec<Option<Vec<Piece>>>,
    fr: Vec<Option<Vec<Piece>>>,
    de: Vec<Option<Vec<Piece>>>,
}

static TRANSLATIONS: LazyLock<Translations> = LazyLock::new(|| Translations {
    nl: aligned(&nl::CATALOGUE),
    fr: aligned(&fr::CATALOGUE),
    de: aligned(&de::CATALOGUE),
});

fn aligned(catalogue: &Catalogue) -> Vec<Option<Vec<Piece>>> {
    en::TEMPLATES
        .iter()
        .map(|english| {
            let (_, translation) = catalogue.entries.iter().find(|(e, _)| e == english)?;
            Some(pieces(translation).unwrap_or_else(|e| panic!("{}: {e}", catalogue.lang)))
        })
        .collect()
}

impl Translations {
    fn of(&self, lang: Lang) -> &[Option<Vec<Piece>>] {
        match lang {
            Lang::En => &[],
            Lang::Nl => &self.nl,
            Lang::Fr => &self.fr,
            Lang::De => &self.de,
        }
    }
}

/// The index of the first template matching all of `message`, with its
/// captures.
fn find_template(message: &str) -> Option<(usize, Captures<'_>)> {
    TEMPLATES
        .iter()
        .enumerate()
        .find_map(|(i, t)| t.regex.captures(message).map(|c| (i, c)))
}

fn translate(message: &str, catalogue: &Catalogue, depth: usize) -> Option<String> {
    if depth > MAX_DEPTH {
        return None;
    }
    let (index, captures) = find_template(message)?;
    let template = &TEMPLATES[index];
    let translation = TRANSLATIONS.of(catalogue.lang).get(index)?.as_ref()?;
    let mut out = String::with_capacity(message.len() + 16);
    for piece in translation {
        match piece {
            Piece::Literal(text) => out.push_str(text),
            Piece::Slot(name, kind) => {
                let group = template.slots.iter().position(|(n, _)| n == name)? + 1;
                let value = captures.get(group)?.as_str();
                match kind {
                    Kind::Color => out.push_str(color_word(value, catalogue)),
                    Kind::Tokens => out.push_str(&token_list(value, catalogue)),
                    Kind::Detail => match translate(value, catalogue, depth + 1) {
                        Some(detail) => out.push_str(&detail),
                        None => out.push_str(value),
                    },
                    Kind::Number | Kind::Type | Kind::Text => out.push_str(value),
                }
            }
        }
    }
    Some(out)
}

/// The language's word for a protocol colour word.
fn color_word<'a>(english: &'a str, catalogue: &'a Catalogue) -> &'a str {
    COLORS
        .iter()
        .position(|c| *c == english)
        .map_or(english, |i| catalogue.colors[i])
}

/// "1 red, 0 black and 1 gold" in the language's words.
fn token_list(english: &str, catalogue: &Catalogue) -> String {
    if english == "nothing" {
        return catalogue.nothing.to_owned();
    }
    let items: Vec<String> = english
        .split(", ")
        .flat_map(|part| part.split(" and "))
        .map(|item| match item.split_once(' ') {
            Some((count, color)) => format!("{count} {}", color_word(color, catalogue)),
            None => item.to_owned(),
        })
        .collect();
    match items.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} {} {last}", rest.join(", "), catalogue.and),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests;
