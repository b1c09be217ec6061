import { z } from 'zod';
import { defineJob } from '../define.ts';

/** An invoice's open Checkout session closed at Stripe after the invoice changed or was voided. */
export const checkoutExpire = defineJob({
  name: 'checkout.expire',
  payload: z.object({ account: z.string().min(1).max(255), session_id: z.string().min(1).max(255) }),
  retry: { retryLimit: 10, retryDelay: 30, retryBackoff: true },
});
