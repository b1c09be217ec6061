/** The pre-chat form's fields, in the order the widget shows them. */
export const WIDGET_FIELDS = ['name', 'phone', 'email'] as const;
export type WidgetFieldKey = (typeof WIDGET_FIELDS)[number];
/** Whether the pre-chat form asks for a field, and whether the visitor must fill it in. */
export type WidgetField = { ask: boolean; required: boolean };
export type WidgetFields = Record<WidgetFieldKey, WidgetField>;

export const WIDGET_MAX_GREETING_CHARS = 500;
export const WIDGET_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

/** `PUT /business/locations/{id}/widget`: an empty or null greeting means the default one. */
export type WidgetSettingsInput = { color: string; greeting: string | null; fields: WidgetFields };

/** `GET /business/locations/{id}/widget`: the settings in force and the snippet to paste. */
export type WidgetSettings = {
  location_id: string;
  color: string;
  /** The greeting visitors see; `greeting_is_default` says it follows the location's name. */
  greeting: string;
  greeting_is_default: boolean;
  default_greeting: string;
  fields: WidgetFields;
  script_url: string;
  /** The chat page on its own, to try the widget or link to it. */
  chat_url: string;
  snippet: string;
};
