import { businesses, type DbOrTx, locations } from '@switchboard/db';
import {
  answer,
  IdParams,
  WIDGET_DEFAULT_GREETING,
  WIDGET_FIELDS,
  type WidgetFieldKey,
  type WidgetSettings,
  WidgetSettingsAnswer,
  type WidgetSettingsInput,
  WidgetSettingsRequest,
} from '@switchboard/shared';
import { and, count, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { defaultTitle, type WidgetPlace, widgetConfig } from '../../channels/widget/plugin.ts';
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

/** The business's name, logo and number of locations: the chat's default title, its logo and its subtitle. */
async function placeOf(
  db: DbOrTx,
  location: { business_id: string; name: string | null },
): Promise<WidgetPlace> {
  const [business] = await db
    .select({ name: businesses.name, image: businesses.image })
    .from(businesses)
    .where(eq(businesses.id, location.business_id));
  const [places] = await db
    .select({ n: count() })
    .from(locations)
    .where(eq(locations.business_id, location.business_id));
  return {
    business_name: business?.name ?? '',
    location_name: location.name,
    several_locations: (places?.n ?? 0) > 1,
    logo: business?.image ?? null,
  };
}

const isOwnText = (value: unknown) => typeof value === 'string' && value.trim() !== '';

function toJson(
  location: { id: string; widget_settings: Record<string, unknown> | null },
  place: WidgetPlace,
  publicUrl: string,
): WidgetSettings {
  const config = widgetConfig(place, location.widget_settings);
  return {
    location_id: location.id,
    color: config.color,
    title: config.title,
    title_is_default: !isOwnText(location.widget_settings?.title),
    default_title: defaultTitle(place),
    subtitle: config.subtitle,
    logo: config.logo,
    greeting: config.greeting,
    greeting_is_default: !isOwnText(location.widget_settings?.greeting),
    default_greeting: WIDGET_DEFAULT_GREETING,
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
  const location = await findLocation(db, requireBusiness(actor), locationId);
  return toJson(location, await placeOf(db, location), publicUrl);
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
    ...(input.title ? { title: input.title } : {}),
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
    return toJson(row!, await placeOf(tx, row!), publicUrl);
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
