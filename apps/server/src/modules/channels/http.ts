import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { TransientSendError } from '../../channels/types.ts';

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

const PRIVATE_V4 = [
  /^0\./,
  /^10\./,
  /^127\./,
  /^169\.254\./,
  /^172\.(1[6-9]|2\d|3[01])\./,
  /^192\.168\./,
  /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./,
];

function isPrivateAddress(ip: string): boolean {
  if (isIP(ip) === 4) return PRIVATE_V4.some((r) => r.test(ip));
  const v6 = ip.toLowerCase();
  if (v6.startsWith('::ffff:')) return isPrivateAddress(v6.slice(7));
  return v6 === '::1' || v6 === '::' || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6);
}

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
 * not choose: only http(s), never a private address unless it is a configured provider API, and size-capped.
 */
export async function downloadMedia(url: string, options: DownloadOptions): Promise<Downloaded> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error('not an http(s) URL');
  if (!options.trustedOrigins.includes(parsed.origin)) {
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
    if (addresses.some(isPrivateAddress)) throw new Error('media URL points at a private address');
  }
  const res = await fetch(url, {
    headers: options.headers,
    signal: AbortSignal.timeout(options.timeoutMs),
    redirect: 'follow',
  });
  if (!res.ok) throw new Error(`media download answered ${res.status}`);
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > options.maxBytes) throw new Error('media is larger than the upload limit');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += chunk.length;
    if (size > options.maxBytes) throw new Error('media is larger than the upload limit');
    chunks.push(Buffer.from(chunk));
  }
  const type = res.headers.get('content-type')?.split(';')[0]?.trim() || null;
  return { bytes: Buffer.concat(chunks), content_type: type };
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
