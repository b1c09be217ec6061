/**
 * Whether a write failed on a unique index (PostgreSQL's 23505), as the driver reports it directly or wrapped
 * by the query builder in `cause`: the caller then answers 409 with what clashed.
 */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}
