import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { AppError } from '../../errors.ts';

/*
 * A logo is decoded in full before it is kept (in the isolated worker: branding.ts sends it there). PDF
 * invoices take PNG and JPEG only, and the PDF library reads only their headers until it draws them, so a
 * truncated file passes a header check and then breaks every invoice PDF of the business.
 */

export type LogoType = 'image/png' | 'image/jpeg';

/** More than any logo needs; a larger picture costs 4 bytes a pixel to decode. */
export const LOGO_MAX_MEGAPIXELS = 25;

const damaged = () =>
  new AppError(
    'unprocessable',
    'The logo could not be read: the image is damaged or incomplete. Save it again as PNG or JPEG and upload it.',
  );

const tooLarge = (size?: string) =>
  new AppError(
    'unprocessable',
    `${size ? `The logo is ${size}, more` : 'The logo has more pixels'} than a logo needs (at most ${LOGO_MAX_MEGAPIXELS} megapixels). Make it smaller and upload it again.`,
  );

/** Decodes the whole image; throws what is wrong with it. Answers its size in pixels. */
export function checkLogo(input: { type: LogoType; bytes: Uint8Array }): { width: number; height: number } {
  const bytes = Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
  if (input.type === 'image/png') {
    // IHDR is the first chunk of every PNG: its size is known before a byte of pixels is inflated.
    if (bytes.length < 24) throw damaged();
    const width = bytes.readUInt32BE(16);
    const height = bytes.readUInt32BE(20);
    if (width * height > LOGO_MAX_MEGAPIXELS * 1_000_000) throw tooLarge(`${width} × ${height} pixels`);
    try {
      const png = PNG.sync.read(bytes, { checkCRC: true });
      return { width: png.width, height: png.height };
    } catch {
      throw damaged();
    }
  }
  try {
    const image = jpeg.decode(bytes, {
      maxResolutionInMP: LOGO_MAX_MEGAPIXELS,
      maxMemoryUsageInMB: 256,
      useTArray: true,
    });
    return { width: image.width, height: image.height };
  } catch (error) {
    // jpeg-js's words when the frame header declares more pixels than allowed.
    if (/maxResolutionInMP/.test(String(error))) throw tooLarge();
    throw damaged();
  }
}
