import type { EnquiryStatus, EnquiryView } from '@switchboard/shared';
import type { EnquiryFilters } from '../types.ts';

/** What the list shows, kept in the address so a reload, a shared link or Back shows the same list. */
export type ListState = {
  status: EnquiryStatus;
  view: EnquiryView;
  filters: EnquiryFilters;
  /** Open enquiries that are snoozed, instead of the awake ones. */
  snoozed: boolean;
  /** Every location of the business at once. */
  all: boolean;
  /** The notes where teammates mentioned the person, instead of the enquiries. */
  mentions: boolean;
};

// Restated rather than imported: the shared contracts module carries zod schemas the browser never needs.
export const ENQUIRY_STATUSES: readonly EnquiryStatus[] = ['open', 'closed'];
export const ENQUIRY_VIEWS: readonly EnquiryView[] = ['all', 'mine', 'unassigned'];

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^[0-9a-f-]{36}$/i;

function oneOf<T extends string>(values: readonly T[], value: string | null, fallback: T): T {
  return values.includes(value as T) ? (value as T) : fallback;
}

const text = (value: string | null) => value?.trim() || undefined;

/** Spec §2: the status view is open by default and the view mode all. */
export function readListState(search: URLSearchParams): ListState {
  const start = search.get('start_date');
  const end = search.get('end_date');
  return {
    status: oneOf(ENQUIRY_STATUSES, search.get('status'), 'open'),
    view: oneOf(ENQUIRY_VIEWS, search.get('view'), 'all'),
    snoozed: search.get('status') !== 'closed' && search.get('snoozed') === '1',
    all: search.get('location') === 'all',
    mentions: search.get('mentions') === '1',
    filters: {
      channels: (search.get('channels') ?? '').split(',').filter(Boolean),
      start_date: start && DAY.test(start) ? start : undefined,
      end_date: end && DAY.test(end) ? end : undefined,
      source: text(search.get('source')),
      medium: text(search.get('medium')),
      assigned_to: ID.test(search.get('assigned_to') ?? '')
        ? (search.get('assigned_to') ?? undefined)
        : undefined,
      label: ID.test(search.get('label') ?? '') ? (search.get('label') ?? undefined) : undefined,
      q: text(search.get('q')),
    },
  };
}

/** The query string for a list state; defaults are left out so the plain inbox stays '/inbox'. */
export function listSearch(state: ListState): string {
  const out = new URLSearchParams();
  if (state.all) out.set('location', 'all');
  if (state.status !== 'open') out.set('status', state.status);
  if (state.view !== 'all') out.set('view', state.view);
  if (state.snoozed && state.status === 'open') out.set('snoozed', '1');
  if (state.mentions) out.set('mentions', '1');
  const { channels, start_date, end_date, source, medium, assigned_to, label, q } = state.filters;
  if (channels.length > 0) out.set('channels', channels.join(','));
  if (start_date) out.set('start_date', start_date);
  if (end_date) out.set('end_date', end_date);
  if (source) out.set('source', source);
  if (medium) out.set('medium', medium);
  if (assigned_to) out.set('assigned_to', assigned_to);
  if (label) out.set('label', label);
  if (q) out.set('q', q);
  const s = out.toString();
  return s ? `?${s}` : '';
}

/** How many filters are on (the search box and tabs are not counted: they show themselves). */
export function activeFilterCount(filters: EnquiryFilters): number {
  return (
    (filters.channels.length > 0 ? 1 : 0) +
    (filters.start_date || filters.end_date ? 1 : 0) +
    (filters.source ? 1 : 0) +
    (filters.medium ? 1 : 0) +
    (filters.assigned_to ? 1 : 0) +
    (filters.label ? 1 : 0)
  );
}
