import { z } from 'zod';
import { PRIMARY_COLOR } from '../constants.ts';

/** The pre-chat form's fields, in the order the widget shows them. */
export const WIDGET_FIELDS = ['name', 'phone', 'email'] as const;
export type WidgetFieldKey = (typeof WIDGET_FIELDS)[number];
/** Whether the pre-chat form asks for a field, and whether the visitor must fill it in. */
export type WidgetField = { ask: boolean; required: boolean };
export type WidgetFields = Record<WidgetFieldKey, WidgetField>;

export const WIDGET_MAX_GREETING_CHARS = 500;
/** A title longer than this no longer fits the chat's header on a phone. */
export const WIDGET_MAX_TITLE_CHARS = 60;
/** What the chat says until the owner writes a greeting: the business speaking, not one of its locations. */
export const WIDGET_DEFAULT_GREETING = "Hi! Ask us anything — we'll reply here.";
export const WIDGET_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

const Field = z.strictObject({ ask: z.boolean(), required: z.boolean() });
const Fields = z.strictObject({ name: Field, phone: Field, email: Field });

/** `PUT /business/locations/{id}/widget`: an empty or null title or greeting means the default one. */
export const WidgetSettingsRequest = z.strictObject({
  /** Empty, null or left out: the default title, which follows the business's name. */
  title: z
    .string()
    .trim()
    .max(WIDGET_MAX_TITLE_CHARS, `The title can be at most ${WIDGET_MAX_TITLE_CHARS} characters.`)
    .nullish(),
  color: z
    .string()
    .trim()
    .regex(WIDGET_COLOR_PATTERN, `Give the colour as a hex code like ${PRIMARY_COLOR}.`),
  /** Empty or null: the default greeting. */
  greeting: z
    .string()
    .trim()
    .max(WIDGET_MAX_GREETING_CHARS, `The greeting can be at most ${WIDGET_MAX_GREETING_CHARS} characters.`)
    .nullable(),
  fields: Fields,
});
export type WidgetSettingsInput = z.input<typeof WidgetSettingsRequest>;

/** `GET /business/locations/{id}/widget`: the settings in force and the snippet to paste. */
export const WidgetSettingsAnswer = z.object({
  location_id: z.string(),
  color: z.string(),
  /** The chat's title visitors see; `title_is_default` says it follows the business's name. */
  title: z.string(),
  title_is_default: z.boolean(),
  default_title: z.string(),
  /** Under the title: the location's name when the business has several, else null. */
  subtitle: z.string().nullable(),
  /** The business's logo (Business profile), shown beside the title. */
  logo: z.string().nullable(),
  /** The greeting visitors see; `greeting_is_default` says the owner has not written one. */
  greeting: z.string(),
  greeting_is_default: z.boolean(),
  default_greeting: z.string(),
  fields: Fields,
  script_url: z.string(),
  /** The chat page on its own, to try the widget or link to it. */
  chat_url: z.string(),
  snippet: z.string(),
});
export type WidgetSettings = z.input<typeof WidgetSettingsAnswer>;

/** `GET /widget-api/locations/{id}/config`: what the chat on a customer's website shows (no envelope). */
export const WidgetPublicConfig = z.object({
  location_name: z.string(),
  /** The chat's header: the owner's title, else the business's name. */
  title: z.string(),
  /** Under the title: the location's name when the business has several, else null. */
  subtitle: z.string().nullable(),
  /** The business's logo (its Business profile image), shown in the chat's header. */
  logo: z.string().nullable(),
  color: z.string(),
  greeting: z.string(),
  fields: Fields,
  /** Under the greeting: how soon the location replies, or that it is closed and when it opens (its hours). */
  availability: z.string().optional(),
});
export type WidgetConfig = z.input<typeof WidgetPublicConfig>;

/** `POST /widget-api/locations/{id}/sessions`: the visitor's token for the chat socket (no envelope). */
export const WidgetSession = z.object({ visitor_token: z.string() });

/** The longest chat message a visitor can send. */
export const WIDGET_MAX_MESSAGE_CHARS = 2000;

/** A chat message as the visitor sees it over the chat socket: no staff-only details. */
export type VisitorMessage = {
  id: string;
  from: 'visitor' | 'staff';
  text: string;
  created_at: string;
  client_id: string | null;
  /** Who answered (their first name), on a staff reply. */
  agent?: string | null;
  /** Their picture (My profile), on a staff reply; a path on this server. */
  agent_avatar?: string | null;
};

/**
 * `GET /enquiries/{id}/reply-route`: where a reply to this enquiry goes now. A website chat continues by text
 * message: while the visitor has the chat open a reply shows there (`chat`); once they have left it, by SMS to
 * the phone they gave (`sms`); without a phone, an SMS channel or their consent, it waits in the chat
 * (`waiting`). Every other channel answers `channel`. `detail` says it in words for the composer.
 */
export const ReplyRouteSchema = z.object({
  route: z.enum(['channel', 'chat', 'sms', 'waiting']),
  detail: z.string().nullable(),
});
export type ReplyRoute = z.input<typeof ReplyRouteSchema>;
