import { randomUUID } from 'node:crypto';
import type { InjectOptions, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { channelTestApp, connect, FakeProvider } from '../modules/channels/test-support.ts';
import { atLength, CUSTOMER_MESSAGES, NAUGHTY_STRINGS } from './hard-texts.ts';
import { DEMO_LOGINS, inbound, type TestApp } from './helpers.ts';

/**
 * Walks the registered route table (so a route added later is covered without anyone listing it) and sends
 * every kind of bad input that has caused a 500 before to every path parameter, query field and body field,
 * and valid but hard text (long emoji text, combining marks, right-to-left with bidi controls, each field's
 * maximum length with a wide character on the limit). Bad input must be answered 4xx; any 5xx fails.
 */

const STRING_VALUES: Record<string, string> = {
  nul: 'a\u0000b',
  'lone surrogate': 'x\ud800y',
  'low surrogate first': '\udc00',
  'very long': 'x'.repeat(100_001),
  'date far ahead': '99999-01-01',
  'date before time': '0000-00-00',
  'impossible date': '2026-02-30',
  'dot segment': '..',
  traversal: '../../../../etc/passwd',
  'huge number': '99999999999999999999999',
  'not a number': 'NaN',
  'html and quotes': '<script>"\'`',
};

/** Valid text that is hard to handle, from the inbound corpus: each field gets each, alone. */
const HARD_VALUES: Record<string, string> = {
  'long emoji text': CUSTOMER_MESSAGES[0]!.repeat(20),
  'combining marks': CUSTOMER_MESSAGES.find((m) => m.normalize('NFC') !== m)!,
  'right-to-left with bidi controls': CUSTOMER_MESSAGES.find((m) => m.includes('\u202B'))!,
  Zalgo: NAUGHTY_STRINGS.find((m) => /[\u0300-\u036f]{3}/.test(m))!,
  'CJK beyond the BMP': NAUGHTY_STRINGS.find((m) => /[\u{20000}-\u{2FFFF}]/u.test(m))!,
};

/** A field's longest text ending in wide characters, and one unit past it with an emoji straddling the limit. */
const atMost = (max: number): Record<string, string> => ({
  [`${max} ending in a family emoji`]: atLength(max, '👨‍👩‍👧‍👦'),
  [`${max} ending in stacked marks`]: atLength(max, 'e\u0301\u0323'),
  [`${max} with an emoji across it`]: atLength(max + 1, '😀'),
});

/** Each declared string field's maximum length, as the request schema says. */
function maxLengthsOf(schema: unknown): Record<string, number> {
  if (!(schema instanceof z.ZodType)) return {};
  try {
    const json = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as {
      properties?: Record<string, { maxLength?: number }>;
    };
    return Object.fromEntries(
      Object.entries(json.properties ?? {}).flatMap(([k, v]) => (v.maxLength ? [[k, v.maxLength]] : [])),
    );
  } catch {
    return {};
  }
}

const OTHER_VALUES: Record<string, unknown> = {
  number: 1e308,
  // One past what an `integer` column holds: a 400, not an overflow in the database.
  'past integer columns': 2_147_483_648,
  negative: -1,
  boolean: true,
  null: null,
  object: { $gt: '' },
  array: ['a\u0000', '\ud800'],
  'nested nul': { a: { b: ['\u0000'] } },
};

/** Raw path and query spellings: percent-encoded NUL, a surrogate's bytes, dot segments, an over-long id. */
const RAW_PARAM_VALUES = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  '..',
  '%2e%2e',
  '%2e%2e%2f%2e%2e',
  'x'.repeat(5000),
  '-1',
];
const RAW_QUERY_VALUES = ['%00', '%ED%A0%80', '99999-01-01', '%2e%2e', 'x'.repeat(5000), '1e999', '[]', '%'];

const TRUNCATED_JSON = '{"message": "hello", "location_id": ';

