import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '../../errors.ts';

/** What staff may attach to a message: types recognised from the bytes themselves, never from the name. */
const ALLOWED = new Set([
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
]);

const TEXT_TYPES: Record<string, string> = {
  csv: 'text/csv',
  txt: 'text/plain',
  vcf: 'text/vcard',
  ics: 'text/calendar',
};

/** Control characters other than tab, newline, form feed and carriage return mark binary data. */
function hasControlBytes(bytes: Buffer): boolean {
  return bytes.some((b) => (b >= 0x01 && b <= 0x08) || (b >= 0x0e && b <= 0x1f));
}

/** Plain text has no magic number: accept valid UTF-8 with no control bytes, typed by its extension. */
function textType(bytes: Buffer, name: string): string | undefined {
  if (bytes.includes(0)) return undefined;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.includes('\uFFFD') || hasControlBytes(bytes)) return undefined;
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return TEXT_TYPES[ext] ?? 'text/plain';
}

export async function sniffAttachmentType(bytes: Buffer, name: string): Promise<string> {
  if (bytes.length === 0) throw new AppError('unprocessable', 'The file is empty.');
  const detected = await fileTypeFromBuffer(bytes);
  const type = detected?.mime ?? textType(bytes, name);
  if (!type || !(ALLOWED.has(type) || type.startsWith('text/'))) {
    throw new AppError(
      'unsupported_media_type',
      'This kind of file cannot be attached. Send images, PDFs, audio, video, Office documents or plain text.',
    );
  }
  return type;
}
