import { collectTracking, type RegisterInput, type SubscriptionStatus } from '@switchboard/shared';
import { api, type Envelope } from '@/lib/api-client.ts';
import { loginCookieWrites, writeCookies } from '@/lib/cookies.ts';

export type { RegisterInput, SubscriptionStatus };

/** Shown beside the form rather than as notices: what is wrong with what was typed, or why it was refused. */
export const SIGNUP_FORM_STATUSES = [400, 403, 404, 409, 422, 429] as const;

/** The signed form token the server wants back (it refuses a form sent back too fast: bot protection). */
export async function fetchRegisterForm(): Promise<{ form_token: string; min_seconds: number }> {
  const { data } = await api.get<Envelope<{ form_token: string; min_seconds: number }>>(
    '/business/register/form',
    {
      handledStatuses: SIGNUP_FORM_STATUSES,
    },
  );
  return data.body;
}

/** Spec §3: every cookie and query value named utm_…, time_of_…, session_…, gclid, fbclid, msclkid. */
export function trackingValues(): Record<string, string> {
  const cookies = document.cookie
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part): [string, string] => {
      const at = part.indexOf('=');
      const name = at < 0 ? part : part.slice(0, at);
      const value = at < 0 ? '' : part.slice(at + 1);
      try {
        return [name, decodeURIComponent(value)];
      } catch {
        return [name, value];
      }
    });
  return collectTracking(cookies, new URLSearchParams(window.location.search).entries());
}

/** A code is on its way to `email` (the answer is the same when the address already has an account). */
export type SignupStarted = { email: string; expires_at: string; resend_at: string };

/** Sends the form: nothing is created yet; a six-digit code goes to the address. Sending again sends a new code. */
export async function register(input: RegisterInput): Promise<SignupStarted> {
  const { data } = await api.post<Envelope<SignupStarted>>('/business/register', input, {
    handledStatuses: SIGNUP_FORM_STATUSES,
  });
  return data.body;
}

export type MobileCodeSent = {
  mobile: string;
  expires_at: string;
  resend_at: string;
  sandbox_code: string | null;
};

export async function sendMobileCode(mobile: string): Promise<MobileCodeSent> {
  const { data } = await api.put<Envelope<MobileCodeSent>>(
    '/business/verification/mobile/send-code',
    { mobile },
    { handledStatuses: SIGNUP_FORM_STATUSES },
  );
  return data.body;
}

export async function verifyMobile(phone: string, code: string): Promise<{ mobile: string }> {
  const { data } = await api.put<Envelope<{ mobile: string }>>(
    '/business/verification/mobile/verify',
    { phone, code },
    { handledStatuses: SIGNUP_FORM_STATUSES },
  );
  return data.body;
}

export type LinkSent = { sent: boolean; already_verified: boolean; email: string | null };

/** A new confirmation link: for the signed-in business, or for the one an old link (its secret) belonged to. */
export async function resendLink(secret?: string): Promise<LinkSent> {
  const { data } = await api.put<Envelope<LinkSent>>(
    '/business/register/resend-link',
    secret ? { secret } : {},
    { handledStatuses: SIGNUP_FORM_STATUSES },
  );
  return data.body;
}

export async function verifyEmail(secret: string): Promise<{ business_name: string }> {
  const { data } = await api.put<Envelope<{ business_name: string }>>(
    '/business/mybusiness/verify',
    { secret },
    { handledStatuses: SIGNUP_FORM_STATUSES },
  );
  return data.body;
}

/** The country this browser is probably in: its language's region, else the region of its time zone's locale. */
export function guessCountry(): string {
  for (const tag of navigator.languages ?? [navigator.language]) {
    try {
      const region = new Intl.Locale(tag).maximize().region;
      if (region && /^[A-Z]{2}$/.test(region)) return region;
    } catch {
      // An odd language tag: try the next.
    }
  }
  return 'AU';
}

export const guessTimezone = (): string =>
  Intl.DateTimeFormat().resolvedOptions().timeZone || 'Australia/Melbourne';

export type InvitationPreview = {
  business_name: string;
  email: string;
  role: 'owner' | 'staff';
  invited_by: string | null;
  /** The name the inviter typed for the person, for the form to start from. */
  full_name: string | null;
  /** The locations a team member is invited to work at; null for all of them. */
  location_names: string[] | null;
  has_account: boolean;
};

export async function previewInvitation(secret: string): Promise<InvitationPreview> {
  const { data } = await api.get<Envelope<InvitationPreview>>(
    `/business/invitations/${encodeURIComponent(secret)}`,
    {
      handledStatuses: SIGNUP_FORM_STATUSES,
    },
  );
  return data.body;
}

/** Joins the business the invitation is for, and signs in (the app loads the rest as it opens). */
export async function acceptInvitation(secret: string, input: { full_name?: string; password: string }) {
  const { data } = await api.post<Envelope<{ token: string; key: string; iv: string }>>(
    `/business/invitations/${encodeURIComponent(secret)}/accept`,
    input,
    { handledStatuses: SIGNUP_FORM_STATUSES },
  );
  writeCookies(loginCookieWrites(data.body));
}
