import { sessionId } from '@switchboard/shared';

const STORAGE_KEY = 'switchboard.session-id';

/** Spec §3: the session id of the signed-in user, kept for this tab so error reports can name it. */
export function rememberSession(userId: string): string {
  const id = sessionId(userId);
  try {
    sessionStorage.setItem(STORAGE_KEY, id);
  } catch {
    // Storage can be disabled (private mode); the debug code then says GUEST.
  }
  return id;
}

export function currentSessionId(): string | null {
  try {
    return sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function forgetSession(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing to forget.
  }
}

/** Ties a feedback report to a session and a moment: '{session id}-{epoch ms}'. */
export function debugCode(now: number = Date.now()): string {
  return `${currentSessionId() ?? 'GUEST'}-${now}`;
}
