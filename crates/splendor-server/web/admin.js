// The operators' console (issue 22, docs/HOSTING.md "Operators"): a static
// page that holds no data. It asks for the operators' token, keeps it in
// this tab only (sessionStorage), and calls /api/admin/... with it: the
// open reports with their chat, the live rooms, the players and the
// quick-play queue, the bans, mutes and marks in force, and the audit log.
// Everything shown comes from people (names, chat, reasons): it only ever
// goes in through textContent.
'use strict';

const ADMIN_KEY = 'splendor.admin';
const A = {
  token: null,
  reports: [],
  rooms: [],
  sessions: [],
  queue: [],
  sanctions: [],
  audit: [],
  history: null, // the session whose history is shown, with its answer
  chosen: {}, // report id -> the action chosen for it
  status: null,
};

function setStatus(key, params) {
  A.status = key ? [key, params] : null;
  $('status').textContent = key ? t(key, params) : '';
}

// Calls the operators' API; a failure throws an Error with the server's
// message (in English: the operators' API speaks English) and the status.
async function api(method, path, body) {
  const headers = { Accept: 'application/json', Authorization: `Bearer ${A.token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const answer = await response.json().catch(() => null);
  if (!response.ok) {
    const err = new Error(answer && answer.message ? answer.message : `HTTP ${response.status}`);
    err.status = response.status;
    throw err;
  }
  return answer;
}

function when(ms) {
  return ms ? new Date(ms).toLocaleString(document.documentElement.lang) : '—';
}

// ---- Signing in ---------------------------------------------------------------------

async function open(token) {
  A.token = token;
  try {
    await api('GET', '/api/admin/rooms');
  } catch (e) {
    A.token = null;
    try { sessionStorage.removeItem(ADMIN_KEY); } catch { /* private browsing */ }
    if (e.status === 401) setStatus('admin.wrongToken');
    else if (e.status === 429) setStatus('admin.tooManyTries');
    else if (e.status === 404) setStatus('admin.noApi');
    else setStatus('admin.failed', { why: e.message });
    $('token').focus();
    return;
  }
  try { sessionStorage.setItem(ADMIN_KEY, token); } catch { /* private browsing */ }
  $('login').hidden = true;
  $('console').hidden = false;
  setStatus(null);
  await refresh();
}

function close() {
  A.token = null;
  try { sessionStorage.removeItem(ADMIN_KEY); } catch { /* private browsing */ }
  $('console').hidden = true;
  $('login').hidden = false;
  $('token').value = '';
  $('token').focus();
}

// ---- Loading ----------------------------------------------------------------------------

async function refresh() {
  setStatus('admin.loading');
  try {
    const q = encodeURIComponent($('rooms-q').value.trim());
    const who = encodeURIComponent($('sessions-q').value.trim());
    const [reports, rooms, sessions, queue, bans, mutes, marks, audit] = await Promise.all([
      api('GET', '/api/admin/reports'),
      api('GET', `/api/admin/rooms${q ? `?q=${q}` : ''}`),
      api('GET', `/api/admin/sessions?q=${who}`),
      api('GET', '/api/admin/queue'),
      api('GET', '/api/admin/bans'),
      api('GET', '/api/admin/mutes'),
      api('GET', '/api/admin/marks'),
      api('GET', '/api/admin/audit?limit=50'),
    ]);
    A.reports = reports.reports;
    A.rooms = rooms.rooms;
    A.sessions = sessions.sessions;
    A.queue = queue.queue;
    A.sanctions = [
      ...bans.bans.map((b) => ({ ...b, what: `ban_${b.kind}`, target: b.value })),
      ...mutes.mutes.map((m) => ({ ...m, what: 'mute', target: m.session })),
      ...marks.marks.map((m) => ({ ...m, what: 'mark', target: m.session })),
    ];
    A.audit = audit.entries;
    setStatus(null);
  } catch (e) {
    if (e.status === 401) { close(); setStatus('admin.wrongToken'); return; }
    setStatus('admin.failed', { why: e.message });
  }
  render();
}

// Does something, then loads everything again; says what went wrong.
// The focus comes back to the control that did it (or, when that is gone
// with what it acted on, to its section's heading).
async function act(method, path, body, done) {
  const from = document.activeElement;
  const focusId = from && from.id;
  const section = from && from.closest ? from.closest('section') : null;
  try {
    await api(method, path, body);
    setStatus(done);
  } catch (e) {
    setStatus('admin.failed', { why: e.message });
    return false;
  }
  const status = A.status;
  await refresh();
  if (status) setStatus(...status);
  const back = (focusId && $(focusId)) || (section && section.querySelector('h2'));
  if (back) back.focus();
  return true;
}

// ---- Drawing ------------------------------------------------------------------------------

function render() {
  renderReports();
  renderRooms();
  renderSessions();
  renderQueue();
  renderSanctions();
  renderAudit();
  renderHistory();
}

function cells(...values) {
  return el('tr', {}, ...values.map((v) => (v instanceof Node ? el('td', {}, v) : el('td', { text: v === null || v === undefined ? '—' : String(v) }))));
}

function small(text, onclick, extra) {
  return el('button', { type: 'button', cls: 'quiet small', text, onclick, ...(extra || {}) });
}

// A report: who, why, where, the room's chat with the reported person's
// lines marked, the replay, and what to do about it.
function reportNode(r) {
  const box = el('article', { cls: 'report', 'data-report': r.id, 'aria-labelledby': `report-${r.id}` });
  box.append(el('h3', { id: `report-${r.id}`, text: t('admin.reportTitle', { id: r.id, name: r.reported.name, by: r.reporter.name }) }));
  box.append(el('p', { cls: 'muted', text: [when(r.at), r.room ? t('admin.inRoom', { room: r.room }) : null, r.seat !== null && r.seat !== undefined ? t('admin.atSeat', { seat: r.seat }) : null].filter(Boolean).join(' · ') }));
  box.append(el('blockquote', { text: r.reason }));
  if (r.line) box.append(el('p', {}, el('strong', { text: t('admin.lineReported') }), ' ', el('q', { text: r.line })));
  if (r.chat.length) {
    box.append(el('h4', { text: t('admin.chat') }));
    box.append(el('ol', { cls: 'log chat-log' }, ...r.chat.map((l) => el('li', { cls: l.reported ? 'reported-line' : null },
      el('strong', { text: l.from }), l.reported ? el('span', { cls: 'tag away', text: t('admin.reported') }) : null, ': ', l.text))));
  }
  const links = el('p', {});
  if (r.replay) links.append(el('a', { href: r.replay, text: t('admin.replay') }), ' ');
  links.append(small(t('admin.history', { name: r.reported.name }), () => showHistory(r.reported.session)));
  box.append(links);
  const noteId = `note-${r.id}`;
  const actionId = `action-${r.id}`;
  const note = el('input', { id: noteId, maxlength: '200', autocomplete: 'off' });
  const action = el('select', { id: actionId }, ...['dismissed', 'warned', 'muted', 'removed', 'banned', 'marked', 'other']
    .map((a) => el('option', { value: a, text: t(`admin.action.${a}`) })));
  action.value = A.chosen[r.id] || 'dismissed';
  action.addEventListener('change', () => { A.chosen[r.id] = action.value; });
  // A sanction done from the report is what its resolution records.
  const doing = (what) => { A.chosen[r.id] = what; };
  const reason = () => note.value.trim();
  const need = () => { if (reason()) return true; setStatus('admin.needNote'); note.focus(); return false; };
  const session = r.reported.session;
  box.append(el('div', { cls: 'row' },
    el('label', { for: noteId, text: t('admin.note') }), note));
  const whom = { name: r.reported.name };
  const sanction = (what, label, path, body) => small(t(label), async () => {
    if (!need()) return;
    doing(what);
    if (!await act('POST', path, body(), 'admin.done')) delete A.chosen[r.id];
  }, { id: `${what}-${r.id}`, 'aria-label': `${t(label)}: ${r.reported.name}` });
  box.append(el('div', { cls: 'row' },
    sanction('muted', 'admin.mute24', '/api/admin/mutes', () => ({ session, minutes: 1440, reason: reason() })),
    r.room ? sanction('removed', 'admin.remove', `/api/admin/rooms/${encodeURIComponent(r.room)}/remove`, () => ({ session, reason: reason() })) : null,
    sanction('banned', 'admin.ban', '/api/admin/bans', () => ({ kind: 'session', value: session, reason: reason() })),
    sanction('marked', 'admin.mark', '/api/admin/marks', () => ({ session, reason: reason() }))));
  box.append(el('div', { cls: 'row' },
    el('label', { for: actionId, text: t('admin.actionTaken') }), action,
    el('button', { type: 'button', cls: 'resolve', id: `resolve-${r.id}`, text: t('admin.resolve'), 'aria-label': t('admin.resolveLabel', whom), onclick: () => {
      if (need()) act('POST', `/api/admin/reports/${r.id}/resolve`, { action: action.value, note: reason() }, 'admin.resolved');
    } })));
  return box;
}

function renderReports() {
  const list = $('report-list');
  // Keep what an operator typed in the report still shown.
  const typed = new Map([...list.querySelectorAll('input[id^="note-"]')].map((n) => [n.id, n.value]));
  list.replaceChildren(...A.reports.map(reportNode));
  for (const [id, value] of typed) if ($(id)) $(id).value = value;
  $('reports-empty').hidden = A.reports.length > 0;
}

function renderRooms() {
  $('room-table').tBodies[0].replaceChildren(...A.rooms.map((r) => {
    const close = small(t('admin.close'), () => {
      const reason = $('close-reason').value.trim();
      if (!reason) { setStatus('admin.needReason'); $('close-reason').focus(); return; }
      act('POST', `/api/admin/rooms/${encodeURIComponent(r.code)}/close`, { reason }, 'admin.done');
    }, { id: `close-${r.code}`, 'aria-label': t('admin.closeRoom', { room: r.code }) });
    // Who plays, from the game in play; else how many of how many seats.
    const who = r.game ? r.game.players.map((p) => p.bot ? shownName(p.name, p.bot) : p.name).join(', ') : `${r.players}/${r.seats}`;
    const last = r.game ? when(r.game.last_move_at || r.game.started_at) : null;
    return cells(r.code, t(`admin.status.${r.status}`), who, r.host, r.client, r.node, last, close);
  }));
}

function sanctionReason() {
  const reason = $('sanction-reason').value.trim();
  if (!reason) { setStatus('admin.needReason'); $('sanction-reason').focus(); }
  return reason;
}

function renderSessions() {
  $('session-table').tBodies[0].replaceChildren(...A.sessions.map((s) => {
    const who = el('span', {}, s.name, ' ', el('span', { cls: 'muted small-code', text: s.player_id ? `#${s.player_id}` : '' }),
      s.bot ? el('span', { cls: 'tag bot', text: t('tag.program') }) : null,
      s.connected_here ? el('span', { cls: 'tag', text: t('admin.online') }) : null);
    const forget = small(t('admin.forget'), () => {
      const reason = sanctionReason();
      if (reason && window.confirm(t('admin.forgetConfirm', { name: s.name }))) {
        act('POST', `/api/admin/players/${encodeURIComponent(s.session)}/forget`, { reason }, 'admin.forgotten');
      }
    }, { id: `forget-${s.session}`, 'aria-label': `${t('admin.forget')}: ${s.name}` });
    const actions = el('span', { cls: 'row' },
      small(t('admin.historyShort'), () => showHistory(s.session), { id: `history-${s.session}`, 'aria-label': t('admin.history', { name: s.name }) }),
      small(t('admin.mute24'), () => { const reason = sanctionReason(); if (reason) act('POST', '/api/admin/mutes', { session: s.session, minutes: 1440, reason }, 'admin.done'); }, { id: `mute-${s.session}`, 'aria-label': `${t('admin.mute24')}: ${s.name}` }),
      small(t('admin.ban'), () => { const reason = sanctionReason(); if (reason) act('POST', '/api/admin/bans', { kind: 'session', value: s.session, reason }, 'admin.done'); }, { id: `ban-${s.session}`, 'aria-label': `${t('admin.ban')}: ${s.name}` }),
      small(t('admin.mark'), () => { const reason = sanctionReason(); if (reason) act('POST', '/api/admin/marks', { session: s.session, reason }, 'admin.done'); }, { id: `mark-${s.session}`, 'aria-label': `${t('admin.mark')}: ${s.name}` }),
      forget);
    return cells(who, s.address, s.rated_games, when(s.last_seen || s.created_at), actions);
  }));
}

