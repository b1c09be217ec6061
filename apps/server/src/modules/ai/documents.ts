import { aiDocuments, aiFaqs, aiSections, businesses, type DbOrTx } from '@switchboard/db';
import { isUuid } from '@switchboard/shared';
import { and, asc, desc, eq, inArray, lt, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Context } from '../../context.ts';
import { AppError, fieldError } from '../../errors.ts';
import { aiDocument } from '../../jobs/definitions/ai.ts';
import { BlockedUrlError, FetchLimitError, guardedFetch } from '../../lib/guarded-fetch.ts';
import { appErrorOf, IsolatedWorkError, isolated } from '../../lib/isolated-work.ts';
import { requireBusiness, requireOwner } from '../../plugins/auth.ts';
import type { ReadFile } from '../uploads/multipart.ts';
import type { DocumentSection } from './assistant.ts';
import type { DocumentKind } from './document-reading.ts';
import { insertFaqs } from './faq-store.ts';
import { impliedWords } from './language.ts';
import { assistantFor } from './service.ts';

/** The largest document the assistant reads, and the largest web page it fetches. */
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
export const PAGE_MAX_BYTES = 3 * 1024 * 1024;
const PAGE_TIMEOUT_MS = 15_000;
/** How often, at most, a site the owner asked to be fetched again is looked at. */
export const RECRAWL_DAYS = { daily: 1, weekly: 7, monthly: 30 } as const;
export type Recrawl = 'never' | keyof typeof RECRAWL_DAYS;

const documentNotFound = () => new AppError('not_found', 'Document not found.');

export const documentTooLarge = (name: string, maxBytes: number) =>
  new AppError(
    'payload_too_large',
    `“${name}” is larger than ${Math.round(maxBytes / 1024 / 1024)} MB. Upload a smaller file.`,
  );

