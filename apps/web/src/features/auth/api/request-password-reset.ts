import { api, type Envelope } from '@/lib/api-client.ts';
import { SIGNUP_FORM_STATUSES } from './register.ts';

/** Where the link went if the address has an account, and how long it works. */
export type ResetSent = { email: string; minutes: number };

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export async function requestPasswordReset(email: string): Promise<ResetSent> {
  const { data } = await api.post<Envelope<ResetSent>>(
    '/auth/password-reset',
    { email },
    { handledStatuses: SIGNUP_FORM_STATUSES },
  );
  return data.body;
}