function multipart(filename: Buffer, complete: boolean) {
  const boundary = `----fuzz${randomUUID()}`;
  const head = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="`),
    filename,
    Buffer.from('"\r\nContent-Type: image/png\r\n\r\n'),
  ]);
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
  return {
    payload: Buffer.concat([head, png, Buffer.from(complete ? `\r\n--${boundary}--\r\n` : '')]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const MULTIPART_BODIES = {
  'truncated multipart': multipart(Buffer.from('photo.png'), false),
  'file name with NUL': multipart(Buffer.from('a\u0000b.png'), true),
  'file name with a surrogate': multipart(
    Buffer.from([0x61, 0xed, 0xa0, 0x80, 0x2e, 0x70, 0x6e, 0x67]),
    true,
  ),
  'file name with emoji': multipart(Buffer.from('😀 photo.png'), true),
};

/** The keys a zod object schema (possibly wrapped) declares, for filling each one with bad values. */
function keysOf(schema: unknown): string[] {
  let s = schema as z.ZodType | undefined;
  for (let i = 0; i < 5 && s; i++) {
    if (s instanceof z.ZodObject) return Object.keys(s.shape);
    const def = (s as { _zod?: { def?: { innerType?: unknown; in?: unknown; options?: unknown[] } } })._zod
      ?.def;
    if (def?.options?.length) return [...new Set(def.options.flatMap((o) => keysOf(o)))];
    s = (def?.innerType ?? def?.in) as z.ZodType | undefined;
  }
  return [];
}

type Case = { what: string; options: InjectOptions };
type Failure = { what: string; status: number; body: string };

const methodsOf = (route: RouteOptions) =>
  [route.method].flat().filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
const paramNames = (url: string) => [...url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
const fill = (url: string, values: Record<string, string>) =>
  url.replace(/:(\w+)/g, (_, name) => values[name]!);

describe('every route answers bad input with 4xx, never 5xx', () => {
  let t: TestApp;
  let fake: FakeProvider;
  let token: string;
  /** Real ids of the demo business (and form tokens), so paths reach the code behind the 404 check. */
  let realIds: string[];

  beforeAll(async () => {
    // Provider APIs on a fake, so connecting or editing an account is asked of it, never of the internet.
    fake = await FakeProvider.start();
    t = await channelTestApp(fake, { LOGIN_MAX_PER_IP: '1000000', LOGIN_MAX_PER_EMAIL: '1000000' });
    token = await t.login(DEMO_LOGINS.owner);
    const get = async (url: string) => (await t.request({ method: 'GET', url, token })).json().body;

    const me = await get('/api/v1/user/me');
    const locationIds: string[] = me.businesses.flatMap((b: { locations: { id: string }[] }) =>
      b.locations.map((l) => l.id),
    );
    const account = await connect(t, token, {
      location_id: locationIds[0]!,
      provider: 'messenger',
      config: {
        page_id: '100000000000777',
        page_access_token: 'fuzz-page-token-0123456789',
        app_secret: 'fuzz-app-secret-0123456789',
        verify_token: 'fuzz-verify-token',
      },
    });
    const first = await inbound(t, token, {
      location_id: locationIds[0]!,
      from: { phone: '+61491570111', name: 'Fuzz Customer' },
      message: 'Hello',
    });
    const enquiryIds = [first.enquiry_id];
    const messages = { items: [first.message] };
    const templates = await get('/api/v1/templates');
    const phones = await get('/api/v1/business/mybusiness/phone');
    const emails = await get('/api/v1/business/mybusiness/email');
    const form = await get('/api/v1/business/mybusiness/web-form-webhook');
    realIds = [
      ...locationIds,
      account.id,
      ...enquiryIds,
      ...messages.items.map((m: { id: string }) => m.id).slice(0, 2),
      ...templates.items.map((x: { id: string }) => x.id).slice(0, 1),
      ...phones.items.map((x: { id: string }) => x.id).slice(0, 1),
      ...emails.items.map((x: { id: string }) => x.id).slice(0, 1),
      String(form.url).split('/').pop()!,
    ].filter(Boolean);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  function casesFor(route: RouteOptions, method: string): Case[] {
    const cases: Case[] = [];
    const params = paramNames(route.url);
    const base = Object.fromEntries(params.map((p) => [p, realIds[0]!]));
    const url = (values: Record<string, string>) => fill(route.url, { ...base, ...values });
    const label = (detail: string) => `${method} ${route.url} ${detail}`;
    const withBody = ['POST', 'PUT', 'PATCH'].includes(method);

    // Path parameters: raw bad spellings, every real id in upper case with an empty body, and every real id
    // (a form's token among them) with a NUL inside, so the look-up behind the length check is reached.
    for (const p of params) {
      for (const raw of [...RAW_PARAM_VALUES, ...realIds.map((id) => `${id.slice(0, 8)}%00${id.slice(8)}`)]) {
        cases.push({
          what: label(`param ${p}=${raw.slice(0, 20)}`),
          options: { method, url: url({ [p]: raw }), ...(withBody ? { payload: {} } : {}) },
        });
      }
      for (const id of realIds) {
        cases.push({
          what: label(`param ${p}=${id} in upper case`),
          options: { method, url: url({ [p]: id.toUpperCase() }), ...(withBody ? { payload: {} } : {}) },
        });
      }
    }

    // Query fields: the declared ones plus a few any handler might read.
    const queryKeys = [
      ...new Set([...keysOf(route.schema?.querystring), 'q', 'page', 'start_date', 'location_id']),
    ];
    const queryMax = maxLengthsOf(route.schema?.querystring);
    for (const key of queryKeys) {
      const hard = { ...HARD_VALUES, ...(queryMax[key] ? atMost(queryMax[key]) : {}) };
      for (const raw of [...RAW_QUERY_VALUES, ...Object.values(hard).map(encodeURIComponent)]) {
        cases.push({
          what: label(`query ${key}=${raw.slice(0, 20)}`),
          options: { method, url: `${url({})}?${key}=${raw}` },
        });
      }
    }

    if (!withBody) return cases;
    // Body fields: each declared field (and an undeclared one) set to each bad value, alone.
    const bodyKeys = [...new Set([...keysOf(route.schema?.body), 'message', 'x'])];
    const bodyMax = maxLengthsOf(route.schema?.body);
    for (const key of bodyKeys) {
      const values = {
        ...STRING_VALUES,
        ...OTHER_VALUES,
        ...HARD_VALUES,
        ...(bodyMax[key] ? atMost(bodyMax[key]) : {}),
      };
      for (const [kind, value] of Object.entries(values)) {
        cases.push({
          what: label(`body ${key}: ${kind}`),
          options: { method, url: url({}), payload: { [key]: value } },
        });
      }
    }
    // Whole bodies of the wrong shape.
    for (const [kind, value] of Object.entries({ ...STRING_VALUES, ...OTHER_VALUES })) {
      cases.push({
        what: label(`whole body: ${kind}`),
        options: {
          method,
          url: url({}),
          payload: JSON.stringify(value),
          headers: { 'content-type': 'application/json' },
        },
      });
    }
    cases.push({
      what: label('truncated JSON'),
      options: {
        method,
        url: url({}),
        payload: TRUNCATED_JSON,
        headers: { 'content-type': 'application/json' },
      },
    });
    cases.push({
      what: label('form-encoded NUL'),
      options: {
        method,
        url: url({}),
        payload: 'message=a%00b&name=%ED%A0%80&_redirect=https%3A%2F%2Fevil.example%2F',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
    });
    for (const [kind, body] of Object.entries(MULTIPART_BODIES)) {
      cases.push({
        what: label(kind),
        options: { method, url: url({}), payload: body.payload, headers: body.headers },
      });
    }
    return cases;
  }

  it('walks the whole route table', async () => {
    const routes = t.app.routeTable.filter((r) => !r.url.includes('*') && !r.url.startsWith('/socket.io'));
    expect(routes.length).toBeGreaterThan(50);
    // Deletions last, so everything else meets the demo data intact.
    const order = (m: string) => (m === 'DELETE' ? 2 : m === 'GET' ? 0 : 1);
    const runs = routes
      .flatMap((route) => methodsOf(route).map((method) => ({ route, method })))
      .sort((a, b) => order(a.method) - order(b.method));

    const failures: Failure[] = [];
    let sent = 0;
    for (const { route, method } of runs) {
      for (const c of casesFor(route, method)) {
        // Logging out would end the session the rest of the walk uses: it gets a session of its own.
        const as = route.url.endsWith('/user/logout') ? await t.login(DEMO_LOGINS.owner) : token;
        const res = await t.request({ ...c.options, token: as });
        sent++;
        if (res.statusCode >= 500)
          failures.push({ what: c.what, status: res.statusCode, body: res.body.slice(0, 200) });
      }
    }
    // The walk must not have broken what it walked over: the main lists still answer.
    for (const url of [
      '/api/v1/user/me',
      '/api/v1/channels',
      '/api/v1/enquiries',
      '/api/v1/business/locations',
    ]) {
      const res = await t.request({ method: 'GET', url, token });
      if (res.statusCode >= 500)
        failures.push({ what: `after the walk: GET ${url}`, status: res.statusCode, body: res.body });
    }
    expect(sent).toBeGreaterThan(5000);
    if (failures.length) console.error(failures.map((f) => `${f.status} ${f.what}: ${f.body}`).join('\n'));
    expect(failures).toEqual([]);
  }, 900_000);
});