/** What a file is, from its first bytes and its name; null when the assistant cannot read it. */
function kindOf(file: Pick<ReadFile, 'name' | 'bytes'>): DocumentKind | null {
  const ext = file.name.toLowerCase().split('.').pop() ?? '';
  if (file.bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  const zip = file.bytes[0] === 0x50 && file.bytes[1] === 0x4b;
  if (zip) return ext === 'docx' ? 'docx' : null;
  if (ext === 'html' || ext === 'htm') return 'html';
  if (ext === 'txt' || ext === 'md' || ext === 'markdown' || ext === 'csv') return 'text';
  return null;
}

const READER = new URL('./document-reading.ts', import.meta.url);

/** Who a reading failure speaks of, and what the owner can do about it. */
type Reading = { subject: string; damaged: string; smaller: string };
const FILE_READING = (name: string): Reading => ({
  subject: `“${name}”`,
  damaged: 'it may be damaged or protected by a password',
  smaller: 'Split it into smaller files and upload them one by one.',
});
const PAGE_READING: Reading = {
  subject: 'The page',
  damaged: 'it is not a web page the assistant understands',
  smaller: 'Save its text as a file and upload that instead.',
};

/** Runs one of document-reading.ts's parsers in the isolated worker, and words its failure for the owner. */
async function readIsolated<T>(
  fn: 'readDocument' | 'readPage',
  input: unknown,
  reading: Reading,
  timeoutMs: number,
): Promise<T> {
  try {
    return await isolated.run<T>({ module: READER, fn, input, timeoutMs });
  } catch (error) {
    const refusal = appErrorOf(error);
    if (refusal) throw refusal;
    const { subject, damaged, smaller } = reading;
    const reason = error instanceof IsolatedWorkError ? error.reason : 'crash';
    switch (reason) {
      case 'busy':
        throw new AppError(
          'rate_limited',
          'The assistant is reading many files right now. Try again in a minute.',
          {
            headers: { 'retry-after': '60' },
          },
        );
      case 'timeout':
        throw new AppError(
          'unprocessable',
          `${subject} took too long to read (over ${Math.round(timeoutMs / 1000)} seconds): it is too large, or built to stall a reader. ${smaller}`,
        );
      case 'memory':
        throw new AppError(
          'unprocessable',
          `${subject} needs more memory to read than the assistant allows: it holds too much text once opened, or is built to swell. ${smaller}`,
        );
      case 'crash':
        throw new AppError('unprocessable', `${subject} could not be read: ${damaged}.`);
    }
  }
}

/** A file's text, cut into sections by its headings; parsed in the isolated worker, within `timeoutMs`. */
export async function sectionsOfFile(
  file: Pick<ReadFile, 'name' | 'bytes'>,
  timeoutMs: number,
): Promise<DocumentSection[]> {
  const kind = kindOf(file);
  if (!kind) {
    throw new AppError(
      'unsupported_media_type',
      `“${file.name}” is not a file the assistant reads. Upload a PDF, a Word file (.docx), a text or an HTML file.`,
    );
  }
  const sections = await readIsolated<DocumentSection[]>(
    'readDocument',
    { name: file.name, kind, bytes: new Uint8Array(file.bytes) },
    FILE_READING(file.name),
    timeoutMs,
  );
  const words = sections.reduce((n, s) => n + s.body.split(/\s+/).length, 0);
  if (words < 5) {
    throw new AppError(
      'unprocessable',
      kind === 'pdf'
        ? `“${file.name}” has no text in it: it looks like a scan. Upload a PDF with selectable text, or a Word or text file.`
        : `“${file.name}” has no text in it.`,
    );
  }
  return sections;
}

/** A web page, fetched through the guarded fetch (public addresses only), as sections and a title. */
export async function fetchPage(
  url: string,
  config: Pick<Config, 'ai' | 'readTimeoutMs'>,
): Promise<{ title: string; sections: DocumentSection[] }> {
  let res: Awaited<ReturnType<typeof guardedFetch>>;
  try {
    res = await guardedFetch(url, {
      headers: { accept: 'text/html,application/xhtml+xml', 'user-agent': 'SwitchboardAssistant/1.0' },
      maxBytes: PAGE_MAX_BYTES,
      timeoutMs: PAGE_TIMEOUT_MS,
      trustedOrigins: config.ai.fetchTrustedOrigins ?? [],
    });
  } catch (error) {
    if (error instanceof BlockedUrlError)
      throw fieldError('unprocessable', 'url', `That address cannot be fetched: ${error.message}.`);
    if (error instanceof FetchLimitError)
      throw fieldError('unprocessable', 'url', `The page is too large or too slow: ${error.message}.`);
    throw fieldError(
      'unprocessable',
      'url',
      `The site could not be reached: ${error instanceof Error ? error.message : 'no answer'}.`,
    );
  }
  if (res.status < 200 || res.status >= 300)
    throw fieldError('unprocessable', 'url', `The site answered ${res.status} for that page.`);
  const type = res.headers['content-type']?.split(';')[0]?.trim() ?? '';
  if (type && type !== 'text/html' && type !== 'application/xhtml+xml') {
    throw fieldError('unprocessable', 'url', `That address is not a web page (${type}).`);
  }
  const page = await readIsolated<{ title: string; sections: DocumentSection[] }>(
    'readPage',
    { html: res.bytes.toString('utf8') },
    PAGE_READING,
    config.readTimeoutMs,
  );
  if (!page.sections.length)
    throw new AppError('unprocessable', 'The page has no text the assistant can read.');
  return page;
}

function checkedUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw fieldError(
      'unprocessable',
      'url',
      'Write the website address in full, like https://example.com/faq.',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw fieldError('unprocessable', 'url', 'Only http and https web addresses can be read.');
  }
  return url.toString();
}

/** Replaces a document's sections (the search text of each is its heading, then its body). */
async function storeSections(
  tx: DbOrTx,
  businessId: string,
  documentId: string,
  sections: DocumentSection[],
) {
  await tx.delete(aiSections).where(eq(aiSections.document_id, documentId));
  if (!sections.length) return [];
  return tx
    .insert(aiSections)
    .values(
      sections.map((s, position) => ({
        business_id: businessId,
        document_id: documentId,
        position,
        heading: s.heading.slice(0, 500),
        body: s.body.slice(0, 20_000),
        search: sql`setweight(to_tsvector('english', ${`${s.heading} ${impliedWords(s.heading)}`}), 'A')
          || setweight(to_tsvector('english', ${`${s.body.slice(0, 20_000)} ${impliedWords(s.body)}`}), 'C')`,
      })),
    )
    .returning({ id: aiSections.id, heading: aiSections.heading, body: aiSections.body });
}

const documentDto = (d: typeof aiDocuments.$inferSelect, sections = 0, proposed = 0) => ({
  id: d.id,
  kind: d.kind,
  name: d.name,
  url: d.url,
  size: d.size,
  status: d.status,
  error: d.error,
  recrawl: d.recrawl,
  crawled_at: d.crawled_at,
  created_at: d.created_at,
  section_count: sections,
  proposed_count: proposed,
});

/**
 * `POST /business/ai/upload`: files (PDF, Word, text, HTML) and a website address the assistant learns from.
 * Each is read at once (a file it cannot read is refused, saying why, and nothing is kept); FAQs are then
 * proposed from it in the background, for the owner to accept.
 */
