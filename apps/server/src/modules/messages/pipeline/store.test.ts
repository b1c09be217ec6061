import { customers, type Database, enquiries, locations, messages } from '@switchboard/db';
import { openTestDatabase } from '@switchboard/db/testing/index';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../../channels/types.ts';
import { type StoreOptions, storeBatch, storeInOneCall } from './store.ts';

/** The one-call path stores what the full path would, and leaves it what it cannot store whole. */
describe('storing an inbound batch in one call', { timeout: 60_000 }, () => {
  let database: Database;
  let locationId: string;
  const businessOf = new Map<string, string>();
  let options: StoreOptions;
  let sid = 0;
  const sms = (from: string, text: string, extra: Partial<InboundMessage> = {}): InboundMessage => ({
    provider: 'twilio',
    provider_message_id: `SMstore${String(++sid).padStart(8, '0')}`,
    channel: 'sms',
    location_id: locationId,
    from: { phone: from },
    message: text,
    ...extra,
  });
  const unassignedOpen = async () => {
    const [l] = await database.db.select().from(locations).where(eq(locations.id, locationId));
    return l!.unassigned_count_open;
  };

  beforeAll(async () => {
    database = await openTestDatabase();
    const [l] = await database.db.select().from(locations).limit(1);
    locationId = l!.id;
    businessOf.set(l!.id, l!.business_id);
    options = { locks: database.engine === 'postgres', reopenSince: new Date(Date.now() - 30 * 86_400_000) };
  }, 60_000);
  afterAll(() => database.close());

  it('creates customers, opens one enquiry per thread counted once, and joins open enquiries after', async () => {
    const before = await unassignedOpen();
    const first = sms('+15550300001', 'one');
    const batch = [
      first,
      sms('+15550300001', 'two', { channel: 'mms' }),
      sms('+15550300002', 'hi', { from: { phone: '+15550300002', name: 'Bea Long' } }),
      { ...first },
    ];
    const stored = await storeInOneCall(database.db, batch, businessOf, options);
    expect(stored.every(Boolean)).toBe(true);
    const [a1, a2, b, again] = stored.map((s) => s!);
    expect([a1!.created, a2!.created, b!.created, again!.created]).toEqual([true, false, true, false]);
    expect(a2!.enquiry.id).toBe(a1!.enquiry.id);
    expect(a2!.message.channel).toBe('sms');
    expect(a2!.enquiry.last_message).toBe('two');
    expect(again!.duplicate).toBe(true);
    expect(again!.message.id).toBe(a1!.message.id);
    expect(b!.enquiry.customer.name).toBe('Bea Long');
    expect(a1!.counts?.unassigned_count_open).toBe(before + 2);
    expect(a2!.counts).toBeNull();

    const [bea] = await database.db.select().from(customers).where(eq(customers.phone, '+15550300002'));
    expect(bea).toMatchObject({ name: 'Bea Long', first_name: 'Bea', external_ids: {} });
    const rows = await database.db
      .select()
      .from(messages)
      .where(inArray(messages.enquiry_id, [a1!.enquiry.id, b!.enquiry.id]));
    expect(rows).toHaveLength(3);

    // The same customer again: the open enquiry, nothing counted.
    const [later] = await storeInOneCall(database.db, [sms('+15550300001', 'three')], businessOf, options);
    expect(later).toMatchObject({ created: false, counts: null, enquiry: { id: a1!.enquiry.id } });
    expect(await unassignedOpen()).toBe(before + 2);
  });

  it('leaves a name or opt-out to record, a stored provider id and a reply to a given enquiry to the full path', async () => {
    const first = sms('+15550300010', 'first');
    const known = await storeInOneCall(database.db, [first], businessOf, options);
    const batch = [
      sms('+15550300010', 'from Al', { from: { phone: '+15550300010', name: 'Al Stone' } }),
      sms('+15550300010', 'and again'),
      sms('+15550300011', 'STOP', { sms_opt: 'out' }),
      { ...sms('+15550300012', 'repeat'), provider_message_id: first.provider_message_id },
      sms('+15550300013', 'new and plain'),
      sms('+15550300014', 'a reply', { enquiry_id: known[0]!.enquiry.id }),
    ];
    const stored = await storeInOneCall(database.db, batch, businessOf, options);
    expect(stored.map(Boolean)).toEqual([false, false, false, false, true, false]);

    const rest = [0, 1, 2, 3, 5].map((i) => batch[i]!);
    const full = await database.db.transaction((tx) => storeBatch(tx, rest, businessOf, options));
    expect(full[0]!.enquiry.customer.name).toBe('Al Stone');
    expect(full[1]!.enquiry.id).toBe(known[0]!.enquiry.id);
    expect(full[3]!.duplicate).toBe(true);
    const [stop] = await database.db.select().from(customers).where(eq(customers.phone, '+15550300011'));
    expect(stop!.sms_opted_out).toBe(true);
  });

  it('leaves a message that reopens a closed enquiry to the full path, and opens one past the window', async () => {
    const [open] = await storeInOneCall(database.db, [sms('+15550300020', 'hello')], businessOf, options);
    await database.db.update(enquiries).set({ status: 'closed' }).where(eq(enquiries.id, open!.enquiry.id));
    const again = sms('+15550300020', 'again');
    expect(await storeInOneCall(database.db, [again], businessOf, options)).toEqual([undefined]);
    const [reopened] = await database.db.transaction((tx) => storeBatch(tx, [again], businessOf, options));
    expect(reopened).toMatchObject({ created: false, reopened: true });
    expect(reopened!.enquiry).toMatchObject({ id: open!.enquiry.id, status: 'open' });

    await database.db.update(enquiries).set({ status: 'closed' }).where(eq(enquiries.id, open!.enquiry.id));
    const later = { ...options, reopenSince: new Date(Date.now() + 60_000) };
    const [next] = await storeInOneCall(database.db, [sms('+15550300020', 'much later')], businessOf, later);
    expect(next).toMatchObject({ created: true, reopened: false });
    expect(next!.enquiry.id).not.toBe(open!.enquiry.id);
  });
});
