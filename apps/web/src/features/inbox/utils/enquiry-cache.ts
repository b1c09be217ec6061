import type { EnquiryListParams, EnquiryPage, EnquiryRow, Paged } from '../types.ts';

/**
 * Whether a live enquiry belongs in a cached list. 'unknown' when only the server can tell: a search also
 * looks through message text, and dates are bounded in the business's time zone.
 */
export type ListMatch = 'match' | 'no-match' | 'unknown';

export function matchesList(row: EnquiryRow, params: EnquiryListParams, userId: string): ListMatch {
  if (params.locationId !== 'all' && row.location_id !== params.locationId) return 'no-match';
  if (row.status !== params.status) return 'no-match';
  const sleeping = row.snoozed_until !== null && Date.parse(row.snoozed_until) > Date.now();
  if (row.status === 'open' && sleeping !== Boolean(params.snoozed)) return 'no-match';
  if (params.view === 'mine' && row.assigned_to !== userId) return 'no-match';
  if (params.view === 'unassigned' && row.assigned_to !== null) return 'no-match';
  if (params.channels.length > 0 && !params.channels.includes(row.channel)) return 'no-match';
  if (params.source && row.source !== params.source) return 'no-match';
  if (params.medium && row.medium !== params.medium) return 'no-match';
  if (params.assigned_to && row.assigned_to !== params.assigned_to) return 'no-match';
  if (params.label && !row.labels.includes(params.label)) return 'no-match';
  if (params.q || params.start_date || params.end_date) return 'unknown';
  return 'match';
}

/** The server's order: newest activity first, then id, so equal times keep a stable order. */
export function compareEnquiries(a: EnquiryRow, b: EnquiryRow): number {
  const at = Date.parse(b.last_message_at) - Date.parse(a.last_message_at);
  if (at !== 0) return at;
  if (a.id === b.id) return 0;
  return a.id < b.id ? 1 : -1;
}

export function findEnquiry(data: Paged<EnquiryPage> | undefined, id: string): EnquiryRow | undefined {
  for (const page of data?.pages ?? []) {
    const row = page.items.find((r) => r.id === id);
    if (row) return row;
  }
  return undefined;
}

function withTotal(page: EnquiryPage, delta: number): EnquiryPage {
  return page.total === null ? page : { ...page, total: Math.max(0, page.total + delta) };
}

/** Changes a row wherever it is, keeping its place (marking read, a new assignee). */
export function patchEnquiry(
  data: Paged<EnquiryPage>,
  id: string,
  patch: Partial<EnquiryRow>,
): Paged<EnquiryPage> {
  let changed = false;
  const pages = data.pages.map((page) => {
    if (!page.items.some((r) => r.id === id)) return page;
    changed = true;
    return { ...page, items: page.items.map((r) => (r.id === id ? { ...r, ...patch } : r)) };
  });
  return changed ? { ...data, pages } : data;
}

/**
 * Puts a live row where it belongs in a cached list: replaced in place when its activity time is
 * unchanged, moved into order (the top, for new activity) when it changed, inserted when it is new to the
 * list, removed when it no longer matches. A row that sorts below everything loaded while more pages
 * remain is left for those pages to bring.
 */
export function upsertEnquiry(
  data: Paged<EnquiryPage>,
  row: EnquiryRow,
  matches: boolean,
): Paged<EnquiryPage> {
  if (data.pages.length === 0) return data;
  const previous = findEnquiry(data, row.id);

  if (previous && matches && previous.last_message_at === row.last_message_at) {
    return patchEnquiry(data, row.id, row);
  }
  let pages = previous
    ? data.pages.map((page) =>
        page.items.some((r) => r.id === row.id)
          ? { ...page, items: page.items.filter((r) => r.id !== row.id) }
          : page,
      )
    : data.pages;

  if (!matches) {
    if (!previous) return data;
    pages = pages.map((page, i) => (i === 0 ? withTotal(page, -1) : page));
    return { ...data, pages };
  }

  let inserted = false;
  pages = pages.map((page) => {
    if (inserted) return page;
    const at = page.items.findIndex((r) => compareEnquiries(row, r) <= 0);
    if (at < 0) return page;
    inserted = true;
    return { ...page, items: [...page.items.slice(0, at), row, ...page.items.slice(at)] };
  });
  const last = pages.length - 1;
  if (!inserted && !pages[last]?.has_more) {
    inserted = true;
    pages = pages.map((page, i) => (i === last ? { ...page, items: [...page.items, row] } : page));
  }
  if (inserted && !previous) pages = pages.map((page, i) => (i === 0 ? withTotal(page, 1) : page));
  if (!inserted && previous) pages = pages.map((page, i) => (i === 0 ? withTotal(page, -1) : page));
  return { ...data, pages };
}

/**
 * The rows to draw, each once. Pages are fetched by offset, so a row that moved up while a later page was
 * loading can arrive twice.
 */
export function flattenEnquiries(data: Paged<EnquiryPage> | undefined): EnquiryRow[] {
  const seen = new Set<string>();
  const rows: EnquiryRow[] = [];
  for (const page of data?.pages ?? []) {
    for (const row of page.items) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      rows.push(row);
    }
  }
  return rows;
}
