import {
  type SubscriptionFields,
  type SubscriptionStatus,
  subscriptionStatus,
} from './subscription-status.ts';

/** Where the owner chooses a plan, renews or changes the card. */
export const SUBSCRIPTION_SETTINGS_PATH = '/settings/subscription';

export type SendingRefusal = {
  code: 'email_not_verified' | 'subscription_inactive';
  status: SubscriptionStatus;
  message: string;
};

const EXPIRED_TEXT: Partial<Record<SubscriptionStatus, string>> = {
  trial_expired:
    'Your free trial has ended. Choose a plan in Settings → Subscription to send messages again; your inbox stays open to read.',
  monthly_subscription_expired:
    'Your monthly subscription has ended. Renew it in Settings → Subscription to send messages again; your inbox stays open to read.',
  annual_subscription_expired:
    'Your annual subscription has ended. Renew it in Settings → Subscription to send messages again; your inbox stays open to read.',
};

/**
 * Whether a business may send to its customers now, and if not why, in words for the person who tried.
 * A business that has not confirmed its email, or whose trial or subscription has expired, can still read
 * its inbox but sends nothing. A failed payment alone does not stop sending: the card is tried again, and
 * the app warns the owner until it goes through or the subscription ends.
 */
export function sendingRefusal(
  business: SubscriptionFields & { verified: boolean },
  now: Date = new Date(),
): SendingRefusal | null {
  const status = subscriptionStatus(business, now);
  const expired = EXPIRED_TEXT[status];
  if (expired) return { code: 'subscription_inactive', status, message: expired };
  if (!business.verified) {
    return {
      code: 'email_not_verified',
      status,
      message:
        'Confirm your email address to send messages to customers: open the link we emailed you, or send a new one from the banner at the top of the page.',
    };
  }
  return null;
}
