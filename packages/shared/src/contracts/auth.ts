import { z } from 'zod';
import { EmailField, NewPassword, Timestamp } from './fields.ts';
import { Uuid } from './ids.ts';

/** `POST /auth/login`. */
export const LoginRequest = z.object({
  email: z.string().trim().min(1, 'Please enter your email').max(320),
  password: z.string().min(1, 'Please enter your password').max(1024),
});
export type LoginRequest = z.input<typeof LoginRequest>;

/** `bid` / `lid` headers of a login: the business and location to open, when the browser remembers them. */
const uuidHeader = Uuid.optional().catch(undefined);
export const LoginHeaders = z.looseObject({ bid: uuidHeader, lid: uuidHeader });

/** The session token, and the key and iv the browser encrypts its local copies with. */
export const LoginAnswer = z.object({ token: z.string(), key: z.string(), iv: z.string() });
export type LoginResult = z.input<typeof LoginAnswer>;

/** `GET /auth/unlock?token=` — the emailed link; answers with a redirect to the login page. */
export const UnlockQuery = z.object({ token: z.string().max(2000).optional() });

export const LogoutAnswer = z.object({ logged_out: z.literal(true) });

/** `PUT /user/switch`: the business (and location) to work in; answers a token for that selection. */
export const SwitchRequest = z.object({ business_id: Uuid, location_id: Uuid.optional() });
export const SwitchAnswer = z.object({ token: z.string() });

/** `PUT /user/password`: answers a fresh session, every other session of the user ends. */
export const PasswordRequest = z.object({
  current_password: z.string().min(1).max(1024),
  new_password: NewPassword,
});
export type PasswordRequest = z.input<typeof PasswordRequest>;

/** `POST /auth/password-reset`: the address to send a reset link to, if it has an account. */
export const PasswordResetRequest = z.strictObject({ email: EmailField });
/** The same answer whether or not the address has an account. */
export const PasswordResetSent = z.object({
  email: z.string(),
  /** How long the emailed link works. */
  minutes: z.number(),
});

/** The secret from the emailed reset link. */
const ResetToken = z.string().min(1, 'This link is incomplete').max(200);

/** `POST /auth/password-reset/check`: whether the link still works, before a new password is typed. */
export const PasswordResetCheck = z.strictObject({ token: ResetToken });
export const PasswordResetOpen = z.object({ email: z.string(), expires_at: Timestamp });

/** `POST /auth/password-reset/complete`: answers a new session; every other session of the person ends. */
export const PasswordResetComplete = z.strictObject({ token: ResetToken, password: NewPassword });

/** `GET /health`. */
export const HealthAnswer = z.object({ ok: z.literal(true), engine: z.enum(['postgres', 'pglite']) });

/** `GET /public/config`: what the web app needs before anyone signs in. */
export const PublicConfig = z.object({
  sandbox: z.boolean(),
  marketing_script_url: z.string().nullable(),
  /** Where the web app asks for reports (spec §7: analytics on a separate host); null: this server's. */
  analytics_url: z.string().nullable(),
});
export type PublicConfig = z.input<typeof PublicConfig>;