export async function uploadKnowledge(
  ctx: Pick<Context, 'db' | 'actor' | 'config' | 'jobs'>,
  input: { files: ReadFile[]; url?: string | undefined; recrawl?: string | undefined },
) {
  const { business_id } = requireOwner(ctx.actor, 'teach the assistant');
  const recrawl = (['never', 'daily', 'weekly', 'monthly'] as const).find(
    (r) => r === (input.recrawl || 'never'),
  );
  if (!recrawl) throw new AppError('unprocessable', 'Fetch the site again never, daily, weekly or monthly.');
  if (!input.files.length && !input.url?.trim()) {
    throw new AppError('unprocessable', 'Choose a file, or write a website address.');
  }
  const read: {
    name: string;
    kind: 'file' | 'url';
    url: string | null;
    size: number;
    type: string | null;
    sections: DocumentSection[];
  }[] = [];
  for (const file of input.files) {
    read.push({
      name: file.name,
      kind: 'file',
      url: null,
      size: file.bytes.length,
      type: file.declaredType,
      sections: await sectionsOfFile(file, ctx.config.readTimeoutMs),
    });
  }
  if (input.url?.trim()) {
    const url = checkedUrl(input.url);
    const page = await fetchPage(url, ctx.config);
    read.push({
      name: page.title || new URL(url).hostname,
      kind: 'url',
      url,
      size: 0,
      type: 'text/html',
      sections: page.sections,
    });
  }
  const made = await ctx.db.transaction(async (tx) => {
    const out = [];
    for (const r of read) {
      const [doc] = await tx
        .insert(aiDocuments)
        .values({
          business_id,
          kind: r.kind,
          name: r.name.slice(0, 200),
          url: r.url,
          size: r.size,
          content_type: r.type,
          status: 'processing',
          recrawl: r.kind === 'url' ? recrawl : 'never',
          crawled_at: new Date(),
        })
        .returning();
      await storeSections(tx, business_id, doc!.id, r.sections);
      out.push(documentDto(doc!, r.sections.length));
    }
    return out;
  });
  for (const d of made)
    await ctx.jobs.send(aiDocument, { document_id: d.id, refetch: false }, { singletonKey: d.id });
  return made;
}

/**
 * The job: fetches a website again when asked (its sections replaced), then proposes FAQs from the document's
 * sections, replacing the proposals it made before. A failure is kept on the document, in words.
 */
