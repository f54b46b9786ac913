// Static checks of the browser client's files: every message key the pages
// use exists in page.ftl, and no user-visible English is left outside it.
// Run with `node --test crates/splendor-server/web-tests`.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const i18n = require('../web/i18n.js');
const ftl = require('./ftl.js');

ftl.load(i18n);
i18n.setLang('en');
const { hasMessage, t } = i18n;

const WEB = path.join(__dirname, '..', 'web');
const read = (name) => fs.readFileSync(path.join(WEB, name), 'utf8');
const PAGES = ['index.html', 'replay.html', 'leaderboard.html', 'how-to-play.html', 'admin.html'];
// The scripts that draw the pages (i18n.js words them).
const SCRIPTS = ['common.js', 'lobby.js', 'quickplay.js', 'social.js', 'friends.js', 'push.js', 'pay.js', 'table.js', 'tutorial.js', 'motion.js', 'devices.js', 'app.js', 'analysis.js', 'replay.js', 'leaderboard.js', 'how-to-play.js', 'admin.js'];

// The string literals of a script, comments left out: { text, before },
// `text` with every ${...} of a template replaced by "∙", `before` the code
// just in front of the literal.
function literals(src) {
  const out = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '/' && src[i + 1] === '/') { i = src.indexOf('\n', i); if (i < 0) break; continue; }
    if (c === '/' && src[i + 1] === '*') { i = src.indexOf('*/', i) + 2; continue; }
    if (c === "'" || c === '"' || c === '`') {
      const start = i;
      let text = '';
      i += 1;
      while (i < src.length && src[i] !== c) {
        if (src[i] === '\\') { text += src[i + 1]; i += 2; continue; }
        if (c === '`' && src[i] === '$' && src[i + 1] === '{') {
          // Skip the expression, nested braces and literals included.
          let depth = 1;
          i += 2;
          while (i < src.length && depth) {
            const d = src[i];
            if (d === '{') depth += 1;
            else if (d === '}') depth -= 1;
            else if (d === "'" || d === '"' || d === '`') {
              const q = d;
              i += 1;
              while (i < src.length && src[i] !== q) i += src[i] === '\\' ? 2 : 1;
            }
            i += 1;
          }
          text += '∙';
          continue;
        }
        text += src[i];
        i += 1;
      }
      out.push({ text, before: src.slice(Math.max(0, start - 40), start), raw: src.slice(start, i + 1) });
      i += 1;
      continue;
    }
    i += 1;
  }
  return out;
}

// The literal keys handed to t(...) (first argument, or both branches of a
// ternary there), and any dotted literal that looks like a key.
function keysUsed(src) {
  const keys = new Set();
  for (const m of src.matchAll(/\bt\(\s*'([^']+)'/g)) keys.add(m[1]);
  for (const lit of literals(src)) {
    if (/^[a-z][A-Za-z]*(\.[a-z][A-Za-z0-9]*)+$/.test(lit.text) && !lit.text.startsWith('splendor.')) keys.add(lit.text);
  }
  return keys;
}

// Keys built at run time from a prefix: each must exist for every value.
const BUILT_KEYS = [
  ...['random', 'greedy', 'strong'].map((b) => `bot.${b}`),
  // The levels' picker (issue 51): a named level's word, and the numbered
  // levels' shown name.
  ...['random', 'greedy', 'strong'].map((b) => `botLevel.${b}`),
  'bot.level',
  ...['mine', 'other'].flatMap((w) => ['', 'Return', 'Noble'].map((p) => `turn.${w}${p}`)),
  ...['', 'Deck'].flatMap((d) => ['', 'Gold'].map((g) => `event.reserved${d}${g}`)),
  ...['inaccuracy', 'mistake', 'blunder'].map((m) => `analysis.mark.${m}`),
  ...['room_not_found', 'room_full', 'game_already_started', 'stale_version', 'not_your_turn',
    'spectator_cannot_act', 'too_many_session_rooms', 'too_many_rooms_from_address', 'seat_held',
    'rate_limited', 'storage_unavailable', 'room_unavailable', 'hint_not_allowed'].map((c) => `error.${c}`),
  // The operators' console (issue 22).
  ...['dismissed', 'warned', 'muted', 'removed', 'banned', 'marked', 'other'].map((a) => `admin.action.${a}`),
  ...['waiting', 'playing', 'finished'].map((s) => `admin.status.${s}`),
  ...['ban_session', 'ban_name', 'ban_address', 'mute_session', 'mark_session'].map((k) => `admin.kind.${k}`),
  // The follows API's refusals (issue 50), by their error codes.
  ...['blocked', 'too_many_follows', 'player_not_found', 'follow_yourself', 'not_following'].map((c) => `friends.error.${c}`),
];

test('every key the scripts use is a message of page.ftl', () => {
  for (const name of SCRIPTS) {
    for (const key of keysUsed(read(name))) assert.ok(hasMessage(key), `${name} uses the unknown key ${key}`);
  }
  for (const key of BUILT_KEYS) assert.ok(hasMessage(key), key);
});

// Attributes of the pages: data-i18n and its placeholder / aria-label / title forms.
function htmlKeys(html) {
  return [...html.matchAll(/data-i18n(?:-placeholder|-aria-label|-title)?="([^"]+)"/g)].map((m) => m[1]);
}

test('every data-i18n key of the pages is a message of page.ftl, with the English text as default', () => {
  for (const page of PAGES) {
    const html = read(page);
    const keys = htmlKeys(html);
    assert.ok(keys.length > 10, page);
    for (const key of keys) assert.ok(hasMessage(key), `${page} uses the unknown key ${key}`);
    // <tag ... data-i18n="key" ...>text</tag>: the text is the English one.
    for (const m of html.matchAll(/<(\w+)[^>]*\sdata-i18n="([^"]+)"[^>]*>([^<]*)</g)) {
      assert.equal(m[3].replace(/\s+/g, ' ').trim(), t(m[2]), `${page} ${m[2]}`);
    }
    for (const m of html.matchAll(/\s(placeholder|aria-label|title)="([^"]*)"\s+data-i18n-\1="([^"]+)"/g)) {
      assert.equal(m[2], t(m[3]), `${page} ${m[3]}`);
    }
  }
});

