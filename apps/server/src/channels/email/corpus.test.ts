import { readFileSync } from 'node:fs';
import { customers, enquiries, locations, messages } from '@switchboard/db';
import { and, eq, notInArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  DEMO_LOGINS,
  eventually,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';
import { smtpClient } from './testing.ts';

/**
 * Real emails from public test corpora (corpus/README.md), each delivered raw over SMTP to a location's inbound
 * address and checked against what a reader of its bytes says it must become (corpus/expectations.json).
 */

type Expectation = {
  file: string;
  kind: 'person' | 'automatic' | 'bounce';
  bounce?: { hard: boolean; original_message_id: string };
  customer?: string;
  subject?: string;
  text_includes?: string[];
  attachments?: { name: string; empty: boolean }[];
};

const CORPUS = new URL('./corpus/', import.meta.url);
const expectations: Expectation[] = JSON.parse(readFileSync(new URL('expectations.json', CORPUS), 'utf8'));

/** Messages the product still gets wrong, by file: skipped with the reason (see corpus/README.md). */
const KNOWN: Record<string, string> = {};

/** Text as a reader compares it: one Unicode form, any run of whitespace as one space. */
const normalise = (s: string) => s.normalize('NFC').replace(/\s+/g, ' ').trim();

describe('the email corpus: real messages become what their bytes say', () => {
  let t: TestApp;
  let loc: string;
  let businessId: string;
  let address: string;
  let client: ReturnType<typeof smtpClient>;

  beforeAll(async () => {
    t = await createTestApp({ SMTP_PORT: '0' });
    await t.app.smtp.start();
    const owner = await t.login(DEMO_LOGINS.owner);
    loc = await selectedLocation(t, owner);
    const res = await t.request({
      method: 'GET',
      url: `/api/v1/email/inbound-address?location_id=${loc}`,
      token: owner,
    });
    expect(res.statusCode, res.body).toBe(200);
    address = res.json().body.address;
    const [l] = await t.database.db.select().from(locations).where(eq(locations.id, loc));
    businessId = l!.business_id;
    client = smtpClient(t.app.smtp.port);
  }, 120_000);
  afterAll(async () => {
    client?.close();
    await t?.close();
  });

  const deliver = async (file: string, from: string) => {
    const raw = readFileSync(new URL(file, CORPUS));
    const info = await client.sendMail({ envelope: { from, to: [address] }, raw });
    expect(info.response).toMatch(/^250 /);
  };
  const inboundIds = async () =>
    (await t.database.db.select({ id: messages.id }).from(messages).where(eq(messages.direction, 'in'))).map(
      (r) => r.id,
    );

  /** An email the business sent in an enquiry of its own, which the bounce is about. */
  const sentOriginal = async (providerMessageId: string) => {
    const [customer] = await t.database.db
      .insert(customers)
      .values({ business_id: businessId, email: `to.${providerMessageId.toLowerCase()}`.slice(0, 60) })
      .returning();
    const [enquiry] = await t.database.db
      .insert(enquiries)
      .values({ business_id: businessId, location_id: loc, customer_id: customer!.id, channel: 'email' })
      .returning();
    const [m] = await t.database.db
      .insert(messages)
      .values({
        business_id: businessId,
        enquiry_id: enquiry!.id,
        customer_id: customer!.id,
        channel: 'email',
        direction: 'out',
        message: 'Here is your quote.',
        status: 'sent',
        provider: 'email',
        provider_message_id: providerMessageId,
      })
      .returning();
    return m!;
  };
  /** Inbound messages stored since `before` was taken. */
  const newInbound = async (before: string[]) =>
    t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.direction, 'in'), before.length ? notInArray(messages.id, before) : undefined));
  const message = async (id: string) => {
    const [m] = await t.database.db.select().from(messages).where(eq(messages.id, id));
    return m!;
  };

  const bounces = expectations.filter((e) => e.kind === 'bounce' && !KNOWN[e.file]);
  const mails = expectations.filter((e) => e.kind !== 'bounce' && !KNOWN[e.file]);

  it.each(bounces)('$file: a bounce marks the email it names, and stores nothing', async (e) => {
    const bounce = e.bounce!;
    const original = await sentOriginal(bounce.original_message_id);
    const before = await inboundIds();
    await deliver(e.file, '');

    if (bounce.hard) {
      const failed = await eventually(async () => {
        const m = await message(original.id);
        return m.status === 'failed' && m;
      });
      expect(failed.error).toEqual(expect.any(String));
      expect(failed.error!.trim()).not.toBe('');
    } else {
      const warned = await eventually(async () => {
        const m = await message(original.id);
        return m.meta.delivery_warning !== undefined && m;
      });
      expect(warned.status).toBe('sent');
      expect(warned.meta.delivery_warning).toEqual(expect.any(String));
      expect(String(warned.meta.delivery_warning).trim()).not.toBe('');
    }
    expect(await newInbound(before)).toEqual([]);
  });

  it.each(mails)('$file: stored as the $kind message its bytes say', async (e) => {
    const before = await inboundIds();
    await deliver(e.file, 'corpus-sender@example.net');

    const rows = await newInbound(before);
    expect(rows).toHaveLength(1);
    const m = rows[0]!;
    expect(m.direction).toBe('in');
    const [enquiry] = await t.database.db.select().from(enquiries).where(eq(enquiries.id, m.enquiry_id));
    expect(enquiry!.location_id).toBe(loc);

    const text = normalise(m.message);
    for (const phrase of e.text_includes ?? []) expect(text).toContain(normalise(phrase));
    if (e.subject !== undefined) expect(m.meta.subject).toBe(e.subject);
    expect(m.meta.auto_submitted === true).toBe(e.kind === 'automatic');
    if (e.customer !== undefined) {
      const [c] = await t.database.db.select().from(customers).where(eq(customers.id, m.customer_id));
      expect(c!.email).toBe(e.customer);
    }
    const names = m.attachments.map((a) => a.name);
    const skipped = (m.meta.skipped_attachments ?? []) as { name: string; reason: string }[];
    for (const a of e.attachments ?? []) {
      if (a.empty) expect(skipped).toContainEqual(expect.objectContaining({ name: a.name, reason: 'empty' }));
      else expect(names).toContain(a.name);
    }
  });

  it.skip.each(expectations.filter((e) => KNOWN[e.file]))('$file: known fault (corpus/README.md)', () => {});
});
