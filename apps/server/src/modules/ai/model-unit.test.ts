import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { ModelUnavailableError, modelAssistant } from './model.ts';

const config = { baseUrl: 'http://127.0.0.1:9/v1', model: 'mock', timeoutMs: 200 };

/** A mock chat model that answers `text` and keeps what it was asked. */
function answering(text: string) {
  const prompts: unknown[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: {
          inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 5, text: 5, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
  return { model, prompts };
}

describe('the model provider, on the AI SDK mock model', () => {
  it('rewrites with the tone, greeting and sign-off asked for, and returns the text alone', async () => {
    const { model, prompts } = answering(
      '  Hi Jo, we can see you at 3pm. Kind regards, Sam, Harbourside Dental  ',
    );
    const assistant = modelAssistant(config, { chat: model });
    const text = await assistant.rewrite({
      text: 'can do 3',
      first_name: 'Jo',
      business_name: 'Harbourside Dental',
      tone: 'professional',
      sender: 'Sam',
    });
    expect(text).toBe('Hi Jo, we can see you at 3pm. Kind regards, Sam, Harbourside Dental');
    const system = JSON.stringify(prompts[0]);
    expect(system).toContain('professional');
    expect(system).toContain('sign off as Sam, Harbourside Dental');
  });

  it('proposes FAQs from document parts as structured output, naming the part each came from', async () => {
    const { model } = answering(
      JSON.stringify({
        faqs: [
          { question: 'Is there parking?', answer: 'Free parking on Kerr Street.', section: 1 },
          { question: ' ', answer: 'dropped: no question', section: 0 },
        ],
      }),
    );
    const assistant = modelAssistant(config, { chat: model });
    const faqs = await assistant.proposeFaqs(
      [
        { id: 's-hours', heading: 'Hours', body: '9 to 5' },
        { id: 's-park', heading: 'Parking', body: 'Free parking on Kerr Street.' },
      ],
      { business_name: 'Harbourside Dental' },
    );
    expect(faqs).toEqual([
      { question: 'Is there parking?', answer: 'Free parking on Kerr Street.', section_id: 's-park' },
    ]);
  });

  it('says the model did not answer when it fails or takes longer than the timeout', async () => {
    const failing = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error('503 overloaded');
      },
    });
    await expect(modelAssistant(config, { chat: failing }).summarise('a long call')).rejects.toThrow(
      ModelUnavailableError,
    );
    const slow = new MockLanguageModelV3({
      doGenerate: (options) =>
        new Promise((_resolve, reject) => {
          options.abortSignal?.addEventListener('abort', () => reject(new Error('aborted')));
        }),
    });
    await expect(modelAssistant(config, { chat: slow }).summarise('a long call')).rejects.toThrow(
      /The AI model did not answer/,
    );
  });
});
