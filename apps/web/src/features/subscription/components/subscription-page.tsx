import { CheckCircleFilled } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Input, Result, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { failureText } from '@/lib/failure-text.ts';
import {
  checkPromoCode,
  choosePlan,
  openBillingPortal,
  type PaidPlan,
  type PromoCheck,
  type SubscriptionView,
  subscriptionKeys,
  useSubscription,
} from '../api.ts';
import { referralLink } from './account-notice.ts';
import './subscription.css';
import { dayText } from '@/lib/dates.ts';
import { moneyText } from '@/lib/money.ts';

const STATUS_TEXT: Record<SubscriptionView['status'], { label: string; color: string }> = {
  trial: { label: 'Free trial', color: 'blue' },
  monthly: { label: 'Monthly plan', color: 'green' },
  annual: { label: 'Annual plan', color: 'green' },
  payment_failed: { label: 'Payment failed', color: 'orange' },
  trial_expired: { label: 'Trial ended', color: 'red' },
  monthly_subscription_expired: { label: 'Monthly plan ended', color: 'red' },
  annual_subscription_expired: { label: 'Annual plan ended', color: 'red' },
};

/** What the status means, in one sentence, with the date that matters. */
function statusSentence(v: SubscriptionView): string {
  switch (v.status) {
    case 'trial':
      return v.trial_days_left === 0
        ? 'Your free trial ends today.'
        : `Your free trial has ${v.trial_days_left} day${v.trial_days_left === 1 ? '' : 's'} left${
            v.trial_end_date ? ` (until ${dayText(v.trial_end_date)})` : ''
          }. Choose a plan any time: you are not charged before the trial ends.`;
    case 'trial_expired':
      return 'Your free trial has ended. Your inbox stays open to read; choose a plan to send messages again.';
    case 'payment_failed':
      return `Your last payment failed.${
        v.next_invoice_attempt ? ` We will try your card again on ${dayText(v.next_invoice_attempt)}.` : ''
      } Update your card to keep your subscription.`;
    case 'monthly_subscription_expired':
    case 'annual_subscription_expired':
      return `Your subscription ended${v.ends_at ? ` on ${dayText(v.ends_at)}` : ''}. Your inbox stays open to read; renew to send messages again.`;
    default:
      if (v.ends_at)
        return `Your plan is cancelled and ends on ${dayText(v.ends_at)}. You can resume it before then.`;
      return v.renews_at ? `Your plan renews on ${dayText(v.renews_at)}.` : 'Your plan is active.';
  }
}

function PlanCard({
  offer,
  current,
  canManage,
  promo,
  onChoose,
  busy,
  savingCents,
}: {
  /** What a year of this plan saves over twelve months of the monthly one, when it does. */
  savingCents: number | null;
  offer: SubscriptionView['plans'][number];
  current: boolean;
  canManage: boolean;
  promo: PromoCheck | null;
  onChoose: (plan: PaidPlan) => void;
  busy: PaidPlan | null;
}) {
  const per = offer.interval === 'year' ? 'year' : 'month';
  const discounted = promo?.plan === offer.plan ? promo : null;
  return (
    <Card
      className="sub-plan"
      title={offer.plan === 'annual' ? 'Annual' : 'Monthly'}
      extra={current && <Tag color="green">Current</Tag>}
    >
      <div className="sub-plan__price">
        {moneyText(offer.amount_cents, offer.currency)}
        <span> / {per}</span>
      </div>
      {discounted && (
        <Typography.Paragraph type="success" style={{ marginBottom: 8 }}>
          With {discounted.code}: {moneyText(discounted.first_payment_cents, discounted.currency)} first
          payment ({discounted.description}).
        </Typography.Paragraph>
      )}
      <ul className="sub-plan__features">
        <li>
          <CheckCircleFilled /> {offer.message_limit.toLocaleString()} messages a day
        </li>
        <li>
          <CheckCircleFilled /> Every channel, every location, the whole team
        </li>
        {savingCents !== null && savingCents > 0 && (
          <li>
            <CheckCircleFilled /> Saves {moneyText(savingCents, offer.currency)} a year over monthly
          </li>
        )}
      </ul>
      {canManage && (
        <Button
          type={current ? 'default' : 'primary'}
          block
          loading={busy === offer.plan}
          disabled={busy !== null}
          onClick={() => onChoose(offer.plan)}
        >
          {current ? 'Change plan' : `Choose ${offer.plan}`}
        </Button>
      )}
    </Card>
  );
}

