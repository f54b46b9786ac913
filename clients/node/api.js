// The server's HTTP API as a kit bot uses it (its games, its invitations,
// the programs online, the catalogue of cards and nobles), and lean states
// read back with the catalogue.
'use strict';

const DEFAULT_URL = 'ws://127.0.0.1:8080/ws';

class KitError extends Error {}

// A lean `state` (docs/PROTOCOL.md, Lean states: cards and nobles by id, the
// game's fixed fields left out) read back into the full one, with the
// server's catalogue (GET /api/catalogue) and the last full state of the same
// game (its names, game id, commitment, first seat). A state that is not lean
// is returned as it is.
function expandLean(raw, catalogue, full) {
  if (!raw.lean) return raw;
  const card = (c) => (typeof c === 'number' ? catalogue.cards[c] : c);
  const noble = (n) => (typeof n === 'number' ? catalogue.nobles[n] : n);
  const out = { ...raw };
  delete out.lean;
  for (const key of ['game', 'commitment', 'first_seat']) {
    if (full && full[key] !== undefined && out[key] === undefined) out[key] = full[key];
  }
  const names = new Map(((full && full.players) || []).map((p) => [p.seat, p.name]));
  out.levels = (raw.levels || []).map((l) => ({ ...l, cards: (l.cards || []).map(card) }));
  out.nobles = (raw.nobles || []).map(noble);
  if (raw.noble_choices) out.noble_choices = raw.noble_choices.map(noble);
  out.players = (raw.players || []).map((p) => ({
    ...p,
    name: p.name !== undefined ? p.name : (names.get(p.seat) || ''),
    cards: (p.cards || []).map(card),
    nobles: (p.nobles || []).map(noble),
    reserved: (p.reserved || []).map((r) => ({ ...r, card: r.card === null || r.card === undefined ? r.card : card(r.card) })),
  }));
  return out;
}

// The server's catalogue of cards and nobles (GET /api/catalogue), by server:
// fixed, so fetched once.
const catalogues = new Map();
async function catalogue(options = {}) {
  const ws = new URL(options.url || process.env.SPLENDOR_URL || DEFAULT_URL);
  const scheme = { 'ws:': 'http:', 'wss:': 'https:' }[ws.protocol] || ws.protocol;
  const api = `${scheme}//${ws.host}/api/catalogue`;
  if (!catalogues.has(api)) {
    const response = await fetch(api, { headers: { Accept: 'application/json' } });
    if (!response.ok) throw new KitError(`GET /api/catalogue: HTTP ${response.status}`);
    catalogues.set(api, await response.json());
  }
  return catalogues.get(api);
}

// The state with a few conveniences: me, myTurn.

// One call of the server's HTTP API with the session's token: the answer's
// JSON (null for an empty one); KitError when the server refuses.
async function api(token, method, path, options = {}) {
  const ws = new URL(options.url || process.env.SPLENDOR_URL || DEFAULT_URL);
  const scheme = { 'ws:': 'http:', 'wss:': 'https:' }[ws.protocol] || ws.protocol;
  const response = await fetch(`${scheme}//${ws.host}${path}`, {
    method, headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
  });
  if (!response.ok) throw new KitError(`${method} ${path}: HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`);
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

// Every game the session of `token` sits in (GET /api/me/games), those
// waiting for it first: a bot with many turn-based games picks the next to
// play from it (each has room, your_turn, deadline in Unix ms for a
// turn-based one, and the players). `options.url` is the server's WebSocket
// URL, as for run(). Throws KitError when the server refuses (401).
async function myGames(token, options = {}) {
  return (await api(token, 'GET', '/api/me/games', options)).games;
}

// The session's invitations (issue 25), newest first: each has id, room
// (play it with play(choose, { room }): joining accepts), from (name,
// player_id), seats and players. Only rooms still waiting are listed.
async function invitations(token, options = {}) {
  return (await api(token, 'GET', '/api/me/games', options)).invitations;
}

// Declines the invitation `id`, telling the challenger options.reason (one of
// DECLINE_REASONS, 'generic' by default); KitError (404) when the session
// has none such.
async function declineInvitation(token, id, options = {}) {
  const reason = encodeURIComponent(options.reason || 'generic');
  await api(token, 'DELETE', `/api/me/invitations/${encodeURIComponent(id)}?reason=${reason}`, options);
}

// The programs connected now that take challenges (GET /api/bots/online),
// longest online first: each has name, player_id (what a challenge names),
// rated_games and, once it played a rated game, rating.
async function botsOnline(options = {}) {
  const ws = new URL(options.url || process.env.SPLENDOR_URL || DEFAULT_URL);
  const scheme = { 'ws:': 'http:', 'wss:': 'https:' }[ws.protocol] || ws.protocol;
  const response = await fetch(`${scheme}//${ws.host}/api/bots/online`, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new KitError(`GET /api/bots/online: HTTP ${response.status}`);
  return (await response.json()).bots;
}

module.exports = {
  DEFAULT_URL, KitError, expandLean, catalogue, myGames, invitations, declineInvitation, botsOnline,
};
