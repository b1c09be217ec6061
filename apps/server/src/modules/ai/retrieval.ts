import { type DbOrTx, queryRows } from '@switchboard/db';
import { sql } from 'drizzle-orm';
import { readMessage, SYNONYM_GROUPS, WEAK_WORDS } from './language.ts';

/**
 * Finding what the business's knowledge says about a customer's message, with no model: PostgreSQL full-text
 * search (the `english` stemmer; FAQ questions and their "also asked as" phrasings weighted over answers) picks
 * the candidates, `pg_trgm` mends misspelt words against the business's own vocabulary and scores how close the
 * message is to each question, and the ranking below decides how much of the message each candidate answers.
 * An FAQ answers a message when it covers the message's meaningful words (rare words weigh more, as in BM25's
 * IDF); words nothing in the knowledge mentions lower that cover, and below the threshold the assistant hands
 * the conversation to a person instead of guessing.
 */

export type KnowledgeHit = {
  kind: 'faq' | 'section';
  id: string;
  /** The FAQ's question, or the section's heading. */
  title: string;
  /** The FAQ's answer, or the section's text. */
  body: string;
  /** 0–1: how well it answers the message. */
  score: number;
  /** 0–1: the share of the message's meaning it covers. */
  coverage: number;
};

export type Retrieval = {
  /** Best first; the first one or two together answer the message when `confident`. */
  hits: KnowledgeHit[];
  /** What answers the message: one hit, or two when the message asked two things. */
  answer: KnowledgeHit[];
  confident: boolean;
  /** 0–1 confidence of `answer` (0 when there is none). */
  confidence: number;
  /** The message had words that carry a question (not only a greeting or thanks). */
  hasQuestion: boolean;
  greeting: boolean;
  acknowledgement: boolean;
  wantsPerson: boolean;
};

/** Below this a message is not answered from the knowledge (tuned with `npm run eval:ai`). */
export const ANSWER_THRESHOLD = 0.35;
/** The share of a message's meaning an answer must cover, whatever else scores high. */
export const MIN_COVERAGE = 0.42;
/** How a candidate's score is made: its cover of the message, how much of its question was asked, trigrams. */
const WEIGHTS = { coverage: 0.7, question: 0.15, trigram: 0.15 };

const SYNONYM_FACTOR = 0.8;
const ANSWER_ONLY_FACTOR = 0.65;
const VARIANT_FACTOR = 0.9;
const WEAK_FACTOR = 0.35;
const UNKNOWN_FACTOR = 1.3;
const FUZZY_MIN_SIMILARITY = 0.45;

type Term = { stem: string; weight: number; alts: Map<string, number> };

type Candidate = {
  kind: 'faq' | 'section';
  id: string;
  title: string;
  body: string;
  wsim: number;
  qlex: string[];
  alllex: string[];
  plex: string[][] | null;
};

export type RetrieveInput = {
  business_id: string;
  /** FAQs for other locations only are left out; null: any. */
  location_id: string | null;
  text: string;
  /** Words that say nothing about the question (the business's and location's names). */
  ignore?: string[];
};

