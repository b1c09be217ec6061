import { describe, expect, it } from 'vitest';
import type { EnquiryPage, EnquiryRow, Paged } from '../types.ts';
import { hrefBeside, nextInList } from './next-enquiry.ts';

const row = (id: string) => ({ id }) as EnquiryRow;
const list = (...ids: string[]): Paged<EnquiryPage> => ({
  pages: [{ items: ids.map(row), page: 1, page_size: 50, total: null, has_more: false } as EnquiryPage],
  pageParams: [1],
});

describe('the next enquiry after closing one', () => {
  it('is the one below in the list on screen, else the one above, else none', () => {
    const lists = [
      { data: list('x', 'b', 'y'), onScreen: false },
      { data: list('a', 'b', 'c'), onScreen: true },
    ];
    expect(nextInList(lists, 'b')?.id).toBe('c');
    expect(nextInList(lists, 'c')?.id).toBe('b');
    expect(nextInList([{ data: list('a'), onScreen: true }], 'a')).toBeUndefined();
    expect(nextInList(lists, 'zz')).toBeUndefined();
  });

  it('keeps the list’s query string', () => {
    expect(hrefBeside('/inbox?view=mine&location=all', 'e1')).toBe('/inbox/e1?view=mine&location=all');
    expect(hrefBeside('/inbox', 'e1')).toBe('/inbox/e1');
  });
});
