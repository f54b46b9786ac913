// What the pages of the browser client share (docs/BROWSER.md): the
// colours, creating elements (text only, never HTML), counting tokens.
// Loaded before lobby.js and app.js on the table page and before replay.js
// on the replay pages.
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

function plural(n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

// "2 white, 1 gold" from a count object (zero counts are left out).
function countsText(counts) {
  const parts = TOKENS.filter((c) => counts && counts[c] > 0).map((c) => `${counts[c]} ${c}`);
  return parts.length ? parts.join(', ') : 'none';
}

function total(counts) {
  return TOKENS.reduce((n, c) => n + ((counts && counts[c]) || 0), 0);
}


function cardText(card) {
  const pts = card.points ? ` (${plural(card.points, 'point')})` : '';
  return `a level ${card.level} ${card.bonus} card${pts}`;
}

// One event, in words; `nameOf(seat)` names the players.
function eventText(ev, nameOf) {
  const who = ev.seat === undefined ? '' : nameOf(ev.seat);
  switch (ev.event) {
    case 'took_tokens': return `${who} took ${countsText(ev.tokens)}.`;
    case 'reserved': {
      const what = ev.card ? cardText(ev.card)
        : `a hidden level ${ev.level} card`;
      const from = ev.from_deck ? ' from the deck' : '';
      return `${who} reserved ${what}${from}${ev.gold ? ' and took a gold token' : ''}.`;
    }
    case 'bought': return `${who} bought ${cardText(ev.card)}${total(ev.paid) ? ` for ${countsText(ev.paid)}` : ' for free'}.`;
    case 'dealt': return `New on level ${ev.level}: ${ev.card.bonus}, ${plural(ev.card.points, 'point')}.`;
    case 'returned_tokens': return `${who} returned ${countsText(ev.tokens)}.`;
    case 'noble_visited': return `A noble (${plural(ev.noble.points, 'point')}) visited ${who}.`;
    case 'passed': return `${who} passed.`;
    case 'end_triggered': return `${who} reached 15 points: the round is finished, then the game ends.`;
    case 'game_over': return 'The game is over.';
    default: return `(${ev.event})`;
  }
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
