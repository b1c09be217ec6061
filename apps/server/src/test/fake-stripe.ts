import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type StripeCall = {
  method: string;
  path: string;
  /** The form body Stripe's API takes, as nested keys (`line_items[0][price_data][unit_amount]`). */
  form: URLSearchParams;
  headers: IncomingHttpHeaders;
};

/** A payment-mode Checkout session as the fake keeps it. */
export type FakeSession = {
  id: string;
  /** The connected account it was made on (`Stripe-Account`). */
  account: string | null;
  amount_total: number;
  currency: string;
  status: 'open' | 'complete' | 'expired';
  payment_intent: string | null;
  metadata: Record<string, string>;
  expires_at: number;
};

/**
 * Stripe's API on loopback, as far as Connect invoices use it: accounts (made, read), account links, Checkout
 * sessions (made, read, expired, and paid by `pay`, which refuses a session that is not open) and refunds,
 * answering in Stripe's shapes and remembering each call (with its `Stripe-Account` and `Idempotency-Key`
 * headers). A repeated idempotency key answers what the first call answered, as Stripe does.
 */
export class FakeStripe {
  readonly calls: StripeCall[] = [];
  /** The state `GET /v1/accounts/{id}` answers. */
  account = { details_submitted: true, charges_enabled: true, payouts_enabled: false };
  /** Billing: the prices `GET /v1/prices/{id}` answers, and the promotion codes `GET /v1/promotion_codes` finds. */
  prices: Record<string, { unit_amount: number; currency: string; interval: 'month' | 'year' }> = {};
  promotionCodes: {
    id: string;
    code: string;
    active: boolean;
    coupon: {
      percent_off: number | null;
      amount_off: number | null;
      currency: string | null;
      duration: string;
      duration_in_months: number | null;
      name: string | null;
      valid: boolean;
    };
  }[] = [];
  /** Set to make the next call fail as Stripe does (402 card error / 400 invalid request). */
  failNext: { status: number; message: string } | null = null;
  readonly sessions = new Map<string, FakeSession>();
  private readonly byKey = new Map<string, string>();
  private server!: Server;
  private seq = 0;
  url = '';

  async start() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://x');
        const path = url.pathname;
        const call = {
          method: req.method ?? 'GET',
          path,
          // A GET carries its parameters in the query, a POST in the form body.
          form: new URLSearchParams(req.method === 'GET' ? url.search : Buffer.concat(chunks).toString()),
          headers: req.headers,
        };
        this.calls.push(call);
        res.setHeader('content-type', 'application/json');
        res.setHeader('request-id', `req_fake_${++this.seq}`);
        if (this.failNext) {
          const { status, message } = this.failNext;
          this.failNext = null;
          res.writeHead(status).end(JSON.stringify({ error: { type: 'invalid_request_error', message } }));
          return;
        }
        const key = req.headers['idempotency-key'];
        const remembered = typeof key === 'string' ? this.byKey.get(`${path}:${key}`) : undefined;
        const answer = remembered ? JSON.parse(remembered) : this.answer(call);
        if (answer instanceof StripeRefusal) {
          res.writeHead(answer.status).end(JSON.stringify({ error: answer.error }));
          return;
        }
        const body = remembered ?? JSON.stringify(answer);
        if (typeof key === 'string') this.byKey.set(`${path}:${key}`, body);
        res
          .writeHead(body === 'null' ? 404 : 200)
          .end(body === 'null' ? '{"error":{"message":"Not found"}}' : body);
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  callsTo(method: string, path: string | RegExp) {
    return this.calls.filter(
      (c) => c.method === method && (typeof path === 'string' ? c.path === path : path.test(c.path)),
    );
  }

