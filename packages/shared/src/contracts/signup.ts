import { isSupportedCountry } from 'libphonenumber-js';
import { z } from 'zod';
import { isTrackingName, MAX_TRACKING_VALUE_LENGTH, MAX_TRACKING_VALUES } from '../rules/tracking.ts';
import { LoginAnswer } from './auth.ts';
import { EmailField, NewPassword, normalisePhone, optionalText, Timestamp, TimeZoneField } from './fields.ts';

export const CountryField = z
  .string()
  .trim()
  .transform((v) => v.toUpperCase())
  .refine((v) => /^[A-Z]{2}$/.test(v) && isSupportedCountry(v), 'Please choose a country');

const Tracking = z
  .record(z.string().max(100), z.string().max(MAX_TRACKING_VALUE_LENGTH))
  .refine((values) => Object.keys(values).length <= MAX_TRACKING_VALUES, 'Too many tracking values')
  .refine(
    (values) => Object.keys(values).every(isTrackingName),
    'Only utm_, time_of_, session_, gclid, fbclid and msclkid values are accepted',
  );

/** `GET /business/register/form`: the signed token the sign-up form sends back (bot protection). */
export const RegisterForm = z.object({ form_token: z.string(), min_seconds: z.number() });

/**
 * `POST /business/register`. `website` is the honeypot: people never see it, so it must stay empty. The IP
 * details of spec §7's `meta` are looked up by the server from the connection; the browser sends the tracking.
 */
export const RegisterRequest = z
  .strictObject({
    business_name: z.string().trim().min(1, 'Please enter the business name').max(200),
    full_name: z.string().trim().min(1, 'Please enter your name').max(200),
    email: EmailField,
    password: NewPassword,
    mobile: z.string().trim().min(1, 'Please enter your mobile number').max(40),
    country: CountryField,
    timezone: TimeZoneField,
    location: z.strictObject({
      name: z.string().trim().min(1, 'Please enter the name of your first location').max(200),
      address: optionalText(300).optional(),
    }),
    meta: z
      .strictObject({
        tracking: Tracking.optional(),
        /**
         * The business whose referral link brought this sign-up: `/signup?ref={its referral code}`, or its id
         * in links shared before there were codes.
         */
        referral: z
          .string()
          .trim()
          .toLowerCase()
          .regex(/^[a-z0-9-]{4,80}$/, 'must be a referral code')
          .optional(),
      })
      .optional(),
    form_token: z.string().min(1).max(2000),
    website: z.string().max(500).optional(),
  })
  .transform((input, ctx) => {
    const mobile = normalisePhone(input.mobile, input.country as never);
    if (!mobile) {
      ctx.addIssue({
        code: 'custom',
        path: ['mobile'],
        message: 'Please enter a valid mobile number for the country you chose',
      });
      return z.NEVER;
    }
    return { ...input, mobile };
  });
export type RegisterInput = z.input<typeof RegisterRequest>;

/**
 * What `POST /business/register` answers, the same whether or not the address has an account: a code is on its
 * way to `email` (or, for an address with an account, an email saying so), and nothing is created until it is
 * entered.
 */
export const SignupStarted = z.object({
  email: z.string(),
  /** When the code stops working. */
  expires_at: Timestamp,
  /** When the page offers to send another. */
  resend_at: Timestamp,
});

/** `POST /business/register/confirm`: the six-digit code emailed to the address. */
export const ConfirmSignupRequest = z.strictObject({
  email: EmailField,
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'The code is the six digits we emailed you'),
});

/** The business is created and its owner signed in, as a login would. */
export const RegisterAnswer = LoginAnswer.extend({ business_id: z.string(), email: z.string() });

/** `PUT /business/register/resend-link`: an old link's secret (signed out), or nothing (signed in). */
export const ResendLinkRequest = z.strictObject({ secret: z.string().min(1).max(200).nullish() }).nullish();
export const LinkSent = z.object({
  sent: z.boolean(),
  /** The business had confirmed its email already: nothing was sent. */
  already_verified: z.boolean(),
  /** Where it went, partly hidden when asked for with an old link (`o•••@example.com`). */
  email: z.string().nullable(),
});

/** `PUT /business/mybusiness/verify`: the secret from the emailed link. */
export const VerifyEmailRequest = z.strictObject({ secret: z.string().min(1).max(200) });
export const EmailVerified = z.object({
  verified: z.literal(true),
  business_id: z.string(),
  business_name: z.string(),
});

/** `PUT /business/verification/mobile/send-code` */
export const SendMobileCodeRequest = z.strictObject({ mobile: z.string().trim().min(1).max(40) });
export const MobileCodeSent = z.object({
  mobile: z.string(),
  expires_at: Timestamp,
  /** When another code may be asked for. */
  resend_at: Timestamp,
  /** Sandbox mode with no SMS provider: the code, to show on screen (never set when a text was sent). */
  sandbox_code: z.string().nullable(),
});

/** `PUT /business/verification/mobile/verify` */
export const VerifyMobileRequest = z.strictObject({
  phone: z.string().trim().min(1).max(40),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'The code is the six digits we texted you'),
});
export const MobileVerified = z.object({ mobile: z.string(), verified_at: Timestamp });
