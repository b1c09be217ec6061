import { z } from 'zod';
import { defineJob } from '../define.ts';

/**
 * The email a sign-up asks for: its code for a new address, "you already have an account" for a taken one.
 * The code is made where the email is sent, so it is never stored in clear (only its HMAC, on the row).
 */
export const signupMail = defineJob({
  name: 'mail.signup',
  payload: z.object({ secret_id: z.uuid() }),
  retry: { retryLimit: 5, retryDelay: 30, retryBackoff: true },
});

/**
 * A password reset asked for this address: the link goes out when the address has an account, nothing
 * otherwise. Done here rather than in the request so the answer takes the same time either way, and made here
 * so the link is never stored in clear (only its hash).
 */
export const passwordResetMail = defineJob({
  name: 'mail.password-reset',
  payload: z.object({ email: z.string().max(320) }),
  retry: { retryLimit: 5, retryDelay: 30, retryBackoff: true },
});
