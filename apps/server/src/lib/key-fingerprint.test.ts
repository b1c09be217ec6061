import type { Database } from '@switchboard/db';
import { openTestDatabase } from '@switchboard/db/testing/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../test/helpers.ts';
import { checkKeyFingerprints, fingerprint, KeyMismatchError } from './key-fingerprint.ts';

const KEY_A = 'a'.repeat(64);
const KEY_B = 'b'.repeat(64);
const JWT_A = 'jwt-secret-a-jwt-secret-a-jwt-secret-a-0123';
const JWT_B = 'jwt-secret-b-jwt-secret-b-jwt-secret-b-0123';

describe('install key fingerprints', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('says nothing about the key and differs between keys', () => {
    const a = fingerprint(Buffer.from(KEY_A, 'hex'));
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toContain('aaaa');
    expect(fingerprint(Buffer.from(KEY_B, 'hex'))).not.toBe(a);
  });

  it('the first start records the keys; the same keys start again; another key stops naming the variable', async () => {
    const first = testConfig({ ENCRYPTION_KEY: KEY_A, JWT_SECRET: JWT_A });
    await checkKeyFingerprints(database.db, first);
    await checkKeyFingerprints(database.db, first);

    const otherKey = testConfig({ ENCRYPTION_KEY: KEY_B, JWT_SECRET: JWT_A });
    await expect(checkKeyFingerprints(database.db, otherKey)).rejects.toThrow(KeyMismatchError);
    await expect(checkKeyFingerprints(database.db, otherKey)).rejects.toThrow(
      /^ENCRYPTION_KEY does not match the key this database was first started with \(ENCRYPTION_KEY is set to a different value\)/,
    );

    const otherJwt = testConfig({ ENCRYPTION_KEY: KEY_A, JWT_SECRET: JWT_B });
    await expect(checkKeyFingerprints(database.db, otherJwt)).rejects.toThrow(/^JWT_SECRET does not match/);
  });
});