export async function retrieve(db: DbOrTx, input: RetrieveInput): Promise<Retrieval> {
  const reading = readMessage(input.text, input.ignore);
  const base = {
    hits: [],
    answer: [],
    confident: false,
    confidence: 0,
    greeting: reading.greeting,
    acknowledgement: reading.acknowledgement,
    wantsPerson: reading.wantsPerson,
  };
  const stems = await stemWords(db, reading.words);
  const nameStems = new Set(stems.filter((_, i) => reading.names.has(reading.words[i] ?? '')).flat());
  const all = [...new Set(stems.flat())];
  if (!all.length) return { ...base, hasQuestion: false };

  const [groups, weak] = await Promise.all([synonymStems(db), weakStems(db)]);
  const vocabulary = await vocabularyOf(db, input, all);
  // A word of the business's own name says nothing unless the knowledge uses it ("Pilates" at a Pilates studio).
  const unique = all.filter((stem) => !nameStems.has(stem) || vocabulary.df[stem]);
  if (!unique.length) return { ...base, hasQuestion: false };
  const terms: Term[] = unique.map((stem) => {
    const alts = new Map<string, number>();
    for (const group of groups.get(stem) ?? []) {
      for (const other of group) if (other !== stem) alts.set(other, SYNONYM_FACTOR);
    }
    // Another form of the word the stemmer keeps apart ("rental" and "rent", "delivery" and "deliver").
    for (const variant of vocabulary.variants[stem] ?? []) {
      if (isVariant(stem, variant)) alts.set(variant, Math.max(alts.get(variant) ?? 0, VARIANT_FACTOR));
    }
    const fuzzy = vocabulary.fuzzy[stem];
    if (fuzzy && !vocabulary.df[stem]) alts.set(fuzzy.lex, Math.max(alts.get(fuzzy.lex) ?? 0, fuzzy.sim));
    const df = Math.max(1, vocabulary.df[stem] ?? (fuzzy ? fuzzy.df : 0));
    // A word nothing in the knowledge uses (a dog at a hair salon) weighs a little more than the rarest that is.
    const unknown = !vocabulary.df[stem] && !fuzzy ? UNKNOWN_FACTOR : 1;
    const weight =
      Math.log(1 + (vocabulary.n + 1) / (df + 0.5)) * (weak.has(stem) ? WEAK_FACTOR : 1) * unknown;
    return { stem, weight, alts };
  });

  const candidates = await candidatesFor(db, input, terms);
  const hits = candidates.map((c) => ({ c, ...scoreCandidate(c, terms) })).sort((a, b) => b.score - a.score);
  const top = hits[0];
  if (!top) return { ...base, hasQuestion: true };

  const answer = [top];
  let coverage = top.coverage;
  // A message asking two things ("hours, and is there parking?"): a second FAQ answers what the first leaves.
  const uncovered = terms.filter((_, i) => (top.matches[i] ?? 0) < 0.5);
  const total = sum(terms.map((t) => t.weight));
  if (sum(uncovered.map((t) => t.weight)) / total >= 0.3) {
    const second = hits
      .slice(1)
      .find((h) => h.c.kind === 'faq' && coverOf(h.matches, terms, uncovered) >= 0.7 && h.qcov >= 0.5);
    if (second) {
      answer.push(second);
      coverage =
        sum(terms.map((t, i) => t.weight * Math.max(top.matches[i] ?? 0, second.matches[i] ?? 0))) / total;
    }
  }
  const score = answer.length > 1 ? Math.max(top.score, 0.6 * coverage + 0.4 * top.qcov) : top.score;
  const confident = score >= ANSWER_THRESHOLD && coverage >= MIN_COVERAGE;
  const toHit = (h: (typeof hits)[number]): KnowledgeHit => ({
    kind: h.c.kind,
    id: h.c.id,
    title: h.c.title,
    body: h.c.body,
    score: round(h.score),
    coverage: round(h.coverage),
  });
  return {
    ...base,
    hasQuestion: true,
    hits: hits.slice(0, 5).map(toHit),
    answer: confident ? answer.map(toHit) : [],
    confident,
    confidence: round(Math.min(1, score)),
  };
}

