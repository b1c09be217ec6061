import { z } from 'zod';

/**
 * How much one visitor can send into a location through its public doors (the website chat and the forms)
 * before being asked to wait: per location, set by the owner, counted over one hour in a store every app
 * node shares. The defaults let a real customer through several times over and stop a script early.
 */
export const INTAKE_WINDOW_SECONDS = 3600;

export const INTAKE_LIMIT_KEYS = ['chats_per_ip', 'messages_per_visitor', 'forms_per_ip'] as const;
export type IntakeLimitKey = (typeof INTAKE_LIMIT_KEYS)[number];
export type IntakeLimits = Record<IntakeLimitKey, number>;

export const INTAKE_LIMIT_DEFAULTS: IntakeLimits = {
  chats_per_ip: 6,
  messages_per_visitor: 120,
  forms_per_ip: 10,
};

export const INTAKE_LIMIT_MIN = 1;
export const INTAKE_LIMIT_MAX = 1000;

/** What each limit is called on screen and in error messages. */
export const INTAKE_LIMIT_LABELS: Record<IntakeLimitKey, string> = {
  chats_per_ip: 'New chats from one network, per hour',
  messages_per_visitor: 'Chat messages from one visitor, per hour',
  forms_per_ip: 'Form submissions from one network, per hour',
};

const limit = (key: IntakeLimitKey) =>
  z
    .number(`${INTAKE_LIMIT_LABELS[key]}: must be a whole number`)
    .int(`${INTAKE_LIMIT_LABELS[key]}: must be a whole number`)
    .min(INTAKE_LIMIT_MIN, `${INTAKE_LIMIT_LABELS[key]}: must be at least ${INTAKE_LIMIT_MIN}`)
    .max(INTAKE_LIMIT_MAX, `${INTAKE_LIMIT_LABELS[key]}: must be at most ${INTAKE_LIMIT_MAX}`);

/** `PUT /business/locations/{id}/limits`. */
export const IntakeLimitsRequest = z.strictObject({
  chats_per_ip: limit('chats_per_ip'),
  messages_per_visitor: limit('messages_per_visitor'),
  forms_per_ip: limit('forms_per_ip'),
});

/** `GET` and `PUT /business/locations/{id}/limits`: the limits in force, and the defaults to go back to. */
const Limits = z.object({
  chats_per_ip: z.number(),
  messages_per_visitor: z.number(),
  forms_per_ip: z.number(),
});
export const IntakeLimitsAnswer = z.object({
  location_id: z.string(),
  limits: Limits,
  defaults: Limits,
  window_seconds: z.number(),
});
export type IntakeLimitsResponse = z.input<typeof IntakeLimitsAnswer>;

/** A location's stored limits, each missing or unreadable one replaced by its default. */
export function intakeLimitsOf(stored: Record<string, unknown> | null | undefined): IntakeLimits {
  const out = { ...INTAKE_LIMIT_DEFAULTS };
  for (const key of INTAKE_LIMIT_KEYS) {
    const value = stored?.[key];
    if (
      typeof value === 'number' &&
      Number.isInteger(value) &&
      value >= INTAKE_LIMIT_MIN &&
      value <= INTAKE_LIMIT_MAX
    ) {
      out[key] = value;
    }
  }
  return out;
}
