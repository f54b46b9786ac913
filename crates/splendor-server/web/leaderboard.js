// The leaderboard page of the browser client (docs/BROWSER.md): rated
// players best first (GET /api/leaderboard), people and bots apart, a page
// at a time; a player's rating and recent rated games
// (GET /api/players/{id}): their page, with the rating's history as a
// chart, their mean accuracy, the recent games with their replays and
// analyses, and Follow (friends.js). The address says what is shown:
// /leaderboard#bots, #page=2, #player=3fa9c01d2e. Names are text from
// people: they only ever go in through textContent, beside the player id
// (names are not unique).
'use strict';

const PER_PAGE = 25;
const B = {
  kind: 'humans',
  page: 1,
  total: 0,
  rows: [], // the players of the page shown
  player: null, // the player shown below, with `recent`
  status: null,
};

function setStatus(key, params) {
  B.status = key ? [key, params] : null;
  $('status').textContent = key ? t(key, params) : '';
}

// The JSON body of `path`; a failure throws an Error with the server's
// message (worded in English: this page sends no language) and the status.
async function getJson(path) {
  const response = await fetch(path, { headers: { Accept: 'application/json' } });
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const err = new Error(body && body.message ? body.message : `HTTP ${response.status}`);
    err.status = response.status;
    throw err;
  }
  return body;
}

// "1612 ± 87": the rating and its deviation, rounded.
function ratingText(p) {
  return t('board.ratingValue', { rating: Math.round(p.rating), deviation: Math.round(p.deviation) });
}

// The rating's cell: the figures and, while the deviation is high, a
// "provisional" tag (PROTOCOL.md, ratings).
function ratingCell(p) {
  return el('td', { 'data-provisional': String(Boolean(p.provisional)) },
    ratingText(p),
    p.provisional ? el('span', { cls: 'tag provisional', text: t('board.provisional') }) : null);
}

function playerCell(p) {
  return el('td', {},
    el('a', { href: `#player=${p.player_id}`, 'data-player': p.player_id, text: p.name }),
    ' ',
    el('span', { cls: 'muted small-code', text: `#${p.player_id}` }));
}

function renderBoard() {
  for (const kind of ['humans', 'bots']) $(`kind-${kind}`).setAttribute('aria-pressed', String(B.kind === kind));
  const body = $('board').tBodies[0];
  body.replaceChildren(...B.rows.map((p) => el('tr', { 'data-row': p.player_id },
    el('td', { text: String(p.rank) }),
    playerCell(p),
    ratingCell(p),
    el('td', { text: String(p.games) }),
    el('td', { text: String(p.wins) }))));
  $('board').hidden = B.rows.length === 0;
  $('board-empty').hidden = B.rows.length > 0;
  const pages = Math.max(1, Math.ceil(B.total / PER_PAGE));
  $('page-info').textContent = t('board.pageOf', { page: B.page, pages });
  $('prev-page').disabled = B.page <= 1;
  $('next-page').disabled = B.page >= pages;
}

function renderPlayer() {
  const p = B.player;
  $('player').hidden = !p;
  if (!p) return;
  $('player').dataset.player = p.player_id;
  $('player-title').textContent = `${p.name} #${p.player_id}`;
  $('player-line').textContent = t('board.playerLine', {
    rating: ratingText(p),
    games: p.games,
    wins: p.wins,
    kind: t(p.bot ? 'board.isBot' : 'board.isHuman'),
  });
  $('player-provisional').hidden = !p.provisional;
  const acc = p.accuracy;
  $('player-accuracy').textContent = acc && acc.mean !== undefined
    ? t('board.accuracy', { accuracy: acc.mean.toLocaleString(currentLang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }), games: acc.games })
    : t('board.noAccuracy');
  renderFollowButton();
  renderRatingChart(p.recent);
  $('recent').tBodies[0].replaceChildren(...p.recent.map((g) => el('tr', {},
    el('td', { text: new Date(g.finished_at).toLocaleString(currentLang) }),
    el('td', {}, ...opponentLinks(g.opponents)),
    el('td', { text: t('board.placeOf', { place: g.place, players: g.players }) }),
    el('td', { text: t('board.changeText', { before: Math.round(g.rating_before), after: Math.round(g.rating_after) }) }),
    el('td', {}, el('a', { href: `/games/${encodeURIComponent(g.game)}`, text: t('links.replay') }), ' · ',
      el('a', { href: `/games/${encodeURIComponent(g.game)}?analysis`, text: t('board.analysis') })))));
}

// The others at a table: a person's name links to their page (issue 50:
// a game is where one finds whom to follow).
function opponentLinks(opponents) {
  const out = [];
  for (const o of opponents || []) {
    if (out.length) out.push(', ');
    out.push(o.player_id
      ? el('a', { href: `#player=${o.player_id}`, text: o.name })
      : el('span', { text: o.bot ? shownName(o.name, o.bot) : o.name }));
  }
  return out;
}

// Follow or Unfollow on a player's page, for a visitor with a session
// (friends.js keeps the list); none on one's own page or a bot's.
function renderFollowButton() {
  const box = $('player-follow');
  const p = B.player;
  box.replaceChildren();
  if (!p || p.bot || !friendsToken() || !F.data) return;
  const followed = isFollowed(p.player_id);
  box.append(el('button', {
    type: 'button', id: 'follow-player', cls: followed ? 'quiet' : '',
    text: t(followed ? 'friends.unfollow' : 'friends.follow'),
    'aria-label': t(followed ? 'friends.unfollowLabel' : 'friends.followLabel', { name: p.name }),
    onclick: () => setFollow(p.player_id, p.name, !followed),
  }));
}

