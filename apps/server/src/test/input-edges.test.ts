import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uploads } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedMediaUrl } from '../modules/channels/media-url.ts';
import { createTestApp, DEMO_LOGINS, type TestApp } from './helpers.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

function upload(filename: Buffer, bytes: Buffer, complete = true) {
  const boundary = `----edge${randomUUID()}`;
  return {
    payload: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="`),
      filename,
      Buffer.from('"\r\nContent-Type: image/png\r\n\r\n'),
      bytes,
      Buffer.from(complete ? `\r\n--${boundary}--\r\n` : ''),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Inputs that used to answer 500: each must now be a 4xx with a message, or work. */
describe('edge inputs', () => {
  let t: TestApp;
  let token: string;
  let widget: string;
  beforeAll(async () => {
    widget = mkdtempSync(join(tmpdir(), 'sb-widget-'));
    mkdirSync(join(widget, 'assets'));
    writeFileSync(join(widget, 'index.html'), '<!doctype html>');
    writeFileSync(join(widget, 'widget.js'), '/* loader */');
    writeFileSync(join(widget, 'assets', 'frame-abc123.js'), '/* frame */');
    t = await createTestApp({ WIDGET_DIST: widget, PUBLIC_URL: 'https://app.example.com' });
    token = await t.login(DEMO_LOGINS.owner);
  });
  afterAll(async () => {
    await t.close();
    rmSync(widget, { recursive: true, force: true });
  });

  it('answers a multipart upload cut off mid-file with 400 and stores nothing', async () => {
    const before = await t.database.db.select({ id: uploads.id }).from(uploads);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/uploads',
      token,
      ...upload(Buffer.from('a.png'), PNG, false),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/upload ended before the whole file arrived/);
    expect(await t.database.db.select({ id: uploads.id }).from(uploads)).toHaveLength(before.length);
  });

  it('keeps a file named with an emoji, and serves it to providers by signed link with an RFC 5987 name', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/uploads',
      token,
      ...upload(Buffer.from('😀 photo.png'), PNG),
    });
    expect(res.statusCode, res.body).toBe(200);
    const { id, name } = res.json().body;
    expect(name).toBe('😀 photo.png');
    const link = new URL(signedMediaUrl(t.config, id));
    const media = await t.request({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(media.statusCode).toBe(200);
    expect(media.headers['content-disposition']).toBe(
      `inline; filename="?? photo.png"; filename*=UTF-8''%F0%9F%98%80%20photo.png`,
    );
    expect(media.headers['content-security-policy']).toMatch(/^sandbox/);
    expect(media.rawPayload.equals(PNG)).toBe(true);
  });

  it('strips control characters from an uploaded file name instead of failing', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/uploads',
      token,
      ...upload(Buffer.from('a\u0000b\u0007.png'), PNG),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().body.name).toBe('ab.png');
  });

  it('serves built widget assets by name and nothing else under /widget/assets', async () => {
    expect((await t.request({ method: 'GET', url: '/widget/assets/frame-abc123.js' })).statusCode).toBe(200);
    for (const path of ['.hidden', '..%2f..%2fpackage.json', 'x%2f..%2f..%2fwidget.js']) {
      const res = await t.request({ method: 'GET', url: `/widget/assets/${path}` });
      expect(res.statusCode, path).toBe(404);
    }
    // A NUL is refused as in any path, naming it.
    const nul = await t.request({ method: 'GET', url: '/widget/assets/%00' });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().message).toBe('In the path: File: Remove the NUL character (\\u0000) from this text.');
    // A dot segment is resolved by the URL itself, to the chat frame: never a directory read or a 500.
    for (const path of ['..', '%2e%2e']) {
      const res = await t.request({ method: 'GET', url: `/widget/assets/${path}` });
      expect(res.statusCode, path).toBe(200);
      expect(res.body, path).toBe('<!doctype html>');
    }
  });

  it('refuses dates outside 1900–2999 or that do not exist, naming the field', async () => {
    for (const [field, value] of [
      ['start_date', '99999-01-01'],
      ['end_date', '2026-02-30'],
      ['start_date', '+275760-09-13'],
    ] as const) {
      const res = await t.request({ method: 'GET', url: `/api/v1/enquiries?${field}=${value}`, token });
      expect(res.statusCode, value).toBe(400);
      expect(res.json().fields[field]).toMatch(/^Give a date such as 2026-11-24/);
    }
    const ok = await t.request({
      method: 'GET',
      url: '/api/v1/enquiries?start_date=2026-01-01&end_date=2026-11-24',
      token,
    });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses NUL and unpaired surrogates anywhere in a body or query with 400, and changes nothing', async () => {
    const me = await t.request({ method: 'GET', url: '/api/v1/user/me', token });
    const name = me.json().body.full_name;
    for (const full_name of ['Olivia\u0000', 'Olivia\ud800']) {
      const res = await t.request({ method: 'PATCH', url: '/api/v1/user/me', token, payload: { full_name } });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual({
        full_name: expect.stringMatching(/^Remove the (NUL|broken) character/),
      });
    }
    expect((await t.request({ method: 'GET', url: '/api/v1/user/me', token })).json().body.full_name).toBe(
      name,
    );
    const q = await t.request({ method: 'GET', url: '/api/v1/enquiries?q=%00', token });
    expect(q.statusCode).toBe(400);
    const login = await t.request({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'a\u0000@b.co', password: 'x' },
    });
    expect(login.statusCode).toBe(400);
    expect(login.json().fields).toEqual({ email: expect.stringMatching(/NUL/) });
  });

  it('accepts ids in any case and answers with their one spelling', async () => {
    const loc = (await t.request({ method: 'GET', url: '/api/v1/business/locations', token })).json().body
      .items[0].id;
    const res = await t.request({
      method: 'GET',
      url: `/api/v1/business/locations/${loc.toUpperCase()}`,
      token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().body.id).toBe(loc);
  });

  it('stores the file name of an upload row unchanged when it is valid text', async () => {
    const [row] = await t.database.db.select().from(uploads).where(eq(uploads.name, '😀 photo.png'));
    expect(row).toBeTruthy();
  });
});
