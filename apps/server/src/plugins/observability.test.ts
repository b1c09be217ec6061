import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, inbound, selectedLocation, type TestApp } from '../test/helpers.ts';

/** One sample's value from Prometheus text, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (!(rest.startsWith('{') || rest.startsWith(' '))) continue;
    if (want.every((w) => rest.includes(w))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('health, readiness and metrics', () => {
  let t: TestApp;
  let owner: string;
  beforeAll(async () => {
    t = await createTestApp({ SANDBOX_MODE: 'true', METRICS_TOKEN: 'metrics-token-0123456789' });
    owner = await t.login(DEMO_LOGINS.owner);
  });
  afterAll(() => t.close());

  it('healthz says the process is up; readyz checks the database and the job queue', async () => {
    const health = await t.request({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await t.request({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', redis: 'not configured', jobs: 'ok' },
    });
  });

  it('metrics want the token, then count requests by route pattern and inbound messages by provider', async () => {
    expect((await t.request({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const location = await selectedLocation(t, owner);
    await inbound(t, owner, {
      location_id: location,
      from: { phone: '+61491570111' },
      message: 'Hello there',
    });
    await t.request({ method: 'GET', url: `/api/v1/enquiries?location_id=${location}`, token: owner });

    const res = await t.request({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer metrics-token-0123456789' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(
      sample(text, 'switchboard_inbound_messages_total', { provider: 'sandbox', outcome: 'stored' }),
    ).toBe(1);
    expect(
      sample(text, 'switchboard_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/v1/enquiries',
        status: '200',
      }),
    ).toBe(1);
    expect(sample(text, 'switchboard_socket_connections')).toBe(0);
    expect(text).toContain('switchboard_process_resident_memory_bytes');
    // Ids and route patterns only: no message text, no phone numbers.
    expect(text).not.toContain('Hello there');
    expect(text).not.toContain('+61491570111');
  });
});
