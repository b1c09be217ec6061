import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';

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
  const part = await request.file({ limits: { fileSize: options.maxBytes } });
  if (!part || part.fieldname !== options.field) {
    part?.file.resume();
    throw new AppError('bad_request', `Attach the file in a field named "${options.field}".`);
  }
  try {
    return { name: part.filename, bytes: await part.toBuffer(), declaredType: part.mimetype };
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw options.tooLarge(options.maxBytes);
    throw error;
  }
}
