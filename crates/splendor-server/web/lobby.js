// The lobby and the waiting room of the browser client (docs/BROWSER.md):
// open rooms, joining, the waiting room with its seats, bots and clock, and
// "play against bots". Loaded before app.js, which holds the state `S`, the
// connection and the helpers these functions use when they are called.
'use strict';

// ---- The lobby --------------------------------------------------------------

// The bots' levels (issue 51), from GET /api/bots/levels: each named by its
// number and measured Elo, the named ones (random, greedy, strong) with
// their word too. Until the list is in, the pickers offer greedy alone.
async function loadBotLevels() {
  try {
    const response = await fetch('/api/bots/levels');
    if (!response.ok) return;
    S.levels = await response.json();
  } catch { return; }
  renderBotLevels();
}

function renderBotLevels() {
  if (!S.levels) return;
  for (const id of ['bot-level', 'add-level']) {
    const select = $(id);
    const chosen = select.value;
    select.replaceChildren(...S.levels.levels.map((l) => {
      const known = hasMessage(`botLevel.${l.name}`) ? t(`botLevel.${l.name}`) : null;
      const text = t(known ? 'botLevel.named' : 'botLevel.numbered', { n: l.level, elo: String(l.elo), word: known || '' });
      const option = el('option', { text });
      option.value = l.name;
      return option;
    }));
    const def = S.levels.levels.find((l) => l.level === S.levels.default);
    select.value = S.levels.levels.some((l) => l.name === chosen) ? chosen : (def ? def.name : chosen);
  }
}

function renderRooms(rooms) {
  const list = $('rooms');
  list.replaceChildren();
  if (!rooms.length) list.append(el('li', { cls: 'muted', text: t('lobby.noRooms') }));
  for (const r of rooms) {
    list.append(el('li', {},
      el('span', { cls: 'code small-code', text: r.code }),
      el('span', { cls: 'grow', text: t('lobby.roomLine', { host: r.host, players: r.players, seats: r.seats }) },
        r.programs ? el('span', { cls: 'tag bot', text: t('lobby.programs', { n: r.programs }), title: t('tag.programTitle') }) : null),
      el('button', { type: 'button', text: t('lobby.joinButton'), onclick: () => join(r.code, 'player') }),
      el('button', { type: 'button', cls: 'quiet', text: t('lobby.watchButton'), onclick: () => join(r.code, 'spectator') })));
  }
}

// ---- My games (issue 25) -----------------------------------------------------

// Every game this session sits in, from GET /api/me/games: those waiting for
// the player first, each a click away. Read with the session's token.
async function loadMyGames() {
  if (!S.token) return;
  try {
    const response = await fetch('/api/me/games', {
      headers: { Accept: 'application/json', Authorization: `Bearer ${S.token}` },
    });
    if (!response.ok) return;
    S.myGames = await response.json();
    renderMyGames();
    // Friends come and go with the games: read with them (issue 50).
    loadFriends();
  } catch (_) {
    // Offline for a moment: the list stays as it was.
  }
}

// Roughly how long: "5 min", "3 h", "2 days".
function roughText(ms) {
  const min = Math.max(1, Math.round(ms / 60000));
  if (min < 60) return t('duration.min', { n: min });
  const h = Math.round(min / 60);
  if (h < 48) return t('duration.hours', { n: h });
  return t('duration.days', { n: Math.round(h / 24) });
}

// Away from the lobby (at a table, in a waiting room): a button in the
// header when another game waits for this player (issue 25), with the room
// of the one waiting longest; a screen reader is told once per game.
function renderOtherTurn() {
  const data = S.myGames;
  const here = S.room && S.room.code;
  const waiting = data ? data.games.filter((g) => g.your_turn && g.room !== here) : [];
  const button = $('other-turn');
  // Only from a game (leaving a waiting room would give its seat up).
  button.hidden = !S.room || !S.state || !waiting.length;
  if (button.hidden) return;
  const first = waiting[0];
  button.textContent = waiting.length === 1
    ? t('my.otherTurn', { code: first.room })
    : t('my.otherTurns', { code: first.room, n: waiting.length - 1 });
  button.dataset.room = first.room;
  S.toldOtherTurns = S.toldOtherTurns || new Set();
  const fresh = waiting.filter((g) => !S.toldOtherTurns.has(`${g.room}:${g.version}`));
  for (const g of fresh) S.toldOtherTurns.add(`${g.room}:${g.version}`);
  if (fresh.length) $('announce').textContent = button.textContent;
}

// Leaves the table (keeping the seat) for the game that waits.
function openOtherTurn() {
  const code = $('other-turn').dataset.room;
  if (!code || !CODE_RE.test(code)) return;
  S.goTo = code;
  send({ type: 'leave' });
}

