import { aiFaqs } from '@switchboard/db';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatRequest, startFakeOpenAi } from '../../test/fake-openai.ts';
import { createTestApp, DEMO_LOGINS, inbound, selectedLocation, type TestApp } from '../../test/helpers.ts';
import { mergeHits } from './embeddings.ts';

describe('hybrid retrieval with an embeddings model', () => {
  let t: TestApp;
  let model: Awaited<ReturnType<typeof startFakeOpenAi>>;
  let owner: string;
  let loc: string;
  let last: ChatRequest | null = null;

  beforeAll(async () => {
    model = await startFakeOpenAi((request) => {
      last = request;
      return { content: JSON.stringify({ action: 'handoff', message: '', faq_ids: [], confidence: 0.2 }) };
    });
    t = await createTestApp({ AI_BASE_URL: model.url, AI_MODEL: 'chat', AI_EMBEDDINGS_MODEL: 'embed-small' });
    owner = await t.login(DEMO_LOGINS.owner);
    loc = await selectedLocation(t, owner);
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });

  it('embeds the FAQs beside them and gives the model an FAQ found by meaning that no word of the message matches', async () => {
    const stones = await t.request({
      method: 'POST',
      url: '/api/v1/business/ai/faqs',
      token: owner,
      payload: { question: 'Do you sell stones?', answer: 'Yes, river stones for the garden.' },
    });
    const faqId = stones.json().body.id as string;
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570501' },
      message: 'onsets?',
    });
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/business/ai/response',
      token: owner,
      payload: { enquiry_id },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await t.database.db.select().from(aiFaqs).where(eq(aiFaqs.id, faqId));
    expect(row!.embedding).toHaveLength(26);
    expect(String(last!.messages[0]!.content)).toContain(`[${faqId}] Do you sell stones?`);
    expect(
      (await t.request({ method: 'GET', url: '/api/v1/business/ai', token: owner })).json().body.provider
        .embeddings,
    ).toBe(true);

    // A changed question is embedded again.
    await t.request({
      method: 'PUT',
      url: `/api/v1/business/ai/faqs/${faqId}`,
      token: owner,
      payload: { question: 'Do you sell rocks?' },
    });
    const [changed] = await t.database.db.select().from(aiFaqs).where(eq(aiFaqs.id, faqId));
    expect(changed!.embedding).toBeNull();
  });

  it('merges what words and meaning found, each once, the ones found both ways first', () => {
    const hit = (id: string, score: number) => ({
      kind: 'faq' as const,
      id,
      title: id,
      body: '',
      score,
      coverage: 0,
    });
    expect(
      mergeHits([hit('a', 0.5), hit('b', 0.4)], [hit('c', 0.45), hit('b', 0.42)]).map((h) => h.id),
    ).toEqual(['b', 'a', 'c']);
  });
});
