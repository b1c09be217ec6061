import { customers, enquiries, messages } from '@switchboard/db';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveActor } from '../../plugins/auth.ts';
import { updateChannel } from '../channels/accounts.ts';
import {
  type ChannelSuite,
  connect,
  postTwilio,
  SETUP_TIMEOUT_MS,
  SUITE_TIMEOUTS,
  startChannelSuite,
  TWILIO_SID,
  TWILIO_TOKEN,
} from '../channels/test-support.ts';

const NUMBER = '+15555550177';
const params = (from: string, sid: string) => ({
  AccountSid: TWILIO_SID,
  ApiVersion: '2010-04-01',
  Body: `Hello from ${from}`,
  From: from,
  MessageSid: sid,
  NumMedia: '0',
  SmsStatus: 'received',
  To: NUMBER,
});

/** Concurrent webhooks: unique keys and locks decide, so nothing is created twice and nothing answers 500. */
describe('inbound under concurrency', SUITE_TIMEOUTS, () => {
  let s: ChannelSuite;
  let accountId: string;
  beforeAll(async () => {
    s = await startChannelSuite();
    ({ id: accountId } = await connect(s.t, s.owner, {
      location_id: s.locations[0],
      provider: 'twilio',
      config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, phone_number: NUMBER },
    }));
  }, SETUP_TIMEOUT_MS);
  afterAll(() => s.close(), SETUP_TIMEOUT_MS);

  it('20 new numbers sending 5 messages each at once make 20 customers, 20 enquiries and 100 messages', async () => {
    const senders = Array.from({ length: 20 }, (_, i) => `+1555880${String(i).padStart(4, '0')}`);
    const posts = senders.flatMap((from, i) =>
      Array.from({ length: 5 }, (_, k) =>
        postTwilio(
          s.t,
          '/webhooks/twilio/messaging',
          params(from, `SMcc${String(i * 5 + k).padStart(30, '0')}`),
        ),
      ),
    );
    const answers = await Promise.all(posts);
    expect(answers.map((a) => a.statusCode).filter((c) => c !== 200)).toEqual([]);

    const db = s.t.database.db;
    const made = await db.select().from(customers).where(like(customers.phone, '+1555880%'));
    expect(made).toHaveLength(20);
    const ids = made.map((c) => c.id);
    const threads = (await db.select().from(enquiries)).filter((e) => ids.includes(e.customer_id));
    expect(threads).toHaveLength(20);
    const stored = await db.select().from(messages).where(like(messages.provider_message_id, 'SMcc%'));
    expect(stored).toHaveLength(100);
  });

  it('300 concurrent repeats of one webhook all answer 200 and store it once', async () => {
    const one = params('+15558809999', `SMdd${'0'.repeat(30)}`);
    const answers = await Promise.all(
      Array.from({ length: 300 }, () => postTwilio(s.t, '/webhooks/twilio/messaging', one)),
    );
    expect(answers.map((a) => a.statusCode).filter((c) => c !== 200)).toEqual([]);
    const stored = await s.t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.provider, 'twilio'), eq(messages.provider_message_id, one.MessageSid)));
    expect(stored).toHaveLength(1);
  });

  it('a token changed by another node is read again before a webhook signed with it is refused', async () => {
    const path = '/webhooks/twilio/messaging';
    const before = params('+15558801111', `SMee${'0'.repeat(30)}`);
    expect((await postTwilio(s.t, path, before)).statusCode).toBe(200);
    // Another node changes the Auth Token: this node hears nothing of it (no request went through it).
    const newToken = 'fedcba9876543210fedcba9876543210';
    s.fake.owners.twilio(TWILIO_SID, newToken);
    const actor = await resolveActor(s.t.app, s.owner);
    await updateChannel({ db: s.t.app.db, config: s.t.app.config, actor }, accountId, {
      config: { auth_token: newToken },
    });
    const after = params('+15558801111', `SMee${'1'.padStart(30, '0')}`);
    expect((await postTwilio(s.t, path, after, { token: newToken })).statusCode).toBe(200);
    const third = params('+15558801111', `SMee${'2'.padStart(30, '0')}`);
    expect((await postTwilio(s.t, path, third)).statusCode, 'the old token').toBe(403);
  });
});
