import { uploads } from '@switchboard/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, inbound, selectedLocation, type TestApp } from '../../test/helpers.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function multipart(field: string, name: string, bytes: Buffer, type = 'application/octet-stream') {
  const boundary = '----switchboard-test';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('message attachments', () => {
  let t: TestApp;
  let staff: string;
  let north: string;
  beforeAll(async () => {
    t = await createTestApp({ UPLOAD_MAX_BYTES: String(64 * 1024) });
    staff = await t.login(DEMO_LOGINS.staff1);
    north = await t.login(DEMO_LOGINS.northsideOwner);
  });
  afterAll(() => t.close());

  const count = async () =>
    (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(uploads))[0]!.n;

  it('stores a file with its type sniffed from the bytes and serves it back to the business only', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/uploads',
      token: staff,
      ...multipart('file', 'xray.txt', PNG, 'text/plain'),
    });
    expect(res.statusCode, res.body).toBe(200);
    const upload = res.json().body;
    expect(upload).toMatchObject({ name: 'xray.txt', content_type: 'image/png', size: PNG.length });

    const viaBearer = await t.request({ method: 'GET', url: upload.url, token: staff });
    expect(viaBearer.statusCode).toBe(200);
    expect(viaBearer.headers['content-type']).toBe('image/png');
    expect(viaBearer.rawPayload.equals(PNG)).toBe(true);
    const viaCookie = await t.app.inject({ method: 'GET', url: upload.url, cookies: { access: staff } });
    expect(viaCookie.statusCode).toBe(200);

    expect((await t.request({ method: 'GET', url: upload.url, token: north })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: upload.url })).statusCode).toBe(401);
  });

  it('answers a byte range with just that part, as an audio player asks for a recording before play', async () => {
    const bytes = Buffer.from('0123456789abcdefghij');
    const upload = (
      await t.request({
        method: 'POST',
        url: '/api/v1/uploads',
        token: staff,
        ...multipart('file', 'notes.txt', bytes, 'text/plain'),
      })
    ).json().body;
    const get = (range?: string) =>
      t.request({ method: 'GET', url: upload.url, token: staff, headers: range ? { range } : {} });

    const whole = await get();
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(bytes)).toBe(true);

    const part = await get('bytes=5-9');
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 5-9/20');
    expect(part.headers['content-length']).toBe('5');
    expect(part.body).toBe('56789');

    // What a player asks first (from the start, open-ended) and for the end of a file.
    expect((await get('bytes=0-')).headers['content-range']).toBe('bytes 0-19/20');
    const tail = await get('bytes=-4');
    expect([tail.statusCode, tail.body]).toEqual([206, 'ghij']);

    // Past the end: refused with the size, so the player can ask again; nonsense and several parts get it all.
    const past = await get('bytes=40-50');
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */20');
    expect(past.body).toContain('20 bytes long');
    for (const range of ['pages=1-2', 'bytes=abc', 'bytes=0-1,5-6']) {
      const res = await get(range);
      expect([res.statusCode, res.rawPayload.equals(bytes)], range).toEqual([200, true]);
    }
    // Another business's file stays a 404 whatever range is asked.
    const theirs = await t.request({
      method: 'GET',
      url: upload.url,
      token: north,
      headers: { range: 'bytes=0-1' },
    });
    expect(theirs.statusCode).toBe(404);
  });

  it('accepts plain text by content and refuses executables, empty and oversized files, storing nothing', async () => {
    const text = await t.request({
      method: 'POST',
      url: '/api/v1/uploads',
      token: staff,
      ...multipart('file', 'notes.csv', Buffer.from('a,b\n1,2\n')),
    });
    expect(text.json().body.content_type).toBe('text/csv');
    const before = await count();
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(64)]);
    const cases = [
      { req: multipart('file', 'photo.png', elf, 'image/png'), status: 415 },
      { req: multipart('file', 'empty.txt', Buffer.alloc(0)), status: 422 },
      { req: multipart('file', 'big.txt', Buffer.alloc(65 * 1024, 'a')), status: 413 },
      { req: multipart('other', 'a.png', PNG), status: 400 },
      { req: { payload: { file: 'x' }, headers: {} }, status: 400 },
    ];
    for (const c of cases) {
      const res = await t.request({ method: 'POST', url: '/api/v1/uploads', token: staff, ...c.req });
      expect(res.statusCode, res.body).toBe(c.status);
      expect(res.json().message).toBeTruthy();
    }
    expect(await count()).toBe(before);
  });

  it('sends a message with an attachment, and refuses another business’s upload', async () => {
    const owner = await t.login(DEMO_LOGINS.owner);
    const loc = await selectedLocation(t, owner);
    const { enquiry_id } = await inbound(t, owner, {
      channel: 'mms',
      location_id: loc,
      from: { phone: '+61491570041' },
      message: 'photo?',
    });
    const up = (
      await t.request({
        method: 'POST',
        url: '/api/v1/uploads',
        token: staff,
        ...multipart('file', 'smile.png', PNG),
      })
    ).json().body;
    const sent = await t.request({
      method: 'POST',
      url: `/api/v1/enquiries/${enquiry_id}/messages`,
      token: staff,
      payload: { message: '', attachments: [up.id] },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().body.attachments).toEqual([
      { id: up.id, name: 'smile.png', content_type: 'image/png', size: PNG.length, url: up.url },
    ]);

    const theirs = (
      await t.request({
        method: 'POST',
        url: '/api/v1/uploads',
        token: north,
        ...multipart('file', 'n.png', PNG),
      })
    ).json().body;
    const refused = await t.request({
      method: 'POST',
      url: `/api/v1/enquiries/${enquiry_id}/messages`,
      token: staff,
      payload: { message: 'x', attachments: [theirs.id] },
    });
    expect(refused.statusCode).toBe(422);
  });
});
