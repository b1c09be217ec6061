import { z } from 'zod';
import { defineJob } from '../define.ts';

/** Hands a queued outbound message to its channel's adapter; one job per message at a time. */
export const messageSend = defineJob({
  name: 'message.send',
  payload: z.object({ message_id: z.uuid() }),
  retry: { retryLimit: 6, retryDelay: 2, retryBackoff: true },
  options: { expireInSeconds: 120 },
});
