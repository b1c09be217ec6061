import { z } from 'zod';
import { defineJob } from '../define.ts';

/** A review request's next reminder, when its customer has neither opened the link nor replied. */
export const reviewRemind = defineJob({
  name: 'review.remind',
  payload: z.object({ request_id: z.uuid(), reminder: z.number().int().min(1).max(2) }),
  retry: { retryLimit: 3, retryDelay: 60, retryBackoff: true },
});

/** A paid invoice's customer asked for a review, when the location asks for that. */
export const reviewAfterPayment = defineJob({
  name: 'review.after-payment',
  payload: z.object({ invoice_id: z.uuid() }),
  retry: { retryLimit: 3, retryDelay: 60, retryBackoff: true },
});
