import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { customers, enquiries, messages } from '@switchboard/db';
import { createServerDatabase, DEMO_LOGINS } from '@switchboard/db/testing/index';
import type { ClientToServerEvents, MessageDto, ServerToClientEvents } from '@switchboard/shared';
import { and, eq, inArray, like } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { PUBLIC_URL, TWILIO_SID, TWILIO_TOKEN, twilioWebhook } from '../modules/channels/test-support.ts';
import { connectAccount, demoOwner } from './demo.ts';
import { CountingTwilio } from './fake-twilio.ts';
import { eventually, openSocket, testConfig } from './helpers.ts';
import { type ServerProcess, startRedis, startServerProcess } from './server-process.ts';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

const NUMBER = '+15555550100';
const CUSTOMER = '+61491570777';
const LOGIN_MAX_PER_EMAIL = 4;
const NEW_TOKEN = 'aaaabbbbccccddddeeeeffff00001111';

/**
 * Two real server processes on one PostgreSQL database and one Redis, as behind a load balancer. The embedded
 * database belongs to one process, so this runs in the PostgreSQL pass of `npm test`.
 */
describe.runIf(process.env.TEST_DATABASE_URL)(
  'two app nodes on PostgreSQL and Redis',
  { timeout: 180_000 },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'switchboard-nodes-'));
    const twilio = new CountingTwilio();
    const sockets: Socket[] = [];
    let redis: Awaited<ReturnType<typeof startRedis>>;
    let db: Awaited<ReturnType<typeof createServerDatabase>>;
    let a: ServerProcess;
    let b: ServerProcess;
    let token: string;
    let thread: string;
    let channelId: string;
    let envOf: (node: 'a' | 'b') => Record<string, string> = () => ({});

    const api = (
      node: ServerProcess,
      path: string,
      init: { method?: string; body?: unknown; token?: string } = {},
    ) =>
      fetch(`${node.url}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
    /** A customer's SMS, signed as Twilio signs it, posted to one node. */
    const sms = (
      node: ServerProcess,
      params: { sid: string; from: string; text: string },
      authToken = TWILIO_TOKEN,
    ) => {
      const request = twilioWebhook(
        '/webhooks/twilio/messaging',
        {
          AccountSid: TWILIO_SID,
          MessageSid: params.sid,
          From: params.from,
          To: NUMBER,
          Body: params.text,
          NumMedia: '0',
        },
        { token: authToken },
      );
      return fetch(`${node.url}${request.url}`, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
      });
    };
    const inbound = (node: ServerProcess, sid: string, text: string, authToken = TWILIO_TOKEN) =>
      sms(node, { sid, from: CUSTOMER, text }, authToken);

    beforeAll(async () => {
      redis = await startRedis();
      if (!redis) throw new Error('redis-server is not installed: run scripts/test.sh, which installs it');
      await twilio.start();
      // The account accepts its primary Auth Token and the new one it is changed to (Twilio's secondary).
      twilio.owners.twilio(TWILIO_SID, [TWILIO_TOKEN, NEW_TOKEN], { numbers: [NUMBER] });
      db = await createServerDatabase(dir);
      const env = {
        ...db.env,
        REDIS_URL: redis.url,
        PUBLIC_URL,
        TWILIO_API_BASE: twilio.url,
        LOGIN_MAX_PER_EMAIL: String(LOGIN_MAX_PER_EMAIL),
      };
      // A Twilio number at the first location, connected once, as an owner would.
      const database = await db.open();
      const app = await buildApp(testConfig(env), { database });
      try {
        await app.ready();
        const owner = await demoOwner(app);
        token = owner.token;
        channelId = await connectAccount(app, token, {
          location_id: owner.locations[0]!,
          provider: 'twilio',
          config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, phone_number: NUMBER },
        });
      } finally {
        await app.close();
        await database.close();
      }
      // Each node reaches Twilio under its own prefix, so the fake knows which node sent what.
      envOf = (node) => ({ ...env, TWILIO_API_BASE: `${twilio.url}/${node}` });
      [a, b] = await Promise.all([startServerProcess(envOf('a')), startServerProcess(envOf('b'))]);
    }, 180_000);

    afterAll(async () => {
      for (const s of sockets) s.disconnect();
      await Promise.all([a?.stop(), b?.stop()]);
      await twilio.close();
      await db?.drop();
      redis?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('shows staff on node A, within a second, a message that arrived at node B', async () => {
      const staff = await openSocket<Client>(a.url, token, sockets);
      const seen: MessageDto[] = [];
      staff.on('message.created', (m) => seen.push(m));
      const sent = Date.now();
      expect((await inbound(b, 'SMnode0000000000000000000000000001', 'Arrived at B')).status).toBe(200);
      await eventually(async () => seen.some((m) => m.message === 'Arrived at B'), 5000);
      expect(Date.now() - sent).toBeLessThan(1000);
      thread = seen.find((m) => m.message === 'Arrived at B')!.enquiry_id;
    });

    it('delivers a reply sent on node B once, though both nodes run send workers', async () => {
      const res = await api(b, `/api/v1/enquiries/${thread}/messages`, {
        method: 'POST',
        token,
        body: { message: 'Replied on B' },
      });
      expect(res.status).toBe(200);
      await eventually(async () => twilio.accepted.get('Replied on B') === 1, 15_000);
      const database = await db.open();
      try {
        await eventually(async () => {
          const [m] = await database.db.select().from(messages).where(eq(messages.message, 'Replied on B'));
          return m?.status === 'sent';
        }, 15_000);
      } finally {
        await database.close();
      }
      expect(twilio.accepted.get('Replied on B')).toBe(1);
    });

    it('holds the login limit across both nodes', async () => {
      const attempt = (node: ServerProcess) =>
        api(node, '/api/v1/auth/login', {
          method: 'POST',
          body: { email: DEMO_LOGINS.staff2, password: 'not the password' },
        }).then((r) => r.status);
      const statuses: number[] = [];
      for (let i = 0; i <= LOGIN_MAX_PER_EMAIL; i++) statuses.push(await attempt(i % 2 ? b : a));
      // Per process, each node would have allowed LOGIN_MAX_PER_EMAIL attempts: together they allow that many.
      expect(statuses.slice(0, LOGIN_MAX_PER_EMAIL).every((s) => s === 401)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
    });

    it('makes one customer and one enquiry for each new number writing to both nodes at once', async () => {
      const numbers = Array.from({ length: 20 }, (_, n) => `+614915709${String(n).padStart(2, '0')}`);
      // Every number sends `each` messages at once, alternating between the nodes; the statuses come back.
      const sendAll = (word: string, each: number, first: ServerProcess, second: ServerProcess) =>
        Promise.all(
          numbers.flatMap((from, n) =>
            Array.from({ length: each }, (_, k) =>
              sms(k % 2 ? second : first, {
                sid: `SM${word}${String(n * each + k).padStart(32 - word.length, '0')}`,
                from,
                text: `${word} ${n}.${k}`,
              }).then((r) => r.status),
            ),
          ),
        );
      expect((await sendAll('Race', 5, a, b)).every((status) => status === 200)).toBe(true);
      const database = await db.open();
      try {
        const people = await database.db.select().from(customers).where(inArray(customers.phone, numbers));
        expect(people).toHaveLength(20);
        const ids = people.map((p) => p.id);
        const threads = await database.db.select().from(enquiries).where(inArray(enquiries.customer_id, ids));
        expect(threads).toHaveLength(20);
        const stored = await database.db.select().from(messages).where(like(messages.message, 'Race %'));
        expect(stored).toHaveLength(100);

        // The same customers write again to both nodes once their enquiries are closed: each reopens theirs
        // once, whichever node stores its first message (the location counts each as open again once).
        const original = new Set(threads.map((e) => e.id));
        const closeAll = (set: Partial<typeof enquiries.$inferInsert>) =>
          database.db
            .update(enquiries)
            .set({ status: 'closed', ...set })
            .where(inArray(enquiries.customer_id, ids));
        await closeAll({});
        expect((await sendAll('Again', 4, b, a)).every((status) => status === 200)).toBe(true);
        const open = () =>
          database.db
            .select()
            .from(enquiries)
            .where(and(inArray(enquiries.customer_id, ids), eq(enquiries.status, 'open')));
        const reopened = await open();
        expect(new Set(reopened.map((e) => e.id))).toEqual(original);
        const again = await database.db.select().from(messages).where(like(messages.message, 'Again %'));
        expect(again).toHaveLength(80);
        expect(new Set(again.map((m) => m.enquiry_id))).toEqual(original);

        // Past the reopen window each opens one new enquiry instead.
        await closeAll({ last_message_at: new Date(Date.now() - 40 * 86_400_000) });
        expect((await sendAll('Later', 4, a, b)).every((status) => status === 200)).toBe(true);
        const fresh = await open();
        expect(fresh).toHaveLength(20);
        expect(fresh.some((e) => original.has(e.id))).toBe(false);
        const later = await database.db.select().from(messages).where(like(messages.message, 'Later %'));
        expect(later).toHaveLength(80);
        expect(new Set(later.map((m) => m.enquiry_id))).toEqual(new Set(fresh.map((e) => e.id)));
      } finally {
        await database.close();
      }
    });

    it('uses on node B, at once, an auth token changed on node A', async () => {
      // Node B has the account cached from the webhooks it took.
      expect((await inbound(b, 'SMnode0000000000000000000000000002', 'Before the change')).status).toBe(200);
      const changed = await api(a, `/api/v1/channels/${channelId}`, {
        method: 'PATCH',
        token,
        body: { config: { auth_token: NEW_TOKEN } },
      });
      expect(changed.status).toBe(200);
      // Within moments, not the cache's minute: B refuses the old token and takes the new one.
      let n = 3;
      const refusedAt = Date.now();
      await eventually(
        async () => (await inbound(b, `SMnode${String(n++).padStart(28, '0')}`, 'Old token')).status === 403,
        2000,
      );
      expect(Date.now() - refusedAt).toBeLessThan(2000);
      expect((await inbound(b, 'SMnode1000000000000000000000000000', 'New token', NEW_TOKEN)).status).toBe(
        200,
      );
    });

    it('loses nothing when node A is killed mid-send: node B sends the rest, each once', async () => {
      // Node A alone takes the burst (B starts again once A has died); A's sends reach Twilio but their answers
      // take long, so A dies with them in flight.
      await b.stop();
      twilio.delayVia.set('a', 5000);
      const before = twilio.acceptedVia.get('a') ?? 0;
      const texts = Array.from({ length: 200 }, (_, i) => `Burst ${i}`);
      const statuses = await Promise.all(
        texts.map((text) =>
          api(a, `/api/v1/enquiries/${thread}/messages`, {
            method: 'POST',
            token,
            body: { message: text },
          }).then((r) => r.status),
        ),
      );
      expect(statuses.every((s) => s === 200)).toBe(true);
      await eventually(async () => (twilio.acceptedVia.get('a') ?? 0) >= before + 5, 15_000);
      // Killed at once, while Twilio still holds its answers: starting B first could take longer than they do
      // on a loaded machine, and A would have finished its sends before it died.
      await a.crash();
      b = await startServerProcess(envOf('b'));
      const database = await db.open();
      try {
        await eventually(async () => {
          const left = await database.db
            .select({ id: messages.id })
            .from(messages)
            .innerJoin(enquiries, eq(enquiries.id, messages.enquiry_id))
            .where(and(eq(messages.status, 'queued'), like(messages.message, 'Burst %')));
          return left.length === 0;
        }, 60_000);
        const stored = await database.db
          .select({ message: messages.message, status: messages.status })
          .from(messages)
          .where(like(messages.message, 'Burst %'));
        expect(stored).toHaveLength(texts.length);
        for (const m of stored) expect(m.status, m.message).toBe('sent');
        for (const text of texts) expect(twilio.accepted.get(text), text).toBe(1);
        // Node A's in-flight sends were taken over by B once their heartbeat stopped, and B asked Twilio about
        // each rather than sending it again.
        expect(twilio.lookups).toBeGreaterThanOrEqual(5);
      } finally {
        await database.close();
      }
    });
  },
);
