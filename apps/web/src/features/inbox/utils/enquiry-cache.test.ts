import { describe, expect, it } from 'vitest';
import type { EnquiryListParams, EnquiryPage, EnquiryRow, Paged } from '../types.ts';
import { findEnquiry, flattenEnquiries, matchesList, patchEnquiry, upsertEnquiry } from './enquiry-cache.ts';

const LOCATION = 'loc-1';
const ME = 'user-me';

function row(id: string, minute: number, over: Partial<EnquiryRow> = {}): EnquiryRow {
  const at = new Date(Date.UTC(2025, 0, 1, 9, minute)).toISOString();
  return {
    id,
    seen: true,
    customer: { name: `Customer ${id}`, phone: null, email: null },
    customer_id: `c-${id}`,
    location_id: LOCATION,
    updated_at: at,
    last_message_at: at,
    title: null,
    channel: 'sms',
    status: 'open',
    assigned_to: null,
    last_message: `hello from ${id}`,
    source: null,
    medium: null,
    campaign: null,
    snoozed_until: null,
    labels: [],
    needs_person: false,
    ai_suggestion: null,
    ...over,
  };
}

function paged(...pages: { items: EnquiryRow[]; has_more: boolean; total?: number | null }[]) {
  return {
    pages: pages.map((p, i) => ({
      items: p.items,
      page: i + 1,
      page_size: 3,
      total: p.total === undefined ? 10 : p.total,
      has_more: p.has_more,
    })),
    pageParams: pages.map((_, i) => i + 1),
  } satisfies Paged<EnquiryPage>;
}

const ids = (data: Paged<EnquiryPage>) => flattenEnquiries(data).map((r) => r.id);

const params = (over: Partial<EnquiryListParams> = {}): EnquiryListParams => ({
  locationId: LOCATION,
  status: 'open',
  view: 'all',
  channels: [],
  ...over,
});

describe('matchesList: does a live enquiry belong in a cached list?', () => {
  it('matches the status tab and location', () => {
    expect(matchesList(row('a', 1), params(), ME)).toBe('match');
    expect(matchesList(row('a', 1, { status: 'closed' }), params(), ME)).toBe('no-match');
    expect(matchesList(row('a', 1, { location_id: 'loc-2' }), params(), ME)).toBe('no-match');
  });

  it('keeps a snoozed enquiry out of the open list until its time, and in the snoozed list', () => {
    const sleeping = row('a', 1, { snoozed_until: new Date(Date.now() + 3_600_000).toISOString() });
    const awake = row('b', 1, { snoozed_until: new Date(Date.now() - 1000).toISOString() });
    expect(matchesList(sleeping, params(), ME)).toBe('no-match');
    expect(matchesList(sleeping, params({ snoozed: true }), ME)).toBe('match');
    expect(matchesList(awake, params(), ME)).toBe('match');
    expect(matchesList(awake, params({ snoozed: true }), ME)).toBe('no-match');
  });

  it('honours the view mode: mine is assigned to me, unassigned has nobody', () => {
    const mine = row('a', 1, { assigned_to: ME });
    const theirs = row('b', 1, { assigned_to: 'someone-else' });
    const nobody = row('c', 1);
    expect([mine, theirs, nobody].map((r) => matchesList(r, params({ view: 'mine' }), ME))).toEqual([
      'match',
      'no-match',
      'no-match',
    ]);
    expect([mine, theirs, nobody].map((r) => matchesList(r, params({ view: 'unassigned' }), ME))).toEqual([
      'no-match',
      'no-match',
      'match',
    ]);
    expect([mine, theirs, nobody].map((r) => matchesList(r, params({ view: 'all' }), ME))).toEqual([
      'match',
      'match',
      'match',
    ]);
  });

  it('honours channels, source and medium filters', () => {
    const email = row('a', 1, { channel: 'email', source: 'google', medium: 'cpc' });
    expect(matchesList(email, params({ channels: ['sms', 'email'] }), ME)).toBe('match');
    expect(matchesList(email, params({ channels: ['sms'] }), ME)).toBe('no-match');
    expect(matchesList(email, params({ source: 'google', medium: 'cpc' }), ME)).toBe('match');
    expect(matchesList(email, params({ source: 'facebook' }), ME)).toBe('no-match');
    expect(matchesList(email, params({ medium: 'organic' }), ME)).toBe('no-match');
  });

  it('honours the assigned-to filter', () => {
    const sams = row('a', 1, { assigned_to: 'sam' });
    expect(matchesList(sams, params({ assigned_to: 'sam' }), ME)).toBe('match');
    expect(matchesList(sams, params({ assigned_to: 'kim' }), ME)).toBe('no-match');
    expect(matchesList(row('b', 1), params({ assigned_to: 'sam' }), ME)).toBe('no-match');
  });

  it('leaves a search or a date range to the server', () => {
    expect(matchesList(row('a', 1), params({ q: 'crown' }), ME)).toBe('unknown');
    expect(matchesList(row('a', 1), params({ start_date: '2025-01-01', end_date: '2025-01-02' }), ME)).toBe(
      'unknown',
    );
    // ...but a row another filter rules out is out whatever the server would say.
    expect(matchesList(row('a', 1, { status: 'closed' }), params({ q: 'crown' }), ME)).toBe('no-match');
  });
});

