/*
 * Switchboard's service worker: shows the pushes the server sends for new enquiries and messages, and opens the
 * conversation when one is clicked. Written by hand (nothing is cached for offline use: the inbox is live).
 *
 * The app hands it the access token and the API base after registering (spec §7); it uses them to tell the
 * server when the browser replaces its push subscription.
 */
let config = { access: null, api: '/api/v1' };

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('message', (event) => {
  const data = event.data;
  if (data && data.type === 'config') config = { access: data.access ?? null, api: data.api || '/api/v1' };
});

self.addEventListener('push', (event) => {
  let push = {};
  try {
    push = event.data ? event.data.json() : {};
  } catch {
    push = { title: 'Switchboard', body: event.data ? event.data.text() : '' };
  }
  const title = push.title || 'Switchboard';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: push.body || '',
      tag: push.tag || undefined,
      renotify: Boolean(push.tag),
      icon: '/favicon.svg',
      badge: '/favicon.svg',
      data: { url: push.url || '/inbox' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || '/inbox', self.location.origin);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((w) => new URL(w.url).origin === url.origin);
      if (open) {
        await open.focus();
        return open.navigate ? open.navigate(url.href) : undefined;
      }
      return self.clients.openWindow(url.href);
    })(),
  );
});

// The browser replaced the subscription (keys rotated, or it expired): the server is told of the new one.
self.addEventListener('pushsubscriptionchange', (event) => {
  const old = event.oldSubscription;
  event.waitUntil(
    (async () => {
      if (!config.access) return;
      const key = old?.options ? old.options.applicationServerKey : null;
      const subscription =
        event.newSubscription ||
        (key
          ? await self.registration.pushManager.subscribe({
              userVisibleOnly: true,
              applicationServerKey: key,
            })
          : null);
      if (!subscription) return;
      await fetch(`${config.api}/push/subscriptions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${config.access}` },
        body: JSON.stringify(subscription.toJSON()),
      });
    })(),
  );
});
