//! The message files agree with each other, and every word the server
//! makes is said in every language without a Fluent error.

mod corpus;

use std::collections::{BTreeMap, BTreeSet};

use fluent_syntax::ast;
use fluent_syntax::parser::parse;
use splendor_lobby::CloseReason;
use splendor_protocol::Words;

use super::*;
use corpus::Corpus;
use splendor_words::fluent::{check_file, check_page_file};

/// Each message of a file with the variables it uses (in a selector or a
/// variant too), in the file's order.
fn messages(lang: Lang, source: fn(Lang) -> &'static str) -> Vec<(String, BTreeSet<String>)> {
    let resource = parse(source(lang)).unwrap_or_else(|(_, errors)| panic!("{lang}: {errors:?}"));
    let mut out = Vec::new();
    for entry in resource.body {
        match entry {
            ast::Entry::Message(message) => {
                let mut variables = BTreeSet::new();
                if let Some(pattern) = &message.value {
                    pattern_variables(pattern, &mut variables);
                }
                out.push((message.id.name.to_owned(), variables));
            }
            ast::Entry::Junk { content } => panic!("{lang}: junk {content:?}"),
            ast::Entry::Term(term) => {
                panic!("{lang}: a term ({}): terms are not used", term.id.name)
            }
            _ => {}
        }
    }
    out
}

fn pattern_variables(pattern: &ast::Pattern<&str>, out: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let ast::PatternElement::Placeable { expression } = element {
            expression_variables(expression, out);
        }
    }
}

fn expression_variables(expression: &ast::Expression<&str>, out: &mut BTreeSet<String>) {
    match expression {
        ast::Expression::Inline(inline) => inline_variables(inline, out),
        ast::Expression::Select { selector, variants } => {
            inline_variables(selector, out);
            for variant in variants {
                pattern_variables(&variant.value, out);
            }
        }
    }
}

fn inline_variables(inline: &ast::InlineExpression<&str>, out: &mut BTreeSet<String>) {
    match inline {
        ast::InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_owned());
        }
        ast::InlineExpression::Placeable { expression } => expression_variables(expression, out),
        _ => {}
    }
}

// ---- the files ---------------------------------------------------------------

#[test]
fn every_language_defines_exactly_the_english_ids_with_their_variables() {
    // The server's messages, and the page's (issue 49).
    for source in [Lang::source, Lang::page_source] {
        same_ids_as_english(source);
    }
}

fn same_ids_as_english(source: fn(Lang) -> &'static str) {
    let english = messages(Lang::En, source);
    let ids: BTreeSet<&str> = english.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids.len(), english.len(), "an id twice in English");
    for lang in [Lang::Nl, Lang::Fr, Lang::De] {
        let theirs = messages(lang, source);
        let order: Vec<&str> = theirs.iter().map(|(id, _)| id.as_str()).collect();
        let expected: Vec<&str> = english.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(
            order, expected,
            "{lang}: not the English ids in their order"
        );
        for ((id, variables), (_, english)) in theirs.iter().zip(&english) {
            assert_eq!(variables, english, "{lang}: {id} uses other variables");
        }
    }
}

#[test]
fn every_file_parses_into_a_bundle_and_says_no_bidi_marks() {
    for lang in Lang::ALL {
        check_file(lang).unwrap_or_else(|e| panic!("{lang}: {e}"));
        check_page_file(lang).unwrap_or_else(|e| panic!("{lang} page: {e}"));
        for source in [lang.source(), lang.page_source()] {
            assert!(
                !source.contains(['\u{2068}', '\u{2069}', '\u{200E}', '\u{200F}']),
                "{lang}"
            );
        }
    }
}

#[test]
fn each_language_names_six_different_colours() {
    for lang in Lang::ALL {
        let words: BTreeSet<String> = splendor_words::COLORS
            .iter()
            .map(|c| {
                let (text, problems) = word_checked(
                    lang,
                    &Words::new("tokens-item").num("n", 1).color("color", c),
                );
                assert!(problems.is_empty(), "{lang}: {problems:?}");
                text
            })
            .collect();
        assert_eq!(words.len(), 6, "{lang}: {words:?}");
    }
}

// ---- languages ----------------------------------------------------------------

