import type { QueryClient, QueryKey } from '@tanstack/react-query';
// Relative, not '@/…', so the unit tests (plain Vitest, no path aliases) can load this module.
import { sharedQueryKeys } from '../../../lib/query-keys.ts';
import { inboxKeys } from '../api/query-keys.ts';
import type {
  EnquiryListParams,
  EnquiryPage,
  EnquiryRow,
  LocationCounts,
  MessageDto,
  MessagePage,
  Paged,
} from '../types.ts';
import {
  applyCounterChanges,
  bumpMeCounters,
  type CounterChanges,
  type MeLike,
  setMeLocationCounts,
} from './counters.ts';
import { matchesList, patchEnquiry, upsertEnquiry } from './enquiry-cache.ts';
import { removeMessage, updateMessage, upsertMessage } from './message-cache.ts';

// The glue between the pure cache functions and TanStack Query: socket events and optimistic updates both
// come through here, so a reply sent from this tab and one seen arriving from another land the same way.

/** A changed or new enquiry, into every cached list (by that list's filters) and its own detail. */
export function writeEnquiry(queryClient: QueryClient, row: EnquiryRow, userId: string): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: inboxKeys.lists() })) {
    const key = query.queryKey;
    const data = query.state.data as Paged<EnquiryPage> | undefined;
    const match = data ? matchesList(row, key[2] as EnquiryListParams, userId) : null;
    if (data && match) {
      queryClient.setQueryData(
        key,
        match === 'unknown' ? patchEnquiry(data, row.id, row) : upsertEnquiry(data, row, match === 'match'),
      );
    }
    // A list being loaded may have been read before this change, and its answer would overwrite it: it loads
    // again. A search or date range is the server's to answer: it asks again.
    if (query.state.fetchStatus === 'fetching') loadAgain(queryClient, key);
    else if (match === 'unknown') void queryClient.invalidateQueries({ queryKey: key, exact: true });
  }
  const detail = queryClient.getQueryCache().find({ queryKey: inboxKeys.detail(row.id), exact: true });
  if (detail?.state.data) queryClient.setQueryData(inboxKeys.detail(row.id), row);
  // The enquiry being opened right now was read before this change: its answer would undo it on screen.
  if (detail?.state.fetchStatus === 'fetching') loadAgain(queryClient, inboxKeys.detail(row.id));
}

/**
 * Loads a query again from scratch: the fetch in flight is dropped first, since its answer may predate a
 * change just written (and a first load in flight would otherwise be reused as is).
 */
function loadAgain(queryClient: QueryClient, key: QueryKey): void {
  void queryClient
    .cancelQueries({ queryKey: key, exact: true })
    .then(() => queryClient.invalidateQueries({ queryKey: key, exact: true }));
}

/** Whether the query is loading right now (its answer may not include what an event just told us). */
const isFetching = (queryClient: QueryClient, key: QueryKey) =>
  queryClient.getQueryState(key)?.fetchStatus === 'fetching';

/** A field or two of an enquiry (marking it read), changed in place wherever it is cached. */
export function patchCachedEnquiry(queryClient: QueryClient, id: string, patch: Partial<EnquiryRow>): void {
  queryClient.setQueriesData<Paged<EnquiryPage>>({ queryKey: inboxKeys.lists() }, (data) =>
    data ? patchEnquiry(data, id, patch) : data,
  );
  queryClient.setQueryData<EnquiryRow>(inboxKeys.detail(id), (row) => (row ? { ...row, ...patch } : row));
}

/** A new message, or a new copy of one (the send's echo): into its thread if that thread is cached. */
export function writeMessage(queryClient: QueryClient, message: MessageDto): void {
  const key = inboxKeys.messages(message.enquiry_id);
  queryClient.setQueryData<Paged<MessagePage>>(key, (data) => (data ? upsertMessage(data, message) : data));
  if (isFetching(queryClient, key)) loadAgain(queryClient, key);
}

/** A status change (sent, delivered, read, failed) for a message in a cached thread. */
export function writeMessageStatus(queryClient: QueryClient, message: MessageDto): void {
  const key = inboxKeys.messages(message.enquiry_id);
  queryClient.setQueryData<Paged<MessagePage>>(key, (data) => (data ? updateMessage(data, message) : data));
  if (isFetching(queryClient, key)) loadAgain(queryClient, key);
}

export function dropOptimisticMessage(queryClient: QueryClient, enquiryId: string, clientId: string): void {
  queryClient.setQueryData<Paged<MessagePage>>(inboxKeys.messages(enquiryId), (data) =>
    data ? removeMessage(data, clientId) : data,
  );
}

/** The server's exact counters: the inbox's copy and the signed-in user's. */
export function writeCounts(queryClient: QueryClient, counts: LocationCounts): void {
  queryClient.setQueryData(inboxKeys.counts(counts.location_id), counts);
  // The sums over every location are read again.
  void queryClient.invalidateQueries({ queryKey: inboxKeys.counts('all'), exact: true });
  queryClient.setQueryData<MeLike>(sharedQueryKeys.me, (me) => (me ? setMeLocationCounts(me, counts) : me));
}

/** An optimistic ±1 while the server's counts.updated is on its way (spec §4: never below zero). */
export function bumpCounts(queryClient: QueryClient, changes: CounterChanges, locationId: string): void {
  if (Object.keys(changes).length === 0) return;
  queryClient.setQueryData<LocationCounts>(inboxKeys.counts(locationId), (counts) =>
    counts ? applyCounterChanges(counts, changes) : counts,
  );
  queryClient.setQueryData<MeLike>(sharedQueryKeys.me, (me) =>
    me ? bumpMeCounters(me, changes, locationId) : me,
  );
}
