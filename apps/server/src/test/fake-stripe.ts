import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type StripeCall = {
  method: string;
  path: string;
  /** The form body Stripe's API takes, as nested keys (`line_items[0][price_data][unit_amount]`). */
  form: URLSearchParams;
  headers: IncomingHttpHeaders;
};

/**
 * Stripe's API on loopback, as far as Connect invoices use it: accounts (made, read), account links, Checkout
 * sessions and refunds, answering in Stripe's shapes and remembering each call (with its `Stripe-Account` and
 * `Idempotency-Key` headers). A repeated idempotency key answers what the first call answered, as Stripe does.
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
        const body = remembered ?? JSON.stringify(this.answer(call));
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
      return {
        id,
        object: 'checkout.session',
        mode: 'payment',
        amount_total: total,
        url: `https://checkout.stripe.test/c/pay/${id}`,
      };
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

  async close() {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
