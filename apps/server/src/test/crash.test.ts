import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { businesses, enquiries, messages } from '@switchboard/db';
import { createServerDatabase } from '@switchboard/db/testing/index';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { PUBLIC_URL, TWILIO_SID, TWILIO_TOKEN, twilioWebhook } from '../modules/channels/test-support.ts';
import { connectAccount, demoOwner } from './demo.ts';
import { CountingTwilio } from './fake-twilio.ts';
import { testConfig } from './helpers.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

const REPLIES = 1000;
const INBOUND = 1000;
const CUSTOMERS = 50;
const NUMBER = '+15555550100';
const customer = (i: number) => `+614915${String(70000 + (i % CUSTOMERS)).padStart(5, '0')}`;
const inboundSid = (i: number) => `SM${String(i).padStart(32, '0')}`;

/** Runs `task(i)` for i in [0, count) with `concurrency` at a time, until `stopped()`. */
async function pool(
  count: number,
  concurrency: number,
  stopped: () => boolean,
  task: (i: number) => Promise<void>,
) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count && !stopped()) await task(next++);
    }),
  );
}

describe('kill -9 during a burst of replies and inbound webhooks', { timeout: 300_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-crash-'));
  const twilio = new CountingTwilio();
  let db: Awaited<ReturnType<typeof createServerDatabase>>;
  let env: Record<string, string>;
  let token: string;
  let threads: string[] = [];

  beforeAll(async () => {
    await twilio.start();
    twilio.owners.twilio(TWILIO_SID, TWILIO_TOKEN, { numbers: [NUMBER] });
    db = await createServerDatabase(dir);
    env = { ...db.env, PUBLIC_URL, TWILIO_API_BASE: twilio.url };
    // Set up here, in-process: a Twilio number at the first location, 50 customers who have written in, and
    // a daily limit that lets a thousand replies through.
    const database = await db.open();
    const app = await buildApp(testConfig(env), { database });
    try {
      await app.ready();
      const owner = await demoOwner(app);
      token = owner.token;
      const location = owner.locations[0]!;
      await connectAccount(app, token, {
        location_id: location,
        provider: 'twilio',
        config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, phone_number: NUMBER },
      });
      for (let i = 0; i < CUSTOMERS; i++) {
        const res = await app.inject(signedInbound(`SMfirst${String(i).padStart(27, '0')}`, i, 'Hello'));
        expect(res.statusCode, res.body).toBe(200);
      }
      await database.db
        .update(businesses)
        .set({ message_limit: 100_000 })
        .where(eq(businesses.id, owner.business_id));
      const rows = await database.db
        .select({ id: enquiries.id })
        .from(enquiries)
        .where(and(eq(enquiries.location_id, location), eq(enquiries.channel, 'sms')));
      threads = rows.map((r) => r.id);
      expect(threads.length).toBeGreaterThanOrEqual(CUSTOMERS);
    } finally {
      await app.close();
      await database.close();
    }
  }, 180_000);

  afterAll(async () => {
    await twilio.close();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const signedInbound = (sid: string, i: number, text: string) =>
    twilioWebhook('/webhooks/twilio/messaging', {
      AccountSid: TWILIO_SID,
      MessageSid: sid,
      From: customer(i),
      To: NUMBER,
      Body: text,
      NumMedia: '0',
    });

  it('stores every acknowledged inbound once and sends every reply exactly once, none left queued 30 s after restart', async () => {
    let server: ServerProcess = await startServerProcess(env);
    const ackedReplies = new Map<string, string>();
    const ackedInbound = new Set<string>();
    let crashed = false;
    const crashWhen = async () => {
      while (ackedReplies.size < 300 || ackedInbound.size < 300) await new Promise((r) => setTimeout(r, 5));
      crashed = true;
      await server.crash();
    };
    const attempt = async (run: () => Promise<void>) => {
      try {
        await run();
      } catch {
        // The connection died with the server: not acknowledged.
      }
    };
    await Promise.all([
      crashWhen(),
      pool(
        REPLIES,
        8,
        () => crashed,
        (i) =>
          attempt(async () => {
            const text = `Crash reply ${i}`;
            const res = await fetch(
              `${server.url}/api/v1/enquiries/${threads[i % threads.length]}/messages`,
              {
                method: 'POST',
                headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
                body: JSON.stringify({ message: text }),
              },
            );
            if (res.status === 200)
              ackedReplies.set(((await res.json()) as { body: { id: string } }).body.id, text);
          }),
      ),
      pool(
        INBOUND,
        8,
        () => crashed,
        (i) =>
          attempt(async () => {
            const r = signedInbound(inboundSid(i), i, `Crash inbound ${i}`);
            const res = await fetch(`${server.url}${r.url}`, {
              method: 'POST',
              headers: r.headers,
              body: r.body,
            });
            if (res.status === 200) ackedInbound.add(inboundSid(i));
          }),
      ),
    ]);
    expect(crashed).toBe(true);

    server = await startServerProcess(env);
    const restarted = Date.now();
    const queuedNow = async () => {
      let queued = 0;
      for (const id of threads) {
        const res = await fetch(`${server.url}/api/v1/enquiries/${id}/messages?page_size=100`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const page = (await res.json()) as { body: { items: { status: string }[] } };
        queued += page.body.items.filter((m) => m.status === 'queued').length;
      }
      return queued;
    };
    while ((await queuedNow()) > 0 && Date.now() - restarted < 30_000)
      await new Promise((r) => setTimeout(r, 500));
    const drainedIn = Date.now() - restarted;
    await server.stop();
    expect(drainedIn, `replies still queued 30 s after the restart\n${server.output()}`).toBeLessThan(30_000);

    const database = await db.open();
    try {
      const stored = await database.db
        .select({
          id: messages.id,
          direction: messages.direction,
          status: messages.status,
          message: messages.message,
          provider_message_id: messages.provider_message_id,
        })
        .from(messages)
        .where(eq(messages.provider, 'twilio'));
      const inboundSids = stored.filter((m) => m.direction === 'in').map((m) => m.provider_message_id);
      for (const sid of ackedInbound) expect(inboundSids.filter((s) => s === sid)).toHaveLength(1);

      const out = await database.db
        .select({
          id: messages.id,
          status: messages.status,
          message: messages.message,
          error: messages.error,
        })
        .from(messages)
        .where(eq(messages.direction, 'out'));
      const outById = new Map(out.map((m) => [m.id, m]));
      for (const [id, text] of ackedReplies) {
        expect(outById.get(id)?.message).toBe(text);
      }
      // Every reply that was stored (acknowledged or caught by the crash after its commit) reached Twilio once.
      const crashReplies = out.filter((m) => m.message.startsWith('Crash reply '));
      expect(crashReplies.length).toBeGreaterThanOrEqual(ackedReplies.size);
      for (const m of crashReplies) {
        expect(m.status, m.message).not.toBe('queued');
        expect(m.status, `${m.message}: ${m.error}`).not.toBe('failed');
        expect(twilio.accepted.get(m.message) ?? 0, m.message).toBe(1);
      }
      // And nothing reached Twilio that is not stored.
      for (const [text, times] of twilio.accepted) {
        if (text.startsWith('Crash reply '))
          expect(
            crashReplies.some((m) => m.message === text),
            text,
          ).toBe(true);
        expect(times, text).toBe(1);
      }
    } finally {
      await database.close();
    }
  });
});
