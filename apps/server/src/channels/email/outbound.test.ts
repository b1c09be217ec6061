import { enquiries, locations, messages } from '@switchboard/db';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { messageSend } from '../../jobs/definitions/message-send.ts';
import {
  createTestApp,
  DEMO_LOGINS,
  eventually,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';
import { enquiryOfReplyToken, inboundAddress, parseRecipient } from './address.ts';
import { subjectOf } from './outbound.ts';
import { deliveryStatusNotification, type FakeMailServer, fakeMailServer, smtpClient } from './testing.ts';

type Msg = typeof messages.$inferSelect;

describe('email out: staff replies go through SMTP_URL with threading headers', () => {
  let t: TestApp;
  let remote: FakeMailServer;
  let owner: string;
  let staff: string;
  let loc: string;
  let address: string;
  let client: ReturnType<typeof smtpClient>;
  let n = 0;

  const message = async (id: string): Promise<Msg> => {
    const [m] = await t.database.db.select().from(messages).where(eq(messages.id, id));
    return m!;
  };
  const byMessageId = async (messageId: string): Promise<Msg> => {
    const [m] = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.provider, 'email'), eq(messages.provider_message_id, messageId)));
    return m!;
  };
  /** A customer's email arriving at the location, opening (or continuing) an enquiry. */
  const customerWrites = async (from: string, subject: string) => {
    const messageId = `cust.${++n}@mail.example.com`;
    await client.sendMail({ from, to: address, subject, text: 'Hello', messageId: `<${messageId}>` });
    return byMessageId(messageId);
  };
  const reply = async (enquiryId: string, text: string): Promise<string> => {
    const res = await t.request({
      method: 'POST',
      url: `/api/v1/enquiries/${enquiryId}/messages`,
      token: staff,
      payload: { message: text },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().body.id as string;
  };
  const settled = (id: string, status: 'sent' | 'failed') =>
    eventually(async () => {
      const m = await message(id);
      return m.status === status && m;
    }, 25_000);

  beforeAll(async () => {
    remote = await fakeMailServer();
    t = await createTestApp({ SMTP_PORT: '0', SMTP_URL: remote.url });
    await t.app.smtp.start();
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    loc = await selectedLocation(t, owner);
    const [l] = await t.database.db.select().from(locations).where(eq(locations.id, loc));
    address = inboundAddress(t.config.email.inboundDomain, l!.inbound_email_token);
    client = smtpClient(t.app.smtp.port);
  }, 120_000);
  beforeEach(() => {
    remote.mode = 'accept';
    remote.received.length = 0;
    remote.connections = 0;
  });
  afterAll(async () => {
    client?.close();
    await t?.close();
    await remote?.stop();
  });

  it('sends a reply with its own Message-ID, In-Reply-To/References of the thread, From and Reply-To, and marks it sent', async () => {
    const first = await customerWrites('"Dana Wu" <dana@example.com>', 'Whitening price');
    const id = await reply(first.enquiry_id, 'It is $450. Would you like to book?');
    const sent = await settled(id, 'sent');

    expect(sent.provider).toBe('email');
    expect(sent.provider_message_id).toMatch(/^[0-9a-f-]{36}@inbound\.switchboard\.local$/);
    expect(remote.received).toHaveLength(1);
    const mail = remote.received[0]!;
    expect(mail.rcpt_to).toEqual(['dana@example.com']);
    expect(mail.mail_from).toBe(address); // bounces come back to the location
    expect(mail.header('message-id')).toBe(`<${sent.provider_message_id}>`);
    expect(mail.header('in-reply-to')).toBe(`<${first.provider_message_id}>`);
    expect(mail.header('references')).toBe(`<${first.provider_message_id}>`);
    expect(mail.email.from).toEqual({
      name: 'Harbourside Dental Docklands',
      address: 'docklands@harbourside.test',
    });
    expect(mail.email.to).toEqual([{ name: 'Dana Wu', address: 'dana@example.com' }]);
    expect(mail.email.subject).toBe('Re: Whitening price');
    expect(mail.email.text?.trim()).toBe('It is $450. Would you like to book?');

    const replyTo = mail.email.replyTo?.[0]?.address ?? '';
    const recipient = parseRecipient(replyTo, t.config.email.inboundDomain);
    expect(recipient?.location_token).toBe(address.slice(4, 20));
    expect(enquiryOfReplyToken(t.config.encryptionKey, recipient!.reply_token!)).toBe(first.enquiry_id);

    // The customer answers our email: In-Reply-To names our Message-ID, and it lands in the same enquiry.
    await t.request({
      method: 'PATCH',
      url: `/api/v1/enquiries/${first.enquiry_id}`,
      token: owner,
      payload: { status: 'closed' },
    });
    await client.sendMail({
      from: 'dana@example.com',
      to: replyTo,
      subject: 'Re: Whitening price',
      messageId: '<dana.answer@mail.example.com>',
      inReplyTo: `<${sent.provider_message_id}>`,
      references: [`<${first.provider_message_id}>`, `<${sent.provider_message_id}>`],
      text: 'Yes please, Tuesday.',
    });
    const answer = await byMessageId('dana.answer@mail.example.com');
    expect(answer.enquiry_id).toBe(first.enquiry_id);

    // A second reply threads under everything before it.
    const second = await settled(await reply(first.enquiry_id, 'Booked for Tuesday 10am.'), 'sent');
    const next = remote.received[1]!;
    expect(next.header('message-id')).toBe(`<${second.provider_message_id}>`);
    expect(next.header('in-reply-to')).toBe('<dana.answer@mail.example.com>');
    expect(next.header('references')).toBe(
      `<${first.provider_message_id}> <${sent.provider_message_id}> <dana.answer@mail.example.com>`,
    );
  });

  it('fails the message with the remote reason when the server answers 550', async () => {
    const first = await customerWrites('nobody@example.com', 'Hello?');
    remote.mode = 'reject';
    const failed = await settled(await reply(first.enquiry_id, 'Hi there'), 'failed');
    expect(failed.error).toMatch(
      /^550 5\.1\.1 <nobody@example\.com>: Recipient address rejected: User unknown/,
    );
    expect(remote.received).toHaveLength(0);
  });

  it('retries while the server answers 421, and sends once it accepts', async () => {
    const first = await customerWrites('busy@example.com', 'Are you open?');
    remote.mode = 'defer';
    const id = await reply(first.enquiry_id, 'Yes, until 6pm.');
    await eventually(async () => remote.connections >= 1, 10_000);
    expect((await message(id)).status).toBe('queued');
    remote.mode = 'accept';
    const sent = await settled(id, 'sent');
    expect(remote.connections).toBeGreaterThanOrEqual(2);
    expect(remote.received.map((r) => r.header('message-id'))).toEqual([`<${sent.provider_message_id}>`]);
  });

  it('retries while the server refuses connections, and sends when it is back', async () => {
    const first = await customerWrites('down@example.com', 'Hello');
    await remote.stop();
    const id = await reply(first.enquiry_id, 'We got your email.');
    try {
      // The send job has tried, failed to connect and is waiting to retry: the message is still queued.
      await eventually(async () => {
        const [job] = await t.app.jobs.boss.findJobs(messageSend.name, { id });
        return job && job.retryCount >= 1 && job.state !== 'completed';
      });
      expect((await message(id)).status).toBe('queued');
    } finally {
      await remote.restart();
    }
    const sent = await settled(id, 'sent');
    expect(remote.received.map((r) => r.header('message-id'))).toEqual([`<${sent.provider_message_id}>`]);
  });

  it("marks the original failed with the DSN's diagnostic when a bounce arrives, creating no enquiry", async () => {
    const first = await customerWrites('gone@example.com', 'Quote');
    const sent = await settled(await reply(first.enquiry_id, 'Here is your quote.'), 'sent');
    const enquiriesBefore = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(enquiries);
    const messagesBefore = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(messages);

    const info = await client.sendMail({
      envelope: { from: '', to: [address] },
      raw: deliveryStatusNotification({
        to: address,
        originalMessageId: sent.provider_message_id!,
        recipient: 'gone@example.com',
        diagnostic:
          '550 5.1.1 <gone@example.com>: Recipient address rejected: User unknown in virtual mailbox table',
      }),
    });
    expect(info.response).toMatch(/^250 /);

    const failed = await message(sent.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBe(
      '550 5.1.1 <gone@example.com>: Recipient address rejected: User unknown in virtual mailbox table',
    );
    expect(await t.database.db.select({ n: sql<number>`count(*)::int` }).from(enquiries)).toEqual(
      enquiriesBefore,
    );
    expect(await t.database.db.select({ n: sql<number>`count(*)::int` }).from(messages)).toEqual(
      messagesBefore,
    );
  });

  it('keeps a delivery report that says "delayed" as a warning on the message, which stays sent', async () => {
    const first = await customerWrites('slow@example.com', 'Quote');
    const sent = await settled(await reply(first.enquiry_id, 'Here is your quote.'), 'sent');
    await client.sendMail({
      envelope: { from: '', to: [address] },
      raw: deliveryStatusNotification({
        to: address,
        originalMessageId: sent.provider_message_id!,
        recipient: 'slow@example.com',
        diagnostic: '451 4.4.1 Connection timed out',
        action: 'delayed',
      }),
    });
    const warned = await eventually(async () => {
      const m = await message(sent.id);
      return m.meta.delivery_warning ? m : null;
    });
    expect(warned.status).toBe('sent');
    expect(warned.meta.delivery_warning).toBe('451 4.4.1 Connection timed out');
  });

  it('threads a reply with the customer’s own Message-ID when their email reached two locations', async () => {
    const [here] = await t.database.db.select().from(locations).where(eq(locations.id, loc));
    const [other] = await t.database.db
      .select()
      .from(locations)
      .where(and(eq(locations.business_id, here!.business_id), sql`${locations.id} <> ${loc}`));
    const otherAddress = inboundAddress(t.config.email.inboundDomain, other!.inbound_email_token);
    await client.sendMail({
      from: 'both@example.com',
      to: [address, otherAddress],
      subject: 'Two clinics',
      messageId: '<both.1@mail.example.com>',
      text: 'Which clinic is closer to the station?',
    });
    const atOther = await eventually(async () => {
      const rows = await t.database.db
        .select({ m: messages, location_id: enquiries.location_id })
        .from(messages)
        .innerJoin(enquiries, eq(enquiries.id, messages.enquiry_id))
        .where(eq(messages.provider, 'email'));
      return rows.find((r) => r.location_id === other!.id && r.m.provider_message_id?.startsWith('both.1@'));
    });
    // Stored under a key of its own at the second location; the email out names the real Message-ID.
    expect(atOther.m.provider_message_id).toBe(`both.1@mail.example.com#${other!.inbound_email_token}`);
    const sent = await settled(await reply(atOther.m.enquiry_id, 'The Fitzroy one.'), 'sent');
    const mail = remote.received.find((r) => r.header('message-id') === `<${sent.provider_message_id}>`)!;
    expect(mail.header('in-reply-to')).toBe('<both.1@mail.example.com>');
    expect(mail.header('references')).toBe('<both.1@mail.example.com>');
  });

  it('marks a reply subject once', () => {
    expect(subjectOf('Booking', true)).toBe('Re: Booking');
    expect(subjectOf('RE: Booking', true)).toBe('RE: Booking');
    expect(subjectOf('Booking', false)).toBe('Booking');
  });
});
