// The table around the game in the browser client (docs/BROWSER.md): chat,
// the rematch, and the alerts that say it is your turn. Loaded before
// app.js, which holds the state `S`, the connection and the helpers these
// functions use when they are called.
'use strict';

const ALERTS_KEY = 'splendor.alerts';

// ---- Chat -------------------------------------------------------------------------

// Chat lines of the current room, oldest first (never stored anywhere).
const chatLines = [];

function chatReceived(msg) {
  chatLines.push(msg);
  if (chatLines.length > 100) chatLines.shift();
  renderChat();
}

// The room's last lines, given on join and return (issue 23): a reload
// keeps the conversation. They replace what this page holds.
function chatHistory(msg) {
  chatLines.length = 0;
  chatLines.push(...msg.lines.slice(-100));
  renderChat();
}

function chatReset() {
  chatLines.length = 0;
  renderChat();
}

// The chat panel sits in the waiting room, or beside the table in a game.
function renderChat() {
  const box = $('chat');
  const inRoom = Boolean(S.room);
  box.hidden = !inRoom;
  if (!inRoom) return;
  const home = S.state && S.room.status !== 'waiting' ? document.querySelector('#game .side') : $('room');
  if (home && box.parentElement !== home) home.append(box);
  const list = $('chat-log');
  list.replaceChildren(...chatLines.map((m) => el('li', {},
    el('strong', { text: m.from }), m.seat === undefined ? el('span', { cls: 'tag', text: t('tag.watching') }) : null,
    ': ', m.text, ' ', lineReportButton(m))));
  if (!chatLines.length) list.append(el('li', { cls: 'muted', text: t('chat.empty') }));
  list.scrollTop = list.scrollHeight;
  const me = S.room.you.seat !== undefined ? S.room.seats[S.room.you.seat] : null;
  const watching = S.room.you.seat === undefined;
  const muted = Boolean(me && me.muted) || (watching && S.room.spectators_muted);
  $('chat-text').disabled = muted || !S.identified;
  $('chat-text').placeholder = t(muted ? 'chat.muted' : 'chat.placeholder');
  // The host's switch for every spectator's chat, while anyone watches.
  const all = $('mute-spectators');
  all.hidden = !isHost(S.room) || (!S.room.spectators.length && !S.room.spectators_muted);
  all.textContent = t(S.room.spectators_muted ? 'chat.unmuteSpectators' : 'chat.muteSpectators');
  all.setAttribute('aria-pressed', S.room.spectators_muted ? 'true' : 'false');
}

function muteSpectators() {
  send({ type: 'mute', spectators: true, muted: !S.room.spectators_muted });
}

function sendChat(e) {
  e.preventDefault();
  const text = $('chat-text').value.trim();
  if (!text) return;
  if (send({ type: 'chat', text })) $('chat-text').value = '';
}

// The host's mute switch beside a seated person's name.
function muteButton(r, s) {
  if (!isHost(r) || s.bot || s.seat === r.you.seat) return null;
  return el('button', {
    type: 'button', cls: 'quiet small',
    text: t(s.muted ? 'chat.unmute' : 'chat.mute'),
    'aria-pressed': s.muted ? 'true' : 'false',
    onclick: () => send({ type: 'mute', seat: s.seat, muted: !s.muted }),
  });
}

// ---- Reports and blocks (issue 22) ---------------------------------------------------

// Seats blocked from this room (the server keeps the real list, by player,
// on every node), and the seat each block or unblock request named, by
// its request id.
const blockedSeats = new Set();
const blockRequests = new Map();
// What the open report dialog names: { seat } or { line }, and a name.
let reportTarget = null;

// "Report" and "Block" beside another person's seat (a program's too; not a
// built-in bot's, not mine).
function personButtons(r, s) {
  if (!S.identified || s.bot || s.seat === r.you.seat) return [];
  const blocked = blockedSeats.has(s.seat);
  return [
    // A rated room's seats carry their player ids (issue 50).
    followButton(s.player_id, s.name),
    el('button', {
      type: 'button', cls: 'quiet small', text: t('report.button'),
      'aria-label': t('report.label', { name: s.name }),
      onclick: () => openReport({ seat: s.seat }, s.name, null),
    }),
    el('button', {
      type: 'button', cls: 'quiet small', text: t(blocked ? 'block.undo' : 'block.button'),
      'aria-label': t(blocked ? 'block.undoLabel' : 'block.label', { name: s.name }),
      onclick: () => {
        if (send({ type: blocked ? 'unblock' : 'block', seat: s.seat })) blockRequests.set(S.nextId - 1, s.seat);
      },
    }),
  ];
}

// A chat line's own report button, for lines of others.
function lineReportButton(m) {
  const r = S.room;
  // The sender's own copy has its request id; a kept line, the name.
  const mine = m.id !== undefined || m.from === S.name;
  if (!S.identified || !r || mine || !m.line) return null;
  return el('button', {
    type: 'button', cls: 'quiet small flag', text: '⚑',
    'aria-label': t('report.lineLabel', { name: m.from }), title: t('report.lineLabel', { name: m.from }),
    onclick: () => openReport({ line: m.line }, m.from, m.text),
  });
}

