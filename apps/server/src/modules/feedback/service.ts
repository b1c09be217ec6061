import type { Db } from '@switchboard/db';
import { recordAudit } from '../../lib/audit.ts';
import type { Actor } from '../../plugins/auth.ts';

export type FeedbackInput = {
  error_code?: string;
  debug_code?: string;
  message: string;
  path?: string;
};

/**
 * Keeps what a person reported from the 'Send Feedback' notice or the report-error form. A user without a
 * business can still report, which is often exactly when something went wrong.
 */
export async function sendFeedback(
  db: Db,
  actor: Actor,
  input: FeedbackInput & { user_agent?: string },
): Promise<{ received: true }> {
  await recordAudit(db, actor, 'feedback', {
    detail: { ...input, user_agent: input.user_agent?.slice(0, 500) ?? null },
  });
  return { received: true };
}
