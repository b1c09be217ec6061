import type { FastifyInstance } from 'fastify';
import { autoReplyListeners } from '../../modules/ai/auto-reply.ts';
import { numbersListeners } from './numbers.ts';
import { pushListeners } from './push.ts';
import { realtimeListeners } from './realtime.ts';
import { widgetListeners } from './widget.ts';

/**
 * Every reaction to a domain event, registered once the app is built. A listener only broadcasts or queues a
 * job; anything slow or fallible happens in the job. A new side effect of an event is one file here and one
 * line below.
 */
export function registerListeners(app: FastifyInstance): void {
  realtimeListeners(app);
  widgetListeners(app);
  autoReplyListeners(app);
  pushListeners(app);
  numbersListeners(app);
}
