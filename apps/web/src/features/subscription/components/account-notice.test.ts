import { describe, expect, it } from 'vitest';
import { accountNotice, type BannerBusiness } from './account-notice.ts';

const NOW = new Date('2026-11-28T02:00:00Z');
const PAID: BannerBusiness = {
  plan: 'monthly',
  trial_end_date: null,
  subscription_past_due: false,
  next_invoice_attempt: null,
  verified: true,
};

describe('the account strip speaks to whoever can act on it', () => {
  it('tells the owner to update the card after a failed payment, and staff that the owner can', () => {
    const failed = { ...PAID, subscription_past_due: true, next_invoice_attempt: '2026-12-01T00:00:00Z' };
    const owner = accountNotice(failed, true, NOW);
    const staff = accountNotice(failed, false, NOW);
    expect(owner?.text).toMatch(/^Your last payment failed\..*; update it to keep your subscription\.$/);
    expect(staff?.text).toMatch(/^The business's last payment failed\./);
    expect(staff?.text).toContain('the business owner can update the card');
    expect(staff?.text).not.toMatch(/update it/);
  });

  it('tells staff that the owner chooses a plan when the trial has ended', () => {
    const ended = { ...PAID, plan: 'trial', trial_end_date: '2026-11-01' };
    expect(accountNotice(ended, true, NOW)?.text).toContain('until you choose a plan');
    expect(accountNotice(ended, false, NOW)?.text).toContain('until the business owner chooses a plan');
  });

  it('tells staff that the owner has to confirm the email address', () => {
    const unconfirmed = { ...PAID, verified: false };
    expect(accountNotice(unconfirmed, true, NOW)?.text).toMatch(/^Confirm your email address/);
    expect(accountNotice(unconfirmed, false, NOW)?.text).toMatch(/^The business owner has not confirmed/);
  });
});
