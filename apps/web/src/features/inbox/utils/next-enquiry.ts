import type { EnquiryPage, EnquiryRow, Paged } from '../types.ts';
import { flattenEnquiries } from './enquiry-cache.ts';

/**
 * The enquiry after `id` in the list the person is working through (the list on screen, else any cached list
 * holding it): the next one down, or the one above when it is the last. Undefined when it is alone.
 */
export function nextInList(
  lists: readonly { data: Paged<EnquiryPage> | undefined; onScreen: boolean }[],
  id: string,
): EnquiryRow | undefined {
  const ordered = [...lists].sort((a, b) => Number(b.onScreen) - Number(a.onScreen));
  for (const { data } of ordered) {
    const rows = flattenEnquiries(data);
    const at = rows.findIndex((r) => r.id === id);
    if (at === -1) continue;
    return rows[at + 1] ?? rows[at - 1];
  }
  return undefined;
}

/** The conversation's address beside the list's: '/inbox?view=mine' → '/inbox/{id}?view=mine'. */
export function hrefBeside(backTo: string, id: string): string {
  const [path, query] = backTo.split('?');
  return `${path}/${encodeURIComponent(id)}${query ? `?${query}` : ''}`;
}
