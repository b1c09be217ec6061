import {
  aiDocuments,
  aiFaqs,
  aiProfiles,
  businesses,
  customers,
  type DbOrTx,
  enquiries,
  locations,
  messages,
} from '@switchboard/db';
import {
  type AiAutoReplyAction,
  AiAutoReplyOptions,
  type AiOnboardRequest,
  type AiProviderKind,
  nextBusinessDay,
  renderTemplate,
} from '@switchboard/shared';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { DbActor } from '../../context.ts';
import { AppError } from '../../errors.ts';
import {
  atTheirLocations,
  type BusinessActor,
  requireBusiness,
  requireOwner,
  requireSuperAdmin,
} from '../../plugins/auth.ts';
import type { Assistant, Turn, Voice } from './assistant.ts';
import { builtinAssistant } from './builtin.ts';
import { insertFaqs } from './faq-store.ts';
import { modelAssistant } from './model.ts';

export const DEFAULT_HANDOFF_MESSAGE =
  "Thanks {first_name}, I've passed your message to our team and someone will reply shortly.";

/** How many earlier lines of a conversation the assistant is shown. */
const HISTORY_LINES = 20;

const builtin = builtinAssistant();
const models = new WeakMap<Config['ai'], Assistant>();

/** The installation's model provider, when one is configured. */
function installedModel(config: Pick<Config, 'ai'>): Assistant | null {
  if (!config.ai.baseUrl) return null;
  let model = models.get(config.ai);
  if (!model) {
    model = modelAssistant(config.ai);
    models.set(config.ai, model);
  }
  return model;
}

/**
 * The assistant a business uses: the model when one is configured for the installation, else the built-in
 * one; a super admin may pin a business to either (a pinned model with none configured falls back).
 */
export async function assistantFor(
  db: DbOrTx,
  config: Pick<Config, 'ai'>,
  businessId: string,
): Promise<Assistant> {
  const [profile] = await db
    .select({ provider: aiProfiles.provider })
    .from(aiProfiles)
    .where(eq(aiProfiles.business_id, businessId));
  const model = installedModel(config);
  if (profile?.provider === 'builtin' || !model) return builtin;
  return model;
}

async function loadProfile(db: DbOrTx, businessId: string) {
  const [row] = await db.select().from(aiProfiles).where(eq(aiProfiles.business_id, businessId));
  return row ?? null;
}

function profileDto(row: Awaited<ReturnType<typeof loadProfile>>) {
  return {
    description: row?.description ?? '',
    services: row?.services ?? '',
    hours: row?.hours ?? '',
    tone: row?.tone ?? ('friendly' as const),
    handoff_message: row?.handoff_message ?? DEFAULT_HANDOFF_MESSAGE,
    onboarding_completed: row?.onboarding_completed ?? false,
  };
}

/** `GET /business/ai`: the profile, the provider in use, what the assistant knows, each location's auto-reply. */
export async function aiStatus({ db, actor }: DbActor, config: Pick<Config, 'ai'>) {
  const { business_id } = requireBusiness(actor);
  const [profile, assistant, faqCounts, [documents], locationRows] = await Promise.all([
    loadProfile(db, business_id),
    assistantFor(db, config, business_id),
    db
      .select({ status: aiFaqs.status, n: count() })
      .from(aiFaqs)
      .where(eq(aiFaqs.business_id, business_id))
      .groupBy(aiFaqs.status),
    db.select({ n: count() }).from(aiDocuments).where(eq(aiDocuments.business_id, business_id)),
    db
      .select({
        id: locations.id,
        name: locations.name,
        action: locations.ai_auto_reply,
        options: locations.ai_options,
      })
      .from(locations)
      .where(eq(locations.business_id, business_id))
      .orderBy(asc(locations.precedence), asc(locations.created_at)),
  ]);
  return {
    profile: profileDto(profile),
    provider: { kind: assistant.kind, model: assistant.model, embeddings: assistant.embeddings },
    faq_count: faqCounts.find((c) => c.status === 'active')?.n ?? 0,
    proposed_count: faqCounts.find((c) => c.status === 'proposed')?.n ?? 0,
    document_count: documents?.n ?? 0,
    locations: locationRows.map((l) => ({
      location_id: l.id,
      name: l.name,
      action: autoReplyAction(l.action),
      options: AiAutoReplyOptions.parse(l.options ?? {}),
    })),
  };
}

export const autoReplyAction = (value: string): AiAutoReplyAction =>
  value === 'suggest' || value === 'auto' ? value : 'off';

