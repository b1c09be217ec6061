import {
  ATTACHMENT_TYPE_REFUSAL,
  isAttachmentType,
  isPlainText,
  TEXT_ATTACHMENT_TYPES,
} from '@switchboard/shared';
import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '../../errors.ts';

/** Plain text has no magic number: accept valid UTF-8 with no control bytes, typed by its extension. */
function textType(bytes: Buffer, name: string): string | undefined {
  if (!isPlainText(bytes)) return undefined;
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return TEXT_ATTACHMENT_TYPES[ext] ?? 'text/plain';
}

/** What staff may attach: its type recognised from the bytes themselves, never from the name. */
export async function sniffAttachmentType(bytes: Buffer, name: string): Promise<string> {
  if (bytes.length === 0) throw new AppError('unprocessable', 'The file is empty.');
  const detected = await fileTypeFromBuffer(bytes);
  const type = detected?.mime ?? textType(bytes, name);
  if (!type || !isAttachmentType(type)) throw new AppError('unsupported_media_type', ATTACHMENT_TYPE_REFUSAL);
  return type;
}
