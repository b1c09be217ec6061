import {
  COOKIE_NAMES,
  SUBSCRIPTION_SETTINGS_PATH,
  type SubscriptionStatus,
  subscriptionStatus,
  trialRemainingDays,
} from '@switchboard/shared';
import { Alert, Button } from 'antd';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { cookieWrite, readCookie, writeCookies } from '@/lib/cookies.ts';
import { failureText } from '@/lib/failure-text.ts';
import { useBannerHeight } from '@/lib/use-banner-height.ts';
import { resendConfirmationLink } from '../api.ts';
import './account-banner.css';
import { dayText } from '@/lib/dates.ts';

export type BannerBusiness = {
  plan: string;
  trial_end_date: string | null;
  subscription_past_due: boolean;
  next_invoice_attempt: string | null;
  verified: boolean;
};

type Notice = { type: 'info' | 'warning' | 'error'; text: string; action?: 'plan' | 'card' | 'resend' };

/** What the account's state means for the person, and what to do (spec §4's status, then the email check). */
export function accountNotice(b: BannerBusiness, now = new Date()): Notice | null {
  const status: SubscriptionStatus = subscriptionStatus(
    { ...b, plan: b.plan as 'trial' | 'monthly' | 'annual' },
    now,
  );
  switch (status) {
    case 'payment_failed':
      return {
        type: 'warning',
        text: `Your last payment failed. We will try your card again${
          b.next_invoice_attempt ? ` on ${dayText(b.next_invoice_attempt)}` : ''
        }; update it to keep your subscription.`,
        action: 'card',
      };
    case 'trial_expired':
      return {
        type: 'error',
        text: 'Your free trial has ended. You can still read your inbox, but nothing can be sent until you choose a plan.',
        action: 'plan',
      };
    case 'monthly_subscription_expired':
    case 'annual_subscription_expired':
      return {
        type: 'error',
        text: `Your ${status.startsWith('monthly') ? 'monthly' : 'annual'} subscription has ended. You can still read your inbox, but nothing can be sent until you renew.`,
        action: 'plan',
      };
    default:
      break;
  }
  if (!b.verified) {
    return {
      type: 'warning',
      text: 'Confirm your email address to send messages to customers and invite your team: open the link we emailed you.',
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

const ACTION_TEXT = { plan: 'Choose a plan', card: 'Update my card', resend: 'Send a new link' } as const;

/**
 * The strip under the top bar that says where the account stands (trial days, an ended trial or subscription, a
 * failed payment, an unconfirmed email) with the one thing to do about it. Owners get the action; staff are told
 * who can act. Its height is published as --app-banner-height so full-height pages (the inbox) make room.
 */
export function AccountBanner({
  business,
  canManage,
  offerReferral,
}: {
  business: BannerBusiness & { id: string };
  canManage: boolean;
  /** The business owner, who is offered the referral link once when there is nothing else to say. */
  offerReferral: boolean;
}) {
  const notice = accountNotice(business);
  const ref = useRef<HTMLDivElement>(null);
  const [referral, setReferral] = useState(
    () => offerReferral && business.verified && !readCookie(COOKIE_NAMES.referalPopup),
  );
  const [copied, setCopied] = useState(false);
  const [resend, setResend] = useState<{ pending: boolean; result?: string; error?: string }>({
    pending: false,
  });

  useBannerHeight(ref);

  if (!notice && referral) {
    // The referral offer (cookie `referalPopup`, spec §3): once; copying the link or closing it is remembered.
    const link = `${window.location.origin}/signup?ref=${business.id}`;
    const remember = (value: string) => writeCookies([cookieWrite(COOKIE_NAMES.referalPopup, value)]);
    return (
      <div ref={ref} className="account-banner" data-testid="referral-offer">
        <Alert
          banner
          type="success"
          showIcon
          closable={{ 'aria-label': 'Not now' }}
          onClose={() => {
            remember('dismissed');
            setReferral(false);
          }}
          title={
            <span>
              Know a business that would like Switchboard? Share your link: they start a free trial, and we
              know you sent them. <span className="account-banner__link">{link}</span>
            </span>
          }
          action={
            <Button
              size="small"
              onClick={async () => {
                try {
                  await navigator.clipboard.writeText(link);
                  setCopied(true);
                } catch {
                  // The link is in the strip to copy by hand.
                }
                remember('copied');
              }}
            >
              {copied ? 'Copied' : 'Copy my link'}
            </Button>
          }
        />
      </div>
    );
  }
  if (!notice) return null;

  async function sendLink() {
    setResend({ pending: true });
    try {
      const r = await resendConfirmationLink();
      setResend({
        pending: false,
        result: r.already_verified
          ? 'Your email is already confirmed.'
          : `Sent: check ${r.email ?? 'your inbox'}.`,
      });
    } catch (e) {
      setResend({ pending: false, error: failureText(e) });
    }
  }

  let action: React.ReactNode = null;
  if (notice.action === 'resend') {
    action = resend.result ? (
      <span className="account-banner__done">{resend.result}</span>
    ) : (
      <Button size="small" loading={resend.pending} onClick={sendLink}>
        {ACTION_TEXT.resend}
      </Button>
    );
  } else if (notice.action && canManage) {
    action = (
      <Link to={SUBSCRIPTION_SETTINGS_PATH}>
        <Button size="small" type={notice.type === 'info' ? 'default' : 'primary'}>
          {ACTION_TEXT[notice.action]}
        </Button>
      </Link>
    );
  }
  const staffNote = notice.action && notice.action !== 'resend' && !canManage && notice.type !== 'info';

  return (
    <div ref={ref} className="account-banner" data-testid="account-banner">
      <Alert
        banner
        type={notice.type}
        showIcon
        title={
          <span>
            {notice.text}
            {staffNote && ' Ask the business owner to sort it out.'}
            {resend.error && <span className="account-banner__error"> {resend.error}</span>}
          </span>
        }
        action={action}
      />
    </div>
  );
}
