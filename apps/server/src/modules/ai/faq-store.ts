import { aiFaqs, type DbOrTx } from '@switchboard/db';
import { type SQL, sql } from 'drizzle-orm';
import { impliedWords } from './language.ts';

type FaqRow = typeof aiFaqs.$inferSelect;

/** The weighted search document of an FAQ: question A, "also asked as" B, answer C. */
export function faqSearch(question: string, phrasings: string[], answer: string): SQL {
  const asked = [question, ...phrasings].join('\n');
  return sql`setweight(to_tsvector('english', ${question}), 'A')
    || setweight(to_tsvector('english', ${`${phrasings.join('\n')} ${impliedWords(asked)}`}), 'B')
    || setweight(to_tsvector('english', ${`${answer} ${impliedWords(answer)}`}), 'C')`;
}

export type NewFaq = {
  question: string;
  answer: string;
  phrasings?: string[];
  location_ids?: string[] | null;
  status?: 'active' | 'proposed';
  origin?: FaqRow['origin'];
  document_id?: string | null;
  section_id?: string | null;
  source_enquiry_id?: string | null;
  target_faq_id?: string | null;
};

/** Stores FAQs for a business as they are (the checks are the caller's); answers the rows. */
export async function insertFaqs(db: DbOrTx, businessId: string, faqs: NewFaq[]): Promise<FaqRow[]> {
  if (!faqs.length) return [];
  return db
    .insert(aiFaqs)
    .values(
      faqs.map((f) => ({
        business_id: businessId,
        question: f.question,
        answer: f.answer,
        phrasings: f.phrasings ?? [],
        location_ids: f.location_ids?.length ? [...new Set(f.location_ids)] : null,
        status: f.status ?? 'active',
        origin: f.origin ?? 'manual',
        document_id: f.document_id ?? null,
        section_id: f.section_id ?? null,
        source_enquiry_id: f.source_enquiry_id ?? null,
        target_faq_id: f.target_faq_id ?? null,
        search: faqSearch(f.question, f.phrasings ?? [], f.answer),
      })),
    )
    .returning();
}
