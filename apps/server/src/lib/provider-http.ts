import { guardedFetch } from './guarded-fetch.ts';
import { TransientSendError } from './provider-errors.ts';

/** A provider API call that did not get an answer (network error or timeout): always worth retrying. */
export async function providerFetch(
  provider: string,
  url: string,
  init: RequestInit & { timeoutMs: number },
): Promise<Response> {
  const { timeoutMs, ...rest } = init;
  try {
    return await fetch(url, { ...rest, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new TransientSendError(
      timedOut ? `${provider} did not answer within ${timeoutMs / 1000} s.` : `Could not reach ${provider}.`,
    );
  }
}

/** The response body as JSON, or undefined when it is not JSON. */
export async function jsonOf(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const isTransientStatus = (status: number) => status === 429 || status >= 500;

export type DownloadOptions = {
  maxBytes: number;
  timeoutMs: number;
  headers?: Record<string, string>;
  /** Origins that may be private addresses: the configured provider APIs (fake servers in tests). */
  trustedOrigins: string[];
};

export type Downloaded = { bytes: Buffer; content_type: string | null };

/**
 * Downloads media a provider pointed us at. The URL arrived in a signed webhook, but it is still a URL we did
 * not choose, so it goes through the guarded fetch: public addresses only (unless it is a configured provider
 * API), each redirect checked, size- and time-capped.
 */
export async function downloadMedia(url: string, options: DownloadOptions): Promise<Downloaded> {
  const res = await guardedFetch(url, {
    headers: options.headers,
    maxBytes: options.maxBytes,
    timeoutMs: options.timeoutMs,
    trustedOrigins: options.trustedOrigins,
  });
  if (res.status < 200 || res.status >= 300) throw new Error(`media download answered ${res.status}`);
  const type = res.headers['content-type']?.split(';')[0]?.trim() || null;
  return { bytes: res.bytes, content_type: type };
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'video/quicktime': 'mov',
  'audio/mpeg': 'mp3',
  'audio/mp4': 'm4a',
  'audio/aac': 'aac',
  'audio/amr': 'amr',
  'audio/ogg': 'ogg',
  'application/pdf': 'pdf',
  'text/vcard': 'vcf',
  'text/x-vcard': 'vcf',
  'text/plain': 'txt',
};

/** A file name for media that arrived without one: `image-1.jpg`. */
export function mediaName(contentType: string, index: number): string {
  const kind = contentType.split('/')[0] || 'file';
  const ext = EXTENSIONS[contentType] ?? contentType.split('/')[1]?.replace(/[^a-z0-9]/gi, '') ?? 'bin';
  return `${kind === 'application' || kind === 'text' ? 'file' : kind}-${index + 1}.${ext}`;
}
