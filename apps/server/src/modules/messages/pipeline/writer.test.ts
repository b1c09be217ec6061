import { randomUUID } from 'node:crypto';
import { messages } from '@switchboard/db';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../../channels/types.ts';
import { CUSTOMER_MESSAGES, straddling } from '../../../test/hard-texts.ts';
import { createTestApp, DEMO_LOGINS, selectedLocation, type TestApp } from '../../../test/helpers.ts';

/** A batch is as strong as each message in it: one message that cannot be stored fails alone. */
describe('the inbound writer', { timeout: 120_000 }, () => {
  let t: TestApp;
  let loc: string;
  let n = 0;
  const sms = (text: string, extra: Partial<InboundMessage> = {}): InboundMessage => ({
    provider: 'twilio',
    provider_message_id: `SMwriter${String(++n).padStart(8, '0')}`,
    channel: 'sms',
    location_id: loc,
    from: { phone: `+155503100${String(n % 100).padStart(2, '0')}` },
    message: text,
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp();
    loc = await selectedLocation(t, await t.login(DEMO_LOGINS.owner));
  });
  afterAll(() => t.close());

  it('stores every valid message of a batch that also holds messages whose own fields are invalid', async () => {
    const valid = [
      ...CUSTOMER_MESSAGES.slice(0, 4).map((text) => sms(text)),
      // Texts whose derived preview is cut at a wide character, by either way of storing (a name: the full path).
      ...straddling(139).map((text) => sms(text)),
      ...straddling(140).map((text, i) =>
        sms(text, { from: { phone: `+1555032${String(i).padStart(4, '0')}`, name: `Nan ${i}` } }),
      ),
      // A provider's timestamp that is no moment (a missing field) is the arrival time, not a lost message.
      sms('sent at no time at all', { timestamp: new Date(Number.NaN) }),
      sms('sent in the year 200000', { timestamp: new Date(Date.UTC(200_000, 0, 1)) }),
    ];
    const invalid = [
      sms('a location that does not exist', { location_id: randomUUID() }),
      sms('from nobody', { from: {} }),
      sms('a location that is no id', { location_id: 'not-a-location' }),
    ];
    // Handed in together, as one burst: they are written as one batch.
    const all = [
      ...valid.slice(0, 3),
      invalid[0]!,
      ...valid.slice(3, 9),
      invalid[1]!,
      ...valid.slice(9),
      invalid[2]!,
    ];
    const outcomes = await Promise.allSettled(all.map((m) => t.app.inboundWriter.store(m)));

    const failed = all.filter((_, i) => outcomes[i]!.status === 'rejected');
    expect(failed.map((m) => m.message)).toEqual(invalid.map((m) => m.message));
    const rows = await t.database.db
      .select({ id: messages.provider_message_id, text: messages.message })
      .from(messages)
      .where(
        inArray(
          messages.provider_message_id,
          all.map((m) => m.provider_message_id),
        ),
      );
    expect(new Map(rows.map((r) => [r.id, r.text]))).toEqual(
      new Map(valid.map((m) => [m.provider_message_id, m.message])),
    );
  });
});
