import { customerCalled, Invoice } from '@switchboard/shared';
import type { FastifyInstance } from 'fastify';
import { preview } from '../../modules/messages/dto.ts';
import { rooms } from '../../plugins/realtime.ts';

/**
 * Staff screens hear of every change live: each domain event goes to the rooms of the people who see it
 * (the location's inbox, the open enquiry; the whole business only what belongs to no location). A revoked
 * session or a changed password drops the sockets it opened.
 */
export function realtimeListeners(app: FastifyInstance): void {
  const io = app.io;
  const bus = app.events;
  bus.on('enquiry.created', ({ enquiry }) =>
    io.to(rooms.location(enquiry.location_id)).emit('enquiry.created', enquiry),
  );
  bus.on('enquiry.updated', ({ enquiry }) => {
    io.to([rooms.location(enquiry.location_id), rooms.enquiry(enquiry.id)]).emit('enquiry.updated', enquiry);
  });
  bus.on('message.created', ({ location_id, message }) => {
    io.to([rooms.location(location_id), rooms.enquiry(message.enquiry_id)]).emit('message.created', message);
  });
  bus.on('message.updated', ({ location_id, message }) => {
    io.to([rooms.location(location_id), rooms.enquiry(message.enquiry_id)]).emit('message.updated', message);
  });
  // The assignee hears that their customer is back, wherever they are in the app.
  bus.on('enquiry.reopened', ({ enquiry, message }) => {
    if (!enquiry.assigned_to) return;
    const who = customerCalled(enquiry.customer, 'A customer');
    io.to(rooms.user(enquiry.assigned_to)).emit('notification', {
      kind: 'reopened',
      enquiry_id: enquiry.id,
      location_id: enquiry.location_id,
      title: `${who} wrote again`,
      body: `Their closed enquiry is open again and still assigned to you: “${preview(message.message, message.attachments.length)}”`,
    });
  });
  // The team sees a note arrive in the thread; each teammate it mentions is told, wherever they are.
  bus.on('note.created', ({ location_id, enquiry, note, mentioned }) => {
    io.to([rooms.location(location_id), rooms.enquiry(enquiry.id)]).emit('note.created', note);
    const who = customerCalled(enquiry.customer, 'a customer');
    for (const user_id of mentioned) {
      io.to(rooms.user(user_id)).emit('notification', {
        kind: 'mention',
        enquiry_id: enquiry.id,
        location_id,
        title: `${note.author?.full_name ?? 'A teammate'} mentioned you`,
        body: `In the conversation with ${who}: “${preview(note.body, 0)}”`,
      });
    }
  });
  // Everyone at the location hears that a conversation needs a person.
  bus.on('enquiry.handed_off', ({ enquiry }) => {
    const who = customerCalled(enquiry.customer, 'A customer');
    io.to(rooms.location(enquiry.location_id)).emit('notification', {
      kind: 'handoff',
      enquiry_id: enquiry.id,
      location_id: enquiry.location_id,
      title: `${who} needs a person`,
      body: 'The assistant could not answer and handed the conversation to the team.',
    });
  });
  bus.on('enquiry.woke', ({ enquiry }) => {
    if (!enquiry.assigned_to) return;
    const who = customerCalled(enquiry.customer, 'A customer');
    io.to(rooms.user(enquiry.assigned_to)).emit('notification', {
      kind: 'woke',
      enquiry_id: enquiry.id,
      location_id: enquiry.location_id,
      title: `${who} is back from snooze`,
      body: 'The enquiry you snoozed is in Open again.',
    });
  });
  // Everyone at the location sees who is calling, and the call's toast goes once it is taken or over.
  bus.on('call.incoming', ({ call }) => io.to(rooms.location(call.location_id)).emit('call.incoming', call));
  bus.on('call.updated', ({ call }) => io.to(rooms.location(call.location_id)).emit('call.updated', call));
  // An invoice is heard where it may be read: at its location, or (of no location) by those who work at all.
  bus.on('invoice.updated', ({ business_id, invoice }) =>
    io
      .to(invoice.location_id ? rooms.location(invoice.location_id) : rooms.everywhere(business_id))
      .emit('invoice.updated', Invoice.encode(invoice)),
  );
  // Carry nothing of any one location: the whole business hears them.
  bus.on('labels.changed', ({ business_id }) => io.to(rooms.business(business_id)).emit('labels.changed'));
  bus.on('account.changed', ({ business_id }) => io.to(rooms.business(business_id)).emit('account.changed'));
  // A location's inbox counts: the people who work there.
  bus.on('counts.updated', ({ counts }) =>
    io.to(rooms.location(counts.location_id)).emit('counts.updated', counts),
  );
  bus.on('session.revoked', ({ session_id }) => io.in(rooms.session(session_id)).disconnectSockets(true));
  bus.on('user.sessions_revoked', ({ user_id }) => io.in(rooms.user(user_id)).disconnectSockets(true));
  // A socket's rooms follow the locations its person works at: their sockets for the business are told, and
  // dropped to connect again into the rooms they now may hear.
  bus.on('member.access_changed', ({ business_id, user_id }) => {
    io.in(rooms.user(user_id))
      .fetchSockets()
      .then((sockets) => {
        for (const socket of sockets) {
          if (socket.data.actor?.business_id !== business_id) continue;
          socket.emit('account.changed');
          socket.disconnect(true);
        }
      })
      .catch((err) => app.log.warn({ err }, 'restarting a team member’s live updates failed'));
  });

  bus.on('visitor.typing', ({ enquiry_id, visitor_id, full_name, typing }) => {
    io.to(rooms.enquiry(enquiry_id)).emit('typing', {
      enquiry_id,
      user_id: `visitor:${visitor_id}`,
      full_name,
      typing,
    });
  });
}
