import type { Database } from '@switchboard/db';
import { DEMO_LOGINS, DEMO_PASSWORD, openTestDatabase } from '@switchboard/db/testing/index';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';

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
