import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { type DbOrTx, oneTimeSecrets } from '@switchboard/db';
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { uuidv7 } from 'uuidv7';

export type SecretKind = (typeof oneTimeSecrets.$inferSelect)['kind'];
export type SecretRow = typeof oneTimeSecrets.$inferSelect;

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('base64url');

/**
 * A new link secret (32 random bytes, URL-safe). Only its hash is kept, so the table alone opens nothing; a
 * newer one of the same kind for the same person and address replaces any still unused.
 */
export async function issueLinkSecret(
  tx: DbOrTx,
  input: {
    kind: Exclude<SecretKind, 'mobile_code'>;
    business_id: string;
    user_id?: string | null;
    target: string;
    ttlMs: number;
    detail?: Record<string, unknown>;
  },
): Promise<string> {
  await retireUnused(tx, input.kind, input.target, input.business_id);
  const secret = randomBytes(32).toString('base64url');
  await tx.insert(oneTimeSecrets).values({
    kind: input.kind,
    business_id: input.business_id,
    user_id: input.user_id ?? null,
    target: input.target,
    secret_hash: hashOf(secret),
    detail: input.detail ?? null,
    expires_at: new Date(Date.now() + input.ttlMs),
  });
  return secret;
}

/** Marks the older unused secrets of this kind for this address (and business) used: only the newest works. */
async function retireUnused(tx: DbOrTx, kind: SecretKind, target: string, businessId: string | null) {
  await tx
    .update(oneTimeSecrets)
    .set({ used_at: new Date() })
    .where(
      and(
        eq(oneTimeSecrets.kind, kind),
        eq(oneTimeSecrets.target, target),
        businessId ? eq(oneTimeSecrets.business_id, businessId) : sql`true`,
        isNull(oneTimeSecrets.used_at),
      ),
    );
}

/** The secret's row whatever its state (used, expired), or undefined: to say which, or to send a new one. */
export async function findLinkSecret(
  db: DbOrTx,
  kind: SecretKind,
  secret: string,
): Promise<SecretRow | undefined> {
  const [row] = await db
    .select()
    .from(oneTimeSecrets)
    .where(and(eq(oneTimeSecrets.kind, kind), eq(oneTimeSecrets.secret_hash, hashOf(secret))));
  return row;
}

/**
 * Uses the secret: one conditional update, so of two concurrent uses exactly one gets the row. Undefined when
 * it is unknown, used or expired.
 */
export async function useLinkSecret(
  tx: DbOrTx,
  kind: SecretKind,
  secret: string,
): Promise<SecretRow | undefined> {
  const [row] = await tx
    .update(oneTimeSecrets)
    .set({ used_at: new Date() })
    .where(
      and(
        eq(oneTimeSecrets.kind, kind),
        eq(oneTimeSecrets.secret_hash, hashOf(secret)),
        isNull(oneTimeSecrets.used_at),
        gt(oneTimeSecrets.expires_at, new Date()),
      ),
    )
    .returning();
  return row;
}

// ---------------------------------------------------------------------------------------------------------
// Six-digit codes

const codeHash = (key: Uint8Array, id: string, code: string) =>
  createHmac('sha256', key).update(`${id}:${code}`).digest('base64url');

/** A new six-digit code for this person and number (older unused ones stop working); kept as an HMAC. */
export async function issueCode(
  tx: DbOrTx,
  key: Uint8Array,
  input: { business_id: string | null; user_id: string; target: string; ttlMs: number },
): Promise<{ code: string; expires_at: Date }> {
  await retireUnused(tx, 'mobile_code', input.target, null);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const id = uuidv7();
  const expires_at = new Date(Date.now() + input.ttlMs);
  await tx.insert(oneTimeSecrets).values({
    id,
    kind: 'mobile_code',
    business_id: input.business_id,
    user_id: input.user_id,
    target: input.target,
    secret_hash: codeHash(key, id, code),
    expires_at,
  });
  return { code, expires_at };
}

/** The newest code sent to this person at this number, whatever its state. */
export async function latestCode(db: DbOrTx, userId: string, target: string): Promise<SecretRow | undefined> {
  const [row] = await db
    .select()
    .from(oneTimeSecrets)
    .where(
      and(
        eq(oneTimeSecrets.kind, 'mobile_code'),
        eq(oneTimeSecrets.target, target),
        eq(oneTimeSecrets.user_id, userId),
      ),
    )
    .orderBy(desc(oneTimeSecrets.created_at))
    .limit(1);
  return row;
}

export function codeMatches(key: Uint8Array, row: SecretRow, code: string): boolean {
  const expected = Buffer.from(row.secret_hash);
  const given = Buffer.from(codeHash(key, row.id, code));
  return expected.length === given.length && timingSafeEqual(expected, given);
}