async function showHistory(session) {
  try {
    A.history = await api('GET', `/api/admin/sessions/${encodeURIComponent(session)}`);
  } catch (e) {
    setStatus('admin.failed', { why: e.message });
    return;
  }
  renderHistory();
  $('history').hidden = false;
  $('history-title').focus();
}

function renderHistory() {
  const h = A.history;
  $('history').hidden = !h;
  if (!h) return;
  $('history-title').textContent = t('admin.history', { name: h.name });
  $('history-line').textContent = t('admin.historyLine', {
    games: h.rated_games, rating: h.rating === null || h.rating === undefined ? '—' : h.rating,
    since: when(h.created_at), room: h.playing_in || '—',
  });
  $('history-list').replaceChildren(
    ...h.sanctions.map((s) => el('li', { text: t('admin.sanctionLine', { kind: t(`admin.kind.${s.kind}`), until: s.until ? when(s.until) : t('admin.forGood'), why: s.reason }) })),
    ...h.reports.map((r) => el('li', { text: t('admin.reportLine', { id: r.id, when: when(r.at), by: r.reporter.name, why: r.reason, action: r.action ? t(`admin.action.${r.action}`) : t('admin.stillOpen') }) })));
}

function renderQueue() {
  $('queue-table').tBodies[0].replaceChildren(...A.queue.map((q) => cells(q.name, q.players, q.pool, when(q.queued_at))));
}

