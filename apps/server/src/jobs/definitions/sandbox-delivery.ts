import { z } from 'zod';
import { defineJob } from '../define.ts';

/** The sandbox reports a sent message delivered a moment later, as a provider's status callback would. */
export const sandboxDelivery = defineJob({
  name: 'message.sandbox-delivery',
  payload: z.object({ message_id: z.uuid() }),
  retry: { retryLimit: 2, retryDelay: 1, retryBackoff: false },
  options: { startAfter: 1 },
});
