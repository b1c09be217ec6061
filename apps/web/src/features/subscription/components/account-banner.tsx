import { COOKIE_NAMES, SUBSCRIPTION_SETTINGS_PATH } from '@switchboard/shared';
import { Alert, Button } from 'antd';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { cookieWrite, readCookie, writeCookies } from '@/lib/cookies.ts';
import { failureText } from '@/lib/failure-text.ts';
import { useBannerHeight } from '@/lib/use-banner-height.ts';
import { resendConfirmationLink } from '../api.ts';
import { accountNotice, type BannerBusiness, referralLink } from './account-notice.ts';
import './account-banner.css';

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
  business: BannerBusiness & { referral_code: string | null };
  canManage: boolean;
  /** The business owner, who is offered the referral link once when there is nothing else to say. */
  offerReferral: boolean;
}) {
  const notice = accountNotice(business, canManage);
  const ref = useRef<HTMLDivElement>(null);
  const [referral, setReferral] = useState(
    () =>
      offerReferral &&
      business.verified &&
      Boolean(business.referral_code) &&
      !readCookie(COOKIE_NAMES.referalPopup),
  );
  const [copied, setCopied] = useState(false);
  const [resend, setResend] = useState<{ pending: boolean; result?: string; error?: string }>({
    pending: false,
  });

  useBannerHeight(ref);

  if (!notice && referral && business.referral_code) {
    // The referral offer (cookie `referalPopup`, spec §3): once; copying the link or closing it is remembered.
    const link = referralLink(business.referral_code);
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
        {canManage ? ACTION_TEXT.resend : 'Send the owner a new link'}
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

  return (
    <div ref={ref} className="account-banner" data-testid="account-banner">
      <Alert
        banner
        type={notice.type}
        showIcon
        title={
          <span>
            {notice.text}
            {resend.error && <span className="account-banner__error"> {resend.error}</span>}
          </span>
        }
        action={action}
      />
    </div>
  );
}
