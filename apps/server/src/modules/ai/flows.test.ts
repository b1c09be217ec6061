import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { aiTools, customers } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  DEMO_LOGINS,
  eventually,
  inbound,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';

type Seen = { url: string; method: string; headers: IncomingHttpHeaders; body: string };

describe('flows and tools', () => {
  let t: TestApp;
  let owner: string;
  let staff: string;
  let loc: string;
  let api: Server;
  let apiUrl: string;
  const seen: Seen[] = [];
  let toolId: string;
  const call = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    token = owner,
  ) =>
    t.request({
      method,
      url: `/api/v1${url}`,
      token,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  beforeAll(async () => {
    api = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      seen.push({
        url: req.url ?? '',
        method: req.method ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      res.setHeader('content-type', 'application/json');
      if (req.headers.authorization !== 'Bearer s3cret-token-1234') {
        res.statusCode = 401;
        res.end('{"error":"unauthorised"}');
        return;
      }
      const day = new URL(req.url ?? '/', 'http://x').searchParams.get('day');
      res.end(JSON.stringify({ day, first: '10:30am', slots: ['10:30am', '2:15pm'] }));
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    t = await createTestApp({ AI_FETCH_ALLOW_ORIGINS: apiUrl });
    owner = await t.login(DEMO_LOGINS.owner);
    staff = await t.login(DEMO_LOGINS.staff1);
    loc = await selectedLocation(t, owner);
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => api.close(r));
  });

  it('keeps tools with their header secrets sealed and masked, checks them, and tests one against its server', async () => {
    const tool = {
      name: 'availability',
      description: 'Free appointment times on a day',
      method: 'GET',
      url_template: `${apiUrl}/slots?day={day}`,
      headers: { Authorization: 'Bearer s3cret-token-1234' },
      parameters: {
        type: 'object',
        properties: { day: { type: 'string', description: 'A weekday' } },
        required: ['day'],
      },
    };
    const made = await call('POST', '/business/ai/tools', { tools: [tool] });
    expect(made.statusCode, made.body).toBe(200);
    const saved = made.json().body.items[0];
    toolId = saved.id;
    expect(saved.headers).toEqual({ Authorization: '••••1234' });
    const [row] = await t.database.db.select().from(aiTools).where(eq(aiTools.id, toolId));
    expect(row!.headers_encrypted).toMatch(/^v1:/);
    expect(row!.headers_encrypted).not.toContain('s3cret');

    expect((await call('POST', '/business/ai/tools', { tools: [tool] })).statusCode).toBe(409);
    const badParam = await call('POST', '/business/ai/tools', {
      tools: [{ ...tool, name: 'x2', url_template: `${apiUrl}/{when}` }],
    });
    expect(badParam.statusCode).toBe(422);
    expect(badParam.json().message).toBe('{when} in x2 is not one of its parameters.');
    const ftp = await call('POST', '/business/ai/tools', {
      tools: [{ ...tool, name: 'x3', url_template: 'ftp://files.example.com/{day}' }],
    });
    expect(ftp.json().message).toBe('The address of x3 must start with https://.');
    expect(
      (await call('POST', '/business/ai/tools', { tools: [{ ...tool, name: 'x4' }] }, staff)).statusCode,
    ).toBe(403);

    const tested = await call('POST', `/business/ai/tools/${toolId}/test`, {
      arguments: { day: 'Friday & Sat' },
    });
    expect(tested.json().body).toMatchObject({ ok: true, status: 200 });
    expect(JSON.parse(tested.json().body.body)).toMatchObject({ day: 'Friday & Sat', first: '10:30am' });
    expect(seen.at(-1)!.url).toBe('/slots?day=Friday%20%26%20Sat');

    // A header changed keeps the others; a tool aimed at a private address is refused when it runs.
    const moved = await call('PUT', `/business/ai/tools/${toolId}`, {
      url_template: 'http://10.0.0.5/slots?day={day}',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().body.headers).toEqual({ Authorization: '••••1234' });
    const blocked = await call('POST', `/business/ai/tools/${toolId}/test`, { arguments: { day: 'Mon' } });
    expect(blocked.json().body).toMatchObject({ ok: false, status: null });
    expect(blocked.json().body.body).toMatch(/^That address cannot be called: /);
    await call('PUT', `/business/ai/tools/${toolId}`, { url_template: tool.url_template });
    const missing = await call('POST', `/business/ai/tools/${toolId}/test`, { arguments: {} });
    expect(missing.json().body).toMatchObject({ ok: false, body: 'Missing day.' });
  });

  it('runs a flow: asks, keeps the name in the customer record, calls the tool, answers with its result and hands over', async () => {
    const flow = await call('POST', '/business/ai-flows', {
      name: 'Booking',
      keywords: ['book', 'appointment'],
      action: 'auto',
      steps: [
        { position: 0, kind: 'ask', text: 'Happy to help. What is your full name?', save_as: 'full_name' },
        { position: 1, kind: 'collect', field: 'name', from: 'full_name' },
        { position: 2, kind: 'ask', text: 'Thanks! Which day suits you?', save_as: 'day' },
        { position: 3, kind: 'tool', tool_id: toolId, arguments: { day: '{day}' }, save_as: 'slots' },
        { position: 4, kind: 'message', text: 'On {day} we have {slots.first} free, {first_name}.' },
        { position: 5, kind: 'handoff', text: 'Our team will confirm it shortly.' },
      ],
    });
    expect(flow.statusCode, flow.body).toBe(200);
    const badStep = await call('POST', '/business/ai-flows', {
      name: 'x',
      steps: [{ position: 0, kind: 'tool', tool_id: 'nope' }],
    });
    expect(badStep.statusCode).toBe(422);
    expect(badStep.json().message).toBe('Step 1 calls a tool that does not exist. Choose one of your tools.');

    await call('PUT', '/business/ai-auto-reply/toggle/auto', {
      location_id: loc,
      options: { delay_seconds: 0 },
    });
    const phone = '+61491570401';
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone },
      message: 'Hi, can I book a check-up?',
    });
    const outbound = async () =>
      (
        (await call('GET', `/enquiries/${enquiry_id}/messages`)).json().body.items as {
          direction: string;
          message: string;
          meta: { ai?: { action: string; flow_id: string } };
        }[]
      ).filter((m) => m.direction === 'out');
    await eventually(async () => (await outbound()).length === 1);
    expect((await outbound())[0]).toMatchObject({
      message: 'Happy to help. What is your full name?',
      meta: { ai: { action: 'ask', flow_id: flow.json().body.id } },
    });

    await inbound(t, owner, { location_id: loc, from: { phone }, message: 'Alex Chen' });
    await eventually(async () => (await outbound()).length === 2);
    expect((await outbound())[1]!.message).toBe('Thanks! Which day suits you?');
    const [customer] = await t.database.db.select().from(customers).where(eq(customers.phone, phone));
    expect(customer).toMatchObject({ name: 'Alex Chen', first_name: 'Alex' });

    await inbound(t, owner, { location_id: loc, from: { phone }, message: 'Friday' });
    await eventually(async () => (await outbound()).length === 3);
    expect((await outbound())[2]).toMatchObject({
      message: 'On Friday we have 10:30am free, Alex.\n\nOur team will confirm it shortly.',
      meta: { ai: { action: 'handoff' } },
    });
    expect(seen.at(-1)!.url).toBe('/slots?day=Friday');
    expect((await call('GET', `/enquiries/${enquiry_id}`)).json().body.needs_person).toBe(true);
    await call('PUT', '/business/ai-auto-reply/toggle/off', { location_id: loc });
  });

  it('makes the usual flows once, switched off, for the owner to review', async () => {
    const made = await call('POST', '/business/ai/flows/auto-generate');
    expect(made.json().body.items.map((f: { name: string; action: string }) => [f.name, f.action])).toEqual([
      ['Book an appointment', 'off'],
      ['Call me back', 'off'],
    ]);
    expect((await call('POST', '/business/ai/flows/auto-generate')).json().body.items).toEqual([]);
    const list = (await call('GET', '/business/ai-flows', undefined, staff)).json().body.items;
    expect(list.map((f: { name: string }) => f.name)).toEqual([
      'Booking',
      'Book an appointment',
      'Call me back',
    ]);
    const other = await t.login(DEMO_LOGINS.northsideOwner);
    expect((await call('DELETE', `/business/ai-flows/${list[0].id}`, undefined, other)).statusCode).toBe(404);
  });
});
