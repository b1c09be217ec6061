import { describe, expect, it } from 'vitest';
import { usageNotice } from './usage-notice.ts';

describe('usageNotice', () => {
  it('says nothing while at least 10% of the day is left', () => {
    expect(usageNotice({ messages_sent_today: 450, message_limit: 500, remaining: 50 })).toBeNull();
    expect(usageNotice(undefined)).toBeNull();
  });
  it('counts down under 10%', () => {
    expect(usageNotice({ messages_sent_today: 451, message_limit: 500, remaining: 49 })).toEqual({
      text: '49 messages left today (daily limit 500).',
      reached: false,
    });
    expect(usageNotice({ messages_sent_today: 499, message_limit: 500, remaining: 1 })?.text).toBe(
      '1 message left today (daily limit 500).',
    );
  });
  it('says when the limit is reached', () => {
    expect(usageNotice({ messages_sent_today: 500, message_limit: 500, remaining: 0 })).toEqual({
      text: "Today's limit of 500 messages is reached: sending resumes tomorrow.",
      reached: true,
    });
  });
});
