import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import proxyAddr from '@fastify/proxy-addr';
import { businesses, customers, enquiries, locations, messages, users } from '@switchboard/db';
import {
  availabilityLine,
  clipText,
  hoursOf,
  INTAKE_WINDOW_SECONDS,
  type IntakeLimits,
  intakeLimitsOf,
  normalisePhone,
  PRIMARY_COLOR,
  type VisitorMessage,
  WIDGET_COLOR_PATTERN,
  WIDGET_DEFAULT_GREETING,
  WIDGET_MAX_GREETING_CHARS,
  WIDGET_MAX_MESSAGE_CHARS,
  WIDGET_MAX_TITLE_CHARS,
  type WidgetConfig,
  type WidgetField,
  WidgetPublicConfig,
  WidgetSession,
} from '@switchboard/shared';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { Namespace, Socket } from 'socket.io';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { ipKey, type LimitRule, waitText } from '../../lib/limiter.ts';
import { storablePacket, storableText } from '../../lib/text.ts';
import { rooms } from '../../plugins/realtime.ts';
import { attribute } from './attribution.ts';
import { createWidgetReplies, firstName, WIDGET_CHANNEL } from './replies.ts';
import { signVisitorToken, type VisitorClaims, verifyVisitorToken } from './token.ts';

export { WIDGET_CHANNEL };
export const MAX_MESSAGE_CHARS = WIDGET_MAX_MESSAGE_CHARS;

export type WidgetOptions = {
  /** The built widget (apps/widget/dist); defaults next to the server. */
  dist?: string;
};

const DEFAULT_FIELDS: WidgetConfig['fields'] = {
  name: { ask: true, required: true },
  phone: { ask: true, required: false },
  email: { ask: true, required: false },
};

/** Where a chat is: the business it speaks for and, when the business has several, which of its locations. */
export type WidgetPlace = {
  business_name: string;
  location_name: string | null;
  /** The business has more than one location, so the chat names this one under its title. */
  several_locations: boolean;
  /** The business's logo (its Business profile image). */
  logo: string | null;
};

/** The chat's title until the owner writes one: the business's name, as its customers know it. */
export function defaultTitle(place: WidgetPlace): string {
  return place.business_name.trim() || place.location_name?.trim() || 'Chat with us';
}

/** Under the title, the location only where it tells a visitor something: the business has several. */
export function widgetSubtitle(place: WidgetPlace): string | null {
  const name = place.location_name?.trim();
  return place.several_locations && name ? name : null;
}

/** The owner's text for a setting when it is a non-empty string, cut to its limit; otherwise null. */
function ownText(value: unknown, max: number): string | null {
  return typeof value === 'string' && value.trim() ? clipText(value.trim(), max) : null;
}

/** The location's widget settings over the defaults; anything malformed in the stored jsonb is ignored. */
export function widgetConfig(place: WidgetPlace, settings: Record<string, unknown> | null): WidgetConfig {
  const s = settings ?? {};
  const fields = (s.fields ?? {}) as Record<string, Partial<WidgetField> | undefined>;
  const field = (key: keyof WidgetConfig['fields']): WidgetField => {
    const f = fields[key];
    const d = DEFAULT_FIELDS[key];
    const ask = typeof f?.ask === 'boolean' ? f.ask : d.ask;
    return { ask, required: ask && (typeof f?.required === 'boolean' ? f.required : d.required) };
  };
  const color = typeof s.color === 'string' && WIDGET_COLOR_PATTERN.test(s.color) ? s.color : PRIMARY_COLOR;
  return {
    location_name: place.location_name ?? '',
    title: ownText(s.title, WIDGET_MAX_TITLE_CHARS) ?? defaultTitle(place),
    subtitle: widgetSubtitle(place),
    logo: place.logo,
    color,
    greeting: ownText(s.greeting, WIDGET_MAX_GREETING_CHARS) ?? WIDGET_DEFAULT_GREETING,
    fields: { name: field('name'), phone: field('phone'), email: field('email') },
  };
}

/** A page address without its query and fragment (which may carry emails or tokens), or undefined. */
function landingPage(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return undefined;
    return `${u.origin}${u.pathname}`.slice(0, 500);
  } catch {
    return undefined;
  }
}

