import { enquiries, messages } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageSend } from '../../jobs/definitions/message-send.ts';
import { eventually, type TestApp } from '../../test/helpers.ts';
import {
  type ChannelSuite,
  connect,
  type FakeProvider,
  messageById,
  postTwilio,
  SETUP_TIMEOUT_MS,
  SUITE_TIMEOUTS,
  startChannelSuite,
  TWILIO_SID,
  TWILIO_TOKEN,
} from '../channels/test-support.ts';
import { sweepQueuedMessages } from './sending.ts';
import { enqueueSend } from './service.ts';

const MESSAGES_PATH = `/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`;
const CUSTOMER = '+61491570456';

describe('the send worker', SUITE_TIMEOUTS, () => {
  let suite: ChannelSuite;
  let fake: FakeProvider;
  let t: TestApp;
  let enquiry: typeof enquiries.$inferSelect;

  /** An outbound message as a crash would leave it: queued, its send begun a minute ago, no outcome. */
  async function interrupted(text: string) {
    const [m] = await t.database.db
      .insert(messages)
      .values({
        business_id: enquiry.business_id,
        enquiry_id: enquiry.id,
        customer_id: enquiry.customer_id,
        channel: 'sms',
        direction: 'out',
        message: text,
        status: 'queued',
        send_started_at: new Date(Date.now() - 60_000),
      })
      .returning();
    return m!.id;
  }
  const settled = (id: string) =>
    eventually(async () => {
      const m = await messageById(t, id);
      return m.status !== 'queued' && m;
    }, 40_000);
  const posted = (text: string) =>
    fake.received('POST', MESSAGES_PATH).filter((r) => r.form().get('Body') === text);

  beforeAll(async () => {
    suite = await startChannelSuite();
    ({ fake, t } = suite);
    await connect(t, suite.owner, {
      location_id: suite.locations[0],
      provider: 'twilio',
      config: { account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, phone_number: '+15555550100' },
    });
    const res = await postTwilio(t, '/webhooks/twilio/messaging', {
      AccountSid: TWILIO_SID,
      MessageSid: 'SM5e0d1a000000000000000000000001',
      From: CUSTOMER,
      To: '+15555550100',
      Body: 'Hello there',
      NumMedia: '0',
    });
    expect(res.statusCode, res.body).toBe(200);
    const [m] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.provider_message_id, 'SM5e0d1a000000000000000000000001'));
    [enquiry] = (await t.database.db.select().from(enquiries).where(eq(enquiries.id, m!.enquiry_id))) as [
      typeof enquiries.$inferSelect,
    ];
  }, SETUP_TIMEOUT_MS);
  afterAll(() => suite.close(), SETUP_TIMEOUT_MS);

  it('records an interrupted send the provider already took, without sending it again', async () => {
    fake.on('GET', MESSAGES_PATH, (req) => ({
      status: 200,
      json: {
        messages:
          req.url.searchParams.get('To') === CUSTOMER && req.url.searchParams.get('From') === '+15555550100'
            ? [
                { sid: 'SMolder', body: 'Something else', date_created: new Date().toUTCString() },
                { sid: 'SMtaken', body: 'Taken before the crash', date_created: new Date().toUTCString() },
              ]
            : [],
      },
    }));
    const id = await interrupted('Taken before the crash');
    await enqueueSend(t.app.jobs, id);
    expect(await settled(id)).toMatchObject({ status: 'sent', provider_message_id: 'SMtaken' });
    expect(posted('Taken before the crash')).toHaveLength(0);
  });

  it('sends an interrupted message the provider never took, once', async () => {
    fake.on('GET', MESSAGES_PATH, { status: 200, json: { messages: [] } });
    fake.on('POST', MESSAGES_PATH, { status: 201, json: { sid: 'SMfresh', status: 'queued' } });
    const id = await interrupted('Never reached Twilio');
    await enqueueSend(t.app.jobs, id);
    expect(await settled(id)).toMatchObject({ status: 'sent', provider_message_id: 'SMfresh' });
    expect(posted('Never reached Twilio')).toHaveLength(1);
  });

  it('keeps one job per message however often it is queued, and the sweep adds none', async () => {
    fake.on('POST', MESSAGES_PATH, { status: 201, json: { sid: 'SMonce', status: 'queued' }, delayMs: 300 });
    const id = await interrupted('Queued three times');
    await t.database.db.update(messages).set({ send_started_at: null }).where(eq(messages.id, id));
    await Promise.all([
      enqueueSend(t.app.jobs, id),
      enqueueSend(t.app.jobs, id),
      sweepQueuedMessages(t.app, 0),
    ]);
    expect(await t.app.jobs.boss.findJobs(messageSend.name, { id })).toHaveLength(1);
    expect(await settled(id)).toMatchObject({ status: 'sent' });
    expect(posted('Queued three times')).toHaveLength(1);
  });

  it("waits out a 429's Retry-After for the whole account, then sends", async () => {
    const refusedAt: number[] = [];
    let sentAt = 0;
    fake.on(
      'POST',
      MESSAGES_PATH,
      () => {
        refusedAt.push(Date.now());
        return {
          status: 429,
          json: { code: 20429, message: 'Too Many Requests' },
          headers: { 'retry-after': '2' },
        };
      },
      () => {
        sentAt = Date.now();
        return { status: 201, json: { sid: 'SMafter', status: 'queued' } };
      },
    );
    const id = await interrupted('Slow down please');
    await t.database.db.update(messages).set({ send_started_at: null }).where(eq(messages.id, id));
    await enqueueSend(t.app.jobs, id);
    expect(await settled(id)).toMatchObject({ status: 'sent', provider_message_id: 'SMafter' });
    const calls = posted('Slow down please');
    expect(calls).toHaveLength(2);
    expect(refusedAt).toHaveLength(1);
    // The second call came after the pause the provider asked for, not at the first retry.
    expect(sentAt - refusedAt[0]!).toBeGreaterThanOrEqual(1900);
  });
});
