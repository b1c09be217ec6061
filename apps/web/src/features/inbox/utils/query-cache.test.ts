import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { sharedQueryKeys } from '../../../lib/query-keys.ts';
import { inboxKeys } from '../api/query-keys.ts';
import type { EnquiryListParams, EnquiryPage, EnquiryRow, MessagePage, Paged } from '../types.ts';
import { flattenEnquiries } from './enquiry-cache.ts';
import { flattenMessages, optimisticMessage } from './message-cache.ts';
import { bumpCounts, writeCounts, writeEnquiry, writeMessage, writeMessageStatus } from './query-cache.ts';

const ME = 'user-sam';
const LOCATION = 'loc-1';

function row(id: string, minute: number, over: Partial<EnquiryRow> = {}): EnquiryRow {
  const at = new Date(Date.UTC(2025, 0, 1, 9, minute)).toISOString();
  return {
    id,
    seen: false,
    customer: { name: id, phone: null, email: null },
    customer_id: `c-${id}`,
    location_id: LOCATION,
    updated_at: at,
    last_message_at: at,
    title: null,
    channel: 'sms',
    status: 'open',
    assigned_to: null,
    last_message: 'hi',
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

const page = (items: EnquiryRow[]): Paged<EnquiryPage> => ({
  pages: [{ items, page: 1, page_size: 30, total: items.length, has_more: false }],
  pageParams: [1],
});

const params = (over: Partial<EnquiryListParams>): EnquiryListParams => ({
  locationId: LOCATION,
  status: 'open',
  view: 'all',
  channels: [],
  ...over,
});

const ids = (client: QueryClient, p: EnquiryListParams) =>
  flattenEnquiries(client.getQueryData<Paged<EnquiryPage>>(inboxKeys.list(p))).map((r) => r.id);

function me(counts: Partial<Record<string, number>> = {}) {
  return {
    id: ME,
    businesses: [
      {
        selected: true,
        locations: [
          {
            id: LOCATION,
            selected: true,
            assigned_count_open: 0,
            assigned_count_closed: 0,
            unassigned_count_open: 0,
            unassigned_count_closed: 0,
            ...counts,
          },
        ],
      },
    ],
  };
}

describe('socket events into the query cache', () => {
  it('loads a list again when an enquiry arrives while it is loading, so the older answer cannot hide it', async () => {
    const client = new QueryClient();
    const open = params({});
    const stale = page([row('old', 1)]);
    const fresh = page([row('new', 2), row('old', 1)]);
    let release: (() => void) | undefined;
    let calls = 0;
    const queryFn = () => {
      const answer = calls === 0 ? stale : fresh;
      calls++;
      // The first load is slow: it was read before the new enquiry was stored.
      return calls === 1
        ? new Promise<Paged<EnquiryPage>>((resolve) => {
            release = () => resolve(answer);
          })
        : Promise.resolve(answer);
    };
    // The inbox on screen: an observer starts the first load.
    const observer = new QueryObserver(client, { queryKey: inboxKeys.list(open), queryFn });
    const stop = observer.subscribe(() => {});
    await vi.waitFor(() => expect(calls).toBe(1));
    writeEnquiry(client, row('new', 2), ME);
    release?.();
    await vi.waitFor(() => expect(ids(client, open)).toEqual(['new', 'old']));
    expect(calls).toBe(2);
    stop();
  });

  it('puts a new enquiry into every cached list it belongs to, and only those', () => {
    const client = new QueryClient();
    const open = params({});
    const closed = params({ status: 'closed' });
    const mine = params({ view: 'mine' });
    const email = params({ channels: ['email'] });
    for (const p of [open, closed, mine, email])
      client.setQueryData(inboxKeys.list(p), page([row('old', 1)]));

    writeEnquiry(client, row('new', 5), ME);

    expect(ids(client, open)).toEqual(['new', 'old']);
    expect(ids(client, closed)).toEqual(['old']);
    expect(ids(client, mine)).toEqual(['old']);
    expect(ids(client, email)).toEqual(['old']);
  });

  it('moves a closed enquiry from the Open list to the Closed list and updates its open detail', () => {
    const client = new QueryClient();
    const open = params({});
    const closed = params({ status: 'closed' });
    client.setQueryData(inboxKeys.list(open), page([row('a', 2), row('b', 1)]));
    client.setQueryData(inboxKeys.list(closed), page([row('z', 0, { status: 'closed' })]));
    client.setQueryData(inboxKeys.detail('a'), row('a', 2));

    writeEnquiry(client, row('a', 2, { status: 'closed' }), ME);

    expect(ids(client, open)).toEqual(['b']);
    expect(ids(client, closed)).toEqual(['a', 'z']);
    expect(client.getQueryData<EnquiryRow>(inboxKeys.detail('a'))?.status).toBe('closed');
  });

  it('patches a searched list in place and asks the server again', () => {
    const client = new QueryClient();
    const searched = params({ q: 'crown' });
    client.setQueryData(inboxKeys.list(searched), page([row('a', 1)]));
    writeEnquiry(client, row('a', 1, { seen: true }), ME);
    const [query] = client.getQueryCache().findAll({ queryKey: inboxKeys.list(searched) });
    expect(flattenEnquiries(query?.state.data as Paged<EnquiryPage>)[0]?.seen).toBe(true);
    expect(query?.state.isInvalidated).toBe(true);
  });

  it('reconciles a sent message with its echo and moves its tick forward', () => {
    const client = new QueryClient();
    const thread: Paged<MessagePage> = {
      pages: [{ items: [], page: 1, page_size: 30, has_more: false }],
      pageParams: [1],
    };
    client.setQueryData(inboxKeys.messages('e1'), thread);
    const mine = optimisticMessage({
      clientId: 'cid',
      enquiryId: 'e1',
      customerId: 'c1',
      channel: 'sms',
      message: 'On our way',
      attachments: [],
      user: { id: ME, fullName: 'Sam Nguyen', avatar: null },
    });
    writeMessage(client, mine);
    writeMessage(client, { ...mine, id: 'm1' });
    writeMessageStatus(client, { ...mine, id: 'm1', status: 'delivered', team_user: null });
    const messages = flattenMessages(client.getQueryData(inboxKeys.messages('e1')));
    expect(messages.map((m) => [m.id, m.status, m.team_user?.full_name])).toEqual([
      ['m1', 'delivered', 'Sam Nguyen'],
    ]);
  });

  it('leaves a thread nobody has open alone', () => {
    const client = new QueryClient();
    writeMessage(
      client,
      optimisticMessage({
        clientId: 'x',
        enquiryId: 'not-open',
        customerId: 'c',
        channel: 'sms',
        message: 'hi',
        attachments: [],
        user: { id: ME, fullName: 'Sam', avatar: null },
      }),
    );
    expect(client.getQueryData(inboxKeys.messages('not-open'))).toBeUndefined();
  });
});

describe('counters in the cache', () => {
  it("takes the server's counts for the inbox and the signed-in user", () => {
    const client = new QueryClient();
    client.setQueryData(sharedQueryKeys.me, me());
    writeCounts(client, {
      location_id: LOCATION,
      assigned_count_open: 1,
      assigned_count_closed: 2,
      unassigned_count_open: 3,
      unassigned_count_closed: 4,
    });
    expect(client.getQueryData(inboxKeys.counts(LOCATION))).toMatchObject({ unassigned_count_open: 3 });
    expect(
      client.getQueryData<ReturnType<typeof me>>(sharedQueryKeys.me)?.businesses[0]?.locations[0],
    ).toMatchObject({
      assigned_count_open: 1,
      unassigned_count_closed: 4,
    });
  });

  it('moves the counts by one while the server answers, never below zero', () => {
    const client = new QueryClient();
    client.setQueryData(sharedQueryKeys.me, me({ unassigned_count_open: 1 }));
    client.setQueryData(inboxKeys.counts(LOCATION), {
      location_id: LOCATION,
      ...me({ unassigned_count_open: 1 }).businesses[0]?.locations[0],
    });
    bumpCounts(
      client,
      { unassigned_count_open: -1, unassigned_count_closed: 1, assigned_count_open: -1 },
      LOCATION,
    );
    expect(client.getQueryData(inboxKeys.counts(LOCATION))).toMatchObject({
      unassigned_count_open: 0,
      unassigned_count_closed: 1,
      assigned_count_open: 0,
    });
    expect(
      client.getQueryData<ReturnType<typeof me>>(sharedQueryKeys.me)?.businesses[0]?.locations[0],
    ).toMatchObject({
      unassigned_count_open: 0,
      unassigned_count_closed: 1,
    });
  });
});
