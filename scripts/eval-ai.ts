/**
 * How well the assistant answers: loads an FAQ set into a fresh business on an in-memory database and asks it
 * the set's questions, phrased differently from the FAQs, and questions the FAQs do not answer. Prints, per
 * provider, the share answered from the right FAQ and the share of out-of-scope questions handed to a person.
 *
 *   npm run eval:ai                      every set in scripts/eval-ai/
 *   npm run eval:ai -- path/to/set.json  one set (same shape: business, location, faqs, questions, out_of_scope)
 *   AI_BASE_URL=… AI_MODEL=… npm run eval:ai    also the model provider
 *
 * Exits 1 when a provider scores under 90% on either share.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { businesses, locations, migrateDatabase, openDatabase } from '@switchboard/db';
import type { Assistant } from '../apps/server/src/modules/ai/assistant.ts';
import { builtinAssistant } from '../apps/server/src/modules/ai/builtin.ts';
import { insertFaqs } from '../apps/server/src/modules/ai/faq-store.ts';
import { modelAssistantFromEnv } from '../apps/server/src/modules/ai/model.ts';
import { retrieve } from '../apps/server/src/modules/ai/retrieval.ts';

type EvalSet = {
  business: string;
  location: string;
  faqs: { id: string; question: string; answer: string; phrasings?: string[] }[];
  questions: { text: string; faq: string }[];
  out_of_scope: string[];
};

const GOAL = 0.9;
const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2).filter((a) => a !== '--verbose');
const verbose = process.argv.includes('--verbose');
const files = args.length
  ? args.map((a) => resolve(a))
  : readdirSync(join(here, 'eval-ai'))
      .filter((f) => f.endsWith('.json'))
      .map((f) => join(here, 'eval-ai', f));

const assistants: Assistant[] = [builtinAssistant()];
const model = modelAssistantFromEnv(process.env);
if (model) assistants.push(model);

const database = await openDatabase({ memory: true });
await migrateDatabase(database);
const { db } = database;
let failed = false;

for (const file of files) {
  const set = JSON.parse(readFileSync(file, 'utf8')) as EvalSet;
  const [business] = await db.insert(businesses).values({ name: set.business }).returning();
  if (!business) throw new Error('no business stored');
  const [location] = await db
    .insert(locations)
    .values({ business_id: business.id, name: set.location })
    .returning();
  if (!location) throw new Error('no location stored');
  const stored = await insertFaqs(db, business.id, set.faqs);
  const idOf = new Map(set.faqs.map((f, i) => [f.id, stored[i]?.id]));
  const nameOf = new Map(stored.map((row, i) => [row.id, set.faqs[i]?.id]));

  for (const assistant of assistants) {
    const ask = (text: string) =>
      assistant.reply(db, {
        business_id: business.id,
        business_name: set.business,
        location_id: location.id,
        location_name: set.location,
        first_name: 'Sam',
        tone: 'friendly',
        profile: { description: '', services: '', hours: '' },
        handoff_message: 'Thanks, someone from our team will reply shortly.',
        turns: [{ role: 'customer', text }],
        greet: false,
      });
    const explain = async (text: string) => {
      const found = await retrieve(db, { business_id: business.id, location_id: location.id, text });
      for (const h of found.hits.slice(0, 3)) {
        console.log(`      ${nameOf.get(h.id) ?? h.title}: score ${h.score} coverage ${h.coverage}`);
      }
    };
    let right = 0;
    for (const q of set.questions) {
      const reply = await ask(q.text);
      const ok = reply.action === 'answer' && reply.faq_ids[0] === idOf.get(q.faq);
      if (ok) right++;
      else if (verbose) {
        const got = reply.faq_ids.map((id) => nameOf.get(id)).join('+') || '-';
        console.log(`  ✗ "${q.text}" → ${reply.action} ${got} (${reply.confidence}) want ${q.faq}`);
        await explain(q.text);
      }
    }
    let handedOff = 0;
    for (const text of set.out_of_scope) {
      const reply = await ask(text);
      if (reply.action !== 'answer') handedOff++;
      else if (verbose) {
        const got = reply.faq_ids.map((id) => nameOf.get(id)).join('+');
        console.log(`  ✗ out of scope "${text}" → answered ${got} (${reply.confidence})`);
        await explain(text);
      }
    }
    const answeredShare = right / set.questions.length;
    const handoffShare = handedOff / set.out_of_scope.length;
    const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
    console.log(
      `${set.business} · ${assistant.kind}${assistant.model ? ` (${assistant.model})` : ''}: ` +
        `answered from the right FAQ ${pct(answeredShare)} (${right}/${set.questions.length}), ` +
        `out of scope handed off ${pct(handoffShare)} (${handedOff}/${set.out_of_scope.length})`,
    );
    if (answeredShare < GOAL || handoffShare < GOAL) failed = true;
  }
}

await database.close();
process.exit(failed ? 1 : 0);
