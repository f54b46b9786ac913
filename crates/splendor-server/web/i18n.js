// The page's languages (docs/BROWSER.md, "Languages"): `t(key, params)`,
// worded by Fluent (the vendored @fluent/bundle, fluent-bundle.js) from the
// same .ftl files as the server's own messages
// (crates/splendor-words/locales/<lang>/page.ftl and server.ftl), which the
// server hands the page as they are in /l10n.js. The page keeps no word of
// its own: one source per language, plurals by each language's rules.
//
// The page's key `nav.pastGames` is the message `nav-pastGames` of page.ftl
// (a dot is a hyphen). A message missing in a language falls back to
// English, then to the key itself. Colours are named by `colorName`: the
// protocol keeps its English colour names, the shown word is the server's
// (`color-blue` of server.ftl). People's text (names, chat) never goes
// through here.
//
// A classic script (no `export`): in Node, for the tests, it also exports
// itself through `module.exports`.
'use strict';

const LANGS = ['en', 'nl', 'fr', 'de'];
// Each language named in itself, for the switcher.
const LANG_NAMES = { en: 'English', nl: 'Nederlands', fr: 'Français', de: 'Deutsch' };
const LANG_KEY = 'splendor.lang';

let currentLang = 'en';
const langListeners = [];

// The Fluent sources of each language, { en: { page, server }, ... }: set by
// /l10n.js in the browser, by `addSources` in the tests.
const fluent = typeof module !== 'undefined' ? require('./vendor/fluent-bundle.js') : globalThis.FluentBundle;
const SOURCES = globalThis.SPLENDOR_FTL || {};
// Made on first use: { page, server } bundles of a language.
const BUNDLES = {};

function addSources(lang, sources) {
  SOURCES[lang] = sources;
  delete BUNDLES[lang];
}

// The bundles of `lang`; a source that fails to parse is said on the
// console (the tests allow none), and the messages that did parse are kept.
function bundles(lang) {
  if (!BUNDLES[lang] && SOURCES[lang]) {
    const made = {};
    for (const [name, source] of Object.entries(SOURCES[lang])) {
      // No isolation marks around arguments: names are refused when they
      // hold bidirectional controls, and the page's text is compared as is.
      const bundle = new fluent.FluentBundle(lang, { useIsolating: false });
      const errors = bundle.addResource(new fluent.FluentResource(source));
      for (const e of errors) console.warn(`${lang}/${name}.ftl: ${e.message}`);
      made[name] = bundle;
    }
    BUNDLES[lang] = made;
  }
  return BUNDLES[lang] || {};
}

// Fluent's arguments: numbers as plain digits (no grouping: "1612", as the
// page showed them), which plurals select on; text as it is.
function fluentArgs(params) {
  const args = {};
  for (const [name, value] of Object.entries(params || {})) {
    if (typeof value === 'number') args[name] = new fluent.FluentNumber(value, { useGrouping: false });
    else if (value !== undefined && value !== null) args[name] = String(value);
  }
  return args;
}

// The message `id` of `file` ('page' or 'server') in `lang`, or undefined.
function worded(lang, file, id, params) {
  const bundle = bundles(lang)[file];
  const message = bundle && bundle.getMessage(id);
  if (!message || !message.value) return undefined;
  // A missing argument shows as {$name} rather than failing.
  return bundle.formatPattern(message.value, fluentArgs(params), []);
}

// The message `key` (`nav.pastGames`: the id nav-pastGames) in the current
// language, English, or the key itself.
function t(key, params) {
  const id = String(key).replace(/\./g, '-');
  for (const lang of [currentLang, 'en']) {
    const text = worded(lang, 'page', id, params);
    if (text !== undefined) return text;
  }
  return key;
}

// Whether the page has the message `key` (in English, so in every language).
function hasMessage(key) {
  const bundle = bundles('en').page;
  return Boolean(bundle && bundle.hasMessage(String(key).replace(/\./g, '-')));
}

// The shown word for a protocol colour ("blue" in English, "blauw" in
// Dutch): the server's own word (color-blue of server.ftl).
function colorName(color) {
  for (const lang of [currentLang, 'en']) {
    const text = worded(lang, 'server', `color-${color}`);
    if (text !== undefined) return text;
  }
  return String(color);
}

// A bot level's shown name (issue 51: `level-3` is "level 3"; the
// protocol's word when unknown).
function botName(level) {
  const numbered = /^level-(\d+)$/.exec(String(level));
  if (numbered) return t('bot.level', { n: Number(numbered[1]) });
  const key = `bot.${level}`;
  return hasMessage(key) ? t(key) : String(level);
}

// The first of `list` (navigator.languages: "fr-BE", "de", ...) that is one
// of LANGS by its prefix; English when none is.
function pickLang(list) {
  for (const entry of list || []) {
    const prefix = String(entry).toLowerCase().split(/[-_]/)[0];
    if (LANGS.includes(prefix)) return prefix;
  }
  return 'en';
}

function storedLang() {
  try {
    const value = localStorage.getItem(LANG_KEY);
    return LANGS.includes(value) ? value : null;
  } catch {
    return null;
  }
}

// The page's language: the one chosen in the switcher earlier, else the
// browser's.
function startingLang() {
  const nav = typeof navigator === 'undefined' ? [] : (navigator.languages || [navigator.language]);
  return storedLang() || pickLang(nav);
}

// Writes the static texts of `root`: data-i18n (text), data-i18n-placeholder,
// data-i18n-aria-label and data-i18n-title (attributes).
function applyI18n(root) {
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const attr of ['placeholder', 'aria-label', 'title']) {
    for (const node of root.querySelectorAll(`[data-i18n-${attr}]`)) {
      node.setAttribute(attr, t(node.getAttribute(`data-i18n-${attr}`)));
    }
  }
}

// Switches to `lang`: `<html lang>`, the static texts, then whatever the
// pages registered with onLangChange (they draw the rest again).
function setLang(lang, remember) {
  currentLang = LANGS.includes(lang) && SOURCES[lang] ? lang : 'en';
  if (remember) {
    try { localStorage.setItem(LANG_KEY, currentLang); } catch { /* private browsing */ }
  }
  if (typeof document === 'undefined') return;
  document.documentElement.lang = currentLang;
  applyI18n(document);
  const select = document.getElementById('lang');
  if (select) select.value = currentLang;
  for (const fn of langListeners) fn(currentLang);
}

function onLangChange(fn) {
  langListeners.push(fn);
}

// Called once by each page's setup: picks the language, writes the static
// texts and wires the switcher (<select id="lang"> in the header).
function initLang() {
  setLang(startingLang(), false);
  const select = document.getElementById('lang');
  if (select) select.addEventListener('change', () => setLang(select.value, true));
}

if (typeof module !== 'undefined' && module.exports) {
  module.exports = {
    LANGS, LANG_NAMES, LANG_KEY, addSources, t, hasMessage, colorName, botName, pickLang, setLang,
    currentLang: () => currentLang,
  };
}
