import { z } from 'zod';
import { defineJob } from '../define.ts';

/** An email from the product to one of its users (e.g. the sign-in link during a lockout). */
export const systemMail = defineJob({
  name: 'mail.system',
  payload: z.object({ to: z.string(), subject: z.string(), text: z.string() }),
  retry: { retryLimit: 5, retryDelay: 30, retryBackoff: true },
});
export type SystemMail = z.infer<typeof systemMail.payload>;
