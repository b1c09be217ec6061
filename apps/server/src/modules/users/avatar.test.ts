import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, type TestApp } from '../../test/helpers.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function multipart(field: string, name: string, type: string, bytes: Buffer) {
  const boundary = '----avatar-test';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('PUT /user/me/avatar', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('sets a picture shown publicly, replaces it, refuses what is not an image, and clears it', async () => {
    const token = await t.login(DEMO_LOGINS.staff1);
    const put = (field: string, name: string, type: string, bytes: Buffer) =>
      t.request({
        method: 'PUT',
        url: '/api/v1/user/me/avatar',
        token,
        ...multipart(field, name, type, bytes),
      });

    const first = await put('image', 'me.png', 'image/png', PNG);
    expect(first.statusCode, first.body).toBe(200);
    const avatar = first.json().body.avatar as string;
    expect(avatar).toMatch(/^\/api\/v1\/public\/images\/[0-9a-f-]{36}$/);
    const shown = await t.request({ method: 'GET', url: avatar });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('image/png');

    const second = (await put('image', 'me2.png', 'image/png', PNG)).json().body.avatar as string;
    expect(second).not.toBe(avatar);
    // The replaced picture is no longer served.
    expect((await t.request({ method: 'GET', url: avatar })).statusCode).toBe(404);

    const text = await put('image', 'me.png', 'image/png', Buffer.from('not a picture'));
    expect(text.statusCode).toBe(415);
    expect(text.json().message).toBe('The picture must be a PNG, JPEG, WebP or GIF file.');
    expect((await t.request({ method: 'GET', url: '/api/v1/user/me', token })).json().body.avatar).toBe(
      second,
    );

    const cleared = await t.request({ method: 'DELETE', url: '/api/v1/user/me/avatar', token });
    expect(cleared.json().body.avatar).toBeNull();
    expect((await t.request({ method: 'GET', url: second })).statusCode).toBe(404);
  });
});
