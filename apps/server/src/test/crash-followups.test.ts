import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { businesses, enquiries, messages } from '@switchboard/db';
import { createServerDatabase } from '@switchboard/db/testing/index';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { PUBLIC_URL, TWILIO_SID, TWILIO_TOKEN, twilioWebhook } from '../modules/channels/test-support.ts';
import { connectAccount, demoOwner } from './demo.ts';
import { CountingTwilio } from './fake-twilio.ts';
import { testConfig } from './helpers.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

const INBOUND = 300;
const NUMBER = '+15555550100';
/** Each message from its own customer, so each is the customer's last and is answered. */
const customer = (i: number) => `+614916${String(i).padStart(5, '0')}`;
const sid = (i: number) => `SMf${String(i).padStart(31, '0')}`;

/**
 * kill -9 while customers write in at a location whose assistant answers: every message the server
 * acknowledged gets the assistant's answer (or its handover) after the restart, and no customer is answered
 * twice. The answer's job used to be queued by a listener after the commit, so a crash lost some.
 */
describe('kill -9 during a burst of messages the assistant answers', { timeout: 420_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-crash-followups-'));
  const twilio = new CountingTwilio();
  let db: Awaited<ReturnType<typeof createServerDatabase>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    await twilio.start();
    twilio.owners.twilio(TWILIO_SID, TWILIO_TOKEN, { numbers: [NUMBER] });
    db = await createServerDatabase(dir);
    env = { ...db.env, PUBLIC_URL, TWILIO_API_BASE: twilio.url };
    const database = await db.open();
    const app = await buildApp(testConfig(env), { database });
    try {
      await app.ready();
      const owner = await demoOwner(app);
      const location = owner.locations[0]!;
      await connectAccount(app, owner.token, {
        location_id: location,
        provider: 'twilio',
        config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, phone_number: NUMBER },
      });
      const res = await app.inject({
        method: 'PUT',
        url: '/api/v1/business/ai-auto-reply/toggle/auto',
        headers: { authorization: `Bearer ${owner.token}` },
        payload: { location_id: location, options: { delay_seconds: 0, outside_hours_only: false } },
      });
      expect(res.statusCode, res.body).toBe(200);
      await database.db
        .update(businesses)
        .set({ message_limit: 100_000 })
        .where(eq(businesses.id, owner.business_id));
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

  it('answers every acknowledged message once, after the restart too', async () => {
    let server: ServerProcess = await startServerProcess(env);
    const acked = new Set<number>();
    let crashed = false;
    let next = 0;
    await Promise.all([
      (async () => {
        while (acked.size < 80) await new Promise((r) => setTimeout(r, 5));
        crashed = true;
        await server.crash();
      })(),
      ...Array.from({ length: 8 }, async () => {
        while (next < INBOUND && !crashed) {
          const i = next++;
          const r = twilioWebhook('/webhooks/twilio/messaging', {
            AccountSid: TWILIO_SID,
            MessageSid: sid(i),
            From: customer(i),
            To: NUMBER,
            Body: `Do you have an appointment free on Friday? (${i})`,
            NumMedia: '0',
          });
          try {
            const res = await fetch(`${server.url}${r.url}`, {
              method: 'POST',
              headers: r.headers,
              body: r.body,
            });
            if (res.status === 200) acked.add(i);
          } catch {
            // The connection died with the server: not acknowledged.
          }
        }
      }),
    ]);
    expect(crashed).toBe(true);

    server = await startServerProcess(env);
    // The embedded database is the server's alone while it runs: wait on what Twilio is sent, then look.
    const restarted = Date.now();
    const reached = () => [...acked].every((i) => twilio.acceptedTo.has(customer(i)));
    while (!reached() && Date.now() - restarted < 150_000) await new Promise((r) => setTimeout(r, 500));
    // A little longer: anything sent twice would arrive now.
    await new Promise((r) => setTimeout(r, 2000));
    await server.stop();

    const database = await db.open();
    try {
      const inbound = await database.db
        .select({ id: messages.id, sid: messages.provider_message_id, enquiry: messages.enquiry_id })
        .from(messages)
        .where(
          and(eq(messages.provider, 'twilio'), inArray(messages.provider_message_id, [...acked].map(sid))),
        );
      expect(inbound).toHaveLength(acked.size);
      const answers = await database.db
        .select({ client_id: messages.client_id })
        .from(messages)
        .where(eq(messages.direction, 'out'));
      const handedOver = await database.db
        .select({ id: enquiries.id })
        .from(enquiries)
        .where(
          and(
            inArray(
              enquiries.id,
              inbound.map((m) => m.enquiry),
            ),
            isNotNull(enquiries.ai_handoff_at),
          ),
        );
      const answered = new Set(answers.map((a) => a.client_id));
      const handed = new Set(handedOver.map((e) => e.id));
      const left = inbound.filter((m) => !answered.has(`ai:${m.id}`) && !handed.has(m.enquiry));
      expect(
        left.map((m) => m.sid),
        `${left.length} of ${acked.size} acknowledged messages were never answered nor handed over\n${server.output()}`,
      ).toEqual([]);
      // Nobody was answered twice, before the crash and after it together.
      for (const [to, times] of twilio.acceptedTo) expect(times, to).toBe(1);
    } finally {
      await database.close();
    }
  });
});
