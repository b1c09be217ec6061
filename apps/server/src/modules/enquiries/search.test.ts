import { enquiries } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  DEMO_LOGINS,
  getMe,
  inbound,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';
import { searchEnquiryIds } from './search.ts';

type Row = { id: string; customer: { name: string | null } };

describe('the inbox search (q)', () => {
  let t: TestApp;
  let owner: string;
  let north: string;
  let loc: string;
  let northLoc: string;
  let businessId: string;
  const ids: Record<string, string> = {};

  const search = async (q: string, extra = '', token = owner) => {
    const res = await t.request({
      method: 'GET',
      url: `/api/v1/enquiries?q=${encodeURIComponent(q)}${extra}`,
      token,
    });
    expect(res.statusCode, `q=${q}: ${res.body}`).toBe(200);
    return res.json().body as { items: Row[]; total: number | null; has_more: boolean };
  };
  const names = async (q: string, extra = '', token = owner) =>
    (await search(q, extra, token)).items.map((r) => r.customer.name);

  beforeAll(async () => {
    t = await createTestApp();
    owner = await t.login(DEMO_LOGINS.owner);
    north = await t.login(DEMO_LOGINS.northsideOwner);
    loc = await selectedLocation(t, owner);
    northLoc = await selectedLocation(t, north);
    businessId = (await getMe(t, owner)).businesses.find((b) => b.selected)?.id ?? '';

    // Oldest first: the list shows the newest activity first.
    ids.jamie = (
      await inbound(t, owner, {
        location_id: loc,
        from: { phone: '0491 570 006', name: 'Jamie Customer' },
        message: 'Hi, are you open Saturday?',
      })
    ).enquiry_id;
    await inbound(t, owner, { location_id: loc, from: { phone: '+61491570006' }, message: 'Or Sunday?' });
    ids.pat = (
      await inbound(t, owner, {
        channel: 'email',
        location_id: loc,
        from: { email: 'pat@example.com', name: 'Pat Email' },
        message: "Can't make it: 50% off & free whitening!? C:\\Users\\pat",
        subject: 'Invoice for March',
      })
    ).enquiry_id;
    ids.wes = (
      await inbound(t, owner, {
        channel: 'whatsapp',
        location_id: loc,
        from: { phone: '+61491570007', name: 'Wes App' },
        message: 'Need a filling on Saturdays if possible',
      })
    ).enquiry_id;
    ids.northside = (
      await inbound(t, north, {
        location_id: northLoc,
        from: { phone: '+61491570099', name: 'Nora Northside' },
        message: 'Leaking tap, free Saturday morning?',
      })
    ).enquiry_id;
  });
  afterAll(() => t.close());

  it('finds words by their beginning, in any case, all words required, across the messages of an enquiry', async () => {
    expect(await names('satur')).toEqual(['Wes App', 'Jamie Customer']);
    expect(await names('SATURDAY')).toEqual(['Wes App', 'Jamie Customer']);
    expect(await names('saturdays')).toEqual(['Wes App']);
    expect(await names('fill')).toEqual(['Wes App']);
    expect(await names('open satur')).toEqual(['Jamie Customer']);
    // "Saturday" and "Sunday" are in two messages of the same conversation.
    expect(await names('sun sat')).toEqual(['Jamie Customer']);
    expect(await names('saturn')).toEqual([]);
    expect(await names('open filling')).toEqual([]);
  });

  it('finds the business’s replies as well as the customer’s messages', async () => {
    const staff1 = await t.login(DEMO_LOGINS.staff1);
    const reply = await t.request({
      method: 'POST',
      url: `/api/v1/enquiries/${ids.jamie}/messages`,
      token: staff1,
      payload: { message: 'Yes, we open at 8am on Saturdays. Parking is under the building.' },
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect((await search('parki')).items.map((r) => r.id)).toEqual([ids.jamie]);
  });

  it('finds any part of a name, email, phone or title', async () => {
    expect(await names('ami')).toEqual(['Jamie Customer']);
    expect(await names('pat@exam')).toEqual(['Pat Email']);
    expect(await names('EXAMPLE.COM')).toEqual(['Pat Email']);
    // Jamie's enquiry has the newest activity since the reply.
    expect(await names('+614915700')).toEqual(['Jamie Customer', 'Wes App']);
    // As people type a local number: spaces, dashes, the trunk 0.
    expect(await names('0491 570 006')).toEqual(['Jamie Customer']);
    expect(await names('570-007')).toEqual(['Wes App']);
    expect(await names('for marc')).toEqual(['Pat Email']);
  });

  it('takes punctuation and query syntax as plain text, never an error', async () => {
    for (const q of [
      "'",
      '&',
      ':',
      '!',
      '%',
      '_',
      '\\',
      '|',
      '(',
      ')',
      '<->',
      ':*',
      "''",
      '!!!',
      "'; drop table enquiries; --",
      'a & b | !c',
      'satur:* | open',
      '\\%',
      '%_%',
      '"quoted"',
      '😀',
      'x'.repeat(200),
    ]) {
      await search(q);
    }
    // LIKE wildcards are literal: no name, email, phone, title or word contains them.
    expect(await names('%')).toEqual([]);
    expect(await names('_')).toEqual([]);
    expect(await names('%_%')).toEqual([]);
    // Only what is written counts, punctuation aside.
    expect(await names('50%')).toEqual(['Pat Email']);
    expect(await names("can't")).toEqual(['Pat Email']);
    expect(await names('free & whiten')).toEqual(['Pat Email']);
    expect(await names('users\\pat')).toEqual(['Pat Email']);
    expect(await names('satur:* | open')).toEqual(['Jamie Customer']);
    expect(await names('!!!')).toEqual([]);
  });

  it('never shows another business’s enquiries', async () => {
    expect(await names('satur', '', north)).toEqual(['Nora Northside']);
    expect(await names('leak')).toEqual([]);
    expect(await names('nora')).toEqual([]);
    expect(await names('+61491570099')).toEqual([]);
    expect(await names('pat@example', '', north)).toEqual([]);
    expect(await names('jamie', '', north)).toEqual([]);
    // Nor through another business's location id.
    const res = await t.request({
      method: 'GET',
      url: `/api/v1/enquiries?q=satur&location_id=${northLoc}`,
      token: owner,
    });
    expect(res.statusCode).toBe(404);
  });

  it('keeps the list’s order, paging and other filters', async () => {
    const first = await search('satur', '&page_size=1');
    expect(first.items.map((r) => r.id)).toEqual([ids.jamie]);
    expect(first).toMatchObject({ has_more: true, total: null });
    const second = await search('satur', '&page_size=1&page=2');
    expect(second.items.map((r) => r.id)).toEqual([ids.wes]);
    expect(second.has_more).toBe(false);
    expect((await search('satur', '&page_size=1&page=3')).items).toEqual([]);
    expect(await names('satur', '&channels=sms')).toEqual(['Jamie Customer']);
    expect(await names('satur', '&status=closed')).toEqual([]);

    // A new message moves its enquiry to the top of the results too.
    await inbound(t, owner, {
      channel: 'whatsapp',
      location_id: loc,
      from: { phone: '+61491570007' },
      message: 'Still there?',
    });
    expect(await names('satur')).toEqual(['Wes App', 'Jamie Customer']);
  });

  it('answers the same whichever way it finds the matches', async () => {
    const where = [
      eq(enquiries.business_id, businessId),
      eq(enquiries.location_id, loc),
      eq(enquiries.status, 'open'),
    ];
    for (const q of ['satur', 'pat@exam', '0491 570 006', 'ami', 'fitzgerald', "can't", '%']) {
      const base = { businessId, where, q, needed: 3 };
      const collected = await searchEnquiryIds(t.database.db, base);
      // Collecting gives up at once (a common word), then the newest enquiries are read in order...
      expect(await searchEnquiryIds(t.database.db, { ...base, setLimit: 0 }), q).toEqual(collected);
      // ...and when reading does not settle it either, every match is collected.
      expect(await searchEnquiryIds(t.database.db, { ...base, setLimit: 0, window: 1 }), q).toEqual(
        collected,
      );
    }
    const satur = { businessId, where, q: 'satur', needed: 3 };
    expect(await searchEnquiryIds(t.database.db, satur)).toEqual([ids.wes, ids.jamie]);
    expect(await searchEnquiryIds(t.database.db, { ...satur, setLimit: 0, window: 1 })).toEqual([
      ids.wes,
      ids.jamie,
    ]);
  });
});
