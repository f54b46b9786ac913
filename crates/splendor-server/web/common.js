// What the pages of the browser client share (docs/BROWSER.md): the
// colours, creating elements (text only, never HTML), counting tokens, the
// events in words (through `t` of i18n.js). Loaded after the i18n files and
// before lobby.js and app.js on the table page and before replay.js on the
// replay pages.
'use strict';

const COLORS = ['white', 'blue', 'green', 'red', 'black'];
const TOKENS = [...COLORS, 'gold'];
const $ = (id) => document.getElementById(id);

// Creates an element. `props` sets className (cls), text, title, onclick and
// any attribute; children are nodes or strings (added as text, never HTML).
function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'cls') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k === 'onclick') node.addEventListener('click', v);
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined && c !== false) {
      node.append(typeof c === 'string' || typeof c === 'number' ? String(c) : c);
    }
  }
  return node;
}

// "2 white, 1 gold" from a count object (zero counts are left out), in the
// page's language.
function countsText(counts) {
  const parts = TOKENS.filter((c) => counts && counts[c] > 0).map((c) => countText(counts[c], c));
  return parts.length ? parts.join(', ') : t('none');
}

// "3 white": one colour's count, with the colour word the page shows.
function countText(n, color) {
  return t('count', { n, color: colorName(color) });
}

function total(counts) {
  return TOKENS.reduce((n, c) => n + ((counts && counts[c]) || 0), 0);
}

function cardText(card) {
  const params = { level: card.level, color: colorName(card.bonus) };
  if (!card.points) return t('card.text', params);
  return t('card.textPoints', { ...params, points: t('points', { n: card.points }) });
}

// The same, starting with a capital (at the start of a sentence).
function capitalized(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

// One event, in words; `nameOf(seat)` names the players.
function eventText(ev, nameOf) {
  const who = ev.seat === undefined ? '' : nameOf(ev.seat);
  switch (ev.event) {
    case 'took_tokens': return t('event.took', { who, counts: countsText(ev.tokens) });
    case 'reserved': {
      const card = ev.card ? cardText(ev.card) : t('card.hidden', { level: ev.level });
      const key = `event.reserved${ev.from_deck ? 'Deck' : ''}${ev.gold ? 'Gold' : ''}`;
      return t(key, { who, card });
    }
    case 'bought': return total(ev.paid)
      ? t('event.bought', { who, card: cardText(ev.card), counts: countsText(ev.paid) })
      : t('event.boughtFree', { who, card: cardText(ev.card) });
    case 'dealt': return t('event.dealt', { level: ev.level, color: colorName(ev.card.bonus), points: t('points', { n: ev.card.points }) });
    case 'returned_tokens': return t('event.returned', { who, counts: countsText(ev.tokens) });
    case 'noble_visited': return t('event.noble', { who, points: t('points', { n: ev.noble.points }) });
    case 'passed': return t('event.passed', { who });
    case 'resigned': return t('event.resigned', { who });
    case 'end_triggered': return t('event.endTriggered', { who });
    case 'game_over': return t('event.gameOver');
    default: return `(${ev.event})`;
  }
}

// A seat's name as shown (issue 23): a built-in bot's name, which the
// server makes in English ("Greedy bot", then "Greedy bot 2", ...), in the
// page's language; a person's name as they wrote it.
function shownName(name, level) {
  const m = level ? /^(Random|Greedy|Strong) bot( \d+)?$/.exec(name || '') : null;
  if (!m || m[1].toLowerCase() !== level) return name;
  return capitalized(t('botName', { level: botName(level) })) + (m[2] || '');
}

// The tag that says what plays a seat (issue 24): a built-in bot's level,
// or "bot program" for a session a program plays for (`program_bot`);
// nothing for a person.
function botTag(s) {
  if (!s) return null;
  if (s.bot) return el('span', { cls: 'tag bot', text: t('tag.bot', { level: botName(s.bot) }) });
  if (s.program_bot) return el('span', { cls: 'tag bot', text: t('tag.program'), title: t('tag.programTitle') });
  return null;
}

// An action's events in words, with "(stand-in)" when a stand-in moved
// (R12.4) and "(with a hint)" after a practice hint.
function actionText(events, by, nameOf) {
  const text = events.map((ev) => eventText(ev, nameOf)).join(' ');
  if (by === 'stand_in') return `${text} ${t('event.standIn')}`;
  if (by === 'hint') return `${text} ${t('event.withHint')}`;
  return text;
}

// A card of position `st` by id, wherever it lies face up or reserved.
function cardById(st, id) {
  for (const row of st.levels) for (const c of row.cards) if (c && c.id === id) return c;
  for (const p of st.players) for (const r of p.reserved) if (r.card && r.card.id === id) return r.card;
  return null;
}

// A wire action (docs/PROTOCOL.md, "Actions") in words: the analysis's
// preferred moves and the table's practice hints.
function moveText(action, st) {
  if (action === 'pass') return t('hint.pass');
  if (action === 'resign') return t('hint.resign');
  const card = (id) => {
    const c = cardById(st, id);
    return c ? cardText(c) : t('hint.card', { id });
  };
  if (action.take) return t('hint.take', { colors: action.take.map(colorName).join(', ') });
  if (action.take_two) return t('hint.takeTwo', { color: colorName(action.take_two) });
  if (action.reserve !== undefined) return t('hint.reserve', { card: card(action.reserve) });
  if (action.reserve_deck !== undefined) return t('hint.reserveDeck', { level: action.reserve_deck });
  if (action.buy !== undefined) return t('hint.buy', { card: card(typeof action.buy === 'object' ? action.buy.card : action.buy) });
  if (action.return) return t('hint.return', { counts: countsText(action.return) });
  if (action.noble !== undefined) return t('hint.noble');
  return JSON.stringify(action);
}

function actionCard(action) {
  if (!action || typeof action !== 'object') return null;
  if (action.buy !== undefined) return typeof action.buy === 'object' ? action.buy.card : action.buy;
  if (action.reserve !== undefined) return action.reserve;
  return null;
}

function hexBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

// SHA-256(salt || seed) in hexadecimal (docs/REPLAYS.md), computed here
// with WebCrypto (https and localhost only), never asked of the server.
async function commitmentOf(salt, seed) {
  const digest = await crypto.subtle.digest('SHA-256', hexBytes(salt + seed));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
