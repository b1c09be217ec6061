import { describe, expect, it } from 'vitest';
import { extractiveSummary } from './summary.ts';

// Thursday 26 November 2026, mid-morning in Melbourne.
const NOW = new Date('2026-11-25T23:00:00Z');

describe('extractiveSummary', () => {
  it('keeps why the customer called, what was promised and when, in the words said', () => {
    const transcript =
      "Hi, this is Dana. I'm calling about my daughter's check-up, she has a broken tooth. " +
      'Can we come in? Sure, I will book you in with Dr Lee. We will call you back on Monday to confirm the time. Thanks, bye.';
    expect(extractiveSummary(transcript, NOW, 'Australia/Melbourne')).toEqual({
      summary:
        "I'm calling about my daughter's check-up, she has a broken tooth. Sure, I will book you in with Dr Lee.",
      details: {
        reasons: ["I'm calling about my daughter's check-up, she has a broken tooth."],
        actions: [
          'Sure, I will book you in with Dr Lee.',
          'We will call you back on Monday to confirm the time.',
        ],
        follow_up: '2026-11-30',
      },
    });
  });

  it('works out today, tomorrow and next weekdays in the business time zone; other dates stay as said', () => {
    const day = (text: string) => extractiveSummary(text, NOW, 'Australia/Melbourne').details.follow_up;
    expect(day('Please call me tomorrow.')).toBe('2026-11-27');
    expect(day('I can come in today.')).toBe('2026-11-26');
    expect(day('How about Thursday?')).toBe('2026-12-03');
    expect(day('Maybe next Friday.')).toBe('2026-12-04');
    expect(day('Is the 3rd of December free?')).toBe('3rd of December');
    expect(day('Thanks for calling.')).toBeNull();
  });

  it('falls back to the first sentence, and says nothing for silence', () => {
    expect(extractiveSummary('Hello there. Okay.', NOW, 'UTC').summary).toBe('Hello there.');
    expect(extractiveSummary('', NOW, 'UTC')).toEqual({
      summary: '',
      details: { reasons: [], actions: [], follow_up: null },
    });
  });
});
