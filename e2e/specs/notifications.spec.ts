import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { customerWrites, logIn } from '../fixtures/app.ts';
import { expect, test } from '../fixtures/test.ts';
import { FAKE_PUSH_PORT } from '../playwright.config.ts';

const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(buffer: Buffer, params: { version: string; privateKey: unknown; authSecret: string }): Buffer;
};

declare global {
  interface Window {
    __tones: number;
  }
}

/** The tab goes out of sight (another tab in front, the browser minimised), or comes back. */
async function setVisible(page: Page, visible: boolean) {
  await page.evaluate((v) => {
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => (v ? 'visible' : 'hidden'),
    });
    document.dispatchEvent(new Event('visibilitychange'));
  }, visible);
}

test('a browser signs up for notifications; a new enquiry is pushed, shown by the service worker, and sounds only while the tab is away', async ({
  browser,
}) => {
  // The push service a browser would use, on loopback: it records what the server sends it.
  const received: { path: string; body: Buffer }[] = [];
  const pushService = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: Buffer.concat(chunks) });
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((ok) => pushService.listen(FAKE_PUSH_PORT, '127.0.0.1', ok));

  try {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16).toString('base64url');
    const path = `/push/${randomUUID()}`;
    const context = await browser.newContext();
    await context.grantPermissions(['notifications']);
    // Chromium's own push service cannot be reached from here (and a test's private window has none): the
    // browser's subscription is played by one on the loopback push service, with keys this test holds, so it can
    // read what arrives there. Tones the page makes are counted.
    await context.addInitScript(
      ({ endpoint, p256dh, secret }) => {
        let current: PushSubscription | null = null;
        PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
          const key = options?.applicationServerKey as Uint8Array;
          current = {
            endpoint,
            expirationTime: null,
            options: { applicationServerKey: key.buffer as ArrayBuffer, userVisibleOnly: true },
            toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth: secret } }),
            unsubscribe: async () => {
              current = null;
              return true;
            },
            getKey: () => null,
          } as PushSubscription;
          return current;
        };
        PushManager.prototype.getSubscription = async () => current;
        window.__tones = 0;
        const make = AudioContext.prototype.createOscillator;
        AudioContext.prototype.createOscillator = function (this: AudioContext) {
          window.__tones += 1;
          return make.call(this);
        };
      },
      {
        endpoint: `http://127.0.0.1:${FAKE_PUSH_PORT}${path}`,
        p256dh: ecdh.getPublicKey().toString('base64url'),
        secret: auth,
      },
    );
    const page = await context.newPage();
    await logIn(page, 'staff2@harbourside.test');

    await page.goto('/settings/notifications');
    await expect(
      page.getByText('Notifications are allowed in this browser but it is not signed up for them.'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Show notifications in this browser' }).click();
    await expect(page.getByText('This browser will show notifications.')).toBeVisible();
    await expect(page.getByText(/This browser shows a notification for each new enquiry/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Stop notifications in this browser' })).toBeVisible();

    // Out of sight: a customer's new enquiry is pushed to this browser and sounds.
    await setVisible(page, false);
    const name = `Penny Push ${Date.now()}`;
    const enquiryId = await customerWrites(page, name, 'Can I book a check-up?');
    await expect.poll(() => received.filter((r) => r.path === path).length).toBe(1);
    const payload = JSON.parse(
      ece
        .decrypt(received.find((r) => r.path === path)!.body, {
          version: 'aes128gcm',
          privateKey: ecdh,
          authSecret: auth,
        })
        .toString(),
    );
    expect(payload).toEqual({
      kind: 'enquiry',
      title: `New enquiry from ${name}`,
      body: 'Can I book a check-up?',
      url: `/inbox/${enquiryId}`,
      tag: `enquiry:${enquiryId}`,
    });
    await expect.poll(() => page.evaluate(() => window.__tones)).toBeGreaterThan(0);

    // The push reaches the service worker, which shows it.
    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
    await cdp.send('ServiceWorker.enable');
    await expect
      .poll(() => registrations.some((r) => !r.isDeleted && new URL(r.scopeURL).pathname === '/'))
      .toBe(true);
    const registration = registrations.find((r) => !r.isDeleted && new URL(r.scopeURL).pathname === '/')!;
    // A push reaches only an active worker: one still installing would drop it.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: new URL(page.url()).origin,
      registrationId: registration.registrationId,
      data: JSON.stringify(payload),
    });
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const r = await navigator.serviceWorker.getRegistration('/');
          return (await r?.getNotifications())?.map((n) => [n.title, n.body, n.tag]) ?? [];
        }),
      )
      .toContainEqual([payload.title, payload.body, payload.tag]);

    // In sight again: no push, no sound; the tab shows the news itself (its title counts it).
    await setVisible(page, true);
    const tones = await page.evaluate(() => window.__tones);
    const unreadBefore = await page.title();
    await customerWrites(page, `Vera Visible ${Date.now()}`, 'Hello there');
    await expect.poll(() => page.title()).not.toBe(unreadBefore);
    expect(await page.evaluate(() => window.__tones)).toBe(tones);
    expect(received.filter((r) => r.path === path)).toHaveLength(1);

    // Stopping notifications in this browser: the server forgets it.
    await page.getByRole('button', { name: 'Stop notifications in this browser' }).click();
    await expect(page.getByText('This browser will no longer show notifications.')).toBeVisible();
    await setVisible(page, false);
    await customerWrites(page, `Oscar Off ${Date.now()}`, 'Anyone?');
    await expect.poll(() => page.evaluate(() => window.__tones)).toBeGreaterThan(tones);
    expect(received.filter((r) => r.path === path)).toHaveLength(1);
    await context.close();
  } finally {
    await new Promise<void>((ok) => pushService.close(() => ok()));
  }
});
