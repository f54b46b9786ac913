// The message tables of the browser client (web/i18n*.js): run with
// `node --test crates/splendor-server/web-tests` (Node 20, no packages).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');

const i18n = require('../web/i18n.js');
require('../web/i18n-nl.js');
require('../web/i18n-fr.js');
require('../web/i18n-de.js');

// The game's terms come from the server's .ftl files, as /terms.js brings
// them to the page.
const ftlTerms = {};
for (const lang of ['en', 'nl', 'fr', 'de']) ftlTerms[lang] = require('./ftl_terms.js').ftlTerms(lang);
const handWritten = {};
for (const lang of ['en', 'nl', 'fr', 'de']) handWritten[lang] = Object.keys(i18n.MESSAGES[lang]);
for (const [lang, terms] of Object.entries(ftlTerms)) i18n.addMessages(lang, terms);

const { LANGS, LANG_NAMES, MESSAGES, t, format, colorName, botName, pickLang, setLang } = i18n;
const PROTOCOL_COLORS = ['white', 'blue', 'green', 'red', 'black', 'gold'];

// Sample values for any parameter a message may use.
function sampleParams(n) {
  return {
    n, chosen: n, s: 3, d: 2, h: 5, level: 2, points: '3 points', cards: '4 cards', color: 'COLOR',
    count: '2 COLOR', counts: '1 COLOR, 2 COLOR', net: 1, card: 'CARD', cost: '3 COLOR', who: 'Ann',
    name: 'Ann', names: 'Ann, Bob', room: 'ABCDE', reason: 'REASON', code: 'ABCDE', host: 'Ann',
    players: 1, seats: 3, initial: '5 min', increment: '10 s', id: 7, step: 4, last: 30, why: 'HTTP 500',
    waiting: 2, secs: 12, page: 1, pages: 3, rating: '1612 ± 80', deviation: 80, games: 5, wins: 2, kind: 'a bot',
    place: 1, before: 1500, after: 1612, ahead: 1, done: 12, total: 60, mark: 'MARK', drop: 24,
    list: 'Ann 60%, Bob 40%', move: 'MOVE', colors: 'COLOR, COLOR', time: '1 day',
    // The operators' console (issue 22).
    by: 'Bob', seat: 1, since: 'DATE', until: 'DATE', when: 'DATE', action: 'ACTION',
  };
}

