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
  const m = level ? /^(Random|Greedy|Strong|Level \d+) bot( \d+)?$/.exec(name || '') : null;
  if (!m || m[1].toLowerCase().replace(' ', '-') !== level) return name;
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

// ---- Gems, drawn (issue 23) ---------------------------------------------------

// Each colour has a shape of its own, so that gems are told apart without
// their colour too: white a brilliant-cut diamond, blue a drop, green an
// emerald cut, red a trillion, black a round cabochon, gold (the joker) a
// star. Drawn here as SVG (no image files, no fonts).
const GEM_SHAPES = {
  white: 'M7 3h10l5 6-10 13L2 9z',
  blue: 'M12 2c4 6 8 9.5 8 13.5a8 8 0 0 1-16 0C4 11.5 8 8 12 2z',
  green: 'M7 3h10l4 4v10l-4 4H7l-4-4V7z',
  red: 'M12 3l10 18H2z',
  black: 'M12 3a9 9 0 1 1 0 18a9 9 0 1 1 0-18z',
  gold: 'M12 2l2.9 6.6 7.1.7-5.4 4.7 1.6 7L12 17.3 5.8 21l1.6-7L2 9.3l7.1-.7z',
};
// A facet line on each, for the look of a cut stone.
const GEM_FACETS = {
  white: 'M2 9h20M7 3l5 19M17 3l-5 19',
  blue: 'M8 13l4-5 4 5',
  green: 'M7 7h10v10H7z',
  red: 'M12 9l-4.5 9h9z',
  black: 'M8 9a5 5 0 0 1 5-2',
  gold: 'M12 8v5',
};
const GEM_FILLS = { white: '#f7f7f5', blue: '#1f5fbf', green: '#1b7f3a', red: '#c62828', black: '#262626', gold: '#e3b505' };
const GEM_EDGES = { white: '#5f5f5f', blue: '#0d2f66', green: '#0a3d1b', red: '#6d1010', black: '#000', gold: '#7a5f00' };
const SVG_NS = 'http://www.w3.org/2000/svg';

// A gem of `color` as an SVG icon, hidden from screen readers (the text
// beside it names the colour); `cls`: more classes (`big`).
function gemIcon(color, cls) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', `gem-icon${cls ? ` ${cls}` : ''}`);
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const stone = document.createElementNS(SVG_NS, 'path');
  stone.setAttribute('d', GEM_SHAPES[color] || GEM_SHAPES.black);
  stone.setAttribute('fill', GEM_FILLS[color] || '#888');
  stone.setAttribute('stroke', GEM_EDGES[color] || '#000');
  stone.setAttribute('stroke-width', '1.5');
  stone.setAttribute('stroke-linejoin', 'round');
  const facet = document.createElementNS(SVG_NS, 'path');
  facet.setAttribute('d', GEM_FACETS[color] || '');
  facet.setAttribute('fill', 'none');
  facet.setAttribute('stroke', color === 'white' || color === 'gold' ? GEM_EDGES[color] : '#fff');
  facet.setAttribute('stroke-opacity', '0.55');
  facet.setAttribute('stroke-width', '1');
  svg.append(stone, facet);
  return svg;
}

// A count of one colour as on the physical cards: the gem with its number,
// the colour's name for screen readers (the text reads "3 white"), its
// full words as a tooltip; `more`: what follows (what is left to pay).
function gemCount(color, n, more, cls) {
  return el('span', { cls: `gem-count count-${color}${cls ? ` ${cls}` : ''}`, title: countText(n, color) },
    gemIcon(color), el('span', { cls: 'n', text: String(n) }),
    el('span', { cls: 'sr-only', text: ` ${colorName(color)}` }), more);
}

// A card's or a noble's cost, a gem count per colour, in a column.
function costColumn(cost, cls) {
  return el('span', { cls: 'cost' }, COLORS.filter((c) => cost[c] > 0).map((c) => gemCount(c, cost[c], null, cls)));
}

// A card's bonus, top right as on the card: a big gem, its colour named
// for screen readers.
function bonusMark(color) {
  return el('span', { cls: 'bonus' }, gemIcon(color, 'big'), el('span', { cls: 'sr-only', text: colorName(color) }));
}

// A card's tooltip: everything about it, its cost included.
function cardTitle(card) {
  return t('card.title', { card: cardText(card), color: colorName(card.bonus), cost: countsText(card.cost) });
}

// How a game ended, in the page's words (docs/PROTOCOL.md, `result`):
// the message key of its line, or null for an ending said otherwise (on
// points; by resignations, which the ranking shows). A server of before
// 2026-11-29 sent no `end`: its `deadlock` says.
function endKey(res) {
  const end = res.end || (res.deadlock ? 'deadlock' : 'points');
  return { deadlock: 'result.deadlock', no_progress: 'result.noProgress', deserted: 'result.deserted' }[end] || null;
}
