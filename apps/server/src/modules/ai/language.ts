/**
 * How the built-in assistant reads a customer's message before retrieval: words of everyday English that say
 * the same thing as the words a business writes in its FAQs, words that carry no question, and the phrases
 * that mean "let me talk to a person". Stemming and ranking are PostgreSQL's (`english` text search config);
 * this is only what a stemmer cannot know.
 */

/**
 * Phrases rewritten to the words an FAQ would use, before the message is cut into words (their own words are
 * mostly stop words PostgreSQL drops: "how much", "what time", "where are you").
 */
const PHRASES: [RegExp, string][] = [
  [/\bhow much\b/g, ' cost '],
  [/\bhow long\b/g, ' long duration '],
  [/\bhow far\b/g, ' distance location '],
  [/\bwhat time\b/g, ' time hours '],
  [/\bwhen (?:are|r) (?:you|u|ya|they)\b/g, ' hours open '],
  [
    /\bwhere (?:are|r|is) (?:you|u|ya|it|the (?:shop|store|clinic|office|salon|studio|restaurant))\b/g,
    ' location address ',
  ],
  [/\bwhere(?:'s| is) (?:your|the)\b/g, ' location '],
  [/\bget (?:to|there)\b/g, ' directions location '],
  [/\b(?:come|pop|drop) (?:in|by|over|down)\b/g, ' '],
  [/\bwalk[- ]?ins?\b/g, ' walk-in appointment '],
  [/\bcredit cards?\b/g, ' card payment '],
  [/\bgift ?cards?\b/g, ' gift voucher '],
  [/\bpay ?later\b/g, ' afterpay instalment '],
  [/\bby when\b/g, ' time '],
  [/\bsign ?up\b/g, ' register join '],
  [/\bcheck[- ]?in\b/g, ' checkin arrive '],
  [/\bcheck[- ]?out\b/g, ' checkout leave '],
  [/\bday off\b/g, ' closed holiday '],
  [/\bpublic holidays?\b/g, ' holiday '],
  [/\bfirst (?:visit|time|appointment)\b/g, ' new first visit '],
  [/\be-?bikes?\b/g, ' ebike electric bike '],
  [/\b\d+ ?(?:yo|y\.o\.|years? old|yr old)\b/g, ' child age '],
  [/\btune[- ]?ups?\b/g, ' service '],
  [/\bhiring\b/g, ' jobs vacancy '],
  [/\btake[- ]?away\b|\bto go\b|\bpick[- ]?up\b/g, ' takeaway '],
  [/\bpet[- ]friendly\b/g, ' pet dog allowed '],
  [/\bgluten[- ]free\b|\bcoeliac\b|\bceliac\b/g, ' gluten dietary '],
  [/\bpick(?:ing)? (?:it |them )?up\b/g, ' collect '],
  [/\bdrop(?:ping)? (?:it |them )?off\b/g, ' drop '],
];

/** Words an FAQ's answer implies without saying them: a price is about cost, a time of day about hours. */
const HINTS: [RegExp, string][] = [
  [/[$€£]\s?\d|\b\d+(?:\.\d\d)? ?(?:dollars|aud|usd)\b/i, 'price cost'],
  [/\b\d{1,2}(?::\d\d)? ?(?:am|pm)\b|\b\d{1,2}:\d\d\b/i, 'hours time'],
  [/\b\d+ ?(?:min|mins|minutes|hours?|hrs?|days?|weeks?|months?|years?)\b/i, 'long duration'],
];

const CONTRACTIONS: [RegExp, string][] = [
  [/\b(\w+)n['’]t\b/g, '$1 not'],
  [/['’](?:re|ve|ll|d|m|s)\b/g, ''],
];

/**
 * Groups of words customers use interchangeably. A word of the message also matches the other words of its
 * group, a little less strongly than itself. Written as plain words; stemmed by PostgreSQL with the rest.
 */
export const SYNONYM_GROUPS: readonly string[][] = [
  [
    'price',
    'cost',
    'fee',
    'fees',
    'charge',
    'rate',
    'rates',
    'pricing',
    'expensive',
    'cheap',
    'quote',
    'dollars',
    'pay',
  ],
  [
    'hours',
    'open',
    'opening',
    'close',
    'closing',
    'time',
    'times',
    'today',
    'tomorrow',
    'weekend',
    'weekends',
  ],
  [
    'monday',
    'tuesday',
    'wednesday',
    'thursday',
    'friday',
    'saturday',
    'sunday',
    'weekday',
    'weekdays',
    'weekend',
  ],
  [
    'book',
    'booking',
    'appointment',
    'appointments',
    'reserve',
    'reservation',
    'schedule',
    'slot',
    'availability',
    'available',
    'table',
    'seat',
    'seats',
  ],
  ['dinner', 'night', 'evening', 'tonight', 'supper'],
  ['breakfast', 'brunch', 'lunch', 'morning'],
  ['takeaway', 'collect', 'collection', 'order', 'delivery', 'deliver'],
  ['cancel', 'cancellation', 'reschedule', 'postpone', 'change', 'move'],
  ['location', 'address', 'located', 'directions', 'suburb'],
  ['shop', 'store', 'showroom', 'premises', 'clinic', 'salon', 'studio', 'office'],
  ['hire', 'rent', 'rental', 'rentals', 'borrow', 'lease'],
  ['repair', 'fix', 'service', 'servicing', 'mend', 'maintenance'],
  ['ready', 'done', 'finished', 'complete', 'collect', 'turnaround'],
  ['buy', 'purchase', 'purchased', 'bought', 'order', 'sell', 'stock'],
  ['park', 'parking', 'car', 'carpark', 'garage'],
  [
    'payment',
    'pay',
    'card',
    'cash',
    'eftpos',
    'visa',
    'mastercard',
    'amex',
    'afterpay',
    'instalment',
    'invoice',
  ],
  ['refund', 'return', 'money', 'exchange', 'reimburse'],
  ['deliver', 'delivery', 'shipping', 'ship', 'post', 'postage', 'courier', 'send', 'dispatch'],
  ['child', 'children', 'kid', 'kids', 'baby', 'toddler', 'family', 'son', 'daughter'],
  ['pet', 'pets', 'dog', 'dogs', 'cat', 'cats', 'puppy'],
  ['phone', 'call', 'ring', 'contact', 'number', 'email'],
  ['wheelchair', 'accessible', 'accessibility', 'disabled', 'disability', 'ramp', 'lift', 'stairs'],
  ['insurance', 'insured', 'health fund', 'rebate', 'medicare', 'claim', 'hicaps'],
  ['discount', 'discounts', 'concession', 'pensioner', 'student', 'senior', 'deal', 'promo'],
  ['menu', 'food', 'dish', 'dishes', 'eat', 'meal'],
  [
    'vegan',
    'vegetarian',
    'gluten',
    'dairy',
    'allergy',
    'allergies',
    'dietary',
    'halal',
    'intolerance',
    'lactose',
    'nut',
    'nuts',
    'options',
  ],
  ['wait', 'waiting', 'queue', 'long', 'duration'],
  ['accept', 'take', 'takes', 'allow', 'allowed'],
  ['late', 'behind', 'delayed', 'delay', 'lateness'],
  ['voucher', 'vouchers', 'giftcard', 'certificate'],
  ['colour', 'color', 'colouring', 'coloring', 'dye', 'tint', 'highlights', 'foils', 'balayage', 'bleach'],
  ['job', 'jobs', 'career', 'careers', 'vacancy', 'work', 'employment', 'apply'],
  ['warranty', 'guarantee', 'guaranteed'],
  ['wifi', 'internet', 'wi-fi'],
  ['new', 'first', 'beginner'],
  ['bring', 'need', 'required', 'require', 'prepare', 'preparation'],
  ['referral', 'refer', 'referred', 'letter', 'gp', 'doctor'],
  ['pregnant', 'pregnancy', 'prenatal', 'antenatal', 'postnatal', 'natal', 'baby'],
  ['injury', 'injuries', 'injured', 'hurt', 'sprain', 'sprained', 'pain', 'sore'],
  [
    'group',
    'groups',
    'party',
    'parties',
    'event',
    'events',
    'function',
    'private',
    'people',
    'guests',
    'large',
    'big',
  ],
  ['member', 'membership', 'subscription', 'plan', 'join', 'register'],
];

/**
 * Verbs that say little about *what* is asked ("do you treat kids?" is about kids): they count for a third of a
 * word's weight.
 */
export const WEAK_WORDS = [
  'offer',
  'provide',
  'treat',
  'see',
  'help',
  'need',
  'sell',
  'accept',
  'take',
  'allow',
  'available',
  'able',
  'want',
  'like',
  'find',
  'give',
  'bring',
  'send',
  'get',
  'require',
];

/** Words that carry no question of their own: greetings, politeness, filler. */
const FILLER = new Set(
  (
    'hi hello hey hiya g day gday morning afternoon evening dear thanks thank thx ty please pls plz cheers ' +
    'guys guy team folks wonder wondering wondered know tell like want wanted quick question questions ' +
    'query ask asking just also actually really able let ok okay sure yes yeah hmm um anyone someone ' +
    'something anything possible maybe kind regards mate love help info information usually normally ' +
    'typically generally currently still ever exactly roughly approximately make get got go going come ' +
    'coming put give see look looking use thing things way much many lot'
  ).split(' '),
);

const GREETING = /^\s*(hi+|hello|hey+|hiya|g'?day|good (morning|afternoon|evening)|yo|howdy)\b/i;
const ACKNOWLEDGEMENT =
  /^\s*(thanks?( you)?( so much| heaps| a lot)?|thx|ty|cheers|ok(ay)?|great|perfect|awesome|cool|no worries|sounds good|got it)[\s!.,]*$/i;

/** Asking for a person in so many words: the assistant hands over at once, whatever else the message says. */
const WANTS_A_PERSON =
  /\b(speak|talk|chat)\s+(to|with)\s+(a|an|the|someone|somebody|real|actual|your|human|person|staff|manager|owner|agent)\b|\b(real|actual|live)\s+(person|human|people)\b|\bhuman\b|\b(call|ring)\s+me\b|\bcomplaint\b|\bcomplain\b/i;

export type MessageReading = {
  /** The words that carry the question, in order, lower case, filler removed (not yet stemmed). */
  words: string[];
  /** Which of `words` are also words of the business's or location's name (they count only if an FAQ uses them). */
  names: Set<string>;
  greeting: boolean;
  acknowledgement: boolean;
  wantsPerson: boolean;
};

/**
 * The words an FAQ or document implies, indexed beside its own: the phrases' FAQ words ("where is the shop" →
 * location, address) and the hints of its answer (a price → cost). The same phrases are rewritten in customers'
 * messages, so both sides meet on the same words.
 */
export function impliedWords(text: string): string {
  const lower = text.toLowerCase();
  const found: string[] = [];
  for (const [pattern, replacement] of PHRASES) {
    if (lower.match(pattern)) found.push(replacement.trim());
    pattern.lastIndex = 0;
  }
  for (const [pattern, words] of HINTS) if (pattern.test(text)) found.push(words);
  return found.join(' ');
}

/** Cuts a customer's message into the words that carry its question, and notes what else it says. */
export function readMessage(text: string, ignore: Iterable<string> = []): MessageReading {
  const ignored = new Set([...ignore].map((w) => w.toLowerCase()));
  let s = text.toLowerCase().normalize('NFKC');
  for (const [pattern, replacement] of CONTRACTIONS) s = s.replace(pattern, replacement);
  for (const [pattern, replacement] of PHRASES) s = s.replace(pattern, replacement);
  const words = (s.match(/[a-z0-9][a-z0-9-]*/g) ?? [])
    .flatMap((w) => (w.includes('-') && !KEEP_HYPHENATED.has(w) ? w.split('-') : [w]))
    .filter((w) => w.length > 1 && !/^\d+$/.test(w) && !FILLER.has(w));
  return {
    words,
    names: new Set(words.filter((w) => ignored.has(w))),
    greeting: GREETING.test(text),
    acknowledgement: ACKNOWLEDGEMENT.test(text),
    wantsPerson: WANTS_A_PERSON.test(text),
  };
}

const KEEP_HYPHENATED = new Set(['walk-in', 'wi-fi', 'e-mail']);

/** The lower-case words of a name (the business's, a location's), which say nothing about the question. */
export function nameWords(...names: (string | null | undefined)[]): string[] {
  return names.flatMap((n) => (n ? (n.toLowerCase().match(/[a-z0-9]+/g) ?? []) : []));
}
