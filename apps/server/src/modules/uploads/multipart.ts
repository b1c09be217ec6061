import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { storableText } from '../../lib/text.ts';

/** Reads the one file of a multipart request from `field`, refusing other shapes and sizes over `maxBytes`. */
export async function readSingleFile(
  request: FastifyRequest,
  options: { field: string; maxBytes: number; tooLarge: (maxBytes: number) => AppError },
): Promise<{ name: string; bytes: Buffer; declaredType: string }> {
  if (!request.isMultipart()) {
    throw new AppError(
      'bad_request',
      `Send the file as multipart/form-data in a field named "${options.field}".`,
    );
  }
  const part = await request.file({ limits: { fileSize: options.maxBytes } }).catch((error: unknown) => {
    throw unreadable(error);
  });
  if (!part || part.fieldname !== options.field) {
    part?.file.resume();
    throw new AppError('bad_request', `Attach the file in a field named "${options.field}".`);
  }
  try {
    const bytes = await part.toBuffer();
    return { name: fileName(part.filename), bytes, declaredType: part.mimetype };
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw options.tooLarge(options.maxBytes);
    throw unreadable(error);
  }
}

/** A multipart body that ends early or is malformed is the sender's problem (400), never ours. */
function unreadable(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT')
    return error;
  return new AppError(
    'bad_request',
    'The upload ended before the whole file arrived, or was not valid multipart/form-data. Please try again.',
  );
}

/** The file's name as it can be stored and shown: no control characters or broken text, at most 200 characters. */
function fileName(name: string | undefined): string {
  const clean = storableText(name ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  return [...clean].slice(0, 200).join('') || 'file';
}