export async function learnDocument(app: FastifyInstance, job: { document_id: string; refetch: boolean }) {
  const [doc] = await app.db.select().from(aiDocuments).where(eq(aiDocuments.id, job.document_id));
  if (!doc) return;
  try {
    if (job.refetch && doc.kind === 'url' && doc.url) {
      const page = await fetchPage(doc.url, app.config);
      await storeSections(app.db, doc.business_id, doc.id, page.sections);
    }
    const sections = await app.db
      .select({ id: aiSections.id, heading: aiSections.heading, body: aiSections.body })
      .from(aiSections)
      .where(eq(aiSections.document_id, doc.id))
      .orderBy(asc(aiSections.position));
    const [business] = await app.db
      .select({ name: businesses.name })
      .from(businesses)
      .where(eq(businesses.id, doc.business_id));
    const assistant = await assistantFor(app.db, app.config, doc.business_id);
    const proposed = await assistant.proposeFaqs(sections, { business_name: business?.name ?? '' });
    await app.db.transaction(async (tx) => {
      await tx.delete(aiFaqs).where(and(eq(aiFaqs.document_id, doc.id), eq(aiFaqs.status, 'proposed')));
      // What was already accepted from this document is not proposed again.
      const accepted = await tx
        .select({ question: aiFaqs.question })
        .from(aiFaqs)
        .where(and(eq(aiFaqs.business_id, doc.business_id), eq(aiFaqs.status, 'active')));
      const known = new Set(accepted.map((a) => a.question.trim().toLowerCase()));
      await insertFaqs(
        tx,
        doc.business_id,
        proposed
          .filter((p) => !known.has(p.question.trim().toLowerCase()))
          .map((p) => ({
            ...p,
            status: 'proposed' as const,
            origin: 'document' as const,
            document_id: doc.id,
          })),
      );
      await tx
        .update(aiDocuments)
        .set({ status: 'ready', error: null, ...(job.refetch ? { crawled_at: new Date() } : {}) })
        .where(eq(aiDocuments.id, doc.id));
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await app.db
      .update(aiDocuments)
      .set({ status: 'failed', error: reason.slice(0, 500) })
      .where(eq(aiDocuments.id, doc.id));
    // A reader busy with other files is worth another try; a page refused for what it is, not.
    if (!(error instanceof AppError) || error.code === 'rate_limited') throw error;
  }
}

export async function listDocuments({ db, actor }: Pick<Context, 'db' | 'actor'>) {
  const { business_id } = requireBusiness(actor);
  const docs = await db
    .select()
    .from(aiDocuments)
    .where(eq(aiDocuments.business_id, business_id))
    .orderBy(desc(aiDocuments.created_at), desc(aiDocuments.id))
    .limit(200);
  if (!docs.length) return { items: [] };
  const ids = docs.map((d) => d.id);
  const [sectionCounts, proposedCounts] = await Promise.all([
    db
      .select({ id: aiSections.document_id, n: sql<number>`count(*)::int` })
      .from(aiSections)
      .where(inArray(aiSections.document_id, ids))
      .groupBy(aiSections.document_id),
    db
      .select({ id: aiFaqs.document_id, n: sql<number>`count(*)::int` })
      .from(aiFaqs)
      .where(and(inArray(aiFaqs.document_id, ids), eq(aiFaqs.status, 'proposed')))
      .groupBy(aiFaqs.document_id),
  ]);
  const sections = new Map(sectionCounts.map((c) => [c.id, c.n]));
  const proposed = new Map(proposedCounts.map((c) => [c.id, c.n]));
  return { items: docs.map((d) => documentDto(d, sections.get(d.id) ?? 0, proposed.get(d.id) ?? 0)) };
}

async function ownDocument(db: DbOrTx, businessId: string, id: string) {
  if (!isUuid(id)) throw documentNotFound();
  const [doc] = await db
    .select()
    .from(aiDocuments)
    .where(and(eq(aiDocuments.id, id), eq(aiDocuments.business_id, businessId)));
  if (!doc) throw documentNotFound();
  return doc;
}

/** `PUT /business/ai/documents/{id}`: how often a website is fetched again. */
export async function updateDocument(ctx: Pick<Context, 'db' | 'actor'>, id: string, recrawl: Recrawl) {
  const { business_id } = requireOwner(ctx.actor, 'teach the assistant');
  const doc = await ownDocument(ctx.db, business_id, id);
  if (doc.kind !== 'url' && recrawl !== 'never')
    throw new AppError('unprocessable', 'Only a website is fetched again.');
  const [row] = await ctx.db
    .update(aiDocuments)
    .set({ recrawl })
    .where(eq(aiDocuments.id, doc.id))
    .returning();
  return documentDto(row!);
}

/** `POST /business/ai/documents/{id}/crawl`: fetch a website again now (and propose FAQs from it again). */
export async function crawlNow(ctx: Pick<Context, 'db' | 'actor' | 'jobs'>, id: string) {
  const { business_id } = requireOwner(ctx.actor, 'teach the assistant');
  const doc = await ownDocument(ctx.db, business_id, id);
  if (doc.kind !== 'url') throw new AppError('unprocessable', 'Only a website can be fetched again.');
  const [row] = await ctx.db
    .update(aiDocuments)
    .set({ status: 'processing', error: null })
    .where(eq(aiDocuments.id, doc.id))
    .returning();
  await ctx.jobs.send(
    aiDocument,
    { document_id: doc.id, refetch: true },
    { singletonKey: `crawl:${doc.id}` },
  );
  return documentDto(row!);
}

/** `DELETE /business/ai/documents/{id}`: the assistant forgets it (FAQs already accepted from it stay). */
export async function deleteDocument(ctx: Pick<Context, 'db' | 'actor'>, id: string) {
  const { business_id } = requireOwner(ctx.actor, 'teach the assistant');
  const doc = await ownDocument(ctx.db, business_id, id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(aiFaqs).where(and(eq(aiFaqs.document_id, doc.id), eq(aiFaqs.status, 'proposed')));
    await tx.delete(aiDocuments).where(eq(aiDocuments.id, doc.id));
  });
}

/** Websites due to be fetched again (their schedule's days since the last fetch), queued; run every hour. */
export async function queueRecrawls(app: FastifyInstance): Promise<number> {
  let queued = 0;
  for (const [recrawl, days] of Object.entries(RECRAWL_DAYS)) {
    const due = await app.db
      .select({ id: aiDocuments.id })
      .from(aiDocuments)
      .where(
        and(
          eq(aiDocuments.kind, 'url'),
          eq(aiDocuments.recrawl, recrawl as keyof typeof RECRAWL_DAYS),
          ne(aiDocuments.status, 'processing'),
          lt(aiDocuments.crawled_at, new Date(Date.now() - days * 86_400_000)),
        ),
      )
      .limit(100);
    for (const d of due) {
      await app.jobs.send(
        aiDocument,
        { document_id: d.id, refetch: true },
        { singletonKey: `crawl:${d.id}` },
      );
      queued++;
    }
  }
  return queued;
}
