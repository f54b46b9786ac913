// Web Push for the browser client (issue 25, docs/BROWSER.md): told on this
// device when a turn-based game waits, with no tab open. Nothing is asked
// of the browser until the player ticks the box: then the permission, the
// service worker (/sw.js), a subscription to the server's key
// (GET /api/push/key), sent to PUT /api/me/push with the page's language,
// and the events chosen to PUT /api/me/notifications. Unticking forgets
// the subscription here and on the server. Loaded before app.js, whose
// state `S` and helpers these functions use when they are called.
'use strict';

const PUSH_KEY = 'splendor.push';
const PUSH_EVENTS = ['your_turn', 'game_over', 'chat', 'invitation'];

function pushSupported() {
  return 'serviceWorker' in navigator && typeof window.PushManager === 'function' && Boolean(window.Notification);
}

// base64url (the server's key) to the bytes PushManager.subscribe takes.
function keyBytes(text) {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

function authHeaders() {
  return { 'Content-Type': 'application/json', Authorization: `Bearer ${S.token}` };
}

async function pushRegistration() {
  await navigator.serviceWorker.register('/sw.js');
  return navigator.serviceWorker.ready;
}

// The events ticked, in the server's names.
function pushEvents() {
  return PUSH_EVENTS.filter((e) => $(`push-${e}`).checked);
}

async function saveEvents() {
  const response = await fetch('/api/me/notifications', {
    method: 'PUT', headers: authHeaders(), body: JSON.stringify({ events: pushEvents() }),
  });
  if (!response.ok) throw new Error(`notifications ${response.status}`);
}

// Subscribes this browser and tells the server; throws when anything says no.
async function subscribePush() {
  const answer = await Notification.requestPermission();
  if (answer !== 'granted') throw new Error('blocked');
  const keyResponse = await fetch('/api/push/key', { headers: { Accept: 'application/json' } });
  if (!keyResponse.ok) throw new Error(`key ${keyResponse.status}`);
  const { public_key: key } = await keyResponse.json();
  const registration = await pushRegistration();
  const wanted = keyBytes(key);
  // A subscription to another key (the server's database was replaced)
  // cannot be reused, and a new one is refused while it exists.
  const old = await registration.pushManager.getSubscription();
  if (old && !sameKey(old, wanted)) await old.unsubscribe().catch(() => {});
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true, applicationServerKey: wanted,
  });
  await sendSubscription(subscription);
  await saveEvents();
}

function sameKey(subscription, wanted) {
  const had = subscription.options && subscription.options.applicationServerKey;
  if (!had) return false;
  const bytes = new Uint8Array(had);
  return bytes.length === wanted.length && bytes.every((b, i) => b === wanted[i]);
}

async function sendSubscription(subscription) {
  const body = Object.assign({}, subscription.toJSON(), { lang: currentLang });
  const response = await fetch('/api/me/push', { method: 'PUT', headers: authHeaders(), body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`push ${response.status}`);
}

async function unsubscribePush() {
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = registration && await registration.pushManager.getSubscription();
  if (!subscription) return;
  await fetch('/api/me/push', {
    method: 'DELETE', headers: authHeaders(), body: JSON.stringify({ endpoint: subscription.endpoint }),
  }).catch(() => {});
  await subscription.unsubscribe().catch(() => {});
}

function showPushEvents() {
  $('push-events').hidden = !$('alert-push').checked;
}

function setupPush() {
  const saved = load(PUSH_KEY) === 'on';
  $('alert-push').checked = saved && pushSupported() && Notification.permission === 'granted';
  showPushEvents();
  $('alert-push').addEventListener('change', async () => {
    const on = $('alert-push').checked;
    showPushEvents();
    try {
      if (on) {
        if (!pushSupported()) throw new Error('unsupported');
        if (!S.token) throw new Error('nosession');
        await subscribePush();
        toast(t('push.on'));
      } else {
        await unsubscribePush();
      }
      save(PUSH_KEY, on ? 'on' : 'off');
    } catch (e) {
      $('alert-push').checked = false;
      showPushEvents();
      save(PUSH_KEY, 'off');
      // Nothing half made stays behind, here or on the server.
      if (on && pushSupported() && e.message !== 'unsupported') unsubscribePush().catch(() => {});
      toast(t(e.message === 'unsupported' ? 'push.unsupported' : e.message === 'blocked' ? 'alerts.blocked' : 'push.failed'));
    }
  });
  for (const event of PUSH_EVENTS) {
    $(`push-${event}`).addEventListener('change', () => {
      if ($('alert-push').checked && S.token) saveEvents().catch(() => toast(t('push.failed')));
    });
  }
  // The events as the server keeps them (a program may have set them too).
  $('alerts-toggle').addEventListener('click', async () => {
    if (!$('alert-push').checked || !S.token) return;
    try {
      const response = await fetch('/api/me/notifications', { headers: authHeaders() });
      if (!response.ok) return;
      const { events } = await response.json();
      for (const e of PUSH_EVENTS) $(`push-${e}`).checked = events.includes(e);
    } catch (_) {
      // As ticked here until the next look.
    }
  });
  // A click on a notification while a tab is open: that tab joins the room.
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.addEventListener('message', (e) => {
      const room = e.data && e.data.room;
      if (typeof room === 'string' && CODE_RE.test(room) && (!S.room || S.room.code !== room)) join(room, 'player');
    });
  }
}

// Pushes are worded in the page's language: a new one tells the server;
// so does every new `welcome` (the browser may have a new subscription, or
// the session a new token).
async function pushLanguageChanged() {
  if (!$('alert-push').checked || !S.token || !pushSupported()) return;
  try {
    const registration = await navigator.serviceWorker.getRegistration('/');
    const subscription = registration && await registration.pushManager.getSubscription();
    if (subscription) await sendSubscription(subscription);
  } catch (_) {
    // Said again at the next change; the old language meanwhile.
  }
}
