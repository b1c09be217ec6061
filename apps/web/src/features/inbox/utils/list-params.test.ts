import { describe, expect, it } from 'vitest';
import { activeFilterCount, listSearch, readListState } from './list-params.ts';

describe('the list state in the address', () => {
  it('defaults to open and all (spec §2)', () => {
    expect(readListState(new URLSearchParams(''))).toEqual({
      status: 'open',
      view: 'all',
      snoozed: false,
      all: false,
      mentions: false,
      filters: { channels: [] },
    });
    expect(listSearch(readListState(new URLSearchParams('')))).toBe('');
  });

  it('reads and writes every filter', () => {
    const search =
      '?status=closed&view=mine&channels=sms%2Cemail&start_date=2025-01-01&end_date=2025-01-31&source=google&medium=cpc&assigned_to=01a1ffb4-7210-7898-bed6-ab99d7dd73d0&q=crown';
    const state = readListState(new URLSearchParams(search));
    expect(state).toEqual({
      status: 'closed',
      view: 'mine',
      snoozed: false,
      all: false,
      mentions: false,
      filters: {
        channels: ['sms', 'email'],
        start_date: '2025-01-01',
        end_date: '2025-01-31',
        source: 'google',
        medium: 'cpc',
        assigned_to: '01a1ffb4-7210-7898-bed6-ab99d7dd73d0',
        q: 'crown',
      },
    });
    expect(listSearch(state)).toBe(search);
  });

  it('ignores values it does not know', () => {
    const state = readListState(
      new URLSearchParams('status=archived&view=team&start_date=yesterday&assigned_to=bob&q=%20%20'),
    );
    expect(state).toEqual({
      status: 'open',
      view: 'all',
      snoozed: false,
      all: false,
      mentions: false,
      filters: { channels: [] },
    });
  });

  it('keeps the every-location view in the address', () => {
    const state = readListState(new URLSearchParams('location=all&view=unassigned'));
    expect(state).toMatchObject({ all: true, view: 'unassigned' });
    expect(listSearch(state)).toBe('?location=all&view=unassigned');
    expect(readListState(new URLSearchParams('location=x')).all).toBe(false);
  });

  it('keeps the Mentions view in the address', () => {
    const state = readListState(new URLSearchParams('mentions=1'));
    expect(state.mentions).toBe(true);
    expect(listSearch(state)).toBe('?mentions=1');
    expect(readListState(new URLSearchParams('mentions=yes')).mentions).toBe(false);
  });

  it('keeps the snoozed list of the open enquiries in the address, and drops it for closed ones', () => {
    const state = readListState(new URLSearchParams('snoozed=1&view=mine'));
    expect(state).toMatchObject({ status: 'open', view: 'mine', snoozed: true });
    expect(listSearch(state)).toBe('?view=mine&snoozed=1');
    expect(readListState(new URLSearchParams('status=closed&snoozed=1')).snoozed).toBe(false);
    expect(listSearch({ ...state, status: 'closed' })).toBe('?status=closed&view=mine');
  });

  it('counts the filters that are on', () => {
    expect(activeFilterCount({ channels: [] })).toBe(0);
    expect(
      activeFilterCount({
        channels: ['sms'],
        start_date: '2025-01-01',
        end_date: '2025-01-02',
        source: 'x',
        assigned_to: '01a1ffb4-7210-7898-bed6-ab99d7dd73d0',
        q: 'y',
      }),
    ).toBe(4);
  });
});
