import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uploads } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createTestApp, DEMO_LOGINS, type TestApp } from '../test/helpers.ts';
import { createS3Store } from './blob-store.ts';

const BUCKET = 'switchboard-uploads';
const KEYS = { S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' };

/** An S3-compatible server on loopback (s3rver), keeping its objects in a temporary folder. */
async function startS3(): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const directory = mkdtempSync(join(tmpdir(), 'switchboard-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const address = (await server.run()) as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    stop: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

describe('uploads in an S3-compatible bucket', () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  let t: TestApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    s3 = await startS3();
    env = { STORAGE: 's3', S3_BUCKET: BUCKET, S3_ENDPOINT: s3.endpoint, S3_PREFIX: 'test/', ...KEYS };
    t = await createTestApp(env);
  });
  afterAll(async () => {
    await t.close();
    await s3.stop();
  });

  const store = () => {
    const { storage } = loadConfig({ ...env, JWT_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: '0'.repeat(64) });
    if (storage.kind !== 's3') throw new Error('expected S3 settings');
    return createS3Store(storage);
  };

  it('keeps, reads back and removes bytes by key; a missing key reads as nothing', async () => {
    const s = store();
    const bytes = Buffer.from('%PDF-1.4 quote for the bathroom');
    await s.put('b1/file-1', bytes, 'application/pdf');
    expect((await s.get('b1/file-1'))?.equals(bytes)).toBe(true);
    await s.delete('b1/file-1');
    expect(await s.get('b1/file-1')).toBeUndefined();
    await s.delete('b1/file-1');
  });

  it('stores a file uploaded through the API in the bucket and serves it from there', async () => {
    const token = await t.login(DEMO_LOGINS.staff1);
    const boundary = '----switchboard-s3';
    const bytes = Buffer.from('a,b\n1,2\n');
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/uploads',
      token,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="prices.csv"\r\nContent-Type: text/csv\r\n\r\n`,
        ),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(res.statusCode, res.body).toBe(200);
    const upload = res.json().body as { id: string; url: string };
    const [row] = await t.database.db.select().from(uploads).where(eq(uploads.id, upload.id));
    // In the bucket, under the prefix: another node reading the same bucket finds it.
    expect((await store().get(row!.storage_key))?.equals(bytes)).toBe(true);
    const served = await t.request({ method: 'GET', url: upload.url, token });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(bytes)).toBe(true);
  });

  it('refuses STORAGE=s3 without a bucket, naming the variable', () => {
    expect(() =>
      loadConfig({ STORAGE: 's3', JWT_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: '0'.repeat(64) }),
    ).toThrow(/S3_BUCKET/);
  });
});
