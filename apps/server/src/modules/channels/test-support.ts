import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { channelAccounts, customers, enquiries, messages } from '@switchboard/db';
import { and, eq } from 'drizzle-orm';
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks.js';
import { type OwnerReply, ProviderOwners } from '../../test/fake-owners.ts';
import { createTestApp, DEMO_LOGINS, eventually, getMe, type TestApp } from '../../test/helpers.ts';

/** The provider fixtures kept in the repository (`fixtures/providers/`), or PROVIDER_FIXTURES. */
export const FIXTURES = process.env.PROVIDER_FIXTURES
  ? process.env.PROVIDER_FIXTURES.replace(/\/?$/, '/')
  : fileURLToPath(new URL('../../../../../fixtures/providers/', import.meta.url));

/** A fixture's exact bytes (JSON webhook bodies must never be re-serialised). */
export const fixtureBytes = (path: string) => readFileSync(`${FIXTURES}${path}`);
export const fixtureJson = <T = Record<string, unknown>>(path: string) =>
  JSON.parse(fixtureBytes(path).toString('utf8')) as T;

export type TwilioEnvelope = {
  request: { method: string; url: string; headers: Record<string, string>; body: string };
  params: Record<string, string>;
  signing: { authToken: string; expectedXTwilioSignature: string };
};

export const PUBLIC_URL = 'https://app.example.com';
export const TWILIO_SID = 'ACaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
export const TWILIO_TOKEN = '0123456789abcdef0123456789abcdef';
export const META_SECRET = 'abcdef0123456789abcdef0123456789';
export const RBM_TOKEN = 'FIXTURECLIENTTOKEN01';

export type FakeRequest = {
  method: string;
  path: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the adapter sent.
  json(): any;
  form(): URLSearchParams;
};

export type FakeReply = {
  status?: number;
  json?: unknown;
  body?: string | Buffer;
  headers?: Record<string, string>;
  delayMs?: number;
};

type Route = {
  method: string;
  path: string | RegExp;
  replies: (FakeReply | ((req: FakeRequest) => FakeReply | Promise<FakeReply>))[];
};

/**
 * A provider's HTTP API on 127.0.0.1: records every request and answers from a script. Each route answers
 * with its replies in turn, the last one repeating; the newest route for a path wins. Underneath the script,
 * the calls that ask who owns a number, page or agent are answered from `owners` (see ProviderOwners).
 */
export class FakeProvider {
  readonly requests: FakeRequest[] = [];
  /** Which credentials own which numbers, pages, WhatsApp numbers and service accounts. */
  readonly owners = new ProviderOwners();
  private routes: Route[] = [];
  private server!: Server;
  url = '';

  static async start(): Promise<FakeProvider> {
    const fake = new FakeProvider();
    fake.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks);
        const url = new URL(req.url ?? '/', fake.url);
        const recorded: FakeRequest = {
          method: req.method ?? 'GET',
          path: url.pathname,
          url,
          headers: req.headers,
          body,
          text: body.toString('utf8'),
          json: () => JSON.parse(body.toString('utf8')),
          form: () => new URLSearchParams(body.toString('utf8')),
        };
        fake.requests.push(recorded);
        const route = fake.routes.find(
          (r) =>
            r.method === recorded.method &&
            (typeof r.path === 'string' ? r.path === recorded.path : r.path.test(recorded.path)),
        );
        const next = route
          ? route.replies.length > 1
            ? route.replies.shift()
            : route.replies[0]
          : undefined;
        const reply = (typeof next === 'function' ? await next(recorded) : next) ?? {
          status: 404,
          json: { message: `no fake route ${recorded.method} ${recorded.path}` },
        };
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        const payload = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.body ?? '');
        res.writeHead(reply.status ?? 200, {
          ...(reply.json !== undefined ? { 'content-type': 'application/json' } : {}),
          ...reply.headers,
        });
        res.end(payload);
      });
    });
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    const owned = (answer: OwnerReply | null): FakeReply =>
      answer ?? { status: 404, json: { message: 'no such resource at the fake provider' } };
    fake
      .on('GET', /\/IncomingPhoneNumbers\.json$/, (req) => owned(fake.owners.incomingNumbers(req)))
      .on('GET', /^\/v1\/Services\/MG\w+$/, (req) => owned(fake.owners.messagingService(req)))
      .on('GET', /^\/v[\d.]+\/(me|\d+)(\/phone_numbers)?$/, (req) => owned(fake.owners.graph(req)))
      .on('POST', '/token', async (req) => owned(await fake.owners.googleToken(req)));
    return fake;
  }

  on(method: string, path: string | RegExp, ...replies: Route['replies']): this {
    this.routes.unshift({ method, path, replies });
    return this;
  }

  received(method: string, path: string | RegExp): FakeRequest[] {
    return this.requests.filter(
      (r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)),
    );
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Generous: these suites start a whole app and wait on durable jobs, on a shared 2-core machine. */
export const SUITE_TIMEOUTS = { timeout: 120_000 } as const;
export const SETUP_TIMEOUT_MS = 180_000;

