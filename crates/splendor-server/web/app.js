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
  token: load(TOKEN_KEY),
  name: '',
  room: null, // the last `room` message, or null in the lobby
  state: null, // the last `state`
  result: null, // the `result`, once the game is over
  commitment: null, // { game, value } from the first state of the game
  log: [], // the events seen, in words, newest first
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
  return s ? s.name : `seat ${seat + 1}`;
}

// ---- Connection -----------------------------------------------------------

function socketUrl() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws`;
}

function connect() {
  clearTimeout(S.timer);
  $('reconnect').hidden = true;
  setStatus('Connecting…');
  const ws = new WebSocket(socketUrl());
  S.ws = ws;
  ws.onopen = () => {
    setStatus('Connected');
    // verbose: full states after every action (protocol 2 sends lean ones,
    // cards by id, unless asked); the page draws cards from their details.
    if (S.token) send({ type: 'hello', token: S.token, verbose: true });
    else render();
  };
  ws.onmessage = (e) => {
    let msg;
    try { msg = JSON.parse(e.data); } catch { return; }
    if (msg && typeof msg.type === 'string') handle(msg);
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
    setStatus('This session was opened in another tab or window.');
    offerReconnect('Use it here');
    return;
  }
  if (code === 4004) {
    setStatus('Disconnected after a long idle time.');
    offerReconnect('Reconnect');
    return;
  }
  // A restart (1012), a dropped network, a refused handshake: try again
  // after a random 1 to 5 s, doubling with each failed attempt (at most 60 s).
  const base = 1000 + Math.random() * 4000;
  const delay = Math.min(base * 2 ** Math.min(S.attempts, 6), 60000);
  S.attempts += 1;
  const why = code === 1012 ? 'The server is restarting.' : 'Connection lost.';
  setStatus(`${why} Reconnecting in ${Math.round(delay / 1000)} s…`);
  offerReconnect('Reconnect now');
  S.timer = setTimeout(connect, delay);
}

function offerReconnect(label) {
  $('reconnect').textContent = label;
  $('reconnect').hidden = false;
}

function send(msg) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    toast('Not connected yet; try again in a moment.');
    return false;
  }
  msg.id = S.nextId++;
  S.ws.send(JSON.stringify(msg));
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
  switch (msg.type) {
    case 'welcome':
      S.identified = true;
      S.attempts = 0;
      S.token = msg.token;
      S.name = msg.name;
      save(TOKEN_KEY, msg.token);
      // A resumed session gets its room and state next, if it still has a
      // room; the answer to list_rooms comes after them and renders the lobby
      // otherwise. Waiting for it avoids flashing the lobby on a reconnect.
      S.room = null;
      S.state = null;
      S.result = null;
      if (S.rejoin) send({ type: 'join', code: S.rejoin, as: 'spectator' });
      S.rejoin = null;
      send({ type: 'list_rooms' });
      if (msg.resumed) return;
      break;
    case 'room':
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
      const by = msg.by === 'stand_in' ? ' (stand-in)' : '';
      for (const ev of msg.events) logLine(eventText(ev, seatName) + by);
      break;
    }
    case 'history':
      // Every earlier move, on join, resume and sync: the log starts over.
      S.log = [];
      for (const action of msg.actions) {
        const by = action.by === 'stand_in' ? ' (stand-in)' : '';
        for (const ev of action.events) logLine(eventText(ev, seatName) + by);
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
        toast('Your earlier session has expired; please enter your name again.');
      } else {
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
      toast(`Room ${msg.room} closed: ${msg.reason}`);
      leaveRoomView();
      send({ type: 'list_rooms' });
      break;
    case 'rooms':
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

function logLine(text) {
  S.log.unshift(text);
  S.log.length = Math.min(S.log.length, 200);
}

// ---- Notices --------------------------------------------------------------

function setStatus(text) {
  $('status').textContent = text;
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
  const status = r.status === 'finished' || st.phase === 'game_over' ? 'finished' : 'turn ' + (st.turn + 1);
  $('game-code').textContent = `Room ${st.room} · ${status}${st.end_triggered && !S.result ? ' · last round' : ''}`;
  $('leave-game').textContent = S.result || st.you === undefined ? 'Leave' : 'Leave the table';
  renderNobles();
  renderLevels();
  renderSupply();
  renderTurn();
  renderPlayers();
  renderResult();
  const log = $('log');
  log.replaceChildren(...S.log.map((line) => el('li', { text: line })));
  if (!S.log.length) log.append(el('li', { cls: 'muted', text: 'Moves appear here.' }));
}

// A row of counts as labelled chips: "3 white".
function chips(counts, cls) {
  const list = TOKENS.filter((c) => counts && counts[c] > 0);
  if (!list.length) return el('span', { cls: 'muted', text: 'none' });
  return el('span', { cls: `chips ${cls || ''}` },
    list.map((c) => el('span', { cls: `chip gem-${c}`, title: c }, `${counts[c]} ${c}`)));
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
    title: `${cardText(card)}, gives a ${card.bonus} bonus`,
    onclick: playable ? () => { S.selected = { card: card.id, info: card }; S.picks = []; render(); } : undefined,
  },
  el('span', { cls: 'card-top' },
    el('span', { cls: 'points', text: card.points ? String(card.points) : '' }),
    el('span', { cls: `chip gem-${card.bonus}`, text: card.bonus })),
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
    if (net === cost[c]) return el('span', { cls: `chip gem-${c}` }, `${cost[c]} ${c}`);
    return el('span', { cls: `chip gem-${c}`, title: `${cost[c]} ${c}, ${net} after your bonuses` },
      `${cost[c]} ${c} `, el('span', { cls: 'net', text: `→${net}` }));
  }));
}

function nobleNode(noble, onclick) {
  return el(onclick ? 'button' : 'div', {
    type: onclick ? 'button' : undefined,
    cls: `noble${onclick ? ' playable' : ''}`,
    title: `noble, ${plural(noble.points, 'point')}: needs ${countsText(noble.requires)} in bonuses`,
    onclick,
  },
  el('span', { cls: 'points', text: String(noble.points) }),
  el('span', { cls: 'cost' }, COLORS.filter((c) => noble.requires[c] > 0)
    .map((c) => el('span', { cls: `chip gem-${c}` }, `${noble.requires[c]} ${c}`))));
}

// How many bonuses each player still lacks for `noble` (R9: a noble
// counts bonuses only): "ann 2 · bob ✓".
function nobleProgress(noble) {
  const parts = S.state.players.map((p) => {
    const need = COLORS.reduce((n, c) => n + Math.max(0, (noble.requires[c] || 0) - (p.bonuses[c] || 0)), 0);
    return `${p.name} ${need ? need : '✓'}`;
  });
  return el('span', { cls: 'progress', title: 'bonuses each player still lacks for this noble' }, parts.join(' · '));
}

function renderNobles() {
  const box = $('nobles');
  box.replaceChildren(el('span', { cls: 'label', text: 'Nobles' }),
    ...S.state.nobles.map((n) => el('div', { cls: 'noble-slot' }, nobleNode(n), nobleProgress(n))));
  if (!S.state.nobles.length) box.append(el('span', { cls: 'muted', text: 'none left' }));
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
      title: `level ${row.level} deck: ${plural(row.deck, 'card')} left`,
      onclick: playable ? () => { S.selected = { level: row.level }; S.picks = []; render(); } : undefined,
    }, el('span', { cls: 'deck-level', text: `Level ${row.level}` }), el('span', { text: `${row.deck} left` }));
    const cards = row.cards.map((c) => (c ? cardNode(c) : el('div', { cls: 'card empty', text: 'empty' })));
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
  box.replaceChildren(el('span', { cls: 'label', text: 'Tokens' }));
  const mainTurn = S.state.phase === 'main' && legal().length > 0;
  for (const c of TOKENS) {
    const n = S.state.supply[c] || 0;
    const can = mainTurn && !S.pending && takeable(c);
    const picked = S.picks.filter((x) => x === c).length;
    box.append(el(can ? 'button' : 'div', {
      type: can ? 'button' : undefined,
      cls: `token gem-${c}${can ? ' playable' : ''}${picked ? ' chosen' : ''}`,
      title: `${n} ${c} in the supply`,
      onclick: can ? () => pickColor(c) : undefined,
    }, el('span', { cls: 'token-n', text: String(n) }), el('span', { text: c }),
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
  const who = mine ? 'Your turn' : `${seatName(st.to_act)}'s turn`;
  const phase = { return_tokens: ': returning tokens', choose_noble: ': choosing a noble' }[st.phase] || '';
  box.append(el('h2', { cls: mine ? 'mine' : '', text: who + phase }));
  // Your own clock where you play (on a phone the player panels are below).
  const clock = mine && st.clocks ? st.clocks[st.you] : null;
  if (clock) {
    box.append(el('p', { cls: 'turn-clock' }, 'Time left: ',
      el('span', { cls: 'clock running', 'data-clock': st.you, role: 'timer', text: clockText(clockNow(clock)) }),
      clock.stand_in ? ' — act within it to take your seat back from the stand-in.' : ''));
  }
  if (st.you === undefined) box.append(el('p', { cls: 'muted', text: 'You are watching.' }));
  if (!S.identified) box.append(el('p', { cls: 'muted', text: 'Not connected: moves wait until the connection is back.' }));
  if (!mine || !legal().length) return;
  if (S.pending) { box.append(el('p', { cls: 'muted', text: 'Sending…' })); return; }
  if (st.phase === 'return_tokens') renderReturn(box);
  else if (st.phase === 'choose_noble') renderNobleChoice(box);
  else renderMain(box);
}

