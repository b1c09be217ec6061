import { describe, expect, it } from 'vitest';
import { holidayRowsAtFault, holidaysProblem, holidaysToSave } from './holidays.ts';

describe('holidays on the location form', () => {
  it('asks for a date on every row and refuses a day listed twice', () => {
    expect(holidaysProblem([])).toBeNull();
    expect(holidaysProblem([{ date: '2026-12-25', name: 'Christmas Day' }])).toBeNull();
    expect(holidaysProblem([{ date: '', name: 'Stocktake' }])).toBe(
      'Pick a date for each holiday, or remove it.',
    );
    expect(
      holidaysProblem([
        { date: '2026-12-25', name: null },
        { date: '2026-12-25', name: 'Christmas' },
      ]),
    ).toBe('25 Dec 2026 is listed twice.');
  });

  it('marks only the rows at fault: one without a date, and the repeat of a day', () => {
    const rows = [
      { date: '2026-12-25', name: 'Christmas Day' },
      { date: '', name: null },
      { date: '2026-12-26', name: null },
      { date: '2026-12-25', name: 'Again' },
    ];
    expect([...holidayRowsAtFault(rows)]).toEqual([1, 3]);
    expect(holidayRowsAtFault(rows.slice(0, 1)).size).toBe(0);
  });

  it('saves them in date order with names trimmed and blank names as none', () => {
    expect(
      holidaysToSave([
        { date: '2026-12-26', name: '  Boxing Day ' },
        { date: '2026-12-25', name: '   ' },
      ]),
    ).toEqual([
      { date: '2026-12-25', name: null },
      { date: '2026-12-26', name: 'Boxing Day' },
    ]);
  });
});
