import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatAnswer, type ChatRequest, startFakeOpenAi } from '../../test/fake-openai.ts';
import {
  createTestApp,
  DEMO_LOGINS,
  eventually,
  inbound,
  selectedLocation,
  type TestApp,
} from '../../test/helpers.ts';

describe('the assistant on an OpenAI-compatible model', () => {
  let t: TestApp;
  let model: Awaited<ReturnType<typeof startFakeOpenAi>>;
  let slots: Server;
  let slotsUrl: string;
  let owner: string;
  let loc: string;
  let faqId: string;
  let next: (request: ChatRequest) => ChatAnswer = () => ({ content: '' });
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.request({
      method,
      url: `/api/v1${url}`,
      token: owner,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  beforeAll(async () => {
    model = await startFakeOpenAi((request) => next(request));
    slots = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          day: new URL(req.url ?? '/', 'http://x').searchParams.get('day'),
          free: ['9:00am'],
        }),
      );
    });
    await new Promise<void>((r) => slots.listen(0, '127.0.0.1', r));
    slotsUrl = `http://127.0.0.1:${(slots.address() as AddressInfo).port}`;
    t = await createTestApp({
      AI_BASE_URL: model.url,
      AI_API_KEY: 'test-key',
      AI_MODEL: 'test-model',
      AI_TIMEOUT_MS: '800',
      AI_FETCH_ALLOW_ORIGINS: slotsUrl,
    });
    owner = await t.login(DEMO_LOGINS.owner);
    loc = await selectedLocation(t, owner);
    faqId = (
      await call('POST', '/business/ai/faqs', {
        question: 'Do you see emergency patients?',
        answer: 'Yes, call before 10am for a same-day emergency appointment.',
      })
    ).json().body.id;
  });
  afterAll(async () => {
    await t.close();
    await model.close();
    await new Promise((r) => slots.close(r));
  });

  const ask = async (message: string) => {
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570301', name: 'Kim Ng' },
      message,
    });
    return call('POST', '/business/ai/response', { enquiry_id });
  };

  it('asks for the structured reply with the retrieved FAQs, and keeps the FAQs the model names as sources', async () => {
    next = () => ({
      content: JSON.stringify({
        action: 'answer',
        message: 'Yes Kim, call before 10am and we will fit you in today.',
        faq_ids: [faqId],
        confidence: 0.9,
      }),
    });
    const res = await ask('I have a terrible toothache, can you see me today as an emergency?');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().body).toMatchObject({
      message: 'Yes Kim, call before 10am and we will fit you in today.',
      ai_interaction: 'ai_generated',
      ai: {
        action: 'answer',
        provider: 'model',
        faq_ids: [faqId],
        sources: [{ kind: 'faq', id: faqId, title: 'Do you see emergency patients?' }],
      },
    });
    const sent = model.requests.at(-1)!;
    expect(sent.model).toBe('test-model');
    expect(sent.response_format?.type).toBe('json_schema');
    const system = String(sent.messages[0]?.content);
    expect(system).toContain(`[${faqId}] Do you see emergency patients?`);
    expect(sent.messages.at(-1)).toMatchObject({
      role: 'user',
      content: 'I have a terrible toothache, can you see me today as an emergency?',
    });
    expect((await call('GET', '/business/ai')).json().body.provider).toEqual({
      kind: 'model',
      model: 'test-model',
      embeddings: false,
    });
  });

  it('keeps an answer carrying a NUL or half an emoji, cleaned, rather than failing the draft', async () => {
    next = () => ({
      content: JSON.stringify({
        action: 'answer',
        message: 'Yes Kim,\u0000 call before 10am 😀 \ud83d',
        faq_ids: [faqId],
        confidence: 0.9,
      }),
    });
    const res = await ask('Can you see me today as an emergency?');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().body.message).toBe('Yes Kim, call before 10am 😀 \ufffd');
  });

  it('does not trust an answer that names no FAQ it was given: it hands over instead', async () => {
    next = () => ({
      content: JSON.stringify({
        action: 'answer',
        message: 'We are open 24/7!',
        faq_ids: ['made-up'],
        confidence: 0.95,
      }),
    });
    const res = await ask('are you open at midnight?');
    expect(res.json().body).toMatchObject({
      message: '',
      ai: { action: 'handoff', provider: 'model', sources: [] },
    });
  });

  it('says plainly when the model fails or is too slow, and keeps no draft', async () => {
    next = () => ({ status: 500, error: 'overloaded' });
    const failed = await ask('can you see me today?');
    expect(failed.statusCode).toBe(503);
    expect(failed.json().message).toMatch(/^The AI model did not answer: /);

    next = () => ({ delayMs: 2000, content: '{}' });
    const slow = await ask('hello? emergency please');
    expect(slow.statusCode).toBe(503);
    expect(slow.json().message).toMatch(/^The AI model did not answer/);
  });

  it("calls the business's tools in the SDK's tool loop and answers with what they said", async () => {
    const made = await call('POST', '/business/ai/tools', {
      tools: [
        {
          name: 'free_times',
          description: 'Free appointment times on a day',
          url_template: `${slotsUrl}/free?day={day}`,
          parameters: {
            type: 'object',
            properties: { day: { type: 'string', description: 'Weekday' } },
            required: ['day'],
          },
        },
      ],
    });
    expect(made.statusCode, made.body).toBe(200);
    next = (request) => {
      const toolLine = request.messages.find((m) => m.role === 'tool');
      if (!toolLine) return { tool: { name: 'free_times', arguments: { day: 'Monday' } } };
      return {
        content: JSON.stringify({
          action: 'answer',
          message: `We have 9:00am free on Monday (${JSON.parse(String(toolLine.content)).free[0]}).`,
          faq_ids: [],
          confidence: 0.8,
        }),
      };
    };
    await call('PUT', '/business/ai-auto-reply/toggle/auto', {
      location_id: loc,
      options: { delay_seconds: 0 },
    });
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570303', name: 'Lee' },
      message: 'any free times Monday?',
    });
    const reply = await eventually(async () =>
      (
        (await call('GET', `/enquiries/${enquiry_id}/messages`)).json().body.items as {
          direction: string;
          message: string;
        }[]
      ).find((m) => m.direction === 'out'),
    );
    expect(reply.message).toBe('We have 9:00am free on Monday (9:00am).');
    const withTools = model.requests.find((r) => r.tools?.length);
    expect(withTools?.tools?.[0]?.function).toMatchObject({
      name: 'free_times',
      description: 'Free appointment times on a day',
    });
    await call('PUT', '/business/ai-auto-reply/toggle/off', { location_id: loc });
  });

  it("hands an answering location's conversation to a person when the model does not answer", async () => {
    next = () => ({ status: 500, error: 'overloaded' });
    await call('PUT', '/business/ai-auto-reply/toggle/auto', {
      location_id: loc,
      options: { delay_seconds: 0 },
    });
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570304', name: 'Ari' },
      message: 'are you open today?',
    });
    await eventually(async () => (await call('GET', `/enquiries/${enquiry_id}`)).json().body.needs_person);
    const lines = (await call('GET', `/enquiries/${enquiry_id}/messages`)).json().body.items as {
      direction: string;
    }[];
    expect(lines.filter((m) => m.direction === 'out')).toHaveLength(0);
    await call('PUT', '/business/ai-auto-reply/toggle/off', { location_id: loc });
  });

  it('rewrites through the model, keeping the original', async () => {
    next = () => ({ content: 'Hi Kim, we can see you at 3pm today. Thanks, Harbourside Dental' });
    const { enquiry_id } = await inbound(t, owner, {
      location_id: loc,
      from: { phone: '+61491570302', name: 'Kim' },
      message: 'any time today?',
    });
    const res = await call('POST', '/business/ai/rewrite-message', { enquiry_id, message: 'can do 3 today' });
    expect(res.json().body).toMatchObject({
      message: 'Hi Kim, we can see you at 3pm today. Thanks, Harbourside Dental',
      ai_interaction: 'ai_rewritten',
      ai_original: 'can do 3 today',
    });
    expect(String(model.requests.at(-1)!.messages.at(-1)?.content)).toBe('can do 3 today');
  });
});
