import { clipText } from '@switchboard/shared';
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
  return clipText(clean, 200) || 'file';
}

export type ReadFile = { field: string; name: string; bytes: Buffer; declaredType: string };

/**
 * Reads every part of a multipart request: its files (each at most `maxBytes`, at most `maxFiles`) and its
 * text fields. A file too large is refused with `tooLarge`, naming it.
 */
export async function readParts(
  request: FastifyRequest,
  options: { maxBytes: number; maxFiles: number; tooLarge: (name: string, maxBytes: number) => AppError },
): Promise<{ files: ReadFile[]; fields: Record<string, string> }> {
  if (!request.isMultipart()) {
    throw new AppError('bad_request', 'Send the files as multipart/form-data.');
  }
  const files: ReadFile[] = [];
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts({
      limits: { fileSize: options.maxBytes, files: options.maxFiles },
    })) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value ?? '');
        continue;
      }
      const name = fileName(part.filename);
      try {
        files.push({
          field: part.fieldname,
          name,
          bytes: await part.toBuffer(),
          declaredType: part.mimetype,
        });
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw options.tooLarge(name, options.maxBytes);
        throw error;
      }
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_FILES_LIMIT') {
      throw new AppError('unprocessable', `Upload at most ${options.maxFiles} files at a time.`);
    }
    throw unreadable(error);
  }
  return { files, fields };
}
