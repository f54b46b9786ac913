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
  hint: null, // the last practice hint, { version, action } (issue 26)
  focusNext: null, // the data-key to focus after the next render (issue 23)
  moves: [], // the last few moves, oldest first (issue 23)
  logRound: null, // the log's round: { n, seat } of the last move
  hintAsked: null, // the version a hint was asked for, until it comes
  attempts: 0, // failed connection attempts since the last welcome
  node: null, // the cluster node this connection is on (welcome.node)
  toNode: null, // the node the next connection asks the proxy for (?node=N)
  nodesFollowed: new Set(), // `${code}@${node}`: rooms already followed to their node
  rejoinAs: null, // 'player' when S.rejoin is a waiting room followed to its node
  timer: null,
  nextId: 1,
  toastTimer: null,
  rejoin: null, // the room to watch again after a reconnect
  quick: null, // { bots, level }: "play against bots" fills the room, then starts
  stateAt: 0, // performance.now() when the last state arrived (clocks count from it)
  rematchAsked: null, // the id of our `rematch` request until it is answered
  banned: null, // { text, until } once the server said we are banned (close 4006)
  resultShown: null, // the game whose result was drawn (its heading took the focus once)
  followed: null, // the rematch room this page already followed
  payGold: null, // { card, gold: {colour: n} }: a payment being chosen
  status: null, // [key, params] of the connection status line
  rooms: null, // the last list of open rooms
  invited: null, // the room code of the link that opened the page
  joining: null, // the code of the last join as a player, until answered
  watchOffer: null, // a room whose seats were refused: watch it instead?
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

// Whether this page's seat resigned (R13.1): the stand-in plays it.
function iResigned() {
  const st = S.state;
  return !!st && st.you !== undefined && (st.resigned || []).includes(st.you);
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
  const s = S.room && S.room.seats[seat];
  const p = S.state && S.state.players[seat];
  if (p) return shownName(p.name, s && s.bot);
  return s ? shownName(s.name, s.bot) : t('seat', { n: seat + 1 });
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
  S.rejoin = S.room && S.room.you.role === 'spectator' ? S.room.code : null; S.rejoinAs = null;
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
  const node = S.toNode === null ? '' : `?node=${S.toNode}`;
  return `${scheme}//${location.host}/ws${node}`;
}

