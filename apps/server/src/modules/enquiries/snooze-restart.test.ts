import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServerDatabase, DEMO_LOGINS, DEMO_PASSWORD } from '@switchboard/db/testing/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../../test/server-process.ts';

describe('a snoozed enquiry wakes after the server was killed and restarted', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-snooze-'));
  let db: Awaited<ReturnType<typeof createServerDatabase>>;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    db = await createServerDatabase(dir);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async (path: string, init: { method?: string; token?: string; body?: object } = {}) => {
    const res = await fetch(`${server!.url}/api/v1${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    const json = (await res.json()) as { body: Record<string, unknown> };
    expect(res.status, JSON.stringify(json)).toBe(200);
    return json.body;
  };

  it('keeps the wake-up in the database, and a restarted server brings it back when its time has passed', async () => {
    server = await startServerProcess(db.env);
    const { token } = (await call('/auth/login', {
      method: 'POST',
      body: { email: DEMO_LOGINS.owner, password: DEMO_PASSWORD },
    })) as {
      token: string;
    };
    const me = (await call('/user/me', { token })) as { businesses: { locations: { id: string }[] }[] };
    const location = me.businesses[0]!.locations[0]!.id;
    const { enquiry_id } = (await call('/sandbox/inbound', {
      method: 'POST',
      token,
      body: {
        channel: 'sms',
        location_id: location,
        from: { phone: '+61491570777' },
        message: 'After the holidays',
      },
    })) as { enquiry_id: string };
    const until = new Date(Date.now() + 3000).toISOString();
    expect(
      await call(`/enquiries/${enquiry_id}`, { method: 'PATCH', token, body: { snoozed_until: until } }),
    ).toMatchObject({ snoozed_until: until });

    // Killed with no chance to finish anything; the snooze's time passes while nothing runs.
    await server.crash();
    server = undefined;
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(until) - Date.now()) + 1000));

    server = await startServerProcess(db.env);
    const restarted = Date.now();
    let enquiry: Record<string, unknown> = {};
    while (Date.now() - restarted < 30_000) {
      enquiry = await call(`/enquiries/${enquiry_id}`, { token });
      if (enquiry.snoozed_until === null) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(enquiry, server.output()).toMatchObject({ snoozed_until: null, status: 'open', seen: false });
    const open = (await call('/enquiries?page_size=100', { token })) as { items: { id: string }[] };
    expect(open.items.map((e) => e.id)).toContain(enquiry_id);
  });
});
