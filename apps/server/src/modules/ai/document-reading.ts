import { Readability } from '@mozilla/readability';
import { Parser } from 'htmlparser2';
import { parseHTML } from 'linkedom';
import mammoth from 'mammoth';
import { getDocumentProxy } from 'unpdf';
import { AppError } from '../../errors.ts';
import { checkZip, ZipLimitError, type ZipLimits, type ZipProblem } from '../../lib/zip-limits.ts';
import type { DocumentSection } from './assistant.ts';
import { isQuestionLine, sectionsFromText } from './faq-generation.ts';

/*
 * The parsers of files and web pages the assistant learns from. Everything here runs inside an isolated worker
 * (documents.ts sends it there), because these inputs come from anyone: a Word file a few KB long can unpack to
 * gigabytes, a PDF can hold thousands of pages, and HTML can nest deep enough to keep a parser busy for minutes.
 */

export type DocumentKind = 'pdf' | 'docx' | 'html' | 'text';

/** The most text one document gives the assistant (about 400 dense pages), and the most sections. */
export const MAX_TEXT_CHARS = 1_000_000;
export const MAX_SECTIONS = 2_000;
export const MAX_PDF_PAGES = 2_000;

const MB = 1024 * 1024;
/**
 * A Word file, unpacked. Its XML is what the reader parses, at about 80 bytes of memory per byte of XML, so the
 * XML cap keeps a legal file inside the worker's heap; pictures are never unpacked by the reader.
 */
export const DOCX_LIMITS: ZipLimits = {
  maxEntries: 2_000,
  maxTotalBytes: 64 * MB,
  maxTextPartBytes: 5 * MB,
  textPart: /\.(xml|rels)$/i,
  maxPartBytes: 32 * MB,
  maxRatio: 100,
  ratioFromBytes: MB,
};

const megabytes = (bytes: number) => `${Math.max(1, Math.round(bytes / MB))} MB`;

/** Whose text is too much (a file's quoted name, or "The page"), and what the owner can do about it. */
type Subject = { subject: string; smaller: string };
const fileSubject = (name: string): Subject => ({
  subject: `“${name}”`,
  smaller: 'Split it into smaller files and upload them one by one.',
});
const PAGE: Subject = {
  subject: 'The page',
  smaller: 'Save the part you need as a file and upload that instead.',
};

const tooMuchText = ({ subject, smaller }: Subject) =>
  new AppError(
    'unprocessable',
    `${subject} has more text than the assistant reads from one document (${MAX_TEXT_CHARS.toLocaleString('en')} characters). ${smaller}`,
  );

function zipRefusal(name: string, problem: ZipProblem): AppError {
  const unprocessable = (text: string) => new AppError('unprocessable', `“${name}” ${text}`);
  switch (problem.kind) {
    case 'entries':
      return unprocessable(
        `holds ${problem.count.toLocaleString('en')} parts, more than a Word file has. Save it again from Word and upload it.`,
      );
    case 'text_part':
      return unprocessable(
        `unpacks to ${megabytes(problem.bytes)} of text, more than the assistant reads from one file (${megabytes(DOCX_LIMITS.maxTextPartBytes)}). Split it into smaller files and upload them one by one.`,
      );
    case 'part':
    case 'total':
      return unprocessable(
        `unpacks to ${megabytes(problem.bytes)}, more than the assistant reads from one file (${megabytes(problem.kind === 'part' ? DOCX_LIMITS.maxPartBytes : DOCX_LIMITS.maxTotalBytes)}). Split it into smaller files, or take large pictures out.`,
      );
    case 'ratio':
      return unprocessable(
        `swells ${problem.ratio} times when unpacked, which only a file built to harm does. Save it again from Word and upload it.`,
      );
    case 'lying':
      return unprocessable(
        'unpacks to more than it says it holds: it is damaged or built to harm. Save it again from Word and upload it.',
      );
    case 'damaged':
      return unprocessable('could not be read: it may be damaged or protected by a password.');
  }
}

type PdfPage = Awaited<ReturnType<Awaited<ReturnType<typeof getDocumentProxy>>['getPage']>>;
type TextChunk = { items: { str?: string; hasEOL?: boolean }[] };

/** A page's text as PDF.js streams it, stopped as soon as it passes `budget` characters. */
async function pageText(page: PdfPage, budget: number): Promise<string | null> {
  const reader = (page.streamTextContent() as ReadableStream<TextChunk>).getReader();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    for (const item of value.items) if (item.str != null) text += item.str + (item.hasEOL ? '\n' : '');
    // Left unread: cancelling makes PDF.js throw where nothing can catch it; the document is destroyed next.
    if (text.length > budget) return null;
  }
}

/** Text of the pages one by one, stopping at the page count and text caps. */
async function pdfText(name: string, bytes: Uint8Array): Promise<string> {
  const pdf = await getDocumentProxy(bytes, { verbosity: 0 });
  try {
    if (pdf.numPages > MAX_PDF_PAGES) {
      throw new AppError(
        'unprocessable',
        `“${name}” has ${pdf.numPages.toLocaleString('en')} pages, more than the assistant reads from one file (${MAX_PDF_PAGES.toLocaleString('en')}). Split it into smaller files and upload them one by one.`,
      );
    }
    const pages: string[] = [];
    let chars = 0;
    for (let n = 1; n <= pdf.numPages; n++) {
      const text = await pageText(await pdf.getPage(n), MAX_TEXT_CHARS - chars);
      if (text === null) throw tooMuchText(fileSubject(name));
      chars += text.length;
      pages.push(text);
    }
    return pages.join('\n\n');
  } finally {
    await pdf.loadingTask.destroy();
  }
}

