import Stripe from 'stripe';

/**
 * stripe-node for the platform key, at `STRIPE_API_BASE` (Stripe's API, or a fake server in tests): retried
 * twice on network errors, 20 s a call, no telemetry.
 */
export function stripeClient(secretKey: string, apiBase: string): Stripe {
  const base = new URL(apiBase);
  return new Stripe(secretKey, {
    host: base.hostname,
    port: Number(base.port || (base.protocol === 'http:' ? 80 : 443)),
    protocol: base.protocol === 'http:' ? 'http' : 'https',
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Switchboard' },
  });
}
