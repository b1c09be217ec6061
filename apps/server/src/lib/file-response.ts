import { create as contentDisposition } from 'content-disposition';
import type { FastifyReply } from 'fastify';
import parseRange from 'range-parser';
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
 * act as a page of this site. A single byte range is answered with just that part (RFC 9110 §14), which is how a
 * browser's audio and video players read a recording's length before play and seek in it.
 */
export function sendFile(
  reply: FastifyReply,
  file: { name: string; content_type: string; bytes: Buffer },
  options: { inline?: boolean; cache?: string } = {},
) {
  const type = headerContentType(file.content_type);
  const inline = options.inline ?? INLINE.test(type);
  const size = file.bytes.length;
  reply
    .header('content-type', type)
    .header('accept-ranges', 'bytes')
    .header(
      'content-disposition',
      contentDisposition(file.name || 'file', { type: inline ? 'inline' : 'attachment' }),
    )
    .header('content-security-policy', "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'")
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', options.cache ?? 'private, max-age=3600');
  const asked = reply.request.method === 'GET' ? reply.request.headers.range : undefined;
  // A header that does not parse (-2), asks in other units or for several parts gets the whole file, as RFC 9110
  // allows; a range wholly past the end (-1) is refused with the file's size, so the player can ask again.
  const ranges = asked ? parseRange(size, asked, { combine: true }) : -2;
  if (ranges === -1) {
    return reply
      .code(416)
      .header('content-range', `bytes */${size}`)
      .header('content-type', 'text/plain; charset=utf-8')
      .send(`The range ${asked} is outside the file, which is ${size} bytes long.`);
  }
  const only = ranges !== -2 && ranges.type === 'bytes' && ranges.length === 1 ? ranges[0] : undefined;
  if (only) {
    const { start, end } = only;
    return reply
      .code(206)
      .header('content-range', `bytes ${start}-${end}/${size}`)
      .header('content-length', end - start + 1)
      .send(file.bytes.subarray(start, end + 1));
  }
  return reply.header('content-length', size).send(file.bytes);
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
