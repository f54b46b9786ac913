// The browser client of the Splendor server (docs/BROWSER.md).
//
// It speaks the WebSocket protocol of docs/PROTOCOL.md and knows no rules:
// every move it offers is an entry of the server's `legal_actions` list,
// sent unchanged. Server-provided text (names above all) only ever goes
// into the page through textContent, never as HTML.
'use strict';

const TOKEN_KEY = 'splendor.token';
const CODE_RE = /^[A-Za-z]{5}$/;

// Everything the page knows. Rendering reads it; messages change it.
const S = {
  ws: null,
  identified: false,
  sentAt: 0, // performance.now() of the last message sent (liveness)
  token: load(TOKEN_KEY),
  name: '',
  room: null, // the last `room` message, or null in the lobby
  state: null, // the last `state`
  result: null, // the `result`, once the game is over
  commitment: null, // { game, value } from the first state of the game
  log: [], // the events seen, newest first: { ev, by } (put in words when drawn)
  logRoom: null, // the room the log belongs to
  picks: [], // colours clicked in the supply, composing a take
  give: {}, // tokens chosen to return
  selected: null, // { card } or { level } clicked on the table
  pending: false, // an action is on its way
  attempts: 0, // failed connection attempts since the last welcome
  timer: null,
  nextId: 1,
  toastTimer: null,
  rejoin: null, // the room to watch again after a reconnect
  quick: null, // { bots, level }: "play against bots" fills the room, then starts
  stateAt: 0, // performance.now() when the last state arrived (clocks count from it)
  rematchAsked: null, // the id of our `rematch` request until it is answered
  followed: null, // the rematch room this page already followed
  payGold: null, // { card, gold: {colour: n} }: a payment being chosen
  status: null, // [key, params] of the connection status line
  rooms: null, // the last list of open rooms
  invited: null, // the room code of the link that opened the page
  playerId: null, // welcome.player_id: the session's public id (the leaderboard's)
};

