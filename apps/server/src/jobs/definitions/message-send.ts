import { z } from 'zod';
import { defineJob } from '../define.ts';

/**
 * Hands a queued outbound message to its channel's adapter. The job's id is the message's (one job per message,
 * ever). Its worker heartbeats: a node that dies mid-send has its jobs taken over within seconds, not minutes.
 */
export const messageSend = defineJob({
  name: 'message.send',
  payload: z.object({ message_id: z.uuid() }),
  retry: { retryLimit: 6, retryDelay: 2, retryBackoff: true },
  options: { expireInSeconds: 120, heartbeatSeconds: 10 },
});