#[test]
fn languages_are_named_by_their_code_in_any_case_with_or_without_a_region() {
    for (text, lang) in [
        ("en", Lang::En),
        ("NL", Lang::Nl),
        ("nl-BE", Lang::Nl),
        ("fr_CA", Lang::Fr),
        ("de-de", Lang::De),
        ("De", Lang::De),
    ] {
        assert_eq!(Lang::parse(text), Ok(lang), "{text}");
    }
    for bad in ["", "es", "dutch", "-nl", "nld"] {
        let why = english(&Lang::parse(bad).expect_err(bad));
        assert!(why.contains("en, nl, fr, de"), "{why}");
    }
    assert_eq!(Lang::default(), Lang::En);
    assert_eq!(Lang::Fr.to_string(), "fr");
}

#[test]
fn a_language_cell_is_shared_by_its_clones() {
    let cell = LangCell::default();
    let writer = cell.clone();
    assert_eq!(writer.get(), Lang::En);
    cell.set(Lang::De);
    assert_eq!(writer.get(), Lang::De);
}

// ---- wording ------------------------------------------------------------------

fn said(lang: Lang, words: &Words) -> String {
    let (text, problems) = word_checked(lang, words);
    assert!(problems.is_empty(), "{lang}: {words}: {problems:?}");
    text
}

#[test]
fn values_are_kept_and_colours_and_token_lists_are_said_in_the_language() {
    let take_two = Words::new("rule-take-two-supply")
        .num("left", 3)
        .color("color", "blue");
    assert_eq!(
        said(Lang::En, &take_two),
        "take two: only 3 blue tokens left, 4 needed"
    );
    assert_eq!(
        said(Lang::Nl, &take_two),
        "twee nemen: nog maar 3 fiches van kleur blauw over, er zijn er 4 nodig"
    );
    assert_eq!(
        said(Lang::Fr, &take_two),
        "prendre 2 jetons de la même couleur : il ne reste que 3 jetons bleu, il en faut au moins 4"
    );
    assert_eq!(
        said(Lang::De, &take_two),
        "zwei nehmen: nur noch 3 Chips der Farbe Blau vorhanden, mindestens 4 sind nötig"
    );
    let afford = Words::new("rule-cannot-afford")
        .num("card", 17)
        .tokens("cost", vec![(3, "red"), (2, "black")])
        .tokens("held", vec![(1, "red"), (0, "black"), (1, "gold")])
        .num("short", 3);
    assert_eq!(
        said(Lang::En, &afford),
        "buy card 17: it costs 3 red and 2 black after your bonuses; \
         you hold 1 red, 0 black and 1 gold: 3 tokens short"
    );
    assert_eq!(
        said(Lang::De, &afford),
        "Karte 17 kaufen: nach deinen Boni kostet sie 3 Rot und 2 Schwarz; \
         du hast 1 Rot, 0 Schwarz und 1 Gold: es fehlen 3 Chips"
    );
    assert_eq!(
        said(Lang::Fr, &afford),
        "acheter la carte 17 : après vos bonus, elle coûte 3 rouge et 2 noir ; \
         vous avez 1 rouge, 0 noir et 1 or : il vous manque 3 jetons"
    );
    // Names and quoted input are kept as sent, braces and all.
    let name = Words::new("conn-already-identified").text("name", "\"Ann {$n}\"");
    assert_eq!(
        said(Lang::Fr, &name),
        "cette connexion est déjà \"Ann {$n}\""
    );
    // A nested message is worded in the same language.
    let allowed = Words::new("name-char")
        .text("char", "'*'")
        .text("code", "002A")
        .words("allowed", Words::new("name-allows-ascii"));
    assert!(said(Lang::Nl, &allowed).contains(&said(Lang::Nl, &Words::new("name-allows-ascii"))));
    assert_ne!(said(Lang::Nl, &allowed), said(Lang::En, &allowed));
}

#[test]
fn an_unknown_id_shows_itself_and_is_a_problem() {
    let odd = Words::new("no-such-message");
    let (text, problems) = word_checked(Lang::Nl, &odd);
    assert_eq!(text, "no-such-message");
    assert_eq!(problems.len(), 2, "{problems:?}");
}

/// The plural forms of `id` for `n` = 0, 1 and 2 in `lang`.
fn counts(lang: Lang, words: impl Fn(i64) -> Words) -> [String; 3] {
    [0, 1, 2].map(|n| said(lang, &words(n)))
}

