import type { FastifyInstance } from 'fastify';
import { VISITOR_NAMESPACE, type VisitorNamespace } from '../../channels/widget/plugin.ts';
import { rooms } from '../../plugins/realtime.ts';

/** Staff typing in an enquiry reaches the website visitor whose chat it is. */
export function widgetListeners(app: FastifyInstance): void {
  const visitors = app.io.of(VISITOR_NAMESPACE) as unknown as VisitorNamespace;
  app.events.on('enquiry.typing', ({ enquiry_id, typing, full_name }) => {
    visitors.to(rooms.enquiry(enquiry_id)).emit('typing', { typing, full_name });
  });
}
