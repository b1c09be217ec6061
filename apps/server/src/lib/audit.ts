import { auditLog, type DbOrTx } from '@switchboard/db';

/** Who did it: a signed-in person acting in a business (null for the public, e.g. a browser's report). */
export type AuditActor = { business_id: string | null; user_id: string | null } | null;

/**
 * Writes one line of the audit log, in the caller's transaction so it is kept exactly when the change is:
 * what was done (`location.create`), to what (an id), and the detail worth keeping.
 */
export async function recordAudit(
  db: DbOrTx,
  actor: AuditActor,
  action: string,
  entry: { target?: string | null; detail?: unknown } = {},
): Promise<void> {
  await db.insert(auditLog).values({
    business_id: actor?.business_id ?? null,
    user_id: actor?.user_id ?? null,
    action,
    target: entry.target ?? null,
    detail: entry.detail ?? null,
  });
}