/// Whether `text` has `phrase` as whole words.
fn has(text: &str, phrase: &str) -> bool {
    text.match_indices(phrase).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + phrase.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

#[test]
fn french_counts_0_and_1_as_singular() {
    let ret = |n| Words::new("rule-return-first").num("count", n);
    let [zero, one, two] = counts(Lang::Fr, ret);
    assert!(has(&zero, "0 jeton"), "{zero}");
    assert!(has(&one, "1 jeton"), "{one}");
    assert!(has(&two, "2 jetons"), "{two}");
    let short = |n| {
        Words::new("rule-color-short")
            .num("card", 5)
            .num("needed", n)
            .color("color", "red")
            .num("held", 0)
    };
    let [zero, one, two] = counts(Lang::Fr, short);
    assert!(
        !zero.contains("jetons") && !one.contains("jetons"),
        "{zero} / {one}"
    );
    assert!(two.contains("jetons"), "{two}");
    let length = |n| {
        Words::new("room-code-length")
            .text("text", "\"AB\"")
            .num("count", n)
    };
    let [zero, one, two] = counts(Lang::Fr, length);
    assert!(
        has(&zero, "0 caractère") && has(&one, "1 caractère"),
        "{zero} / {one}"
    );
    assert!(has(&two, "2 caractères"), "{two}");
}

#[test]
fn dutch_counts_only_1_as_singular() {
    let ret = |n| Words::new("rule-return-first").num("count", n);
    let [zero, one, two] = counts(Lang::Nl, ret);
    assert!(has(&zero, "0 fiches"), "{zero}");
    assert!(has(&one, "1 fiche"), "{one}");
    assert!(has(&two, "2 fiches"), "{two}");
    let length = |n| {
        Words::new("room-code-length")
            .text("text", "\"AB\"")
            .num("count", n)
    };
    let [zero, one, two] = counts(Lang::Nl, length);
    assert!(
        has(&zero, "0 tekens") && has(&one, "1 teken"),
        "{zero} / {one}"
    );
    assert!(has(&two, "2 tekens"), "{two}");
}

#[test]
fn german_and_english_count_only_1_as_singular() {
    let ret = |n| Words::new("rule-return-first").num("count", n);
    let [zero, one, two] = counts(Lang::De, ret);
    assert!(has(&zero, "0 Chips"), "{zero}");
    assert!(has(&one, "1 Chip"), "{one}");
    assert!(has(&two, "2 Chips"), "{two}");
    let [zero, one, two] = counts(Lang::En, ret);
    assert!(has(&zero, "0 tokens"), "{zero}");
    assert!(has(&one, "1 token"), "{one}");
    assert!(has(&two, "2 tokens"), "{two}");
}

// ---- coverage: the real words -------------------------------------------------

/// Ids whose words are made where this test cannot call them (the room's
/// private functions, the gateway) or are parts of other messages:
/// tests/error_languages.rs meets the gateway's and the room's against a
/// real server.
const MADE_ELSEWHERE: &[&str] = &[
    // Parts of messages.
    "color-white",
    "color-blue",
    "color-green",
    "color-red",
    "color-black",
    "color-gold",
    "tokens-item",
    "list-and",
    "tokens-none",
    // splendor-room, play.rs and social.rs.
    "rule-not-your-turn-named",
    "chat-empty",
    "chat-too-long",
    "chat-control",
    "chat-invisible",
    "chat-stacked-marks",
    "rematch-not-over",
    "rematch-spectator",
    "rematch-player-left",
    "rematch-agreed",
    "rematch-being-made",
    // splendor-room, why a room closed (timers.rs, core.rs, play.rs).
    "closed-viewing-over",
    "closed-players-away",
    "closed-deserted",
    "closed-nobody-connected",
    "closed-idle",
    "closed-everyone-left",
    "closed-shutting-down",
    "closed-moved",
    "closed-removed",
    "closed-other-device",
    "closed-by-operators",
    // splendor-server, ws/.
    "clock-whole-seconds",
    "clock-needed-for-stand-in",
    "mute-seat-or-spectators",
    "queue-invalid-players",
    "queue-bot-after",
    "queue-already",
    "queue-not-queued",
    "queue-no-database",
    "conn-binary",
    "conn-rate-limited",
    "conn-frame-too-large",
    "conn-already-identified",
    "conn-unknown-token",
    "conn-hello-needs-name",
    "conn-hello-liveness",
    "conn-not-identified",
    "conn-database-away",
    "conn-internal",
    "conn-banned-for",
    "conn-banned-forever",
    "name-filtered",
    "chat-muted-server-for",
    "chat-muted-server",
];

fn ids_in(words: &Words, out: &mut BTreeSet<String>) {
    out.insert(words.id().to_owned());
    for (_, arg) in words.args() {
        if let splendor_words::Arg::Words(inner) = arg {
            ids_in(inner, out);
        }
    }
}

#[test]
fn every_word_the_server_makes_is_said_in_every_language() {
    let mut corpus = Corpus::everything();
    for reason in [
        CloseReason::Normal,
        CloseReason::Replaced,
        CloseReason::TooSlow,
        CloseReason::MessageTooBig,
        CloseReason::ShuttingDown,
        CloseReason::RateLimited,
        CloseReason::Idle,
        CloseReason::HeartbeatTimeout,
        CloseReason::Banned,
        CloseReason::Revoked,
    ] {
        let words = reason.words();
        for lang in Lang::ALL {
            let text = said(lang, &words);
            assert!(
                text.len() <= 123,
                "{lang}: {reason:?}: {} bytes",
                text.len()
            );
        }
        corpus
            .words
            .insert(words.to_string(), (words, format!("{reason:?}")));
    }
    let lang = Lang::parse("xx").expect_err("no such language");
    corpus
        .words
        .insert(lang.to_string(), (lang, "hello".into()));

    let mut used = BTreeSet::new();
    let mut sentences: BTreeMap<Lang, BTreeSet<String>> = BTreeMap::new();
    for (words, source) in corpus.words.values() {
        ids_in(words, &mut used);
        for lang in Lang::ALL {
            let (text, problems) = word_checked(lang, words);
            assert!(
                problems.is_empty(),
                "{lang}: {source}: {words}: {problems:?}"
            );
            assert!(!text.is_empty(), "{lang}: {words}");
            sentences.entry(lang).or_default().insert(text);
        }
    }
    // Every message of the English file is met, or is made elsewhere.
    let missing: Vec<String> = messages(Lang::En, Lang::source)
        .into_iter()
        .map(|(id, _)| id)
        .filter(|id| !used.contains(id.as_str()) && !MADE_ELSEWHERE.contains(&id.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "ids no real words met:\n{}",
        missing.join("\n")
    );
    // And made elsewhere really is: not met here (else drop it from the list).
    let met: Vec<&&str> = MADE_ELSEWHERE
        .iter()
        .filter(|id| used.contains(**id))
        .collect();
    assert!(met.is_empty(), "met here after all: {met:?}");
    // The languages differ from English (a copied English line is caught).
    let english = &sentences[&Lang::En];
    for lang in [Lang::Nl, Lang::Fr, Lang::De] {
        let same = sentences[&lang].intersection(english).count();
        assert!(
            same * 20 < english.len(),
            "{lang}: {same} sentences read as in English"
        );
    }
    // L10N_DUMP=1 (with --nocapture) shows every message in every
    // language, to read the translations in context.
    if std::env::var_os("L10N_DUMP").is_some() {
        for (words, _) in corpus.words.values() {
            for lang in Lang::ALL {
                eprintln!("{lang} {}", said(lang, words));
            }
        }
    }
}

#[test]
fn every_message_says_its_examples_in_every_language() {
    // Made-up arguments for each message: every variable a number 2 and a
    // text, so that a message missing in a language or using a variable
    // English does not give shows up as a problem.
    for (id, variables) in messages(Lang::En, Lang::source) {
        for lang in Lang::ALL {
            for number in [true, false] {
                let mut words = Words::new(id.clone());
                for name in &variables {
                    let arg = if name == "color" {
                        splendor_words::Arg::Color("green")
                    } else if number {
                        splendor_words::Arg::Number(2)
                    } else {
                        splendor_words::Arg::Text("x".into())
                    };
                    words = words.arg(name.clone(), arg);
                }
                let (_, problems) = word_checked(lang, &words);
                assert!(problems.is_empty(), "{lang}: {words}: {problems:?}");
            }
        }
    }
}

#[test]
fn the_rules_corpus_meets_every_rule_error() {
    let mut corpus = Corpus::default();
    corpus::rule_messages(&mut corpus);
    let codes: BTreeSet<&str> = corpus
        .words
        .values()
        .filter_map(|(_, s)| s.strip_prefix("rules: "))
        .collect();
    for code in splendor_rules::REFUSAL_CODES {
        assert!(codes.contains(code), "no {code} in {codes:?}");
    }
}
