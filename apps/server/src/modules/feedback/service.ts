import type { FeedbackRequest } from '@switchboard/shared';
import type { Context } from '../../context.ts';
import { recordAudit } from '../../lib/audit.ts';

/**
 * Keeps what a person reported from the 'Send Feedback' notice or the report-error form. A user without a
 * business can still report, which is often exactly when something went wrong.
 */
export async function sendFeedback(
  { db, actor }: Pick<Context, 'db' | 'actor'>,
  input: FeedbackRequest & { user_agent?: string },
): Promise<{ received: true }> {
  await recordAudit(db, actor, 'feedback', {
    detail: { ...input, user_agent: input.user_agent?.slice(0, 500) ?? null },
  });
  return { received: true };
}