async function docxHtml(name: string, bytes: Buffer): Promise<string> {
  try {
    await checkZip(bytes, DOCX_LIMITS);
  } catch (error) {
    if (error instanceof ZipLimitError) throw zipRefusal(name, error.problem);
    throw error;
  }
  const { value } = await mammoth.convertToHtml(
    { buffer: bytes },
    {
      // Pictures are not read at all: the assistant learns from text, and unpacking them only costs memory.
      convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
      externalFileAccess: false,
    },
  );
  return value;
}

function utf8(bytes: Uint8Array, name: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AppError(
      'unprocessable',
      `“${name}” is not UTF-8 text. Save it as UTF-8 (or as PDF or Word) and upload it again.`,
    );
  }
}

function capped(who: Subject, sections: DocumentSection[]): DocumentSection[] {
  const chars = sections.reduce((n, s) => n + s.heading.length + s.body.length, 0);
  if (chars > MAX_TEXT_CHARS) throw tooMuchText(who);
  if (sections.length > MAX_SECTIONS) {
    throw new AppError(
      'unprocessable',
      `${who.subject} has ${sections.length.toLocaleString('en')} headings or questions, more than the assistant reads from one document (${MAX_SECTIONS.toLocaleString('en')}). ${who.smaller}`,
    );
  }
  return sections;
}

/** A file's text, cut into sections by its headings (in the worker; `kind` is already known). */
export async function readDocument(input: {
  name: string;
  kind: DocumentKind;
  bytes: Uint8Array;
}): Promise<DocumentSection[]> {
  const { name, kind } = input;
  const who = fileSubject(name);
  const bytes = Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
  if (kind === 'pdf') return capped(who, sectionsFromText(await pdfText(name, input.bytes)));
  if (kind === 'docx') return capped(who, sectionsFromHtml(await docxHtml(name, bytes)));
  if (kind === 'html')
    return capped(who, sectionsFromHtml(readable(shapelyHtml(who, utf8(bytes, name))).html));
  const text = utf8(bytes, name);
  if (text.length > MAX_TEXT_CHARS) throw tooMuchText(who);
  return capped(who, sectionsFromText(text));
}

/** A fetched web page as sections and its title (in the worker). */
export function readPage(input: { html: string }): { title: string; sections: DocumentSection[] } {
  const page = readable(shapelyHtml(PAGE, input.html));
  return { title: page.title, sections: capped(PAGE, sectionsFromHtml(page.html)) };
}

/**
 * How deep elements may nest, and how many a page may have. Real pages nest a few dozen deep and hold tens of
 * thousands of elements; the DOM and Readability slow down steeply with depth (seconds at a thousand), so a page
 * built to stall them is refused from one quick pass of the tokenizer instead of holding the reader until its
 * time limit.
 */
export const MAX_HTML_DEPTH = 256;
export const MAX_HTML_ELEMENTS = 200_000;

function shapelyHtml(who: Subject, html: string): string {
  let depth = 0;
  let deepest = 0;
  let elements = 0;
  // htmlparser2 closes what HTML closes by itself (a <p> before another, void elements), as the DOM will.
  const parser = new Parser({
    onopentag() {
      elements++;
      depth++;
      if (depth > deepest) deepest = depth;
    },
    onclosetag() {
      depth = Math.max(0, depth - 1);
    },
  });
  parser.end(html);
  if (deepest > MAX_HTML_DEPTH || elements > MAX_HTML_ELEMENTS) {
    throw new AppError(
      'unprocessable',
      deepest > MAX_HTML_DEPTH
        ? `${who.subject} nests its parts ${deepest.toLocaleString('en')} deep, more than the assistant reads (${MAX_HTML_DEPTH}): it is damaged, or built to stall a reader. ${who.smaller}`
        : `${who.subject} has ${elements.toLocaleString('en')} HTML elements, more than the assistant reads from one document (${MAX_HTML_ELEMENTS.toLocaleString('en')}). ${who.smaller}`,
    );
  }
  return html;
}

/** The main content of a web page (menus, footers and ads left out), and its title. */
function readable(html: string): { html: string; title: string } {
  const { document } = parseHTML(html);
  const article = new Readability(
    document as unknown as ConstructorParameters<typeof Readability>[0],
  ).parse();
  return { html: article?.content ?? html, title: article?.title ?? document.title ?? '' };
}

const BLOCKS = 'h1,h2,h3,h4,h5,h6,p,li,dt,dd,td,th,blockquote,pre';

/** HTML cut into sections: each heading (or question-like line) starts one; the text under it is its body. */
export function sectionsFromHtml(html: string): DocumentSection[] {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const sections: DocumentSection[] = [];
  let heading = '';
  let body: string[] = [];
  const flush = () => {
    const text = body.join('\n').trim();
    if (text) sections.push({ id: null, heading, body: text });
    body = [];
  };
  for (const el of document.querySelectorAll(BLOCKS)) {
    // A block inside another block is read with its parent.
    if (el.parentElement?.closest(BLOCKS)) continue;
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (!text) continue;
    if (/^H[1-6]$/.test(el.tagName) || el.tagName === 'DT' || isQuestionLine(text)) {
      flush();
      heading = text.replace(/^(q|question)\s*[:.)-]\s*/i, '');
      continue;
    }
    body.push(el.tagName === 'LI' ? `• ${text}` : text);
  }
  flush();
  return sections;
}
