// The replay pages of the browser client (docs/BROWSER.md):
// - /games: recent finished games (GET /api/games), a page at a time;
// - /games/{id}: one game stepped through move by move, everything that
//   was hidden during play revealed (GET /api/games/{id}/positions, the
//   server's rules playing the stored log back), and the shuffle checked
//   against the commitment here, with WebCrypto; its analysis on demand
//   (analysis.js).
// Names are text from people: they only ever go in through textContent.
'use strict';

const R = {
  data: null, // the positions document
  step: 0, // the version shown
  next: null, // the cursor of the next page of games
  games: [], // the games listed so far
  status: null, // [key, params] of the status line
  resultShown: false, // the result asked for before the last move
  missing: null, // why the game asked for cannot be shown
};

// The status line: a key of the message table and its params, kept so that
// a language switch can write it again.
function setStatus(key, params) {
  R.status = key ? [key, params] : null;
  $('status').textContent = key ? t(key, params) : '';
}

async function getJson(path) {
  const response = await fetch(path, { headers: { Accept: 'application/json' } });
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const why = body && body.message ? body.message : `HTTP ${response.status}`;
    const error = new Error(why);
    error.code = body && body.error;
    throw error;
  }
  return body;
}

// ---- /games -----------------------------------------------------------------

async function loadGames() {
  $('list').hidden = false;
  const query = R.next ? `?limit=20&before=${encodeURIComponent(R.next)}` : '?limit=20';
  try {
    const page = await getJson(`/api/games${query}`);
    const body = $('games').tBodies[0];
    R.games.push(...page.games);
    for (const g of page.games) body.append(gameRow(g));
    R.next = page.next;
    $('older').hidden = !page.next;
    $('list-empty').hidden = body.rows.length > 0;
    $('games').hidden = body.rows.length === 0;
    setStatus(null);
  } catch (e) {
    setStatus('replay.gamesFailed', { why: e.message });
  }
}

function gameRow(g) {
  const winners = new Set(g.winners || []);
  const points = new Map((g.ranking || []).map((r) => [r.seat, r.points]));
  const names = (g.seats || []).map((s) => el('span', { cls: winners.has(s.seat) ? 'winner-name' : '' },
    `${shownName(s.name, s.bot)} (${points.get(s.seat) ?? 0})`, botTag(s)));
  const players = el('span', {});
  names.forEach((n, i) => { if (i) players.append(', '); players.append(n); });
  const ended = g.finished_at ? new Date(g.finished_at).toLocaleString(currentLang) : '';
  return el('tr', {},
    el('td', { text: ended }),
    el('td', {}, players),
    el('td', { text: g.room }),
    el('td', {}, el('a', { href: `/games/${encodeURIComponent(g.id)}`, text: t('links.replay') })));
}

// ---- /games/{id} --------------------------------------------------------------

async function loadGame(id) {
  $('viewer').hidden = false;
  setStatus('replay.loading');
  try {
    R.data = await getJson(`/api/games/${encodeURIComponent(id)}/positions`);
  } catch (e) {
    // An id that names no finished game gets a page of its own.
    if (['game_not_found', 'invalid_game_id', 'game_not_finished'].includes(e.code)) {
      $('viewer').hidden = true;
      $('missing').hidden = false;
      R.missing = e.code;
      missingText();
      setStatus(null);
      return;
    }
    setStatus('replay.gameFailed', { why: e.message });
    return;
  }
  setStatus(null);
  const d = R.data;
  viewerTitle();
  $('raw').href = `/api/games/${encodeURIComponent(d.game)}/replay`;
  $('step').max = String(d.positions.length - 1);
  const fromHash = Number(location.hash.slice(1));
  R.step = Number.isInteger(fromHash) && fromHash >= 0 && fromHash < d.positions.length ? fromHash : 0;
  renderResult();
  renderMoveList();
  show();
  setupAnalysis();
}

// Every move beside the board (issue 23), each a button to the position
// it leads to; the one shown is marked.
function renderMoveList() {
  const d = R.data;
  $('move-list').replaceChildren(...d.actions.map((a, i) => el('li', {},
    el('button', {
      type: 'button', cls: 'quiet small', 'data-step': i + 1,
      onclick: () => go(i + 1),
    }, actionText(a.events, a.by, nameOf)))));
}

function markMoveList() {
  for (const b of document.querySelectorAll('#move-list button')) {
    const current = Number(b.dataset.step) === R.step;
    b.classList.toggle('current', current);
    if (current) {
      b.setAttribute('aria-current', 'step');
      // Keep the current move in the list's view (the page does not scroll).
      const list = $('move-list');
      list.scrollTop = b.offsetTop - list.offsetTop - list.clientHeight / 2;
    } else b.removeAttribute('aria-current');
  }
}

