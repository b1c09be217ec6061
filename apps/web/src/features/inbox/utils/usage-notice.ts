import type { DailyUsage } from '../api/daily-usage.ts';

/** What the composer says about the limit: only once fewer than 10% of today's messages are left. */
export function usageNotice(usage: DailyUsage | undefined): { text: string; reached: boolean } | null {
  if (!usage || usage.message_limit <= 0) return null;
  if (usage.remaining <= 0) {
    return {
      text: `Today's limit of ${usage.message_limit.toLocaleString()} messages is reached: sending resumes tomorrow.`,
      reached: true,
    };
  }
  if (usage.remaining >= usage.message_limit * 0.1) return null;
  return {
    text: `${usage.remaining.toLocaleString()} message${usage.remaining === 1 ? '' : 's'} left today (daily limit ${usage.message_limit.toLocaleString()}).`,
    reached: false,
  };
}
