import { api, type Envelope } from '@/lib/api-client.ts';
import { SIGNUP_FORM_STATUSES } from './register.ts';

export type ResetLink = { email: string; expires_at: string };

/** Whether the emailed link still works, and for which account. */
export async function checkPasswordReset(token: string): Promise<ResetLink> {
  const { data } = await api.post<Envelope<ResetLink>>(
    '/auth/password-reset/check',
    { token },
    { handledStatuses: SIGNUP_FORM_STATUSES },
  );
  return data.body;
}