function renderMain(box) {
  if (findLegal('pass')) {
    box.append(el('p', { text: 'No move is possible: you must pass.' }),
      el('button', { type: 'button', text: 'Pass', onclick: () => act('pass') }));
    return;
  }
  if (S.selected) {
    const sel = S.selected;
    const entries = sel.card !== undefined
      ? legal().filter((a) => a.buy === sel.card || a.reserve === sel.card || (a.buy && a.buy.card === sel.card))
      : legal().filter((a) => a.reserve_deck === sel.level);
    box.append(el('p', { text: sel.card !== undefined
      ? `${cardText(sel.info)[0].toUpperCase()}${cardText(sel.info).slice(1)}, costing ${countsText(sel.info.cost)}.`
      : `The level ${sel.level} deck.` }));
    const row = el('div', { cls: 'buttons' });
    const buy = entries.find((a) => a.buy !== undefined);
    const pay = buy && sel.card !== undefined ? payment(sel.info) : null;
    if (pay && pay.rows.some((r) => r.max > r.min)) box.append(paymentChooser(sel.info, pay));
    for (const a of entries) {
      const label = a.buy !== undefined ? 'Buy it' : a.reserve !== undefined ? 'Reserve it' : 'Reserve the top card';
      const choose = a === buy && pay ? () => act(buyAction(sel.info, pay, a)) : () => act(a);
      row.append(el('button', { type: 'button', text: label, onclick: choose }));
    }
    row.append(el('button', { type: 'button', cls: 'quiet', text: 'Cancel', onclick: () => { S.selected = null; render(); } }));
    box.append(row);
    return;
  }
  if (!S.picks.length) {
    box.append(el('p', { cls: 'muted', text: 'Pick tokens from the supply (the same colour twice for two), or click a framed card or deck: green frames can be bought.' }));
    return;
  }
  const action = pickedAction();
  const entry = findLegal(action);
  const counts = {};
  for (const c of S.picks) counts[c] = (counts[c] || 0) + 1;
  box.append(el('p', { text: `Take ${countsText(counts)}?` }));
  box.append(el('div', { cls: 'buttons' },
    el('button', { type: 'button', text: 'Take', disabled: !entry, onclick: () => entry && act(entry) }),
    el('button', { type: 'button', cls: 'quiet', text: 'Clear', onclick: () => { S.picks = []; render(); } })));
  if (!entry) box.append(el('p', { cls: 'muted', text: 'Not a legal take yet: pick up to three different colours, or one colour twice.' }));
}