function scoreCandidate(c: Candidate, terms: Term[]) {
  const inQuestion = new Set(c.qlex);
  const inAll = new Set(c.alllex);
  const field = (stem: string) => (inQuestion.has(stem) ? 1 : inAll.has(stem) ? ANSWER_ONLY_FACTOR : 0);
  const matches = terms.map((t) => {
    let best = field(t.stem);
    for (const [alt, factor] of t.alts) best = Math.max(best, factor * field(alt));
    return best;
  });
  const total = sum(terms.map((t) => t.weight));
  const coverage = sum(terms.map((t, i) => t.weight * (matches[i] ?? 0))) / total;
  // How much of the question (or one of its phrasings) the message asks: "parking?" fully asks "Is there parking?".
  const said = new Set<string>();
  for (const t of terms) {
    said.add(t.stem);
    for (const alt of t.alts.keys()) said.add(alt);
  }
  const phrasings = (c.plex ?? [c.qlex]).filter((p) => p.length);
  const qcov = Math.max(0, ...phrasings.map((p) => p.filter((s) => said.has(s)).length / p.length));
  const score = WEIGHTS.coverage * coverage + WEIGHTS.question * qcov + WEIGHTS.trigram * Math.min(1, c.wsim);
  return { matches, coverage, qcov, score };
}

function coverOf(matches: number[], terms: Term[], subset: Term[]): number {
  const wanted = new Set(subset.map((t) => t.stem));
  let got = 0;
  let all = 0;
  terms.forEach((t, i) => {
    if (!wanted.has(t.stem)) return;
    all += t.weight;
    got += t.weight * (matches[i] ?? 0);
  });
  return all ? got / all : 0;
}

/** Endings that make another form of the same word once stemmed (deliv/deliveri, rent/rental). */
const SUFFIXES = new Set([
  'a',
  'al',
  'e',
  'i',
  'y',
  's',
  'ed',
  'er',
  'or',
  'eri',
  'ori',
  'ing',
  'ion',
  'ment',
  'iti',
  'ic',
  'li',
  'ist',
  'ive',
]);