function openReport(target, name, line) {
  reportTarget = target;
  $('report-title').textContent = t('report.title', { name });
  $('report-line').hidden = !line;
  $('report-line').textContent = line ? `“${line}”` : '';
  $('report-reason').value = '';
  $('report-dialog').showModal();
  $('report-reason').focus();
}

function setupReports() {
  $('report-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const reason = $('report-reason').value.trim();
    if (!reason || !reportTarget) return;
    if (send({ type: 'report', ...reportTarget, reason })) $('report-dialog').close();
  });
  $('report-cancel').addEventListener('click', () => $('report-dialog').close());
}

// The server's answers to report, block and unblock.
function moderationAnswer(msg) {
  if (msg.type === 'reported') {
    toast(t(msg.new ? 'report.sent' : 'report.already', { name: msg.name }));
    return;
  }
  const seat = blockRequests.get(msg.id);
  blockRequests.delete(msg.id);
  if (msg.type === 'blocked') {
    if (seat !== undefined) blockedSeats.add(seat);
    toast(t('block.done', { name: msg.name }));
  } else {
    if (seat !== undefined) blockedSeats.delete(seat);
    toast(t('block.undone'));
  }
}

function moderationReset() {
  blockedSeats.clear();
  blockRequests.clear();
  reportTarget = null;
}

// ---- Rematch ------------------------------------------------------------------------

// The rematch part of the result panel.
function rematchNode() {
  const r = S.room;
  if (!r || r.status !== 'finished') return null;
  const seated = r.you.seat !== undefined;
  const offer = r.rematch;
  const accepted = offer ? offer.accepted : [];
  const waiting = r.seats.filter((s) => s && !accepted.includes(s.seat)).map((s) => shownName(s.name, s.bot));
  const box = el('div', { cls: 'rematch' });
  if (offer && offer.room) {
    box.append(el('p', { text: t('rematch.room', { room: offer.room }) }));
    return box;
  }
  if (seated) {
    const mine = accepted.includes(r.you.seat);
    box.append(el('button', {
      type: 'button', id: 'rematch', disabled: mine,
      text: t(mine ? 'rematch.asked' : (offer ? 'rematch.accept' : 'rematch.offer')),
      onclick: () => { S.rematchAsked = send({ type: 'rematch' }) ? S.nextId - 1 : null; },
    }));
  }
  if (offer) box.append(el('p', { cls: 'muted', text: t('rematch.waiting', { names: waiting.join(', ') }) }));
  return box;
}

// Follows everyone into the rematch room once it exists, unless the server
// moves this connection itself (it accepted last: its request is still
// unanswered then).
function followRematch() {
  const r = S.room;
  const next = r && r.rematch && r.rematch.room;
  if (!next || S.rematchAsked !== null || S.followed === next) return;
  S.followed = next;
  send({ type: 'join', code: next, as: r.you.seat !== undefined ? 'player' : 'spectator' });
}

// ---- Turn alerts -----------------------------------------------------------------------

function alertSettings() {
  try { return JSON.parse(load(ALERTS_KEY)) || {}; } catch { return {}; }
}

let audio = null;

function setupAlerts() {
  const settings = alertSettings();
  $('alert-sound').checked = Boolean(settings.sound);
  $('alert-notify').checked = Boolean(settings.notify) && window.Notification && Notification.permission === 'granted';
  $('alerts-toggle').addEventListener('click', () => {
    const open = $('alerts').hidden;
    $('alerts').hidden = !open;
    $('alerts-toggle').setAttribute('aria-expanded', String(open));
  });
  $('alert-sound').addEventListener('change', () => {
    // Browsers let a page make sound only after a click: this is the click.
    if ($('alert-sound').checked) beep();
    saveAlerts();
  });
  $('alert-notify').addEventListener('change', async () => {
    if ($('alert-notify').checked) {
      if (!window.Notification) {
        $('alert-notify').checked = false;
        toast(t('alerts.noNotifications'));
      } else if (Notification.permission !== 'granted') {
        const answer = await Notification.requestPermission();
        if (answer !== 'granted') {
          $('alert-notify').checked = false;
          toast(t('alerts.blocked'));
        }
      }
    }
    saveAlerts();
  });
}

function saveAlerts() {
  save(ALERTS_KEY, JSON.stringify({ sound: $('alert-sound').checked, notify: $('alert-notify').checked }));
}

function beep() {
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
  } catch { /* no sound here */ }
}

// Whether it is this seat's move in the current state.
function myTurn() {
  const st = S.state;
  return Boolean(st && !S.result && st.you !== undefined && st.to_act === st.you && st.phase !== 'game_over');
}

// Called after every state: the title, the icon and the announcement follow
// the turn; sound and notification only when the turn becomes ours.
function turnAlerts(wasMine) {
  const mine = myTurn();
  document.title = mine ? t('alerts.title') : 'Splendor';
  const icon = document.querySelector('link[rel="icon"]');
  if (icon) icon.href = mine ? '/icon-turn.svg' : '/icon.svg';
  if (!mine || wasMine) return;
  $('announce').textContent = t('alerts.yourTurn');
  if ($('alert-sound').checked) beep();
  if ($('alert-notify').checked && document.hidden && window.Notification && Notification.permission === 'granted') {
    try { new Notification('Splendor', { body: t('alerts.yourTurn'), tag: 'splendor-turn' }); } catch { /* ignore */ }
  }
}