function missingText() {
  const key = { game_not_finished: 'replay.notFinished', invalid_game_id: 'replay.badId' }[R.missing] || 'replay.noGame';
  $('missing-why').textContent = t(key);
  document.title = t('replay.missingTitle');
}

// The document title and the heading of one game.
function viewerTitle() {
  const d = R.data;
  document.title = t('replay.docTitleGame', { room: d.room });
  $('viewer-title').textContent = t('replay.title', { room: d.room, names: d.seats.map((s) => shownName(s.name, s.bot)).join(', ') });
}

function go(step) {
  const last = R.data.positions.length - 1;
  R.step = Math.max(0, Math.min(last, step));
  history.replaceState(null, '', `#${R.step}`);
  show();
}

function nameOf(seat) {
  const s = R.data.seats[seat];
  return s ? shownName(s.name, s.bot) : t('seat', { n: seat + 1 });
}

function show() {
  const d = R.data;
  const st = d.positions[R.step];
  const last = d.positions.length - 1;
  $('step').value = String(R.step);
  $('step-label').textContent = t('replay.step', { step: R.step, last });
  for (const id of ['first', 'prev']) $(id).disabled = R.step === 0;
  for (const id of ['next', 'last']) $(id).disabled = R.step === last;
  const action = R.step > 0 ? d.actions[R.step - 1] : null;
  const move = $('move');
  if (!action) {
    move.textContent = t('replay.deal');
  } else {
    move.textContent = actionText(action.events, action.by, nameOf);
  }
  renderNobles(st);
  renderLevels(st);
  renderSupply(st);
  renderPlayers(st);
  markMoveList();
  // The result stays hidden until the last move, unless asked for.
  const open = R.step === last || R.resultShown;
  $('result').hidden = !open;
  $('show-result').hidden = open;
  showAnalysis();
}

function cardFace(card, small) {
  return el('div', {
    cls: `card band-${card.bonus}${small ? ' small' : ''}`,
    'data-card': card.id,
    title: cardTitle(card),
  },
  el('span', { cls: 'card-top' },
    el('span', { cls: 'points', text: card.points ? String(card.points) : '' }),
    bonusMark(card.bonus)),
  costColumn(card.cost));
}

function renderNobles(st) {
  $('nobles').replaceChildren(el('span', { cls: 'label', text: t('label.nobles') }),
    ...st.nobles.map((n) => el('div', { cls: 'noble', title: t('noble.short', { points: t('points', { n: n.points }) }) },
      el('span', { cls: 'points', text: String(n.points) }), costColumn(n.requires, 'req'))));
}

function renderLevels(st) {
  const box = $('levels');
  box.replaceChildren();
  for (const row of [...st.levels].reverse()) {
    const deck = el('div', { cls: `deck level-${row.level}` },
      el('span', { cls: 'deck-level', text: t('deck.level', { level: row.level }) }), el('span', { text: t('deck.left', { n: row.deck }) }));
    box.append(el('div', { cls: 'level-row' }, deck,
      ...row.cards.map((c) => (c ? cardFace(c) : el('div', { cls: 'card empty', text: t('card.empty') })))));
  }
}

function renderSupply(st) {
  $('supply').replaceChildren(el('span', { cls: 'label', text: t('label.tokens') }),
    ...TOKENS.map((c) => el('div', { cls: `token gem-${c}`, title: t('supply.title', { count: countText(st.supply[c] || 0, c) }) },
      gemIcon(c), el('span', { cls: 'token-n', text: String(st.supply[c] || 0) }), el('span', { text: colorName(c) }))));
}