function load(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function save(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch { /* private browsing: the session lasts as long as the page */ }
}

// A comparable text for an action: colour lists in one order, object keys
// sorted, zero counts dropped. Two actions are the same move exactly when
// their keys are equal. This is bookkeeping, not rules.
function actionKey(value) {
  if (Array.isArray(value)) {
    const sorted = [...value].sort((a, b) => TOKENS.indexOf(a) - TOKENS.indexOf(b));
    return `[${sorted.map(actionKey).join(',')}]`;
  }
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).filter((k) => value[k] !== 0).sort();
    return `{${keys.map((k) => `${k}:${actionKey(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

// The moves offered now: none while the connection is down.
function legal() {
  return (S.identified && S.state && S.state.legal_actions) || [];
}

// The entry of the legal list equal to `action`, or undefined.
function findLegal(action) {
  const key = actionKey(action);
  return legal().find((a) => actionKey(a) === key);
}

function seatName(seat) {
  const p = S.state && S.state.players[seat];
  if (p) return p.name;
  const s = S.room && S.room.seats[seat];
  return s ? s.name : t('seat', { n: seat + 1 });
}

// ---- Connection -----------------------------------------------------------

// The page promises the server a message at least this often while it
// sits at a table (`liveness_s` in hello): a page the browser froze (kept
// in its back/forward cache, say) goes silent, and the server counts its
// seat as away (R12.3) though the socket may stay open.
const LIVENESS_S = 5;

// An application ping when the page has sent nothing for LIVENESS_S.
function keepAlive() {
  if (!S.identified || !S.room || S.room.you.role !== 'player') return;
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) return;
  if (performance.now() - S.sentAt < LIVENESS_S * 1000 - 500) return;
  send({ type: 'ping' });
}

// Leaving the page in the same tab (another address, Past games, the
// leaderboard): the socket closes at once, so the server sees the player
// leave, whether or not the browser keeps the page to come back to.
function pageHidden() {
  clearTimeout(S.timer);
  const ws = S.ws;
  if (!ws) return;
  S.ws = null;
  S.identified = false;
  S.pending = false;
  S.rejoin = S.room && S.room.you.role === 'spectator' ? S.room.code : null;
  ws.close(1000);
}

// Back on the page from the back/forward cache: connect and resume.
function pageShown(e) {
  if (e.persisted && !S.ws) {
    S.attempts = 0;
    connect();
  }
}

function socketUrl() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws`;
}

function connect() {
  clearTimeout(S.timer);
  $('reconnect').hidden = true;
  setStatus('status.connecting');
  const ws = new WebSocket(socketUrl());
  S.ws = ws;
  ws.onopen = () => {
    setStatus('status.connected');
    // verbose: full states after every action (protocol 2 sends lean ones,
    // cards by id, unless asked); the page draws cards from their details.
    // lang: the server words its messages (errors) in the page's language.
    if (S.token) send({ type: 'hello', token: S.token, verbose: true, lang: currentLang, liveness_s: LIVENESS_S });
    else render();
  };
  ws.onmessage = (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    if (msg && typeof msg.type === 'string') handle(msg);
    // A background tab's timers may be slowed down; what the server sends
    // still wakes the page, which answers if it has been quiet.
    keepAlive();
  };
  ws.onclose = (e) => {
    if (S.ws !== ws) return;
    S.ws = null;
    S.identified = false;
    S.pending = false;
    // The server forgets a spectator whose connection ends; a player keeps the seat.
    S.rejoin = S.room && S.room.you.role === 'spectator' ? S.room.code : null;
    closed(e.code);
    render();
  };
}

// Decides what to do when the socket closed (close codes: PROTOCOL.md).
function closed(code) {
  if (code === 4001) {
    setStatus('status.elsewhere');
    offerReconnect('reconnect.here');
    return;
  }
  if (code === 4004) {
    setStatus('status.idle');
    offerReconnect('reconnect.again');
    return;
  }
  // A restart (1012), a dropped network, a refused handshake: try again
  // after a random 1 to 5 s, doubling with each failed attempt (at most 60 s).
  const base = 1000 + Math.random() * 4000;
  const delay = Math.min(base * 2 ** Math.min(S.attempts, 6), 60000);
  S.attempts += 1;
  setStatus(code === 1012 ? 'status.restarting' : 'status.lost', { s: Math.round(delay / 1000) });
  offerReconnect('reconnect.now');
  S.timer = setTimeout(connect, delay);
}

// `key`: the button's label in the message table.
function offerReconnect(key) {
  $('reconnect').dataset.label = key;
  $('reconnect').textContent = t(key);
  $('reconnect').hidden = false;
}

function send(msg) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    toast(t('toast.notConnected'));
    return false;
  }
  msg.id = S.nextId++;
  S.ws.send(JSON.stringify(msg));
  S.sentAt = performance.now();
  return true;
}

function act(action) {
  if (S.pending || !S.state) return;
  if (send({ type: 'act', action, expect_version: S.state.version })) S.pending = true;
  render();
}

// ---- Server messages --------------------------------------------------------

function handle(msg) {
  if (msg.id !== undefined && msg.id === S.rematchAsked) S.rematchAsked = null;
  if (handleQueue(msg)) { render(); return; }
  switch (msg.type) {
    case 'welcome':
      S.identified = true;
      S.attempts = 0;
      S.token = msg.token;
      S.name = msg.name;
      S.playerId = msg.player_id || null;
      save(TOKEN_KEY, msg.token);
      // A resumed session gets its room and state next, if it still has a
      // room; the answer to list_rooms comes after them and renders the lobby
      // otherwise. Waiting for it avoids flashing the lobby on a reconnect.
      S.room = null;
      S.state = null;
      S.result = null;
      // A session still queued hears `queued` again.
      queueEnded();
      if (S.rejoin) send({ type: 'join', code: S.rejoin, as: 'spectator' });
      S.rejoin = null;
      send({ type: 'list_rooms' });
      if (msg.resumed) return;
      break;
    case 'room':
      // A room (joined, created or matched) ends any wait in the queue.
      queueEnded();
      if (S.logRoom !== msg.code) { S.log = []; S.logRoom = msg.code; chatReset(); }
      S.room = msg;
      if (msg.status === 'waiting') { S.state = null; S.result = null; }
      history.replaceState(null, '', `#${msg.code}`);
      quickPlay();
      followRematch();
      break;
    case 'state': {
      const wasMine = myTurn();
      if (!S.state || S.state.version !== msg.version || S.state.game !== msg.game) {
        S.picks = []; S.give = {}; S.selected = null; S.payGold = null;
      }
      if (!S.commitment || S.commitment.game !== msg.game) {
        S.commitment = { game: msg.game, value: msg.commitment };
      }
      S.state = msg;
      S.stateAt = performance.now();
      S.pending = false;
      turnAlerts(wasMine);
      break;
    }
    case 'events': {
      // A stand-in's moves say so (R12.4).
      for (const ev of msg.events) logLine(ev, msg.by);
      break;
    }
    case 'history':
      // Every earlier move, on join, resume and sync: the log starts over.
      S.log = [];
      for (const action of msg.actions) {
        for (const ev of action.events) logLine(ev, action.by);
      }
      break;
    case 'result':
      S.result = msg;
      turnAlerts(true);
      break;
    case 'chat':
      if (S.room && msg.room === S.room.code) chatReceived(msg);
      return;
    case 'error':
      S.pending = false;
      S.quick = null;
      if (msg.code === 'invalid_token') {
        S.token = null;
        save(TOKEN_KEY, null);
        toast(t('toast.expired'));
      } else {
        // The server words `message` in the language of our hello.
        toast(msg.message || msg.code);
      }
      break;
    case 'left':
      // A rematch moves us on: the old room's goodbye may come after the new one.
      if (S.room && msg.room !== S.room.code) return;
      leaveRoomView();
      send({ type: 'list_rooms' });
      break;
    case 'room_closed':
      toast(t('toast.roomClosed', { room: msg.room, reason: msg.reason }));
      leaveRoomView();
      send({ type: 'list_rooms' });
      break;
    case 'rooms':
      S.rooms = msg.rooms;
      renderRooms(msg.rooms);
      break;
    default:
      return;
  }
  render();
}

