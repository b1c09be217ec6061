import { readFileSync } from 'node:fs';
import { customers, enquiries, locations, messages, uploads } from '@switchboard/db';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readUpload } from '../../lib/storage.ts';
import { createTestApp, DEMO_LOGINS, selectedLocation, type TestApp } from '../../test/helpers.ts';
import { inboundAddress, replyToken } from './address.ts';
import { smtpClient } from './testing.ts';

const FIXTURE = new URL('./fixtures/inbound-reply.eml', import.meta.url).pathname;

// A real 1×1 PNG: the bytes say what they are, whatever the sender declares.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c49444154789c63f8cfc00000030101' +
    '00f70341430000000049454e44ae426082',
  'hex',
);

type Msg = typeof messages.$inferSelect;

describe('email in: the SMTP server stores what customers send', () => {
  let t: TestApp;
  let owner: string;
  let loc: string;
  let address: string;
  let client: ReturnType<typeof smtpClient>;

  const stored = async (messageId: string) =>
    t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.provider, 'email'), eq(messages.provider_message_id, messageId)));
  const enquiry = async (id: string) => {
    const [e] = await t.database.db.select().from(enquiries).where(eq(enquiries.id, id));
    return e!;
  };
  /** Moves an enquiry's last message past the reopen window. */
  const age = (id: string) =>
    t.database.db
      .update(enquiries)
      .set({ last_message_at: sql`now() - interval '31 days'` })
      .where(eq(enquiries.id, id));

  const onlyMessage = async (messageId: string): Promise<Msg> => {
    const rows = await stored(messageId);
    expect(rows).toHaveLength(1);
    return rows[0]!;
  };
  const close = async (enquiryId: string) => {
    const res = await t.request({
      method: 'PATCH',
      url: `/api/v1/enquiries/${enquiryId}`,
      token: owner,
      payload: { status: 'closed' },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const counts = async () => {
    const [l] = await t.database.db.select().from(locations).where(eq(locations.id, loc));
    return { open: l!.unassigned_count_open, closed: l!.unassigned_count_closed };
  };

  beforeAll(async () => {
    t = await createTestApp({ SMTP_PORT: '0' });
    await t.app.smtp.start();
    owner = await t.login(DEMO_LOGINS.owner);
    loc = await selectedLocation(t, owner);
    const res = await t.request({
      method: 'GET',
      url: `/api/v1/email/inbound-address?location_id=${loc}`,
      token: owner,
    });
    expect(res.statusCode, res.body).toBe(200);
    address = res.json().body.address;
    client = smtpClient(t.app.smtp.port);
  }, 120_000);
  afterAll(async () => {
    client?.close();
    await t?.close();
  });

  it("gives each location a stable, random address at the inbound domain, to that business's staff only", async () => {
    expect(address).toMatch(/^loc-[0-9a-f]{16}@inbound\.switchboard\.local$/);
    const again = await t.request({ method: 'GET', url: '/api/v1/email/inbound-address', token: owner });
    expect(again.json().body).toEqual({ location_id: loc, address });

    const northside = await t.login(DEMO_LOGINS.northsideOwner);
    const theirs = await t.request({
      method: 'GET',
      url: `/api/v1/email/inbound-address?location_id=${loc}`,
      token: northside,
    });
    expect(theirs.statusCode).toBe(404);
    const anonymous = await t.request({ method: 'GET', url: '/api/v1/email/inbound-address' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('turns a multipart email with attachments into an enquiry titled by its subject, stored before the 250', async () => {
    const info = await client.sendMail({
      from: '"Kim Lee" <Kim.Lee@Example.com>',
      to: address,
      subject: 'Chipped tooth – can I come in today?',
      messageId: '<first.0001@mail.example.com>',
      text: 'Hi, I chipped a tooth at lunch. Photo attached.\n\nKim',
      html: '<p onclick="steal()">Hi, I chipped a tooth at lunch.<script>steal()</script></p><img src="https://tracker.example/p.gif"><p>Kim</p>',
      attachments: [
        // Declared as a PDF: the bytes are a PNG, and the stored type follows the bytes.
        { filename: 'tooth.png', content: PNG, contentType: 'application/pdf' },
        { filename: 'notes.txt', content: 'Pain: 3/10\nSince: 12:30\n', contentType: 'text/plain' },
        { filename: 'page.html', content: '<script>alert(1)</script>', contentType: 'text/html' },
      ],
    });
    expect(info.response).toMatch(/^250 /);

    // No waiting: the 250 came after the message was committed.
    const m = await onlyMessage('first.0001@mail.example.com');
    expect(m).toMatchObject({ direction: 'in', channel: 'email', status: 'received' });
    expect(m.message).toBe('Hi, I chipped a tooth at lunch. Photo attached.\n\nKim');
    expect(m.meta).toMatchObject({
      subject: 'Chipped tooth – can I come in today?',
      from: 'kim.lee@example.com',
      from_name: 'Kim Lee',
      to: address,
      message_id: 'first.0001@mail.example.com',
    });
    expect(m.meta.html).toBe('<p>Hi, I chipped a tooth at lunch.</p><p>Kim</p>');

    const e = await enquiry(m.enquiry_id);
    expect(e).toMatchObject({
      title: 'Chipped tooth – can I come in today?',
      channel: 'email',
      status: 'open',
    });
    const [c] = await t.database.db.select().from(customers).where(eq(customers.id, m.customer_id));
    expect(c).toMatchObject({ email: 'kim.lee@example.com', name: 'Kim Lee', first_name: 'Kim' });

    expect(m.attachments.map((a) => [a.name, a.content_type, a.size])).toEqual([
      ['tooth.png', 'image/png', PNG.length],
      ['notes.txt', 'text/plain', 24],
      ['page.html', 'text/plain', 25],
    ]);
    const [upload] = await t.database.db.select().from(uploads).where(eq(uploads.id, m.attachments[0]!.id));
    expect(upload).toMatchObject({
      business_id: m.business_id,
      name: 'tooth.png',
      content_type: 'image/png',
    });
    expect(await readUpload(t.config, upload!)).toEqual(PNG);
    expect(m.attachments[0]!.url).toBe(`/api/v1/uploads/${upload!.id}/content`);
  });

  it('stores a message delivered twice (same Message-ID) once, and acknowledges both deliveries', async () => {
    const mail = {
      from: 'dup@example.com',
      to: address,
      subject: 'Twice',
      messageId: '<dup.0001@mail.example.com>',
      text: 'Sent twice by a retrying server',
      attachments: [{ filename: 'a.png', content: PNG }],
    };
    const uploadsBefore = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(uploads);
    expect((await client.sendMail(mail)).response).toMatch(/^250 /);
    expect((await client.sendMail(mail)).response).toMatch(/^250 /);
    await onlyMessage('dup.0001@mail.example.com');
    const uploadsAfter = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(uploads);
    expect(uploadsAfter[0]!.n - uploadsBefore[0]!.n).toBe(1);
  });

  it('rejects an unknown recipient with 550 and stores nothing', async () => {
    const unknown = 'loc-0000000000000000@inbound.switchboard.local';
    const error = await client
      .sendMail({
        from: 'who@example.com',
        to: unknown,
        subject: 'x',
        text: 'x',
        messageId: '<unk@x.example>',
      })
      .catch((e: { responseCode?: number; response?: string }) => e);
    expect(error).toMatchObject({ responseCode: 550 });
    expect(String((error as { response?: string }).response)).toContain('5.1.1');

    const elsewhere = await client
      .sendMail({
        from: 'who@example.com',
        to: 'someone@example.org',
        text: 'x',
        messageId: '<unk2@x.example>',
      })
      .catch((e: { responseCode?: number }) => e);
    expect(elsewhere).toMatchObject({ responseCode: 550 });
    expect(await stored('unk@x.example')).toHaveLength(0);
    expect(await stored('unk2@x.example')).toHaveLength(0);
  });

  it('threads a reply by In-Reply-To into its enquiry, reopening it when it was closed', async () => {
    await client.sendMail({
      from: 'ari@example.com',
      to: address,
      subject: 'Invoice question',
      messageId: '<thread.0001@mail.example.com>',
      text: 'Why was I charged twice?',
    });
    const first = await onlyMessage('thread.0001@mail.example.com');
    await close(first.enquiry_id);
    const before = await counts();

    await client.sendMail({
      from: 'ari@example.com',
      to: address,
      subject: 'Re: Invoice question',
      messageId: '<thread.0002@mail.example.com>',
      inReplyTo: '<thread.0001@mail.example.com>',
      references: ['<thread.0001@mail.example.com>'],
      text: 'Any news?\n\nOn Mon, 5 Jan 2026, Ari wrote:\n> Why was I charged twice?\n',
    });
    const reply = await onlyMessage('thread.0002@mail.example.com');
    expect(reply.enquiry_id).toBe(first.enquiry_id);
    expect(reply.message).toBe('Any news?');
    expect(reply.meta.quoted_text).toBe('On Mon, 5 Jan 2026, Ari wrote:\n> Why was I charged twice?');
    expect((await enquiry(first.enquiry_id)).status).toBe('open');
    expect(await counts()).toEqual({ open: before.open + 1, closed: before.closed - 1 });

    // Without threading headers, mail after a close goes where any channel's would: into the enquiry it
    // reopens within the window, into a new one after it.
    await close(first.enquiry_id);
    await client.sendMail({
      from: 'ari@example.com',
      to: address,
      subject: 'New question',
      messageId: '<thread.0003@mail.example.com>',
      text: 'Different topic',
    });
    expect((await onlyMessage('thread.0003@mail.example.com')).enquiry_id).toBe(first.enquiry_id);
    await close(first.enquiry_id);
    await age(first.enquiry_id);
    await client.sendMail({
      from: 'ari@example.com',
      to: address,
      subject: 'Another question',
      messageId: '<thread.0004@mail.example.com>',
      text: 'Months later',
    });
    expect((await onlyMessage('thread.0004@mail.example.com')).enquiry_id).not.toBe(first.enquiry_id);
  });

  it('threads a reply by the reply token in its plus-address when the headers are gone; a forged token is ignored', async () => {
    await client.sendMail({
      from: 'bo@example.com',
      to: address,
      subject: 'Parking',
      messageId: '<plus.0001@mail.example.com>',
      text: 'Is there parking?',
    });
    const first = await onlyMessage('plus.0001@mail.example.com');
    await close(first.enquiry_id);
    const [l] = await t.database.db.select().from(locations).where(eq(locations.id, loc));
    const replyTo = inboundAddress(
      t.config.email.inboundDomain,
      l!.inbound_email_token,
      replyToken(t.config.encryptionKey, first.enquiry_id),
    );

    await client.sendMail({
      from: 'bo@example.com',
      to: replyTo,
      subject: 'Re: Parking',
      messageId: '<plus.0002@mail.example.com>',
      text: 'Thanks!',
    });
    expect((await onlyMessage('plus.0002@mail.example.com')).enquiry_id).toBe(first.enquiry_id);

    // Past the reopen window a reply token still finds its enquiry; a forged one is ignored, so the mail
    // opens a new enquiry as any other would.
    await close(first.enquiry_id);
    await age(first.enquiry_id);
    await client.sendMail({
      from: 'bo@example.com',
      to: replyTo,
      subject: 'Re: Parking',
      messageId: '<plus.0003a@mail.example.com>',
      text: 'Me again',
    });
    expect((await onlyMessage('plus.0003a@mail.example.com')).enquiry_id).toBe(first.enquiry_id);
    await close(first.enquiry_id);
    await age(first.enquiry_id);
    const forged = replyTo.replace(/.@/, (last) => (last === 'a@' ? 'b@' : 'a@'));
    await client.sendMail({
      from: 'bo@example.com',
      to: forged,
      subject: 'Re: Parking',
      messageId: '<plus.0003@mail.example.com>',
      text: 'One more thing',
    });
    expect((await onlyMessage('plus.0003@mail.example.com')).enquiry_id).not.toBe(first.enquiry_id);
  });

  it('a website form relayed from no-reply: the person in Reply-To is the customer, and every file is accounted for', async () => {
    const info = await client.sendMail({
      from: '"Website Forms" <no-reply@forms.example>',
      replyTo: '"Ana Souza" <Ana.Souza@example.org>',
      to: address,
      subject: 'New enquiry from your website',
      messageId: '<form.0001@forms.example>',
      html: '<h2>New enquiry</h2><table><tr><td>Name</td><td>Ana Souza</td></tr><tr><td>Message</td><td>Do you see children on Saturdays?</td></tr></table>',
      attachments: [
        { filename: 'referral.pdf', content: Buffer.alloc(0), contentType: 'application/pdf' },
        { filename: 'x-ray.png', content: PNG, contentType: 'image/png' },
      ],
    });
    expect(info.response).toMatch(/^250 /);
    const m = await onlyMessage('form.0001@forms.example');
    // HTML only: its words are the message, so the list, search and the assistant see them.
    expect(m.message).toContain('Do you see children on Saturdays?');
    expect(m.meta).toMatchObject({
      from: 'ana.souza@example.org',
      from_name: 'Ana Souza',
      sent_by: 'no-reply@forms.example',
      html_fuller: true,
      skipped_attachments: [{ name: 'referral.pdf', size: 0, reason: 'empty' }],
    });
    expect(m.attachments.map((a) => a.name)).toEqual(['x-ray.png']);
    const [c] = await t.database.db.select().from(customers).where(eq(customers.id, m.customer_id));
    expect(c).toMatchObject({ email: 'ana.souza@example.org', name: 'Ana Souza' });
    const [e] = await t.database.db.select().from(enquiries).where(eq(enquiries.id, m.enquiry_id));
    expect(e!.last_message_preview).toContain('New enquiry');
  });

  it("does not thread into another customer's enquiry even with its Message-ID", async () => {
    await client.sendMail({
      from: 'cy@example.com',
      to: address,
      subject: 'Mine',
      messageId: '<other.0001@mail.example.com>',
      text: 'Private',
    });
    const theirs = await onlyMessage('other.0001@mail.example.com');
    await client.sendMail({
      from: 'intruder@example.net',
      to: address,
      subject: 'Re: Mine',
      messageId: '<other.0002@mail.example.net>',
      inReplyTo: '<other.0001@mail.example.com>',
      text: 'Let me in',
    });
    expect((await onlyMessage('other.0002@mail.example.net')).enquiry_id).not.toBe(theirs.enquiry_id);
  });

  describe.each([FIXTURE])('the inbound-reply fixture (%s)', (path) => {
    it('parses subject, threading headers, text without the quote, safe HTML and the PNG, into its thread', async () => {
      // The app sent msg_0002 in an enquiry with this customer, which has since been closed.
      const customerEmail = 'jordan.lee@mail.example.com';
      const [l] = await t.database.db.select().from(locations).where(eq(locations.id, loc));
      const [customer] = await t.database.db
        .insert(customers)
        .values({ business_id: l!.business_id, email: customerEmail, name: 'Jordan Lee' })
        .returning();
      const [e] = await t.database.db
        .insert(enquiries)
        .values({
          business_id: l!.business_id,
          location_id: loc,
          customer_id: customer!.id,
          channel: 'email',
          title: 'Your booking on Friday – confirmation #1042',
          status: 'closed',
        })
        .returning();
      await t.database.db.insert(messages).values({
        business_id: l!.business_id,
        enquiry_id: e!.id,
        customer_id: customer!.id,
        channel: 'email',
        direction: 'out',
        message: 'See you at 10am.',
        status: 'sent',
        provider: 'email',
        provider_message_id: 'msg_0002.1767225600@app.example.com',
      });
      await t.database.db
        .update(locations)
        .set({ unassigned_count_closed: sql`${locations.unassigned_count_closed} + 1` })
        .where(eq(locations.id, loc));

      const raw = readFileSync(path);
      const info = await client.sendMail({ envelope: { from: customerEmail, to: [address] }, raw });
      expect(info.response).toMatch(/^250 /);

      const m = await onlyMessage('CAFixture.reply.0003@mail.example.com');
      expect(m.enquiry_id).toBe(e!.id);
      expect((await enquiry(e!.id)).status).toBe('open');
      expect(m.meta).toMatchObject({
        subject: 'Re: Your booking on Friday – confirmation #1042',
        from: customerEmail,
        in_reply_to: 'msg_0002.1767225600@app.example.com',
      });
      expect(m.message).toContain('—');
      expect(m.message).toContain('café');
      expect(m.message).not.toMatch(/^>/m);
      expect(String(m.meta.quoted_text)).toMatch(/^On .* wrote:\n> /);
      expect(String(m.meta.html)).toContain('<blockquote>');
      expect(String(m.meta.html)).not.toMatch(/type=|dir=|class=/);
      expect(m.attachments).toMatchObject([{ name: 'receipt.png', content_type: 'image/png', size: 69 }]);
      const [upload] = await t.database.db.select().from(uploads).where(eq(uploads.id, m.attachments[0]!.id));
      const bytes = await readUpload(t.config, upload!);
      expect(bytes!.subarray(0, 8)).toEqual(Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'));
    });
  });
});
