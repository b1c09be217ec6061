import { z } from 'zod';
import { defineJob } from '../define.ts';

/**
 * An email from the product to one of its users (e.g. the sign-in link during a lockout, an invitation, an email
 * confirmation link). Its text holds such links in clear, so the job is deleted a minute after the mail is sent
 * rather than kept with the queue's finished jobs for days.
 */
export const systemMail = defineJob({
  name: 'mail.system',
  payload: z.object({ to: z.string(), subject: z.string(), text: z.string() }),
  retry: { retryLimit: 5, retryDelay: 30, retryBackoff: true },
  options: { deleteAfterSeconds: 60 },
});
export type SystemMail = z.infer<typeof systemMail.payload>;
