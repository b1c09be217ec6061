import type { RewriteInput } from './assistant.ts';

/**
 * The built-in assistant's rewrite: the same words, made ready to send. Spacing and punctuation tidied,
 * sentences and "I" capitalised, a word typed twice once, common slips mended, and a greeting and a sign-off
 * added when the draft has none. Deterministic: the same draft always gives the same text, and nothing is
 * added that the person did not mean to say.
 */
export function cleanUpDraft(
  text: string,
  voice: Pick<RewriteInput, 'first_name' | 'tone' | 'business_name' | 'sender'>,
): string {
  let s = text.replace(/\r\n?/g, '\n').replace(/[ \t]+/g, ' ');
  s = s
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (!s) return '';
  for (const [pattern, replacement] of SLIPS) s = s.replace(pattern, replacement);
  s = s
    // A word typed twice ("the the") once; numbers and "had had"-style pairs are rare in replies.
    .replace(/\b([A-Za-z]+)(\s+\1\b)+/gi, '$1')
    // One space after a comma, none before punctuation (not inside numbers, times, links or ellipses).
    .replace(/([,;])(?=[A-Za-z])/g, '$1 ')
    .replace(/\s+([,.!?;:])(?=\s|$)/g, '$1')
    .replace(/([.!?])(?=[A-Z][a-z])/g, '$1 ')
    .replace(/([!?.]){2,}/g, (m) => (m.startsWith('...') ? '...' : (m[0] ?? '')))
    .replace(/\bi\b/g, 'I');
  // Capitals at the start of each sentence and line.
  s = s.replace(
    /(^|[.!?]\s+|\n\s*)([a-z])/g,
    (_m, before: string, letter: string) => before + letter.toUpperCase(),
  );
  const closed = signedOff(s);
  // A name under a closing stays as it is; the message itself ends with a full stop when it has none.
  if (!closed && !/[.!?)…:]$/.test(s) && !/\p{Emoji_Presentation}$/u.test(s)) s += '.';

  const greeting = GREETING.test(s) ? '' : `${hello(voice)}\n\n`;
  const signOff = closed ? '' : `\n\n${closing(voice)}`;
  return `${greeting}${s}${signOff}`;
}

const GREETING = /^(hi|hello|hey|dear|good (morning|afternoon|evening)|g'?day|thanks|thank you)\b/i;
/** A closing line ("Thanks,", "Kind regards, Sam", "See you soon!"): short, and starting with a closing. */
const SIGN_OFF =
  /^(many thanks|thanks|thank you|regards|kind regards|best regards|cheers|best|sincerely|talk soon|see you( soon| then)?|speak soon|warm wishes)\b[^\n]{0,40}$/i;

/** Whether one of the last two lines closes the message (a first line is the message itself, never its closing). */
function signedOff(text: string): boolean {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines
    .slice(1)
    .slice(-2)
    .some((line) => SIGN_OFF.test(line));
}

function hello(voice: Pick<RewriteInput, 'first_name' | 'tone'>): string {
  const word = voice.tone === 'professional' ? 'Hello' : 'Hi';
  return voice.first_name ? `${word} ${voice.first_name},` : `${word},`;
}

function closing(voice: Pick<RewriteInput, 'tone' | 'business_name' | 'sender'>): string {
  const word = voice.tone === 'professional' ? 'Kind regards' : voice.tone === 'casual' ? 'Cheers' : 'Thanks';
  const who = voice.sender ? `${voice.sender}, ${voice.business_name}` : voice.business_name;
  return `${word},\n${who}`;
}

/** Slips people make typing fast on a phone. */
const SLIPS: [RegExp, string][] = [
  [/\bteh\b/gi, 'the'],
  [/\bdont\b/gi, "don't"],
  [/\bcant\b/gi, "can't"],
  [/\bwont\b/gi, "won't"],
  [/\bdidnt\b/gi, "didn't"],
  [/\bdoesnt\b/gi, "doesn't"],
  [/\bisnt\b/gi, "isn't"],
  [/\bim\b/g, "I'm"],
  [/\bive\b/g, "I've"],
  [/\bid like\b/gi, "I'd like"],
  [/\byoure\b/gi, "you're"],
  [/\btheyre\b/gi, "they're"],
  [/\bthats\b/gi, "that's"],
  [/\bwe'?ll\b/gi, "we'll"],
  [/\brecieve/gi, 'receive'],
  [/\bseperate/gi, 'separate'],
  [/\bdefinately\b/gi, 'definitely'],
  [/\bappointmnet\b/gi, 'appointment'],
  [/\btommorow\b|\btomorow\b/gi, 'tomorrow'],
  [/\bu\b/g, 'you'],
  [/\bur\b/g, 'your'],
  [/\bpls\b|\bplz\b/gi, 'please'],
  [/\bthx\b/gi, 'thanks'],
];

/**
 * A summary by extraction: the sentences that carry the most of the text's frequent words, in their order.
 * Every line is a sentence of the text; nothing is made up.
 */
export function extractSummary(text: string, sentences = 3): string {
  const all = text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 2);
  if (all.length <= sentences) return all.join(' ');
  const counts = new Map<string, number>();
  const wordsOf = (s: string) => (s.toLowerCase().match(/[a-z']{4,}/g) ?? []).filter((w) => !COMMON.has(w));
  for (const s of all) for (const w of wordsOf(s)) counts.set(w, (counts.get(w) ?? 0) + 1);
  const scored = all.map((s, i) => {
    const words = wordsOf(s);
    const weight = words.reduce((sum, w) => sum + (counts.get(w) ?? 0), 0) / Math.max(4, words.length);
    return { i, s, weight: weight + (i === 0 ? 0.5 : 0) };
  });
  return scored
    .sort((a, b) => b.weight - a.weight)
    .slice(0, sentences)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.s)
    .join(' ');
}

const COMMON = new Set(
  'that this with have from they will would there their what about which when your just like been were them then than into some could also very much more'.split(
    ' ',
  ),
);