// What buying `card` asks of this seat, per colour due after bonuses: the
// least gold (where its tokens fall short) and the most (R7.3: gold stands
// in for any colour). Bookkeeping on what the state shows; the server
// checks the payment it receives.
function payment(card) {
  const me = S.state.players[S.state.you];
  const gold = me.tokens.gold || 0;
  const rows = [];
  for (const c of COLORS) {
    const due = Math.max(0, (card.cost[c] || 0) - (me.bonuses[c] || 0));
    if (due) rows.push({ c, due, min: Math.max(0, due - (me.tokens[c] || 0)), max: Math.min(due, gold) });
  }
  if (!S.payGold || S.payGold.card !== card.id) {
    S.payGold = { card: card.id, gold: Object.fromEntries(rows.map((r) => [r.c, r.min])) };
  }
  return { gold, rows, chosen: S.payGold.gold };
}

function goldUsed(pay) {
  return pay.rows.reduce((n, r) => n + (pay.chosen[r.c] || 0), 0);
}

// The buy to send: the server's own entry for the usual payment (the
// least gold), else the card with the gold chosen per colour.
function buyAction(card, pay, entry) {
  if (pay.rows.every((r) => (pay.chosen[r.c] || 0) === r.min)) return entry;
  const gold = {};
  for (const r of pay.rows) if (pay.chosen[r.c]) gold[r.c] = pay.chosen[r.c];
  return { buy: { card: card.id, gold } };
}

