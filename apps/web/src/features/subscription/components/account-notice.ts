import { type SubscriptionStatus, subscriptionStatus, trialRemainingDays } from '@switchboard/shared';
import { dayText } from '../../../lib/dates.ts';

export type BannerBusiness = {
  plan: string;
  trial_end_date: string | null;
  subscription_past_due: boolean;
  next_invoice_attempt: string | null;
  verified: boolean;
};

export type Notice = {
  type: 'info' | 'warning' | 'error';
  text: string;
  action?: 'plan' | 'card' | 'resend';
};

/**
 * What the account's state means for the person, and what to do (spec §4's status, then the email check). The
 * owner is told what to do; staff, who cannot choose a plan or change the card, are told who can.
 */
export function accountNotice(b: BannerBusiness, owner: boolean, now = new Date()): Notice | null {
  const status: SubscriptionStatus = subscriptionStatus(
    { ...b, plan: b.plan as 'trial' | 'monthly' | 'annual' },
    now,
  );
  const retry = b.next_invoice_attempt ? ` on ${dayText(b.next_invoice_attempt)}` : '';
  const period = status.startsWith('monthly') ? 'monthly' : 'annual';
  switch (status) {
    case 'payment_failed':
      return {
        type: 'warning',
        text: owner
          ? `Your last payment failed. We will try your card again${retry}; update it to keep your subscription.`
          : `The business's last payment failed. We will try its card again${retry}; the business owner can update the card to keep the subscription.`,
        action: 'card',
      };
    case 'trial_expired':
      return {
        type: 'error',
        text: owner
          ? 'Your free trial has ended. You can still read your inbox, but nothing can be sent until you choose a plan.'
          : 'The free trial has ended. You can still read the inbox, but nothing can be sent until the business owner chooses a plan.',
        action: 'plan',
      };
    case 'monthly_subscription_expired':
    case 'annual_subscription_expired':
      return {
        type: 'error',
        text: owner
          ? `Your ${period} subscription has ended. You can still read your inbox, but nothing can be sent until you renew.`
          : `The business's ${period} subscription has ended. You can still read the inbox, but nothing can be sent until the business owner renews it.`,
        action: 'plan',
      };
    default:
      break;
  }
  if (!b.verified) {
    return {
      type: 'warning',
      text: owner
        ? 'Confirm your email address to send messages to customers and invite your team: open the link we emailed you.'
        : 'The business owner has not confirmed their email address yet: nothing can be sent to customers until they open the link we emailed them.',
      action: 'resend',
    };
  }
  if (status === 'trial' && b.trial_end_date) {
    const days = trialRemainingDays(b.trial_end_date, now);
    return {
      type: 'info',
      text:
        days === 0
          ? 'Your free trial ends today.'
          : `${days} day${days === 1 ? '' : 's'} left in your free trial.`,
      action: 'plan',
    };
  }
  return null;
}

/** The link a business shares so that sign-ups through it are credited to it: its readable referral code. */
export function referralLink(code: string, origin: string = window.location.origin): string {
  return `${origin}/signup?ref=${encodeURIComponent(code)}`;
}
