import { describe, expect, it } from 'vitest';
import { type SubscriptionFields, subscriptionStatus } from './subscription-status.ts';

// At this moment it is 12:00 on 8 May 2024 in Melbourne, so a trial ending 2024-05-10 has 2 days left,
// one ending 2024-05-08 has 0 and one ending 2024-05-07 has -1.
const now = new Date('2024-05-08T02:00:00Z');

describe('Subscription status "derived in order"', () => {
  it.each<{ rule: string; account: SubscriptionFields; status: string }>([
    {
      rule: 'next_invoice_attempt set gives payment_failed',
      account: { plan: 'monthly', next_invoice_attempt: '2024-05-09T00:00:00Z' },
      status: 'payment_failed',
    },
    {
      rule: 'next_invoice_attempt set gives payment_failed (before any past-due rule)',
      account: { plan: 'annual', subscription_past_due: true, next_invoice_attempt: 1715212800 },
      status: 'payment_failed',
    },
    {
      rule: 'next_invoice_attempt set gives payment_failed (even on a trial)',
      account: { plan: 'trial', trial_end_date: '2024-05-10', next_invoice_attempt: '2024-05-09' },
      status: 'payment_failed',
    },
    {
      rule: 'plan trial and past due gives trial_expired (even with days remaining)',
      account: { plan: 'trial', subscription_past_due: true, trial_end_date: '2024-05-10' },
      status: 'trial_expired',
    },
    {
      rule: 'trial with remaining days above 0 gives trial',
      account: { plan: 'trial', subscription_past_due: false, trial_end_date: '2024-05-10' },
      status: 'trial',
    },
    {
      rule: 'trial with remaining days below 0 gives trial_expired',
      account: { plan: 'trial', subscription_past_due: false, trial_end_date: '2024-05-07' },
      status: 'trial_expired',
    },
    {
      rule: 'otherwise the plan value itself (a trial with exactly 0 days remaining)',
      account: { plan: 'trial', trial_end_date: '2024-05-08' },
      status: 'trial',
    },
    {
      rule: 'otherwise the plan value itself (a trial with no end date)',
      account: { plan: 'trial', trial_end_date: null },
      status: 'trial',
    },
    {
      rule: 'monthly and past due gives monthly_subscription_expired',
      account: { plan: 'monthly', subscription_past_due: true, next_invoice_attempt: null },
      status: 'monthly_subscription_expired',
    },
    {
      rule: 'annual and past due gives annual_subscription_expired',
      account: { plan: 'annual', subscription_past_due: true, next_invoice_attempt: '' },
      status: 'annual_subscription_expired',
    },
    {
      rule: 'otherwise the plan value itself (monthly, not past due)',
      account: { plan: 'monthly', subscription_past_due: false },
      status: 'monthly',
    },
    {
      rule: 'otherwise the plan value itself (annual, not past due)',
      account: { plan: 'annual', trial_end_date: '2024-05-07' },
      status: 'annual',
    },
  ])('$rule', ({ account, status }) => {
    expect(subscriptionStatus(account, now)).toBe(status);
  });
});