// The rating before the oldest recent game and after each, oldest first,
// as a line (an SVG of our own, like the analysis' chart) with its range.
function renderRatingChart(recent) {
  const box = $('rating-chart');
  const games = [...(recent || [])].reverse();
  if (games.length === 0) { box.replaceChildren(); box.hidden = true; return; }
  box.hidden = false;
  const points = [games[0].rating_before, ...games.map((g) => g.rating_after)];
  const lo = Math.floor(Math.min(...points) / 50) * 50;
  const hi = Math.max(lo + 50, Math.ceil(Math.max(...points) / 50) * 50);
  const W = 600, H = 160, L = 44, R = 8, T = 10, Bm = 20;
  const x = (i) => L + (i * (W - L - R)) / Math.max(1, points.length - 1);
  const y = (r) => T + ((hi - r) * (H - T - Bm)) / (hi - lo);
  const ns = 'http://www.w3.org/2000/svg';
  const node = (tag, attrs, text) => {
    const n = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
    if (text !== undefined) n.textContent = text;
    return n;
  };
  const label = t('board.chartLabel', { from: Math.round(points[0]), to: Math.round(points[points.length - 1]), games: games.length });
  const chart = node('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label });
  for (const r of [lo, hi]) {
    chart.append(node('line', { x1: L, x2: W - R, y1: y(r), y2: y(r), class: 'half' }));
    chart.append(node('text', { x: L - 4, y: y(r) + 4, 'text-anchor': 'end', class: 'tick' }, String(r)));
  }
  chart.append(node('text', { x: L, y: H - 4, class: 'tick' }, t('board.chartOldest')));
  chart.append(node('text', { x: W - R, y: H - 4, 'text-anchor': 'end', class: 'tick' }, t('board.chartNewest')));
  chart.append(node('polyline', { points: points.map((r, i) => `${x(i)},${y(r)}`).join(' '), class: 'line' }));
  for (const [i, r] of points.entries()) chart.append(node('circle', { cx: x(i), cy: y(r), r: 3, class: 'mark' }));
  box.replaceChildren(chart, el('figcaption', { cls: 'sr-only', text: label }));
}

async function loadBoard() {
  try {
    const page = await getJson(`/api/leaderboard?kind=${B.kind}&page=${B.page}&per_page=${PER_PAGE}`);
    B.rows = page.players;
    B.total = page.total;
    setStatus(null);
  } catch (e) {
    B.rows = [];
    setStatus('board.failed', { why: e.message });
  }
  renderBoard();
}

async function loadPlayer(id) {
  try {
    B.player = await getJson(`/api/players/${encodeURIComponent(id)}`);
    setStatus(null);
  } catch (e) {
    B.player = null;
    // An id that has played no rated game yet (a link from the lobby).
    if (e.status === 404) setStatus('board.noPlayer', { id });
    else setStatus('board.playerFailed', { why: e.message });
  }
  renderPlayer();
}

// The address: #bots, #page=N, #player=ID (any order, joined by &).
function readHash() {
  const parts = new URLSearchParams(location.hash.slice(1));
  const kind = parts.has('bots') ? 'bots' : 'humans';
  const page = Math.max(1, Number(parts.get('page')) || 1);
  const changed = kind !== B.kind || page !== B.page || !B.loaded;
  B.kind = kind;
  B.page = page;
  B.loaded = true;
  // The choice shows at once, before its rows arrive.
  for (const k of ['humans', 'bots']) $(`kind-${k}`).setAttribute('aria-pressed', String(kind === k));
  if (changed) loadBoard();
  const player = parts.get('player');
  if (player) loadPlayer(player);
  else { B.player = null; renderPlayer(); }
}

function writeHash(kind, page) {
  const parts = [];
  if (kind === 'bots') parts.push('bots');
  if (page > 1) parts.push(`page=${page}`);
  location.hash = parts.join('&');
}

function languageChanged() {
  if (B.status) setStatus(...B.status);
  renderFollowButton();
  renderBoard();
  renderPlayer();
}

function setup() {
  initLang();
  onLangChange(languageChanged);
  for (const kind of ['humans', 'bots']) $(`kind-${kind}`).addEventListener('click', () => writeHash(kind, 1));
  $('prev-page').addEventListener('click', () => writeHash(B.kind, B.page - 1));
  $('next-page').addEventListener('click', () => writeHash(B.kind, B.page + 1));
  // A player's link keeps the board where it is.
  $('board').addEventListener('click', (e) => {
    const id = e.target.dataset && e.target.dataset.player;
    if (!id) return;
    e.preventDefault();
    const parts = new URLSearchParams(location.hash.slice(1));
    parts.set('player', id);
    location.hash = [...parts].map(([k, v]) => (v ? `${k}=${v}` : k)).join('&');
  });
  window.addEventListener('hashchange', readHash);
  readHash();
  // Follow and Unfollow need the list of those followed (issue 50).
  loadFriends();
}

setup();
