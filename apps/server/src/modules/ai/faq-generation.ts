import { clipText } from '@switchboard/shared';
import type { DocumentSection, ProposedFaq } from './assistant.ts';

/** The longest answer proposed from a document; a longer section is cut at a sentence. */
const ANSWER_CHARS = 800;
const QUESTION_WORD =
  /^(what|what's|whats|how|when|where|why|who|which|can|could|do|does|did|is|are|will|would|should|may|must|have|has)\b/i;

/** A line that asks something: ends with "?", or starts "Q:", or starts with a question word and is short. */
export function isQuestionLine(line: string): boolean {
  const s = line.trim().replace(/^(q|question)\s*[:.)-]\s*/i, '');
  if (!s || s.length > 200) return false;
  return s.endsWith('?') || (/^(q|question)\s*[:.)-]/i.test(line.trim()) && s.length > 5);
}

const stripQuestionMark = (line: string) => line.trim().replace(/^(q|question)\s*[:.)-]\s*/i, '');
const stripAnswerMark = (text: string) => text.replace(/^(a|answer)\s*[:.)-]\s*/i, '').trim();

/**
 * Text cut into sections by its headings: markdown `#` lines, short lines in capitals, and short lines with
 * no closing full stop followed by a paragraph (how headings read once a PDF or a Word file is text).
 * Question lines start their own section, so an FAQ page gives one section per question.
 */
export function sectionsFromText(text: string): DocumentSection[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const sections: DocumentSection[] = [];
  let heading = '';
  let body: string[] = [];
  const flush = () => {
    const joined = body
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
    if (joined) sections.push({ id: null, heading: heading.trim(), body: joined });
    body = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    const next = (lines.slice(i + 1).find((l) => l.trim()) ?? '').trim();
    const markdown = line.match(/^#{1,6}\s+(.+)$/);
    const looksLikeHeading =
      !!markdown ||
      isQuestionLine(line) ||
      (line.length > 1 &&
        line.length <= 80 &&
        !/[.,;:]$/.test(line) &&
        !/^[-*•\d]/.test(line) &&
        (line === line.toUpperCase() && /[A-Z]/.test(line) ? true : next.length > line.length * 1.5) &&
        (lines[i - 1] ?? '').trim() === '');
    if (looksLikeHeading) {
      flush();
      heading = markdown?.[1] ?? stripQuestionMark(line);
      continue;
    }
    body.push(line);
  }
  flush();
  return sections;
}

/**
 * FAQs proposed from a document by its structure, with no model: a heading or line that asks something
 * becomes the question and the text under it the answer; a plain heading ("Parking") becomes a question
 * about it. Sections with too little text to answer anything are left out.
 */
export function faqsFromSections(sections: DocumentSection[]): ProposedFaq[] {
  const out: ProposedFaq[] = [];
  const seen = new Set<string>();
  for (const section of sections) {
    const answer = shorten(stripAnswerMark(section.body));
    if (answer.length < 15 || !section.heading) continue;
    const question =
      isQuestionLine(section.heading) || QUESTION_WORD.test(section.heading)
        ? ensureQuestionMark(stripQuestionMark(section.heading))
        : aboutHeading(section.heading);
    const key = question.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ question, answer, section_id: section.id });
  }
  return out;
}

const ensureQuestionMark = (q: string) => (q.endsWith('?') ? q : `${q.replace(/[.:]$/, '')}?`);

/** "Opening hours" → "What are your opening hours?"; "Parking" → "What about parking?" */
function aboutHeading(heading: string): string {
  const trimmed = heading.replace(/[.:]$/, '').trim();
  const h = trimmed === trimmed.toUpperCase() ? trimmed.toLowerCase() : trimmed;
  const lower = h.charAt(0).toLowerCase() + h.slice(1);
  return /s$/i.test(h) && !/ss$/i.test(h) ? `What are your ${lower}?` : `What about ${lower}?`;
}

function shorten(text: string): string {
  const flat = text.replace(/\n{2,}/g, '\n').trim();
  if (flat.length <= ANSWER_CHARS) return flat;
  const cut = clipText(flat, ANSWER_CHARS);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('.\n'));
  return end > 200 ? cut.slice(0, end + 1) : `${cut.trimEnd()}…`;
}
