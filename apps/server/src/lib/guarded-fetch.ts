import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { clipText } from '@switchboard/shared';
import ipaddr from 'ipaddr.js';
import { Agent, type Dispatcher, request } from 'undici';

/**
 * The one way the server fetches a URL that a user or a webhook chose (provider media, later AI tools and
 * website crawling). Such a URL must never reach the server itself or the network it runs in:
 *
 * - only http(s), no credentials in the URL;
 * - the host name is resolved once, every address it resolves to must be a public unicast address (no
 *   private, loopback, link-local, unique-local, carrier-grade NAT, IPv4-mapped, NAT64, 6to4 or Teredo
 *   forms), and the connection is made to that checked address: no second resolution a DNS answer could
 *   change in between;
 * - redirects are followed by hand, each hop checked the same way, at most `maxRedirects`;
 * - the whole exchange is capped in time and the body in size.
 *
 * Origins in `trustedOrigins` (the provider API bases from config, which are loopback fake servers in tests)
 * skip the address check; nothing else does.
 */
export class BlockedUrlError extends Error {
  override name = 'BlockedUrlError';
}

export class FetchLimitError extends Error {
  override name = 'FetchLimitError';
}

export type GuardedFetchOptions = {
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The largest body accepted, in bytes. */
  maxBytes: number;
  /** For the whole exchange, redirects and body included. */
  timeoutMs: number;
  /** At most this many redirects are followed (default 3). */
  maxRedirects?: number;
  /** Origins (`https://api.example.com`) allowed even when they resolve to a non-public address. */
  trustedOrigins?: readonly string[];
};

export type GuardedResponse = {
  status: number;
  headers: Record<string, string>;
  /** The URL that answered, after redirects. */
  url: string;
  bytes: Buffer;
};

/** Why an address may not be fetched, or null when it is a public unicast address. */
export function addressProblem(address: string): string | null {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  // `process` turns IPv4-mapped IPv6 (::ffff:127.0.0.1, ::ffff:7f00:1) into the IPv4 address it carries.
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  return range === 'unicast' ? null : `${parsed.toString()} is a ${range} address`;
}

const isBlocked = (address: string) => addressProblem(address) !== null;

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for sockets: resolves every address of the name and refuses the lot if any is not public, so a
 * name cannot mix a public address with a private one and hope the private one is picked.
 */
export function checkedLookup(
  hostname: string,
  options: { all?: boolean; family?: number },
  callback: LookupCallback,
) {
  dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
    if (err) return callback(err, []);
    const blocked = addresses.find((a) => isBlocked(a.address));
    if (blocked || addresses.length === 0) {
      const error: NodeJS.ErrnoException = new BlockedUrlError(
        blocked
          ? `${hostname} resolves to a non-public address (${addressProblem(blocked.address)})`
          : `${hostname} has no address`,
      );
      error.code = 'EBLOCKED';
      return callback(error, []);
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses as [LookupAddress];
    callback(null, first.address, first.family);
  });
}

const guardedAgent = new Agent({ connect: { lookup: checkedLookup as never }, connections: 16 });
const trustedAgent = new Agent({ connections: 16 });

/** Checks what can be checked before connecting: the scheme, credentials and a literal IP host. */
function checkUrl(url: URL): void {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new BlockedUrlError(`only http and https URLs can be fetched, not ${url.protocol}`);
  }
  if (url.username || url.password) throw new BlockedUrlError('URLs with credentials are not fetched');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const problem = addressProblem(host);
    if (problem) throw new BlockedUrlError(problem);
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function guardedFetch(rawUrl: string, options: GuardedFetchOptions): Promise<GuardedResponse> {
  const maxRedirects = options.maxRedirects ?? 3;
  const trusted = new Set(options.trustedOrigins ?? []);
  const signal = AbortSignal.timeout(options.timeoutMs);
  let url = parseUrl(rawUrl);
  let method = options.method ?? 'GET';
  let body = options.body;
  let headers = { ...options.headers };
  for (let hop = 0; ; hop++) {
    const isTrusted = trusted.has(url.origin);
    if (!isTrusted) checkUrl(url);
    const dispatcher: Dispatcher = isTrusted ? trustedAgent : guardedAgent;
    const res = await send(url, { method, headers, body, signal, dispatcher }, options.timeoutMs);
    const location = res.headers.location;
    if (REDIRECTS.has(res.statusCode) && typeof location === 'string') {
      await res.body.dump();
      if (hop >= maxRedirects) throw new FetchLimitError(`more than ${maxRedirects} redirects`);
      const next = parseUrl(location, url);
      // Credentials and cookies are for the origin they were given for.
      if (next.origin !== url.origin) headers = withoutCredentials(headers);
      if (
        res.statusCode === 303 ||
        ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = undefined;
      }
      url = next;
      continue;
    }
    let bytes: Buffer;
    try {
      bytes = await readCapped(res, options.maxBytes);
    } catch (error) {
      if (signal.aborted) throw new FetchLimitError(`no answer within ${options.timeoutMs / 1000} s`);
      throw error;
    }
    return { status: res.statusCode, headers: flatHeaders(res.headers), url: url.toString(), bytes };
  }
}

function parseUrl(value: string, base?: URL): URL {
  try {
    return new URL(value, base);
  } catch {
    throw new BlockedUrlError(`"${clipText(value, 200)}" is not a URL`);
  }
}

async function send(
  url: URL,
  init: {
    method: string;
    headers: Record<string, string>;
    body?: string | Buffer;
    signal: AbortSignal;
    dispatcher: Dispatcher;
  },
  timeoutMs: number,
): Promise<Dispatcher.ResponseData> {
  try {
    return await request(url, {
      method: init.method as Dispatcher.HttpMethod,
      headers: init.headers,
      body: init.body,
      signal: init.signal,
      dispatcher: init.dispatcher,
    });
  } catch (error) {
    // The connector wraps nothing: a refused lookup arrives as itself.
    if (error instanceof BlockedUrlError) throw error;
    if (init.signal.aborted) throw new FetchLimitError(`no answer within ${timeoutMs / 1000} s`);
    throw error;
  }
}

async function readCapped(res: Dispatcher.ResponseData, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers['content-length'] ?? 0);
  if (declared > maxBytes) {
    res.body.destroy();
    throw new FetchLimitError(`the body is larger than ${maxBytes} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.length;
    if (size > maxBytes) {
      res.body.destroy();
      throw new FetchLimitError(`the body is larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !/^(authorization|cookie|proxy-authorization)$/i.test(name)),
  );
}

function flatHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