function paymentChooser(card, pay) {
  const used = goldUsed(pay);
  const box = el('fieldset', { cls: 'payment' }, el('legend', { text: 'How to pay: gold for' }));
  for (const r of pay.rows) {
    if (r.max === r.min) continue;
    const k = pay.chosen[r.c] || 0;
    const change = (d) => () => { S.payGold.gold[r.c] = k + d; render(); };
    box.append(el('div', { cls: 'pay-row' },
      el('span', { cls: `chip gem-${r.c}`, text: `${r.due} ${r.c}` }),
      el('button', { type: 'button', cls: 'quiet small', text: '−', 'aria-label': `less gold for ${r.c}`, disabled: k <= r.min, onclick: change(-1) }),
      el('span', { cls: 'pay-gold', 'data-color': r.c, text: `${k} gold` }),
      el('button', { type: 'button', cls: 'quiet small', text: '+', 'aria-label': `more gold for ${r.c}`, disabled: k >= r.max || used >= pay.gold, onclick: change(1) })));
  }
  const paid = {};
  for (const r of pay.rows) {
    const g = pay.chosen[r.c] || 0;
    if (r.due - g) paid[r.c] = r.due - g;
  }
  if (used) paid.gold = used;
  box.append(el('p', { cls: 'muted', 'aria-live': 'polite', text: `You pay ${countsText(paid)}.` }));
  return box;
}

function renderReturn(box) {
  const st = S.state;
  const need = st.return_count;
  const held = st.players[st.you].tokens;
  const given = total(S.give);
  box.append(el('p', { text: `You hold more than 10 tokens: return ${plural(need, 'token')} (${given} chosen).` }));
  const row = el('div', { cls: 'chips' });
  for (const c of TOKENS) {
    if (!held[c]) continue;
    const next = { ...S.give, [c]: (S.give[c] || 0) + 1 };
    const can = legal().some((a) => a.return && TOKENS.every((x) => (next[x] || 0) <= (a.return[x] || 0)));
    row.append(el('button', {
      type: 'button', cls: `token small gem-${c}`, disabled: !can,
      title: `return one ${c}`,
      onclick: () => { S.give = next; render(); },
    }, `${held[c] - (S.give[c] || 0)} ${c}`, S.give[c] ? el('span', { cls: 'badge', text: `−${S.give[c]}` }) : null));
  }
  box.append(row);
  const entry = findLegal({ return: S.give });
  box.append(el('div', { cls: 'buttons' },
    el('button', { type: 'button', text: given ? `Return ${countsText(S.give)}` : 'Return', disabled: !entry, onclick: () => entry && act(entry) }),
    el('button', { type: 'button', cls: 'quiet', text: 'Clear', onclick: () => { S.give = {}; render(); } })));
}