describe('upsertEnquiry: live rows in the cached list pages', () => {
  const list = () => paged({ items: [row('c', 30), row('b', 20), row('a', 10)], has_more: false, total: 3 });

  it('inserts a new enquiry at the top and counts it', () => {
    const next = upsertEnquiry(list(), row('new', 40), true);
    expect(ids(next)).toEqual(['new', 'c', 'b', 'a']);
    expect(next.pages[0]?.total).toBe(4);
  });

  it('moves an enquiry with new activity to the top', () => {
    const next = upsertEnquiry(list(), row('a', 45, { last_message: 'new reply' }), true);
    expect(ids(next)).toEqual(['a', 'c', 'b']);
    expect(findEnquiry(next, 'a')?.last_message).toBe('new reply');
    expect(next.pages[0]?.total).toBe(3);
  });

  it('moves a row from a later page to the top of the first', () => {
    const data = paged(
      { items: [row('f', 60), row('e', 50), row('d', 40)], has_more: true },
      { items: [row('c', 30), row('b', 20), row('a', 10)], has_more: false },
    );
    const next = upsertEnquiry(data, row('b', 70), true);
    expect(next.pages[0]?.items.map((r) => r.id)).toEqual(['b', 'f', 'e', 'd']);
    expect(next.pages[1]?.items.map((r) => r.id)).toEqual(['c', 'a']);
  });

  it('updates a row in place when its activity time is unchanged (marked read elsewhere)', () => {
    const next = upsertEnquiry(list(), row('b', 20, { seen: false, assigned_to: ME }), true);
    expect(ids(next)).toEqual(['c', 'b', 'a']);
    expect(findEnquiry(next, 'b')).toMatchObject({ seen: false, assigned_to: ME });
  });

  it('removes a row that no longer matches (closed while the Open tab is cached)', () => {
    const next = upsertEnquiry(list(), row('b', 20, { status: 'closed' }), false);
    expect(ids(next)).toEqual(['c', 'a']);
    expect(next.pages[0]?.total).toBe(2);
  });

  it('ignores a non-matching row it never had', () => {
    const data = list();
    expect(upsertEnquiry(data, row('x', 99, { status: 'closed' }), false)).toBe(data);
  });

  it('keeps an old enquiry out when it sorts below the loaded pages and more remain', () => {
    const data = paged({ items: [row('c', 30), row('b', 20)], has_more: true });
    expect(ids(upsertEnquiry(data, row('old', 1), true))).toEqual(['c', 'b']);
  });

  it('appends an old enquiry when every page is loaded', () => {
    const data = paged({ items: [row('c', 30), row('b', 20)], has_more: false });
    expect(ids(upsertEnquiry(data, row('old', 1), true))).toEqual(['c', 'b', 'old']);
  });

  it('leaves totals alone when the server gave none (filtered lists)', () => {
    const data = paged({ items: [row('a', 10)], has_more: false, total: null });
    expect(upsertEnquiry(data, row('b', 20), true).pages[0]?.total).toBeNull();
  });

  it('does not change the input', () => {
    const data = list();
    const before = JSON.stringify(data);
    upsertEnquiry(data, row('a', 45), true);
    upsertEnquiry(data, row('b', 20), false);
    expect(JSON.stringify(data)).toBe(before);
  });
});

describe('patchEnquiry and flattenEnquiries', () => {
  it('marks a row read without moving it', () => {
    const data = paged({
      items: [row('b', 20, { seen: false }), row('a', 10, { seen: false })],
      has_more: false,
    });
    const next = patchEnquiry(data, 'a', { seen: true });
    expect(flattenEnquiries(next).map((r) => [r.id, r.seen])).toEqual([
      ['b', false],
      ['a', true],
    ]);
  });

  it('returns the same object when the row is not cached', () => {
    const data = paged({ items: [row('a', 10)], has_more: false });
    expect(patchEnquiry(data, 'zzz', { seen: true })).toBe(data);
  });

  it('draws a row that two offset pages both returned once', () => {
    const data = paged(
      { items: [row('c', 30), row('b', 20)], has_more: true },
      { items: [row('b', 20), row('a', 10)], has_more: false },
    );
    expect(ids(data)).toEqual(['c', 'b', 'a']);
  });
});
