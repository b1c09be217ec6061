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
    kind: Exclude<SecretKind, 'mobile_code' | 'signup'>;
    /** Null for what belongs to a person rather than a business (a password reset). */
    business_id: string | null;
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

/**
 * Marks the older unused secrets of this kind for this address (and business) used: only the newest works. A
 * retired sign-up forgets what it was waiting to create (its password hash among it).
 */
async function retireUnused(tx: DbOrTx, kind: SecretKind, target: string, businessId: string | null) {
  await tx
    .update(oneTimeSecrets)
    .set({ used_at: new Date(), ...(kind === 'signup' ? { detail: null } : {}) })
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

type CodeKind = 'mobile_code' | 'signup';

const codeHash = (key: Uint8Array, id: string, code: string) =>
  createHmac('sha256', key).update(`${id}:${code}`).digest('base64url');

const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** A new six-digit code for this person and number (older unused ones stop working); kept as an HMAC. */
export async function issueCode(
  tx: DbOrTx,
  key: Uint8Array,
  input: { business_id: string | null; user_id: string; target: string; ttlMs: number },
): Promise<{ code: string; expires_at: Date }> {
  await retireUnused(tx, 'mobile_code', input.target, null);
  const code = newCode();
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

/**
 * A row that will hold a code once one is sent (older unused ones for the address stop working). Until then its
 * hash is random, so no code matches it; `codeFor` (run where the email is sent) gives it one.
 */
export async function reserveCode(
  tx: DbOrTx,
  input: { kind: 'signup'; target: string; ttlMs: number; detail: Record<string, unknown> },
): Promise<{ id: string; expires_at: Date }> {
  await retireUnused(tx, input.kind, input.target, null);
  const expires_at = new Date(Date.now() + input.ttlMs);
  const [row] = await tx
    .insert(oneTimeSecrets)
    .values({
      kind: input.kind,
      target: input.target,
      secret_hash: hashOf(randomBytes(32).toString('base64url')),
      detail: input.detail,
      expires_at,
    })
    .returning({ id: oneTimeSecrets.id });
  return { id: row!.id, expires_at };
}

/** A fresh code for a reserved row still waiting (undefined when it was used, replaced or has expired). */
export async function codeFor(db: DbOrTx, key: Uint8Array, id: string): Promise<string | undefined> {
  const code = newCode();
  const [row] = await db
    .update(oneTimeSecrets)
    .set({ secret_hash: codeHash(key, id, code) })
    .where(
      and(
        eq(oneTimeSecrets.id, id),
        isNull(oneTimeSecrets.used_at),
        gt(oneTimeSecrets.expires_at, new Date()),
      ),
    )
    .returning({ id: oneTimeSecrets.id });
  return row ? code : undefined;
}

/** The newest code of this kind sent to this address (and person, when given), whatever its state. */
export async function latestCode(
  db: DbOrTx,
  kind: CodeKind,
  target: string,
  userId?: string,
): Promise<SecretRow | undefined> {
  const [row] = await db
    .select()
    .from(oneTimeSecrets)
    .where(
      and(
        eq(oneTimeSecrets.kind, kind),
        eq(oneTimeSecrets.target, target),
        userId ? eq(oneTimeSecrets.user_id, userId) : sql`true`,
      ),
    )
    .orderBy(desc(oneTimeSecrets.created_at))
    .limit(1);
  return row;
}

/**
 * Takes one try at the code before it is compared, in one conditional update, so concurrent guesses cannot get
 * more than `max` between them. The tries taken so far, or null when none is left.
 */
export async function takeTry(db: DbOrTx, id: string, max: number): Promise<number | null> {
  const [taken] = await db
    .update(oneTimeSecrets)
    .set({ attempts: sql`${oneTimeSecrets.attempts} + 1` })
    .where(sql`${oneTimeSecrets.id} = ${id} and ${oneTimeSecrets.attempts} < ${max}`)
    .returning({ attempts: oneTimeSecrets.attempts });
  return taken ? taken.attempts : null;
}

/** Uses the code's row once (of two concurrent uses one wins); a used sign-up forgets what it waited to create. */
export async function useCode(db: DbOrTx, id: string): Promise<boolean> {
  const [used] = await db
    .update(oneTimeSecrets)
    .set({ used_at: new Date(), detail: null })
    .where(sql`${oneTimeSecrets.id} = ${id} and ${oneTimeSecrets.used_at} is null`)
    .returning({ id: oneTimeSecrets.id });
  return Boolean(used);
}

export function codeMatches(key: Uint8Array, row: SecretRow, code: string): boolean {
  const expected = Buffer.from(row.secret_hash);
  const given = Buffer.from(codeHash(key, row.id, code));
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** How long a secret's row outlives its expiry: long enough to tell someone their link has expired, not "unknown". */
export const EXPIRED_SECRETS_KEPT_MS = 7 * 86_400_000;

/**
 * Tidies secrets past their time: a sign-up that was never confirmed forgets what it was waiting to create (the
 * person's name and password hash) as soon as its code expires, and every row goes a week after its expiry.
 */
export async function tidyExpiredSecrets(
  db: DbOrTx,
  now = new Date(),
): Promise<{ forgotten: number; deleted: number }> {
  const forgotten = await db
    .update(oneTimeSecrets)
    .set({ detail: null })
    .where(
      and(
        eq(oneTimeSecrets.kind, 'signup'),
        sql`${oneTimeSecrets.detail} is not null`,
        sql`${oneTimeSecrets.expires_at} <= ${now}`,
      ),
    )
    .returning({ id: oneTimeSecrets.id });
  const deleted = await db
    .delete(oneTimeSecrets)
    .where(sql`${oneTimeSecrets.expires_at} < ${new Date(now.getTime() - EXPIRED_SECRETS_KEPT_MS)}`)
    .returning({ id: oneTimeSecrets.id });
  return { forgotten: forgotten.length, deleted: deleted.length };
}
