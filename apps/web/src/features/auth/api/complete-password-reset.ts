import { api, type Envelope } from '@/lib/api-client.ts';
import { loginCookieWrites, writeCookies } from '@/lib/cookies.ts';
import type { LoginResult } from '../types.ts';
import { SIGNUP_FORM_STATUSES } from './register.ts';

/** Sets the new password (every other session ends) and signs this browser in with it. */
export async function completePasswordReset(token: string, password: string): Promise<void> {
  const { data } = await api.post<Envelope<LoginResult>>(
    '/auth/password-reset/complete',
    { token, password },
    { handledStatuses: SIGNUP_FORM_STATUSES },
  );
  // A person signed in as someone else in this browser must not see their data under the new session.
  const { queryClient } = await import('@/lib/query-client.ts');
  queryClient.clear();
  writeCookies(loginCookieWrites(data.body));
}