  private answer(call: StripeCall): unknown {
    const n = ++this.seq;
    if (call.method === 'POST' && call.path === '/v1/accounts')
      return { id: `acct_fake${n}`, object: 'account', type: call.form.get('type'), ...this.account };
    const account = /^\/v1\/accounts\/(acct_\w+)$/.exec(call.path);
    if (call.method === 'GET' && account) return { id: account[1], object: 'account', ...this.account };
    if (call.method === 'POST' && call.path === '/v1/account_links')
      return {
        object: 'account_link',
        url: `https://connect.stripe.test/setup/${call.form.get('account')}`,
        expires_at: 0,
      };
    if (call.method === 'POST' && call.path === '/v1/customers')
      return {
        id: `cus_fake${n}`,
        object: 'customer',
        email: call.form.get('email'),
        name: call.form.get('name'),
      };
    if (call.method === 'POST' && call.path === '/v1/billing_portal/sessions')
      return {
        id: `bps_fake${n}`,
        object: 'billing_portal.session',
        customer: call.form.get('customer'),
        url: `https://billing.stripe.test/p/session/${call.form.get('customer')}`,
      };
    const price = /^\/v1\/prices\/(\w+)$/.exec(call.path);
    if (call.method === 'GET' && price) {
      const p = this.prices[price[1]!];
      return p
        ? {
            id: price[1],
            object: 'price',
            unit_amount: p.unit_amount,
            currency: p.currency,
            recurring: { interval: p.interval },
          }
        : null;
    }
    if (call.method === 'GET' && call.path === '/v1/promotion_codes') {
      const code = call.form.get('code');
      const data = this.promotionCodes
        .filter((p) => p.active && p.code === code)
        .map((p) => ({
          id: p.id,
          object: 'promotion_code',
          active: p.active,
          code: p.code,
          expires_at: null,
          max_redemptions: null,
          times_redeemed: 0,
          promotion: { type: 'coupon', coupon: { id: `co_${p.id}`, object: 'coupon', ...p.coupon } },
        }));
      return { object: 'list', data, has_more: false, url: '/v1/promotion_codes' };
    }
    if (
      call.method === 'POST' &&
      call.path === '/v1/checkout/sessions' &&
      call.form.get('mode') === 'subscription'
    ) {
      const id = `cs_test_sub_fake${n}`;
      return {
        id,
        object: 'checkout.session',
        mode: 'subscription',
        url: `https://checkout.stripe.test/c/pay/${id}`,
      };
    }
    if (call.method === 'POST' && call.path === '/v1/checkout/sessions') {
      const id = `cs_test_fake${n}`;
      let total = 0;
      for (let i = 0; call.form.has(`line_items[${i}][quantity]`); i++)
        total +=
          Number(call.form.get(`line_items[${i}][price_data][unit_amount]`)) *
          Number(call.form.get(`line_items[${i}][quantity]`));
      const metadata: Record<string, string> = {};
      for (const [k, v] of call.form) {
        const m = /^metadata\[(\w+)\]$/.exec(k);
        if (m) metadata[m[1]!] = v;
      }
      const account = call.headers['stripe-account'];
      const session: FakeSession = {
        id,
        account: typeof account === 'string' ? account : null,
        amount_total: total,
        currency: call.form.get('line_items[0][price_data][currency]') ?? 'usd',
        status: 'open',
        payment_intent: null,
        metadata,
        expires_at: Math.floor(Date.now() / 1000) + 24 * 3600,
      };
      this.sessions.set(id, session);
      return this.sessionObject(session);
    }
    const sessionPath = /^\/v1\/checkout\/sessions\/(cs_\w+)(\/expire)?$/.exec(call.path);
    if (sessionPath) {
      const session = this.sessions.get(sessionPath[1]!);
      if (!session)
        return new StripeRefusal(404, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such checkout.session: '${sessionPath[1]}'`,
        });
      if (call.method === 'GET' && !sessionPath[2]) return this.sessionObject(session);
      if (call.method === 'POST' && sessionPath[2]) {
        // Only an open session can be expired; Stripe answers an error for any other.
        if (session.status !== 'open')
          return new StripeRefusal(400, {
            type: 'invalid_request_error',
            message: `This Checkout Session is ${session.status} and can no longer be expired.`,
          });
        session.status = 'expired';
        return this.sessionObject(session);
      }
    }
    if (call.method === 'POST' && call.path === '/v1/refunds')
      return {
        id: `re_fake${n}`,
        object: 'refund',
        amount: Number(call.form.get('amount')),
        payment_intent: call.form.get('payment_intent'),
        status: 'succeeded',
      };
    return null;
  }

  private sessionObject(session: FakeSession) {
    return {
      id: session.id,
      object: 'checkout.session',
      mode: 'payment',
      status: session.status,
      payment_status: session.status === 'complete' ? 'paid' : 'unpaid',
      amount_total: session.amount_total,
      currency: session.currency,
      payment_intent: session.payment_intent,
      metadata: session.metadata,
      expires_at: session.expires_at,
      url: session.status === 'open' ? `https://checkout.stripe.test/c/pay/${session.id}` : null,
    };
  }

  /**
   * The customer pays an open session on Stripe's page: it completes, and the `checkout.session.completed`
   * event Stripe then sends (from the connected account) is answered as its JSON body. An expired or complete
   * session cannot be paid, as on Stripe.
   */
  pay(sessionId: string): string {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`no such Checkout session ${sessionId}`);
    if (session.status !== 'open') throw new Error(`Checkout session ${sessionId} is ${session.status}`);
    session.status = 'complete';
    session.payment_intent = `pi_fake${++this.seq}`;
    return JSON.stringify({
      id: `evt_fake${++this.seq}`,
      object: 'event',
      api_version: '2026-07-29.dahlia',
      created: Math.floor(Date.now() / 1000),
      account: session.account,
      data: { object: this.sessionObject(session) },
      type: 'checkout.session.completed',
    });
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

/** An error answer of Stripe's API (`{ error: { type, message } }`) with its HTTP status. */
class StripeRefusal {
  constructor(
    readonly status: number,
    readonly error: { type: string; message: string; code?: string },
  ) {}
}
