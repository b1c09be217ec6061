import { createHmac } from 'node:crypto';
import { type Db, installKeys } from '@switchboard/db';
import { inArray } from 'drizzle-orm';
import type { Config } from '../config.ts';

/** A key's fingerprint: an HMAC of a fixed text under the key, which says nothing about the key itself. */
export function fingerprint(key: Uint8Array): string {
  return createHmac('sha256', key)
    .update('switchboard install key fingerprint v1')
    .digest('hex')
    .slice(0, 32);
}

export class KeyMismatchError extends Error {}

const KEYS = [
  {
    name: 'ENCRYPTION_KEY',
    what: 'channel credentials and other secrets',
    key: (c: Config) => c.encryptionKey,
  },
  { name: 'JWT_SECRET', what: 'sign-in sessions and signed links', key: (c: Config) => c.jwtSecret },
] as const;

/**
 * Records the keys' fingerprints on the first start and compares them on every later one: a node started
 * with another ENCRYPTION_KEY or JWT_SECRET than the database was written with (a second node that
 * generated its own, a changed setting) stops here, naming the variable, instead of answering 500 to every
 * webhook of an account it cannot decrypt. The first node to start decides; concurrent first starts agree
 * through the primary key.
 */
export async function checkKeyFingerprints(db: Db, config: Config): Promise<void> {
  const mine = KEYS.map((k) => ({ name: k.name, fingerprint: fingerprint(k.key(config)) }));
  await db.insert(installKeys).values(mine).onConflictDoNothing();
  const stored = await db
    .select()
    .from(installKeys)
    .where(
      inArray(
        installKeys.name,
        KEYS.map((k) => k.name),
      ),
    );
  for (const k of KEYS) {
    const expected = stored.find((s) => s.name === k.name)?.fingerprint;
    if (expected && expected !== fingerprint(k.key(config))) {
      const source = config.generatedSecrets.includes(k.name)
        ? `this node generated its own in ${config.dataDir}/secrets.json because ${k.name} is not set`
        : `${k.name} is set to a different value`;
      throw new KeyMismatchError(
        `${k.name} does not match the key this database was first started with (${source}). ` +
          `It protects ${k.what}: set ${k.name} to the same value on every node that shares this database.`,
      );
    }
  }
}