const LocationParams = z.object({ id: z.string() });
const Str = (max: number) => z.string().trim().max(max).optional();
/** What the loader saw on the host page is attribution, not what the visitor typed: cut to size, never refused. */
const PageText = (max: number) =>
  z
    .string()
    .transform((v) => clipText(v.trim(), max) || undefined)
    .optional();
const SessionBody = z.object({
  name: z.string().trim().max(200).optional(),
  phone: Str(40),
  email: Str(320),
  page: z
    .object({
      url: PageText(2000),
      referrer: PageText(2000),
      utm_source: PageText(200),
      utm_medium: PageText(200),
      utm_campaign: PageText(200),
      gclid: PageText(500),
      fbclid: PageText(500),
      msclkid: PageText(500),
    })
    .partial()
    .default({}),
});
const UUID = z.uuid();
const IncomingMessage = z.object({
  text: z.string(),
  client_id: z.string().min(1).max(100),
});

type VisitorData = { claims: VisitorClaims; ip: string; limits: IntakeLimits };
type Ack = (reply: unknown) => void;
type VisitorClientEvents = {
  message: (input: unknown, ack: Ack) => void;
  history: (ack: Ack) => void;
  typing: (event: unknown) => void;
};
type VisitorServerEvents = {
  message: (message: VisitorMessage) => void;
  typing: (event: { typing: boolean; full_name: string }) => void;
};
export type VisitorNamespace = Namespace<
  VisitorClientEvents,
  VisitorServerEvents,
  Record<string, never>,
  VisitorData
>;
type VisitorSocket = Socket<VisitorClientEvents, VisitorServerEvents, Record<string, never>, VisitorData>;

/** The Socket.IO namespace website visitors connect to (staff use the default one). */
export const VISITOR_NAMESPACE = '/visitor';

export const visitorRoom = (visitorId: string) => `visitor:${visitorId}`;

/**
 * The website chat widget (channel `widget`): public config and session endpoints, the `/visitor` Socket.IO
 * namespace on the staff server, the adapter that delivers staff replies live, typing both ways, and the
 * built loader (`/widget.js`) and chat frame (`/widget`). Register before the web app's SPA fallback.
 */
