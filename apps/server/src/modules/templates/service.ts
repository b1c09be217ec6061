import { businesses, customers, locations, messageTemplates } from '@switchboard/db';
import {
  isUuid,
  nextBusinessDay,
  renderTemplate,
  TEMPLATE_PLACEHOLDERS,
  unknownPlaceholders,
} from '@switchboard/shared';
import { and, asc, eq, isNull, or } from 'drizzle-orm';
import type { Context } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { requireBusiness, requireOwner } from '../../plugins/auth.ts';
import { loadEnquiry } from '../enquiries/service.ts';
import { assertOwnLocation } from '../locations/service.ts';

export type TemplateInput = { name: string; body: string; location_id?: string | null };

const notFound = () => new AppError('not_found', 'Template not found.');

function dto(t: typeof messageTemplates.$inferSelect) {
  return { id: t.id, name: t.name, body: t.body, location_id: t.location_id, updated_at: t.updated_at };
}

/** The business's templates offered in a location: its own and those for every location. */
export async function listTemplates({ db, actor }: Pick<Context, 'db' | 'actor'>, locationId?: string) {
  const a = requireBusiness(actor);
  const where = locationId
    ? and(
        eq(messageTemplates.business_id, a.business_id),
        or(isNull(messageTemplates.location_id), eq(messageTemplates.location_id, locationId)),
      )
    : eq(messageTemplates.business_id, a.business_id);
  const rows = await db.select().from(messageTemplates).where(where).orderBy(asc(messageTemplates.name));
  return rows.map(dto);
}

/** A template naming a placeholder that is not ours is refused, saying which and what can be used. */
function assertKnownPlaceholders(body: string | undefined): void {
  const unknown = body ? unknownPlaceholders(body) : [];
  if (!unknown.length) return;
  const list = unknown.map((n) => `{${n}}`).join(', ');
  throw new AppError(
    'unprocessable',
    `${list} ${unknown.length === 1 ? 'is not a placeholder' : 'are not placeholders'} Switchboard fills in. Use ${TEMPLATE_PLACEHOLDERS.map((n) => `{${n}}`).join(', ')}.`,
  );
}

export async function createTemplate({ db, actor }: Context, input: TemplateInput) {
  const a = requireOwner(actor, 'manage message templates');
  assertKnownPlaceholders(input.body);
  await assertOwnLocation(db, a, input.location_id);
  const [row] = await db
    .insert(messageTemplates)
    .values({
      business_id: a.business_id,
      name: input.name,
      body: input.body,
      location_id: input.location_id ?? null,
    })
    .returning();
  return dto(row!);
}

export async function updateTemplate({ db, actor }: Context, id: string, input: Partial<TemplateInput>) {
  const a = requireOwner(actor, 'manage message templates');
  assertKnownPlaceholders(input.body);
  if (!isUuid(id)) throw notFound();
  await assertOwnLocation(db, a, input.location_id);
  const [row] = await db
    .update(messageTemplates)
    .set(input)
    .where(and(eq(messageTemplates.id, id), eq(messageTemplates.business_id, a.business_id)))
    .returning();
  if (!row) throw notFound();
  return dto(row);
}

export async function deleteTemplate({ db, actor }: Context, id: string) {
  const a = requireOwner(actor, 'manage message templates');
  if (!isUuid(id)) throw notFound();
  const rows = await db
    .delete(messageTemplates)
    .where(and(eq(messageTemplates.id, id), eq(messageTemplates.business_id, a.business_id)))
    .returning({ id: messageTemplates.id });
  if (rows.length === 0) throw notFound();
}

/**
 * The templates offered in an enquiry, each with its placeholders filled for that customer: first_name,
 * business_name, location_name and business_day (the next business day at the location: not a weekend or one of
 * its holidays).
 */
export async function templatesForEnquiry(
  { db, actor }: Pick<Context, 'db' | 'actor'>,
  enquiryId: string,
  now = new Date(),
) {
  const a = requireBusiness(actor);
  const { e } = await loadEnquiry(db, a, enquiryId);
  const [ctx] = await db
    .select({
      first_name: customers.first_name,
      business_name: businesses.name,
      timezone: businesses.timezone,
      location_zone: locations.timezone,
      location_name: locations.name,
      holidays: locations.holidays,
    })
    .from(customers)
    .innerJoin(businesses, eq(businesses.id, customers.business_id))
    .innerJoin(locations, eq(locations.id, e.location_id))
    .where(eq(customers.id, e.customer_id));
  const values = {
    first_name: ctx?.first_name ?? '',
    business_name: ctx?.business_name ?? '',
    // A location without a name is known to customers by the business's name.
    location_name: ctx?.location_name || ctx?.business_name || '',
    business_day: nextBusinessDay(
      now,
      ctx?.location_zone ?? ctx?.timezone ?? 'Australia/Melbourne',
      ctx?.holidays.map((h) => h.date),
    ),
  };
  const templates = await listTemplates({ db, actor }, e.location_id);
  return templates.map((t) => ({ ...t, rendered: renderTemplate(t.body, values) }));
}