/** The app with PUBLIC_URL as the fixtures were signed for, and every provider API pointed at `fake`. */
/** The fake provider each test app's provider APIs point at (`connect` tells it who owns what). */
const fakeOfApp = new WeakMap<TestApp, FakeProvider>();

export async function channelTestApp(fake: FakeProvider, env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp({
    PUBLIC_URL,
    TWILIO_API_BASE: fake.url,
    TWILIO_MESSAGING_API_BASE: fake.url,
    GRAPH_API_BASE: `${fake.url}/v24.0`,
    RBM_API_BASE: fake.url,
    GOOGLE_OAUTH_TOKEN_URL: `${fake.url}/token`,
    PROVIDER_TIMEOUT_MS: '10000',
    ...env,
  });
  fakeOfApp.set(t, fake);
  return t;
}

/** A provider suite's starting point: the fake provider API, the app pointed at it, and the demo logins. */
export type ChannelSuite = {
  fake: FakeProvider;
  t: TestApp;
  owner: string;
  staff: string;
  /** The Harbourside locations, in the app's order (Docklands, then the unnamed one). */
  locations: [string, string];
  close(): Promise<void>;
};

export async function startChannelSuite(): Promise<ChannelSuite> {
  const fake = await FakeProvider.start();
  const t = await channelTestApp(fake);
  const owner = await t.login(DEMO_LOGINS.owner);
  const staff = await t.login(DEMO_LOGINS.staff1);
  const business = (await getMe(t, owner)).businesses.find((b) => b.selected);
  const [first, second] = business?.locations.map((l) => l.id) ?? [];
  if (!first || !second) throw new Error('the demo business should have two locations');
  return {
    fake,
    t,
    owner,
    staff,
    locations: [first, second],
    close: async () => {
      await t.close();
      await fake.close();
    },
  };
}

/**
 * Connects an account as its real owner would: the fake provider is first told the credentials own what they
 * name, so the provider's check passes (tests of refused claims post to `/channels` themselves).
 */
export async function connect(
  t: TestApp,
  token: string,
  body: { location_id: string; provider: string; config: Record<string, unknown> },
) {
  fakeOfApp.get(t)?.owners.grant(body.provider, body.config);
  const res = await t.request({ method: 'POST', url: '/api/v1/channels', token, payload: body });
  if (res.statusCode !== 200) throw new Error(`connect failed: ${res.statusCode} ${res.body}`);
  return res.json().body as {
    id: string;
    address: string | null;
    config: Record<string, unknown>;
    webhooks: Record<string, string>;
    problem: string | null;
    verified_at: string | null;
  };
}

export function twilioSignature(token: string, url: string, params: Record<string, string>): string {
  return getExpectedTwilioSignature(token, url, params);
}

/**
 * A Twilio webhook request: the form parameters, signed for PUBLIC_URL + path with the account's auth token
 * (or the given signature; null: unsigned). Fits `inject` (`payload`) and `fetch` (`body`) alike.
 */
export function twilioWebhook(
  path: string,
  params: Record<string, string>,
  options: { token?: string; signature?: string | null } = {},
) {
  const signature =
    options.signature === undefined
      ? twilioSignature(options.token ?? TWILIO_TOKEN, `${PUBLIC_URL}${path}`, params)
      : options.signature;
  const body = new URLSearchParams(params).toString();
  return {
    method: 'POST' as const,
    url: path,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(signature === null ? {} : { 'x-twilio-signature': signature }),
    },
    payload: body,
    body,
  };
}

/** Posts form parameters to a Twilio webhook path, signed for PUBLIC_URL + path unless told otherwise. */
export function postTwilio(
  t: TestApp,
  path: string,
  params: Record<string, string>,
  options: { token?: string; signature?: string | null } = {},
) {
  const { body: _body, ...request } = twilioWebhook(path, params, options);
  return t.request(request);
}

export async function messagesByProviderId(t: TestApp, provider: string, id: string) {
  return t.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.provider, provider), eq(messages.provider_message_id, id)));
}

/** The inbound message once its media job has finished: files attached, or noted as not downloaded. */
export function messageWithMedia(t: TestApp, provider: string, id: string) {
  return eventually(async () => {
    const [m] = await messagesByProviderId(t, provider, id);
    return m && !('media_pending' in m.meta) ? m : undefined;
  });
}

export async function messageById(t: TestApp, id: string) {
  const [m] = await t.database.db.select().from(messages).where(eq(messages.id, id));
  return m!;
}

export async function enquiryOf(t: TestApp, enquiryId: string) {
  const [e] = await t.database.db.select().from(enquiries).where(eq(enquiries.id, enquiryId));
  return e!;
}

export async function customerById(t: TestApp, id: string) {
  const [c] = await t.database.db.select().from(customers).where(eq(customers.id, id));
  return c!;
}

export async function accountRow(t: TestApp, id: string) {
  const [row] = await t.database.db.select().from(channelAccounts).where(eq(channelAccounts.id, id));
  return row!;
}

export async function countMessages(t: TestApp) {
  return (await t.database.db.select({ id: messages.id }).from(messages)).length;
}