// Several nodes (docs/PROTOCOL.md): the room runs on another node than
// this connection's, so each message crosses between them. Reconnect
// through the load balancer asking for the room's node and resume there;
// once per room and node, so a proxy that cannot route (or a node that is
// down) costs one reconnection, not a loop.
function followRoom(room) {
  if (room.node === undefined || S.node === null || room.node === S.node) return;
  if (room.status === 'finished') return;
  const key = `${room.code}@${room.node}`;
  if (S.nodesFollowed.has(key) || !S.ws) return;
  S.nodesFollowed.add(key);
  S.toNode = room.node;
  const ws = S.ws;
  S.ws = null;
  S.identified = false;
  S.pending = false;
  // A running game's seat comes back with the resume; a waiting room's
  // seat and a spectator's place by joining again (PROTOCOL.md, `room`).
  const spectator = room.you.role === 'spectator';
  S.rejoin = spectator || room.status === 'waiting' ? room.code : null;
  S.rejoinAs = spectator ? 'spectator' : 'player';
  ws.close(1000);
  connect();
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
    // A connection asked for a node that would not take it (full, or
    // gone): the next one is balanced as usual.
    if (!S.identified) S.toNode = null;
    S.ws = null;
    S.identified = false;
    S.pending = false;
    // The server forgets a spectator whose connection ends; a player keeps the seat.
    S.rejoin = S.room && S.room.you.role === 'spectator' ? S.room.code : null; S.rejoinAs = null;
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
  if (code === 4007) {
    identityRevoked();
    return;
  }
  if (code === 4004) {
    setStatus('status.idle');
    offerReconnect('reconnect.again');
    return;
  }
  if (code === 4006) {
    // Banned (issue 50): no reconnecting while the ban lasts; the page
    // comes back by itself once a ban with an end has ended.
    setStatus('status.banned');
    renderBanned();
    const until = S.banned && S.banned.until;
    const wait = until ? until - Date.now() + 1000 : null;
    if (wait !== null && wait < 2 ** 31 - 1) {
      S.timer = setTimeout(() => { S.banned = null; renderBanned(); connect(); }, Math.max(wait, 1000));
    }
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

// The ban's notice at the top of the page, or nothing.
function renderBanned() {
  const box = $('banned');
  box.hidden = !S.banned;
  if (!S.banned) return;
  const { text, until } = S.banned;
  const ends = until
    ? ` ${t('banned.until', { time: new Date(until).toLocaleString(currentLang, { dateStyle: 'full', timeStyle: 'short' }) })}`
    : ` ${t('banned.forever')}`;
  box.textContent = `${text}${/[.!]$/.test(text) ? '' : '.'}${ends}`;
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
  // The tutorial's lessons send their own move only (tutorial.js).
  if (!tutorialAllows(action)) return;
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
      S.banned = null;
      renderBanned();
      S.token = msg.token;
      S.name = msg.name;
      S.playerId = msg.player_id || null;
      // Room links use the host's public address when it set one (issue 23).
      S.publicUrl = msg.public_url || null;
      S.node = msg.node === undefined ? null : msg.node;
      save(TOKEN_KEY, msg.token);
      pushLanguageChanged();
      // A resumed session gets its room and state next, if it still has a
      // room; the answer to list_rooms comes after them and renders the lobby
      // otherwise. Waiting for it avoids flashing the lobby on a reconnect.
      S.room = null;
      S.state = null;
      S.result = null;
      // A session still queued hears `queued` again.
      queueEnded();
      if (S.rejoin) send({ type: 'join', code: S.rejoin, as: S.rejoinAs || 'spectator' });
      S.rejoin = null;
      S.rejoinAs = null;
      // A new player who came by a room's link goes straight in (issue 23).
      if (!msg.resumed && S.invited) join(S.invited, 'player');
      S.invited = null;
      send({ type: 'list_rooms' });
      if (msg.resumed) return;
      break;
    case 'room':
      // A room (joined, created or matched) ends any wait in the queue.
      queueEnded();
      if (S.logRoom !== msg.code) { S.log = []; S.moves = []; S.logRound = null; S.logRoom = msg.code; chatReset(); }
      S.room = msg;
      if (msg.status === 'waiting') { S.state = null; S.result = null; }
      history.replaceState(null, '', `#${msg.code}`);
      quickPlay();
      tutorialRoom();
      followRematch();
      followRoom(msg);
      break;
    case 'state': {
      const wasMine = myTurn();
      if (!S.state || S.state.version !== msg.version || S.state.game !== msg.game) {
        S.picks = []; S.give = {}; S.selected = null; S.payGold = null;
      }
      // A hint is for one position of one game.
      if (S.state && S.state.game !== msg.game) { S.hint = null; S.hintAsked = null; }
      if (!S.commitment || S.commitment.game !== msg.game) {
        S.commitment = { game: msg.game, value: msg.commitment };
      }
      const phaseBefore = S.state && S.state.phase;
      S.state = msg;
      S.stateAt = performance.now();
      S.pending = false;
      // At the start of this player's turn the keyboard is on the board;
      // a decision that follows a move (tokens to return, a noble to
      // choose) gets the focus too.
      if ((!wasMine || phaseBefore !== msg.phase) && myTurn()) S.focusNext = 'first-move';
      turnAlerts(wasMine);
      break;
    }
    case 'events': {
      // Where what this move moves stands, before it is drawn (motion.js).
      motionBefore(msg.version, msg.events);
      // A stand-in's moves say so (R12.4).
      recordMove(msg.version, msg.events, msg.by);
      break;
    }
    case 'hint':
      // A practice hint for this position (issue 26).
      S.hint = msg;
      S.hintAsked = null;
      break;
    case 'history':
      // Every earlier move, on join, resume and sync: the log starts over.
      S.log = [];
      S.moves = [];
      S.logRound = null;
      for (const action of msg.actions) recordMove(action.version, action.events, action.by);
      break;
    case 'result':
      S.result = msg;
      turnAlerts(true);
      break;
    case 'chat':
      if (S.room && msg.room === S.room.code) chatReceived(msg);
      return;
    case 'invited':
      invited(msg);
      return;
    case 'challenge':
      // Invited by player id (issue 50: the page saw it only at its next
      // look, up to 20 s later): said at once, and My games drawn again.
      toast(t('toast.invitedYou', { name: msg.from && msg.from.name, room: msg.room }));
      loadMyGames();
      return;
    case 'reported':
    case 'blocked':
    case 'unblocked':
      moderationAnswer(msg);
      break;
    case 'chat_history':
      if (S.room && msg.room === S.room.code) chatHistory(msg);
      return;
    case 'error':
      S.pending = false;
      S.quick = null;
      if (msg.code === 'banned') {
        // Said once, kept on screen (issue 50: the page went on offering
        // to reconnect): why, and until when if the ban ends.
        S.banned = { text: errorText(msg), until: typeof msg.until === 'number' ? msg.until : null };
        renderBanned();
      } else if (msg.code === 'invalid_token') {
        S.token = null;
        save(TOKEN_KEY, null);
        toast(t('toast.expired'));
      } else {
        toast(errorText(msg));
      }
      // A seat refused because the game started or the room is full: the
      // lobby offers to watch instead (issue 23).
      S.watchOffer = ['room_full', 'game_already_started'].includes(msg.code) && S.joining ? S.joining : null;
      S.joining = null;
      break;
    case 'left':
      // A rematch moves us on: the old room's goodbye may come after the new one.
      if (S.room && msg.room !== S.room.code) return;
      leaveRoomView();
      send({ type: 'list_rooms' });
      // On to the game that waits (the header's "Your turn in ...").
      if (S.goTo) { join(S.goTo, 'player'); S.goTo = null; }
      break;
    case 'room_closed':
      toast(t('toast.roomClosed', { room: msg.room, reason: msg.reason }));
      leaveRoomView();
      send({ type: 'list_rooms' });
      break;
    case 'rooms':
      S.rooms = msg.rooms;
      renderRooms(msg.rooms);
      // The lobby is shown or refreshed: the player's games too (issue 25).
      if (!S.room) loadMyGames();
      break;
    default:
      return;
  }
  render();
}

function leaveRoomView() {
  $('other-turn').hidden = true;
  if (S.room) history.replaceState(null, '', location.pathname);
  S.room = null;
  S.state = null;
  S.result = null;
  S.log = [];
  S.moves = [];
  S.logRound = null;
  S.logRoom = null;
  S.selected = null;
  S.followed = null;
  chatReset();
  moderationReset();
  turnAlerts(true);
}

// Keeps a move for the log and the table (issue 23). The log is newest
// move first, each move's own events in their order (the new card after
// the buy that caused it), a round's first move set apart by its number;
// events are put in words when drawn, in the language of the moment. The
// recent moves are what the table outlines (recentMoves in table.js).
function recordMove(version, events, by) {
  const seat = events.map((ev) => ev.seat).find((x) => x !== undefined);
  const resign = events.some((ev) => ev.event === 'resigned');
  // A round ends when a seat that already moved in it moves again (a
  // player's own follow-ups, returning tokens or choosing a noble, are
  // the same turn); whichever seat played first. A resignation comes at
  // any moment (R13.1) and counts for none.
  if (!resign && seat !== undefined) {
    const r = S.logRound;
    if (r === null) {
      S.logRound = { n: 1, seen: [seat], last: seat };
    } else if (seat !== r.last && r.seen.includes(seat)) {
      S.logRound = { n: r.n + 1, seen: [seat], last: seat };
      S.log.unshift({ round: S.logRound.n });
    } else {
      if (!r.seen.includes(seat)) r.seen.push(seat);
      r.last = seat;
    }
  }
  S.log.unshift(...events.map((ev) => ({ ev, by })));
  S.log.length = Math.min(S.log.length, 200);
  const cards = new Set();
  const tokens = new Set();
  for (const ev of events) {
    if (ev.card && ev.card.id !== undefined) cards.add(ev.card.id);
    if (ev.event === 'took_tokens') for (const c of TOKENS) if (ev.tokens[c]) tokens.add(c);
    if (ev.event === 'reserved' && ev.gold) tokens.add('gold');
  }
  const noble = events.some((ev) => ev.event === 'noble_visited');
  S.moves.push({ version, seat, events, by, cards, tokens, noble });
  if (S.moves.length > 8) S.moves.shift();
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
  const appearing = Boolean(id) && $(id).hidden;
  for (const s of ['login', 'lobby', 'room', 'game']) $(s).hidden = s !== id;
  // The name field takes the focus when the way in appears (issue 50).
  if (id === 'login' && appearing && (!document.activeElement || document.activeElement === document.body)) $('name').focus();
}

// Shows the screen that fits: while reconnecting, the last room stays on
// screen (with no moves offered) until the server says where we are.
// Refusals the page words itself from their code, speaking of its own
// buttons (issue 23); the others in the server's words (in the language
// of our hello), starting with a capital.
const PAGE_ERRORS = ['room_not_found', 'room_full', 'game_already_started', 'stale_version',
  'not_your_turn', 'spectator_cannot_act', 'too_many_session_rooms', 'too_many_rooms_from_address',
  'seat_held', 'rate_limited', 'storage_unavailable', 'room_unavailable', 'hint_not_allowed'];

function errorText(msg) {
  if (PAGE_ERRORS.includes(msg.code)) return t(`error.${msg.code}`);
  return capitalized(msg.message || msg.code);
}

function render() {
  // What had the focus, to give it back once the screen is drawn again.
  const active = document.activeElement;
  const key = active && active.dataset ? active.dataset.key : undefined;
  renderScreen();
  restoreFocus(key);
  renderTutorial();
  motionAfter();
}

function renderScreen() {
  $('who').textContent = S.name;
  renderChat();
  renderQueue();
  if (S.room && S.state && S.room.status !== 'waiting') { renderGame(); show('game'); return; }
  if (S.room) { renderRoom(); show('room'); return; }
  if (S.identified) { renderWatchOffer(); renderTutorialOffer(); show('lobby'); return; }
  // Without a token the name form is the way in; with one, hello is on its way.
  show(S.ws && S.ws.readyState === WebSocket.OPEN && !S.token ? 'login' : null);
}

// The lobby and the waiting room: lobby.js (loaded first).

// ---- The game: table.js (loaded first) ------------------------------------

// ---- Forms and buttons --------------------------------------------------------

// A language switch draws everything again in the new words.
function languageChanged() {
  if (S.status) setStatus(...S.status);
  if (!$('reconnect').hidden) offerReconnect($('reconnect').dataset.label);
  renderBanned();
  if (S.rooms) renderRooms(S.rooms);
  renderMyGames();
  renderBotLevels();
  if (S.invited) $('invite').textContent = t('login.invite', { code: S.invited });
  turnAlerts(true);
  pushLanguageChanged();
  render();
}

function setup() {
  initLang();
  onLangChange(languageChanged);
  loadBotLevels();
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
    if (clock.startsWith('turn:')) {
      // R12.5: a deadline for each move instead of a bank.
      msg.turn_based = { per_move_s: Number(clock.slice(5)), on_deadline: $('on-deadline').value };
    } else if (clock) {
      const [initial, increment] = clock.split('+').map(Number);
      msg.clock = { initial_s: initial, increment_s: increment };
      if ($('away').checked) msg.stand_in_when_away = true;
    }
    leaveQueue();
    send(msg);
  });
  $('clock').addEventListener('change', () => {
    // R12.3 needs a clock, and does not apply to a turn-based room (R12.5).
    const turnBased = $('clock').value.startsWith('turn:');
    $('away').disabled = !$('clock').value || turnBased;
    if ($('away').disabled) $('away').checked = false;
    $('deadline-field').hidden = !turnBased;
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
  // R12.5: leaving a turn-based room keeps the seat; this gives it up.
  $('give-up-seat').addEventListener('click', () => send({ type: 'leave', give_up: true }));
  // During a game, a player who has not resigned chooses: resign
  // (R13), leave keeping the seat, or stay.
  $('game').addEventListener('keydown', boardArrows);
  $('leave-game').addEventListener('click', () => {
    const playing = S.state && S.state.you !== undefined && !S.result && !iResigned();
    if (playing) $('leave-dialog').showModal();
    else send({ type: 'leave' });
  });
  $('resign').addEventListener('click', () => {
    $('leave-dialog').close();
    send({ type: 'resign' });
  });
  $('leave-keep').addEventListener('click', () => {
    $('leave-dialog').close();
    send({ type: 'leave' });
  });
  $('leave-stay').addEventListener('click', () => $('leave-dialog').close());
  $('copy-code').addEventListener('click', () => copy($('room-code'), 'code'));
  $('copy-link').addEventListener('click', () => copy($('room-link'), 'link'));
  $('reconnect').addEventListener('click', () => { S.attempts = 0; connect(); });
  $('chat-form').addEventListener('submit', sendChat);
  $('mute-spectators').addEventListener('click', muteSpectators);
  setupAlerts();
  setupReports();
  setupPush();
  setupQueue();
  setupInvites();
  setupFriends();
  setupTutorial();
  $('toast').addEventListener('click', () => { $('toast').hidden = true; });
  window.addEventListener('hashchange', prefillCode);
  // Keep the open rooms fresh while the lobby is on screen.
  setInterval(() => { if (S.identified && !S.room && !document.hidden) send({ type: 'list_rooms' }); }, 15000);
  // At a table: whether another game waits for this player (issue 25).
  setInterval(() => { if (S.identified && S.room && S.state && !document.hidden) loadMyGames(); }, 20000);
  $('other-turn').addEventListener('click', openOtherTurn);
  setupIdentity();
  prefillCode();
  // Opened from another device's link (issue 23): the identity it carries.
  if (location.pathname === '/link') claimLinkFromAddress().then((taken) => { if (!taken) connect(); });
  else connect();
}

setup();
