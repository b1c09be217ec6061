import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditLog, uploads } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO_LOGINS, type TestApp } from '../../test/helpers.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0'),
  Buffer.alloc(64),
  Buffer.from([0xff, 0xd9]),
]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x24, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(40),
]);
const MAX_BYTES = 4096;

function multipart(field: string, filename: string, contentType: string, bytes: Buffer) {
  const boundary = `----switchboard${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
      `Content-Type: ${contentType}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('business image', () => {
  let t: TestApp;
  let dataDir: string;
  let owner: string;
  let staff: string;
  let northOwner: string;
  let businessId: string;

  const upload = (token: string, bytes: Buffer, name = 'logo.png', type = 'image/png', field = 'image') =>
    t.request({
      method: 'PUT',
      url: '/api/v1/business/mybusinessimage',
      token,
      ...multipart(field, name, type, bytes),
    });
  const currentImage = async (token: string): Promise<string | null> => {
    const me = (await t.request({ method: 'GET', url: '/api/v1/user/me', token })).json().body;
    return me.businesses.find((b: { selected: boolean }) => b.selected).image;
  };
  const storedFiles = () => {
    const dir = join(dataDir, 'uploads', businessId);
    return existsSync(dir) ? readdirSync(dir).sort() : [];
  };
  const uploadRows = () => t.database.db.select().from(uploads).where(eq(uploads.business_id, businessId));
  const idOf = (image: string) => image.split('/').pop()!;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'switchboard-uploads-'));
    t = await createTestApp({ DATA_DIR: dataDir, IMAGE_MAX_BYTES: String(MAX_BYTES) });
    [owner, staff, northOwner] = await Promise.all([
      t.login(DEMO_LOGINS.owner),
      t.login(DEMO_LOGINS.staff1),
      t.login(DEMO_LOGINS.northsideOwner),
    ]);
    const me = (await t.request({ method: 'GET', url: '/api/v1/user/me', token: owner })).json().body;
    businessId = me.businesses[0].id;
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('stores a PNG, points the business at it, and serves it publicly with a long cache', async () => {
    const res = await upload(owner, PNG);
    expect(res.statusCode).toBe(200);
    const image = res.json().body.image as string;
    expect(image).toMatch(/^\/api\/v1\/public\/images\/[0-9a-f-]{36}$/);
    expect(await currentImage(staff)).toBe(image);
    expect(storedFiles()).toEqual([idOf(image)]);
    expect(await uploadRows()).toMatchObject([
      { id: idOf(image), content_type: 'image/png', size: PNG.length },
    ]);

    const served = await t.request({ method: 'GET', url: image });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.rawPayload.equals(PNG)).toBe(true);

    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'business.image.update'));
    expect(audit.map((a) => (a.detail as { upload_id: string }).upload_id)).toContain(idOf(image));
  });

  it.each([
    ['GIF', GIF, 'image/gif'],
    ['JPEG', JPEG, 'image/jpeg'],
    ['WebP', WEBP, 'image/webp'],
  ])('replaces it with a %s, removing the old file and its row', async (_, bytes, type) => {
    const old = await currentImage(owner);
    const res = await upload(owner, bytes, 'photo.bin', 'application/octet-stream');
    expect(res.statusCode).toBe(200);
    const image = res.json().body.image as string;
    expect(image).not.toBe(old);
    expect(storedFiles()).toEqual([idOf(image)]);
    expect((await uploadRows()).map((u) => u.id)).toEqual([idOf(image)]);
    const served = await t.request({ method: 'GET', url: image });
    expect(served.headers['content-type']).toBe(type);
    expect((await t.request({ method: 'GET', url: old! })).statusCode).toBe(404);
  });

  it.each([
    ['text named .png', Buffer.from('definitely not an image, just words'), 'evil.png', 'image/png'],
    [
      'an SVG',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'a.svg',
      'image/svg+xml',
    ],
    ['a PDF named .jpg', Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n'), 'scan.jpg', 'image/jpeg'],
  ])('refuses %s with 415 naming the allowed types, and nothing changes', async (_, bytes, name, type) => {
    const before = { image: await currentImage(owner), files: storedFiles(), rows: await uploadRows() };
    const res = await upload(owner, bytes, name, type);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      message: 'The image must be a PNG, JPEG, WebP or GIF file.',
      code: 'unsupported_media_type',
    });
    expect({ image: await currentImage(owner), files: storedFiles(), rows: await uploadRows() }).toEqual(
      before,
    );
  });

  it('refuses an image over the size limit with 413 and a message, and nothing changes', async () => {
    const before = { image: await currentImage(owner), files: storedFiles() };
    const res = await upload(owner, Buffer.concat([PNG, Buffer.alloc(MAX_BYTES)]));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      message: 'The image is too large. Choose one of at most 4 KB.',
      code: 'payload_too_large',
    });
    expect({ image: await currentImage(owner), files: storedFiles() }).toEqual(before);
  });

  it('refuses an upload without an image field or not sent as multipart with 400', async () => {
    const before = await currentImage(owner);
    const wrongField = await upload(owner, PNG, 'logo.png', 'image/png', 'photo');
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().message).toMatch(/"image"/);
    const json = await t.request({
      method: 'PUT',
      url: '/api/v1/business/mybusinessimage',
      token: owner,
      payload: { image: PNG.toString('base64') },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toMatch(/multipart/);
    expect(await currentImage(owner)).toBe(before);
  });

  it('refuses staff with 403 for upload and removal, and nothing changes', async () => {
    const before = { image: await currentImage(owner), files: storedFiles() };
    for (const res of [
      await upload(staff, GIF),
      await t.request({ method: 'DELETE', url: '/api/v1/business/mybusinessimage', token: staff }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Only the business owner can change the business image.');
    }
    expect({ image: await currentImage(owner), files: storedFiles() }).toEqual(before);
  });

  it('keeps each business to its own image', async () => {
    const mine = await currentImage(owner);
    const res = await upload(northOwner, PNG);
    expect(res.statusCode).toBe(200);
    const theirs = res.json().body.image;
    expect(theirs).not.toBe(mine);
    const cleared = await t.request({
      method: 'DELETE',
      url: '/api/v1/business/mybusinessimage',
      token: northOwner,
    });
    expect(cleared.json().body.image).toBeNull();
    expect(await currentImage(owner)).toBe(mine);
    expect((await t.request({ method: 'GET', url: mine! })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: theirs })).statusCode).toBe(404);
  });

  it('removes the image, its file and its row', async () => {
    const image = await currentImage(owner);
    const res = await t.request({ method: 'DELETE', url: '/api/v1/business/mybusinessimage', token: owner });
    expect(res.statusCode).toBe(200);
    expect(res.json().body.image).toBeNull();
    expect(await currentImage(owner)).toBeNull();
    expect(storedFiles()).toEqual([]);
    expect(await uploadRows()).toEqual([]);
    expect((await t.request({ method: 'GET', url: image! })).statusCode).toBe(404);
    const again = await t.request({
      method: 'DELETE',
      url: '/api/v1/business/mybusinessimage',
      token: owner,
    });
    expect(again.statusCode).toBe(200);
  });

  it('serves only uploads that are a business image', async () => {
    const id = '0190a4f2-0000-7000-8000-0000000000aa';
    mkdirSync(join(dataDir, 'uploads', businessId), { recursive: true });
    writeFileSync(join(dataDir, 'uploads', businessId, id), PNG);
    await t.database.db.insert(uploads).values({
      id,
      business_id: businessId,
      name: 'invoice-attachment.png',
      content_type: 'image/png',
      size: PNG.length,
      storage_key: `${businessId}/${id}`,
    });
    for (const path of [id, 'not-a-uuid', '..%2F..%2Fsecrets.json']) {
      const res = await t.request({ method: 'GET', url: `/api/v1/public/images/${path}` });
      expect(res.statusCode, path).toBe(404);
      expect(res.json()).toEqual({ message: 'Image not found.', code: 'not_found' });
    }
  });
});
