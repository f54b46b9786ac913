// Quick play in the browser client (docs/BROWSER.md): wait in the server's
// queue for a rated game with whoever comes (`queue`, `unqueue`); the server
// seats us itself (`matched`, then `room` and `state`). The queue survives a
// reload: after `welcome` the server says `queued` again. Loaded before
// app.js, which holds the state `S` and `send`.
'use strict';

// The queue we wait in: the last `queued` ({ players, waiting, clock,
// bot_after_s }) and when it came; null when not queued.
let queueWait = null;
let queueTimer = null;

function startQueue() {
  if (queueWait || S.room) return;
  const msg = { type: 'queue', players: Number($('queue-players').value) };
  if ($('queue-bots').checked) msg.bot_after_s = 30;
  // People and programs wait apart (issue 24); a person may choose
  // programs, in games that are not rated.
  if ($('queue-programs').checked) msg.pool = 'programs';
  send(msg);
}

// Before a join or a create: the server takes a queued session out of its
// queue without a word; asking first keeps the page in step with it.
function leaveQueue() {
  if (queueWait) send({ type: 'unqueue' });
}

function queued(msg) {
  queueWait = { ...msg, at: performance.now() };
  clearInterval(queueTimer);
  // The bots' countdown, and "waiting for N s".
  queueTimer = setInterval(renderQueue, 1000);
}

function queueEnded() {
  queueWait = null;
  clearInterval(queueTimer);
  queueTimer = null;
}

function renderQueue() {
  renderPlayerId();
  const waiting = Boolean(queueWait) && !S.room;
  $('queue-form').hidden = waiting;
  $('queue-box').hidden = !waiting;
  $('quick-play').dataset.queued = String(waiting);
  if (!waiting) return;
  const q = queueWait;
  // What a screen reader is told (a live region) changes only when the
  // server says something; the seconds tick beside it, outside the region.
  const said = [
    t(q.pool === 'programs' ? 'quick.waitingPrograms' : 'quick.waiting', { players: q.players, waiting: q.waiting }),
    t('quick.clock', { initial: durationText(q.clock.initial_s), increment: durationText(q.clock.increment_s) }),
  ].join(' ');
  if ($('queue-text').textContent !== said) $('queue-text').textContent = said;
  const secs = Math.floor((performance.now() - q.at) / 1000);
  const ticking = [t('quick.elapsed', { secs })];
  if (q.bot_after_s !== undefined) {
    ticking.push(t('quick.botsIn', { s: Math.max(0, q.bot_after_s - secs) }));
  }
  $('queue-box').dataset.bots = String(q.bot_after_s !== undefined);
  $('queue-time').textContent = ticking.join(' ');
}

// The session's public id (welcome.player_id), with a link to its line on
// the leaderboard: names are not unique, this id is.
function renderPlayerId() {
  const id = S.playerId;
  $('my-id').hidden = !id;
  if (!id) return;
  $('my-id').dataset.player = id;
  $('my-id-text').textContent = t('quick.yourId', { id });
  $('my-rating').href = `/leaderboard#player=${encodeURIComponent(id)}`;
}

// Messages of the queue; true when handled here.
function handleQueue(msg) {
  switch (msg.type) {
    case 'queued':
      queued(msg);
      return true;
    case 'unqueued':
      queueEnded();
      return true;
    case 'matched':
      queueEnded();
      toast(t('quick.matched', { players: msg.players }));
      return true;
    default:
      return false;
  }
}

function setupQueue() {
  $('queue-form').addEventListener('submit', (e) => {
    e.preventDefault();
    startQueue();
  });
  $('unqueue').addEventListener('click', () => send({ type: 'unqueue' }));
}
