import type { EnquiryListParams } from '../types.ts';

/**
 * The inbox's cache keys, shared by each call's queryOptions and the live hook that writes socket events
 * into the cache. Everything starts with 'enquiries' so one invalidation refreshes the inbox after a
 * reconnect.
 */
/** The list's location when it shows every location of the business at once. */
export const ALL_LOCATIONS = 'all';

export const inboxKeys = {
  all: ['enquiries'] as const,
  lists: () => [...inboxKeys.all, 'list'] as const,
  list: (params: EnquiryListParams) => [...inboxKeys.lists(), params] as const,
  counts: (locationId: string) => [...inboxKeys.all, 'counts', locationId] as const,
  detail: (id: string) => [...inboxKeys.all, 'detail', id] as const,
  messages: (id: string) => [...inboxKeys.all, 'messages', id] as const,
  draft: (id: string) => [...inboxKeys.all, 'draft', id] as const,
  templates: (id: string) => [...inboxKeys.all, 'templates', id] as const,
  customer: (id: string) => [...inboxKeys.all, 'customer', id] as const,
  replyRoute: (id: string) => [...inboxKeys.all, 'reply-route', id] as const,
  notes: (id: string) => [...inboxKeys.all, 'notes', id] as const,
  mentions: () => [...inboxKeys.all, 'mentions'] as const,
};
