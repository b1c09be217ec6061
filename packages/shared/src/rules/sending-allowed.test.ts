import { describe, expect, it } from 'vitest';
import { sendingRefusal } from './sending-allowed.ts';

// 12:00 on 8 May 2024 in Melbourne.
const now = new Date('2024-05-08T02:00:00Z');

describe('sendingRefusal', () => {
  it('lets a verified business on a running trial or plan send', () => {
    expect(sendingRefusal({ plan: 'trial', trial_end_date: '2024-05-20', verified: true }, now)).toBeNull();
    expect(sendingRefusal({ plan: 'monthly', verified: true }, now)).toBeNull();
    expect(sendingRefusal({ plan: 'annual', verified: true }, now)).toBeNull();
  });

  it('keeps sending while a failed payment is retried', () => {
    const b = { plan: 'monthly' as const, next_invoice_attempt: '2024-05-10', verified: true };
    expect(sendingRefusal(b, now)).toBeNull();
  });

  it('refuses an expired trial or subscription, saying which and what to do', () => {
    const trial = sendingRefusal({ plan: 'trial', trial_end_date: '2024-05-01', verified: true }, now);
    expect(trial).toMatchObject({ code: 'subscription_inactive', status: 'trial_expired' });
    expect(trial?.message).toContain('free trial has ended');
    const monthly = sendingRefusal({ plan: 'monthly', subscription_past_due: true, verified: true }, now);
    expect(monthly).toMatchObject({ status: 'monthly_subscription_expired' });
    expect(monthly?.message).toContain('Settings → Subscription');
    const annual = sendingRefusal({ plan: 'annual', subscription_past_due: true, verified: true }, now);
    expect(annual?.status).toBe('annual_subscription_expired');
  });

  it('refuses an unverified business until its email is confirmed; expiry is said first', () => {
    const b = sendingRefusal({ plan: 'trial', trial_end_date: '2024-05-20', verified: false }, now);
    expect(b).toMatchObject({ code: 'email_not_verified', status: 'trial' });
    const both = sendingRefusal({ plan: 'trial', trial_end_date: '2024-05-01', verified: false }, now);
    expect(both?.code).toBe('subscription_inactive');
  });
});
