import type { Database } from '@switchboard/db';
import { DEMO_LOGINS, DEMO_PASSWORD, openTestDatabase } from '@switchboard/db/testing/index';
import type { UserMe } from '@switchboard/shared';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { JobWithMetadata } from 'pg-boss';
import { io, type Socket } from 'socket.io-client';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import type { JobDefinition } from '../jobs/define.ts';

export { DEMO_LOGINS, DEMO_PASSWORD };

export type TestApp = {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** Logs a demo user in and returns the bearer token. */
  login(email: string, headers?: Record<string, string>): Promise<string>;
  /** app.inject with an optional bearer token; returns the response with `json()` typed loosely. */
  request(options: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
};

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    DATA_DIR: `${process.cwd()}/.tmp/test-data`,
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    ENCRYPTION_KEY: '0'.repeat(64),
    LOG_LEVEL: 'silent',
    LOGIN_MAX_PER_IP: '1000',
    // Retries after a second, not after each job's production backoff.
    JOB_RETRY_DELAY_SECONDS: '1',
    // A route answering a field its contract does not name fails the test that reached it.
    STRICT_ANSWERS: 'true',
    ...overrides,
  });
}

/** The whole app on a fresh copy of the seeded database (PGlite, or PostgreSQL with TEST_DATABASE_URL). */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database = await openTestDatabase();
  const config = testConfig(env);
  const app = await buildApp(config, { database });
  await app.ready();

  const request: TestApp['request'] = ({ token, headers, ...options }) =>
    app.inject({
      ...options,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    });

  const login: TestApp['login'] = async (email, headers = {}) => {
    const res = await request({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email, password: DEMO_PASSWORD },
      headers,
    });
    if (res.statusCode !== 200) throw new Error(`login ${email} failed: ${res.statusCode} ${res.body}`);
    return res.json().body.token as string;
  };

  return {
    app,
    database,
    config,
    login,
    request,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

export type Me = UserMe;

export async function getMe(t: TestApp, token: string): Promise<Me> {
  const res = await t.request({ method: 'GET', url: '/api/v1/user/me', token });
  return res.json().body as Me;
}

/** The selected location of the token's business. */
export async function selectedLocation(t: TestApp, token: string): Promise<string> {
  const me = await getMe(t, token);
  const business = me.businesses.find((b) => b.selected)!;
  return business.locations.find((l) => l.selected)!.id;
}

/** A customer's message arriving through the sandbox provider, exactly as a webhook would ingest it. */
export async function inbound(
  t: TestApp,
  token: string,
  body: {
    channel?: string;
    location_id: string;
    from: Record<string, string>;
    message: string;
    [k: string]: unknown;
  },
) {
  const res = await t.request({
    method: 'POST',
    url: '/api/v1/sandbox/inbound',
    token,
    payload: { channel: 'sms', ...body },
  });
  if (res.statusCode !== 200) throw new Error(`inbound failed: ${res.statusCode} ${res.body}`);
  return res.json().body as { enquiry_id: string; message: { id: string } };
}

/** Polls until `check` returns a truthy value (for job-driven changes), failing after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts the app on a free loopback port (for real sockets) and returns its base URL. */
export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address !== 'object') throw new Error('the test server has no port');
  return `http://127.0.0.1:${address.port}`;
}

/**
 * A connected Socket.IO client (websocket only, no reconnection), added to `sockets` so the suite can
 * disconnect them all at the end; rejects with the server's refusal. No token: no `auth` at all.
 */
export function openSocket<S extends Socket = Socket>(
  url: string,
  token: string | undefined,
  sockets: Socket[],
): Promise<S> {
  return new Promise<S>((resolve, reject) => {
    const socket = io(url, {
      path: '/socket.io',
      ...(token === undefined ? {} : { auth: { token } }),
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
    }) as S;
    sockets.push(socket);
    socket.on('connect', () => resolve(socket));
    socket.on('connect_error', (err) => reject(err));
  });
}

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

/**
 * Waits until the jobs of this kind matching `match` (a singleton key, or part of the payload) exist and have
 * all finished, and returns them: what a check that something did NOT happen waits for, instead of a sleep.
 */
export async function jobsSettled(
  t: TestApp,
  definition: JobDefinition<unknown>,
  match: { id: string } | { key: string } | { data: object },
  timeoutMs = 20_000,
): Promise<JobWithMetadata<unknown>[]> {
  return eventually(async () => {
    const jobs = await t.app.jobs.boss.findJobs(definition.name, match);
    return jobs.length > 0 && jobs.every((j) => FINISHED.has(j.state)) ? jobs : null;
  }, timeoutMs);
}

/** One file as a multipart/form-data body (encoded by the platform's FormData), ready for `t.request`. */
export async function fileUpload(field: string, name: string, type: string, bytes: Buffer) {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever the API answered.
export type Json = Record<string, any>;

/** `api('GET', '/user/me', token)`: a call under /api/v1 answering its status and parsed body. */
export function apiClient(t: TestApp) {
  return async (method: string, url: string, token?: string, payload?: unknown) => {
    const res = await t.request({
      method: method as 'GET',
      url: `/api/v1${url}`,
      token,
      payload: payload as Json,
    });
    return { status: res.statusCode, body: res.json() as Json };
  };
}

/**
 * What a refusal names, for tests that it names the field: the fields it lists under `fields` and its message
 * (a field the request may not send at all is named only in the message).
 */
export const namedIn = (body: Json): string => `${Object.keys(body.fields ?? {}).join(' ')} ${body.message}`;
