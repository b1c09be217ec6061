import { aiFaqs, aiSections, businesses, type DbOrTx, locations } from '@switchboard/db';
import type { AiFaqPatch, AiFaqRequest } from '@switchboard/shared';
import { isUuid } from '@switchboard/shared';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Context, DbActor } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { requireBusiness, requireOwner } from '../../plugins/auth.ts';
import { faqSearch, insertFaqs } from './faq-store.ts';
import { assistOrExplain } from './model.ts';
import { assistantFor } from './service.ts';

type FaqRow = typeof aiFaqs.$inferSelect;

const faqNotFound = () => new AppError('not_found', 'FAQ not found.');

/** The business's location names by id, for showing where each FAQ applies. */
async function locationNames(db: DbOrTx, businessId: string): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: locations.id, name: locations.name })
    .from(locations)
    .where(eq(locations.business_id, businessId))
    .orderBy(asc(locations.precedence), asc(locations.created_at));
  return new Map(rows.map((r) => [r.id, r.name ?? 'Unknown Location']));
}

function toDto(f: FaqRow, names: Map<string, string>) {
  const all = !f.location_ids?.length;
  return {
    id: f.id,
    question: f.question,
    answer: f.answer,
    phrasings: f.phrasings,
    location_ids: all ? null : f.location_ids,
    location_names: all
      ? [...names.values()]
      : (f.location_ids ?? []).map((id) => names.get(id) ?? 'Unknown Location'),
    all_locations: all,
    status: f.status,
    origin: f.origin,
    document_id: f.document_id,
    target_faq_id: f.target_faq_id,
    source_enquiry_id: f.source_enquiry_id,
    created_at: f.created_at,
    updated_at: f.updated_at,
  };
}

/** Every id must be one of the business's locations (422 says which is not). */
async function checkLocations(db: DbOrTx, businessId: string, ids: string[] | null | undefined) {
  if (!ids?.length) return;
  const names = await locationNames(db, businessId);
  const unknown = ids.filter((id) => !names.has(id));
  if (unknown.length) {
    throw new AppError('unprocessable', `Location ${unknown[0]} is not one of this business's locations.`);
  }
}

export async function listFaqs(
  { db, actor }: DbActor,
  query: { page: number; page_size: number; status: 'active' | 'proposed'; q?: string | undefined },
) {
  const { business_id } = requireBusiness(actor);
  const conditions = [eq(aiFaqs.business_id, business_id), eq(aiFaqs.status, query.status)];
  if (query.q) {
    const like = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(
      sql`(${aiFaqs.question} ilike ${like} or ${aiFaqs.answer} ilike ${like}
           or array_to_string(${aiFaqs.phrasings}, ' ') ilike ${like})`,
    );
  }
  const where = and(...conditions);
  const [rows, [total], names] = await Promise.all([
    db
      .select()
      .from(aiFaqs)
      .where(where)
      .orderBy(desc(aiFaqs.created_at), desc(aiFaqs.id))
      .limit(query.page_size)
      .offset((query.page - 1) * query.page_size),
    db.select({ n: count() }).from(aiFaqs).where(where),
    locationNames(db, business_id),
  ]);
  return {
    items: rows.map((r) => toDto(r, names)),
    page: query.page,
    page_size: query.page_size,
    total: total?.n ?? 0,
  };
}

export async function faqsByIds({ db, actor }: DbActor, ids: string[]) {
  const { business_id } = requireBusiness(actor);
  const rows = await db
    .select()
    .from(aiFaqs)
    .where(and(eq(aiFaqs.business_id, business_id), inArray(aiFaqs.id, ids)));
  const names = await locationNames(db, business_id);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toDto(row, names)] : [];
  });
}

export async function createFaq({ db, actor }: DbActor, input: AiFaqRequest) {
  const { business_id } = requireOwner(actor, "change the assistant's FAQs");
  await checkLocations(db, business_id, input.location_ids);
  const [row] = await insertFaqs(db, business_id, [
    {
      question: input.question,
      answer: input.answer,
      phrasings: input.phrasings ?? [],
      location_ids: input.location_ids ?? null,
    },
  ]);
  return toDto(row!, await locationNames(db, business_id));
}

/**
 * Changes an FAQ. Accepting a proposal (`status: 'active'`) makes it an FAQ, or, when it proposes a further
 * phrasing of an FAQ, adds its question to that FAQ's phrasings and removes the proposal.
 */
