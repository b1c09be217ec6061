import { create as contentDisposition } from 'content-disposition';
import type { FastifyReply } from 'fastify';
import { notFound } from '../errors.ts';
import { readUpload, type Upload } from './storage.ts';

const INLINE = /^(image\/|application\/pdf|audio\/|video\/|text\/plain)/;
const TOKEN = /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+$/;

/** A stored content type as a header value: a bare, well-formed type, or a download when it is not one. */
export function headerContentType(contentType: string): string {
  const bare = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return TOKEN.test(bare) ? bare : 'application/octet-stream';
}

/**
 * Sends a stored file. Names are written as RFC 6266/5987 allow (any character, e.g. `😀 photo.png`); types a
 * browser could run (HTML, SVG) are sandboxed by CSP and never sniffed, so a file sent to the business cannot
 * act as a page of this site.
 */
export function sendFile(
  reply: FastifyReply,
  file: { name: string; content_type: string; bytes: Buffer },
  options: { inline?: boolean; cache?: string } = {},
) {
  const type = headerContentType(file.content_type);
  const inline = options.inline ?? INLINE.test(type);
  return reply
    .header('content-type', type)
    .header('content-length', file.bytes.length)
    .header(
      'content-disposition',
      contentDisposition(file.name || 'file', { type: inline ? 'inline' : 'attachment' }),
    )
    .header('content-security-policy', "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'")
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', options.cache ?? 'private, max-age=3600')
    .send(file.bytes);
}

/** Sends an upload's stored bytes as `sendFile` does, or 404 when its row or its file is gone. */
export async function sendUpload(
  reply: FastifyReply,
  config: Parameters<typeof readUpload>[0],
  upload: Upload | undefined,
): Promise<FastifyReply> {
  const bytes = upload && (await readUpload(config, upload));
  if (!upload || !bytes) throw notFound('File');
  return sendFile(reply, { ...upload, bytes });
}
