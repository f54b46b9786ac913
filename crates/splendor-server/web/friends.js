// Friends (issue 50, docs/BROWSER.md): a player follows another by their
// player id (from the lobby's form, a seat of a rated room, an invitation
// or a player's page) through /api/me/follows. Two who follow each other
// are friends: the list shows a friend online, and the room of the game
// they sit in, to watch; the others only by name, with a button to follow
// back those who follow. In a waiting room with a seat free, each one
// followed can be invited with one press. Loaded by the lobby's page and
// the leaderboard's (a player's page: Follow, Unfollow); names only ever
// go in through textContent.
'use strict';

const F = {
  data: null, // the last GET /api/me/follows
  now: 0, // Date.now() when it came
};
const PLAYER_ID_RE = /^[0-9a-f]{10}$/;

// The session's token: the lobby's, or (on another page) the one it kept.
function friendsToken() {
  if (typeof S !== 'undefined' && S.token) return S.token;
  try { return localStorage.getItem('splendor.token'); } catch { return null; }
}

// Whether the session follows `id`, by the list last read.
function isFollowed(id) {
  return Boolean(F.data && F.data.follows.some((f) => f.player_id === id));
}

async function loadFriends() {
  const token = friendsToken();
  if (!token) return;
  try {
    const response = await fetch('/api/me/follows', {
      headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
    });
    if (!response.ok) return;
    F.data = await response.json();
    F.now = Date.now();
    friendsChanged();
  } catch (_) {
    // Offline for a moment: the lists stay as they were.
  }
}

// A toast on the lobby's page; the status line on another.
function friendsSay(text) {
  if (typeof toast === 'function') toast(text);
  else $('status').textContent = text;
}

// What shows the lists, on whichever page is open.
function friendsChanged() {
  if ($('friends-list')) renderFriends();
  if ($('invite-friends')) renderInviteFriends();
  if (typeof renderFollowButton === 'function') renderFollowButton();
  // A waiting room's seats get their Follow buttons (a table's, with its
  // next state).
  if (typeof renderRoom === 'function' && typeof S !== 'undefined' && S.room && !S.state) renderRoom();
}

// Follows (`follow` true) or unfollows `id`; a toast says how it went.
async function setFollow(id, name, follow) {
  const token = friendsToken();
  if (!token || !PLAYER_ID_RE.test(id)) { friendsSay(t('friends.badId')); return; }
  try {
    const response = await fetch(`/api/me/follows/${id}`, {
      method: follow ? 'PUT' : 'DELETE',
      headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
    });
    const body = await response.json().catch(() => null);
    const shown = (body && body.name) || name || `#${id}`;
    const key = `friends.error.${body && body.error}`;
    if (response.ok) friendsSay(t(follow ? 'friends.followed' : 'friends.unfollowed', { name: shown }));
    else friendsSay(t(hasMessage(key) ? key : 'friends.failed', { name: shown, id }));
  } catch (_) {
    friendsSay(t('friends.failed'));
  }
  await loadFriends();
}

// A friend's line: online and where, or when last seen; one followed who
// does not follow back, only that.
function friendStatus(f) {
  if (!f.mutual) return t('friends.oneWay');
  if (f.online && f.room) return t('friends.playing', { room: f.room });
  if (f.online) return t('friends.online');
  return t('friends.seen', { time: roughText(Math.max(0, F.now - f.last_seen)) });
}

function profileLink(f) {
  return el('a', { href: `/leaderboard#player=${f.player_id}`, text: f.name });
}

function renderFriends() {
  const data = F.data;
  $('friends').hidden = !data;
  if (!data) return;
  $('friends-list').replaceChildren(...data.follows.map((f) => el('li', {
    cls: 'friend', 'data-player': f.player_id, 'data-online': String(Boolean(f.mutual && f.online)),
  },
  el('span', { cls: `presence ${f.mutual && f.online ? 'on' : 'off'}`, 'aria-hidden': 'true' }),
  el('span', { cls: 'grow' }, profileLink(f), ' ', el('span', { cls: 'muted small-code', text: `#${f.player_id}` }),
    ' · ', el('span', { cls: 'friend-status', text: friendStatus(f) })),
  f.room && CODE_RE.test(f.room)
    ? el('button', { type: 'button', cls: 'quiet small', text: t('friends.watch'), 'aria-label': t('friends.watchLabel', { name: f.name }), onclick: () => join(f.room, 'spectator') })
    : null,
  el('button', { type: 'button', cls: 'quiet small', text: t('friends.unfollow'), 'aria-label': t('friends.unfollowLabel', { name: f.name }), onclick: () => setFollow(f.player_id, f.name, false) }))));
  $('friends-empty').hidden = data.follows.length > 0;
  $('followers-title').hidden = data.followers.length === 0;
  $('followers-list').replaceChildren(...data.followers.map((f) => el('li', { cls: 'friend', 'data-player': f.player_id },
    el('span', { cls: 'grow' }, profileLink(f), ' ', el('span', { cls: 'muted small-code', text: `#${f.player_id}` })),
    el('button', { type: 'button', cls: 'small', text: t('friends.followBack'), 'aria-label': t('friends.followBackLabel', { name: f.name }), onclick: () => setFollow(f.player_id, f.name, true) }))));
}

// In a waiting room where this player may invite: one button per player
// followed (invite sends the same message as the form above it).
function renderInviteFriends() {
  const list = $('invite-friends');
  const open = !$('invite-form').hidden;
  const follows = open && F.data ? F.data.follows : [];
  const seated = new Set(S.room ? S.room.seats.filter(Boolean).map((s) => s.player_id).filter(Boolean) : []);
  list.hidden = follows.length === 0;
  list.replaceChildren(...follows.filter((f) => !seated.has(f.player_id)).map((f) => el('li', { cls: 'friend' },
    el('span', { cls: 'grow', text: f.name }),
    el('button', {
      type: 'button', cls: 'quiet small', text: t('friends.invite'), 'aria-label': t('friends.inviteLabel', { name: f.name }),
      onclick: () => send({ type: 'invite', player_id: f.player_id }),
    }))));
}

// "Follow" beside a person's name, where their id is known.
function followButton(id, name) {
  if (!id || !PLAYER_ID_RE.test(id) || !friendsToken() || isFollowed(id)) return null;
  if (typeof S !== 'undefined' && id === S.playerId) return null;
  return el('button', {
    type: 'button', cls: 'quiet small', text: t('friends.follow'),
    'aria-label': t('friends.followLabel', { name }),
    onclick: () => setFollow(id, name, true),
  });
}

function setupFriends() {
  const form = $('follow-form');
  if (form) {
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const id = $('follow-id').value.trim().toLowerCase();
      if (!PLAYER_ID_RE.test(id)) { friendsSay(t('friends.badId')); return; }
      $('follow-id').value = '';
      setFollow(id, null, true);
    });
  }
  // The friends' lines change as they come and go: read again while the
  // page is seen, unless My games read them lately (it does, with itself).
  setInterval(() => { if (!document.hidden && Date.now() - F.now > 25000) loadFriends(); }, 30000);
}