function renderNobleChoice(box) {
  box.append(el('p', { text: 'Several nobles would visit you: choose one.' }));
  const row = el('div', { cls: 'nobles' });
  for (const a of legal().filter((x) => x.noble !== undefined)) {
    const noble = S.state.noble_choices.find((n) => n.id === a.noble)
      || S.state.nobles.find((n) => n.id === a.noble);
    if (noble) row.append(nobleNode(noble, () => act(a)));
    else row.append(el('button', { type: 'button', text: `Noble ${a.noble}`, onclick: () => act(a) }));
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
      p.seat === st.you ? el('span', { cls: 'tag', text: 'you' }) : null,
      st.to_act === p.seat && !S.result ? el('span', { cls: 'tag turn-tag', text: 'to play' }) : null,
      st.first_seat === p.seat ? el('span', { cls: 'tag', text: 'first' }) : null,
      connected ? null : el('span', { cls: 'tag away', text: 'away' }),
      seat && seat.bot ? el('span', { cls: 'tag bot', text: `bot: ${seat.bot}` }) : null,
      clock && clock.stand_in ? el('span', { cls: 'tag away', text: 'played by stand-in', title: 'Out of time, or away: a stand-in plays this seat until its player acts within the grace' }) : null,
      clock && !clock.bot ? el('span', {
        cls: `clock${clock.running ? ' running' : ''}`, 'data-clock': p.seat, role: 'timer',
        text: clockText(clockNow(clock)),
      }) : null,
      el('span', { cls: 'score', text: plural(p.points, 'point') }),
      seat ? muteButton(S.room, seat) : null);
    const reserved = p.reserved.map((r) => (r.card
      ? cardNode(r.card, { small: true })
      : el('div', { cls: `card small hidden level-${r.level}`, text: `level ${r.level}, hidden` })));
    box.append(el('div', { cls: `panel player${st.to_act === p.seat ? ' acting' : ''}` }, head,
      el('div', { cls: 'row' }, el('span', { cls: 'label', text: `Tokens (${total(p.tokens)})` }), chips(p.tokens)),
      el('div', { cls: 'row' }, el('span', { cls: 'label', text: `Bonuses (${plural(p.cards.length, 'card')})` }), chips(p.bonuses)),
      p.nobles.length ? el('div', { cls: 'row' }, el('span', { cls: 'label', text: 'Nobles' }),
        el('span', { text: p.nobles.map((n) => `${n.points} pts`).join(', ') })) : null,
      reserved.length ? el('div', { cls: 'row' }, el('span', { cls: 'label', text: 'Reserved' }),
        el('div', { cls: 'reserved' }, reserved)) : null));
  }
}