function renderMyGames() {
  renderOtherTurn();
  renderMyId();
  const data = S.myGames;
  const games = data ? data.games.filter((g) => !S.room || g.room !== S.room.code) : [];
  const invitations = data && data.invitations ? data.invitations : [];
  $('my-games').hidden = !games.length && !invitations.length;
  renderInvitations(invitations);
  const list = $('my-games-list');
  list.replaceChildren();
  for (const g of games) {
    const others = g.players.filter((_, i) => i !== g.seat).map((p) => p.name).join(', ');
    const parts = [];
    if (g.status === 'waiting') parts.push(t('my.waiting'));
    else if (g.your_turn) parts.push(t('my.yourTurn'));
    else parts.push(t('my.theirTurn', { name: g.players[g.to_act].name }));
    if (g.status !== 'waiting' && others) parts.push(t('my.against', { names: others }));
    if (g.deadline) parts.push(t('my.left', { time: clockText(g.deadline - data.now) }));
    if (g.last_move) parts.push(t('my.lastMove', { time: roughText(data.now - g.last_move.at) }));
    list.append(el('li', { cls: g.your_turn ? 'my-turn' : '' },
      el('span', { cls: 'code small-code', text: g.room }),
      el('span', { cls: 'grow', text: parts.join(' · ') }),
      el('button', { type: 'button', text: t('my.open'), onclick: () => join(g.room, 'player') })));
  }
}

// ---- Invitations (issue 25) ---------------------------------------------------

// The session's own player id, for friends to invite it by.
function renderMyId() {
  $('friend-id').hidden = !S.playerId;
  $('friend-id-value').textContent = S.playerId || '';
}

// Invitations to rooms that wait for players, newest first: join to accept.
function renderInvitations(invitations) {
  const list = $('my-invitations');
  list.replaceChildren();
  for (const inv of invitations) {
    if (!CODE_RE.test(inv.room)) continue;
    list.append(el('li', { cls: 'invitation' },
      el('span', { cls: 'code small-code', text: inv.room }),
      el('span', { cls: 'grow', text: t('my.invitation', { name: inv.from.name, players: inv.players, seats: inv.seats }) }),
      el('button', { type: 'button', text: t('my.accept'), onclick: () => join(inv.room, 'player') }),
      followButton(inv.from.player_id, inv.from.name),
      el('button', { type: 'button', cls: 'quiet', text: t('my.decline'), onclick: () => declineInvitation(inv.id) })));
  }
}

async function declineInvitation(id) {
  if (!S.token || !/^[0-9a-f]{32}$/.test(id)) return;
  try {
    const response = await fetch(`/api/me/invitations/${id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${S.token}` },
    });
    if (response.ok) toast(t('my.declined'));
  } catch (_) {
    // Offline for a moment: the list is read again below.
  }
  loadMyGames();
}

// The waiting room's "Invite a player": the id as My games shows it.
function sendInvite(e) {
  e.preventDefault();
  const id = $('invite-id').value.trim().toLowerCase();
  if (!/^[0-9a-f]{10}$/.test(id)) { toast(t('room.badPlayerId')); return; }
  send({ type: 'invite', player_id: id });
}

function invited(msg) {
  $('invite-id').value = '';
  toast(t(msg.new ? 'room.invited' : 'room.invitedAgain', { name: msg.name }));
}

function setupInvites() {
  $('invite-form').addEventListener('submit', sendInvite);
  $('copy-friend-id').addEventListener('click', () => copy($('friend-id-value'), 'id'));
}

function join(code, as) {
  const clean = code.trim();
  if (!CODE_RE.test(clean)) { toast(t('toast.badCode')); return; }
  leaveQueue();
  S.joining = as === 'player' ? clean : null;
  S.watchOffer = null;
  send({ type: 'join', code: clean, as });
}

// "Watch instead", where a seat was refused (issue 23).
function renderWatchOffer() {
  const box = $('watch-offer');
  const code = S.watchOffer;
  box.hidden = !code || Boolean(S.room);
  if (box.hidden) return;
  box.replaceChildren(el('span', { text: t('lobby.watchOffer', { code }) }),
    el('button', { id: 'watch-instead', type: 'button', text: t('lobby.watchInstead'), onclick: () => join(code, 'spectator') }));
}

function prefillCode() {
  const code = location.hash.slice(1).toUpperCase();
  if (!CODE_RE.test(code) || S.room) return;
  $('code').value = code;
  S.invited = code;
  $('invite').textContent = t('login.invite', { code });
}

// ---- The waiting room ---------------------------------------------------------

// "Play against bots": once our room exists, seat the bots one by one (each
// answer is a new `room`), then start.
function quickPlay() {
  const q = S.quick;
  const r = S.room;
  if (!q || !r || r.status !== 'waiting' || r.you.seat === undefined) return;
  const bots = r.seats.filter((s) => s && s.bot).length;
  if (bots < q.bots && r.seats.some((s) => !s)) {
    send({ type: 'add_bot', level: q.level });
  } else {
    S.quick = null;
    send({ type: 'start', seat_order: 'random' });
  }
}

// Milliseconds as m:ss (h:mm:ss past an hour, "2d 5h" past a day).
function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s >= 86400) return t('clock.daysHours', { d: Math.floor(s / 86400), h: Math.floor((s % 86400) / 3600) });
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

