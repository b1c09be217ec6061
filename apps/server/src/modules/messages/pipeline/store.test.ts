import { customers, type Database, enquiries, jobOutbox, locations, messages } from '@switchboard/db';
import { openTestDatabase } from '@switchboard/db/testing/index';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../../channels/types.ts';
import type { OutboxEntry } from '../../../plugins/jobs.ts';
import { preview } from '../dto.ts';
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

  it("writes each stored message's follow-ups to the outbox with it, the same on both paths, none for a repeat", async () => {
    const followups = (m: InboundMessage, id: string, business: string): OutboxEntry[] =>
      m.message.startsWith('quiet')
        ? []
        : [{ name: 'test.followup', id, data: { text: m.message }, options: { business } }];
    const withFollowups = { ...options, followups };
    const outbox = async (ids: string[]) =>
      (await database.db.select().from(jobOutbox).where(inArray(jobOutbox.id, ids))).map((r) => ({
        id: r.id,
        data: r.data,
        options: r.options,
      }));

    const first = sms('+15550300030', 'answer me');
    const oneCall = await storeInOneCall(
      database.db,
      [first, sms('+15550300031', 'quiet please'), { ...first }],
      businessOf,
      withFollowups,
    );
    const [a, quiet, repeat] = oneCall.map((x) => x!);
    expect(a!.followups).toEqual([
      {
        name: 'test.followup',
        id: a!.message.id,
        data: { text: 'answer me' },
        options: { business: a!.business_id },
      },
    ]);
    expect(quiet!.followups).toEqual([]);
    expect(repeat!.followups).toEqual([]);
    expect(await outbox([a!.message.id, quiet!.message.id])).toEqual([
      { id: a!.message.id, data: { text: 'answer me' }, options: { business: a!.business_id } },
    ]);

    // The full path (a name to record), in its transaction; a provider's repeat of a stored id stages nothing.
    const named = sms('+15550300030', 'from Ann', { from: { phone: '+15550300030', name: 'Ann Pile' } });
    expect(await storeInOneCall(database.db, [named], businessOf, withFollowups)).toEqual([undefined]);
    const [full, again] = await database.db.transaction((tx) =>
      storeBatch(tx, [named, { ...first }], businessOf, withFollowups),
    );
    expect(again!.duplicate).toBe(true);
    expect(again!.followups).toEqual([]);
    expect(full!.followups).toEqual([
      {
        name: 'test.followup',
        id: full!.message.id,
        data: { text: 'from Ann' },
        options: { business: full!.business_id },
      },
    ]);
    expect(await outbox([full!.message.id])).toEqual([
      { id: full!.message.id, data: { text: 'from Ann' }, options: { business: full!.business_id } },
    ]);

    // A transaction that fails stages nothing: the follow-ups go and come with their message.
    const lost = sms('+15550300032', 'rolled back', { from: { phone: '+15550300032', name: 'Rae Back' } });
    let staged: string | undefined;
    await database.db
      .transaction(async (tx) => {
        const [r] = await storeBatch(tx, [lost], businessOf, withFollowups);
        staged = r!.message.id;
        throw new Error('stop');
      })
      .catch(() => undefined);
    expect(staged).toBeDefined();
    expect(await outbox([staged!])).toEqual([]);
  });

  it('stores text whose derived preview would cut an emoji, and gives it the same preview on both paths', async () => {
    // The 139th unit starts an emoji: a cut by units left half of it, which the database refuses in JSON.
    const text = `${'a'.repeat(138)}😀 and the rest of the message`;
    const [one] = await storeInOneCall(database.db, [sms('+15550300040', text)], businessOf, options);
    expect(one!.message.message).toBe(text);
    const named = sms('+15550300041', text, { from: { phone: '+15550300041', name: 'Flo Full' } });
    const [full] = await database.db.transaction((tx) => storeBatch(tx, [named], businessOf, options));
    expect(full!.message.message).toBe(text);
    for (const e of [one!.enquiry, full!.enquiry]) {
      expect(e.last_message).toBe(preview(text, 0));
      expect(e.last_message).toBe(`${'a'.repeat(138)}…`);
    }
  });

  describe('texts and calls from one number are one conversation at the location, on both paths', () => {
    const call = (from: string, extra: Partial<InboundMessage> = {}): InboundMessage => ({
      provider: 'twilio',
      provider_message_id: `CAstore${String(++sid).padStart(8, '0')}`,
      channel: 'phone_call',
      location_id: locationId,
      from: { phone: from },
      message: 'Incoming call',
      meta: { call: { status: 'ringing' } },
      ...extra,
    });
    // The one-call path, and the full path in its transaction (as the writer uses each).
    const paths = {
      'one call': async (batch: InboundMessage[]) => {
        const stored = await storeInOneCall(database.db, batch, businessOf, options);
        expect(stored.every(Boolean)).toBe(true);
        return stored.map((x) => x!);
      },
      full: (batch: InboundMessage[]) =>
        database.db.transaction((tx) => storeBatch(tx, batch, businessOf, options)),
    };
    const openAt = async (phone: string) => {
      const [c] = await database.db.select().from(customers).where(eq(customers.phone, phone));
      return database.db
        .select()
        .from(enquiries)
        .where(and(eq(enquiries.customer_id, c!.id), eq(enquiries.status, 'open')));
    };
    let n = 0;
    const number = () => `+1555031${String(++n).padStart(4, '0')}`;

    describe.each(Object.entries(paths))('%s', (_, store) => {
      it("a text after a call (its voicemail and the business's text back) joins the call's conversation", async () => {
        const phone = number();
        const [rang] = await store([call(phone)]);
        expect(rang!.enquiry.channel).toBe('phone_call');
        const [texted] = await store([sms(phone, 'Sorry I missed you, can I book for Friday?')]);
        expect(texted).toMatchObject({
          created: false,
          enquiry: { id: rang!.enquiry.id, channel: 'phone_call' },
        });
        // The text is stored as the text it is; the conversation's channel stays the one it began on.
        expect(texted!.message.channel).toBe('sms');
        const [picture] = await store([sms(phone, 'a photo', { channel: 'mms' })]);
        expect(picture!.enquiry.id).toBe(rang!.enquiry.id);
        expect(picture!.message.channel).toBe('mms');
        expect(await openAt(phone)).toHaveLength(1);
      });

      it('a call after a text joins the text conversation, and is stored as a call', async () => {
        const phone = number();
        const [texted] = await store([sms(phone, 'Do you take new patients?')]);
        const [rang] = await store([call(phone)]);
        expect(rang).toMatchObject({ created: false, enquiry: { id: texted!.enquiry.id, channel: 'sms' } });
        expect(rang!.message.channel).toBe('phone_call');
        expect(await openAt(phone)).toHaveLength(1);
      });

      it('a call and a text in one batch open one conversation; WhatsApp from the number stays its own', async () => {
        const phone = number();
        const [rang, texted, whatsapp] = await store([
          call(phone),
          sms(phone, 'Just rang you'),
          sms(phone, 'On WhatsApp too', { channel: 'whatsapp', provider: 'meta' }),
        ]);
        expect(rang!.created).toBe(true);
        expect(texted).toMatchObject({ created: false, enquiry: { id: rang!.enquiry.id } });
        expect(texted!.message.channel).toBe('sms');
        expect(whatsapp!.created).toBe(true);
        expect(whatsapp!.enquiry.id).not.toBe(rang!.enquiry.id);
        expect((await openAt(phone)).map((e) => e.channel).sort()).toEqual(['phone_call', 'whatsapp']);
      });
    });

    it('a call from a number whose only open conversation is WhatsApp or email opens the number’s own', async () => {
      const phone = number();
      const [whatsapp] = await paths['one call']([
        sms(phone, 'hello', { channel: 'whatsapp', provider: 'meta' }),
      ]);
      const [rang] = await paths.full([call(phone)]);
      expect(rang!.created).toBe(true);
      expect(rang!.enquiry.id).not.toBe(whatsapp!.enquiry.id);
      const [again] = await paths['one call']([call(phone)]);
      expect(again!.enquiry.id).toBe(rang!.enquiry.id);
    });

    it('a text reopens the conversation a call began when it was closed within the window', async () => {
      const phone = number();
      const [rang] = await paths['one call']([call(phone)]);
      await database.db.update(enquiries).set({ status: 'closed' }).where(eq(enquiries.id, rang!.enquiry.id));
      const text = sms(phone, 'Calling back about my appointment');
      expect(await storeInOneCall(database.db, [text], businessOf, options)).toEqual([undefined]);
      const [reopened] = await paths.full([text]);
      expect(reopened).toMatchObject({ reopened: true, enquiry: { id: rang!.enquiry.id, status: 'open' } });
      expect(reopened!.message.channel).toBe('sms');
    });
  });
});