// The parameters an entry uses: its {placeholders}, or what a function reads.
function usedParams(value) {
  if (typeof value === 'string') return new Set([...value.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
  const used = new Set();
  for (const n of [0, 1, 2, 5, 21]) {
    const base = sampleParams(n);
    value(new Proxy(base, { get(target, key) { used.add(key); return target[key]; } }));
  }
  return used;
}

test('every language has a table and a name in itself', () => {
  assert.deepEqual(LANGS, ['en', 'nl', 'fr', 'de']);
  for (const lang of LANGS) {
    assert.ok(MESSAGES[lang], lang);
    assert.ok(LANG_NAMES[lang], lang);
  }
  assert.deepEqual(Object.values(LANG_NAMES), ['English', 'Nederlands', 'Français', 'Deutsch']);
});

test('every key of English exists in every language, and no other key', () => {
  const en = Object.keys(MESSAGES.en).sort();
  for (const lang of LANGS) {
    const keys = Object.keys(MESSAGES[lang]).sort();
    assert.deepEqual(en.filter((k) => !keys.includes(k)), [], `${lang} lacks keys`);
    assert.deepEqual(keys.filter((k) => !en.includes(k)), [], `${lang} has keys English lacks`);
  }
});

test('the placeholders (or the params a function reads) match between languages', () => {
  for (const [key, value] of Object.entries(MESSAGES.en)) {
    const want = [...usedParams(value)].sort();
    for (const lang of LANGS) {
      const got = [...usedParams(MESSAGES[lang][key])].sort();
      assert.deepEqual(got, want, `${lang} ${key}`);
    }
  }
});

test('every entry gives a finished string for n = 0, 1, 2 and more', () => {
  for (const lang of LANGS) {
    for (const [key, value] of Object.entries(MESSAGES[lang])) {
      assert.ok(typeof value === 'string' || typeof value === 'function', `${lang} ${key}`);
      for (const n of [0, 1, 2, 3, 11]) {
        const out = format(value, sampleParams(n));
        assert.equal(typeof out, 'string', `${lang} ${key}`);
        assert.ok(out.trim().length > 0, `${lang} ${key} is empty`);
        assert.ok(!/undefined|NaN|\[object/.test(out), `${lang} ${key}: ${out}`);
        assert.ok(!/[{}]/.test(out), `${lang} ${key} keeps a brace: ${out}`);
      }
    }
  }
});

test('the tables write no colour word: the .ftl files are their one source', () => {
  for (const lang of LANGS) {
    assert.deepEqual(handWritten[lang].filter((k) => k.startsWith('color.')), [], lang);
    assert.equal(Object.keys(ftlTerms[lang]).length, 6, lang);
  }
});

test('English colour words are exactly the protocol words', () => {
  for (const c of PROTOCOL_COLORS) assert.equal(MESSAGES.en[`color.${c}`], c);
  setLang('en');
  for (const c of PROTOCOL_COLORS) assert.equal(colorName(c), c);
});

test('each language has six different colour words', () => {
  for (const lang of LANGS) {
    const words = PROTOCOL_COLORS.map((c) => MESSAGES[lang][`color.${c}`]);
    assert.equal(new Set(words).size, 6, `${lang}: ${words}`);
  }
  assert.deepEqual(PROTOCOL_COLORS.map((c) => MESSAGES.nl[`color.${c}`]), ['wit', 'blauw', 'groen', 'rood', 'zwart', 'goud']);
  assert.deepEqual(PROTOCOL_COLORS.map((c) => MESSAGES.fr[`color.${c}`]), ['blanc', 'bleu', 'vert', 'rouge', 'noir', 'or']);
  assert.deepEqual(PROTOCOL_COLORS.map((c) => MESSAGES.de[`color.${c}`]), ['Weiß', 'Blau', 'Grün', 'Rot', 'Schwarz', 'Gold']);
});

// Messages name colours by the word the page shows, never an inflected
// form of it ("blauwe", "bleus", "blauen").
test('no message inflects a colour word', () => {
  const inflected = {
    nl: /\b(witte|blauwe|groene|rode|zwarte)\b/i,
    fr: /\b(blancs|blanche|bleus|bleue|verts|verte|rouges|noirs|noire)\b/i,
    de: /\b(wei(ß|ss)(e|en|er|es)|blau(e|en|er|es)|grün(e|en|er|es)|rot(e|en|er|es)|schwarz(e|en|er|es))\b/i,
    en: /\b(whites|blues|greens|reds|blacks)\b/i,
  };
  for (const lang of LANGS) {
    for (const [key, value] of Object.entries(MESSAGES[lang])) {
      const out = format(value, sampleParams(2));
      assert.ok(!inflected[lang].test(out), `${lang} ${key}: ${out}`);
    }
  }
});

test('French counts 0 and 1 as singular, the others only 1', () => {
  setLang('fr');
  assert.equal(t('points', { n: 0 }), '0 point de prestige');
  assert.equal(t('points', { n: 1 }), '1 point de prestige');
  assert.equal(t('points', { n: 2 }), '2 points de prestige');
  assert.equal(t('cards', { n: 0 }), '0 carte');
  setLang('en');
  assert.equal(t('points', { n: 0 }), '0 points');
  assert.equal(t('points', { n: 1 }), '1 point');
  setLang('de');
  assert.equal(t('points', { n: 0 }), '0 Prestigepunkte');
  setLang('nl');
  assert.equal(t('cards', { n: 1 }), '1 kaart');
  setLang('en');
});

test('t falls back to English, then to the key', () => {
  setLang('nl');
  assert.equal(t('move.take'), 'Nemen');
  const saved = MESSAGES.nl['move.take'];
  delete MESSAGES.nl['move.take'];
  try {
    assert.equal(t('move.take'), 'Take');
  } finally {
    MESSAGES.nl['move.take'] = saved;
  }
  assert.equal(t('no.such.key'), 'no.such.key');
  assert.equal(t('game.room', { room: 'ABCDE' }), 'Kamer ABCDE');
  // A missing parameter stays visible rather than becoming "undefined".
  assert.equal(t('game.room'), 'Kamer {room}');
  setLang('xx');
  assert.equal(i18n.currentLang(), 'en');
  assert.equal(t('move.take'), 'Take');
});

test('colour and bot names: shown words, the protocol word when unknown', () => {
  setLang('de');
  assert.equal(colorName('blue'), 'Blau');
  assert.equal(colorName('purple'), 'purple');
  assert.equal(botName('greedy'), 'gierig');
  assert.equal(botName('mystery'), 'mystery');
  assert.equal(t('count', { n: 2, color: colorName('white') }), '2 Weiß');
  setLang('en');
  assert.equal(botName('strong'), 'strong');
});

test('the language comes from navigator.languages by prefix, English by default', () => {
  assert.equal(pickLang(['fr-BE', 'en']), 'fr');
  assert.equal(pickLang(['es-ES', 'de-AT', 'fr']), 'de');
  assert.equal(pickLang(['NL']), 'nl');
  assert.equal(pickLang(['nl_BE']), 'nl');
  assert.equal(pickLang(['en-GB', 'de']), 'en');
  assert.equal(pickLang(['pt-BR', 'ja']), 'en');
  assert.equal(pickLang([]), 'en');
  assert.equal(pickLang(undefined), 'en');
  // "de" must be a whole prefix, not the start of another tag.
  assert.equal(pickLang(['dex', 'frr']), 'en');
});

test('English words stay those of the page before the tables', () => {
  setLang('en');
  assert.equal(t('alerts.title'), '● Your turn · Splendor');
  assert.equal(t('turn.other', { name: 'ann' }), "ann's turn");
  assert.equal(t('return.prompt', { n: 1, chosen: 0 }), 'You hold more than 10 tokens: return 1 token (0 chosen).');
  assert.equal(t('return.prompt', { n: 3, chosen: 2 }), 'You hold more than 10 tokens: return 3 tokens (2 chosen).');
  assert.equal(t('card.textPoints', { level: 2, color: 'blue', points: t('points', { n: 1 }) }), 'a level 2 blue card (1 point)');
});