function isVariant(a: string, b: string): boolean {
  if (a === b) return false;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return long.startsWith(short) && SUFFIXES.has(long.slice(short.length));
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const round = (n: number) => Math.round(n * 1000) / 1000;
const LEXEME = /^[a-z0-9]+$/;

/** Each word's stems by PostgreSQL's `english` configuration (stop words give none). */
async function stemWords(db: DbOrTx, words: string[]): Promise<string[][]> {
  if (!words.length) return [];
  const rows = await queryRows<{ stems: string[] }>(
    db,
    sql`select tsvector_to_array(to_tsvector('english', w.value)) as stems
        from jsonb_array_elements_text(${JSON.stringify(words)}::jsonb) with ordinality as w(value, i)
        order by w.i`,
  );
  return rows.map((r) => r.stems.filter((s) => LEXEME.test(s)));
}

/** A value worked out with the stemmer once per process (a failure is tried again on the next call). */
function stemmedOnce<T>(make: (db: DbOrTx) => Promise<T>): (db: DbOrTx) => Promise<T> {
  let cached: Promise<T> | null = null;
  return (db) => {
    cached ??= make(db).catch((error: unknown) => {
      cached = null;
      throw error;
    });
    return cached;
  };
}

/** Each stem of a synonym group's words, with the groups (as stems) it belongs to. */
const synonymStems = stemmedOnce(async (db) => {
  const stemmed = await Promise.all(
    SYNONYM_GROUPS.map(async (g) => [...new Set((await stemWords(db, g)).flat())]),
  );
  const byStem = new Map<string, string[][]>();
  for (const group of stemmed) {
    for (const stem of group) byStem.set(stem, [...(byStem.get(stem) ?? []), group]);
  }
  return byStem;
});

/** The stems of the verbs that say little about what is asked. */
const weakStems = stemmedOnce(async (db) => new Set((await stemWords(db, WEAK_WORDS)).flat()));

type Vocabulary = {
  n: number;
  df: Record<string, number>;
  fuzzy: Record<string, { lex: string; sim: number; df: number }>;
  variants: Record<string, string[]>;
};

/** How many knowledge items use each of the message's stems, and the nearest known stem of an unknown one. */
async function vocabularyOf(db: DbOrTx, input: RetrieveInput, stems: string[]): Promise<Vocabulary> {
  const [row] = await queryRows<Vocabulary>(
    db,
    sql`with docs as (
          select search from ai_faqs
          where business_id = ${input.business_id}::uuid and status = 'active'
            and (location_ids is null or ${input.location_id}::uuid is null or ${input.location_id}::uuid = any(location_ids))
          union all
          select search from ai_sections where business_id = ${input.business_id}::uuid
        ),
        vocab as (
          select lex, count(*)::int as df from docs, unnest(tsvector_to_array(docs.search)) as lex group by lex
        ),
        terms as (select value as t from jsonb_array_elements_text(${JSON.stringify(stems)}::jsonb))
        select
          (select count(*)::int from docs) as n,
          (select coalesce(jsonb_object_agg(t, df), '{}'::jsonb) from terms join vocab on vocab.lex = terms.t) as df,
          (select coalesce(jsonb_object_agg(t, jsonb_build_object('lex', best.lex, 'sim', best.sim, 'df', best.df)), '{}'::jsonb)
             from terms
             cross join lateral (
               select lex, df, similarity(terms.t, lex) as sim from vocab order by similarity(terms.t, lex) desc limit 1
             ) best
             where length(terms.t) >= 4 and best.sim >= ${FUZZY_MIN_SIMILARITY}
               and abs(length(best.lex) - length(terms.t)) <= 2
               and not exists (select 1 from vocab v where v.lex = terms.t)) as fuzzy,
          (select coalesce(jsonb_object_agg(t, lexes), '{}'::jsonb) from (
             select t, jsonb_agg(vocab.lex) as lexes from terms join vocab
               on vocab.lex <> terms.t and least(length(vocab.lex), length(terms.t)) >= 4
              and abs(length(vocab.lex) - length(terms.t)) <= 3
              and (vocab.lex like terms.t || '%' or terms.t like vocab.lex || '%')
             group by t) v) as variants`,
  );
  return row ?? { n: 0, df: {}, fuzzy: {}, variants: {} };
}

/** The FAQs and document sections that share a word (or a synonym, or a mended spelling) with the message. */
async function candidatesFor(db: DbOrTx, input: RetrieveInput, terms: Term[]): Promise<Candidate[]> {
  const lexemes = new Set<string>();
  for (const t of terms) {
    lexemes.add(t.stem);
    for (const alt of t.alts.keys()) lexemes.add(alt);
  }
  const query = [...lexemes].filter((l) => LEXEME.test(l)).join(' | ');
  if (!query) return [];
  return queryRows<Candidate>(
    db,
    sql`with q as (select to_tsquery('simple', ${query}) as q)
        (select 'faq' as kind, f.id, f.question as title, f.answer as body,
                word_similarity(${input.text}, f.question) as wsim,
                tsvector_to_array(ts_filter(f.search, '{a,b}')) as qlex,
                tsvector_to_array(f.search) as alllex,
                (select jsonb_agg(tsvector_to_array(to_tsvector('english', p)))
                   from unnest(array[f.question] || f.phrasings) as p) as plex
         from ai_faqs f, q
         where f.business_id = ${input.business_id}::uuid and f.status = 'active'
           and (f.location_ids is null or ${input.location_id}::uuid is null or ${input.location_id}::uuid = any(f.location_ids))
           and f.search @@ q.q
         order by ts_rank('{0.1, 0.3, 0.7, 1.0}', f.search, q.q) desc
         limit 30)
        union all
        (select 'section' as kind, s.id, s.heading as title, s.body,
                word_similarity(${input.text}, s.heading) as wsim,
                tsvector_to_array(ts_filter(s.search, '{a}')) as qlex,
                tsvector_to_array(s.search) as alllex,
                null as plex
         from ai_sections s, q
         where s.business_id = ${input.business_id}::uuid and s.search @@ q.q
         order by ts_rank('{0.1, 0.3, 0.7, 1.0}', s.search, q.q) desc
         limit 10)`,
  );
}
