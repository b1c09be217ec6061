import { enquiries, locations, messages } from '@switchboard/db';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTOMATIC_EMAILS_PER_HOUR, sendAutomatic } from '../../modules/messages/automatic.ts';
import {
  createTestApp,
  DEMO_LOGINS,
  eventually,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';
import { inboundAddress } from './address.ts';
import { type FakeMailServer, fakeMailServer, type Received, smtpClient } from './testing.ts';

type Msg = typeof messages.$inferSelect;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('mail loops: automatic mail is never answered automatically', () => {
  let t: TestApp;
  let remote: FakeMailServer;
  let owner: string;
  let loc: string;
  let address: string;
  let client: ReturnType<typeof smtpClient>;
  let n = 0;

  const thread = async (enquiryId: string): Promise<Msg[]> =>
    t.database.db
      .select()
      .from(messages)
      .where(eq(messages.enquiry_id, enquiryId))
      .orderBy(asc(messages.created_at), asc(messages.id));
  const byMessageId = (messageId: string) =>
    eventually(async () => {
      const [m] = await t.database.db
        .select()
        .from(messages)
        .where(and(eq(messages.provider, 'email'), eq(messages.provider_message_id, messageId)));
      return m;
    });
  const sentTo = (address: string) => remote.received.filter((r) => r.rcpt_to.includes(address));
  /** What a mail server's out-of-office responder sends back to every message it gets. */
  const outOfOffice = (customer: string, marked: boolean) => async (r: Received) => {
    if (!r.rcpt_to.includes(customer)) return;
    const id = r.header('message-id') ?? '';
    await client.sendMail({
      from: `Kim Lee <${customer}>`,
      to: r.email.replyTo?.[0]?.address ?? address,
      subject: `Automatic reply: ${r.email.subject ?? ''}`,
      messageId: `<ooo.${++n}@mail.example.com>`,
      inReplyTo: id,
      references: id,
      headers: marked ? { 'Auto-Submitted': 'auto-replied', 'X-Auto-Response-Suppress': 'All' } : {},
      text: 'I am out of the office until Monday and will reply when I am back.',
    });
  };

  beforeAll(async () => {
    remote = await fakeMailServer();
    t = await createTestApp({ SMTP_PORT: '0', SMTP_URL: remote.url });
    await t.app.smtp.start();
    owner = await t.login(DEMO_LOGINS.owner);
    loc = await selectedLocation(t, owner);
    const [l] = await t.database.db.select().from(locations).where(eq(locations.id, loc));
    address = inboundAddress(t.config.email.inboundDomain, l!.inbound_email_token);
    client = smtpClient(t.app.smtp.port);
    const toggled = await t.request({
      method: 'PUT',
      url: '/api/v1/business/ai-auto-reply/toggle/auto',
      token: owner,
      payload: { location_id: loc, options: { delay_seconds: 0, max_replies: 50 } },
    });
    expect(toggled.statusCode, toggled.body).toBe(200);
  }, 120_000);
  beforeEach(() => {
    remote.onReceived = null;
  });
  afterAll(async () => {
    client?.close();
    await t?.close();
    await remote?.stop();
  });

  it.each([
    ['marks its replies (RFC 3834)', true],
    ['marks only its subject', false],
  ])(
    'an out-of-office responder that %s gets one answer from the assistant, then nothing',
    async (_, marked) => {
      const customer = `kim.${marked ? 'marked' : 'subject'}@example.com`;
      remote.onReceived = outOfOffice(customer, marked);
      const question = `q.${++n}@mail.example.com`;
      await client.sendMail({
        from: `Kim Lee <${customer}>`,
        to: address,
        subject: 'Opening hours',
        messageId: `<${question}>`,
        text: 'What are your opening hours on Saturday?',
      });
      const first = await byMessageId(question);

      // The assistant answers; the responder answers that; and then nothing more goes out, however long we wait.
      await eventually(async () => (await thread(first.enquiry_id)).length >= 3, 20_000);
      await sleep(3000);
      const all = await thread(first.enquiry_id);
      expect(all.map((m) => [m.direction, m.meta.auto_submitted === true])).toEqual([
        ['in', false],
        ['out', false],
        ['in', true],
      ]);
      expect(all[2]!.meta.auto_kind).toBe('auto-reply');
      expect(sentTo(customer)).toHaveLength(1);

      // What the assistant sent says it is automatic, so a well-behaved responder would not have answered at all.
      const answer = sentTo(customer)[0]!;
      expect(answer.header('auto-submitted')).toBe('auto-replied');
      expect(answer.header('x-auto-response-suppress')).toBe('All');

      // The out-of-office reply is not the customer waiting for an answer.
      const [e] = await t.database.db.select().from(enquiries).where(eq(enquiries.id, first.enquiry_id));
      expect(e!.awaiting_since).toBeNull();
    },
  );

  it('an automatic reply to a closed conversation joins it without reopening it', async () => {
    const customer = 'closed.kim@example.com';
    const question = `q.${++n}@mail.example.com`;
    await client.sendMail({
      from: customer,
      to: address,
      subject: 'Hi',
      messageId: `<${question}>`,
      text: 'Thanks!',
    });
    const first = await byMessageId(question);
    await eventually(async () => sentTo(customer).length === 1, 20_000);
    const closed = await t.request({
      method: 'PATCH',
      url: `/api/v1/enquiries/${first.enquiry_id}`,
      token: owner,
      payload: { status: 'closed' },
    });
    expect(closed.statusCode, closed.body).toBe(200);

    await outOfOffice(customer, true)(sentTo(customer)[0]!);
    const ooo = await eventually(async () =>
      (await thread(first.enquiry_id)).find((m) => m.meta.auto_submitted),
    );
    expect(ooo.direction).toBe('in');
    const [e] = await t.database.db.select().from(enquiries).where(eq(enquiries.id, first.enquiry_id));
    expect(e!.status).toBe('closed');
    expect(e!.awaiting_since).toBeNull();
  });

  it('the business’s own mail forwarded back to a location is taken and dropped', async () => {
    const before = await t.database.db.select({ id: messages.id }).from(messages);
    await t.app.mailer.deliver({
      to: 'owner@example.com',
      subject: '3 enquiries are waiting for an answer',
      text: 'Kim Lee has waited 2 hours.',
    });
    const digest = await eventually(async () => sentTo('owner@example.com')[0]);
    expect(digest.header('auto-submitted')).toBe('auto-generated');
    // The owner's mailbox forwards everything, as it came, to the location's address.
    const info = await client.sendMail({
      envelope: { from: 'owner@example.com', to: [address] },
      raw: digest.raw,
    });
    expect(info.response).toMatch(/^250 /);
    await sleep(500);
    expect(await t.database.db.select({ id: messages.id }).from(messages)).toHaveLength(before.length);
  });

  it(`a loop that gets through anyway stops after ${AUTOMATIC_EMAILS_PER_HOUR} automatic emails an hour`, async () => {
    const question = `q.${++n}@mail.example.com`;
    await client.sendMail({
      from: 'echo@example.com',
      to: address,
      subject: 'Ticket',
      messageId: `<${question}>`,
      text: 'Hello',
    });
    const first = await byMessageId(question);
    await eventually(async () => sentTo('echo@example.com').length === 1, 20_000);
    const outcomes = [];
    for (let i = 0; i < AUTOMATIC_EMAILS_PER_HOUR + 1; i++)
      outcomes.push(
        await sendAutomatic(t.app, {
          enquiry_id: first.enquiry_id,
          message: `Reminder ${i}`,
          client_id: `loop-test:${i}`,
          meta: { auto: 'invoice_reminder' },
        }),
      );
    // The assistant's answer was the first of the hour.
    expect(outcomes.map((o) => o.sent)).toEqual([
      ...Array(AUTOMATIC_EMAILS_PER_HOUR - 1).fill(true),
      false,
      false,
    ]);
    const refused = outcomes.at(-1)!;
    expect(refused.sent === false && refused.reason).toMatch(/as many automatic emails as a loop/);
  });
});
