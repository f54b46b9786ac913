// The page's words (web/i18n.js over Fluent, from the .ftl files of
// crates/splendor-words/locales): run with
// `node --test crates/splendor-server/web-tests` (Node 20, no packages: the
// page's vendored @fluent/bundle). That each language defines exactly the
// English ids with the same variables is checked on the server's side too
// (crates/splendor-server/src/l10n/tests).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');

const i18n = require('../web/i18n.js');
const ftl = require('./ftl.js');
const fluent = require('../web/vendor/fluent-bundle.js');

ftl.load(i18n);

const { LANGS, LANG_NAMES, t, colorName, botName, pickLang, setLang } = i18n;
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
    // The bots' levels (issue 51).
    elo: '1360', word: 'WORD',
    // A player's page (issue 50).
    accuracy: '78.5', from: 1500, to: 1612,
    // The tutorial (issue 50).
    rule: 'R4',
  };
}

// Each message of a language's page.ftl, worded by Fluent with the sample
// parameters: [id, text, errors].
function wordedAll(lang, n) {
  const bundle = new fluent.FluentBundle(lang, { useIsolating: false });
  assert.deepEqual(bundle.addResource(new fluent.FluentResource(ftl.sources(lang).page)), [], lang);
  const args = {};
  for (const [k, v] of Object.entries(sampleParams(n))) {
    args[k] = typeof v === 'number' ? new fluent.FluentNumber(v, { useGrouping: false }) : v;
  }
  return ftl.pageIds(lang).map((id) => {
    const errors = [];
    const text = bundle.formatPattern(bundle.getMessage(id).value, args, errors);
    return [id, text, errors];
  });
}

test('every language has a page.ftl and a name in itself', () => {
  assert.deepEqual(LANGS, ['en', 'nl', 'fr', 'de']);
  for (const lang of LANGS) {
    assert.ok(ftl.pageIds(lang).length > 500, lang);
    assert.ok(LANG_NAMES[lang], lang);
  }
  assert.deepEqual(Object.values(LANG_NAMES), ['English', 'Nederlands', 'Français', 'Deutsch']);
});

test('every language has exactly the English messages', () => {
  const en = ftl.pageIds('en');
  assert.equal(new Set(en).size, en.length, 'an id twice in English');
  for (const lang of LANGS) assert.deepEqual([...ftl.pageIds(lang)].sort(), [...en].sort(), lang);
});

test('every message gives a finished string for n = 0, 1, 2 and more, without a Fluent error', () => {
  for (const lang of LANGS) {
    for (const n of [0, 1, 2, 3, 11]) {
      for (const [id, out, errors] of wordedAll(lang, n)) {
        assert.deepEqual(errors.map(String), [], `${lang} ${id}`);
        assert.ok(out.trim().length > 0, `${lang} ${id} is empty`);
        assert.ok(!/undefined|NaN|\[object/.test(out), `${lang} ${id}: ${out}`);
        assert.ok(!/[{}]/.test(out), `${lang} ${id} keeps a brace: ${out}`);
      }
    }
  }
});

test('page.ftl writes no colour word: the server\'s messages are their one source', () => {
  for (const lang of LANGS) {
    assert.deepEqual(ftl.pageIds(lang).filter((id) => id.startsWith('color-')), [], lang);
  }
});

test('English colour words are exactly the protocol words', () => {
  setLang('en');
  for (const c of PROTOCOL_COLORS) assert.equal(colorName(c), c);
});

test('each language has six different colour words, the rulebooks\' words', () => {
  const words = {};
  for (const lang of LANGS) {
    setLang(lang);
    words[lang] = PROTOCOL_COLORS.map(colorName);
    assert.equal(new Set(words[lang]).size, 6, `${lang}: ${words[lang]}`);
  }
  assert.deepEqual(words.nl, ['wit', 'blauw', 'groen', 'rood', 'zwart', 'goud']);
  assert.deepEqual(words.fr, ['blanc', 'bleu', 'vert', 'rouge', 'noir', 'or']);
  assert.deepEqual(words.de, ['Weiß', 'Blau', 'Grün', 'Rot', 'Schwarz', 'Gold']);
  setLang('en');
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
    for (const [id, out] of wordedAll(lang, 2)) assert.ok(!inflected[lang].test(out), `${lang} ${id}: ${out}`);
  }
});

test('plurals follow each language: French counts 0 and 1 as singular, the others only 1', () => {
  setLang('fr');
  assert.equal(t('points', { n: 0 }), '0 point de prestige');
  assert.equal(t('points', { n: 1 }), '1 point de prestige');
  assert.equal(t('points', { n: 2 }), '2 points de prestige');
  assert.equal(t('cards', { n: 0 }), '0 carte');
  assert.equal(t('return.prompt', { n: 2, chosen: 1 }), 'Vous avez plus de 10 jetons : remettez-en 2 jetons dans la réserve (1 choisi).');
  setLang('en');
  assert.equal(t('points', { n: 0 }), '0 points');
  assert.equal(t('points', { n: 1 }), '1 point');
  setLang('de');
  assert.equal(t('points', { n: 0 }), '0 Prestigepunkte');
  setLang('nl');
  assert.equal(t('cards', { n: 1 }), '1 kaart');
  setLang('en');
});

test('numbers are shown as digits, without grouping', () => {
  setLang('de');
  assert.equal(t('points', { n: 1612 }), '1612 Prestigepunkte');
  setLang('en');
  assert.equal(t('points', { n: 12345 }), '12345 points');
});

test('t falls back to English, then to the key', () => {
  setLang('nl');
  assert.equal(t('move.take'), 'Nemen');
  const nl = ftl.sources('nl');
  i18n.addSources('nl', { ...nl, page: nl.page.replace(/^move-take = .*$/m, '') });
  try {
    assert.equal(t('move.take'), 'Take');
  } finally {
    i18n.addSources('nl', nl);
  }
  assert.equal(t('no.such.key'), 'no.such.key');
  assert.equal(t('game.room', { room: 'ABCDE' }), 'Kamer ABCDE');
  // A missing parameter stays visible rather than becoming "undefined".
  assert.equal(t('game.room'), 'Kamer {$room}');
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

test('English words stay those of the page before Fluent', () => {
  setLang('en');
  assert.equal(t('alerts.title'), '● Your turn · Splendor');
  assert.equal(t('turn.other', { name: 'ann' }), "ann's turn");
  assert.equal(t('return.prompt', { n: 1, chosen: 0 }), 'You hold more than 10 tokens: return 1 token (0 chosen).');
  assert.equal(t('return.prompt', { n: 3, chosen: 2 }), 'You hold more than 10 tokens: return 3 tokens (2 chosen).');
  assert.equal(t('card.textPoints', { level: 2, color: 'blue', points: t('points', { n: 1 }) }), 'a level 2 blue card (1 point)');
});
