// The browser client's service worker (issue 25): it shows what the server
// pushes (a sentence in the player's language, a room's code: never anything
// of a game) and, on a click, brings a tab of the page to that room. It
// keeps nothing and caches nothing.
'use strict';

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (_) {
    data = {};
  }
  const room = typeof data.room === 'string' && /^[A-Za-z]{5}$/.test(data.room) ? data.room : null;
  const title = typeof data.title === 'string' ? data.title : 'Splendor';
  const body = typeof data.body === 'string' ? data.body : '';
  event.waitUntil(self.registration.showNotification(title, {
    body,
    icon: '/icon.svg',
    // One notification per room: a newer one replaces it.
    tag: room ? `splendor-${room}` : 'splendor',
    data: { room },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const room = event.notification.data && event.notification.data.room;
  const url = room ? `/#${room}` : '/';
  event.waitUntil((async () => {
    const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const tab = tabs.find((c) => new URL(c.url).origin === self.location.origin && new URL(c.url).pathname === '/');
    if (tab) {
      await tab.focus();
      if (room) tab.postMessage({ room });
      return;
    }
    await self.clients.openWindow(url);
  })());
});