/**
 * `POST /business/ai/onboard`: keeps what the owner says about the business and marks onboarding done. The
 * hours and services become FAQs (replacing the ones onboarding made before), so the assistant can answer
 * them from the first day.
 */
export async function onboard({ db, actor }: DbActor, input: AiOnboardRequest) {
  const { business_id } = requireOwner(actor, 'set up the assistant');
  const values = {
    description: input.description,
    services: input.services ?? '',
    hours: input.hours ?? '',
    tone: input.tone ?? 'friendly',
    ...(input.handoff_message !== undefined ? { handoff_message: input.handoff_message } : {}),
    onboarding_completed: true,
  };
  await db.transaction(async (tx) => {
    await tx
      .insert(aiProfiles)
      .values({ business_id, ...values })
      .onConflictDoUpdate({ target: aiProfiles.business_id, set: { ...values, updated_at: new Date() } });
    await tx.delete(aiFaqs).where(and(eq(aiFaqs.business_id, business_id), eq(aiFaqs.origin, 'onboarding')));
    const made = [
      values.hours && { question: 'What are your opening hours?', answer: values.hours },
      values.services && { question: 'What services do you offer?', answer: values.services },
      { question: 'What does the business do?', answer: values.description },
    ].filter((f): f is { question: string; answer: string } => !!f);
    await insertFaqs(
      tx,
      business_id,
      made.map((f) => ({ ...f, origin: 'onboarding' as const, location_ids: input.location_ids ?? null })),
    );
  });
}

/** `PUT /business/ai/provider` (super admin): pins a business to a provider, or back to the installation's. */
export async function setProvider({ db, actor }: DbActor, provider: AiProviderKind | null) {
  requireSuperAdmin(actor);
  const { business_id } = requireBusiness(actor);
  await db
    .insert(aiProfiles)
    .values({ business_id, provider })
    .onConflictDoUpdate({ target: aiProfiles.business_id, set: { provider, updated_at: new Date() } });
}

/** Who the assistant speaks for in a location, and to whom. */
export async function voiceFor(
  db: DbOrTx,
  businessId: string,
  locationId: string | null,
  customer: { first_name: string | null; name: string | null } | null,
): Promise<Voice> {
  const [[business], [location], profile] = await Promise.all([
    db.select().from(businesses).where(eq(businesses.id, businessId)),
    locationId
      ? db.select({ name: locations.name }).from(locations).where(eq(locations.id, locationId))
      : Promise.resolve([]),
    loadProfile(db, businessId),
  ]);
  if (!business) throw new AppError('not_found', 'Business not found.');
  const first_name = customer?.first_name?.trim() || customer?.name?.trim().split(/\s+/)[0] || null;
  const p = profileDto(profile);
  const handoff = renderTemplate(p.handoff_message, {
    first_name: first_name ?? '',
    business_name: business.name,
    location_name: location?.name ?? null,
    business_day: nextBusinessDay(new Date(), business.timezone),
  })
    .replace(/\s+,/g, ',')
    .replace(/\s{2,}/g, ' ')
    .trim();
  return {
    business_id: businessId,
    business_name: business.name,
    location_id: locationId,
    location_name: location?.name ?? null,
    first_name,
    tone: p.tone,
    profile: { description: p.description, services: p.services, hours: p.hours },
    handoff_message: handoff,
  };
}

/** An enquiry's conversation as the assistant reads it: the last lines with words, oldest first. */
export async function turnsOf(db: DbOrTx, enquiryId: string): Promise<Turn[]> {
  const rows = await db
    .select({ direction: messages.direction, text: messages.message })
    .from(messages)
    .where(and(eq(messages.enquiry_id, enquiryId), sql`${messages.message} <> ''`))
    .orderBy(desc(messages.created_at), desc(messages.id))
    .limit(HISTORY_LINES);
  return rows.reverse().map((r) => ({ role: r.direction === 'in' ? 'customer' : 'business', text: r.text }));
}

/** The enquiry, its customer and the voice to answer in, for a reply in it by this staff member. */
export async function enquiryVoice(db: DbOrTx, a: BusinessActor, enquiryId: string) {
  const [row] = await db
    .select({ e: enquiries, c: customers })
    .from(enquiries)
    .innerJoin(customers, eq(customers.id, enquiries.customer_id))
    .where(
      and(
        eq(enquiries.id, enquiryId),
        eq(enquiries.business_id, a.business_id),
        atTheirLocations(a, enquiries.location_id),
      ),
    );
  if (!row) throw new AppError('enquiry_not_found', 'Enquiry not found.');
  const voice = await voiceFor(db, a.business_id, row.e.location_id, row.c);
  return { enquiry: row.e, customer: row.c, voice };
}
