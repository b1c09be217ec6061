/**
 * Email bodies. Customer HTML is rebuilt, never filtered: the output holds only the allow-listed tags below
 * (no attributes but a checked `href`), every piece of text is re-escaped, and what scripts, styles, frames,
 * forms' widgets and embedded objects contain is dropped with them. Whatever the input, the output cannot
 * carry markup we did not write, so a parser that misreads odd HTML only costs formatting.
 */

const ALLOWED = new Set([
  'a',
  'b',
  'strong',
  'i',
  'em',
  'u',
  's',
  'strike',
  'del',
  'ins',
  'mark',
  'small',
  'sub',
  'sup',
  'p',
  'div',
  'span',
  'br',
  'hr',
  'blockquote',
  'pre',
  'code',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
]);
const VOID = new Set(['br', 'hr']);
/** Elements whose content is code or chrome, not something the customer wrote. */
const DROPPED_WITH_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'noscript',
  'noembed',
  'noframes',
  'template',
  'title',
  'head',
  'svg',
  'math',
  'textarea',
  'select',
  'option',
  'button',
  'xmp',
  'plaintext',
  'canvas',
  'audio',
  'video',
]);
const MAX_DEPTH = 200;

const TAG_START = /<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)/y;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const ENTITY = /&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});/i;

/** The customer's HTML reduced to safe, well-formed markup (see the file comment). */
export function sanitizeHtml(html: string): string {
  const out: string[] = [];
  const open: string[] = [];
  let i = 0;
  const n = html.length;

  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      out.push(escapeText(html.slice(i)));
      break;
    }
    out.push(escapeText(html.slice(i, lt)));
    i = lt;

    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4);
      i = end < 0 ? n : end + 3;
      continue;
    }
    if (html[i + 1] === '!' || html[i + 1] === '?') {
      const end = html.indexOf('>', i);
      i = end < 0 ? n : end + 1;
      continue;
    }
    TAG_START.lastIndex = i;
    const start = TAG_START.exec(html);
    if (!start) {
      out.push('&lt;');
      i += 1;
      continue;
    }
    const end = tagEnd(html, i + start[0].length);
    if (end < 0) break; // an unterminated tag: the rest is not text anybody meant to show
    const name = start[2]!.toLowerCase();
    const closing = start[1] === '/';
    const attributes = html.slice(i + start[0].length, end);
    i = end + 1;

    if (!closing && DROPPED_WITH_CONTENT.has(name)) {
      i = skipElement(html, i, name);
      continue;
    }
    if (!ALLOWED.has(name)) continue;
    if (closing) {
      const at = open.lastIndexOf(name);
      if (at < 0) continue;
      while (open.length > at) out.push(`</${open.pop()}>`);
      continue;
    }
    if (VOID.has(name)) {
      out.push(`<${name}>`);
      continue;
    }
    if (open.length >= MAX_DEPTH) continue;
    open.push(name);
    out.push(name === 'a' ? openLink(attributes) : `<${name}>`);
  }
  while (open.length > 0) out.push(`</${open.pop()}>`);
  return out.join('');
}

/** The index of the `>` that ends a tag, skipping quoted attribute values; -1 when there is none. */
function tagEnd(html: string, from: number): number {
  let quote: string | null = null;
  for (let j = from; j < html.length; j++) {
    const c = html[j];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      return j;
    }
  }
  return -1;
}

function skipElement(html: string, from: number, name: string): number {
  const close = new RegExp(`</${name}[\\s/>]`, 'gi');
  close.lastIndex = from;
  const found = close.exec(html);
  if (!found) return html.length;
  const end = html.indexOf('>', found.index);
  return end < 0 ? html.length : end + 1;
}

function openLink(attributes: string): string {
  for (const m of attributes.matchAll(ATTRIBUTE)) {
    if (m[1]!.toLowerCase() !== 'href') continue;
    // Browsers decode entities and drop control characters and spaces before reading the scheme; so do we,
    // then check the result against an allow-list (anything we cannot decode fails the check).
    const href = withoutControls(decodeEntities(m[2] ?? m[3] ?? m[4] ?? '')).trim();
    if (!/^(https?:\/\/|mailto:)/i.test(href)) break;
    return `<a href="${escapeAttribute(href)}" rel="noopener noreferrer nofollow" target="_blank">`;
  }
  return '<a>';
}

/** The text without C0 control characters and DEL (tabs and newlines included). */
export function withoutControls(text: string, replacement = ''): string {
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    out += code < 0x20 || code === 0x7f ? replacement : char;
  }
  return out;
}

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  colon: ':',
  sol: '/',
  period: '.',
  tab: '\t',
  newline: '\n',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z][a-z0-9]{1,31});?/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : '\ufffd';
    }
    return NAMED[body.toLowerCase()] ?? whole;
  });
}

/** Text content: `<`, `>` and quotes escaped; an `&` that starts an entity is kept (it renders as text). */
function escapeText(text: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const amp = text.indexOf('&', i);
    const chunk = amp < 0 ? text.slice(i) : text.slice(i, amp);
    out += chunk.replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    if (amp < 0) return out;
    const entity = ENTITY.exec(text.slice(amp, amp + 40));
    if (entity && entity.index === 0) {
      out += entity[0];
      i = amp + entity[0].length;
    } else {
      out += '&amp;';
      i = amp + 1;
    }
  }
}

function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * Splits a plain-text reply into what the customer wrote and the quoted copy of earlier mail at its end
 * (`> …` lines after an "On … wrote:" line, or everything after an Outlook "Original Message" rule). Only a
 * quote at the end is split off, and only when something remains, so nothing the customer wrote is hidden.
 */
export function splitQuotedReply(text: string): { body: string; quoted: string | null } {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let cut = lines.findIndex((line) => /^\s*-{2,}\s*original message\s*-{2,}\s*$/i.test(line));
  if (cut < 0) {
    let end = lines.length;
    while (end > 0 && !lines[end - 1]!.trim()) end--;
    let start = end;
    while (start > 0 && (lines[start - 1]!.startsWith('>') || !lines[start - 1]!.trim())) start--;
    while (start < end && !lines[start]!.trim()) start++;
    if (start === end) return { body: text.trim(), quoted: null };
    cut = start;
    // The attribution line ("On Fri, 2 Jan 2026, Harbourside Dental <…> wrote:"), which clients may wrap.
    let before = cut;
    while (before > 0 && !lines[before - 1]!.trim()) before--;
    const attribution = (take: number) =>
      before - take < 0
        ? ''
        : lines
            .slice(before - take, before)
            .join(' ')
            .trim();
    const complete = (take: number) => /^on\s.*wrote:$/i.test(attribution(take));
    const take = complete(1)
      ? 1
      : complete(2)
        ? 2
        : complete(3)
          ? 3
          : /\swrote:$/i.test(attribution(1))
            ? 1
            : 0;
    cut = before - take;
  }
  const body = lines.slice(0, cut).join('\n').trim();
  if (!body) return { body: text.trim(), quoted: null };
  return { body, quoted: lines.slice(cut).join('\n').trim() };
}
