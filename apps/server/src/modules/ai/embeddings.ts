import { aiFaqs, type DbOrTx } from '@switchboard/db';
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { KnowledgeHit } from './retrieval.ts';

/** Turns texts into vectors (the model provider's embeddings model). */
export type Embedder = (texts: string[]) => Promise<number[][]>;

/** At most this many FAQs are embedded for one reply; the rest on the next ones. */
const EMBED_BATCH = 64;
/** How many FAQs found by meaning join those found by words. */
const NEAREST = 5;
/** Below this cosine similarity an FAQ is not "about the same thing". */
const MIN_SIMILARITY = 0.3;

/** What is embedded for an FAQ: its question and the other ways it is asked (what customers say). */
const embeddedText = (f: { question: string; phrasings: string[] }) =>
  [f.question, ...f.phrasings].join('\n');

/**
 * Embeds the business's FAQs that have no vector yet (new, or whose question changed), a batch at a time, and
 * keeps the vectors beside them (`real[]`: PGlite has no pgvector, and a business's FAQs are few enough to
 * compare in memory).
 */
export async function fillEmbeddings(db: DbOrTx, businessId: string, embed: Embedder): Promise<number> {
  const missing = await db
    .select({ id: aiFaqs.id, question: aiFaqs.question, phrasings: aiFaqs.phrasings })
    .from(aiFaqs)
    .where(and(eq(aiFaqs.business_id, businessId), eq(aiFaqs.status, 'active'), isNull(aiFaqs.embedding)))
    .limit(EMBED_BATCH);
  if (!missing.length) return 0;
  const vectors = await embed(missing.map(embeddedText));
  for (const [i, faq] of missing.entries()) {
    const vector = vectors[i];
    if (vector?.length) await db.update(aiFaqs).set({ embedding: vector }).where(eq(aiFaqs.id, faq.id));
  }
  return missing.length;
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** The FAQs nearest in meaning to a message's vector, for the location, most similar first. */
export async function nearestFaqs(
  db: DbOrTx,
  input: { business_id: string; location_id: string | null },
  vector: number[],
): Promise<KnowledgeHit[]> {
  const rows = await db
    .select({ id: aiFaqs.id, question: aiFaqs.question, answer: aiFaqs.answer, embedding: aiFaqs.embedding })
    .from(aiFaqs)
    .where(
      and(
        eq(aiFaqs.business_id, input.business_id),
        eq(aiFaqs.status, 'active'),
        isNotNull(aiFaqs.embedding),
        input.location_id
          ? sql`(${aiFaqs.location_ids} is null or ${input.location_id}::uuid = any(${aiFaqs.location_ids}))`
          : undefined,
      ),
    );
  return rows
    .map((r) => ({ r, sim: cosine(vector, r.embedding ?? []) }))
    .filter((x) => x.sim >= MIN_SIMILARITY)
    .sort((a, b) => b.sim - a.sim)
    .slice(0, NEAREST)
    .map(({ r, sim }) => ({
      kind: 'faq' as const,
      id: r.id,
      title: r.question,
      body: r.answer,
      score: Math.round(sim * 1000) / 1000,
      coverage: 0,
    }));
}

/**
 * Hybrid retrieval: what full-text search found and what is nearest in meaning, together, each knowledge item
 * once, ranked by the better of its two scores plus a little for being found both ways.
 */
export function mergeHits(byWords: KnowledgeHit[], byMeaning: KnowledgeHit[], most = 6): KnowledgeHit[] {
  const merged = new Map<string, KnowledgeHit & { rank: number }>();
  for (const h of byWords) merged.set(h.id, { ...h, rank: h.score });
  for (const h of byMeaning) {
    const known = merged.get(h.id);
    if (known) known.rank = Math.max(known.rank, h.score) + 0.1;
    else merged.set(h.id, { ...h, rank: h.score });
  }
  return [...merged.values()]
    .sort((a, b) => b.rank - a.rank)
    .slice(0, most)
    .map(({ rank: _rank, ...h }) => h);
}