function leaveRoomView() {
  if (S.room) history.replaceState(null, '', location.pathname);
  S.room = null;
  S.state = null;
  S.result = null;
  S.log = [];
  S.logRoom = null;
  S.selected = null;
  S.followed = null;
  chatReset();
  turnAlerts(true);
}

// Keeps an event for the log; it is put in words when drawn, in the
// language of the moment.
function logLine(ev, by) {
  S.log.unshift({ ev, by });
  S.log.length = Math.min(S.log.length, 200);
}

// ---- Notices --------------------------------------------------------------

// The connection status line: a key of the message table and its params,
// kept so that a language switch can write it again.
function setStatus(key, params) {
  S.status = [key, params];
  $('status').textContent = t(key, params);
}

function toast(text) {
  const box = $('toast');
  box.textContent = text;
  box.hidden = false;
  clearTimeout(S.toastTimer);
  S.toastTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

// ---- Rendering: which screen ------------------------------------------------

function show(id) {
  for (const s of ['login', 'lobby', 'room', 'game']) $(s).hidden = s !== id;
}

// Shows the screen that fits: while reconnecting, the last room stays on
// screen (with no moves offered) until the server says where we are.
function render() {
  $('who').textContent = S.name;
  renderChat();
  renderQueue();
  if (S.room && S.state && S.room.status !== 'waiting') { renderGame(); show('game'); return; }
  if (S.room) { renderRoom(); show('room'); return; }
  if (S.identified) { show('lobby'); return; }
  // Without a token the name form is the way in; with one, hello is on its way.
  show(S.ws && S.ws.readyState === WebSocket.OPEN && !S.token ? 'login' : null);
}

// The lobby and the waiting room: lobby.js (loaded first).

// ---- The game -----------------------------------------------------------------

function renderGame() {
  const st = S.state;
  const r = S.room;
  const status = r.status === 'finished' || st.phase === 'game_over' ? t('game.finished') : t('game.turn', { n: st.turn + 1 });
  const head = [t('game.room', { room: st.room }), status];
  if (st.end_triggered && !S.result) head.push(t('game.lastRound'));
  $('game-code').textContent = head.join(' · ');
  $('game-rated').hidden = !r.rated;
  $('leave-game').textContent = S.result || st.you === undefined ? t('game.leave') : t('game.leaveTable');
  renderNobles();
  renderLevels();
  renderSupply();
  renderTurn();
  renderPlayers();
  renderResult();
  const log = $('log');
  log.replaceChildren(...S.log.map(({ ev, by }) => el('li', { text: actionText([ev], by, seatName) })));
  if (!S.log.length) log.append(el('li', { cls: 'muted', text: t('game.logEmpty') }));
}

// A row of counts as labelled chips: "3 white".
function chips(counts, cls) {
  const list = TOKENS.filter((c) => counts && counts[c] > 0);
  if (!list.length) return el('span', { cls: 'muted', text: t('none') });
  return el('span', { cls: `chips ${cls || ''}` },
    list.map((c) => el('span', { cls: `chip gem-${c}`, title: colorName(c) }, countText(counts[c], c))));
}

function cardNode(card, opts) {
  const entries = legal().filter((a) => a.buy === card.id || a.reserve === card.id
    || (a.buy && a.buy.card === card.id));
  const playable = entries.length > 0 && !S.pending;
  const buyable = playable && entries.some((a) => a.buy !== undefined);
  const chosen = S.selected && S.selected.card === card.id;
  return el(playable ? 'button' : 'div', {
    type: playable ? 'button' : undefined,
    cls: `card band-${card.bonus}${playable ? ' playable' : ''}${buyable ? ' buyable' : ''}${chosen ? ' chosen' : ''}${opts && opts.small ? ' small' : ''}`,
    title: t('card.title', { card: cardText(card), color: colorName(card.bonus) }),
    onclick: playable ? () => { S.selected = { card: card.id, info: card }; S.picks = []; render(); } : undefined,
  },
  el('span', { cls: 'card-top' },
    el('span', { cls: 'points', text: card.points ? String(card.points) : '' }),
    el('span', { cls: `chip gem-${card.bonus}`, text: colorName(card.bonus) })),
  costNode(card.cost));
}

// The bonuses of the seat this page plays, or null for a spectator.
function myBonuses() {
  const st = S.state;
  return st && st.you !== undefined ? st.players[st.you].bonuses : null;
}

// A card's cost as chips; for a player, what is left to pay after their
// bonuses follows an arrow ("3 blue →1").
function costNode(cost) {
  const bonuses = myBonuses();
  return el('span', { cls: 'cost' }, COLORS.filter((c) => cost[c] > 0).map((c) => {
    const net = bonuses ? Math.max(0, cost[c] - (bonuses[c] || 0)) : cost[c];
    if (net === cost[c]) return el('span', { cls: `chip gem-${c}` }, countText(cost[c], c));
    return el('span', { cls: `chip gem-${c}`, title: t('card.afterBonuses', { count: countText(cost[c], c), net }) },
      `${countText(cost[c], c)} `, el('span', { cls: 'net', text: `→${net}` }));
  }));
}

function nobleNode(noble, onclick) {
  return el(onclick ? 'button' : 'div', {
    type: onclick ? 'button' : undefined,
    cls: `noble${onclick ? ' playable' : ''}`,
    title: t('noble.title', { points: t('points', { n: noble.points }), counts: countsText(noble.requires) }),
    onclick,
  },
  el('span', { cls: 'points', text: String(noble.points) }),
  el('span', { cls: 'cost' }, COLORS.filter((c) => noble.requires[c] > 0)
    .map((c) => el('span', { cls: `chip gem-${c}` }, countText(noble.requires[c], c)))));
}

// How many bonuses each player still lacks for `noble` (R9: a noble
// counts bonuses only): "ann 2 · bob ✓".
function nobleProgress(noble) {
  const parts = S.state.players.map((p) => {
    const need = COLORS.reduce((n, c) => n + Math.max(0, (noble.requires[c] || 0) - (p.bonuses[c] || 0)), 0);
    return `${p.name} ${need ? need : '✓'}`;
  });
  return el('span', { cls: 'progress', title: t('noble.progress') }, parts.join(' · '));
}

function renderNobles() {
  const box = $('nobles');
  box.replaceChildren(el('span', { cls: 'label', text: t('label.nobles') }),
    ...S.state.nobles.map((n) => el('div', { cls: 'noble-slot' }, nobleNode(n), nobleProgress(n))));
  if (!S.state.nobles.length) box.append(el('span', { cls: 'muted', text: t('nobles.noneLeft') }));
}

function renderLevels() {
  const box = $('levels');
  box.replaceChildren();
  for (const row of [...S.state.levels].reverse()) {
    const deckAction = findLegal({ reserve_deck: row.level });
    const playable = deckAction && !S.pending;
    const chosen = S.selected && S.selected.level === row.level;
    const deck = el(playable ? 'button' : 'div', {
      type: playable ? 'button' : undefined,
      cls: `deck level-${row.level}${playable ? ' playable' : ''}${chosen ? ' chosen' : ''}`,
      title: t('deck.title', { level: row.level, cards: t('cards', { n: row.deck }) }),
      onclick: playable ? () => { S.selected = { level: row.level }; S.picks = []; render(); } : undefined,
    }, el('span', { cls: 'deck-level', text: t('deck.level', { level: row.level }) }), el('span', { text: t('deck.left', { n: row.deck }) }));
    const cards = row.cards.map((c) => (c ? cardNode(c) : el('div', { cls: 'card empty', text: t('card.empty') })));
    box.append(el('div', { cls: 'level-row' }, deck, ...cards));
  }
}

// Whether clicking colour `c` in the supply can lead to a legal take.
function takeable(c) {
  return legal().some((a) => (a.take && a.take.includes(c)) || a.take_two === c);
}

function pickColor(c) {
  const p = S.picks;
  if (p.length === 1 && p[0] === c) S.picks = [c, c];
  else if (p.includes(c)) S.picks = p.filter((x) => x !== c);
  else if (p.length < 3 && !(p.length === 2 && p[0] === p[1])) S.picks = [...p, c];
  else S.picks = [c];
  S.selected = null;
  render();
}

// The take the picked colours describe, as an action.
function pickedAction() {
  const p = S.picks;
  if (p.length === 2 && p[0] === p[1]) return { take_two: p[0] };
  return { take: p };
}

function renderSupply() {
  const box = $('supply');
  box.replaceChildren(el('span', { cls: 'label', text: t('label.tokens') }));
  const mainTurn = S.state.phase === 'main' && legal().length > 0;
  for (const c of TOKENS) {
    const n = S.state.supply[c] || 0;
    const can = mainTurn && !S.pending && takeable(c);
    const picked = S.picks.filter((x) => x === c).length;
    box.append(el(can ? 'button' : 'div', {
      type: can ? 'button' : undefined,
      cls: `token gem-${c}${can ? ' playable' : ''}${picked ? ' chosen' : ''}`,
      title: t('supply.title', { count: countText(n, c) }),
      onclick: can ? () => pickColor(c) : undefined,
    }, el('span', { cls: 'token-n', text: String(n) }), el('span', { text: colorName(c) }),
    picked ? el('span', { cls: 'badge', text: `+${picked}` }) : null));
  }
}

// The panel that says whose turn it is and offers this seat's legal moves.
function renderTurn() {
  const st = S.state;
  const box = $('turn');
  box.replaceChildren();
  // The result panel takes over at the end.
  box.hidden = Boolean(S.result) || st.phase === 'game_over';
  if (box.hidden) return;
  const mine = st.you !== undefined && st.to_act === st.you;
  const phase = { return_tokens: 'Return', choose_noble: 'Noble' }[st.phase] || '';
  const who = t(`turn.${mine ? 'mine' : 'other'}${phase}`, { name: seatName(st.to_act) });
  box.append(el('h2', { cls: mine ? 'mine' : '', text: who }));
  // Your own clock where you play (on a phone the player panels are below).
  const clock = mine && st.clocks ? st.clocks[st.you] : null;
  if (clock) {
    box.append(el('p', { cls: 'turn-clock' }, `${t('turn.timeLeft')} `,
      el('span', { cls: 'clock running', 'data-clock': st.you, role: 'timer', text: clockText(clockNow(clock)) }),
      clock.stand_in ? ` ${t('turn.standInBack')}` : ''));
  }
  if (st.you === undefined) box.append(el('p', { cls: 'muted', text: t('turn.watching') }));
  if (!S.identified) box.append(el('p', { cls: 'muted', text: t('turn.offline') }));
  if (!mine || !legal().length) return;
  if (S.pending) { box.append(el('p', { cls: 'muted', text: t('turn.sending') })); return; }
  if (st.phase === 'return_tokens') renderReturn(box);
  else if (st.phase === 'choose_noble') renderNobleChoice(box);
  else renderMain(box);
}

function renderMain(box) {
  if (findLegal('pass')) {
    box.append(el('p', { text: t('move.mustPass') }),
      el('button', { type: 'button', text: t('move.pass'), onclick: () => act('pass') }));
    return;
  }
  if (S.selected) {
    const sel = S.selected;
    const entries = sel.card !== undefined
      ? legal().filter((a) => a.buy === sel.card || a.reserve === sel.card || (a.buy && a.buy.card === sel.card))
      : legal().filter((a) => a.reserve_deck === sel.level);
    box.append(el('p', { text: sel.card !== undefined
      ? capitalized(t('move.card', { card: cardText(sel.info), cost: countsText(sel.info.cost) }))
      : t('move.deck', { level: sel.level }) }));
    const row = el('div', { cls: 'buttons' });
    const buy = entries.find((a) => a.buy !== undefined);
    const pay = buy && sel.card !== undefined ? payment(sel.info) : null;
    if (pay && pay.rows.some((r) => r.max > r.min)) box.append(paymentChooser(sel.info, pay));
    for (const a of entries) {
      const label = t(a.buy !== undefined ? 'move.buy' : a.reserve !== undefined ? 'move.reserve' : 'move.reserveTop');
      const choose = a === buy && pay ? () => act(buyAction(sel.info, pay, a)) : () => act(a);
      row.append(el('button', { type: 'button', text: label, onclick: choose }));
    }
    row.append(el('button', { type: 'button', cls: 'quiet', text: t('move.cancel'), onclick: () => { S.selected = null; render(); } }));
    box.append(row);
    return;
  }
  if (!S.picks.length) {
    box.append(el('p', { cls: 'muted', text: t('move.hint') }));
    return;
  }
  const action = pickedAction();
  const entry = findLegal(action);
  const counts = {};
  for (const c of S.picks) counts[c] = (counts[c] || 0) + 1;
  box.append(el('p', { text: t('move.takeWhat', { counts: countsText(counts) }) }));
  box.append(el('div', { cls: 'buttons' },
    el('button', { type: 'button', text: t('move.take'), disabled: !entry, onclick: () => entry && act(entry) }),
    el('button', { type: 'button', cls: 'quiet', text: t('move.clear'), onclick: () => { S.picks = []; render(); } })));
  if (!entry) box.append(el('p', { cls: 'muted', text: t('move.notLegal') }));
}

function renderReturn(box) {
  const st = S.state;
  const need = st.return_count;
  const held = st.players[st.you].tokens;
  const given = total(S.give);
  box.append(el('p', { text: t('return.prompt', { n: need, chosen: given }) }));
  const row = el('div', { cls: 'chips' });
  for (const c of TOKENS) {
    if (!held[c]) continue;
    const next = { ...S.give, [c]: (S.give[c] || 0) + 1 };
    const can = legal().some((a) => a.return && TOKENS.every((x) => (next[x] || 0) <= (a.return[x] || 0)));
    row.append(el('button', {
      type: 'button', cls: `token small gem-${c}`, disabled: !can,
      title: t('return.one', { color: colorName(c) }),
      onclick: () => { S.give = next; render(); },
    }, countText(held[c] - (S.give[c] || 0), c), S.give[c] ? el('span', { cls: 'badge', text: `−${S.give[c]}` }) : null));
  }
  box.append(row);
  const entry = findLegal({ return: S.give });
  box.append(el('div', { cls: 'buttons' },
    el('button', { type: 'button', text: given ? t('return.these', { counts: countsText(S.give) }) : t('return.button'), disabled: !entry, onclick: () => entry && act(entry) }),
    el('button', { type: 'button', cls: 'quiet', text: t('move.clear'), onclick: () => { S.give = {}; render(); } })));
}

function renderNobleChoice(box) {
  box.append(el('p', { text: t('noble.choose') }));
  const row = el('div', { cls: 'nobles' });
  for (const a of legal().filter((x) => x.noble !== undefined)) {
    const noble = S.state.noble_choices.find((n) => n.id === a.noble)
      || S.state.nobles.find((n) => n.id === a.noble);
    if (noble) row.append(nobleNode(noble, () => act(a)));
    else row.append(el('button', { type: 'button', text: t('noble.fallback', { id: a.noble }), onclick: () => act(a) }));
  }
  box.append(row);
}

function renderPlayers() {
  const st = S.state;
  const box = $('players');
  box.replaceChildren();
  for (const p of st.players) {
    const seat = S.room.seats[p.seat];
    const connected = seat ? seat.connected : true;
    const clock = st.clocks ? st.clocks[p.seat] : null;
    const head = el('div', { cls: 'player-head' },
      el('strong', { text: p.name }),
      p.seat === st.you ? el('span', { cls: 'tag', text: t('tag.you') }) : null,
      st.to_act === p.seat && !S.result ? el('span', { cls: 'tag turn-tag', text: t('tag.toPlay') }) : null,
      st.first_seat === p.seat ? el('span', { cls: 'tag', text: t('tag.first') }) : null,
      connected ? null : el('span', { cls: 'tag away', text: t('tag.away') }),
      seat && seat.bot ? el('span', { cls: 'tag bot', text: t('tag.bot', { level: botName(seat.bot) }) }) : null,
      clock && clock.stand_in ? el('span', { cls: 'tag away', text: t('tag.standIn'), title: t('tag.standInTitle') }) : null,
      clock && !clock.bot ? el('span', {
        cls: `clock${clock.running ? ' running' : ''}`, 'data-clock': p.seat, role: 'timer',
        text: clockText(clockNow(clock)),
      }) : null,
      el('span', { cls: 'score', text: t('points', { n: p.points }) }),
      seat ? muteButton(S.room, seat) : null);
    const reserved = p.reserved.map((r) => (r.card
      ? cardNode(r.card, { small: true })
      : el('div', { cls: `card small hidden level-${r.level}`, text: t('reserved.hidden', { level: r.level }) })));
    box.append(el('div', { cls: `panel player${st.to_act === p.seat ? ' acting' : ''}` }, head,
      el('div', { cls: 'row' }, el('span', { cls: 'label', text: t('label.tokensN', { n: total(p.tokens) }) }), chips(p.tokens)),
      el('div', { cls: 'row' }, el('span', { cls: 'label', text: t('label.bonuses', { cards: t('cards', { n: p.cards.length }) }) }), chips(p.bonuses)),
      p.nobles.length ? el('div', { cls: 'row' }, el('span', { cls: 'label', text: t('label.nobles') }),
        el('span', { text: p.nobles.map((n) => t('points.short', { n: n.points })).join(', ') })) : null,
      reserved.length ? el('div', { cls: 'row' }, el('span', { cls: 'label', text: t('label.reserved') }),
        el('div', { cls: 'reserved' }, reserved)) : null));
  }
}

function renderResult() {
  const box = $('result');
  const res = S.result;
  box.hidden = !res;
  if (!res) return;
  const won = res.winners.map(seatName);
  const heads = ['result.rank', 'result.player', 'result.points', 'result.cards'];
  const table = el('table', {}, el('tr', {}, heads.map((h) => el('th', { scope: 'col', text: t(h) }))),
    res.ranking.map((r) => el('tr', { cls: res.winners.includes(r.seat) ? 'winner' : '' },
      [r.rank, r.name, r.points, r.cards].map((v) => el('td', { text: String(v) })))));
  const reveal = res.reveal;
  const check = el('p', { cls: 'muted', text: t('fair.checking') });
  box.replaceChildren(el('div', {},
    el('h2', { text: won.length > 1 ? t('result.shared', { names: won.join(', ') }) : t('result.wins', { name: won[0] }) }),
    rematchNode(),
    res.deadlock ? el('p', { text: t('result.deadlock') }) : null,
    table,
    el('h3', { text: t('fair.title') }),
    el('p', { cls: 'muted', text: t('fair.text') }),
    el('dl', { cls: 'reveal' },
      el('dt', { text: t('fair.commitment') }), el('dd', { text: reveal.commitment }),
      el('dt', { text: t('fair.seed') }), el('dd', { text: reveal.seed }),
      el('dt', { text: t('fair.salt') }), el('dd', { text: reveal.salt })),
    check,
    el('p', { cls: 'links' },
      el('a', { href: `/games/${encodeURIComponent(res.game)}`, target: '_blank', rel: 'noopener', id: 'replay-link', text: t('links.replay') }),
      ' · ', el('a', { href: '/games', target: '_blank', rel: 'noopener', text: t('nav.pastGames') }),
      ' · ', el('a', { href: `/api/games/${encodeURIComponent(res.game)}/replay`, target: '_blank', rel: 'noopener', text: t('links.json') }))));
  verifyReveal(res, check);
}

// Checks SHA-256(salt || seed) against the commitment this page saw during
// the game (PROTOCOL.md, `result`). WebCrypto exists on https and localhost only.
async function verifyReveal(res, node) {
  const seen = S.commitment && S.commitment.game === res.game ? S.commitment.value : null;
  if (seen && seen !== res.reveal.commitment) {
    node.textContent = t('fair.otherCommitment');
    return;
  }
  if (!(window.crypto && crypto.subtle)) {
    node.textContent = t('fair.noCrypto');
    return;
  }
  try {
    const hex = await commitmentOf(res.reveal.salt, res.reveal.seed);
    if (hex !== res.reveal.commitment) {
      node.textContent = t('fair.bad');
    } else if (seen) {
      node.textContent = t('fair.okSeen');
    } else {
      node.textContent = t('fair.okLate');
    }
  } catch {
    node.textContent = t('fair.error');
  }
}

// ---- Forms and buttons --------------------------------------------------------

// A language switch draws everything again in the new words.
function languageChanged() {
  if (S.status) setStatus(...S.status);
  if (!$('reconnect').hidden) offerReconnect($('reconnect').dataset.label);
  if (S.rooms) renderRooms(S.rooms);
  if (S.invited) $('invite').textContent = t('login.invite', { code: S.invited });
  turnAlerts(true);
  render();
}

function setup() {
  initLang();
  onLangChange(languageChanged);
  $('login-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const name = $('name').value.trim();
    if (name) send({ type: 'hello', name, verbose: true, lang: currentLang, liveness_s: LIVENESS_S });
  });
  $('join-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const as = e.submitter && e.submitter.value === 'spectator' ? 'spectator' : 'player';
    join($('code').value, as);
  });
  $('create-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const msg = { type: 'create', seats: Number($('seats').value), listed: $('listed').checked };
    const clock = $('clock').value;
    if (clock) {
      const [initial, increment] = clock.split('+').map(Number);
      msg.clock = { initial_s: initial, increment_s: increment };
      if ($('away').checked) msg.stand_in_when_away = true;
    }
    leaveQueue();
    send(msg);
  });
  $('clock').addEventListener('change', () => {
    // R12.3 needs a clock.
    $('away').disabled = !$('clock').value;
    if ($('away').disabled) $('away').checked = false;
  });
  $('bots-form').addEventListener('submit', (e) => {
    e.preventDefault();
    // A double click must not create two rooms.
    if (S.quick || S.room) return;
    const bots = Number($('bot-count').value);
    S.quick = { bots, level: $('bot-level').value };
    leaveQueue();
    send({ type: 'create', seats: bots + 1 });
  });
  $('add-bot').addEventListener('click', () => send({ type: 'add_bot', level: $('add-level').value }));
  // Running clocks count down between states.
  setInterval(renderClocks, 250);
  setInterval(keepAlive, 1000);
  window.addEventListener('pagehide', pageHidden);
  window.addEventListener('pageshow', pageShown);
  $('refresh').addEventListener('click', () => send({ type: 'list_rooms' }));
  $('start').addEventListener('click', () => send({ type: 'start', seat_order: $('seat-order').value }));
  $('leave-room').addEventListener('click', () => send({ type: 'leave' }));
  $('leave-game').addEventListener('click', () => {
    const playing = S.state && S.state.you !== undefined && !S.result;
    if (!playing || window.confirm(t('game.leaveConfirm'))) {
      send({ type: 'leave' });
    }
  });
  $('copy-code').addEventListener('click', () => copy($('room-code'), 'code'));
  $('copy-link').addEventListener('click', () => copy($('room-link'), 'link'));
  $('reconnect').addEventListener('click', () => { S.attempts = 0; connect(); });
  $('chat-form').addEventListener('submit', sendChat);
  setupAlerts();
  setupQueue();
  $('toast').addEventListener('click', () => { $('toast').hidden = true; });
  window.addEventListener('hashchange', prefillCode);
  // Keep the open rooms fresh while the lobby is on screen.
  setInterval(() => { if (S.identified && !S.room && !document.hidden) send({ type: 'list_rooms' }); }, 15000);
  prefillCode();
  connect();
}

setup();