export const widgetChannel = fp(async (app: FastifyInstance, options: WidgetOptions = {}) => {
  const key = app.config.encryptionKey;
  // Each location sets how many chats and messages one visitor may start (intake limits, per hour); on top,
  // a fixed cap on messages from one network keeps a flood of fresh visitors in check.
  const chatsPerIp = (limits: IntakeLimits): LimitRule => ({
    name: 'widget_chats_ip',
    points: limits.chats_per_ip,
    windowSeconds: INTAKE_WINDOW_SECONDS,
  });
  const messagesPerVisitor = (limits: IntakeLimits): LimitRule => ({
    name: 'widget_messages_visitor',
    points: limits.messages_per_visitor,
    windowSeconds: INTAKE_WINDOW_SECONDS,
  });
  const messagesPerIp: LimitRule = { name: 'widget_messages_ip', points: 300, windowSeconds: 600 };
  // The visitor's address the way Fastify reads it for HTTP: X-Forwarded-For only from a configured proxy.
  const trusted = app.config.trustProxy.length ? proxyAddr.compile(app.config.trustProxy) : () => false;

  async function findLocation(id: string) {
    if (!UUID.safeParse(id).success) return null;
    const [row] = await app.db
      .select({
        id: locations.id,
        business_id: locations.business_id,
        name: locations.name,
        widget_settings: locations.widget_settings,
        intake_limits: locations.intake_limits,
        opening_hours: locations.opening_hours,
        reply_time: locations.reply_time,
        holidays: locations.holidays,
        timezone: sql<string>`coalesce(${locations.timezone}, ${businesses.timezone})`,
        logo: businesses.image,
        business_name: businesses.name,
        location_count:
          sql<number>`(select count(*) from ${locations} as l where l.business_id = ${locations.business_id})`.mapWith(
            Number,
          ),
      })
      .from(locations)
      .innerJoin(businesses, eq(businesses.id, locations.business_id))
      .where(eq(locations.id, id));
    return row ?? null;
  }

  function placeOf(location: NonNullable<Awaited<ReturnType<typeof findLocation>>>): WidgetPlace {
    return {
      business_name: location.business_name,
      location_name: location.name,
      several_locations: location.location_count > 1,
      logo: location.logo,
    };
  }

  // ---- HTTP: config and sessions ------------------------------------------------------------------------
  app.get(
    '/widget-api/locations/:id/config',
    { schema: { response: { 200: WidgetPublicConfig } } },
    async (request, reply) => {
      const { id } = LocationParams.parse(request.params);
      // The loader on the customer's website reads the colour.
      reply.header('access-control-allow-origin', '*');
      reply.header('cache-control', 'no-cache');
      const location = await findLocation(id);
      if (!location) throw new AppError('not_found', 'This chat is not available.');
      const { opening_hours, reply_time, holidays } = hoursOf(location);
      return {
        ...widgetConfig(placeOf(location), location.widget_settings),
        availability: availabilityLine(opening_hours, reply_time, location.timezone, new Date(), holidays),
      };
    },
  );

  app.post(
    '/widget-api/locations/:id/sessions',
    { schema: { response: { 200: WidgetSession } } },
    async (request) => {
      const { id } = LocationParams.parse(request.params);
      const location = await findLocation(id);
      if (!location) throw new AppError('not_found', 'This chat is not available.');
      const wait = await app.limiter.take(
        chatsPerIp(intakeLimitsOf(location.intake_limits)),
        `${location.id}:${ipKey(request.ip)}`,
      );
      if (wait) {
        throw new AppError(
          'rate_limited',
          `Too many chats started from your network. Try again in ${waitText(wait)}.`,
          { headers: { 'retry-after': String(wait) } },
        );
      }
      const parsed = SessionBody.safeParse(storableText(request.body ?? {}));
      if (!parsed.success)
        throw new AppError('validation_failed', 'Please check your details and try again.');
      const body = parsed.data;
      const config = widgetConfig(placeOf(location), location.widget_settings);
      const given = {
        name: body.name || undefined,
        phone: body.phone || undefined,
        email: body.email || undefined,
      };
      for (const k of ['name', 'phone', 'email'] as const) {
        if (config.fields[k].required && !given[k]) {
          throw new AppError('validation_failed', `Please enter your ${k === 'phone' ? 'phone number' : k}.`);
        }
        if (!config.fields[k].ask) given[k] = undefined;
      }
      if (given.email && !z.email().safeParse(given.email).success) {
        throw new AppError('validation_failed', 'Please enter a valid email address.');
      }
      if (given.phone) {
        // Stored as E.164, the way a text message from the same phone arrives, so both find one customer.
        const phone = normalisePhone(given.phone);
        if (!phone) throw new AppError('validation_failed', 'Please enter a valid phone number.');
        given.phone = phone;
      }
      const a = attribute(body.page);
      const claims: VisitorClaims = {
        location_id: location.id,
        visitor_id: randomUUID(),
        ...given,
        source: a.source,
        medium: a.medium,
        ...(a.campaign ? { campaign: a.campaign } : {}),
        ...(landingPage(body.page.url) ? { landing_page: landingPage(body.page.url) } : {}),
        iat: Math.floor(Date.now() / 1000),
      };
      return { visitor_token: signVisitorToken(key, claims) };
    },
  );

  // ---- Static: the loader and the chat frame ----------------------------------------------------------------
  const dist = options.dist ?? app.config.widgetDist;
  const sendBuilt = (reply: FastifyReply, file: string, type: string) => {
    const path = join(dist, file);
    if (!existsSync(path) || !statSync(path).isFile()) {
      throw new AppError(
        'not_found',
        'The chat widget is not built. Run `npm run build` (npm start does this for you).',
      );
    }
    return reply.type(type).send(readFileSync(path));
  };
  app.get('/widget.js', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    // Loaded by <script> on any website.
    reply.header('cross-origin-resource-policy', 'cross-origin');
    reply.header('access-control-allow-origin', '*');
    return sendBuilt(reply, 'widget.js', 'application/javascript; charset=utf-8');
  });
  const frameCsp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self' ws: wss:",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
    // Embedded on the customers' websites, whichever they are.
    'frame-ancestors *',
  ].join('; ');
  const frame = async (_request: unknown, reply: FastifyReply) => {
    reply.header('content-security-policy', frameCsp);
    reply.removeHeader('x-frame-options');
    reply.header('cross-origin-resource-policy', 'cross-origin');
    reply.header('cache-control', 'no-cache');
    return sendBuilt(reply, 'index.html', 'text/html; charset=utf-8');
  };
  app.get('/widget', frame);
  app.get('/widget/', frame);
  app.get('/widget/assets/:file', async (request, reply) => {
    const file = (request.params as { file: string }).file;
    // Built asset names only (`index-a1b2c3.js`): never a path, a dot segment or a hidden file.
    if (!/^[\w-][\w.-]*$/.test(file)) throw new AppError('not_found', 'File not found.');
    const type = file.endsWith('.js')
      ? 'application/javascript; charset=utf-8'
      : file.endsWith('.css')
        ? 'text/css; charset=utf-8'
        : 'application/octet-stream';
    reply.header('cache-control', 'public, max-age=31536000, immutable');
    reply.header('cross-origin-resource-policy', 'cross-origin');
    return sendBuilt(reply, join('assets', file), type);
  });

  // ---- Socket.IO: the /visitor namespace ------------------------------------------------------------------
  const nsp = app.io.of(VISITOR_NAMESPACE) as unknown as VisitorNamespace;

  async function customerOf(claims: VisitorClaims, businessId: string) {
    const [c] = await app.db
      .select({ id: customers.id })
      .from(customers)
      .where(
        and(
          eq(customers.business_id, businessId),
          sql`${customers.external_ids} ->> ${WIDGET_CHANNEL} = ${claims.visitor_id}`,
        ),
      );
    return c ?? null;
  }

  async function history(
    claims: VisitorClaims,
  ): Promise<{ enquiry_ids: string[]; messages: VisitorMessage[] }> {
    const location = await findLocation(claims.location_id);
    if (!location) return { enquiry_ids: [], messages: [] };
    const customer = await customerOf(claims, location.business_id);
    if (!customer) return { enquiry_ids: [], messages: [] };
    const threads = await app.db
      .select({ id: enquiries.id })
      .from(enquiries)
      .where(
        and(
          eq(enquiries.customer_id, customer.id),
          eq(enquiries.location_id, location.id),
          eq(enquiries.channel, WIDGET_CHANNEL),
        ),
      )
      .orderBy(desc(enquiries.created_at));
    if (threads.length === 0) return { enquiry_ids: [], messages: [] };
    const ids = threads.map((t) => t.id);
    const rows = await app.db
      .select({ m: messages, agent: users.full_name, avatar: users.avatar })
      .from(messages)
      .leftJoin(users, eq(users.id, messages.team_user_id))
      .where(
        and(
          inArray(messages.enquiry_id, ids),
          inArray(messages.status, ['received', 'sent', 'delivered', 'read']),
        ),
      )
      .orderBy(desc(messages.created_at), desc(messages.id))
      .limit(200);
    return {
      enquiry_ids: ids,
      messages: rows.reverse().map((r) => ({
        ...toVisitorMessage(r.m, claims.visitor_id),
        agent: firstName(r.agent),
        agent_avatar: r.m.team_user_id ? r.avatar : null,
      })),
    };
  }

  nsp.use(async (socket, next) => {
    const claims = verifyVisitorToken(key, (socket.handshake.auth as { token?: unknown } | undefined)?.token);
    if (!claims) return next(new Error('This chat session is not valid. Please start a new chat.'));
    const location = await findLocation(claims.location_id).catch(() => null);
    if (!location) return next(new Error('This chat is not available.'));
    socket.data = {
      claims,
      ip: proxyAddr(socket.request, trusted),
      limits: intakeLimitsOf(location.intake_limits),
    };
    next();
  });

  nsp.on('connection', (socket: VisitorSocket) => {
    const { claims } = socket.data;
    socket.use(storablePacket);
    // Handlers are attached synchronously below, so nothing the visitor sends right away is missed.
    void socket.join(visitorRoom(claims.visitor_id));
    // The enquiry rooms let staff typing reach the visitor.
    history(claims)
      .then((h) => socket.join(h.enquiry_ids.map(rooms.enquiry)))
      .catch((err) => app.log.warn({ err }, 'widget: joining enquiry rooms failed'));

    socket.on('history', async (ack: Ack) => {
      if (typeof ack !== 'function') return;
      try {
        const h = await history(claims);
        await socket.join(h.enquiry_ids.map(rooms.enquiry));
        ack({ ok: true, messages: h.messages });
      } catch (err) {
        app.log.error({ err }, 'widget: history failed');
        ack({ ok: false, error: 'Could not load the conversation. Please try again.' });
      }
    });

    socket.on('message', async (input: unknown, ack: Ack) => {
      const reply = typeof ack === 'function' ? ack : () => {};
      const parsed = IncomingMessage.safeParse(input);
      if (!parsed.success) return reply({ ok: false, error: 'That message could not be sent.' });
      const text = parsed.data.text.trim();
      if (!text) return reply({ ok: false, error: 'Please write a message.' });
      if (text.length > MAX_MESSAGE_CHARS) {
        return reply({ ok: false, error: `Messages can be at most ${MAX_MESSAGE_CHARS} characters.` });
      }
      const wait =
        (await app.limiter.take(messagesPerVisitor(socket.data.limits), claims.visitor_id)) ??
        (await app.limiter.take(messagesPerIp, ipKey(socket.data.ip)));
      if (wait) {
        return reply({
          ok: false,
          error: `You are sending messages too quickly. Try again in ${waitText(wait)}.`,
        });
      }
      try {
        const result = await app.inbound.receive({
          provider: WIDGET_CHANNEL,
          provider_message_id: `${claims.visitor_id}:${parsed.data.client_id}`,
          channel: WIDGET_CHANNEL,
          location_id: claims.location_id,
          from: {
            external_id: claims.visitor_id,
            ...(claims.name ? { name: claims.name } : {}),
            ...(claims.phone ? { phone: claims.phone } : {}),
            ...(claims.email ? { email: claims.email } : {}),
          },
          message: text,
          meta: {
            client_id: parsed.data.client_id,
            ...(claims.landing_page ? { landing_page: claims.landing_page } : {}),
          },
          ...(claims.source ? { source: claims.source } : {}),
          ...(claims.medium ? { medium: claims.medium } : {}),
          ...(claims.campaign ? { campaign: claims.campaign } : {}),
        });
        await socket.join(rooms.enquiry(result.enquiry.id));
        const message: VisitorMessage = {
          id: result.message.id,
          from: 'visitor',
          text: result.message.message,
          created_at: String(result.message.created_at),
          client_id: parsed.data.client_id,
        };
        reply({ ok: true, message });
        // The visitor's other tabs.
        socket.to(visitorRoom(claims.visitor_id)).emit('message', message);
      } catch (err) {
        app.log.error({ err }, 'widget: storing a visitor message failed');
        reply({ ok: false, error: 'Your message could not be sent. Please try again.' });
      }
    });

    // The visitor's last tab closing starts their time away (after which replies go by SMS).
    socket.on('disconnecting', () => {
      const enquiryIds = [...socket.rooms]
        .filter((room) => room.startsWith('enquiry:'))
        .map((room) => room.slice('enquiry:'.length));
      void (async () => {
        const others = (await nsp.in(visitorRoom(claims.visitor_id)).fetchSockets()).filter(
          (s) => s.id !== socket.id,
        );
        if (!others.length) await replies.visitorLeft(enquiryIds);
      })().catch((err) => app.log.warn({ err }, 'widget: recording the visitor leaving failed'));
    });

    socket.on('typing', (event: unknown) => {
      const typing = Boolean((event as { typing?: unknown } | null)?.typing);
      for (const room of socket.rooms) {
        if (!room.startsWith('enquiry:')) continue;
        app.events.emit('visitor.typing', {
          enquiry_id: room.slice('enquiry:'.length),
          visitor_id: claims.visitor_id,
          full_name: claims.name || 'Visitor',
          typing,
        });
      }
    });
  });

  // ---- The adapter: staff replies go to the open chat, or by SMS once the visitor has left -----------------
  const replies = createWidgetReplies(app, nsp, visitorRoom);
  const adapter = replies.adapter;
  app.channels.describeReplies(WIDGET_CHANNEL, replies.routeOf);

  app.channels.register(async ({ channel }) => (channel === WIDGET_CHANNEL ? adapter : null));
});

function toVisitorMessage(m: typeof messages.$inferSelect, _visitorId: string): VisitorMessage {
  return {
    id: m.id,
    from: m.direction === 'in' ? 'visitor' : 'staff',
    text: m.message,
    created_at: m.created_at.toISOString(),
    client_id: m.direction === 'in' ? ((m.meta as { client_id?: string }).client_id ?? null) : null,
  };
}
