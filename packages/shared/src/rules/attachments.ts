import { formatFileSize } from './file-size.ts';

/** The largest file a message may carry (the server's default upload limit too). */
export const ATTACHMENT_MAX_BYTES = 25 * 1024 * 1024;

/** What staff may attach, as the server recognises it from the bytes; any `text/*` is accepted as well. */
export const ATTACHMENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/heic',
  'application/pdf',
  'audio/mpeg',
  'audio/mp4',
  'audio/ogg',
  'audio/wav',
  'video/mp4',
  'video/quicktime',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
] as const;

/** Plain-text files by extension: text has no magic number, so its name says which text it is. */
export const TEXT_ATTACHMENT_TYPES: Readonly<Record<string, string>> = {
  csv: 'text/csv',
  txt: 'text/plain',
  vcf: 'text/vcard',
  ics: 'text/calendar',
};

/** The names the accepted kinds usually go by, for a browser that knows a file only by its name. */
const EXTENSIONS = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'heic',
  'pdf',
  'mp3',
  'm4a',
  'ogg',
  'oga',
  'wav',
  'mp4',
  'mov',
  'docx',
  'xlsx',
  'pptx',
  ...Object.keys(TEXT_ATTACHMENT_TYPES),
]);

export const ATTACHMENT_TYPE_REFUSAL =
  'This kind of file cannot be attached. Send images, PDFs, audio, video, Office documents or plain text.';

export const attachmentTooLarge = (maxBytes: number) =>
  `The file is too large. Attach files of at most ${Math.floor(maxBytes / 1024 / 1024)} MB.`;

export const isAttachmentType = (type: string): boolean =>
  (ATTACHMENT_TYPES as readonly string[]).includes(type) || type.startsWith('text/');

/** Control characters other than tab, newline, form feed and carriage return mark binary data. */
const hasControlBytes = (bytes: Uint8Array) =>
  bytes.some((b) => (b >= 0x01 && b <= 0x08) || (b >= 0x0e && b <= 0x1f));

/**
 * Whether bytes are plain text: valid UTF-8, no NUL and no control bytes. `partial` reads the start of a
 * longer file, whose last character may be cut in two.
 */
export function isPlainText(bytes: Uint8Array, partial = false): boolean {
  if (bytes.includes(0) || hasControlBytes(bytes)) return false;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes, { stream: partial });
  return !text.includes('\uFFFD');
}

/** How much of a file's start the browser reads to tell text from other data. */
export const ATTACHMENT_HEAD_BYTES = 4096;

/**
 * Why a file cannot be attached, judged before it is sent: too large, empty, or (when neither its declared type
 * nor its name is an accepted kind) not text by its first bytes. Null when it may go: the server still decides
 * by its bytes. `head` is the file's first `ATTACHMENT_HEAD_BYTES`, asked for only when needed.
 */
export function attachmentRefusal(
  file: { name: string; size: number; type: string },
  head?: Uint8Array,
  maxBytes: number = ATTACHMENT_MAX_BYTES,
): string | null | 'need-head' {
  if (file.size > maxBytes)
    return `${attachmentTooLarge(maxBytes)} This one is ${formatFileSize(file.size)}.`;
  if (file.size === 0) return 'The file is empty.';
  const extension = file.name.toLowerCase().split('.').pop() ?? '';
  if (isAttachmentType(file.type) || (file.name.includes('.') && EXTENSIONS.has(extension))) return null;
  if (!head) return 'need-head';
  return isPlainText(head, file.size > head.length) ? null : ATTACHMENT_TYPE_REFUSAL;
}