/** The business's referral link, readable and ready to copy: a business that signs up through it is credited. */
function ReferralCard({ code }: { code: string }) {
  const link = referralLink(code);
  return (
    <Card size="small" title="Refer a business">
      <Typography.Paragraph style={{ margin: '0 0 8px' }}>
        Share your link: a business that signs up through it starts a free trial, and we know you sent them.
      </Typography.Paragraph>
      <Typography.Text
        copyable={{ text: link, tooltips: ['Copy my link', 'Copied'] }}
        style={{ overflowWrap: 'anywhere' }}
        data-testid="referral-link"
      >
        {link}
      </Typography.Text>
    </Card>
  );
}

function yearlySaving(plans: SubscriptionView['plans']): number | null {
  const monthly = plans.find((p) => p.plan === 'monthly');
  const annual = plans.find((p) => p.plan === 'annual');
  if (!monthly || !annual || monthly.currency !== annual.currency) return null;
  return monthly.amount_cents * 12 - annual.amount_cents;
}

/** Settings → Subscription: where the account stands, today's messages, the plans, a promotion code, billing. */
export function SubscriptionPage({
  canManage,
  returned,
}: {
  canManage: boolean;
  returned: 'done' | 'cancelled' | null;
}) {
  const view = useSubscription();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [codePlan, setCodePlan] = useState<PaidPlan>('monthly');
  const [promo, setPromo] = useState<PromoCheck | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const [busy, setBusy] = useState<PaidPlan | 'portal' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  if (view.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (view.isError) {
    return (
      <Result
        status="warning"
        title="We could not load your subscription"
        subTitle={failureText(view.error)}
        extra={<Button onClick={() => view.refetch()}>Try again</Button>}
      />
    );
  }
  const v = view.data;
  const status = STATUS_TEXT[v.status];

  async function check(plan: PaidPlan = codePlan) {
    if (!code.trim()) return;
    setChecking(true);
    setCodeError(null);
    try {
      setPromo(await checkPromoCode(code.trim(), plan));
    } catch (e) {
      setPromo(null);
      setCodeError(failureText(e));
    } finally {
      setChecking(false);
    }
  }

  async function go(plan: PaidPlan) {
    setBusy(plan);
    setFailure(null);
    try {
      const { url } = await choosePlan(plan, promo?.plan === plan ? promo.code : null);
      window.location.assign(url);
    } catch (e) {
      setFailure(failureText(e));
      setBusy(null);
    }
  }

  async function portal() {
    setBusy('portal');
    setFailure(null);
    try {
      window.location.assign(await openBillingPortal());
    } catch (e) {
      setFailure(failureText(e));
      setBusy(null);
    }
  }

  const paidPlan = v.plan === 'monthly' || v.plan === 'annual' ? v.plan : null;
  const running = paidPlan && !v.status.endsWith('_expired');
  return (
    <Flex vertical gap={24}>
      {returned === 'done' && (
        <Alert
          type="success"
          showIcon
          title="Thank you! Your plan is being set up: this page updates as soon as the payment is confirmed."
          closable
          onClose={() => void queryClient.invalidateQueries({ queryKey: subscriptionKeys.view })}
        />
      )}
      {returned === 'cancelled' && (
        <Alert
          type="info"
          showIcon
          title="Nothing was charged: you left the payment page before paying."
          closable
        />
      )}
      {failure && <Alert type="error" showIcon title={failure} role="alert" />}
      <Card>
        <Flex vertical gap={12}>
          <Flex align="center" gap={12} wrap>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {status.label}
            </Typography.Title>
            <Tag color={status.color}>{v.status.replaceAll('_', ' ')}</Tag>
          </Flex>
          <Typography.Paragraph style={{ margin: 0 }}>{statusSentence(v)}</Typography.Paragraph>
          {v.promotion && (
            <Typography.Paragraph type="success" style={{ margin: 0 }} data-testid="subscription-promotion">
              Bought with the code {v.promotion.code}: {v.promotion.description}.
            </Typography.Paragraph>
          )}
          {!canManage && v.status !== paidPlan && (
            <Typography.Text type="secondary">
              Only the business owner can choose a plan or change the card.
            </Typography.Text>
          )}
          <div>
            <Typography.Text>
              Messages sent today: {v.messages_sent_today.toLocaleString()} of{' '}
              {v.message_limit.toLocaleString()}
            </Typography.Text>
            <meter
              className="sub-usage"
              aria-label="Messages sent today"
              min={0}
              max={Math.max(1, v.message_limit)}
              high={v.message_limit * 0.9}
              optimum={0}
              value={v.messages_sent_today}
            />
          </div>
          {canManage && v.can_manage_billing && (
            <div>
              <Button onClick={portal} loading={busy === 'portal'} disabled={busy !== null}>
                {v.status === 'payment_failed' ? 'Update my card' : 'Manage billing, card and invoices'}
              </Button>
            </div>
          )}
        </Flex>
      </Card>

      {v.billing === 'none' ? (
        <Alert
          type="info"
          showIcon
          title="Plans are not sold on this Switchboard: whoever runs it sets each business's plan."
        />
      ) : (
        <>
          <div className="sub-plans">
            {v.plans.map((offer) => (
              <PlanCard
                key={offer.plan}
                offer={offer}
                current={Boolean(running) && offer.plan === paidPlan}
                canManage={canManage}
                promo={promo}
                onChoose={go}
                busy={busy === 'portal' ? null : busy}
                savingCents={offer.plan === 'annual' ? yearlySaving(v.plans) : null}
              />
            ))}
          </div>
          {canManage && !running && (
            <Card size="small" title="Have a promotion code?">
              <Flex gap={8} wrap align="start">
                <Input
                  aria-label="Promotion code"
                  placeholder="Code"
                  value={code}
                  onChange={(e) => {
                    setCode(e.target.value.toUpperCase());
                    setPromo(null);
                    setCodeError(null);
                  }}
                  onPressEnter={() => check()}
                  style={{ maxWidth: 220 }}
                  maxLength={100}
                />
                <Button
                  onClick={() => {
                    const next = codePlan === 'monthly' ? 'annual' : 'monthly';
                    setCodePlan(next);
                    if (promo) void check(next);
                  }}
                >
                  For the {codePlan} plan
                </Button>
                <Button
                  type="primary"
                  ghost
                  onClick={() => check()}
                  loading={checking}
                  disabled={!code.trim()}
                >
                  Check the code
                </Button>
              </Flex>
              {codeError && (
                <Typography.Paragraph type="danger" style={{ margin: '8px 0 0' }} role="alert">
                  {codeError}
                </Typography.Paragraph>
              )}
              {promo && (
                <Typography.Paragraph type="success" style={{ margin: '8px 0 0' }}>
                  {promo.code}: {promo.description}. On the {promo.plan} plan your first payment is{' '}
                  {moneyText(promo.first_payment_cents, promo.currency)} instead of{' '}
                  {moneyText(promo.price_cents, promo.currency)}.
                </Typography.Paragraph>
              )}
            </Card>
          )}
          {canManage && v.referral_code && <ReferralCard code={v.referral_code} />}
          {v.billing === 'sandbox' && (
            <Typography.Text type="secondary">
              Sandbox mode: plans are paid on a sandbox page and no card is charged. Try the codes WELCOME20
              or FIRSTMONTH.
            </Typography.Text>
          )}
        </>
      )}
    </Flex>
  );
}
