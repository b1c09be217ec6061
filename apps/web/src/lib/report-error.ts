/**
 * The hook point for error tracking. No tracker is wired up yet; errors go to the console so they are
 * still visible while developing and in browser tests.
 */
export function reportError(error: unknown, context: Record<string, unknown> = {}): void {
  console.error('[reportError]', error, context);
}
