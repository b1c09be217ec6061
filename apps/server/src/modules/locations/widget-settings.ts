import { locations } from '@switchboard/db';
import {
  answer,
  IdParams,
  WIDGET_FIELDS,
  type WidgetFieldKey,
  type WidgetSettings,
  WidgetSettingsAnswer,
  type WidgetSettingsInput,
  WidgetSettingsRequest,
} from '@switchboard/shared';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { defaultGreeting, widgetConfig } from '../../channels/widget/plugin.ts';
import type { DbActor } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { recordAudit } from '../../lib/audit.ts';
import { requireBusiness, requireOwner } from '../../plugins/auth.ts';
import { findLocation } from './service.ts';

const FIELD_NAMES: Record<WidgetFieldKey, string> = {
  name: 'name',
  phone: 'phone number',
  email: 'email address',
} as const;

/** The snippet a business pastes into its website, before `</body>`. */
export function widgetSnippet(publicUrl: string, locationId: string): string {
  return `<script src="${publicUrl}/widget.js" data-location="${locationId}" async></script>`;
}

function toJson(
  location: { id: string; name: string | null; widget_settings: Record<string, unknown> | null },
  publicUrl: string,
): WidgetSettings {
  const config = widgetConfig(location.name ?? '', location.widget_settings);
  const fallback = defaultGreeting(location.name ?? '');
  const stored = location.widget_settings?.greeting;
  return {
    location_id: location.id,
    color: config.color,
    greeting: config.greeting,
    greeting_is_default: !(typeof stored === 'string' && stored.trim()),
    default_greeting: fallback,
    fields: config.fields,
    script_url: `${publicUrl}/widget.js`,
    chat_url: `${publicUrl}/widget?location=${location.id}`,
    snippet: widgetSnippet(publicUrl, location.id),
  };
}

export async function getWidgetSettings(
  { db, actor }: DbActor,
  locationId: string,
  publicUrl: string,
): Promise<WidgetSettings> {
  return toJson(await findLocation(db, requireBusiness(actor), locationId), publicUrl);
}

/** Replaces the location's widget settings; the widget on every website reads them on its next page load. */
export async function updateWidgetSettings(
  { db, actor }: DbActor,
  locationId: string,
  input: WidgetSettingsInput,
  publicUrl: string,
): Promise<WidgetSettings> {
  const a = requireOwner(actor, 'change the chat widget');
  for (const key of WIDGET_FIELDS) {
    const f = input.fields[key];
    if (f.required && !f.ask) {
      throw new AppError(
        'unprocessable',
        `The ${FIELD_NAMES[key]} cannot be required when the form does not ask for it.`,
      );
    }
  }
  const settings = {
    color: input.color.toUpperCase(),
    ...(input.greeting ? { greeting: input.greeting } : {}),
    fields: input.fields,
  };
  return db.transaction(async (tx) => {
    const current = await findLocation(tx, a, locationId);
    const [row] = await tx
      .update(locations)
      .set({ widget_settings: settings })
      .where(and(eq(locations.id, current.id), eq(locations.business_id, a.business_id)))
      .returning();
    await recordAudit(tx, a, 'location.widget_settings', { target: current.id, detail: settings });
    return toJson(row!, publicUrl);
  });
}

/** `GET` (anyone in the business) and `PUT` (the owner) `/business/locations/{id}/widget`. */
export const widgetSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/business/locations/:id/widget',
    { schema: { params: IdParams, response: { 200: answer(WidgetSettingsAnswer) } } },
    async (request) => ({
      body: await getWidgetSettings(request.ctx, request.params.id, app.config.publicUrl),
    }),
  );

  app.put(
    '/business/locations/:id/widget',
    {
      schema: {
        params: IdParams,
        body: WidgetSettingsRequest,
        response: { 200: answer(WidgetSettingsAnswer) },
      },
    },
    async (request) => ({
      body: await updateWidgetSettings(request.ctx, request.params.id, request.body, app.config.publicUrl),
    }),
  );
};
