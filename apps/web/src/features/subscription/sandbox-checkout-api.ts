/**
 * The sandbox payment page's own types and key, apart from the rest of the feature's API: that page is public,
 * and must not pull the signed-in app's socket and hooks into its chunk (they would split the inbox's).
 */
type PaidPlan = 'monthly' | 'annual';

export const sandboxCheckoutKey = (id: string) => ['sandbox-billing', id] as const;

export type SandboxBillingSession = {
  id: string;
  business_name: string;
  plan: PaidPlan;
  amount_cents: number;
  currency: string;
  interval: 'month' | 'year';
  promotion: { code: string; description: string; first_payment_cents: number } | null;
  trial_end: string | null;
  status: 'open' | 'complete';
  cancel_url: string;
};
