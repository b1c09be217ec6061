import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProviderOwners } from './fake-owners.ts';

/**
 * Twilio's Messages API on loopback, counting every message it accepts by its text, and listing them back
 * as Twilio's list resource does (the send worker asks after a crash). Each accept takes `delayMs`, so sends
 * are in flight when a server is killed. The account's own numbers are listed (IncomingPhoneNumbers) for
 * whoever `owners` says owns them, as connecting an account asks.
 */
export class CountingTwilio {
  readonly owners = new ProviderOwners();
  /** How long each answer takes, in ms; `delayVia` overrides it for one base-URL prefix. */
  delayMs = 5;
  readonly delayVia = new Map<string, number>();
  readonly accepted = new Map<string, number>();
  /** Accepts by the number sent to. */
  readonly acceptedTo = new Map<string, number>();
  /** Accepts by the first path segment of the base URL a server was given (e.g. `/a`), when it has one. */
  readonly acceptedVia = new Map<string, number>();
  /** List requests: a send worker asking whether an interrupted send arrived. */
  lookups = 0;
  private readonly listed: { sid: string; to: string; body: string; date_created: string }[] = [];
  private server!: Server;
  url = '';

  async start() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://x');
        const owned = this.owners.incomingNumbers({
          method: req.method ?? 'GET',
          url,
          headers: req.headers,
          text: '',
        });
        if (owned) {
          res.writeHead(owned.status, { 'content-type': 'application/json' }).end(JSON.stringify(owned.json));
          return;
        }
        if (!url.pathname.endsWith('/Messages.json')) {
          res.writeHead(404).end();
          return;
        }
        res.setHeader('content-type', 'application/json');
        if (req.method === 'GET') {
          this.lookups++;
          const to = url.searchParams.get('To');
          const messages = this.listed.filter((m) => m.to === to).reverse();
          res.end(JSON.stringify({ messages }));
          return;
        }
        const form = new URLSearchParams(Buffer.concat(chunks).toString());
        const body = form.get('Body') ?? '';
        // Taken at once, answered after the delay: a server killed meanwhile never hears that it was.
        this.accepted.set(body, (this.accepted.get(body) ?? 0) + 1);
        const to = form.get('To') ?? '';
        this.acceptedTo.set(to, (this.acceptedTo.get(to) ?? 0) + 1);
        const via = url.pathname.split('/')[1] ?? '';
        this.acceptedVia.set(via, (this.acceptedVia.get(via) ?? 0) + 1);
        const sid = `SMb${this.listed.length.toString(16).padStart(31, '0')}`;
        this.listed.push({ sid, to: form.get('To') ?? '', body, date_created: new Date().toUTCString() });
        setTimeout(() => {
          if (!res.destroyed) res.writeHead(201).end(JSON.stringify({ sid, status: 'queued' }));
        }, this.delayVia.get(via) ?? this.delayMs);
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