export async function updateFaq({ db, actor }: DbActor, id: string, patch: AiFaqPatch) {
  const { business_id } = requireOwner(actor, "change the assistant's FAQs");
  if (!isUuid(id)) throw faqNotFound();
  await checkLocations(db, business_id, patch.location_ids);
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(aiFaqs)
      .where(and(eq(aiFaqs.id, id), eq(aiFaqs.business_id, business_id)))
      .for('update');
    if (!current) throw faqNotFound();
    const next = {
      question: patch.question ?? current.question,
      answer: patch.answer ?? current.answer,
      phrasings: patch.phrasings ?? current.phrasings,
      location_ids:
        patch.location_ids === undefined
          ? current.location_ids
          : patch.location_ids?.length
            ? patch.location_ids
            : null,
      status: patch.status ?? current.status,
    };
    const names = await locationNames(tx, business_id);
    if (current.status === 'proposed' && next.status === 'active' && current.target_faq_id) {
      const [target] = await tx
        .select()
        .from(aiFaqs)
        .where(and(eq(aiFaqs.id, current.target_faq_id), eq(aiFaqs.business_id, business_id)));
      if (target) {
        const phrasings = [...new Set([...target.phrasings, next.question])].slice(-20);
        const [updated] = await tx
          .update(aiFaqs)
          .set({ phrasings, search: faqSearch(target.question, phrasings, target.answer), embedding: null })
          .where(eq(aiFaqs.id, target.id))
          .returning();
        await tx.delete(aiFaqs).where(eq(aiFaqs.id, current.id));
        return toDto(updated!, names);
      }
    }
    const asked =
      next.question !== current.question || next.phrasings.join('\n') !== current.phrasings.join('\n');
    const [row] = await tx
      .update(aiFaqs)
      .set({
        ...next,
        target_faq_id: null,
        search: faqSearch(next.question, next.phrasings, next.answer),
        // What customers say changed: its meaning is embedded again.
        ...(asked ? { embedding: null } : {}),
      })
      .where(eq(aiFaqs.id, id))
      .returning();
    return toDto(row!, names);
  });
}

export async function deleteFaq({ db, actor }: DbActor, id: string): Promise<void> {
  const { business_id } = requireOwner(actor, "change the assistant's FAQs");
  if (!isUuid(id)) throw faqNotFound();
  const gone = await db
    .delete(aiFaqs)
    .where(and(eq(aiFaqs.id, id), eq(aiFaqs.business_id, business_id)))
    .returning({ id: aiFaqs.id });
  if (!gone.length) throw faqNotFound();
}

/**
 * `POST /business/ai/faq-regenerate`: proposes FAQs again from every uploaded document (the proposals waiting
 * from documents are replaced; accepted FAQs stay). Answers how many were proposed.
 */
export async function regenerateFaqs({ db, actor, config }: Pick<Context, 'db' | 'actor' | 'config'>) {
  const { business_id } = requireOwner(actor, "change the assistant's FAQs");
  const sections = await db
    .select({
      id: aiSections.id,
      heading: aiSections.heading,
      body: aiSections.body,
      document_id: aiSections.document_id,
    })
    .from(aiSections)
    .where(eq(aiSections.business_id, business_id))
    .orderBy(asc(aiSections.document_id), asc(aiSections.position));
  const [business] = await db
    .select({ name: businesses.name })
    .from(businesses)
    .where(eq(businesses.id, business_id));
  const assistant = await assistantFor(db, config, business_id);
  const proposed = sections.length
    ? await assistOrExplain(() => assistant.proposeFaqs(sections, { business_name: business?.name ?? '' }))
    : [];
  const documentOf = new Map(sections.map((s) => [s.id, s.document_id]));
  await db.transaction(async (tx) => {
    await tx
      .delete(aiFaqs)
      .where(
        and(
          eq(aiFaqs.business_id, business_id),
          eq(aiFaqs.status, 'proposed'),
          eq(aiFaqs.origin, 'document'),
        ),
      );
    await insertFaqs(
      tx,
      business_id,
      proposed.map((p) => ({
        question: p.question,
        answer: p.answer,
        status: 'proposed' as const,
        origin: 'document' as const,
        section_id: p.section_id,
        document_id: p.section_id ? (documentOf.get(p.section_id) ?? null) : null,
      })),
    );
  });
  return { proposed: proposed.length };
}
