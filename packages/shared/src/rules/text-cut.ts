/**
 * Cutting text people wrote. A cut by UTF-16 units (`slice`) can split an emoji's surrogate pair, which leaves
 * a lone surrogate the database refuses inside JSON; a cut between code points can still split what a reader
 * sees as one character (a flag, a family emoji, a letter and its accents). So text is cut between graphemes,
 * and only a single grapheme longer than the whole room (a "Zalgo" stack of marks) is cut between code points.
 */

type Segmenter = { segment(text: string): { containing(index: number): { index: number } | undefined } };

/** One segmenter for the process: building one loads the break rules. Missing on very old browsers. */
let graphemes: Segmenter | null | undefined;
function segmenter(): Segmenter | null {
  if (graphemes === undefined) {
    const Intl_ = Intl as unknown as {
      Segmenter?: new (locale?: string, options?: { granularity: 'grapheme' }) => Segmenter;
    };
    graphemes = Intl_.Segmenter ? new Intl_.Segmenter(undefined, { granularity: 'grapheme' }) : null;
  }
  return graphemes;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The last code point boundary at or before `at`: never between the two halves of a surrogate pair. */
function codePointBoundary(text: string, at: number): number {
  if (at <= 0 || at >= text.length) return Math.max(0, Math.min(at, text.length));
  return isLowSurrogate(text.charCodeAt(at)) && isHighSurrogate(text.charCodeAt(at - 1)) ? at - 1 : at;
}

/**
 * The last place at or before `at` where `text` may be cut without splitting a grapheme (or, inside a
 * grapheme longer than `at` itself, a code point).
 */
export function graphemeBoundary(text: string, at: number): number {
  if (at >= text.length) return text.length;
  if (at <= 0) return 0;
  const s = segmenter();
  if (!s) return codePointBoundary(text, at);
  // Whether a boundary falls at `at` depends on what comes before it and on the one code point after it, so
  // a short look past the cut is enough, whatever the text's length.
  const start = s.segment(text.slice(0, at + 2)).containing(at)?.index ?? at;
  return start > 0 ? start : codePointBoundary(text, at);
}

/**
 * `text` in at most `max` UTF-16 units (what `length` and an input's `maxlength` count; never fewer than the
 * code points zod's `max` and the database count), cut between graphemes; `ellipsis` ends it when anything
 * was cut, within `max`. Text that fits is returned as it is.
 */
export function clipText(text: string, max: number, ellipsis = ''): string {
  if (text.length <= max) return text;
  const room = max - ellipsis.length;
  if (room <= 0) return ellipsis.slice(0, codePointBoundary(ellipsis, Math.max(0, max)));
  return `${text.slice(0, graphemeBoundary(text, room))}${ellipsis}`;
}
