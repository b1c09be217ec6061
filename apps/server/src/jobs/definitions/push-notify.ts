import { z } from 'zod';
import { defineJob } from '../define.ts';

/** One person's browsers are told of a new enquiry or message (their subscriptions, as Web Push). */
export const pushNotify = defineJob({
  name: 'push.notify',
  payload: z.object({
    user_id: z.uuid(),
    payload: z.object({
      title: z.string(),
      body: z.string(),
      url: z.string(),
      tag: z.string(),
      kind: z.enum(['enquiry', 'message']),
    }),
  }),
  // A push is worth little late: a few quick tries, then it expires.
  retry: { retryLimit: 3, retryDelay: 5, retryBackoff: true },
  options: { expireInSeconds: 120 },
});
