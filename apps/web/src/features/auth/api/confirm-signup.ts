import { api, type Envelope } from '@/lib/api-client.ts';
import { loginCookieWrites, writeCookies } from '@/lib/cookies.ts';
import { SIGNUP_FORM_STATUSES } from './register.ts';

/** The emailed code creates the business and signs its owner in, as a login would. */
export async function confirmSignup(email: string, code: string): Promise<{ email: string }> {
  const { data } = await api.post<Envelope<{ token: string; key: string; iv: string; email: string }>>(
    '/business/register/confirm',
    { email, code },
    { handledStatuses: SIGNUP_FORM_STATUSES },
  );
  // Only the credentials: the app loads the user and selects the business as it opens.
  writeCookies(loginCookieWrites(data.body));
  return { email: data.body.email };
}
