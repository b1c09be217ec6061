import { trialRemainingDays } from './trial-days.ts';
import type { DateInput } from './zoned-day.ts';

export const PLANS = ['trial', 'monthly', 'annual'] as const;
export type Plan = (typeof PLANS)[number];

export type SubscriptionStatus =
  | Plan
  | 'payment_failed'
  | 'trial_expired'
  | 'monthly_subscription_expired'
  | 'annual_subscription_expired';

export type SubscriptionFields = {
  plan: Plan;
  subscription_past_due?: boolean | null;
  next_invoice_attempt?: DateInput | null;
  trial_end_date?: DateInput | null;
};

function isSet(value: DateInput | null | undefined): value is DateInput {
  return value !== null && value !== undefined && value !== '';
}

/**
 * Spec §4, checked in the spec's order. A trial with no end date has no remaining days to compare,
 * so it falls through to its plan value, as does a trial with exactly 0 days left.
 */
export function subscriptionStatus(account: SubscriptionFields, now: Date = new Date()): SubscriptionStatus {
  const { plan, subscription_past_due: pastDue, next_invoice_attempt, trial_end_date } = account;
  if (isSet(next_invoice_attempt)) return 'payment_failed';
  if (plan === 'trial' && pastDue) return 'trial_expired';
  if (plan === 'trial' && isSet(trial_end_date)) {
    const remaining = trialRemainingDays(trial_end_date, now);
    if (remaining > 0) return 'trial';
    if (remaining < 0) return 'trial_expired';
  }
  if (plan === 'monthly' && pastDue) return 'monthly_subscription_expired';
  if (plan === 'annual' && pastDue) return 'annual_subscription_expired';
  return plan;
}