// Whole seconds in words: "5 min", "10 s", "1 day".
function durationText(secs) {
  if (secs >= 86400 && secs % 86400 === 0) return t('duration.days', { n: secs / 86400 });
  if (secs >= 3600 && secs % 3600 === 0) return t('duration.hours', { n: secs / 3600 });
  if (secs >= 60 && secs % 60 === 0) return t('duration.min', { n: secs / 60 });
  return t('duration.s', { n: secs });
}

// A seat's clock as of now: a running one counts down from what the state
// said when it arrived (no need for the server's time).
function clockNow(c) {
  return c.running ? c.remaining_ms - (performance.now() - S.stateAt) : c.remaining_ms;
}

function renderClocks() {
  const st = S.state;
  if (!st || !st.clocks || S.result) return;
  for (const node of document.querySelectorAll('[data-clock]')) {
    const c = st.clocks[Number(node.dataset.clock)];
    if (c) node.textContent = clockText(clockNow(c));
  }
}

function renderRoom() {
  const r = S.room;
  $('room-code').textContent = r.code;
  $('room-link').value = `${S.publicUrl || location.origin}/#${r.code}`;
  $('room-listed').textContent = r.rated ? t('room.rated') : t(r.listed ? 'room.listed' : 'room.unlisted');
  const seats = $('seat-list');
  seats.replaceChildren();
  for (const s of r.seats) {
    if (!s) { seats.append(el('li', { cls: 'muted', text: t('room.freeSeat') })); continue; }
    seats.append(el('li', {}, shownName(s.name, s.bot),
      s.host ? el('span', { cls: 'tag', text: t('tag.host') }) : null,
      botTag(s),
      r.you.seat === s.seat ? el('span', { cls: 'tag', text: t('tag.you') }) : null,
      s.connected ? null : el('span', { cls: 'tag away', text: t('tag.away') }),
      s.bot && isHost(r) && r.status === 'waiting'
        ? el('button', { type: 'button', cls: 'quiet small', text: t('room.remove'), onclick: () => send({ type: 'remove_bot', seat: s.seat }) })
        : null,
      s.muted ? el('span', { cls: 'tag away', text: t('tag.muted') }) : null,
      muteButton(r, s), ...personButtons(r, s)));
  }
  $('spectator-list').textContent = r.spectators.length
    ? t('room.watching', { names: r.spectators.join(', ') }) : '';
  const host = isHost(r);
  const seated = r.seats.filter(Boolean).length;
  $('start-box').hidden = !host;
  $('bot-box').hidden = !host || seated >= r.seats.length;
  $('room-clock').textContent = r.turn_based
    ? t(r.turn_based.on_deadline === 'resign' ? 'room.turnBasedResign' : 'room.turnBased',
      { time: durationText(r.turn_based.per_move_s) })
    : r.clock
      ? t(r.clock.stand_in_when_away ? 'room.clockAway' : 'room.clock',
        { initial: durationText(r.clock.initial_s), increment: durationText(r.clock.increment_s) })
      : t('room.noClock');
  $('start').disabled = seated < 2;
  // R12.5: before the start a turn-based room keeps the seat of a player
  // who leaves (My games lists it); the seat can be given up instead.
  const seatedHere = r.you && r.you.role === 'player';
  $('give-up-seat').hidden = !(r.turn_based && r.status === 'waiting' && seatedHere);
  // Any seated player may invite while a seat is free (issue 25).
  $('invite-form').hidden = !(r.status === 'waiting' && seatedHere && r.seats.some((s) => !s));
  renderInviteFriends();
  const leaveKey = r.turn_based && seatedHere ? 'room.leaveKeep' : 'room.leave';
  $('leave-room').dataset.i18n = leaveKey; // kept when the language changes
  $('leave-room').textContent = t(leaveKey);
  $('wait-note').textContent = t(host
    ? (seated < 2 ? 'room.needTwo' : 'room.ready')
    : (r.status === 'waiting' ? 'room.waitHost' : 'room.loading'));
}

// Whether this connection hosts the room (seated, or watching as host).
function isHost(r) {
  const me = r.you.seat !== undefined ? r.seats[r.you.seat] : null;
  if (me) return Boolean(me.host);
  return false;
}

// Copies the text of `node`; `what` is 'code', 'link' or 'id'. The
// clipboard API exists on https and localhost only; elsewhere (a LAN
// address) the old selection copy works.
async function copy(node, what) {
  const text = node.value || node.textContent;
  const done = { code: 'copy.code', link: 'copy.link', id: 'copy.id' }[what];
  try {
    await navigator.clipboard.writeText(text);
    toast(t(done));
    return;
  } catch { /* fall back to selecting it */ }
  if (node.select) node.select();
  else window.getSelection().selectAllChildren(node);
  const copied = document.execCommand && document.execCommand('copy');
  if (copied) toast(t(done));
  else toast(t(what === 'link' ? 'copy.linkByHand' : 'copy.codeByHand'));
}