function renderResult() {
  const box = $('result');
  const res = S.result;
  box.hidden = !res;
  if (!res) return;
  const won = res.winners.map(seatName);
  const table = el('table', {}, el('tr', {}, ['Rank', 'Player', 'Points', 'Cards'].map((h) => el('th', { scope: 'col', text: h }))),
    res.ranking.map((r) => el('tr', { cls: res.winners.includes(r.seat) ? 'winner' : '' },
      [r.rank, r.name, r.points, r.cards].map((v) => el('td', { text: String(v) })))));
  const reveal = res.reveal;
  const check = el('p', { cls: 'muted', text: 'Checking the seed…' });
  box.replaceChildren(el('div', {},
    el('h2', { text: won.length > 1 ? `Shared victory: ${won.join(', ')}` : `${won[0]} wins` }),
    rematchNode(),
    res.deadlock ? el('p', { text: 'The game ended because nobody could move for a full round.' }) : null,
    table,
    el('h3', { text: 'Fair shuffle' }),
    el('p', { cls: 'muted', text: 'Every card was dealt from a secret seed. Its fingerprint (the commitment) came with every state; now the seed is revealed.' }),
    el('dl', { cls: 'reveal' },
      el('dt', { text: 'commitment' }), el('dd', { text: reveal.commitment }),
      el('dt', { text: 'seed' }), el('dd', { text: reveal.seed }),
      el('dt', { text: 'salt' }), el('dd', { text: reveal.salt })),
    check,
    el('p', { cls: 'links' },
      el('a', { href: `/games/${encodeURIComponent(res.game)}`, target: '_blank', rel: 'noopener', id: 'replay-link', text: 'Watch the replay' }),
      ' · ', el('a', { href: '/games', target: '_blank', rel: 'noopener', text: 'Past games' }),
      ' · ', el('a', { href: `/api/games/${encodeURIComponent(res.game)}/replay`, target: '_blank', rel: 'noopener', text: 'replay (JSON)' }))));
  verifyReveal(res, check);
}

// Checks SHA-256(salt || seed) against the commitment this page saw during
// the game (PROTOCOL.md, `result`). WebCrypto exists on https and localhost only.
async function verifyReveal(res, node) {
  const seen = S.commitment && S.commitment.game === res.game ? S.commitment.value : null;
  if (seen && seen !== res.reveal.commitment) {
    node.textContent = 'Warning: this is not the commitment shown during the game.';
    return;
  }
  if (!(window.crypto && crypto.subtle)) {
    node.textContent = 'This browser cannot check the seed here (it needs https); the replay can be checked with splendor-server verify.';
    return;
  }
  try {
    const hex = await commitmentOf(res.reveal.salt, res.reveal.seed);
    if (hex !== res.reveal.commitment) {
      node.textContent = 'Warning: SHA-256(salt ‖ seed) does not equal the commitment: this shuffle cannot be trusted.';
    } else if (seen) {
      node.textContent = 'Checked in this browser: the shuffle was fixed before the first move. SHA-256(salt ‖ seed) equals the commitment this page received when the game started.';
    } else {
      node.textContent = 'Checked in this browser: SHA-256(salt ‖ seed) equals the commitment (this page joined after the start, so it did not see the commitment then).';
    }
  } catch {
    node.textContent = 'The seed could not be checked here.';
  }
}

// ---- Forms and buttons --------------------------------------------------------

function setup() {
  $('login-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const name = $('name').value.trim();
    if (name) send({ type: 'hello', name, verbose: true });
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
    send({ type: 'create', seats: bots + 1 });
  });
  $('add-bot').addEventListener('click', () => send({ type: 'add_bot', level: $('add-level').value }));
  // Running clocks count down between states.
  setInterval(renderClocks, 250);
  $('refresh').addEventListener('click', () => send({ type: 'list_rooms' }));
  $('start').addEventListener('click', () => send({ type: 'start', seat_order: $('seat-order').value }));
  $('leave-room').addEventListener('click', () => send({ type: 'leave' }));
  $('leave-game').addEventListener('click', () => {
    const playing = S.state && S.state.you !== undefined && !S.result;
    if (!playing || window.confirm('Leave the table? Your seat stays yours: join the same code to come back.')) {
      send({ type: 'leave' });
    }
  });
  $('copy-code').addEventListener('click', () => copy($('room-code'), 'Code'));
  $('copy-link').addEventListener('click', () => copy($('room-link'), 'Link'));
  $('reconnect').addEventListener('click', () => { S.attempts = 0; connect(); });
  $('chat-form').addEventListener('submit', sendChat);
  setupAlerts();
  $('toast').addEventListener('click', () => { $('toast').hidden = true; });
  window.addEventListener('hashchange', prefillCode);
  // Keep the open rooms fresh while the lobby is on screen.
  setInterval(() => { if (S.identified && !S.room && !document.hidden) send({ type: 'list_rooms' }); }, 15000);
  prefillCode();
  connect();
}

setup();
