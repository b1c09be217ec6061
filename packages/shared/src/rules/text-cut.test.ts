import { describe, expect, it } from 'vitest';
import { clipText, graphemeBoundary } from './text-cut.ts';

const graphemes = (text: string) =>
  [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map((s) => s.segment);

describe('clipText: cut between graphemes, never inside an emoji or a letter with its marks', () => {
  // Each case: text, room, what is kept. The texts are real: a family emoji (ZWJ sequence), a skin tone,
  // flags (pairs of regional indicators), Vietnamese written with combining marks, a Devanagari conjunct,
  // Arabic with harakat, Hebrew with niqqud, Korean jamo.
  const cases: [string, string, number, string][] = [
    ['an emoji straddling the cut keeps out whole', 'abc😀def', 4, 'abc'],
    ['an emoji ending at the cut stays', 'abc😀def', 5, 'abc😀'],
    ['a skin tone is part of its emoji', 'ok👍🏽!', 5, 'ok'],
    ['a family is one character', 'Hi 👨‍👩‍👧‍👦 there', 10, 'Hi '],
    ['a flag is two regional indicators', '🇦🇺🇳🇿🇬🇧', 6, '🇦🇺'],
    ['a flag pair is never split between the flags', '🇦🇺🇳🇿', 7, '🇦🇺'],
    ['Vietnamese accents stay on their letter', 'Tie\u0302\u0301ng Vie\u0323\u0302t', 4, 'Ti'],
    ['a Devanagari conjunct stays whole', 'नमस्ते', 4, 'नम'],
    ['Arabic harakat stay on their letter', 'مَرْحَبًا', 3, 'مَ'],
    ['Hebrew niqqud stays on its letter', 'שָׁלוֹם', 5, 'שָׁל'],
    ['Korean jamo make one syllable', 'A\u1100\u1161\u11A8B', 3, 'A'],
    ['CJK cuts anywhere', '你好世界', 3, '你好世'],
    ['text that fits is kept as it is', 'short', 5, 'short'],
  ];
  it.each(cases)('%s', (_what, text, room, kept) => {
    expect(clipText(text, room)).toBe(kept);
    expect(clipText(text, room).isWellFormed()).toBe(true);
  });

  it('ends a cut text with the ellipsis inside the limit, as the inbox preview does', () => {
    const text = `${'a'.repeat(138)}😀 and more`;
    const cut = clipText(text, 140, '…');
    expect(cut).toBe(`${'a'.repeat(138)}…`);
    expect(cut.length).toBeLessThanOrEqual(140);
    expect(cut.isWellFormed()).toBe(true);
    expect(clipText('a'.repeat(140), 140, '…')).toBe('a'.repeat(140));
  });

  it('cuts a single grapheme longer than the room between code points (a Zalgo stack), never a pair', () => {
    const zalgo = `Z${'\u0336\u0321\u0358'.repeat(40)}😀`;
    expect(graphemes(zalgo)).toHaveLength(2);
    const cut = clipText(zalgo, 50);
    expect(cut).toBe(zalgo.slice(0, 50));
    expect(cut.isWellFormed()).toBe(true);
    const emojiStack = `😀${'\u0301'.repeat(10)}`;
    expect(clipText(emojiStack, 1)).toBe('');
  });

  it('never leaves half a surrogate pair at any cut of real mixed text', () => {
    const text = 'Xin chào 👋🏾! مرحبا 123 שלום ‏(RTL)‏ 🇻🇳 नमस्ते 👩‍💻 你好 e\u0301';
    for (let max = 0; max <= text.length; max++) {
      const cut = clipText(text, max, '…');
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut.isWellFormed()).toBe(true);
      // Whatever is kept is whole graphemes of the text.
      const kept = cut.endsWith('…') ? cut.slice(0, -1) : cut;
      expect(text.startsWith(kept)).toBe(true);
      expect(graphemeBoundary(text, kept.length)).toBe(kept.length);
    }
  });
});