function renderSanctions() {
  $('sanction-table').tBodies[0].replaceChildren(...A.sanctions.map((s) => {
    const kind = s.what.startsWith('ban_') ? 'ban' : s.what;
    const lift = small(t('admin.lift'), () => {
      const reason = $('sanction-reason').value.trim() || t('admin.liftedHere');
      act('POST', `/api/admin/${kind}s/${s.id}/lift`, { reason }, 'admin.done');
    }, { id: `lift-${kind}-${s.id}`, 'aria-label': `${t('admin.lift')}: ${s.target}` });
    return cells(t(`admin.kind.${s.what === 'mute' ? 'mute_session' : s.what === 'mark' ? 'mark_session' : s.what}`), s.target, s.until ? when(s.until) : t('admin.forGood'), s.reason, lift);
  }));
}

function renderAudit() {
  $('audit-table').tBodies[0].replaceChildren(...A.audit.map((a) => cells(when(a.at), a.actor, a.action, a.target, a.reason)));
}

// ---- Setting up ----------------------------------------------------------------------------

function setup() {
  initLang();
  onLangChange(() => {
    if (A.status) setStatus(...A.status);
    if (A.token) render();
  });
  $('login-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const token = $('token').value.trim();
    if (token) open(token);
  });
  $('refresh').addEventListener('click', refresh);
  // A ban of a name pattern or an address range (a session's is made from
  // the players' list or a report).
  $('ban-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const minutes = $('ban-minutes').value.trim();
    const body = {
      kind: $('ban-kind').value,
      value: $('ban-value').value.trim(),
      reason: $('ban-reason').value.trim(),
    };
    if (minutes) body.minutes = Number(minutes);
    if (await act('POST', '/api/admin/bans', body, 'admin.done')) {
      $('ban-value').value = '';
      $('ban-minutes').value = '';
    }
  });
  $('logout').addEventListener('click', close);
  for (const form of ['rooms-search', 'sessions-search']) {
    $(form).addEventListener('submit', (e) => { e.preventDefault(); refresh(); });
  }
  let saved = null;
  try { saved = sessionStorage.getItem(ADMIN_KEY); } catch { /* private browsing */ }
  if (saved) open(saved);
  else $('token').focus();
}

setup();
