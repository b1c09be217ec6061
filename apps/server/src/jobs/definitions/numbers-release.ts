import { z } from 'zod';
import { defineJob } from '../define.ts';

/**
 * A business's platform numbers that should no longer be held are released at Twilio: all of them once its
 * subscription has ended, and any whose channel account is gone (removed, or its location deleted).
 */
export const numbersRelease = defineJob({
  name: 'numbers.release',
  payload: z.object({ business_id: z.uuid() }),
  retry: { retryLimit: 12, retryDelay: 60, retryBackoff: true },
});