test('every text of the pages is translated (apart from the name, the language names, numbers and rule numbers)', () => {
  const allowed = new Set(['Splendor', 'English', 'Nederlands', 'Français', 'Deutsch', '«', '‹', '›', '»']);
  for (const page of PAGES) {
    // People without JavaScript read the <noscript> note, in English.
    const html = read(page).replace(/<noscript>[\s\S]*?<\/noscript>/g, '');
    for (const m of html.matchAll(/<([^>]+)>([^<]+)/g)) {
      const text = m[2].replace(/\s+/g, ' ').trim();
      // A rule's number, "(R7.2)", is the same in every language.
      if (!text || /^[\d\s]+$/.test(text) || allowed.has(text) || /^\(R\d+(\.\d+)?\)$/.test(text)) continue;
      assert.match(m[1], /\sdata-i18n="/, `${page}: "${text}" is not translated (in <${m[1]}>)`);
    }
    for (const m of html.matchAll(/\s(placeholder|aria-label|title)="([^"]*[A-Za-z]{2}[^"]*)"(\s+data-i18n-\1)?/g)) {
      // The code field's placeholder is an example code, not a word.
      if (m[2] === 'ABCDE') continue;
      assert.ok(m[3], `${page}: ${m[1]}="${m[2]}" is not translated`);
    }
  }
});

test('every message of page.ftl is used by a page or a script', () => {
  const used = new Set(BUILT_KEYS);
  for (const name of SCRIPTS) for (const key of keysUsed(read(name))) used.add(key);
  for (const page of PAGES) for (const key of htmlKeys(read(page))) used.add(key);
  // i18n.js uses the switcher's label itself.
  used.add('lang.label');
  const ids = new Set([...used].map((key) => key.replace(/\./g, '-')));
  assert.deepEqual(ftl.pageIds('en').filter((id) => !ids.has(id)), []);
});

// Where a script puts words on the page: these must come from t().
const SINK = /(\btext:|\btitle:|'aria-label':|\.placeholder =|\.textContent =|\btoast\(|\bsetStatus\(|\bconfirm\(|document\.title =|\blabel =)\s*(\S+\s*\?\s*)?$/;

test('no user-visible English literal is left in the scripts', () => {
  const found = [];
  for (const name of SCRIPTS) {
    for (const lit of literals(read(name))) {
      const words = lit.text.replace(/∙/g, ' ');
      if (!/[A-Za-z]{2}/.test(words)) continue;
      if (lit.text === 'Splendor' || lit.text === 'use strict') continue;
      // Message keys.
      if (/^[a-z][A-Za-z]*(\.[a-z][A-Za-z0-9∙]*)+$/.test(lit.text)) continue;
      const context = lit.before.replace(/\s+/g, ' ');
      // Class names, selectors, element names, protocol values, media
      // queries and CSS transforms are not text.
      if (/(cls:|querySelector(All)?\(|className|el\(|\.dataset\.\w+ =|matchMedia\(|transform:)\s*(\S+\s*\?\s*)?$/.test(context)) continue;
      const sentence = /[A-Za-z]{2,}[,.:;!?]?\s+[A-Za-z]{2,}/.test(words);
      if (SINK.test(context) || sentence) found.push(`${name}: ${lit.raw}`);
    }
  }
  assert.deepEqual(found, []);
});

// An id names one element of a page: getElementById finds only the first
// (two "my-id"s once left the second one's script writing into the first).
test('no page uses an element id twice', () => {
  for (const page of PAGES) {
    const ids = [...read(page).matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
    assert.deepEqual(twice, [], `${page}: ids used twice`);
  }
});
