import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { pushSubscriptions } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  createTestApp,
  DEMO_LOGINS,
  eventually,
  getMe,
  inbound,
  type Json,
  listen,
  type TestApp,
} from '../../test/helpers.ts';

const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(buffer: Buffer, params: { version: string; privateKey: unknown; authSecret: string }): Buffer;
};

type Received = { path: string; headers: IncomingMessage['headers']; body: Buffer };

/** A push service on loopback: records what it is sent; `/gone/…` endpoints answer 410 as an expired one does. */
async function fakePushService() {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(req.url?.startsWith('/gone/') ? 410 : 201).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** A browser's subscription: its own key pair and auth secret, so the test can read what it is sent. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16).toString('base64url');
  return {
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth },
    read: (body: Buffer) =>
      JSON.parse(
        ece.decrypt(body, { version: 'aes128gcm', privateKey: ecdh, authSecret: auth }).toString(),
      ) as Json,
  };
}

describe('push notifications', () => {
  let t: TestApp;
  let url: string;
  let push: Awaited<ReturnType<typeof fakePushService>>;
  let owner: string;
  let staff: string;
  let location: string;
  const sockets: Socket[] = [];
  const api = (...args: Parameters<ReturnType<typeof apiClient>>) => apiClient(t)(...args);
  const staffBrowser = browserKeys();
  const ownerBrowser = browserKeys();
  const at = (path: string) => push.received.filter((r) => r.path === path);

  const connect = (token: string, visible: boolean) =>
    new Promise<Socket>((resolve, reject) => {
      const socket = io(url, {
        path: '/socket.io',
        auth: { token, visible },
        transports: ['websocket'],
        forceNew: true,
      });
      sockets.push(socket);
      socket.on('connect', () => resolve(socket));
      socket.on('connect_error', reject);
    });

  beforeAll(async () => {
    push = await fakePushService();
    t = await createTestApp({ PUSH_ALLOW_ORIGINS: push.url });
    url = await listen(t);
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    location = (await getMe(t, owner)).businesses.find((b) => b.selected)!.locations[0]!.id;
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t.close();
    await push.close();
  });

  it('hands out one public key, and checks what a browser subscribes with', async () => {
    const key = await api('GET', '/push/vapid-public-key');
    expect(key.status).toBe(200);
    expect(key.body.body.public_key).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect((await api('GET', '/push/vapid-public-key')).body.body.public_key).toBe(key.body.body.public_key);

    const good = { endpoint: `${push.url}/push/staff`, keys: staffBrowser.keys };
    expect((await api('POST', '/push/subscriptions', undefined, good)).status).toBe(401);
    const noKeys = await api('POST', '/push/subscriptions', staff, { endpoint: good.endpoint });
    expect(noKeys.status).toBe(400);
    const notUrl = await api('POST', '/push/subscriptions', staff, {
      ...good,
      endpoint: 'javascript:alert(1)',
    });
    expect(notUrl.status).toBe(400);
    expect(notUrl.body.message).toMatch(/not an http\(s\) URL/);
    const badKey = await api('POST', '/push/subscriptions', staff, {
      ...good,
      keys: { p256dh: '!!', auth: 'x' },
    });
    expect(badKey.status).toBe(400);
    expect(await t.database.db.select().from(pushSubscriptions)).toHaveLength(0);

    expect((await api('POST', '/push/subscriptions', staff, good)).body.body).toEqual({ subscribed: true });
    // The same browser again: still one subscription.
    expect((await api('POST', '/push/subscriptions', staff, good)).status).toBe(200);
    expect(await t.database.db.select().from(pushSubscriptions)).toHaveLength(1);
  });

  it('pushes a new enquiry, then a message, to people with no tab in sight, readable only by their browser', async () => {
    await api('POST', '/push/subscriptions', owner, {
      endpoint: `${push.url}/push/owner`,
      keys: ownerBrowser.keys,
    });
    const ownerTab = await connect(owner, true);
    await connect(staff, false);
    const publicKey = (await api('GET', '/push/vapid-public-key')).body.body.public_key;
    // Both sockets have joined the location's room.
    await eventually(async () => (await t.app.io.in(`location:${location}`).fetchSockets()).length >= 2);

    const first = await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570401', name: 'Polly Push' },
      message: 'Is the clinic open on Sunday?',
    });
    await eventually(async () => at('/push/staff').length === 1);
    const [arrived] = at('/push/staff');
    expect(arrived!.headers['content-encoding']).toBe('aes128gcm');
    expect(arrived!.headers.ttl).toBe('3600');
    expect(arrived!.headers.urgency).toBe('high');
    expect(arrived!.headers.authorization).toMatch(
      new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${publicKey}$`),
    );
    expect(staffBrowser.read(arrived!.body)).toEqual({
      kind: 'enquiry',
      title: 'New enquiry from Polly Push',
      body: 'Is the clinic open on Sunday?',
      url: `/inbox/${first.enquiry_id}`,
      tag: `enquiry:${first.enquiry_id}`,
    });
    // The owner's tab is in sight: nothing was pushed to them.
    expect(at('/push/owner')).toHaveLength(0);

    // The owner looks away; the customer writes again: a message, pushed to both.
    ownerTab.emit('presence', { visible: false });
    await new Promise((r) => setTimeout(r, 100));
    await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570401' },
      message: 'Or Monday?',
    });
    await eventually(async () => at('/push/owner').length === 1 && at('/push/staff').length === 2);
    expect(ownerBrowser.read(at('/push/owner')[0]!.body)).toMatchObject({
      kind: 'message',
      title: 'Polly Push wrote',
      body: 'Or Monday?',
    });
    // Only the owner's browser can read the owner's push.
    expect(() => staffBrowser.read(at('/push/owner')[0]!.body)).toThrow();
  });

  it('follows each person’s settings, and forgets browsers that are gone or signed out', async () => {
    const off = await api('PATCH', '/user/me', staff, { enable_message_notification: false });
    expect(off.status).toBe(200);
    const before = { staff: at('/push/staff').length, owner: at('/push/owner').length };
    await inbound(t, owner, { location_id: location, from: { phone: '+61491570401' }, message: 'Hello?' });
    await eventually(async () => at('/push/owner').length === before.owner + 1);
    expect(at('/push/staff')).toHaveLength(before.staff);
    await api('PATCH', '/user/me', staff, { enable_message_notification: true });

    // A browser the push service no longer knows is removed on the next push.
    const gone = browserKeys();
    await api('POST', '/push/subscriptions', staff, { endpoint: `${push.url}/gone/1`, keys: gone.keys });
    await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570401' },
      message: 'Still there?',
    });
    await eventually(async () => at('/gone/1').length === 1);
    await eventually(async () => {
      const left = await t.database.db
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.endpoint, `${push.url}/gone/1`));
      return left.length === 0;
    });

    // Signing this browser out of pushes; someone else's browser is not theirs to remove.
    const ownerEndpoint = { endpoint: `${push.url}/push/owner` };
    expect((await api('DELETE', '/push/subscriptions', staff, ownerEndpoint)).status).toBe(200);
    expect(
      await t.database.db
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.endpoint, ownerEndpoint.endpoint)),
    ).toHaveLength(1);
    expect((await api('DELETE', '/push/subscriptions', owner, ownerEndpoint)).body.body).toEqual({
      subscribed: false,
    });
    expect(
      await t.database.db
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.endpoint, ownerEndpoint.endpoint)),
    ).toHaveLength(0);
  });
});
