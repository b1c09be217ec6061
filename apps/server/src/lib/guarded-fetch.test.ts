import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const resolved = vi.hoisted(() => new Map<string, { address: string; family: number }[]>());
vi.mock('node:dns', async (importOriginal) => {
  const dns = await importOriginal<typeof import('node:dns')>();
  const lookup = (host: string, options: unknown, callback: (...args: unknown[]) => void) => {
    const answer = resolved.get(host);
    if (answer) return callback(null, answer);
    return (dns.lookup as (...args: unknown[]) => void)(host, options, callback);
  };
  return { ...dns, default: { ...dns, lookup }, lookup };
});

const { addressProblem, BlockedUrlError, checkedLookup, FetchLimitError, guardedFetch } = await import(
  './guarded-fetch.ts'
);

describe('addressProblem', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    // IPv4-mapped IPv6, in both spellings: judged by the IPv4 address inside.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'linkLocal'],
    // NAT64, 6to4 and Teredo carry an IPv4 address a gateway would reach for us.
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['64:ff9b:1::a00:1', 'rfc6052'],
    ['2002:7f00:1::', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
  ])('refuses %s (%s)', (address, range) => {
    expect(addressProblem(address)).toContain(range);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows public %s', (address) => {
    expect(addressProblem(address)).toBeNull();
  });

  it('refuses what is not an address', () => {
    expect(addressProblem('localhost')).toMatch(/not an IP address/);
  });
});

describe('checkedLookup', () => {
  const lookup = (host: string, all: boolean) =>
    new Promise<{ err: Error | null; address: unknown }>((resolve) =>
      checkedLookup(host, { all }, (err, address) => resolve({ err, address })),
    );

  it('answers with the checked public address, in both callback forms', async () => {
    resolved.set('public.example', [{ address: '93.184.216.34', family: 4 }]);
    expect(await lookup('public.example', false)).toEqual({ err: null, address: '93.184.216.34' });
    expect(await lookup('public.example', true)).toEqual({
      err: null,
      address: [{ address: '93.184.216.34', family: 4 }],
    });
  });

  it('refuses a name when any of its addresses is not public (a public one does not save it)', async () => {
    resolved.set('rebind.example', [
      { address: '93.184.216.34', family: 4 },
      { address: '::ffff:7f00:1', family: 6 },
    ]);
    const { err } = await lookup('rebind.example', true);
    expect(err).toBeInstanceOf(BlockedUrlError);
    expect(err?.message).toMatch(/non-public address \(127\.0\.0\.1 is a loopback address\)/);
  });
});

describe('guardedFetch', () => {
  let server: Server;
  let other: Server;
  let port: number;
  let otherPort: number;
  const seen: { url: string; authorization?: string }[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
    const url = new URL(req.url ?? '/', 'http://x');
    const to = url.searchParams.get('to');
    if (url.pathname === '/redirect' && to) {
      res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to }).end();
    } else if (url.pathname === '/big') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(Buffer.alloc(600));
      res.end(Buffer.alloc(600));
    } else if (url.pathname === '/declared-big') {
      res.writeHead(200, { 'content-length': '5000000' });
      res.write('x');
    } else if (url.pathname === '/slow') {
      // Never answers: the time cap must end it.
    } else {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('secret health data');
    }
  };
  const base = () => `http://127.0.0.1:${port}`;
  const otherBase = () => `http://127.0.0.1:${otherPort}`;
  const opts = (trustedOrigins: string[] = []) => ({ maxBytes: 1000, timeoutMs: 2000, trustedOrigins });

  beforeAll(async () => {
    server = createServer(handler).listen(0, '127.0.0.1');
    other = createServer(handler).listen(0, '127.0.0.1');
    await Promise.all([server, other].map((s) => new Promise((r) => s.once('listening', r))));
    port = (server.address() as AddressInfo).port;
    otherPort = (other.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    other.closeAllConnections();
    server.close();
    other.close();
  });

  it.each([
    (p: number) => `http://127.0.0.1:${p}/api/v1/health`,
    (p: number) => `http://[::ffff:127.0.0.1]:${p}/api/v1/health`,
    (p: number) => `http://[::ffff:7f00:1]:${p}/api/v1/health`,
    (p: number) => `http://[::1]:${p}/`,
    (p: number) => `http://2130706433:${p}/`,
    (p: number) => `http://0x7f.1:${p}/`,
    (p: number) => `http://localhost:${p}/`,
  ])('refuses a loopback target: %s', async (make) => {
    const before = seen.length;
    await expect(guardedFetch(make(port), opts())).rejects.toBeInstanceOf(BlockedUrlError);
    expect(seen.length).toBe(before);
  });

  it('refuses other schemes and credentials in the URL', async () => {
    await expect(guardedFetch('file:///etc/passwd', opts())).rejects.toThrow(/only http and https/);
    await expect(guardedFetch('https://user:pw@example.com/', opts())).rejects.toThrow(/credentials/);
    await expect(guardedFetch('not a url', opts())).rejects.toThrow(/is not a URL/);
  });

  it('fetches from a trusted origin (a configured provider API)', async () => {
    const res = await guardedFetch(`${base()}/media`, opts([base()]));
    expect(res.status).toBe(200);
    expect(res.bytes.toString()).toBe('secret health data');
  });

  it('re-checks every redirect hop: a trusted origin redirecting to loopback is refused', async () => {
    for (const target of [
      `${otherBase()}/health`,
      `http://[::ffff:7f00:1]:${otherPort}/`,
      `http://localhost:${otherPort}/`,
    ]) {
      const before = seen.length;
      await expect(
        guardedFetch(`${base()}/redirect?to=${encodeURIComponent(target)}`, opts([base()])),
      ).rejects.toBeInstanceOf(BlockedUrlError);
      expect(seen.length).toBe(before + 1);
    }
  });

  it('follows at most three redirects, and drops credentials when the origin changes', async () => {
    const hop = (to: string) => `/redirect?to=${encodeURIComponent(to)}`;
    const three = `${base()}${hop(`${otherBase()}${hop(`${base()}${hop(`${otherBase()}/done`)}`)}`)}`;
    seen.length = 0;
    const res = await guardedFetch(three, {
      ...opts([base(), otherBase()]),
      headers: { authorization: 'Basic c2VjcmV0' },
    });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${otherBase()}/done`);
    expect(seen.map((s) => s.authorization)).toEqual(['Basic c2VjcmV0', undefined, undefined, undefined]);

    const four = `${base()}${hop(three)}`;
    await expect(guardedFetch(four, opts([base(), otherBase()]))).rejects.toBeInstanceOf(FetchLimitError);
  });

  it('caps the body, declared or streamed, and the time', async () => {
    await expect(guardedFetch(`${base()}/big`, opts([base()]))).rejects.toThrow(/larger than 1000 bytes/);
    await expect(guardedFetch(`${base()}/declared-big`, opts([base()]))).rejects.toThrow(/larger than/);
    const started = Date.now();
    await expect(guardedFetch(`${base()}/slow`, { ...opts([base()]), timeoutMs: 300 })).rejects.toThrow(
      /no answer within 0.3 s/,
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