function renderPlayers(st) {
  const box = $('players');
  box.replaceChildren();
  for (const p of st.players) {
    const seat = R.data.seats[p.seat] || {};
    const reserved = p.reserved.map((r) => (r.card ? cardFace(r.card, true)
      : el('div', { cls: `card small hidden level-${r.level}`, text: t('reserved.level', { level: r.level }) })));
    box.append(el('div', { cls: `panel player${st.to_act === p.seat ? ' acting' : ''}` },
      el('div', { cls: 'player-head' }, el('strong', { text: nameOf(p.seat) }),
        botTag(seat),
        st.to_act === p.seat ? el('span', { cls: 'tag turn-tag', text: t('tag.toPlay') }) : null,
        el('span', { cls: 'score', text: t('points', { n: p.points }) })),
      el('div', { cls: 'row' }, el('span', { cls: 'label', text: t('label.tokensN', { n: total(p.tokens) }) }), countsLine(p.tokens)),
      el('div', { cls: 'row' }, el('span', { cls: 'label', text: t('label.bonuses', { cards: t('cards', { n: p.cards.length }) }) }), countsLine(p.bonuses)),
      p.nobles.length ? el('div', { cls: 'row' }, el('span', { cls: 'label', text: t('label.nobles') }),
        el('span', { text: p.nobles.map((n) => t('points', { n: n.points })).join(', ') })) : null,
      reserved.length ? el('div', { cls: 'row' }, el('span', { cls: 'label', text: t('label.reserved') }),
        el('div', { cls: 'reserved' }, reserved)) : null));
  }
}

function countsLine(counts) {
  const list = TOKENS.filter((c) => counts && counts[c] > 0);
  if (!list.length) return el('span', { cls: 'muted', text: t('none') });
  return el('span', { cls: 'chips' }, list.map((c) => el('span', { cls: `chip gem-${c}` }, gemIcon(c), countText(counts[c], c))));
}

function renderResult() {
  const d = R.data;
  const res = d.result;
  const box = $('result');
  const check = el('p', { cls: 'muted', text: t('fair.checkingShuffle') });
  const heads = ['result.rank', 'result.player', 'result.points', 'result.cards'];
  box.replaceChildren(el('h2', { text: t('result.title') }),
    el('table', {}, el('tr', {}, heads.map((h) => el('th', { scope: 'col', text: t(h) }))),
      res.ranking.map((r) => el('tr', { cls: res.winners.includes(r.seat) ? 'winner' : '' },
        [r.rank, nameOf(r.seat), r.points, r.cards].map((v) => el('td', { text: String(v) }))))),
    // replaceChildren (unlike el) would write a null as the text "null".
    ...(endKey(res) ? [el('p', { id: 'result-end', text: t(endKey(res)) })] : []),
    ...(d.ended_by_operators ? [el('p', { cls: 'ended-by-operators', text: t('result.endedByOperators', { reason: d.ended_by_operators }) })] : []),
    el('h3', { text: t('fair.title') }),
    el('dl', { cls: 'reveal' },
      el('dt', { text: t('fair.commitment') }), el('dd', { text: d.commitment }),
      el('dt', { text: t('fair.seed') }), el('dd', { text: d.seed }),
      el('dt', { text: t('fair.salt') }), el('dd', { text: d.salt })),
    check);
  checkShuffle(d, check);
}

async function checkShuffle(d, node) {
  if (!(window.crypto && crypto.subtle)) {
    node.textContent = t('fair.noCrypto');
    return;
  }
  try {
    const hex = await commitmentOf(d.salt, d.seed);
    node.textContent = t(hex === d.commitment ? 'fair.okReplay' : 'fair.bad');
  } catch {
    node.textContent = t('fair.error');
  }
}

// ---- Start ----------------------------------------------------------------------

// A language switch draws the page again in the new words.
function languageChanged() {
  if (R.status) setStatus(...R.status);
  if (R.missing) missingText();
  if (R.data) {
    viewerTitle();
    renderResult();
    renderMoveList();
    renderAnalysis();
    show();
  } else if (!$('list').hidden) {
    $('games').tBodies[0].replaceChildren(...R.games.map(gameRow));
  }
}

function setup() {
  initLang();
  onLangChange(languageChanged);
  const match = location.pathname.match(/^\/games\/([^/]+)$/);
  if (match) {
    $('first').addEventListener('click', () => go(0));
    $('prev').addEventListener('click', () => go(R.step - 1));
    $('next').addEventListener('click', () => go(R.step + 1));
    $('last').addEventListener('click', () => go(Infinity));
    $('step').addEventListener('input', () => go(Number($('step').value)));
    $('show-result').addEventListener('click', () => { R.resultShown = true; show(); $('result').focus(); });
    document.addEventListener('keydown', (e) => {
      if (!R.data || e.target.tagName === 'INPUT') return;
      if (e.key === 'ArrowLeft') go(R.step - 1);
      else if (e.key === 'ArrowRight') go(R.step + 1);
      else if (e.key === 'Home') go(0);
      else if (e.key === 'End') go(Infinity);
      else return;
      e.preventDefault();
    });
    loadGame(decodeURIComponent(match[1]));
  } else {
    $('older').addEventListener('click', loadGames);
    loadGames();
  }
}

setup();
