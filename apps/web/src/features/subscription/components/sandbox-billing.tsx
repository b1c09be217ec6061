import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Result, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { api, type Envelope } from '@/lib/api-client.ts';
import { dayText } from '@/lib/dates.ts';
import { failureText } from '@/lib/failure-text.ts';
import { moneyText } from '@/lib/money.ts';
import { type SandboxBillingSession, sandboxCheckoutKey } from '../sandbox-checkout-api.ts';

/**
 * The sandbox's stand-in for Stripe Checkout in subscription mode: no card is charged. Subscribing makes the
 * server send itself the signed events Stripe would, and the owner goes back to Settings → Subscription.
 */
export function SandboxBillingCheckout({ id, query }: { id: string; query: string }) {
  const path = `/sandbox/billing/${encodeURIComponent(id)}${query}`;
  const session = useQuery({
    queryKey: sandboxCheckoutKey(`${id}${query}`),
    queryFn: async () => (await api.get<Envelope<SandboxBillingSession>>(path, { silent: true })).data.body,
    retry: false,
  });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (session.isPending) return <Skeleton active />;
  if (session.isError)
    return (
      <Result status="warning" title="This payment page is not valid" subTitle={failureText(session.error)} />
    );
  const s = session.data;
  const first = s.promotion?.first_payment_cents ?? s.amount_cents;
  async function subscribe() {
    setBusy(true);
    setFailure(null);
    try {
      const { data } = await api.post<Envelope<{ redirect_url: string }>>(path, undefined, { silent: true });
      window.location.assign(data.body.redirect_url);
    } catch (error) {
      setFailure(failureText(error));
      setBusy(false);
    }
  }
  return (
    <Flex vertical gap={16}>
      <Alert type="info" showIcon title="Sandbox payment page: no card is charged." />
      <div>
        <Typography.Text type="secondary">{s.business_name}</Typography.Text>
        <Typography.Title level={3} style={{ margin: '4px 0 0' }}>
          Switchboard {s.plan === 'annual' ? 'annual' : 'monthly'} plan
        </Typography.Title>
        <Typography.Title level={2} style={{ margin: '8px 0 0' }}>
          {moneyText(s.amount_cents, s.currency)}
          <Typography.Text type="secondary"> / {s.interval}</Typography.Text>
        </Typography.Title>
      </div>
      {s.promotion && (
        <Typography.Paragraph type="success" style={{ margin: 0 }}>
          {s.promotion.code}: {s.promotion.description}. First payment {moneyText(first, s.currency)}.
        </Typography.Paragraph>
      )}
      {s.trial_end && (
        <Typography.Paragraph style={{ margin: 0 }}>
          Your trial carries on: the first payment is taken on {dayText(s.trial_end)}.
        </Typography.Paragraph>
      )}
      {failure && <Alert type="error" showIcon title={failure} role="alert" />}
      {s.status === 'complete' ? (
        <Alert type="success" showIcon title="This plan is paid for." />
      ) : (
        <Button type="primary" size="large" block loading={busy} onClick={subscribe}>
          {s.trial_end ? 'Start my subscription' : `Pay ${moneyText(first, s.currency)}`}
        </Button>
      )}
      <Button type="link" href={s.cancel_url}>
        Back to Switchboard
      </Button>
    </Flex>
  );
}
