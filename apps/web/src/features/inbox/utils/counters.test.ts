import { describe, expect, it } from 'vitest';
import {
  applyCounterChanges,
  bumpMeCounters,
  type Counts,
  counterChanges,
  setMeLocationCounts,
  statusTotals,
} from './counters.ts';

const zero: Counts = {
  assigned_count_open: 0,
  assigned_count_closed: 0,
  unassigned_count_open: 0,
  unassigned_count_closed: 0,
};

function location(id: string, selected: boolean, counts: Partial<Counts> = {}) {
  return { id, selected, name: id, ...zero, ...counts };
}

function me(locations: ReturnType<typeof location>[], otherLocations: ReturnType<typeof location>[] = []) {
  return {
    id: 'u1',
    businesses: [
      { id: 'b1', selected: true, locations },
      { id: 'b2', selected: false, locations: otherLocations },
    ],
  };
}

const countsOf = (m: ReturnType<typeof me>, id: string) =>
  m.businesses.flatMap((b) => b.locations).find((l) => l.id === id);

describe('counterChanges: what a change to an enquiry does to the counters', () => {
  it('a new unassigned enquiry adds one open unassigned', () => {
    expect(counterChanges(null, { status: 'open', assigned_to: null })).toEqual({ unassigned_count_open: 1 });
  });

  it('closing an assigned enquiry moves one from assigned open to assigned closed', () => {
    expect(
      counterChanges({ status: 'open', assigned_to: 'u1' }, { status: 'closed', assigned_to: 'u1' }),
    ).toEqual({ assigned_count_open: -1, assigned_count_closed: 1 });
  });

  it('assigning an open enquiry moves it from unassigned to assigned', () => {
    expect(
      counterChanges({ status: 'open', assigned_to: null }, { status: 'open', assigned_to: 'u1' }),
    ).toEqual({
      unassigned_count_open: -1,
      assigned_count_open: 1,
    });
  });

  it('snoozing takes it out of the Open count, and waking puts it back', () => {
    const now = Date.parse('2026-01-01T10:00:00Z');
    const awake = { status: 'open' as const, assigned_to: 'u1', snoozed_until: null };
    const asleep = { ...awake, snoozed_until: '2026-01-01T11:00:00Z' };
    expect(counterChanges(awake, asleep, now)).toEqual({ assigned_count_open: -1 });
    expect(counterChanges(asleep, awake, now)).toEqual({ assigned_count_open: 1 });
    expect(counterChanges(asleep, { ...asleep, status: 'closed', snoozed_until: null }, now)).toEqual({
      assigned_count_closed: 1,
    });
    // A snooze whose time has passed counts as awake.
    expect(counterChanges({ ...awake, snoozed_until: '2026-01-01T09:00:00Z' }, awake, now)).toEqual({});
  });

  it('reassigning from one person to another changes nothing', () => {
    expect(
      counterChanges({ status: 'open', assigned_to: 'u1' }, { status: 'open', assigned_to: 'u2' }),
    ).toEqual({});
  });
});

describe('applyCounterChanges (spec §4: up or down by one, never below zero)', () => {
  it('adds and subtracts one', () => {
    const next = applyCounterChanges(
      { ...zero, assigned_count_open: 2 },
      { assigned_count_open: -1, assigned_count_closed: 1 },
    );
    expect(next).toEqual({ ...zero, assigned_count_open: 1, assigned_count_closed: 1 });
  });

  it('never goes below zero', () => {
    expect(applyCounterChanges(zero, { unassigned_count_open: -1 }).unassigned_count_open).toBe(0);
  });

  it('keeps the other fields of a location', () => {
    expect(applyCounterChanges(location('l1', true), { unassigned_count_open: 1 })).toMatchObject({
      id: 'l1',
      name: 'l1',
      unassigned_count_open: 1,
    });
  });
});

describe('bumpMeCounters: the counters on the signed-in user', () => {
  it('changes the named location', () => {
    const next = bumpMeCounters(
      me([location('l1', true), location('l2', false)]),
      { unassigned_count_open: 1 },
      'l2',
    );
    expect(countsOf(next, 'l2')?.unassigned_count_open).toBe(1);
    expect(countsOf(next, 'l1')?.unassigned_count_open).toBe(0);
  });

  it('changes the selected location when none is named', () => {
    const next = bumpMeCounters(me([location('l1', false), location('l2', true)]), {
      assigned_count_open: 1,
    });
    expect(countsOf(next, 'l2')?.assigned_count_open).toBe(1);
    expect(countsOf(next, 'l1')?.assigned_count_open).toBe(0);
  });

  it('changes the first location of the business when no location is selected (spec §4)', () => {
    const next = bumpMeCounters(me([location('l1', false), location('l2', false)]), {
      assigned_count_open: 1,
    });
    expect(countsOf(next, 'l1')?.assigned_count_open).toBe(1);
    expect(countsOf(next, 'l2')?.assigned_count_open).toBe(0);
  });

  it('never takes a counter below zero', () => {
    const next = bumpMeCounters(me([location('l1', true)]), { assigned_count_closed: -1 });
    expect(countsOf(next, 'l1')?.assigned_count_closed).toBe(0);
  });

  it('leaves a user with no selected business alone', () => {
    const user = { businesses: [{ selected: false, locations: [location('l1', true)] }] };
    expect(bumpMeCounters(user, { assigned_count_open: 1 })).toBe(user);
  });
});

describe('setMeLocationCounts and statusTotals', () => {
  it("takes the server's exact counts for that location", () => {
    const next = setMeLocationCounts(me([location('l1', true)], [location('l9', false)]), {
      location_id: 'l9',
      assigned_count_open: 4,
      assigned_count_closed: 5,
      unassigned_count_open: 6,
      unassigned_count_closed: 7,
    });
    expect(countsOf(next, 'l9')).toMatchObject({ assigned_count_open: 4, unassigned_count_closed: 7 });
    expect(countsOf(next, 'l1')).toMatchObject(zero);
  });

  it('open is assigned open plus unassigned open; closed likewise', () => {
    expect(
      statusTotals({
        assigned_count_open: 2,
        unassigned_count_open: 3,
        assigned_count_closed: 10,
        unassigned_count_closed: 1,
      }),
    ).toEqual({ open: 5, closed: 11 });
  });
});
