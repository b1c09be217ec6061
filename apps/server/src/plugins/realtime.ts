import { enquiries, locations, users } from '@switchboard/db';
import type { ClientToServerEvents, ServerToClientEvents, Viewer } from '@switchboard/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Server, type Socket } from 'socket.io';
import { z } from 'zod';
import type { EventBus } from '../events/bus.ts';
import { storablePacket } from '../lib/text.ts';
import { type Actor, atTheirLocations, resolveActor } from './auth.ts';

/** `viewing` is an array, not a Set: socket data crosses nodes as JSON through the Redis adapter. */
type SocketData = {
  actor: Actor;
  full_name: string;
  viewing: string[];
  /** The tab is in sight (the handshake's `visible`, then each `presence`): such a person is not pushed. */
  visible: boolean;
  /** Sandbox calls this socket is an end of (it hangs them up when it goes). */
  calls?: string[];
};
export type RealtimeServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;
export type StaffSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;

declare module 'fastify' {
  interface FastifyInstance {
    io: RealtimeServer;
    events: EventBus;
  }
}

export const rooms = {
  business: (id: string) => `business:${id}`,
  /** The business's people who work at every location: what belongs to no one location goes to them. */
  everywhere: (businessId: string) => `everywhere:${businessId}`,
  location: (id: string) => `location:${id}`,
  user: (id: string) => `user:${id}`,
  session: (id: string) => `session:${id}`,
  enquiry: (id: string) => `enquiry:${id}`,
  /** Staff browsers whose sandbox phone is registered at a location. */
  phone: (locationId: string) => `phone:${locationId}`,
  /** The two ends of one sandbox call. */
  call: (sid: string) => `call:${sid}`,
  /** Sandbox simulators of a business, which answer its staff's outgoing calls. */
  simulator: (businessId: string) => `simulator:${businessId}`,
};

const EnquiryId = z.uuid();

/**
 * Socket.IO on the same HTTP server, authenticated by the same JWT as the API. Each staff socket joins its
 * business, selected location, user and session rooms; opening an enquiry joins that enquiry's room, which
 * is how viewers and typing are shared. It only transports: what goes to which room on a domain event is
 * decided by the listeners in `events/listeners/`.
 */
export const realtimePlugin = fp(async (app: FastifyInstance) => {
  const io: RealtimeServer = new Server(app.server, {
    path: '/socket.io',
    serveClient: false,
    cors: { origin: false },
  });
  app.decorate('io', io);

  if (app.config.redisUrl) {
    const { attachRedisAdapter } = await import('./realtime-redis.ts');
    await attachRedisAdapter(app, io, app.config.redisUrl);
  }

  io.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown }).token;
    if (typeof token !== 'string') return next(new Error('Please log in to continue.'));
    try {
      const actor = await resolveActor(app, token);
      if (!actor.business_id) return next(new Error('Your account is not linked to any business.'));
      const [user] = await app.db
        .select({ full_name: users.full_name })
        .from(users)
        .where(eq(users.id, actor.user_id));
      const visible = (socket.handshake.auth as { visible?: unknown }).visible !== false;
      socket.data = { actor, full_name: user?.full_name ?? '', viewing: [], visible };
      next();
    } catch {
      next(new Error('Your session has ended. Please log in again.'));
    }
  });

  io.on('connection', (socket: StaffSocket) => {
    const { actor } = socket.data;
    // Before any handler, whichever plugin adds it: nothing sent over the socket reaches the database unstorable.
    socket.use(storablePacket);
    // Every location of the business they work at, not only the selected one: the inbox can show them all.
    socket.join([
      rooms.business(actor.business_id!),
      ...(actor.location_ids ? [] : [rooms.everywhere(actor.business_id!)]),
      rooms.user(actor.user_id),
      rooms.session(actor.session_id),
      ...(actor.location_id ? [rooms.location(actor.location_id)] : []),
    ]);
    void app.db
      .select({ id: locations.id })
      .from(locations)
      .where(and(eq(locations.business_id, actor.business_id!), atTheirLocations(actor, locations.id)))
      .then((all) => socket.join(all.map((l) => rooms.location(l.id))))
      .catch((err) => app.log.warn({ err }, 'joining the location rooms failed'));

    socket.on('enquiry.open', async (enquiryId, ack) => {
      const reply = typeof ack === 'function' ? ack : () => {};
      if (!EnquiryId.safeParse(enquiryId).success) return reply({ ok: false, message: 'Enquiry not found!' });
      const [row] = await app.db
        .select({ id: enquiries.id })
        .from(enquiries)
        .where(
          and(
            eq(enquiries.id, enquiryId),
            eq(enquiries.business_id, actor.business_id!),
            atTheirLocations(actor, enquiries.location_id),
          ),
        );
      if (!row) return reply({ ok: false, message: 'Enquiry not found!' });
      await socket.join(rooms.enquiry(enquiryId));
      if (!socket.data.viewing.includes(enquiryId)) socket.data.viewing.push(enquiryId);
      reply({ ok: true });
      await broadcastViewers(io, enquiryId);
    });

    socket.on('enquiry.close', async (enquiryId) => {
      if (!socket.data.viewing.includes(enquiryId)) return;
      socket.data.viewing = socket.data.viewing.filter((id) => id !== enquiryId);
      await socket.leave(rooms.enquiry(enquiryId));
      await broadcastViewers(io, enquiryId);
    });

    socket.on('typing', (event) => {
      if (!event || !socket.data.viewing.includes(event.enquiry_id)) return;
      socket.to(rooms.enquiry(event.enquiry_id)).emit('typing', {
        enquiry_id: event.enquiry_id,
        user_id: actor.user_id,
        full_name: socket.data.full_name,
        typing: Boolean(event.typing),
      });
      app.events.emit('enquiry.typing', {
        enquiry_id: event.enquiry_id,
        typing: Boolean(event.typing),
        full_name: socket.data.full_name,
      });
    });

    socket.on('presence', (event) => {
      if (event && typeof event.visible === 'boolean') socket.data.visible = event.visible;
    });

    socket.on('disconnect', () => {
      for (const enquiryId of socket.data.viewing) void broadcastViewers(io, enquiryId);
    });
  });

  app.addHook('onClose', async () => {
    await io.close();
  });
});

async function broadcastViewers(io: RealtimeServer, enquiryId: string): Promise<void> {
  const sockets = await io.in(rooms.enquiry(enquiryId)).fetchSockets();
  const seen = new Map<string, Viewer>();
  for (const s of sockets) {
    if (s.data.viewing?.includes(enquiryId))
      seen.set(s.data.actor.user_id, { user_id: s.data.actor.user_id, full_name: s.data.full_name });
  }
  io.to(rooms.enquiry(enquiryId)).emit('viewing', { enquiry_id: enquiryId, viewers: [...seen.values()] });
}
