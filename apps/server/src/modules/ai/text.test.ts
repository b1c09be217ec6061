import { describe, expect, it } from 'vitest';
import { faqsFromSections, sectionsFromText } from './faq-generation.ts';
import { readMessage } from './language.ts';
import { cleanUpDraft, extractSummary } from './rewrite.ts';

const voice = {
  first_name: 'Jo',
  tone: 'friendly' as const,
  business_name: 'Harbourside Dental',
  sender: 'Sam',
};

describe("the built-in assistant's text work", () => {
  it('tidies a draft: spacing, capitals, doubled words, slips, punctuation, greeting and sign-off', () => {
    expect(cleanUpDraft('sure  i can see you at 3 tomorow ,does that work', voice)).toBe(
      'Hi Jo,\n\nSure I can see you at 3 tomorrow, does that work.\n\nThanks,\nSam, Harbourside Dental',
    );
    expect(cleanUpDraft('we we have have a spot at 9:30 . dont forget your card!!', voice)).toBe(
      "Hi Jo,\n\nWe have a spot at 9:30. Don't forget your card!\n\nThanks,\nSam, Harbourside Dental",
    );
  });

  it('keeps a greeting and a sign-off that are there, and signs in the tone asked for', () => {
    expect(cleanUpDraft('Hello Jo, all done.\n\nCheers,\nSam', voice)).toBe(
      'Hello Jo, all done.\n\nCheers,\nSam',
    );
    expect(
      cleanUpDraft('thanks for waiting, it is ready', { ...voice, tone: 'professional', first_name: null }),
    ).toBe('Thanks for waiting, it is ready.\n\nKind regards,\nSam, Harbourside Dental');
    expect(cleanUpDraft('   ', voice)).toBe('');
  });

  it('reads a message: phrases to FAQ words, filler dropped, the business name marked, asking for a person noticed', () => {
    // Stop words ("is", "at") are PostgreSQL's to drop when it stems them; a name word counts only if an FAQ uses it.
    const reading = readMessage('Hi! How much is a clean at Harbourside?', ['harbourside']);
    expect(reading.words).toEqual(['cost', 'is', 'clean', 'at', 'harbourside']);
    expect([...reading.names]).toEqual(['harbourside']);
    expect(readMessage('thanks!').acknowledgement).toBe(true);
    expect(readMessage('can I talk to a real person please').wantsPerson).toBe(true);
    expect(readMessage('do you have a person who speaks Greek?').wantsPerson).toBe(false);
  });

  it('cuts a document by its headings and question lines, and proposes FAQs from them', () => {
    const text = [
      '# Parking',
      '',
      'Free parking behind the building on Kerr Street, two hours.',
      '',
      'Do you bulk bill?',
      'We bulk bill children under 12 with a Medicare card.',
      '',
      'OPENING HOURS',
      'Monday to Friday 8am to 6pm.',
    ].join('\n');
    const sections = sectionsFromText(text);
    expect(sections.map((s) => s.heading)).toEqual(['Parking', 'Do you bulk bill?', 'OPENING HOURS']);
    expect(faqsFromSections(sections)).toEqual([
      {
        question: 'What about parking?',
        answer: 'Free parking behind the building on Kerr Street, two hours.',
        section_id: null,
      },
      {
        question: 'Do you bulk bill?',
        answer: 'We bulk bill children under 12 with a Medicare card.',
        section_id: null,
      },
      { question: 'What are your opening hours?', answer: 'Monday to Friday 8am to 6pm.', section_id: null },
    ]);
  });

  it('summarises by picking the sentences that carry the most, in their order', () => {
    const text =
      'Hi there. I want to book a clean for my son. My son had a clean last year with Dr Lee. ' +
      'The weather is nice. Can Dr Lee do the clean on Friday?';
    expect(extractSummary(text, 2)).toBe(
      'I want to book a clean for my son. My son had a clean last year with Dr Lee.',
    );
  });
});
